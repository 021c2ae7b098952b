"""The doctor's values: verdicts, findings, checks and the report, with their two renderings.

Verdicts, from best to worst: OK < WARNING < UNKNOWN < SEVERE (S-DOC-01). UNKNOWN means
"could not check" and is never shown as OK: a self-check that reports health it did not
verify is worse than none (seed §5.5). The overall verdict is the worst check's; the exit
code is 0 only when no check is SEVERE or UNKNOWN.

JSON shape (`Report.as_json`, stable; `format` changes if it ever does):

    {"format": "winmcp-doctor/1", "overall": "OK|WARNING|UNKNOWN|SEVERE", "exit_code": 0|1,
     "upstream": "<command or URL>",
     "counts": {"OK": n, "WARNING": n, "UNKNOWN": n, "SEVERE": n},
     "checks": [{"id": "upstream|schema.read_args|schema.unknown_args|schema.tools|pins|mapping|rules|
                        config|audit|kill",
                 "title": str, "verdict": str, "summary": str,
                 "findings": [{"verdict": str, "message": str, "tool": str|null,
                               "field": str|null, "rules": [str]}],
                 "data": {…check-specific facts…}}]}

The checks always appear, in that order.
"""

from __future__ import annotations

import enum
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

FORMAT = "winmcp-doctor/1"
CHECK_IDS = (
    "upstream",
    "schema.read_args",
    "schema.unknown_args",
    "schema.tools",
    "pins",
    "mapping",
    "rules",
    "config",
    "private",
    "audit",
    "kill",
    "files",
)


TEXT_WIDTH = 120
# How many of the upstream's last stderr lines the text shows (a traceback's tail fits).
STDERR_LINES = 12
# The line the gateway writes into the upstream's stderr log before each start (gateway/upstream/supervisor.py).
START_MARKER = "--- winmcp-gateway starts the upstream"
# `winmcp-gateway doctor --timeout`: the longest the start, and each check, may take. Half a
# minute lets `uvx` start a cached Windows-MCP; a first download may need more (the message says so).
DEFAULT_TIMEOUT_S = 30.0


def _wrap(head: str, text: str) -> list[str]:
    return textwrap.wrap(
        text, width=TEXT_WIDTH, initial_indent=head, subsequent_indent=" " * len(head), break_on_hyphens=False
    ) or [head.rstrip()]


class Verdict(enum.Enum):
    """One check's outcome; `rank` orders them from best to worst."""

    OK = "OK"
    WARNING = "WARNING"
    UNKNOWN = "UNKNOWN"
    SEVERE = "SEVERE"

    @property
    def rank(self) -> int:
        return _RANK[self]

    @property
    def fails(self) -> bool:
        """SEVERE and UNKNOWN make the doctor exit non-zero."""
        return self in (Verdict.SEVERE, Verdict.UNKNOWN)


_RANK = {Verdict.OK: 0, Verdict.WARNING: 1, Verdict.UNKNOWN: 2, Verdict.SEVERE: 3}


