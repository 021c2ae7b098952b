"""Upstream faults end to end: a frozen upstream is restarted, one hung call is only a timeout, an
oversized answer is refused without harm, a large answer costs ≤ 2× its size, and a stderr
flood is rotated (S-UPS-07 … S-UPS-12).

The upstream is `faulty_upstream.py`, a real child process: the faults are the process boundary.
"""

from __future__ import annotations

import json
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import anyio
import pytest

from gateway.cli import main as cli_main
from gateway.upstream.client import Upstream
from gateway.upstream.stderr_log import PUMP_CHUNK
from tests._requirements import requirement
from tests.e2e import faulty_upstream
from tests.e2e._fault_rig import (
    MAX_RESULT,
    PING_MS,
    TIMEOUT_S,
    call,
    fault_gateway,
    fault_spec,
    served_gateway,
    upstream_pid,
    wait_frozen,
    wait_gone,
)
from tests.e2e.harness import annotation_of, first_text

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

# The call, its ping and the test's own overhead (the restart is not part of the call's time).
HUNG_BOUND_S = TIMEOUT_S + PING_MS / 1000 + 1.5


def audit_lines(state: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (state / "audit.jsonl").read_text(encoding="utf-8").splitlines() if line]


@requirement("S-UPS-07", "S-UPS-09")
async def test_a_frozen_upstream_is_killed_restarted_and_its_observations_go_stale(tmp_path: Path) -> None:
    """S-UPS-07/S-UPS-09: FAILED UPSTREAM_HUNG within timeout + ping, with the stderr tail; the frozen
    child is gone, an input citing the old observation is refused and never reaches the new one, the
    next call works; the audit has the fault and its chain verifies."""
    with anyio.fail_after(60):
        async with fault_gateway(tmp_path) as (app, client):
            line = annotation_of(await call(client, "Snapshot"))
            assert line is not None
            old_obs = line.split("obs=")[1].split()[0]
            frozen_pid = await upstream_pid(client)
            assert first_text(await call(client, "freeze")) == "freezing"
            await wait_frozen(tmp_path / "state")

            started = time.monotonic()
            hung = await call(client, "echo", {"text": "anyone?"})
            elapsed = time.monotonic() - started

            assert hung["isError"] is True
            assert first_text(hung).startswith("FAILED UPSTREAM_HUNG: "), first_text(hung)
            assert TIMEOUT_S <= elapsed < HUNG_BOUND_S, elapsed
            assert any(faulty_upstream.FREEZE_MESSAGE in item.get("text", "") for item in hung["content"][1:])
            assert (app.upstream.restarts, getattr(app.upstream, "hung_kills", None)) == (1, 1)

            refused = await call(client, "Click", {"loc": [10, 10], "based_on": old_obs})
            assert first_text(refused).startswith("DENIED STALE_OBSERVATION: "), first_text(refused)
            assert first_text(await call(client, "echo", {"text": "back"})) == "back"
            new_pid = await upstream_pid(client)
            assert new_pid != frozen_pid
            stats = (await client.call_tool("stats", {})).structured_content or {}
            assert "Click" not in stats["calls"], "the refused input reached the restarted upstream"
            await wait_gone(frozen_pid)

    state = tmp_path / "state"
    failures = [e for e in audit_lines(state) if e.get("event") == "failure"]
    assert [e["code"] for e in failures] == ["UPSTREAM_HUNG"]
    assert cli_main(["audit-report", "--state-dir", str(state), "--verify"]) == 0


@requirement("S-UPS-08")
async def test_one_hung_call_is_a_timeout_and_the_upstream_that_answers_a_ping_is_kept(tmp_path: Path) -> None:
    """S-UPS-08: a call that never returns from an upstream that still answers a ping is UPSTREAM_TIMEOUT;
    the same process answers the next call."""
    with anyio.fail_after(30):
        async with fault_gateway(tmp_path) as (app, client):
            pid = await upstream_pid(client)
            late = await call(client, "hang")
            assert first_text(late).startswith("FAILED UPSTREAM_TIMEOUT: "), first_text(late)
            assert first_text(await call(client, "echo", {"text": "still here"})) == "still here"
            assert await upstream_pid(client) == pid
            assert app.upstream.restarts == 0


