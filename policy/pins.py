"""Tool-definition pinning, the "rug pull" check (issue 15 item 3; S-PIN-01..06), pure.

A person trusts the tools upstream offered when the gateway first met it. A later definition
that differs — an upgrade, or a compromised server that rewrites Click's description into an
instruction, or drops the argument a rule reads — must not reach the model unseen. This
module turns definitions into digests, compares what is pinned with what is offered, says what
changed, and decides a call: the shell (gateway/state/pins.py) reads and writes the pin file.

What is pinned, per tool: name, description, inputSchema, outputSchema and annotations (a
missing one counts as null), as canonical JSON (sorted keys, no spaces, UTF-8), sha256.
`title` and `_meta` are not: they do not reach what the model is told to do.

Status of each tool (S-PIN-02):

    pinned    the offered digest equals the pin (accepted at the first connection or by a person)
    new       pinned on first sight after the first connection, so a later change is caught; it
              stays UNKNOWN / visible exactly as the catalog says — pinning trusts nothing
    changed   the offered digest differs from the pin (any one entry, when a name is offered more
              than once): withheld and refused TOOL_CHANGED
    removed   pinned, but not offered any more (nothing to call; shown until accepted)
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from policy.catalog import OWN_TOOLS
from policy.decision import Code, Decision, refuse

PINNED_FIELDS = ("name", "description", "inputSchema", "outputSchema", "annotations")
PinMode = Literal["enforce", "warn"]
# Who put a pin there: the gateway at the first connection, the gateway on first sight of a
# tool that appeared later, or a person (`winmcp-gateway pin accept`).
PinSource = Literal["first-connection", "first-sight", "cli"]
SHOW = "winmcp-gateway pin show"
ACCEPT = "winmcp-gateway pin accept"


def pinned_view(tool: Mapping[str, Any]) -> dict[str, Any]:
    """The five pinned fields of a `tools/list` entry (absent → None)."""
    return {k: tool.get(k) for k in PINNED_FIELDS}


def canonical_json(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, non-ASCII kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def tool_digest(tool: Mapping[str, Any]) -> str:
    """sha256 (hex) of the canonical JSON of the tool's pinned fields (S-PIN-01)."""
    return hashlib.sha256(canonical_json(pinned_view(tool)).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True, kw_only=True)
class PinnedTool:
    """One pin: the digest, the definition it was made from (for the diff) and who made it."""

    name: str
    digest: str
    definition: Mapping[str, Any]
    by: PinSource = "first-connection"
    at: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError("PinnedTool.name must be a non-empty string")
        if not isinstance(self.digest, str) or len(self.digest) != 64:
            raise ValueError(f"PinnedTool.digest of {self.name!r} is not a sha256 hex digest")
        if not isinstance(self.definition, Mapping):
            raise TypeError(f"PinnedTool.definition of {self.name!r} must be a mapping")
        if self.by not in ("first-connection", "first-sight", "cli"):
            raise ValueError(f"PinnedTool.by of {self.name!r} is {self.by!r}")


def pin_of(tool: Mapping[str, Any], *, by: PinSource, at: str = "") -> PinnedTool:
    """The pin of an offered `tools/list` entry."""
    return PinnedTool(name=str(tool.get("name")), digest=tool_digest(tool), definition=pinned_view(tool), by=by, at=at)


class PinStatus(enum.Enum):
    PINNED = "pinned"
    NEW = "new"
    CHANGED = "changed"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True, kw_only=True)
