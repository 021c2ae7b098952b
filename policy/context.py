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
from typing import Literal

from policy.decision import CommandRules
from policy.observation import Observation
from policy.rate import Brake
from policy.values import NOT_PROBED, Approval, KillState, Probe


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
        clipboard: the text this session last put on the clipboard with the Clipboard tool,
            None when the gateway cannot know what the clipboard holds (nothing set, or a
            command ran since that may have changed it); a paste is judged by it (policy/typed.py).
        unentered: the text typed since the last Enter (`rules.keyboard.unentered_after`); the next
            text typed where it runs is judged with it in front (a command typed in pieces).
        line_known: False once a key the gateway cannot follow (Tab completion, Backspace, an
            arrow, history) or a caret put by a click may have changed that line
            (`rules.keyboard.line_known_after`): the next Enter where a line runs asks a person.
        console_moves: the folder changes entered in a console (`rules.keyboard.console_moves_after`);
            the next command typed into one is judged with them in front (S-RULE-120).
    """

    session: str
    observations: Mapping[str, Observation] = field(default_factory=dict)
    latest_id: str | None = None
    retired: Mapping[str, str] = field(default_factory=dict)
    foreign_ids: frozenset[str] = frozenset()
    generation: int = 0
    probe: Probe = NOT_PROBED
    clipboard: str | None = None
    unentered: str = ""
    line_known: bool = True
    console_moves: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.session, str):
            raise TypeError("SessionView.session must be a string")
        if not isinstance(self.unentered, str):
            raise TypeError("SessionView.unentered must be a string")
        if not isinstance(self.line_known, bool):
            raise TypeError("SessionView.line_known must be a bool")
        if not isinstance(self.console_moves, tuple) or not all(isinstance(m, str) for m in self.console_moves):
            raise TypeError("SessionView.console_moves must be a tuple of strings")
        if self.clipboard is not None and not isinstance(self.clipboard, str):
            raise TypeError("SessionView.clipboard must be None or a string")
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
        brake: the rate limits and this session's brake state (policy/rate.py); None: no brake.
    """

    config: PolicyConfig
    kill: KillState = KillState()
    view: SessionView
    approvals: Mapping[str, Approval] = field(default_factory=dict)
    rules: CommandRules | None = None
    rules_error: str | None = None
    brake: Brake | None = None
