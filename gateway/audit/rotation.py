"""Numbered rotation of an append-only log (`x` → `x.1` → … → `x.keep`): the audit and the upstream stderr log."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from gateway.files.retry import SHARING_RETRY, SharingRetry


def rotate(path: Path, keep: int, *, retry: SharingRetry = SHARING_RETRY) -> None:
    """Shift `path` to `path.1`, `path.1` to `path.2`, …; what would become `path.<keep+1>` is dropped.

    Files numbered above `keep` (left over from a larger `keep`) are deleted first; with `keep`
    0 the file itself is deleted. The caller holds the log's lock. Each rename and delete is
    retried while Windows refuses it because a reader holds the file open (`SharingRetry`).

    Args:
        path: the current log file (it must exist).
        keep: how many rotated files to keep.
        retry: how often and how long a refused rename or delete is tried again.

    Raises:
        OSError: a rename failed even after the retries — on Windows a reader holding the file
            open blocks it; callers keep appending to the current file and try again at the next
            append rather than lose lines.
    """
    name = path.name
    for old in path.parent.glob(f"{name}.*"):
        suffix = old.name[len(name) + 1 :]
        if suffix.isdigit() and int(suffix) > keep:
            retry(old.unlink)
    if keep == 0:
        retry(path.unlink)
        return
    for i in range(keep - 1, 0, -1):
        src = path.with_name(f"{name}.{i}")
        if src.exists():
            retry(functools.partial(os.replace, src, path.with_name(f"{name}.{i + 1}")))
    retry(functools.partial(os.replace, path, path.with_name(f"{name}.1")))
