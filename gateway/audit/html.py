"""``audit-report --html FILE``: one self-contained page a person can read (S-AREP-04, S-AREP-05).

The page needs nothing but itself: inline style and script, admitted by their hashes in a
Content-Security-Policy that forbids every remote load, and geometry drawn as inline SVG. At
the top, the chain check and the schema check of the whole audit; then counts per code and
per event, a timeline (refusals highlighted; filtered by session, tool and code in the browser)
and, per observation, the displays, the capture region, the cursor and where each click citing
it landed (green: allowed, red: refused, never reached the desktop).

Everything from the audit is untrusted text — window titles come from the desktop, arguments
from the model — so it reaches the page only as escaped HTML text or attribute values, or
inside the ``application/json`` block with ``<``, ``>`` and ``&`` written as ``\\u003c`` … (a
``</script>`` in a title cannot end the block); the script reads that block with ``JSON.parse``
and writes with ``textContent`` only. Reading streams the files (S-AUD-11): the timeline keeps
the last `MAX_TIMELINE` matching events and the geometry the last `MAX_FIGURES` observations
(drawn by `gateway.audit.html_svg`). The file is created owner-only, like the audit it shows.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gateway.audit.filters import EventFilter
from gateway.audit.html_assets import CSP, CSS, JS
from gateway.audit.html_svg import Figure, esc, point_of, render_figures
from gateway.audit.reader import iter_events
from gateway.audit.schema import SCHEMA_VERSION, SchemaProblem, check_lines
from gateway.audit.verify import VerifyResult, verify_chain

MAX_TIMELINE = 2000  # rows a browser lists without effort; older matching events are counted only
MAX_FIGURES = 60  # observations drawn (the most recent); each is one small SVG
_REFUSAL_EVENTS = ("deny",)


@dataclasses.dataclass(slots=True, kw_only=True)
class ReportData:
    """What one streaming pass over the audit collected for the page."""

    files: list[Path]
    verify: VerifyResult
    schema_checked: int
    schema_problem: SchemaProblem | None
    matched: int = 0
    by_code: Counter[str] = dataclasses.field(default_factory=Counter)
    by_event: Counter[str] = dataclasses.field(default_factory=Counter)
    refusals: int = 0
    timeline: deque[dict[str, Any]] = dataclasses.field(default_factory=lambda: deque(maxlen=MAX_TIMELINE))
    figures: OrderedDict[str, Figure] = dataclasses.field(default_factory=OrderedDict)


def collect(paths: Iterable[Path], flt: EventFilter) -> ReportData:
    """One pass for the page, plus the chain and schema checks over every line (S-AREP-04).

    Args:
        paths: audit files in chain order.
        flt: which lines the counts, timeline and figures show (the checks always read all).
    Returns:
        The collected `ReportData`.
    """
    paths = list(paths)
    checked, problem = check_lines(paths)
    data = ReportData(files=paths, verify=verify_chain(paths), schema_checked=checked, schema_problem=problem)
    for entry in iter_events(paths):
        rec = entry.record
        if rec is None or not flt.keeps(rec):
            continue
        data.matched += 1
        event = str(rec.get("event", "?"))
        data.by_event[event] += 1
        if rec.get("code"):
            data.by_code[str(rec["code"])] += 1
        if event in _REFUSAL_EVENTS:
            data.refusals += 1
        data.timeline.append(rec)
        _note_geometry(data.figures, rec, event)
    return data


def _note_geometry(figures: OrderedDict[str, Figure], rec: dict[str, Any], event: str) -> None:
    obs = rec.get("obs")
    if not isinstance(obs, str):
        return
    if event == "observation" and isinstance(rec.get("screen"), Mapping):
        figures[obs] = Figure(record=rec)
        figures.move_to_end(obs)
        while len(figures) > MAX_FIGURES:
            figures.popitem(last=False)
        return
    figure = figures.get(obs)
    if figure is None or point_of(rec.get("point")) is None:
        return
    if event == "allow":  # the intent line; its outcome repeats the point and is not drawn twice
        figure.allowed.append(rec)
    elif event in ("deny", "ask"):
        figure.refused.append(rec)


def embed_json(value: Any) -> str:
    """JSON for an HTML ``<script type="application/json">`` block: nothing in it can end the block.

    ``ensure_ascii`` also writes U+2028/U+2029 escaped; ``<``, ``>`` and ``&`` become ``\\u003c``,
    ``\\u003e`` and ``\\u0026``, which `JSON.parse` reads back as the same characters.
    """
    text = json.dumps(value, ensure_ascii=True, sort_keys=True, allow_nan=False, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_html(data: ReportData, flt: EventFilter, *, generated: str) -> str:
    """The page (S-AREP-04): chain result first, counts, filters, timeline, geometry, data block.

    Args:
        data: what `collect` gathered.
        flt: the filter in effect (named in the head).
        generated: when the page was made (the writer's ts shape).
    Returns:
        The whole HTML document.
    """
    events = list(data.timeline)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>winmcp-gateway audit</title>",
        f"<style>{CSS}</style></head><body>",
        "<header><h1>winmcp-gateway audit</h1>",
        f'<div class="meta">{esc(_head_line(data, flt, generated))}</div></header><main>',
        _chain_box(data),
        _counts(data),
        _filters(events, data),
        _timeline(events),
        "<h2>Selected event</h2>",
        '<pre id="detail" class="muted">Click a row of the timeline to see its whole audit line.</pre>',
        render_figures(data.figures),
        f'<script type="application/json" id="audit-data">{embed_json({"events": events})}</script>',
        f"<script>{JS}</script>",
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"


def _head_line(data: ReportData, flt: EventFilter, generated: str) -> str:
    files = ", ".join(p.name for p in data.files)
    shown = flt.describe() or "all events"
    return f"generated {generated} · files: {files} · filter: {shown} · audit-line schema {SCHEMA_VERSION}"


def _chain_box(data: ReportData) -> str:
    v = data.verify
    if v.problem is not None:
        where = f"{v.problem.path.name}:{v.problem.line}"
        return (
            f'<div class="chain broken" id="chain">Chain BROKEN at {esc(where)}: {esc(v.problem.reason)}'
            f' <span class="detail">({esc(v.problem.detail)}; {v.problems} problem(s) in {v.lines} lines)</span></div>'
            + _schema_box(data)
        )
    start = " (starts mid-chain: older files rotated away)" if v.starts_mid_chain else ""
    torn = f"; {len(v.torn)} torn line(s) from a crash" if v.torn else ""
    return (
        f'<div class="chain ok" id="chain">Chain OK: {v.records} records verified, seq {v.first_seq}–{v.last_seq}'
        f'{esc(start)}<span class="detail">{esc(torn)}</span></div>' + _schema_box(data)
    )


def _schema_box(data: ReportData) -> str:
    p = data.schema_problem
    if p is None:
        return (
            f'<div class="chain ok" id="schema">Schema {SCHEMA_VERSION}: all {data.schema_checked} lines conform</div>'
        )
    return (
        f'<div class="chain broken" id="schema">Schema {SCHEMA_VERSION}: {esc(p.path.name)}:{p.line} does not conform'
        f' <span class="detail">at {esc(p.at)}: {esc(p.message)}</span></div>'
    )


def _count_table(table_id: str, title: str, counts: Counter[str]) -> str:
    rows = (
        "".join(f'<tr><td class="key">{esc(k)}</td><td class="n">{n}</td></tr>' for k, n in counts.most_common())
        or '<tr><td colspan="2" class="muted">none</td></tr>'
    )
    head = f"<tr><th>{esc(title)}</th><th>count</th></tr>"
    return f'<div><h2>{esc(title)}</h2><table id="{table_id}">{head}{rows}</table></div>'


def _counts(data: ReportData) -> str:
    total = (
        f'<p><span id="matched">{data.matched}</span> events, <span id="refusals">{data.refusals}</span> refused'
        f" (deny); the timeline lists the last {min(data.matched, MAX_TIMELINE)}.</p>"
    )
    codes = _count_table("by-code", "code", data.by_code)
    kinds = _count_table("by-event", "event", data.by_event)
    return f'{total}<div class="counts">{codes}{kinds}</div>'


def _options(element_id: str, label: str, values: Iterable[str]) -> str:
    opts = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in sorted(set(values)))
    return f'<label>{esc(label)} <select id="{element_id}"><option value="">all</option>{opts}</select></label>'


def _filters(events: Sequence[Mapping[str, Any]], data: ReportData) -> str:
    def values(key: str) -> list[str]:
        return [str(r[key]) for r in events if r.get(key) not in (None, "")]

    return (
        "<h2>Timeline</h2>"
        '<div class="filters">'
        + _options("f-session", "session", values("session"))
        + _options("f-tool", "tool", values("tool"))
        + _options("f-code", "code", values("code"))
        + '<label><input type="checkbox" id="f-refusals"> refusals only</label>'
        + f'<span>shown: <b id="shown">{len(events)}</b> of {len(events)}</span></div>'
    )


def _timeline(events: Sequence[Mapping[str, Any]]) -> str:
    head = (
        "<tr><th>seq</th><th>time (UTC)</th><th>session</th><th>event</th><th>tool</th><th>code</th>"
        "<th>obs</th><th>window</th><th>point</th><th>reason</th></tr>"
    )
    rows = []
    for index, r in enumerate(events):
        event = str(r.get("event", "?"))
        klass = {"deny": "refusal", "ask": "ask", "failure": "failure"}.get(event, "")
        point = point_of(r.get("point"))
        obs = r.get("obs")
        obs_cell = f'<a href="#geo-{esc(obs)}">{esc(obs)}</a>' if isinstance(obs, str) else ""
        rows.append(
            f'<tr class="{klass}" data-index="{index}" data-session="{esc(r.get("session", ""))}"'
            f' data-tool="{esc(r.get("tool", ""))}" data-code="{esc(r.get("code", ""))}"'
            f' data-refusal="{"1" if event in _REFUSAL_EVENTS else "0"}">'
            f'<td class="n">{esc(r.get("seq"))}</td><td>{esc(r.get("ts"))}</td><td>{esc(r.get("session"))}</td>'
            f'<td class="event">{esc(event)}</td><td>{esc(r.get("tool"))}</td><td>{esc(r.get("code"))}</td>'
            f"<td>{obs_cell}</td><td>{esc(r.get('window'))}</td>"
            f"<td>{esc(f'{point[0]:g},{point[1]:g}' if point else '')}</td>"
            f'<td class="reason">{esc(r.get("reason"))}</td></tr>'
        )
    return f'<table id="timeline"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


def write_html(paths: Iterable[Path], target: Path, flt: EventFilter, *, generated: str) -> ReportData:
    """Collect, render and write the page to `target` (UTF-8); returns what was collected.

    Raises:
        OSError: the file cannot be written.
    """
    data = collect(paths, flt)
    body = render_html(data, flt, generated=generated).encode("utf-8")
    # Owner-only when created (0600 on POSIX; Windows ignores the mode), as the audit is (S-AUD-07).
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(body)
    return data
