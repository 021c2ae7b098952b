"""The audit sink and the clock: two seams `GatewayApp` is handed (or builds the defaults of).

`AuditSink` is what the rooms above write the record through; `gateway.audit.writer.AuditLog`
is the implementation (append-only, redacted, hash-chained JSONL). `Clock` is where "now"
comes from: seconds since the epoch, `time.time` unless a test says otherwise. It lives here
because the audit is the lowest room that reads the time (every event is stamped `ts`).
"""

from __future__ import annotations

from typing import Any, Protocol


class Clock(Protocol):
    """Seconds since the epoch (`time.time` has this shape)."""

    def __call__(self) -> float:
        """The current time."""
        ...


class AuditSink(Protocol):
    """Where audit events go; appending never raises (S-AUD-06)."""

    def append(self, event: str, **fields: Any) -> None:
        """Record one event (see `gateway.audit.writer.AuditLog.append` for the fields).

        Args:
            event: observation | allow | deny | ask | approval | failure | kill | config.
            **fields: the event's fields; the sink redacts them.
        """
        ...

    def stats(self) -> dict[str, Any]:
        """Health for `winmcp_state` and the doctor (written, failures, last_error, path …).

        Returns:
            The sink's counters, as `gateway.audit.writer.AuditLog.stats` names them.
        """
        ...
