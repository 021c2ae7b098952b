"""Where the audit chain stands: reading the tail a writer continues (S-AUD-02, S-AUD-05).

The writer needs the last good line's ``seq`` and ``hash`` before each append. It reads
the current file backwards in blocks (the newest rotated file when the current one holds
no complete line) and never more than `_TAIL_SCAN_LIMIT` bytes of garbage. A final
fragment without a newline is a torn line: `Tail.torn` carries it, so the writer can end
it and acknowledge it in the chain.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

GENESIS = "0" * 64  # `prev` of the first line ever (S-AUD-02)
_BLOCK = 64 * 1024
_TAIL_SCAN_LIMIT = 8 * 1024 * 1024  # past this much garbage at the end, start a new chain


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Tail:
    """Where the chain stands: the last good line's ``seq`` and ``hash``.

    ``torn`` is an unparseable final fragment of the current file (no newline after it);
    ``needs_newline`` means the final line is complete but its newline never made it.
    """

    seq: int
    hash: str
    torn: bytes | None = None
    needs_newline: bool = False


def _reverse_lines(path: Path) -> Generator[bytes, None, None]:
    """The file's lines from last to first; the first item is the part after the last newline."""
    with open(path, "rb") as f:
        pos = f.seek(0, os.SEEK_END)
        buf = b""
        scanned = 0
        while pos > 0 and scanned < _TAIL_SCAN_LIMIT:
            step = min(_BLOCK, pos)
            pos -= step
            scanned += step
            f.seek(pos)
            buf = f.read(step) + buf
            parts = buf.split(b"\n")
            buf = parts[0]
            yield from reversed(parts[1:])
        if pos == 0:
            yield buf


def parse_record(raw: bytes) -> dict[str, Any] | None:
    """One line as a record: its JSON object, or None when it is not UTF-8 JSON holding an object."""
    try:
        value = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _good(line: bytes) -> dict[str, Any] | None:
    record = parse_record(line)
    if record is None:
        return None
    seq, digest = record.get("seq"), record.get("hash")
    if isinstance(seq, int) and not isinstance(seq, bool) and isinstance(digest, str) and len(digest) == 64:
        return record
    return None


def read_chain_tail(path: Path, keep: int) -> Tail:
    """The chain tail as a writer must continue it (S-AUD-02, S-AUD-05).

    Args:
        path: the current audit file.
        keep: how many rotated files (``path.1`` …) to look through when the current
            file holds no complete line.
    Returns:
        The last good line's seq/hash (seq 0 and 64 zeros when there is no history),
        with any torn fragment of the current file.
    """
    candidates = [path] + [path.with_name(f"{path.name}.{i}") for i in range(1, max(keep, 0) + 1)]
    torn: bytes | None = None
    for index, candidate in enumerate(candidates):
        if not candidate.exists():
            continue
        lines = _reverse_lines(candidate)
        try:  # close the file promptly: on Windows an open handle blocks rotation
            last = next(lines, b"")
            if last:
                record = _good(last)
                if record is not None:
                    return Tail(seq=record["seq"], hash=record["hash"], needs_newline=index == 0)
                torn = last if index == 0 else torn
            for line in lines:
                record = _good(line)
                if record is not None:
                    return Tail(seq=record["seq"], hash=record["hash"], torn=torn)
        finally:
            lines.close()
    return Tail(seq=0, hash=GENESIS, torn=torn)


def count_lines(path: Path) -> int:
    """Number of lines in `path`, a final line without newline included.

    Args:
        path: a file.
    Returns:
        The 1-based number of the last line (0 for an empty or missing file).
    """
    newlines, last = 0, b"\n"
    try:
        with open(path, "rb") as f:
            while chunk := f.read(_BLOCK):
                newlines += chunk.count(b"\n")
                last = chunk[-1:]
    except FileNotFoundError:
        return 0
    return newlines + (0 if last == b"\n" else 1)
