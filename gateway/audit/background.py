"""The gateway's one audit writer: a FIFO thread that batches lines (issue 13; S-AUD-13..S-AUD-16).

A call used to wait for its audit line: a thread hop, the cross-process file lock, a tail check,
open/write/close — about 2 ms on every call. Now the pipeline hands most lines to this writer
and goes on; the writer prepares each line as it comes in (`AuditLog.prepare`: redaction and the
result summary, which need no lock) and writes what has queued up with `AuditLog.append_prepared`
(one lock acquisition, one write, one fsync). What stays the same:

* order: one queue, one writer, so lines land in the order they were handed in (FIFO);
* the record: nothing is dropped — a full queue makes the caller wait (back-pressure), and
  closing drains the queue before it returns;
* the chain, rotation, concurrency across processes and torn-line repair: all `AuditLog`'s;
* the time: each event is stamped when it was handed in, not when it was written.

Group commit: a line that nobody waits for may wait up to `LINGER_S` for others to join its batch.
One write per call cost the gateway about a third of a small call's CPU (the cross-process lock,
three stats, open/write/close); lingering spreads that over every call of the window. Anything
someone waits for (`write_ahead`, `flush`, `wait_written`, `close`) ends the linger at once and goes
out with what has queued; since the lines before it are already prepared, a write-ahead pays only
for chaining and appending them. The linger only widens by `LINGER_S` what a crash of the whole
process (not a shutdown: that drains) can lose of the read-only and outcome lines still queued.

`write_ahead` is for what must be on disk before the gateway acts — the intent of an input or
system action, written before it is forwarded, so a crash or a hung upstream mid-call still
leaves a record. `flush` waits for everything handed in so far (the audit view, tests).

A thread, not a task: the file lock is a blocking call that must never run on the event loop,
and a thread needs no task group, so every `GatewayApp` has one however it was made. It is a
daemon thread that `close()` (or, failing that, interpreter exit) drains and stops.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from gateway.audit.writer import AuditLog

log = logging.getLogger(__name__)

MAX_PENDING = 1024  # events queued before callers wait (back-pressure, never a drop)
MAX_BATCH = 256  # events per write: bounds one lock hold
# How long a line nobody waits for may wait for company (group commit, module docstring): a few
# small calls' worth, far below anything a person reading the audit would notice.
LINGER_S = 0.02
CLOSE_TIMEOUT_S = 30.0


@dataclass(frozen=True, slots=True)
class _Entry:
    event: str | None  # None: a flush marker, nothing to write
    fields: Mapping[str, Any]
    ts: float
    waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[int | None]] | None = None
    done: threading.Event | None = None  # set once written (`wait_written`)

    @property
    def urgent(self) -> bool:
        """Someone waits for this entry (or it stops the writer): it must not linger."""
        return self.event is None or self.waiter is not None or self.done is not None


_STOP = _Entry(event=None, fields={}, ts=0.0)


class BackgroundWriter:
    """Queues audit events for one `AuditLog` and writes them in batches on its own thread.

    Args:
        sink: the audit log the lines go to.
        max_pending: events queued before `submit` waits.
        max_batch: events written per lock acquisition.
        linger_s: how long a line nobody waits for may wait for others (0: write at once).
    """

    def __init__(
        self,
        sink: AuditLog,
        *,
        max_pending: int = MAX_PENDING,
        max_batch: int = MAX_BATCH,
        linger_s: float = LINGER_S,
    ) -> None:
        self.sink = sink
        self.max_batch = max(1, max_batch)
        self.linger_s = max(0.0, linger_s)
        self._queue: queue.Queue[_Entry] = queue.Queue(maxsize=max(1, max_pending))
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False
        self.batches = 0

    async def submit(self, event: str, fields: Mapping[str, Any]) -> None:
        """Queue one event and return at once (or, when the queue is full, once there is room)."""
        await self._put(_Entry(event=event, fields=fields, ts=self.sink.now()))

    async def write_ahead(self, event: str, fields: Mapping[str, Any]) -> int | None:
        """Queue one event and wait until it is on disk; its `seq`, or None if it could not be written."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        await self._put(_Entry(event=event, fields=fields, ts=self.sink.now(), waiter=(loop, future)))
        return await future

    async def flush(self) -> None:
        """Wait until every event handed in before this call is written (or failed)."""
        if self._thread is None:
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        await self._put(_Entry(event=None, fields={}, ts=0.0, waiter=(loop, future)))
        await future

    def wait_written(self, timeout_s: float = CLOSE_TIMEOUT_S) -> bool:
        """Block until every event handed in so far is written (for synchronous readers: the CLI,
        tests). Never call it on the event loop while a `submit` could be waiting for room."""
        if self._thread is None or not self._thread.is_alive():
            return True
        done = threading.Event()
        self._queue.put(_Entry(event=None, fields={}, ts=0.0, done=done), timeout=timeout_s)
        return done.wait(timeout_s)

    def close(self, timeout_s: float = CLOSE_TIMEOUT_S) -> None:
        """Write what is queued, then stop the thread (blocking; safe to call twice)."""
        with self._start_lock:
            self._closed = True
            thread = self._thread
        if thread is None or not thread.is_alive():
            return
        self._queue.put(_STOP)
        thread.join(timeout_s)
        if thread.is_alive():
            log.warning("audit: the writer did not finish within %.0f s; some lines may be missing", timeout_s)

    # -- the queue ----------------------------------------------------------------------------

    async def _put(self, entry: _Entry) -> None:
        if self._closed:
            # After close (shutdown): write in line, off the loop, so nothing handed in is lost.
            await anyio.to_thread.run_sync(self._write, [entry])
            return
        self._ensure_thread()
        try:
            self._queue.put_nowait(entry)
        except queue.Full:
            await anyio.to_thread.run_sync(self._queue.put, entry)

    def _ensure_thread(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="winmcp-audit-writer", daemon=True)
                self._thread.start()
                atexit.register(self.close)

    def _run(self) -> None:
        backlog = False
        while True:
            batch = [self._queue.get()]
            prepared = {id(batch[0]): self._prepare(batch[0])}
            if self.linger_s and not backlog and not batch[0].urgent:
                # Group commit: more lines may join until the linger ends or someone waits. Each is
                # prepared (redacted, summarised) as it comes in, so the write that ends the linger,
                # often a write-ahead a call is waiting for, only chains and appends.
                deadline = time.monotonic() + self.linger_s
                while len(batch) < self.max_batch and (left := deadline - time.monotonic()) > 0:
                    try:
                        entry = self._queue.get(timeout=left)
                    except queue.Empty:
                        break
                    batch.append(entry)
                    if entry.urgent:
                        break
                    prepared[id(entry)] = self._prepare(entry)
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            backlog = len(batch) >= self.max_batch  # more is queued: no reason to wait for it
            self._write([e for e in batch if e is not _STOP], prepared)
            if any(e is _STOP for e in batch):
                return

    def _prepare(self, entry: _Entry) -> dict[str, Any] | None:
        if entry.event is None:
            return None
        try:
            return self.sink.prepare(entry.event, entry.fields, entry.ts)
        except Exception:  # noqa: BLE001 - prepare never raises; if it did, the event is lost, not the writer
            log.exception("audit: the background writer could not prepare a %s line", entry.event)
            return None

    def _write(self, batch: list[_Entry], prepared: Mapping[int, dict[str, Any] | None] | None = None) -> None:
        events = [e for e in batch if e.event is not None]
        seqs: list[int | None] = [None] * len(events)
        try:
            if events:
                ready = prepared or {}
                records = [ready[id(e)] if id(e) in ready else self._prepare(e) for e in events]
                seqs = self.sink.append_prepared(records)
                self.batches += 1
        except Exception:  # noqa: BLE001 - append_prepared never raises; if it did, no waiter may hang
            log.exception("audit: the background writer failed on a batch of %d", len(events))
        by_entry = {id(e): seq for e, seq in zip(events, seqs, strict=True)}
        for entry in batch:
            if entry.waiter is not None:
                _resolve(entry.waiter, by_entry.get(id(entry)))
            if entry.done is not None:
                entry.done.set()


def _resolve(waiter: tuple[asyncio.AbstractEventLoop, asyncio.Future[int | None]], seq: int | None) -> None:
    loop, future = waiter

    def settle() -> None:
        if not future.done():
            future.set_result(seq)

    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
        loop.call_soon_threadsafe(settle)
