"""The background audit writer and batch appends (S-AUD-13, S-AUD-14, S-AUD-16).

Threads, a temporary state dir, no processes: every test is milliseconds. What the lines say is
read back from the file and the chain is verified each time — the writer may batch and queue,
but the record must be the one `AuditLog.append` would have written, in order, all of it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from gateway.audit.background import BackgroundWriter
from gateway.audit.reader import audit_files, iter_events
from gateway.audit.verify import verify_chain
from gateway.audit.writer import AuditLog
from tests._requirements import requirement

pytestmark = pytest.mark.anyio


def _records(directory: Path) -> list[dict[str, Any]]:
    return [e.record for e in iter_events(audit_files(directory)) if e.record is not None]


class _SlowLog(AuditLog):
    """An AuditLog whose batches take a while: the queue fills, so back-pressure shows."""

    def __init__(self, directory: Path, delay_s: float) -> None:
        super().__init__(directory)
        self.delay_s = delay_s
        self.batch_sizes: list[int] = []

    def append_prepared(self, records: Any) -> list[int | None]:
        time.sleep(self.delay_s)
        self.batch_sizes.append(len(records))
        return super().append_prepared(records)


@requirement("S-AUD-14")
def test_a_batch_is_one_chain_continuation_and_each_event_keeps_its_own_time(tmp_path: Path) -> None:
    """S-AUD-14: append_batch writes lines that continue the chain exactly as single appends would."""
    log = AuditLog(tmp_path)
    log.append("config", reason="before")
    seqs = log.append_batch([("allow", {"tool": "Click", "n": i}, 1_800_000_000.0 + i) for i in range(50)])
    log.append("config", reason="after")
    records = _records(tmp_path)
    assert seqs == list(range(2, 52))
    assert [r["seq"] for r in records] == list(range(1, 53))
    assert [r.get("n") for r in records[1:51]] == list(range(50))
    assert records[1]["ts"] == "2027-01-15T08:00:00.000Z" and records[50]["ts"].endswith(":49.000Z")
    assert verify_chain(audit_files(tmp_path)).ok


@requirement("S-AUD-14")
def test_a_batch_that_crosses_the_size_limit_rotates_mid_batch(tmp_path: Path) -> None:
    """S-AUD-14: rotation happens between two lines of one batch; the chain carries on across files."""
    log = AuditLog(tmp_path, max_bytes=2_000, keep=5)
    log.append_batch([("allow", {"tool": "Click", "reason": "x" * 150, "n": i}, 1.0) for i in range(40)])
    files = audit_files(tmp_path)
    assert len(files) > 1 and all(f.stat().st_size <= 2_000 for f in files)
    assert [r["n"] for r in _records(tmp_path)][-1] == 39
    assert verify_chain(files).ok


@requirement("S-AUD-14")
def test_one_event_that_cannot_be_built_costs_only_itself(tmp_path: Path) -> None:
    """S-AUD-14: a hostile value fails its own line (counted), the rest of the batch is written."""
    log = AuditLog(tmp_path)

    class Exploding:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    def bad_build(event: str, fields: dict[str, Any], *, ts: float | None = None) -> dict[str, Any]:
        if fields.get("n") == 1:
            raise RuntimeError("cannot build")
        return original(event, fields, ts=ts)

    original = log._build
    log._build = bad_build  # type: ignore[method-assign]
    seqs = log.append_batch([("allow", {"n": i, "odd": Exploding() if i == 2 else i}, 1.0) for i in range(3)])
    assert seqs[1] is None and seqs[0] == 1 and seqs[2] == 2
    assert log.failures == 1
    assert [r["n"] for r in _records(tmp_path)] == [0, 2]


@requirement("S-AUD-13")
async def test_queued_events_land_in_the_order_they_were_handed_in(tmp_path: Path) -> None:
    """S-AUD-13: one queue, one writer — 300 events from one loop land in order, chained, none lost."""
    writer = BackgroundWriter(AuditLog(tmp_path))
    for i in range(300):
        await writer.submit("allow", {"tool": "Click", "n": i})
    await writer.flush()
    assert [r["n"] for r in _records(tmp_path)] == list(range(300))
    assert writer.batches < 300  # several events per write (the point of the queue)
    writer.close()
    assert verify_chain(audit_files(tmp_path)).ok


@requirement("S-AUD-13")
async def test_a_full_queue_makes_callers_wait_instead_of_dropping(tmp_path: Path) -> None:
    """S-AUD-13: with room for 4 events and a slow disk, 40 submits all land; none waited unboundedly."""
    log = _SlowLog(tmp_path, delay_s=0.01)
    writer = BackgroundWriter(log, max_pending=4, max_batch=4)
    waited = 0
    for i in range(40):
        started = time.perf_counter()
        await writer.submit("allow", {"n": i})
        waited += time.perf_counter() - started > 0.005
    writer.close()
    assert [r["n"] for r in _records(tmp_path)] == list(range(40))
    assert waited > 0, "the queue never filled: the test did not exercise back-pressure"
    assert max(log.batch_sizes) <= 4


@requirement("S-AUD-15")
async def test_write_ahead_returns_once_the_line_is_on_disk(tmp_path: Path) -> None:
    """S-AUD-15: write_ahead returns the line's seq, and the file already holds it (and all before it)."""
    writer = BackgroundWriter(AuditLog(tmp_path))
    await writer.submit("observation", {"tool": "Snapshot"})
    seq = await writer.write_ahead("allow", {"tool": "Click", "phase": "intent"})
    records = _records(tmp_path)
    assert seq == 2 and [r["event"] for r in records] == ["observation", "allow"]
    assert records[-1]["phase"] == "intent" and records[-1]["seq"] == seq
    writer.close()