def worst(verdicts: Iterable[Verdict]) -> Verdict:
    """The worst of `verdicts` (OK for none)."""
    return max(verdicts, key=lambda v: v.rank, default=Verdict.OK)


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One thing a check found; `tool`/`field`/`rules` are set for schema findings."""

    verdict: Verdict
    message: str
    tool: str | None = None
    field: str | None = None
    rules: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "message": self.message,
            "tool": self.tool,
            "field": self.field,
            "rules": list(self.rules),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    """One check: its id, verdict (never better than its worst finding), summary and findings."""

    id: str
    title: str
    verdict: Verdict
    summary: str
    findings: tuple[Finding, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.id not in CHECK_IDS:
            raise ValueError(f"unknown check id {self.id!r}")
        if worst(f.verdict for f in self.findings).rank > self.verdict.rank:
            raise ValueError(f"check {self.id}: verdict {self.verdict.value} hides a worse finding")
        object.__setattr__(self, "data", MappingProxyType(dict(self.data)))

    @classmethod
    def of(
        cls,
        cid: str,
        title: str,
        findings: Sequence[Finding],
        *,
        ok: str,
        data: Mapping[str, Any] | None = None,
    ) -> Check:
        """A check whose verdict is its worst finding's; `ok` is the summary when there is none."""
        verdict = worst(f.verdict for f in findings)
        if not findings:
            summary = ok
        elif len(findings) == 1:
            summary = findings[0].message
        else:
            counts = ", ".join(
                f"{n} {v.value}" for v in reversed(Verdict) if (n := sum(f.verdict is v for f in findings))
            )
            summary = f"{len(findings)} findings ({counts})"
        return cls(id=cid, title=title, verdict=verdict, summary=summary, findings=tuple(findings), data=data or {})

    @classmethod
    def unknown(cls, cid: str, title: str, why: str, data: Mapping[str, Any] | None = None) -> Check:
        """A check that could not be made."""
        return cls(id=cid, title=title, verdict=Verdict.UNKNOWN, summary=why, data=data or {})

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "verdict": self.verdict.value,
            "summary": self.summary,
            "findings": [f.as_json() for f in self.findings],
            "data": dict(self.data),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """All checks of one doctor run, in `CHECK_IDS` order."""

    upstream: str
    checks: tuple[Check, ...]

    def __post_init__(self) -> None:
        if tuple(c.id for c in self.checks) != CHECK_IDS:
            raise ValueError(f"a report has the checks {CHECK_IDS}, in that order")

    @property
    def overall(self) -> Verdict:
        return worst(c.verdict for c in self.checks)

    @property
    def exit_code(self) -> int:
        return 1 if any(c.verdict.fails for c in self.checks) else 0

    def get(self, cid: str) -> Check:
        return next(c for c in self.checks if c.id == cid)

    def as_json(self) -> dict[str, Any]:
        """The stable JSON form (module docstring)."""
        return {
            "format": FORMAT,
            "overall": self.overall.value,
            "exit_code": self.exit_code,
            "upstream": self.upstream,
            "counts": {v.value: sum(c.verdict is v for c in self.checks) for v in Verdict},
            "checks": [c.as_json() for c in self.checks],
        }

    def render_text(self) -> str:
        """Readable at a glance: one line per check, its findings indented under it.

        The CLI prints the same text piece by piece as the checks run (`render_header`,
        `render_check`, `render_footer`)."""
        lines = render_header(self.upstream)
        for c in self.checks:
            lines += render_check(c)
        lines += render_footer(self.checks)
        return "\n".join(lines)


def render_header(upstream: str) -> list[str]:
    """The text report's first lines."""
    return [f"winmcp-gateway doctor — upstream: {upstream}", ""]


def render_check(c: Check) -> list[str]:
    """One check's lines: verdict, id and summary; the findings under it; an upstream's last words."""
    lines = _wrap(f"  {c.verdict.value:<8} {c.id:<20} ", c.summary)
    if len(c.findings) > 1 or (c.findings and c.findings[0].message != c.summary):
        for f in c.findings:
            lines += _wrap(f"{'':<33}- ", f"{f.verdict.value}: {f.message}")
    said = stderr_lines(c.data.get("stderr_tail"))
    if said:
        # What a failed upstream printed last is most often the root cause (a traceback's last line).
        lines.append(f"{'':<32}its stderr, last {len(said)} line(s):")
        lines += [f"{'':<34}| {line[:TEXT_WIDTH]}" for line in said]
    return lines


def render_footer(checks: Sequence[Check]) -> list[str]:
    """The text report's last lines: the overall verdict, the counts and the exit code."""
    overall = worst(c.verdict for c in checks)
    exit_code = 1 if any(c.verdict.fails for c in checks) else 0
    counts = ", ".join(f"{sum(c.verdict is v for c in checks)} {v.value}" for v in reversed(Verdict))
    tail = (
        "nothing SEVERE or UNKNOWN"
        if exit_code == 0
        else "SEVERE or UNKNOWN checks need attention: UNKNOWN means it could not be checked"
    )
    return ["", f"overall: {overall.value} ({counts}) — {tail}; exit {exit_code}"]


def stderr_lines(tail: object, limit: int = STDERR_LINES) -> list[str]:
    """The last `limit` lines an upstream printed, without the gateway's own start markers."""
    if not isinstance(tail, str):
        return []
    said = [line.rstrip() for line in tail.splitlines() if line.strip() and not line.startswith(START_MARKER)]
    return said[-limit:]
