"""The upstream's stderr log, rotated like the audit (S-UPS-11).

A child process used to write straight into `state/upstream.stderr.log`, which grew without
bound (a 20 MB flood went there whole). Now the child writes into a pipe; a pump thread reads
it and appends to the log, rotating before a chunk would push the file past `max_bytes`:
`upstream.stderr.log` → `.1` → … → `.keep`, older files dropped — the audit's scheme
(`gateway.audit.writer`), with the same `filelock` so gateways sharing a state dir rotate
one at a time. A thread, not a task: the child needs a real file descriptor on every
platform and event loop, and the pump must drain it even while the event loop is busy.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from pathlib import Path
from typing import TextIO

from filelock import FileLock

from gateway.audit.rotation import rotate

log = logging.getLogger(__name__)

# The audit's defaults (config `audit_max_bytes`, `audit_keep`), which the gateway passes on.
DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_KEEP = 3
# Bytes per read from the pipe: one append (and at most one rotation) per chunk.
PUMP_CHUNK = 64 * 1024
LOCK_TIMEOUT_S = 10.0


class StderrLog:
    """The rotated log file one supervisor's children write their stderr to.

    Args:
        path: the current file (`<state dir>/upstream.stderr.log`).
        max_bytes: rotate before an append would push the file past this size.
        keep: rotated files kept (`.1` newest … `.keep` oldest).
    """

    def __init__(self, path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES, keep: int = DEFAULT_KEEP) -> None:
        self.path = path
        # A chunk is appended whole, so a file never passes max_bytes when it is at least a chunk.
        self.max_bytes = max(PUMP_CHUNK, int(max_bytes))
        self.keep = max(1, int(keep))
        self.rotations = 0
        self._lock = FileLock(str(path.with_name(path.name + ".lock")), timeout=LOCK_TIMEOUT_S)

    def append(self, data: bytes) -> None:
        """Append `data`, rotating first if it would not fit (never raises: stderr is best effort)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock:
                size = self.path.stat().st_size if self.path.exists() else 0
                if size > 0 and size + len(data) > self.max_bytes:
                    self._rotate()
                with self.path.open("ab") as fh:
                    fh.write(data)
        except Exception as exc:  # noqa: BLE001 - losing stderr lines must not take the gateway down
            log.warning("could not write the upstream's stderr to %s: %s", self.path, exc)

    def _rotate(self) -> None:
        try:
            rotate(self.path, self.keep)
            self.rotations += 1
        except OSError as exc:
            # Windows: a reader holding the file blocks the rename; append now, rotate next time.
            log.warning("rotating %s failed (%s); appending to the current file", self.path, exc)

    def files(self) -> list[Path]:
        """The current file and its rotations that exist, newest first."""
        names = [self.path, *(self.path.with_name(f"{self.path.name}.{i}") for i in range(1, self.keep + 1))]
        return [p for p in names if p.exists()]

    def open_sink(self, header: str) -> StderrSink:
        """A pipe for one child's stderr, pumped into this log; `header` is written first."""
        self.append(header.encode("utf-8"))
        return StderrSink(self)


class StderrSink:
    """One child's stderr: `file` is the pipe's write end the child inherits; a thread pumps the rest.

    `close` drops the gateway's copy of the write end (after the child is gone); the pump ends
    at end of file, when the child and anything it started have closed theirs. `drained`
    is set then.
    """

    def __init__(self, target: StderrLog) -> None:
        read_fd, write_fd = os.pipe()
        self.file: TextIO = os.fdopen(write_fd, "w", encoding="utf-8")
        self.drained = threading.Event()
        self._target = target
        self._thread = threading.Thread(
            target=self._pump, args=(read_fd,), name="winmcp-gateway upstream stderr", daemon=True
        )
        self._thread.start()

    def _pump(self, read_fd: int) -> None:
        try:
            while chunk := os.read(read_fd, PUMP_CHUNK):
                self._target.append(chunk)
        except OSError as exc:
            log.debug("the upstream's stderr pipe failed: %s", exc)
        finally:
            with contextlib.suppress(OSError):
                os.close(read_fd)
            self.drained.set()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()
