"""The gateway's own classification of every tool it knows (DESIGN.md §2, §5; S-CAT-01..04).

Never derived from upstream annotations: upstream calls tools "read-only" or "not
destructive" by its own lights, and Notification — harmless by its hints in some
versions — was used for prompt injection. The table below is the only source.

Argument names are upstream's real ones from `tools_list.json` (FORMATS.md §8): `mode`,
never `action`. The most expensive bug in the prior art was a rule table keyed on a
guessed field name that never matched; `catalog_reads()` lets the doctor compare every
name read here with upstream's live `inputSchema` (S-CAT-02).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


class ToolClass(enum.Enum):
    """What a tool can do to the desktop, by the gateway's judgement (S-CAT-01)."""

    READ_ONLY = "read_only"  # observes; never gated by freshness
    INPUT = "input"  # mouse/keyboard into the focused window; freshness-gated
    SYSTEM = "system"  # changes the machine (processes, files, registry, apps, clipboard, toasts)
    CONTROL = "control"  # the gateway's own kill switch: changes gateway state only
    UNKNOWN = "unknown"  # any name not in the table; denied unless `unknown_tools = "allow"`


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolSpec:
    """One catalog row: a tool's class and the argument names the gateway reads from it.

    `coords` carry screen coordinates, `labels` name rows of upstream's label table
    (FORMATS.md §7), `content` is what command rules and redaction read, `flags` change
    how a call is classified (e.g. Scrape `use_dom` replaces the label table).
    """

    name: str
    cls: ToolClass
    coords: frozenset[str] = frozenset()
    labels: frozenset[str] = frozenset()
    content: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    own: bool = False  # one of the gateway's `winmcp_*` tools, not proxied upstream

    @property
    def reads(self) -> frozenset[str]:
        """Every argument name the gateway reads for this tool."""
        return self.coords | self.labels | self.content | self.flags


def _row(
    name: str,
    cls: ToolClass,
    *,
    coords: tuple[str, ...] = (),
    labels: tuple[str, ...] = (),
    content: tuple[str, ...] = (),
    flags: tuple[str, ...] = (),
    own: bool = False,
) -> ToolSpec:
    return ToolSpec(
        name=name,
        cls=cls,
        coords=frozenset(coords),
        labels=frozenset(labels),
        content=frozenset(content),
        flags=frozenset(flags),
        own=own,
    )


_R, _I, _S = ToolClass.READ_ONLY, ToolClass.INPUT, ToolClass.SYSTEM

# The 21 tools of windows-mcp 0.8.8 (tools_list.json). Scrape is READ_ONLY for the freshness
# gate, but it fetches URLs and asks the client to sample, so it is not an observation tool.
UPSTREAM_TOOLS: Mapping[str, ToolSpec] = MappingProxyType(
    {
        s.name: s
        for s in (
            _row("Snapshot", _R, coords=("region", "display")),
            _row("Screenshot", _R, coords=("region", "display")),
            _row("DisplayInventory", _R),
            _row("Wait", _R),
            _row("WaitFor", _R),
            _row("ControlStatus", _R),
            _row("Scrape", _R, content=("url",), flags=("use_dom",)),
            _row("Click", _I, coords=("loc",), labels=("label",)),
            _row("Type", _I, coords=("loc",), labels=("label",), content=("text",)),
            _row("Scroll", _I, coords=("loc",), labels=("label",)),
            _row("Move", _I, coords=("loc", "from_loc"), labels=("label",)),
            _row("Shortcut", _I, content=("shortcut",)),
            _row("MultiSelect", _I, coords=("locs",), labels=("labels",)),
            _row("MultiEdit", _I, coords=("locs",), labels=("labels",)),
            _row("PowerShell", _S, content=("command",)),
            _row("Registry", _S, content=("mode", "path", "name", "value")),
            _row(
                "FileSystem",
                _S,
                content=("mode", "path", "destination", "content", "pattern", "recursive"),
            ),
            _row("Process", _S, content=("mode", "name", "pid", "force")),
            _row(
                "App",
                _S,
                coords=("window_loc", "window_size"),
                content=("mode", "name", "executable", "args", "cwd"),
                flags=("mode",),
            ),
            _row("Clipboard", _S, content=("mode", "text")),
            _row("Notification", _S, content=("title", "message", "app_id")),
        )
    }
)

KILL_TOOL = "winmcp_kill"

