"""Reading the audit: summary, rendering and the ``audit-report`` CLI (S-AUD-09, S-AUD-10, S-AREP-01..08).

Everything here streams the files line by line (bounded memory, S-AUD-11): counters, and
`deque`s of the most recent items, never the whole log. Streaming the lines is
`_audit_read` (`audit_files`, `iter_events`, `recent_records`) and checking the chain is
`_audit_verify` (`verify_chain`); both are re-exported here, where callers find them.
``--since`` / ``--until`` / ``--session`` narrow every form (`gateway.audit.filters`), ``--html``
writes the page (`gateway.audit.html`) and ``--verify`` also checks each line against the schema
(`gateway.audit.schema`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from gateway.audit.filters import EventFilter, FilterError, build_filter
from gateway.audit.html import write_html
from gateway.audit.line import format_ts
from gateway.audit.reader import MAX_LINE_BYTES as MAX_LINE_BYTES  # re-exported: defined here before
from gateway.audit.reader import audit_files, iter_events
from gateway.audit.schema import SCHEMA_VERSION, check_lines, schema_text
from gateway.audit.verify import verify_chain
from gateway.audit.writer import FILE_NAME

ENV_STATE_DIR = "WINMCP_GATEWAY_STATE_DIR"
DEFAULT_RECENT = 10
EXIT_OK, EXIT_REFUSALS, EXIT_BROKEN = 0, 1, 2


_REFUSALS = ("deny",)
_FILTER_WORDS = {"since": "since", "until": "until", "sessions": "session"}  # the filter as the text names it


def _brief(rec: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: rec[k] for k in ("ts", "seq", "event", "session", "tool", *keys) if k in rec}


def summarize(
    paths: Iterable[Path], recent: int = DEFAULT_RECENT, *, verify: bool = False, flt: EventFilter | None = None
) -> dict[str, Any]:
    """Counts and recent history of the audit, in one streaming pass (S-AUD-09).

    Args:
        paths: audit files in chain order (see `audit_files`).
        recent: how many recent refusals, kills, approvals, failures and events to keep.
        verify: also run `verify_chain` and the schema check (`check_lines`) over every line, and
            include their results under ``verify`` and ``schema``.
        flt: which records are counted and listed (S-AREP-03); torn and unparseable lines are
            always reported, and the checks always read every line.
    Returns:
        A JSON-friendly dict: ``files``, ``lines``, ``events``, ``by_event``, ``by_code``,
        ``by_tool``, ``first_ts``, ``last_ts``, ``refusals`` (deny events), ``refusals_recent``,
        ``asks``, ``kills``, ``approvals``, ``failures``, ``recent``, ``torn_lines``,
        ``unparseable``, ``filter`` when one is set and, when asked, ``verify`` and ``schema``.
    """
    flt = flt or EventFilter()
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
        if not flt.keeps(rec):
            continue
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
    if flt.active:
        out["filter"] = flt.as_dict()
    if verify:
        out["verify"] = verify_chain(paths).as_dict()
        checked, problem = check_lines(paths)
        out["schema"] = {
            "version": SCHEMA_VERSION,
            "checked": checked,
            "problem": problem.as_dict() if problem else None,
        }
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
    flt = summary.get("filter")
    shown = ""
    if isinstance(flt, Mapping):
        shown = " matching " + "; ".join(
            f"{_FILTER_WORDS.get(k, k)} {v if isinstance(v, str) else ', '.join(v)}"
            for k, v in flt.items()
            if v not in (None, [])
        )
    out = [
        f"audit: {summary.get('events', 0)} events{shown} in {len(files)} file(s)"
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
    schema = summary.get("schema")
    if isinstance(schema, Mapping):
        bad = schema.get("problem")
        if bad:
            out.append(
                f"  schema {schema.get('version')}: {Path(bad['file']).name}:{bad['line']} does not conform"
                f" - at {bad['at']}: {bad['message']}"
            )
        else:
            out.append(f"  schema {schema.get('version')}: all {schema.get('checked', 0)} lines conform")
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
    where.add_argument("--state-dir", type=Path, help=f"state dir holding {FILE_NAME} (default: ${ENV_STATE_DIR})")
    where.add_argument("--file", type=Path, help="an audit file (its rotations FILE.N are read too)")
    p.add_argument("--recent", type=int, default=DEFAULT_RECENT, help="recent items per section (default 10)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--check", action="store_true", help="exit 1 when the log holds refusals (deny events)")
    p.add_argument(
        "--verify",
        action="store_true",
        help="verify the hash chain and each line's schema; exit 2 naming the first broken or non-conforming line",
    )
    p.add_argument("--html", type=Path, metavar="FILE", help="also write a self-contained HTML report to FILE")
    p.add_argument("--since", metavar="TIME", help="only events at or after TIME (ISO 8601 UTC, or a span: 2h, 3d)")
    p.add_argument("--until", metavar="TIME", help="only events before TIME (same forms as --since)")
    p.add_argument("--session", action="append", metavar="ID", help="only events of this session (repeatable)")
    p.add_argument("--schema", action="store_true", help="print the JSON Schema of one audit line and exit")
    return p


def main(
    argv: Sequence[str],
    *,
    default_state_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    clock: Any = time.time,
) -> int:
    """``winmcp-gateway audit-report`` (S-AUD-09, S-AUD-10, S-AREP-01..08).

    Args:
        argv: the arguments after ``audit-report``.
        default_state_dir: the platform default state dir, used when neither ``--state-dir``,
            ``--file`` nor ``WINMCP_GATEWAY_STATE_DIR`` says where to look.
        environ: the environment (default `os.environ`).
        stdout: where the report goes (default `sys.stdout`).
        stderr: where errors go (default `sys.stderr`).
        clock: seconds since the epoch, for ``--since 2h`` and the page's time stamp.
    Returns:
        0 ok; 1 with ``--check`` when there are refusals (among the filtered events); 2 when
        ``--verify`` finds a broken chain or a line that does not conform to the schema, when
        there is no audit file, when the HTML file cannot be written, or on bad arguments
        (a time that is not understood names the forms that work).
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    env = os.environ if environ is None else environ
    try:
        args = _parser().parse_args(list(argv))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BROKEN
    if args.schema:
        out.write(schema_text())
        return EXIT_OK
    now_s = float(clock())
    try:
        flt = build_filter(since=args.since, until=args.until, sessions=args.session, now_s=now_s)
    except FilterError as exc:
        _write(err, f"winmcp-gateway: error: {exc}")
        return EXIT_BROKEN
    if args.file is not None:
        paths = audit_files(args.file.parent, args.file.name)
        looked = args.file
    else:
        state = args.state_dir or (Path(env[ENV_STATE_DIR]) if env.get(ENV_STATE_DIR) else default_state_dir)
        if state is None:
            _write(err, f"winmcp-gateway: error: no state dir; pass --state-dir D or --file F, or set {ENV_STATE_DIR}")
            return EXIT_BROKEN
        paths = audit_files(Path(state).expanduser())
        looked = Path(state).expanduser() / FILE_NAME
    if not paths:
        _write(
            err,
            f"winmcp-gateway: error: no audit file at {looked}. The gateway writes it there once it has handled "
            f"a call (unless auto_audit = false). Point at the right place with --state-dir D, --file F "
            f"or {ENV_STATE_DIR}.",
        )
        return EXIT_BROKEN
    summary = summarize(paths, recent=args.recent, verify=args.verify, flt=flt)
    _write(out, json.dumps(summary, indent=2, ensure_ascii=True) if args.json else render_summary(summary))
    if args.html is not None:
        try:
            page = write_html(paths, args.html, flt, generated=format_ts(now_s))
        except OSError as exc:
            _write(err, f"winmcp-gateway: error: cannot write the HTML report to {args.html}: {exc}")
            return EXIT_BROKEN
        chain = "OK" if page.verify.ok else "BROKEN"
        _write(err, f"wrote {args.html}: {page.matched} events, chain {chain}; open it in a browser (no network used)")
    verify = summary.get("verify")
    if args.verify and isinstance(verify, Mapping) and not verify.get("ok"):
        problem = verify["problem"]
        where = f"{problem['file']}:{problem['line']}"
        _write(err, f"winmcp-gateway: error: audit chain broken at {where}: {problem['reason']}")
        return EXIT_BROKEN
    schema = summary.get("schema")
    if args.verify and isinstance(schema, Mapping) and schema.get("problem"):
        bad = schema["problem"]
        _write(
            err,
            f"winmcp-gateway: error: {bad['file']}:{bad['line']} does not conform to the audit-line schema "
            f"{SCHEMA_VERSION} at {bad['at']}: {bad['message']}",
        )
        return EXIT_BROKEN
    if args.check and summary["refusals"] > 0:
        return EXIT_REFUSALS
    return EXIT_OK
