"""Streaming the audit files line by line, in chain order (S-AUD-05, S-AUD-11).

Everything that reads the audit goes through `iter_events`: one line at a time, never the
whole log, and never more than `MAX_LINE_BYTES` of one line (a longer "line" is not
something our writer produced, and is reported as unparseable).

Torn lines versus tampering (S-AUD-05, S-AUD-08): a line that does not parse is *torn*
(a crash, not an attack) only when it is the final line of the newest file without a
newline, or when the very next line is the writer's ``failure`` note whose ``torn.sha256``
is the digest of exactly that fragment. Any other unparseable line is ``unparseable``.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from gateway.audit.chain import parse_record
from gateway.audit.writer import FILE_NAME

MAX_LINE_BYTES = 16 * 1024 * 1024  # a longer "line" is not something our writer produced
# Lines are first read in pieces of this size: an audit line is a few KiB, so one piece
# almost always holds it, and an over-long line is skipped without ever being held.
_PIECE = 64 * 1024


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class AuditEntry:
    """One line of an audit file.

    ``problem`` is None for a parsed record, else ``"unparseable"``, ``"torn"`` (a fragment
    the next writer acknowledged) or ``"torn final line"`` (newest file, no newline yet).
    """

    path: Path
    line: int
    record: dict[str, Any] | None
    problem: str | None = None
    digest: str = ""


def audit_files(directory: Path, file_name: str = FILE_NAME) -> list[Path]:
    """The audit files in chain order: oldest rotated first, the current file last (S-AUD-11).

    Args:
        directory: the state dir holding ``audit.jsonl`` and ``audit.jsonl.N``.
        file_name: the current file's name.
    Returns:
        Existing files only; empty when there are none.
    """
    directory = Path(directory)
    rotated: list[tuple[int, Path]] = []
    if directory.is_dir():
        for p in directory.glob(f"{file_name}.*"):
            suffix = p.name[len(file_name) + 1 :]
            if suffix.isdigit() and p.is_file():
                rotated.append((int(suffix), p))
    files = [p for _, p in sorted(rotated, reverse=True)]
    current = directory / file_name
    if current.is_file():
        files.append(current)
    return files


def _raw_lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes without newline, ended with newline) — bounded per line (S-AUD-11).

    A line of up to MAX_LINE_BYTES (its newline included) is yielded whole, and so is a
    shorter final fragment without newline. A longer one yields ``b""`` (it never parses,
    so it is reported as unparseable) and is never held: a line longer than one piece is
    first measured in pieces that are dropped, and read again only when it fits.
    """
    with open(path, "rb") as f:
        number = 0
        while True:
            first = min(_PIECE, MAX_LINE_BYTES)
            raw = f.readline(first)
            if not raw:
                return
            number += 1
            if raw.endswith(b"\n"):
                yield number, raw[:-1], True
                continue
            if len(raw) < first:  # the end of the file: a final fragment without newline
                yield number, raw, False
                return
            start = f.tell() - len(raw)
            size, terminated = _measure_rest(f, len(raw))
            if size > MAX_LINE_BYTES or (size == MAX_LINE_BYTES and not terminated):
                yield number, b"", terminated  # an empty line never parses: reported as unparseable
                continue
            f.seek(start)
            line = f.read(size - 1 if terminated else size)
            if not terminated:
                yield number, line, False
                return
            f.read(1)  # the newline
            yield number, line, True


def _measure_rest(f: BinaryIO, size: int) -> tuple[int, bool]:
    """Read on to the end of the line in pieces, keeping none: (the line's size, ended with newline)."""
    while piece := f.readline(_PIECE):
        size += len(piece)
        if piece.endswith(b"\n"):
            return size, True
    return size, False


def _acknowledges(record: Mapping[str, Any] | None, digest: str) -> bool:
    torn = record.get("torn") if record else None
    return (
        isinstance(record, Mapping)
        and record.get("event") == "failure"
        and isinstance(torn, Mapping)
        and torn.get("sha256") == digest
    )


def iter_events(paths: Iterable[Path]) -> Iterator[AuditEntry]:
    """Stream every line of the given files as `AuditEntry` values (S-AUD-11).

    Args:
        paths: audit files in chain order (see `audit_files`).
    Yields:
        Parsed records, and markers for unparseable, torn and torn-final lines.
    """
    paths = list(paths)
    for index, path in enumerate(paths):
        newest = index == len(paths) - 1
        pending: AuditEntry | None = None
        for number, raw, terminated in _raw_lines(path):
            record = parse_record(raw)
            if record is None:
                problem = "unparseable" if terminated or not newest else "torn final line"
                digest = hashlib.sha256(raw).hexdigest()
                entry = AuditEntry(path=path, line=number, record=None, problem=problem, digest=digest)
            else:
                entry = AuditEntry(path=path, line=number, record=record)
            if pending is not None:
                if _acknowledges(record, pending.digest):
                    pending = dataclasses.replace(pending, problem="torn")
                yield pending
                pending = None
            if entry.problem == "unparseable":
                pending = entry  # wait one line: the writer's torn-line note may follow
            else:
                yield entry
        if pending is not None:
            yield pending


def recent_records(paths: Iterable[Path], limit: int) -> list[dict[str, Any]]:
    """The last `limit` parsed records, oldest first, reading the newest files only as needed.

    For `winmcp_audit view=raw`: the current file usually holds them all, so the rotated
    files are opened only when it does not (S-AUD-11).

    Args:
        paths: audit files in chain order (see `audit_files`).
        limit: how many records; 0 or less gives an empty list.
    Returns:
        Full (already redacted) records as written, oldest first.
    """
    want = max(0, int(limit))
    collected: list[dict[str, Any]] = []
    if want == 0:
        return collected
    for path in reversed(list(paths)):
        last: deque[dict[str, Any]] = deque(maxlen=want - len(collected))
        for entry in iter_events([path]):
            if entry.record is not None:
                last.append(entry.record)
        collected = list(last) + collected
        if len(collected) >= want:
            break
    return collected
