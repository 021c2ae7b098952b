"""The plain values policy is handed and hands back: a call, an approval, the kill state, a probe.

A leaf: it imports nothing of `policy` but the observation values, so `context`, `decision`
and `approval` can all use these without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from policy.observation import Window

# Arguments the gateway adds to client-visible schemas and strips before forwarding (DESIGN.md §4-§5).
GATEWAY_ARGS: tuple[str, ...] = ("based_on", "approval_id")

ApprovalStatus = Literal["pending", "approved", "denied", "used"]
ApprovalScope = Literal["once", "session"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCall:
    """One tool call as the client made it, with the gateway's own arguments split off.

    Attributes:
        tool: the tool name.
        args: the arguments to forward (a read-only copy). `ToolCall.from_client` moves
            `based_on`/`approval_id` out; if they are left in, the digest ignores them.
        session: the client session id (observations and approvals belong to one session).
        based_on: the raw `based_on` value; None when absent or null. Any other non-string
            value is kept as given so the gate can refuse it (UNKNOWN_OBSERVATION).
        approval_id: the raw `approval_id` value; None when absent or null.
    """

    tool: str
    args: Mapping[str, object] = field(default_factory=dict)
    session: str
    based_on: object = None
    approval_id: object = None

    def __post_init__(self) -> None:
        if not isinstance(self.tool, str) or not isinstance(self.session, str):
            raise TypeError("ToolCall.tool and ToolCall.session must be strings")
        if not isinstance(self.args, Mapping) or not all(isinstance(k, str) for k in self.args):
            raise TypeError("ToolCall.args must be a mapping with string keys")
        object.__setattr__(self, "args", MappingProxyType(dict(self.args)))

    @classmethod
    def from_client(cls, tool: str, arguments: Mapping[str, object] | None, session: str) -> ToolCall:
        """Split the client's arguments into upstream arguments and the gateway's own.

        Args:
            tool: the tool name.
            arguments: the client's `arguments` object (None → no arguments).
            session: the client session id.

        Returns:
            The call, with `based_on` / `approval_id` moved out of `args`.
        """
        raw = dict(arguments or {})
        based_on = raw.pop("based_on", None)
        approval_id = raw.pop("approval_id", None)
        return cls(tool=tool, args=raw, session=session, based_on=based_on, approval_id=approval_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class Approval:
    """One approval request and what became of it."""

    id: str
    digest: str
    tool: str
    session: str
    created_ms: float
    expires_ms: float | None  # None only for a granted session-scoped approval
    status: ApprovalStatus = "pending"
    scope: ApprovalScope = "once"
    decided_ms: float | None = None
    uses: int = 0
    rule_id: str | None = None
    reason: str = ""  # why a person is asked (shown to the person)

    def __post_init__(self) -> None:
        for name in ("id", "digest", "tool", "session"):
            if not isinstance(getattr(self, name), str) or (name != "session" and not getattr(self, name)):
                raise ValueError(f"Approval.{name} must be a non-empty string")
        if self.status not in ("pending", "approved", "denied", "used"):
            raise ValueError(f"Approval.status {self.status!r} is not a known status")
        if self.scope not in ("once", "session"):
            raise ValueError(f"Approval.scope {self.scope!r} must be 'once' or 'session'")
        if self.expires_ms is None and not (self.status == "approved" and self.scope == "session"):
            raise ValueError("only a granted session-scoped approval has no expiry")


@dataclass(frozen=True, slots=True, kw_only=True)
class KillState:
    """The kill switch as read by the shell (STOP file): engaged, by whom, since when, why."""

    engaged: bool = False
    by: Literal["person", "model"] | None = None
    since: str | None = None  # as the shell prints it (ISO-8601); display only
    reason: str = ""

    def __post_init__(self) -> None:
        if type(self.engaged) is not bool:
            raise TypeError("KillState.engaged must be a bool")
        if self.engaged and self.by not in ("person", "model"):
            raise ValueError("an engaged KillState says who engaged it: 'person' or 'model'")
        if self.reason is None:  # the shell's STOP-file reader may have no reason
            object.__setattr__(self, "reason", "")
        if not isinstance(self.reason, str) or not (self.since is None or isinstance(self.since, str)):
            raise TypeError("KillState.reason and KillState.since must be strings")


@dataclass(frozen=True, slots=True, kw_only=True)
class Probe:
    """The shell's read-only look at upstream just before an input action (DESIGN.md §4).

    Attributes:
        status: "ok" (`focused` is the focused window now; None = upstream reports none),
            "failed" (the probe ran but gave no answer), "not_probed" (the shell did not look),
            "pending" (the shell looks only if everything else allows: the drift check then
            answers PROBE_PENDING, and the shell probes and decides again; S-FRESH-10).
        focused: the focused window now, when status is "ok".
        captured: the probe replaced upstream's label table (every Snapshot-based probe
            does, FORMATS.md §7) — a label call after such a probe acts on the probe's table,
            so it may proceed only when `labels` shows that table is the observed one (S-FRESH-05).
        labels: for a full-tree probe (label calls), `policy.labels.label_signature` of what it
            captured; None for the small region probe of coordinate calls.
        detail: why a probe failed (shown in the refusal).
    """

    status: Literal["ok", "failed", "not_probed", "pending"]
    focused: Window | None = None
    captured: bool = True
    detail: str = ""
    labels: tuple[object, ...] | None = None

    def __post_init__(self) -> None:
        if self.status not in ("ok", "failed", "not_probed", "pending"):
            raise ValueError(f"Probe.status must be ok/failed/not_probed/pending, not {self.status!r}")
        if self.focused is not None and (self.status != "ok" or type(self.focused) is not Window):
            raise ValueError("only an ok probe carries a focused Window")


NOT_PROBED = Probe(status="not_probed", captured=False)
PROBE_PENDING = Probe(status="pending", captured=False)