class PropertyChange:
    """One input argument whose schema differs; `type_changed` when its JSON types differ."""

    name: str
    before: str
    after: str
    type_changed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolDiff:
    """What differs between a pinned definition and an offered one (S-PIN-03)."""

    description_changed: bool = False
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[PropertyChange, ...] = ()
    required_added: tuple[str, ...] = ()
    required_removed: tuple[str, ...] = ()
    schema_keys: tuple[str, ...] = ()  # other inputSchema keys that differ (additionalProperties …)
    output_schema_changed: bool = False
    annotations: tuple[tuple[str, str, str], ...] = ()  # (key, before, after)


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolChange:
    """One tool's status; `pin`/`offered` are the two definitions (None where there is none)."""

    name: str
    status: PinStatus
    pin: PinnedTool | None = None
    offered: Mapping[str, Any] | None = None
    diff: ToolDiff | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PinReport:
    """Every pinned or offered tool's status, by name order."""

    tools: tuple[ToolChange, ...] = ()

    def named(self, status: PinStatus) -> tuple[str, ...]:
        return tuple(t.name for t in self.tools if t.status is status)

    @property
    def changed(self) -> tuple[str, ...]:
        return self.named(PinStatus.CHANGED)

    def get(self, name: str) -> ToolChange | None:
        return next((t for t in self.tools if t.name == name), None)


def _types(schema: object) -> str:
    """A short spelling of a property schema's JSON types: `integer`, `array|string|null`, `enum`."""
    if not isinstance(schema, Mapping):
        return "?"
    if "type" in schema:
        kind = schema["type"]
        return "|".join(str(k) for k in kind) if isinstance(kind, list) else str(kind)
    if "enum" in schema:
        return "enum"
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return "|".join(_types(s) for s in schema[key])
    return "any"


def _props(definition: Mapping[str, Any]) -> Mapping[str, Any]:
    schema = definition.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    return props if isinstance(props, Mapping) else {}


def _required(definition: Mapping[str, Any]) -> frozenset[str]:
    schema = definition.get("inputSchema")
    req = schema.get("required") if isinstance(schema, Mapping) else None
    return frozenset(str(r) for r in req) if isinstance(req, list) else frozenset()


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def diff_definitions(before: Mapping[str, Any], after: Mapping[str, Any]) -> ToolDiff:
    """What differs between two definitions (pinned fields only).

    Args:
        before: the pinned definition.
        after: the offered one.

    Returns:
        The differences; all empty/False when the pinned fields are equal.
    """
    old, new = _props(before), _props(after)
    changed = tuple(
        PropertyChange(
            name=name,
            before=_types(old[name]),
            after=_types(new[name]),
            type_changed=_types(old[name]) != _types(new[name]),
        )
        for name in sorted(set(old) & set(new))
        if canonical_json(old[name]) != canonical_json(new[name])
    )
    old_schema, new_schema = _mapping(before.get("inputSchema")), _mapping(after.get("inputSchema"))
    keys = sorted(
        k
        for k in set(old_schema) | set(new_schema)
        if k not in ("properties", "required")
        and canonical_json(old_schema.get(k)) != canonical_json(new_schema.get(k))
    )
    old_ann, new_ann = _mapping(before.get("annotations")), _mapping(after.get("annotations"))
    annotations = tuple(
        (k, canonical_json(old_ann.get(k)), canonical_json(new_ann.get(k)))
        for k in sorted(set(old_ann) | set(new_ann))
        if canonical_json(old_ann.get(k)) != canonical_json(new_ann.get(k))
    )
    return ToolDiff(
        description_changed=before.get("description") != after.get("description"),
        added=tuple(sorted(set(new) - set(old))),
        removed=tuple(sorted(set(old) - set(new))),
        changed=changed,
        required_added=tuple(sorted(_required(after) - _required(before))),
        required_removed=tuple(sorted(_required(before) - _required(after))),
        schema_keys=tuple(keys),
        output_schema_changed=canonical_json(before.get("outputSchema")) != canonical_json(after.get("outputSchema")),
        annotations=annotations,
    )


