"""The doctor's schema comparison: the gateway's assumptions against upstream's live `tools/list`.

The prior art's most expensive bug was a rule table keyed on a guessed field name (`action`
where upstream says `mode`): every document was right, every unit test green (they used the
same guessed key), and the rules never matched on a real desktop. This module makes that
mistake visible at run time (DESIGN.md §7, S-DOC-02..05):

* SEVERE — an argument the catalog, the command rules or the gateway's own probe uses is
  missing upstream; the finding names the tool, the argument and the rules that went dead
  (or blind, when the rules read other arguments of that tool too).
* WARNING — an argument upstream has on a gated (INPUT/SYSTEM) tool that is neither read
  nor listed in `KNOWN_UNREAD_ARGS`: a possible bypass path (App's `executable`/`args`
  once were); an upstream argument named like one the gateway adds and strips
  (`based_on`, `approval_id`); an upstream tool the catalog does not know.
* UNKNOWN — a tools/list entry or an inputSchema that cannot be read. Never OK.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from gateway.doctor.model import Check, Finding, Verdict
from policy import GATEWAY_ARGS, OWN_TOOLS, UPSTREAM_TOOLS, ToolClass, catalog_reads, classify
from policy.rules.match import BUILTIN_RULES, Rule, RuleSet, rules_read_args

# Arguments the gateway itself SENDS upstream: the window-drift probe is a Snapshot with
# `use_vision` and a small `region` (gateway/pipeline/policy_world.py `run_probe`; a test records them).
GATEWAY_SENDS: Mapping[str, frozenset[str]] = MappingProxyType({"Snapshot": frozenset({"use_vision", "region"})})

# Upstream 0.8.8 arguments of gated tools that the gateway deliberately does not read, and why
# that is harmless: none of them carries a command, a path, a program or a target of its own.
KNOWN_UNREAD_ARGS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "Click": {"button": "which mouse button", "clicks": "single or double click"},
        "Type": {
            "caret_position": "where the caret goes before typing",
            "clear": "clear the field first",
            "press_enter": "press Enter after the text (the text itself is read)",
        },
        "Scroll": {
            "direction": "up/down/left/right",
            "type": "vertical or horizontal",
            "wheel_times": "amount",
        },
        "Move": {"drag": "drag instead of move (the points are read)", "duration": "animation time"},
        "MultiSelect": {"press_ctrl": "hold Ctrl while selecting"},
        "PowerShell": {"timeout": "how long the command may run"},
        "FileSystem": {
            "encoding": "text encoding",
            "limit": "listing size",
            "offset": "read offset",
            "overwrite": "replace an existing file (the path is read)",
            "show_hidden": "list hidden files",
        },
        "Process": {"limit": "listing size", "sort_by": "listing order"},
    }
)

_GATED = (ToolClass.INPUT, ToolClass.SYSTEM)
_ROLE_EFFECT = {
    "coords": "coordinate checks no longer see it",
    "labels": "the label-table staleness check no longer sees it",
    "content": "command rules and redaction no longer read it",
    "flags": "label-table replacement is no longer detected from it",
}


def reads_of(tool: str) -> frozenset[str]:
    """Every argument of `tool` the gateway relies on: catalog ∪ command rules ∪ its own probe."""
    return (
        catalog_reads().get(tool, frozenset())
        | rules_read_args().get(tool, frozenset())
        | GATEWAY_SENDS.get(tool, frozenset())
    )


def rules_on(tool: str, rule_set: RuleSet | None) -> tuple[str, ...]:
    """Ids of the rules (built-in and custom) that apply to `tool`, in table order."""
    rules: Iterable[Rule] = rule_set.rules if rule_set is not None else BUILTIN_RULES
    return tuple(r.id for r in rules if tool in r.tools)


def _readers(tool: str, field: str) -> list[str]:
    spec = UPSTREAM_TOOLS[tool]
    out = [f"catalog ({role}: {effect})" for role, effect in _ROLE_EFFECT.items() if field in getattr(spec, role)]
    if field in rules_read_args().get(tool, frozenset()):
        out.append("command rules")
    if field in GATEWAY_SENDS.get(tool, frozenset()):
        out.append("the window-drift probe sends it (upstream would reject the probe: input is refused)")
    return out


def _missing(tool: str, field: str, props: Mapping[str, Any], rule_set: RuleSet | None) -> Finding:
    dead: tuple[str, ...] = ()
    text = (
        f"{tool}.{field}: the gateway relies on this argument but upstream's inputSchema has no such "
        f"argument. Used by: {'; '.join(_readers(tool, field))}."
    )
    if field in rules_read_args().get(tool, frozenset()):
        dead = rules_on(tool, rule_set)
        only = rules_read_args()[tool] == frozenset({field})
        text += (
            f" Rules that went dead on {tool}: " if only else f" Rules that read {tool} and are now blind to it: "
        ) + (", ".join(dead) or "none")
    new = sorted(set(props) - reads_of(tool) - set(KNOWN_UNREAD_ARGS.get(tool, {})))
    if new:
        text += f". Upstream has argument(s) the gateway does not know: {', '.join(new)} (renamed?)"
    return Finding(verdict=Verdict.SEVERE, message=text, tool=tool, field=field, rules=dead)


def _properties(tool: Mapping[str, Any]) -> Mapping[str, Any] | None:
    schema = tool.get("inputSchema")
    if not isinstance(schema, Mapping):
        return None
    props = schema.get("properties", {})
    return props if isinstance(props, Mapping) else None


def compare_schema(
    tools: Sequence[Mapping[str, Any]], rule_set: RuleSet | None, *, unknown_tools: str = "deny"
) -> tuple[Check, Check, Check]:
    """Compare the gateway's assumptions with upstream's tools (S-DOC-02..05).

    Args:
        tools: upstream's `tools/list` entries (wire dicts).
        rule_set: the loaded rules (their ids are named as dead); None → the built-ins.
        unknown_tools: the config value, to say what happens to an unknown tool.

    Returns:
        The checks `schema.read_args`, `schema.unknown_args` and `schema.tools`.
    """
    by_name: dict[str, Mapping[str, Any]] = {}
    unreadable: list[Finding] = []
    for entry in tools:
        name = entry.get("name") if isinstance(entry, Mapping) else None
        if not isinstance(name, str):
            unreadable.append(
                Finding(verdict=Verdict.UNKNOWN, message=f"a tools/list entry has no name: {entry!r:.80}")
            )
            continue
        by_name[name] = entry
    missing: list[Finding] = list(unreadable)
    extra: list[Finding] = []
    ungated: dict[str, list[str]] = {}
    for tool in UPSTREAM_TOOLS:
        if tool not in by_name:
            continue
        props = _properties(by_name[tool])
        if props is None:
            missing.append(
                Finding(
                    verdict=Verdict.UNKNOWN,
                    tool=tool,
                    message=f"{tool}: its inputSchema cannot be read, so its arguments were not checked",
                )
            )
            continue
        missing += [_missing(tool, f, props, rule_set) for f in sorted(reads_of(tool) - set(props))]
        for arg in sorted(set(props) & set(GATEWAY_ARGS)):
            extra.append(
                Finding(
                    verdict=Verdict.WARNING,
                    tool=tool,
                    field=arg,
                    message=(
                        f"{tool}.{arg}: upstream now has an argument the gateway adds and strips "
                        "before forwarding; "
                        "upstream will never receive it"
                    ),
                )
            )
        unknown = sorted(set(props) - reads_of(tool) - set(KNOWN_UNREAD_ARGS.get(tool, {})) - set(GATEWAY_ARGS))
        if classify(tool) not in _GATED:
            if unknown:
                ungated[tool] = unknown
            continue
        extra += [
            Finding(
                verdict=Verdict.WARNING,
                tool=tool,
                field=arg,
                message=(
                    f"{tool}.{arg}: upstream has this argument on a gated ({classify(tool).value}) tool "
                    "and the gateway neither reads it nor knows it to be harmless — a possible bypass "
                    "path; check what it does "
                    "and extend the catalog or the rules"
                ),
                rules=rules_on(tool, rule_set),
            )
            for arg in unknown
        ]
    fate = (
        'callable, treated as SYSTEM (unknown_tools = "allow")'
        if unknown_tools == "allow"
        else "refused as UNKNOWN_TOOL"
    )
    new_tools = [
        Finding(
            verdict=Verdict.WARNING,
            tool=name,
            message=(
                f"{name}: upstream offers a tool the catalog does not know ({fate}); "
                + (
                    "it has the name of one of the gateway's own tools, which hide it"
                    if name in OWN_TOOLS
                    else "classify it before trusting it"
                )
            ),
        )
        for name in sorted(by_name)
        if name not in UPSTREAM_TOOLS
    ]
    absent = sorted(set(UPSTREAM_TOOLS) - set(by_name))
    checked = len([t for t in UPSTREAM_TOOLS if t in by_name])
    return (
        Check.of(
            "schema.read_args",
            "arguments the gateway relies on",
            missing,
            ok=f"all {sum(len(reads_of(t)) for t in UPSTREAM_TOOLS if t in by_name)} arguments the "
            f"catalog, rules and probe use exist upstream ({checked} tools)",
            data={"reads": {t: sorted(reads_of(t)) for t in UPSTREAM_TOOLS}},
        ),
        Check.of(
            "schema.unknown_args",
            "unknown arguments on gated tools",
            extra,
            ok="no gated tool has an argument the gateway does not know",
            data={
                "ungated_unknown_args": ungated,
                "known_unread": {t: sorted(a) for t, a in KNOWN_UNREAD_ARGS.items()},
            },
        ),
        Check.of(
            "schema.tools",
            "upstream tools the catalog does not know",
            new_tools,
            ok=f"every upstream tool is in the catalog ({len(by_name)} tools)"
            + (f"; not offered by upstream: {', '.join(absent)}" if absent else ""),
            data={"upstream_tools": sorted(by_name), "not_offered": absent},
        ),
    )


def schema_unknown(reason: str) -> tuple[Check, Check, Check]:
    """The three schema checks when upstream's tools could not be read (UNKNOWN, never OK)."""
    return tuple(  # type: ignore[return-value]
        Check.unknown(cid, title, f"not checked: {reason}")
        for cid, title in (
            ("schema.read_args", "arguments the gateway relies on"),
            ("schema.unknown_args", "unknown arguments on gated tools"),
            ("schema.tools", "upstream tools the catalog does not know"),
        )
    )
