"""Numbered rotation of an append-only log (`x` → `x.1` → … → `x.keep`): the audit and the upstream stderr log."""

from __future__ import annotations

import os
from pathlib import Path


def rotate(path: Path, keep: int) -> None:
    """Shift `path` to `path.1`, `path.1` to `path.2`, …; what would become `path.<keep+1>` is dropped.

    Files numbered above `keep` (left over from a larger `keep`) are deleted first; with `keep`
    0 the file itself is deleted. The caller holds the log's lock.

    Args:
        path: the current log file (it must exist).
        keep: how many rotated files to keep.

    Raises:
        OSError: a rename failed — on Windows a reader holding the file open blocks it; callers keep
            appending to the current file and try again at the next append rather than lose lines.
    """
    name = path.name
    for old in path.parent.glob(f"{name}.*"):
        suffix = old.name[len(name) + 1 :]
        if suffix.isdigit() and int(suffix) > keep:
            old.unlink()
    if keep == 0:
        path.unlink()
        return
    for i in range(keep - 1, 0, -1):
        src = path.with_name(f"{name}.{i}")
        if src.exists():
            os.replace(src, path.with_name(f"{name}.{i + 1}"))
    os.replace(path, path.with_name(f"{name}.1"))
