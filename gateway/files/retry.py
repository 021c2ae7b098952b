"""Retrying a file operation that Windows refuses while another process has the file open.

Python (like most programs) opens files on Windows without `FILE_SHARE_DELETE`, so while any
process reads a file — another gateway reading `STOP`, a person's editor, an antivirus scan —
replacing it (`os.replace`), renaming it or deleting it fails with `PermissionError`
(ERROR_ACCESS_DENIED or ERROR_SHARING_VIOLATION), and so does opening a file whose deletion is
still pending. Those windows are short (a read of a few hundred bytes), so a few tries spread
over about half a second get through; past that the caller decides what failing means (the
kill switch fails closed, the audit keeps appending to the current file).

POSIX never raises for these cases, so there the retry only costs time when a real permission
problem exists; the operations are retried on every platform so Linux tests exercise the path.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

# Waits between tries: 8 tries over 0.535 s. A reader holds STOP for well under a millisecond
# and the audit for one read of its tail; half a second covers an antivirus scan of a small
# file without making a person's `kill engage` feel stuck.
SHARING_DELAYS_S: tuple[float, ...] = (0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2)


@dataclass(frozen=True, slots=True, kw_only=True)
class SharingRetry:
    """Call an operation again while it raises `PermissionError`, a bounded number of times.

    `delays_s` are the waits between tries (so there are `len(delays_s) + 1` tries); `sleep` is
    the clock's wait, replaced by tests (no test sleeps).
    """

    delays_s: tuple[float, ...] = SHARING_DELAYS_S
    sleep: Callable[[float], None] = time.sleep

    @property
    def attempts(self) -> int:
        """How many times an operation is tried in all."""
        return len(self.delays_s) + 1

    def __call__(self, operation: Callable[[], T]) -> T:
        """Run `operation`, retrying it on `PermissionError`.

        Args:
            operation: the file operation (no arguments; bind them with a lambda).

        Returns:
            What the first successful try returned.

        Raises:
            PermissionError: the last try still failed; any other exception at once.
        """
        for delay in self.delays_s:
            try:
                return operation()
            except PermissionError:
                self.sleep(delay)
        return operation()


SHARING_RETRY = SharingRetry()
