"""Reading the audit: listing, streaming, chain verification, summary and the report CLI.

S-AUD-08 … S-AUD-11. Everything here streams the files line by line (bounded memory,
S-AUD-11): counters, and `deque`s of the most recent items, never the whole log.

Torn lines versus tampering (S-AUD-05, S-AUD-08): a line that does not parse is *torn*
(a crash, not an attack) only when it is the final line of the newest file without a
newline, or when the very next line is the writer's ``failure`` note whose ``torn.sha256``
is the digest of exactly that fragment. Any other unparseable line, a ``hash`` that does
not match the line, a ``prev`` that does not match the previous good line, or a ``seq``
that does not go up by one is reported as a break, with file and line number. Deleting
whole lines at the very end, or whole rotated files, cannot be detected from the files
alone (there is no outside anchor); the report says where the chain starts.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sys
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from gateway.audit import FILE_NAME, GENESIS, chain_hash

ENV_STATE_DIR = "WINMCP_GATEWAY_STATE_DIR"
MAX_LINE_BYTES = 16 * 1024 * 1024  # a longer "line" is not something our writer produced
DEFAULT_RECENT = 10
EXIT_OK, EXIT_REFUSALS, EXIT_BROKEN = 0, 1, 2


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
    """(line number, bytes without newline, ended with newline) — bounded per line."""
    with open(path, "rb") as f:
        number = 0
        while True:
            raw = f.readline(MAX_LINE_BYTES)
            if not raw:
                return
            number += 1
            if raw.endswith(b"\n"):
                yield number, raw[:-1], True
                continue
            if len(raw) < MAX_LINE_BYTES:
                yield number, raw, False
                return
            while (more := f.readline(MAX_LINE_BYTES)) and not more.endswith(b"\n"):
                pass  # skip the rest of an over-long line; it is reported as unparseable
            yield number, b"", bool(more)  # an empty line never parses: reported as unparseable


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


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
            record = _parse(raw)
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
                problems.append(
                    ChainProblem(path=entry.path, line=entry.line, reason=broken[0], detail=broken[1])
                )
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


_REFUSALS = ("deny",)


def _brief(rec: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: rec[k] for k in ("ts", "seq", "event", "session", "tool", *keys) if k in rec}


def summarize(paths: Iterable[Path], recent: int = DEFAULT_RECENT, *, verify: bool = False) -> dict[str, Any]:
    """Counts and recent history of the audit, in one streaming pass (S-AUD-09).

    Args:
        paths: audit files in chain order (see `audit_files`).
        recent: how many recent refusals, kills, approvals, failures and events to keep.
        verify: also run `verify_chain` and include its result under ``verify``.
    Returns:
        A JSON-friendly dict: ``files``, ``lines``, ``events``, ``by_event``, ``by_code``,
        ``by_tool``, ``first_ts``, ``last_ts``, ``refusals`` (deny events), ``refusals_recent``,
        ``asks``, ``kills``, ``approvals``, ``failures``, ``recent``, ``torn_lines``,
        ``unparseable`` and, when asked, ``verify``.
    """
    paths = list(paths)
    n = max(0, int(recent))
    by_event: Counter[str] = Counter()
    by_code: Counter[str] = Counter()
    by_tool: Counter[str] = Counter()
    refusals: deque[dict[str, Any]] = deque(maxlen=n)
    kills: deque[dict[str, Any]] = deque(maxlen=n)
    approvals: deque[dict[str, Any]] = deque(maxlen=n)
    failures: deque[dict[str, Any]] = deque(maxlen=n)
    latest: deque[dict[str, Any]] = deque(maxlen=n)
    torn: list[dict[str, Any]] = []
    first_ts = last_ts = None
    lines = events = unparseable = refusal_count = asks = 0
    for entry in iter_events(paths):
        lines += 1
        if entry.record is None:
            if entry.problem == "unparseable":
                unparseable += 1
            elif len(torn) < 100:
                torn.append({"file": str(entry.path), "line": entry.line, "reason": entry.problem})
            continue
        rec = entry.record
        events += 1
        event = str(rec.get("event", "?"))
        by_event[event] += 1
        if rec.get("code"):
            by_code[str(rec["code"])] += 1
        if rec.get("tool"):
            by_tool[str(rec["tool"])] += 1
        ts = rec.get("ts")
        if isinstance(ts, str):
            first_ts = first_ts or ts
            last_ts = ts
        latest.append(_brief(rec, "code", "reason"))
        if event in _REFUSALS:
            refusal_count += 1
            refusals.append(_brief(rec, "code", "reason", "obs", "based_on", "window"))
        elif event == "ask":
            asks += 1
        elif event == "kill":
            kills.append(_brief(rec, "reason", "by"))
        elif event == "approval":
            approvals.append(_brief(rec, "code", "reason", "approval", "by"))
        elif event == "failure":
            failures.append(_brief(rec, "code", "reason"))
    out: dict[str, Any] = {
        "files": [str(p) for p in paths],
        "lines": lines,
        "events": events,
        "by_event": dict(by_event.most_common()),
        "by_code": dict(by_code.most_common()),
        "by_tool": dict(by_tool.most_common()),
        "first_ts": first_ts,
        "last_ts": last_ts,
        "refusals": refusal_count,
        "asks": asks,
        "refusals_recent": list(refusals),
        "kills": list(kills),
        "approvals": list(approvals),
        "failures": list(failures),
        "recent": list(latest),
        "torn_lines": torn,
        "unparseable": unparseable,
    }
    if verify:
        out["verify"] = verify_chain(paths).as_dict()
    return out


def _counts(counts: Mapping[str, int], limit: int = 12) -> str:
    items = list(counts.items())
    shown = ", ".join(f"{k} {v}" for k, v in items[:limit])
    return (shown + (f", +{len(items) - limit} more" if len(items) > limit else "")) or "-"


def _line(rec: Mapping[str, Any], *keys: str) -> str:
    head = f"  {rec.get('ts', '?')}  #{rec.get('seq', '?')}  {rec.get('tool') or rec.get('event', '')}"
    tail = "  ".join(str(rec[k]) for k in keys if rec.get(k) not in (None, ""))
    return f"{head}  {tail}".rstrip()


def render_summary(summary: Mapping[str, Any]) -> str:
    """Render a `summarize` result for a person at a terminal (S-AUD-09).

    Args:
        summary: the dict `summarize` returned.
    Returns:
        Plain ASCII-punctuated text, one fact per line, refusals with their reasons.
    """
    files = summary.get("files", [])
    out = [
        f"audit: {summary.get('events', 0)} events in {len(files)} file(s)"
        f" ({summary.get('first_ts') or '-'} .. {summary.get('last_ts') or '-'})",
        f"  events: {_counts(summary.get('by_event', {}))}",
        f"  codes:  {_counts(summary.get('by_code', {}))}",
        f"  tools:  {_counts(summary.get('by_tool', {}))}",
        f"  refusals: {summary.get('refusals', 0)} denied, {summary.get('asks', 0)} asked for approval",
    ]
    verify = summary.get("verify")
    if isinstance(verify, Mapping):
        problem = verify.get("problem")
        if problem:
            where = f"{Path(problem['file']).name}:{problem['line']}"
            out.append(f"  chain: BROKEN at {where} - {problem['reason']} ({problem.get('detail', '')})")
        else:
            start = " (starts mid-chain: older files rotated away)" if verify.get("starts_mid_chain") else ""
            out.append(f"  chain: OK, {verify.get('records', 0)} records verified{start}")
    torn = summary.get("torn_lines") or []
    if torn:
        where = ", ".join(f"{Path(t['file']).name}:{t['line']} ({t['reason']})" for t in torn[:5])
        out.append(f"  torn lines (crash, not tampering): {len(torn)}: {where}")
    if summary.get("unparseable"):
        out.append(f"  unparseable lines: {summary['unparseable']} (run with --verify)")
    sections = (
        ("recent refusals", "refusals_recent", ("code", "reason")),
        ("kill switch", "kills", ("reason", "by")),
        ("approvals", "approvals", ("code", "reason", "approval")),
        ("failures", "failures", ("code", "reason")),
    )
    for title, key, keys in sections:
        items = summary.get(key) or []
        if items:
            out.append(f"{title} (last {len(items)}):")
            out.extend(_line(rec, *keys) for rec in items)
    return "\n".join(out)


def _write(stream: TextIO, text: str) -> None:
    # A Windows console may not encode every window title: degrade characters, never crash.
    try:
        stream.write(text + "\n")
    except UnicodeEncodeError:
        enc = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(enc, "replace").decode(enc) + "\n")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="winmcp-gateway audit-report", description="Summarise and verify the gateway's audit log."
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--state-dir", type=Path, help=f"state dir holding {FILE_NAME} (default: ${ENV_STATE_DIR})"
    )
    where.add_argument("--file", type=Path, help="an audit file (its rotations FILE.N are read too)")
    p.add_argument("--recent", type=int, default=DEFAULT_RECENT, help="recent items per section (default 10)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--check", action="store_true", help="exit 1 when the log holds refusals (deny events)")
    p.add_argument(
        "--verify", action="store_true", help="verify the hash chain; exit 2 naming the first broken line"
    )
    return p


def main(
    argv: Sequence[str],
    *,
    default_state_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``winmcp-gateway audit-report`` (S-AUD-09, S-AUD-10).

    Args:
        argv: the arguments after ``audit-report``.
        default_state_dir: the platform default state dir, used when neither ``--state-dir``,
            ``--file`` nor ``WINMCP_GATEWAY_STATE_DIR`` says where to look.
        environ: the environment (default `os.environ`).
        stdout: where the report goes (default `sys.stdout`).
        stderr: where errors go (default `sys.stderr`).
    Returns:
        0 ok; 1 with ``--check`` when there are refusals; 2 when ``--verify`` finds a broken
        chain, when there is no audit file, or on bad arguments.
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    env = os.environ if environ is None else environ
    try:
        args = _parser().parse_args(list(argv))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BROKEN
    if args.file is not None:
        paths = audit_files(args.file.parent, args.file.name)
        looked = args.file
    else:
        state = args.state_dir or (Path(env[ENV_STATE_DIR]) if env.get(ENV_STATE_DIR) else default_state_dir)
        if state is None:
            _write(err, f"audit-report: no state dir; pass --state-dir D or --file F, or set {ENV_STATE_DIR}")
            return EXIT_BROKEN
        paths = audit_files(Path(state).expanduser())
        looked = Path(state).expanduser() / FILE_NAME
    if not paths:
        _write(
            err,
            f"audit-report: no audit file at {looked}. The gateway writes it there once it has handled "
            f"a call (unless auto_audit = false). Point at the right place with --state-dir D, --file F "
            f"or {ENV_STATE_DIR}.",
        )
        return EXIT_BROKEN
    summary = summarize(paths, recent=args.recent, verify=args.verify)
    _write(out, json.dumps(summary, indent=2, ensure_ascii=True) if args.json else render_summary(summary))
    verify = summary.get("verify")
    if args.verify and isinstance(verify, Mapping) and not verify.get("ok"):
        problem = verify["problem"]
        _write(err, f"audit-report: chain broken at {problem['file']}:{problem['line']}: {problem['reason']}")
        return EXIT_BROKEN
    if args.check and summary["refusals"] > 0:
        return EXIT_REFUSALS
    return EXIT_OK


__all__ = [
    "ENV_STATE_DIR",
    "AuditEntry",
    "ChainProblem",
    "VerifyResult",
    "audit_files",
    "iter_events",
    "main",
    "recent_records",
    "render_summary",
    "summarize",
    "verify_chain",
]
