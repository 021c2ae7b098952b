"""Verifying the audit's hash chain across its files (S-AUD-08).

A ``hash`` that does not match its line, a ``prev`` that does not match the previous good
line, a ``seq`` that does not go up by one, or an unparseable line that is not an
acknowledged crash fragment is a break, reported with file and line number; torn lines
(S-AUD-05) are listed apart. Deleting whole lines at the very end, or whole rotated files,
cannot be detected from the files alone (there is no outside anchor); the result says
where the chain starts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gateway.audit.chain import GENESIS
from gateway.audit.line import chain_hash
from gateway.audit.reader import iter_events


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class ChainProblem:
    """Where and why the chain check stopped trusting a line."""

    path: Path
    line: int
    reason: str
    detail: str = ""

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"

    def as_dict(self) -> dict[str, Any]:
        return {"file": str(self.path), "line": self.line, "reason": self.reason, "detail": self.detail}


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class VerifyResult:
    """Outcome of `verify_chain`. ``ok`` is False exactly when ``problem`` is set."""

    ok: bool
    lines: int
    records: int
    problem: ChainProblem | None = None
    problems: int = 0
    torn: tuple[ChainProblem, ...] = ()
    first_seq: int | None = None
    last_seq: int | None = None
    starts_mid_chain: bool = False
    files: tuple[Path, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "lines": self.lines,
            "records": self.records,
            "problem": self.problem.as_dict() if self.problem else None,
            "problems": self.problems,
            "torn": [t.as_dict() for t in self.torn],
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
            "starts_mid_chain": self.starts_mid_chain,
            "files": [str(f) for f in self.files],
        }


def _check(rec: Mapping[str, Any], prev_hash: str | None, last_seq: int | None) -> tuple[str, str] | None:
    """The first rule `rec` breaks, as (reason, detail); rules in the order they are checked."""
    seq, prev = rec.get("seq"), rec.get("prev")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return "seq gap", "no integer seq"
    if rec.get("hash") != chain_hash(rec):
        return "hash mismatch", "the line's content does not match its hash"
    if prev_hash is None:
        # The oldest line kept: older history may have been rotated away, so its prev is
        # taken on trust, except that seq 1 and the genesis prev only go together.
        if (seq == 1) != (prev == GENESIS):
            return "prev mismatch", "seq 1 must follow the genesis hash and nothing else may"
        return None
    if prev != prev_hash:
        return "prev mismatch", "prev is not the hash of the previous good line"
    if last_seq is not None and seq != last_seq + 1:
        return "seq gap", f"seq {last_seq} then {seq}"
    return None


def verify_chain(paths: Iterable[Path]) -> VerifyResult:
    """Check the hash chain, prev links and seq across the given files (S-AUD-08).

    Args:
        paths: audit files in chain order (see `audit_files`).
    Returns:
        A `VerifyResult` naming the first broken line (file:line and reason: hash
        mismatch, prev mismatch, seq gap, unparseable); torn lines are listed apart.
    """
    paths = list(paths)
    problems: list[ChainProblem] = []
    count = lines = records = 0
    torn: list[ChainProblem] = []
    prev_hash: str | None = None
    first_seq: int | None = None
    last_seq: int | None = None
    for entry in iter_events(paths):
        lines += 1
        broken: tuple[str, str] | None = None
        if entry.record is None:
            if entry.problem == "unparseable":
                broken = (
                    "unparseable",
                    "not a JSON object (and not a crash fragment the writer acknowledged)",
                )
            elif len(torn) < 100:
                torn.append(ChainProblem(path=entry.path, line=entry.line, reason=str(entry.problem)))
        else:
            records += 1
            rec = entry.record
            broken = _check(rec, prev_hash, last_seq)
            # Carry on from what the line states, so one altered line is one problem.
            prev_hash = rec["hash"] if isinstance(rec.get("hash"), str) else prev_hash
            if isinstance(rec.get("seq"), int) and not isinstance(rec.get("seq"), bool):
                last_seq = rec["seq"]
                first_seq = rec["seq"] if first_seq is None else first_seq
        if broken is not None:
            count += 1
            if not problems:
                problems.append(ChainProblem(path=entry.path, line=entry.line, reason=broken[0], detail=broken[1]))
    return VerifyResult(
        ok=not problems,
        lines=lines,
        records=records,
        problem=problems[0] if problems else None,
        problems=count,
        torn=tuple(torn),
        first_seq=first_seq,
        last_seq=last_seq,
        starts_mid_chain=first_seq is not None and first_seq != 1,
        files=tuple(paths),
    )
