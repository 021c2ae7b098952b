"""The world as values: what the shell reads and hands to `decide` (STYLE.md §1).

Nothing here is read from a file, the environment or a clock. `gateway/` builds these
from its config, its observation store, its kill switch and its approval store, once per
call, and passes them in. How config is loaded is not policy's business: `PolicyConfig`
takes plain values (`PolicyConfig.from_attrs` copies the same-named fields of any object).

`Context` itself is deliberately not type-checked on construction: `decide` treats
anything odd inside it (a member that is missing, of the wrong type, or raises when read)
as DENY `POLICY_ERROR` (S-DEC-05) — the fail-closed path is tested with such objects.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from policy.decision import CommandRules
from policy.observation import Observation, Window

if TYPE_CHECKING:
    from policy.approval import Approval

# Arguments the gateway adds to client-visible schemas and strips before forwarding (DESIGN.md §4-§5).
GATEWAY_ARGS: tuple[str, ...] = ("based_on", "approval_id")


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


def _bool(name: str, value: object) -> None:
    if type(value) is not bool:
        raise TypeError(f"PolicyConfig.{name} must be a bool, not {value!r}")


def _names(name: str, value: object) -> None:
    if type(value) is not tuple or not all(isinstance(v, str) for v in value):
        raise TypeError(f"PolicyConfig.{name} must be a tuple of strings")


@dataclass(frozen=True, slots=True, kw_only=True)
class PolicyConfig:
    """The config values policy reads. Defaults are DESIGN.md's; only the first four weaken the gate.

    `allowed_windows` are case-insensitive glob patterns (`*`, `?`) matched against the whole
    window title — `"* - Notepad"` matches `"notes.txt - Notepad"`. A glob rather than a
    substring, so that `"Notepad"` cannot also admit `"Notepad-lookalike phishing"`.
    `tools_allow` / `tools_deny` are exact tool names; an empty `tools_allow` means "no
    allow-list" (every known tool), never "nothing".
    """

    enforce: bool = True
    require_observation: bool = True
    require_coordinate_mapping: bool = True
    require_process_match: bool = True
    max_observation_age_ms: float = 60_000  # the seed plugin's maxObservationAgeMs default
    allowed_windows: tuple[str, ...] = ()
    tools_allow: tuple[str, ...] = ()
    tools_deny: tuple[str, ...] = ()
    profile: Literal["default", "observe-only"] = "default"
    unknown_tools: Literal["deny", "allow"] = "deny"
    require_approval: bool = False
    require_approval_for_input: bool = False
    approval_ttl_ms: float = 120_000  # the seed plugin's approvalTtlMs default

    def __post_init__(self) -> None:
        for name in (
            "enforce",
            "require_observation",
            "require_coordinate_mapping",
            "require_process_match",
            "require_approval",
            "require_approval_for_input",
        ):
            _bool(name, getattr(self, name))
        for name in ("allowed_windows", "tools_allow", "tools_deny"):
            _names(name, getattr(self, name))
        for name in ("max_observation_age_ms", "approval_ttl_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise TypeError(f"PolicyConfig.{name} must be a finite number, not {value!r}")
            if value < 0 or (name == "approval_ttl_ms" and value == 0):
                raise ValueError(f"PolicyConfig.{name} out of range: {value!r}")
        if self.profile not in ("default", "observe-only"):
            raise ValueError(f"PolicyConfig.profile must be 'default' or 'observe-only', not {self.profile!r}")
        if self.unknown_tools not in ("deny", "allow"):
            raise ValueError(f"PolicyConfig.unknown_tools must be 'deny' or 'allow', not {self.unknown_tools!r}")

    @classmethod
    def from_attrs(cls, source: object) -> PolicyConfig:
        """Copy the same-named attributes of `source` (e.g. the shell's loaded config).

        Args:
            source: any object with attributes named like this class's fields; lists are
                turned into tuples.

        Returns:
            The validated policy config.

        Raises:
            AttributeError: a field is missing on `source`.
            TypeError, ValueError: a value is unusable.
        """
        values: dict[str, object] = {}
        for f in fields(cls):
            value = getattr(source, f.name)
            values[f.name] = tuple(value) if isinstance(value, list) else value
        return cls(**values)  # type: ignore[arg-type]


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
            "failed" (the probe ran but gave no answer), "not_probed" (the shell did not look).
        focused: the focused window now, when status is "ok".
        captured: the probe replaced upstream's label table (every Snapshot-based probe
            does, FORMATS.md §7) — a label call after such a probe would act on the probe's
            table, so it is refused (S-FRESH-05).
        detail: why a probe failed (shown in the refusal).
    """

    status: Literal["ok", "failed", "not_probed"]
    focused: Window | None = None
    captured: bool = True
    detail: str = ""

    def __post_init__(self) -> None:
        if self.status not in ("ok", "failed", "not_probed"):
            raise ValueError(f"Probe.status must be ok/failed/not_probed, not {self.status!r}")
        if self.focused is not None and (self.status != "ok" or type(self.focused) is not Window):
            raise ValueError("only an ok probe carries a focused Window")


NOT_PROBED = Probe(status="not_probed", captured=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionView:
    """What one client session may rely on, as the shell's stores say right now.

    Attributes:
        session: the client session id.
        observations: this session's held observations by id.
        latest_id: this session's newest observation id (held or retired), None if it never had one.
        retired: this session's ids that may no longer be used → why ("dropped from history",
            "upstream restarted since"); citing one is STALE_OBSERVATION, not UNKNOWN.
        foreign_ids: ids the shell knows belong to other sessions (refused like unknown ones,
            without revealing anything about them).
        generation: upstream's capture count now (every call for which
            `catalog.replaces_labels` is true, by any session, bumps it once).
        probe: the probe result for this call.
    """

    session: str
    observations: Mapping[str, Observation] = field(default_factory=dict)
    latest_id: str | None = None
    retired: Mapping[str, str] = field(default_factory=dict)
    foreign_ids: frozenset[str] = frozenset()
    generation: int = 0
    probe: Probe = NOT_PROBED

    def __post_init__(self) -> None:
        if not isinstance(self.session, str):
            raise TypeError("SessionView.session must be a string")
        for key, obs in self.observations.items():
            if type(obs) is not Observation or obs.id != key or obs.session != self.session:
                raise ValueError(f"SessionView.observations[{key!r}] is not this session's observation {key!r}")
        if (
            self.latest_id is not None
            and self.latest_id not in self.observations
            and self.latest_id not in self.retired
        ):
            raise ValueError(f"SessionView.latest_id {self.latest_id!r} is neither held nor retired")
        if self.latest_id is None and self.observations:
            raise ValueError("SessionView has observations but no latest_id")
        if type(self.generation) is not int:
            raise TypeError("SessionView.generation must be an int")
        if type(self.probe) is not Probe:
            raise TypeError("SessionView.probe must be a Probe")
        object.__setattr__(self, "observations", MappingProxyType(dict(self.observations)))
        object.__setattr__(self, "retired", MappingProxyType(dict(self.retired)))
        object.__setattr__(self, "foreign_ids", frozenset(self.foreign_ids))


@dataclass(frozen=True, slots=True, kw_only=True)
class Context:
    """Everything `decide` reads besides the call and the clock.

    Attributes:
        config: the policy config.
        kill: the kill switch state.
        view: this session's observations, the generation and the probe.
        approvals: approvals by id that may apply (at least the one the call cites, and
            this session's session-scoped ones).
        rules: the loaded command rules, or None when command rules are disabled.
        rules_error: why the command rules failed to load; then every SYSTEM, INPUT and
            UNKNOWN call is refused (POLICY_ERROR) while observation keeps working.
    """

    config: PolicyConfig
    kill: KillState = KillState()
    view: SessionView
    approvals: Mapping[str, Approval] = field(default_factory=dict)
    rules: CommandRules | None = None
    rules_error: str | None = None