# The gateway's own tools (DESIGN.md §8). All but winmcp_kill only read gateway state.
OWN_TOOLS: Mapping[str, ToolSpec] = MappingProxyType(
    {
        s.name: s
        for s in (
            _row("winmcp_state", _R, own=True),
            _row("winmcp_to_screen", _R, own=True),
            _row("winmcp_screen_to_image", _R, own=True),
            _row("winmcp_audit", _R, own=True),
            _row("winmcp_doctor", _R, own=True),
            _row(KILL_TOOL, ToolClass.CONTROL, own=True),
        )
    }
)

OWN_READ_ONLY_TOOLS: frozenset[str] = frozenset(n for n, s in OWN_TOOLS.items() if s.cls is _R)

# Allowed while the kill switch is engaged, so the agent can still report what it sees (S-CAT-04).
OBSERVATION_TOOLS: frozenset[str] = frozenset(
    {"Snapshot", "Screenshot", "DisplayInventory", "Wait", "WaitFor", "ControlStatus"}
)

# The tools whose schema gains the optional `based_on` argument (DESIGN.md §4).
INPUT_TOOLS_WITH_BASED_ON: frozenset[str] = frozenset(n for n, s in UPSTREAM_TOOLS.items() if s.cls is _I)

# Tools that replace upstream's label table on every call (FORMATS.md §7); Scrape and App
# do so only in some modes — see `replaces_labels`.
CAPTURE_TOOLS: frozenset[str] = frozenset({"Snapshot", "Screenshot", "WaitFor"})


def spec_of(tool: str) -> ToolSpec | None:
    """The catalog row of `tool` (upstream or own), or None for an unknown name.

    Args:
        tool: the tool name exactly as called (names are case-sensitive in MCP).

    Returns:
        The row, or None.
    """
    return UPSTREAM_TOOLS.get(tool) or OWN_TOOLS.get(tool)


def classify(tool: str) -> ToolClass:
    """The gateway's class for `tool` (S-CAT-01).

    Args:
        tool: the tool name exactly as called.

    Returns:
        Its class; `ToolClass.UNKNOWN` for any name not in the catalog (also non-strings).
    """
    spec = spec_of(tool) if isinstance(tool, str) else None
    return ToolClass.UNKNOWN if spec is None else spec.cls


def _not_false(value: object) -> bool:
    # Upstream accepts booleans and the strings "true"/"false" (FORMATS.md §8). Counting any
    # other value as "true" over-approximates label-table replacement, which only makes a
    # later label call stale — the safe direction.
    if value is None or value is False:
        return False
    return not (isinstance(value, str) and value.strip().lower() == "false")


def replaces_labels(tool: str, args: Mapping[str, object]) -> bool:
    """Whether this call replaces upstream's shared label table when it reaches upstream (S-CAT-03).

    Snapshot, Screenshot and WaitFor always do; Scrape with `use_dom` true; App with `mode`
    `resize` (always refreshes) or `switch` (refreshes when no state exists — counted always,
    the safe over-approximation). App's default mode is `launch`, which does not.

    Args:
        tool: the tool name.
        args: the call's arguments as sent upstream.

    Returns:
        True when the shell must count an upstream capture (bump the generation).
    """
    if tool in CAPTURE_TOOLS:
        return True
    if tool == "Scrape":
        return _not_false(args.get("use_dom"))
    if tool == "App":
        return args.get("mode") in ("resize", "switch")
    return False


def catalog_reads() -> Mapping[str, frozenset[str]]:
    """Upstream tool → every argument name the gateway reads from it (for the doctor, S-CAT-02).

    Returns:
        A read-only mapping over the 21 upstream tools (own tools are not upstream's).
    """
    return MappingProxyType({name: spec.reads for name, spec in UPSTREAM_TOOLS.items()})


def uses_labels(tool: str, args: Mapping[str, object]) -> bool:
    """Whether the call names rows of upstream's label table (`label` / `labels` not null).

    Args:
        tool: the tool name.
        args: the call's arguments.

    Returns:
        True when a label argument is present with a non-null value.
    """
    spec = UPSTREAM_TOOLS.get(tool)
    return spec is not None and any(args.get(name) is not None for name in spec.labels)


def uses_coords(tool: str, args: Mapping[str, object]) -> bool:
    """Whether the call carries screen coordinates (`loc`, `locs`, `from_loc`, … not null).

    Args:
        tool: the tool name.
        args: the call's arguments.

    Returns:
        True when a coordinate argument is present with a non-null value.
    """
    spec = UPSTREAM_TOOLS.get(tool)
    return spec is not None and any(args.get(name) is not None for name in spec.coords)