def compare(pins: Mapping[str, PinnedTool], offered: Iterable[Mapping[str, Any]]) -> PinReport:
    """Each pinned or offered tool's status (module docstring; S-PIN-02).

    Args:
        pins: the pin file's pins by name.
        offered: upstream's `tools/list` entries (entries without a string name are skipped; a
            name offered more than once is CHANGED when any of its entries differs from the pin).

    Returns:
        The report, tools in name order.
    """
    by_name: dict[str, Mapping[str, Any]] = {}
    for t in offered:
        if not (isinstance(t, Mapping) and isinstance(t.get("name"), str)):
            continue
        kept, pin = by_name.get(t["name"]), pins.get(t["name"])
        # A name offered twice is judged by an entry that differs from its pin: the client is
        # sent every entry, so a pinned copy must not vouch for a rewritten one beside it.
        if kept is None or pin is None or pin.digest == tool_digest(kept):
            by_name[t["name"]] = t
    out: list[ToolChange] = []
    for name in sorted(set(pins) | set(by_name)):
        pin, tool = pins.get(name), by_name.get(name)
        if tool is None:
            out.append(ToolChange(name=name, status=PinStatus.REMOVED, pin=pin))
        elif pin is None:
            out.append(ToolChange(name=name, status=PinStatus.NEW, offered=pinned_view(tool)))
        elif pin.digest != tool_digest(tool):
            diff = diff_definitions(pin.definition, pinned_view(tool))
            out.append(ToolChange(name=name, status=PinStatus.CHANGED, pin=pin, offered=pinned_view(tool), diff=diff))
        else:
            status = PinStatus.NEW if pin.by == "first-sight" else PinStatus.PINNED
            out.append(ToolChange(name=name, status=status, pin=pin, offered=pinned_view(tool)))
    return PinReport(tools=tuple(out))


def gated_loss(diff: ToolDiff, gated: frozenset[str]) -> tuple[str, ...]:
    """The gated arguments (ones the gateway's checks read) that disappeared or changed type.

    Args:
        diff: a changed tool's diff.
        gated: the arguments of that tool the catalog, the rules or the probe read.

    Returns:
        Their names, sorted: non-empty makes the change SEVERE in the doctor (S-PIN-05).
    """
    lost = set(diff.removed) | {c.name for c in diff.changed if c.type_changed}
    return tuple(sorted(lost & gated))


@dataclass(frozen=True, slots=True, kw_only=True)
class PinGate:
    """What the call-time check needs: the mode, the withheld tools, or why the pins are unusable.

    Attributes:
        mode: "enforce" withholds and refuses; "warn" only reports.
        withheld: the tools whose offered definition differs from the pin.
        error: the pin file could not be read; then every upstream tool is withheld.
    """

    mode: PinMode = "enforce"
    withheld: frozenset[str] = frozenset()
    error: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in ("enforce", "warn"):
            raise ValueError(f"PinGate.mode must be 'enforce' or 'warn', not {self.mode!r}")
        if type(self.withheld) is not frozenset:
            raise TypeError("PinGate.withheld must be a frozenset")

    def hides(self, tool: str) -> bool:
        """Whether `tool` is left out of `tools/list` (never one of the gateway's own tools)."""
        if self.mode == "warn" or tool in OWN_TOOLS:
            return False
        return self.error is not None or tool in self.withheld


def check_pin(tool: str, gate: PinGate) -> Decision | None:
    """Refuse a call to a tool whose definition no person has accepted (S-PIN-04, S-PIN-06).

    Args:
        tool: the upstream tool called.
        gate: the current pin state.

    Returns:
        None, or DENY TOOL_CHANGED naming `pin show` / `pin accept`.
    """
    if not gate.hides(tool):
        return None
    if gate.error is not None:
        return refuse(
            Code.TOOL_CHANGED,
            f"the gateway's record of the tool definitions a person trusted cannot be read ({gate.error[:200]}), "
            f"so it cannot tell whether {tool[:60]!r} is the tool that was accepted.",
            f"tell the person: they can see the problem with `{SHOW}` and re-pin with `{ACCEPT}`; "
            "observation and the gateway's own winmcp_* tools still work",
            spec="S-PIN-06",
        )
    return refuse(
        Code.TOOL_CHANGED,
        f"upstream changed the definition of {tool[:60]!r} (description, arguments or annotations) since a "
        "person last accepted it, so the gateway withholds it.",
        f"do not look for another way to do the same thing; tell the person, who can review the change with "
        f"`{SHOW}` and accept it with `{ACCEPT} {tool[:60]}`",
        spec="S-PIN-04",
    )