@requirement("S-AUD-16")
async def test_closing_drains_every_queued_event(tmp_path: Path) -> None:
    """S-AUD-16: close() returns after the last queued line is written; after close, events still land."""
    log = _SlowLog(tmp_path, delay_s=0.002)
    writer = BackgroundWriter(log)
    for i in range(200):
        await writer.submit("allow", {"n": i})
    await anyio.to_thread.run_sync(writer.close)
    assert len(_records(tmp_path)) == 200
    await writer.submit("config", {"reason": "late"})
    assert _records(tmp_path)[-1]["reason"] == "late"
    assert verify_chain(audit_files(tmp_path)).ok


@requirement("S-AUD-13")
async def test_a_writer_that_fails_a_batch_never_leaves_a_waiter_hanging(tmp_path: Path) -> None:
    """S-AUD-13, S-AUD-06: an unwritable dir fails the line (counted), write_ahead answers None, flush returns."""
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state dir should be", encoding="utf-8")
    log = AuditLog(blocker)
    writer = BackgroundWriter(log)
    with anyio.fail_after(10):
        assert await writer.write_ahead("allow", {"tool": "Click"}) is None
        await writer.flush()
    assert log.failures >= 1 and log.last_error
    writer.close()


@requirement("S-AUD-13")
def test_a_synchronous_reader_can_wait_for_the_queue(tmp_path: Path) -> None:
    """S-AUD-13: wait_written blocks until what was handed in from any thread is on disk."""
    writer = BackgroundWriter(AuditLog(tmp_path))

    async def produce() -> None:
        for i in range(50):
            await writer.submit("allow", {"n": i})

    thread = threading.Thread(target=anyio.run, args=(produce,))
    thread.start()
    thread.join()
    assert writer.wait_written(5.0)
    assert len(_records(tmp_path)) == 50
    writer.close()


@requirement("S-AUD-13")
async def test_lines_handed_in_within_the_linger_go_out_in_one_batch(tmp_path: Path) -> None:
    """S-AUD-13: group commit — lines nobody waits for, handed in one after another, share one write."""
    writer = BackgroundWriter(AuditLog(tmp_path), linger_s=2.0)
    for i in range(20):
        await writer.submit("allow", {"tool": "DisplayInventory", "n": i})
        await anyio.sleep(0.001)  # calls come one at a time, not in a burst the queue would batch anyway
    await writer.flush()
    assert writer.batches == 1
    assert [r["n"] for r in _records(tmp_path)] == list(range(20))
    writer.close()


@requirement("S-AUD-13")
async def test_a_lingering_line_is_written_without_anyone_asking(tmp_path: Path) -> None:
    """S-AUD-13: a line nobody waits for still reaches the file, once its linger is over."""
    writer = BackgroundWriter(AuditLog(tmp_path), linger_s=0.05)
    await writer.submit("observation", {"tool": "Snapshot"})
    with anyio.fail_after(10):
        # The writer thread counts a batch just after its lines reach the file: wait for both (CI once saw the
        # line and read the count in between).
        while not (_records(tmp_path) and writer.batches):
            await anyio.sleep(0.01)
    assert writer.batches == 1
    writer.close()


@requirement("S-AUD-15")
@pytest.mark.parametrize("waiter", ["write_ahead", "flush", "wait_written", "close"])
async def test_nothing_anyone_waits_for_waits_out_the_linger(tmp_path: Path, waiter: str) -> None:
    """S-AUD-15, S-AUD-13: with an hour's linger, a write-ahead, a flush, a synchronous wait and close each
    end it at once, and take the lines queued before them along."""
    writer = BackgroundWriter(AuditLog(tmp_path), linger_s=3600.0)
    await writer.submit("observation", {"tool": "Snapshot"})
    with anyio.fail_after(10):  # a liveness bound: the linger is 360 times longer
        if waiter == "write_ahead":
            assert await writer.write_ahead("allow", {"tool": "Click", "phase": "intent"}) == 2
        elif waiter == "flush":
            await writer.flush()
        elif waiter == "wait_written":
            assert await anyio.to_thread.run_sync(writer.wait_written, 10.0)
        else:
            await anyio.to_thread.run_sync(writer.close)
    assert _records(tmp_path)[0]["tool"] == "Snapshot"
    writer.close()
