"""Which audit lines a report shows: ``--since``, ``--until``, ``--session`` (S-AREP-02, S-AREP-03).

Times are UTC, like every ``ts`` the writer stamps (S-AUD-01). A bound is either ISO 8601 —
``2026-12-03``, ``2026-12-03T14:05``, ``2026-12-03T14:05:09``, ``2026-12-03T14:05:09.250Z``,
with ``Z`` or an offset such as ``+01:00`` (converted to UTC), a time without either read as UTC
— or a span back from now: a whole number and a unit, ``s`` ``m`` ``h`` ``d`` ``w`` (``90s``,
``15m``, ``2h``, ``3d``, ``1w``). ``--since`` is inclusive, ``--until`` exclusive, so
``--since 2026-12-03 --until 2026-12-04`` is that one day. A line whose ``ts`` is missing or
malformed cannot be placed in time and is left out whenever a time bound is set; with
``--session`` only lines of the named sessions are kept (a person's ``kill`` from the command
line, which has no session, is then left out too).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterable, Mapping
from typing import Any

from gateway.audit.line import format_ts

_SPAN = re.compile(r"(\d{1,9})([smhdw])")
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_TS_SHAPE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
TIME_FORMS = (
    "ISO 8601 UTC such as 2026-12-03, 2026-12-03T14:05 or 2026-12-03T14:05:09.250Z (an offset such as "
    "+01:00 is converted; no offset means UTC), or a span back from now such as 90s, 15m, 2h, 3d or 1w"
)


class FilterError(ValueError):
    """A filter argument that is not understood; the message names it and says what works."""


def parse_time(option: str, text: str, *, now_s: float) -> str:
    """One ``--since`` / ``--until`` value as the writer's ``ts`` shape (S-AREP-02).

    Args:
        option: the option's name, for the message.
        text: what the person typed.
        now_s: seconds since the epoch, for a span back from now.
    Returns:
        ``YYYY-MM-DDTHH:MM:SS.mmmZ``, which compares as text exactly as the times compare.
    Raises:
        FilterError: naming the value and the forms that work.
    """
    value = text.strip()
    try:
        span = _SPAN.fullmatch(value)
        if span:
            return format_ts(now_s - int(span.group(1)) * _UNIT_S[span.group(2)])
        iso = value[:-1] + "+00:00" if value[-1:] in ("Z", "z") else value
        moment = dt.datetime.fromisoformat(iso)  # a date alone is its midnight
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.UTC)
        return format_ts(moment.timestamp())
    except (ValueError, OverflowError, OSError):  # not a time, or one no clock can hold
        raise FilterError(f"{option} {text!r} is not a time; use {TIME_FORMS}") from None


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class EventFilter:
    """The lines a report keeps; the default keeps every line."""

    since: str | None = None  # inclusive, the writer's ts shape
    until: str | None = None  # exclusive
    sessions: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.since is not None and self.until is not None and self.since >= self.until:
            raise FilterError(f"--since {self.since} is not before --until {self.until}; nothing could match")

    @property
    def active(self) -> bool:
        return self.since is not None or self.until is not None or bool(self.sessions)

    def keeps(self, record: Mapping[str, Any]) -> bool:
        """Whether the report shows `record`."""
        if self.sessions and record.get("session") not in self.sessions:
            return False
        if self.since is None and self.until is None:
            return True
        ts = record.get("ts")
        if not isinstance(ts, str) or not _TS_SHAPE.fullmatch(ts):
            return False
        return (self.since is None or ts >= self.since) and (self.until is None or ts < self.until)

    def describe(self) -> str:
        """The filter in words, for the report's head ("" when it keeps everything)."""
        parts = []
        if self.since is not None:
            parts.append(f"since {self.since}")
        if self.until is not None:
            parts.append(f"until {self.until}")
        if self.sessions:
            parts.append("session " + ", ".join(sorted(self.sessions)))
        return "; ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {"since": self.since, "until": self.until, "sessions": sorted(self.sessions)}


def build_filter(*, since: str | None, until: str | None, sessions: Iterable[str] | None, now_s: float) -> EventFilter:
    """The `EventFilter` of the command line's ``--since``, ``--until`` and ``--session`` values.

    Raises:
        FilterError: a time that is not understood, an empty session, or since not before until.
    """
    names = [s for s in (sessions or [])]
    if any(not s.strip() for s in names):
        raise FilterError("--session needs a session id, as audit lines name it (e.g. stdio:2f4a515e94de0e1d)")
    return EventFilter(
        since=parse_time("--since", since, now_s=now_s) if since is not None else None,
        until=parse_time("--until", until, now_s=now_s) if until is not None else None,
        sessions=frozenset(names),
    )