@requirement("S-UPS-10", "S-UPS-09")
async def test_an_answer_over_max_result_bytes_fails_and_the_next_call_works(tmp_path: Path) -> None:
    """S-UPS-10/S-UPS-09: FAILED RESULT_TOO_LARGE naming size and limit, the same upstream answers the
    next call (even one just under the limit), the fault is audited and the chain verifies."""
    with anyio.fail_after(30):
        async with fault_gateway(tmp_path) as (app, client):
            pid = await upstream_pid(client)
            for image in (False, True):
                big = await call(client, "huge", {"bytes": 3 * MAX_RESULT, "image": image})
                assert big["isError"] is True
                text = first_text(big)
                assert text.startswith("FAILED RESULT_TOO_LARGE: "), text
                assert f"over max_result_bytes ({MAX_RESULT})" in text
            fits = await call(client, "huge", {"bytes": MAX_RESULT - 1000})
            assert len(first_text(fits)) == MAX_RESULT - 1000
            assert await upstream_pid(client) == pid and app.upstream.restarts == 0
    state = tmp_path / "state"
    assert [e["code"] for e in audit_lines(state) if e.get("event") == "failure"] == ["RESULT_TOO_LARGE"] * 2
    assert cli_main(["audit-report", "--state-dir", str(state), "--verify"]) == 0


@requirement("S-UPS-07", "S-UPS-10")
async def test_through_serve_a_frozen_upstream_and_an_oversized_answer_both_recover(tmp_path: Path) -> None:
    """S-UPS-07/S-UPS-10: the same through `winmcp-gateway serve` over stdio: HUNG then working, too large
    then working; the child gateway's audit chain verifies."""
    with anyio.fail_after(60):
        async with served_gateway(tmp_path) as client:
            assert first_text(await call(client, "huge", {"bytes": 2 * MAX_RESULT})).startswith(
                "FAILED RESULT_TOO_LARGE: "
            )
            assert first_text(await call(client, "echo", {"text": "one"})) == "one"
            await call(client, "freeze")
            await wait_frozen(tmp_path / "state")
            started = time.monotonic()
            assert first_text(await call(client, "echo", {"text": "?"})).startswith("FAILED UPSTREAM_HUNG: ")
            assert time.monotonic() - started < HUNG_BOUND_S
            assert first_text(await call(client, "echo", {"text": "two"})) == "two"
    state = tmp_path / "state"
    assert [e["code"] for e in audit_lines(state) if e.get("event") == "failure"] == [
        "RESULT_TOO_LARGE",
        "UPSTREAM_HUNG",
    ]
    assert cli_main(["audit-report", "--state-dir", str(state), "--verify"]) == 0


@requirement("S-UPS-12")
async def test_a_large_answer_costs_at_most_twice_its_size_and_is_read_whole(tmp_path: Path) -> None:
    """S-UPS-12: a 20 MB text answer through the upstream connection peaks (tracemalloc) at ≤ 2× its size
    plus 1 MiB; the whole text arrives and the next call works."""
    size = 20_000_000
    async with Upstream(fault_spec(), timeout_s=60, stderr_path=tmp_path / "upstream.stderr.log") as upstream:
        assert (await upstream.call_tool("echo", {"text": "warm"}))["content"][0]["text"] == "warm"
        tracemalloc.start()
        try:
            result = await upstream.call_tool("huge", {"bytes": size})
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(result["content"][0]["text"]) == size
        del result
        print(f"peak/size = {peak / size:.3f}", file=sys.stderr)
        assert peak <= 2 * size + (1 << 20), f"peak {peak} is {peak / size:.2f}× the answer"
        assert (await upstream.call_tool("echo", {"text": "next"}))["content"][0]["text"] == "next"


@requirement("S-UPS-11")
async def test_a_stderr_flood_is_rotated_like_the_audit(tmp_path: Path) -> None:
    """S-UPS-11: 4 MB of stderr with audit_max_bytes = 256 KiB and audit_keep = 2: the current file and
    .1, .2 exist, none is over the limit, nothing older is kept, the newest lines are in the current
    file, and the upstream keeps answering."""
    limit = 4 * PUMP_CHUNK
    with anyio.fail_after(30):
        async with fault_gateway(tmp_path, audit_max_bytes=limit, audit_keep=2) as (app, client):
            assert first_text(await call(client, "flood", {"bytes": 4_000_000})) == "flooded"
            assert first_text(await call(client, "echo", {"text": "ok"})) == "ok"
    state = tmp_path / "state"
    logs = sorted(p.name for p in state.glob("upstream.stderr.log*") if not p.name.endswith(".lock"))
    assert logs == ["upstream.stderr.log", "upstream.stderr.log.1", "upstream.stderr.log.2"]
    sizes = {name: (state / name).stat().st_size for name in logs}
    assert all(0 < n <= limit for n in sizes.values()), sizes
    assert (state / "upstream.stderr.log").read_bytes().endswith(faulty_upstream.FLOOD_LINE)  # the newest
