"""What one call does, judged: analyse → effects → the effect table, and the text views for the regex rules.

    PowerShell / App ── shell/dispatch.analyse_tool ──► Analysis (operations, dynamic, failed)
    operations + structured tools ── effects ──► Effects ── judge ──► RuleHit (place-aware)
    operations ── render ──► views for the regex table (builtin.py) and custom rules

The regex rules see what the command *runs* — each resolved operation rendered back to one
normal spelling — not the strings it only prints or compares, so `Write-Output "rm -r C:\\"` is
no longer a recursive delete. When the grammar fails, they see the raw text as before
(`match.tool_views`) and, where they are silent, a person is asked (`unparsed-command`): a
parse failure is never "no match". What stays non-constant after folding asks too
(`dynamic-command`; `dynamic_commands = "deny"` makes it deny).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from policy.decision import RuleHit
from policy.rules.effects import pipeline_effects, tool_effects
from policy.rules.effects_common import RUNS_LATER, RUNS_UNASKED
from policy.rules.effects_network import copied_off, written_off
from policy.rules.effects_security import SERVICES_NOT_KNOWN, TASKS_NOT_KNOWN
from policy.rules.effects_values import UNKNOWN_VARIABLE
from policy.rules.judge import judge_all
from policy.rules.normalize import normalise
from policy.rules.paths import canonical_key
from policy.rules.places import key_places
from policy.rules.processes import ends_own_process
from policy.rules.shell.argv import split_command_line
from policy.rules.shell.dispatch import analyse_tool
from policy.rules.shell.ops import Analysis, Effect, EffectKind, Operation

DYNAMIC_RULE = "dynamic-command"
UNPARSED_RULE = "unparsed-command"
ANALYSER_RULE_IDS = (DYNAMIC_RULE, UNPARSED_RULE)

# Commands whose arguments are data (printed, compared, searched, formatted), never run.
_DATA_COMMANDS = frozenset(
    {
        "write-output", "write-host", "write-verbose", "write-debug", "write-warning", "write-information",
        "write-error", "out-host", "out-string", "out-null", "select-string", "where-object", "format-table",
        "format-list", "format-wide", "select-object", "sort-object", "measure-object", "compare-object",
        "convertto-json", "convertfrom-json", "convertto-csv", "echo", "rem", "title", "set-variable", "new-variable",
        "add-member", "test-path", "resolve-path", "join-path", "split-path", "get-help", "get-command",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Judged:
    """One call as the analysers saw it.

    Attributes:
        analysis: what the shell analysers made of its command text (None: not a command tool).
        effects: every effect of its operations and of its structured arguments.
        view_ops: the operations the regex rules read, rendered (`views`); None: they read the raw views.
        hits: the analyser's own hits, in priority order (the effect table's, then dynamic).
        unparsed: the ask for a command the grammar could not read, for when no other rule hits.
    """

    analysis: Analysis | None
    effects: tuple[Effect, ...]
    view_ops: tuple[Operation, ...] | None
    hits: tuple[RuleHit, ...]
    unparsed: RuleHit | None = None

    @property
    def views(self) -> tuple[str, ...] | None:
        """The texts the regex rules search: the rendered operations, or None for the raw views.

        Rendered on each read, not when judged: a call the effect table denies never needs them (`match`),
        and rendering and normalising a 2 KB script's operations costs about as much as judging its effects.
        """
        return None if self.view_ops is None else _views(self.view_ops)


# `str.isspace`'s characters (the engine's `\s` on text is the same test, run in C: values can be 2 KB long).
_SPACE = re.compile(r"\s")


def _quoted(value: str | None) -> str:
    if value is None:
        return "$dynamic"
    return value if value and not _SPACE.search(value) else f"'{value}'"


def render(op: Operation) -> str:
    """One operation in a normal spelling the regex rules read (`remove-item -recurse c:/x`)."""
    if op.name.lower() in _DATA_COMMANDS:
        return op.name
    if op.shell == "dotnet" and "::" in op.name:
        kind, method = op.name.split("::", 1)
        return f"[{kind}]::{method}(" + ", ".join(_quoted(a) for a in op.args) + ")"
    dash = "/" if op.shell == "cmd" else "-"
    parts = [op.name]
    for key, value in op.params:
        parts.append(f"{dash}{key}" if value == "true" else f"{dash}{key} {_quoted(value)}")
    parts.extend(_quoted(a) for a in op.args)
    return " ".join(parts)


def _dry_run(op: Operation) -> bool:
    """A cmdlet given a constant `-WhatIf` only says what it would do (or, without ShouldProcess, fails to
    bind it): it does nothing (S-RULE-68). A script's own function of that name is judged by its body,
    which the analyser reports as operations of their own; a native program has no `-WhatIf`."""
    return op.shell == "powershell" and "-" in op.name and op.param("whatif") == "true"


def _views(ops: Sequence[Operation]) -> tuple[str, ...]:
    """The rendered statements: an operation that takes pipeline input joins the one before with `|`."""
    statements: list[str] = []
    for op in ops:
        text = render(op)
        if op.input_from is not None and statements:
            statements[-1] += " | " + text
        else:
            statements.append(text)
    views = [normalise(s) for s in statements if s]
    if len(views) > 1:  # rules that look across statements (base64 decoded, then run) read the whole script
        views.append("; ".join(views))
    return tuple(views)


# Effects that are only as dangerous as their target: without a constant one, nobody can tell.
_NEEDS_TARGET = frozenset(
    {
        EffectKind.DELETE, EffectKind.DELETE_RECURSIVE, EffectKind.MOVE, EffectKind.WRITE,
        EffectKind.REGISTRY_SET, EffectKind.REGISTRY_DELETE, EffectKind.KILL, EffectKind.KILL_FORCED,
    }
)  # fmt: skip


def _unknown_targets(effects: Sequence[Effect]) -> tuple[str, ...]:
    """One sentence per effect whose target the gateway cannot name (a variable, a pid)."""
    out: list[str] = []
    for e in effects:
        if e.kind is EffectKind.SECURITY_WEAKENING and e.detail == SERVICES_NOT_KNOWN:
            out.append(f"{dict(e.extra).get('command', 'a service change')} of services that are not constant")
        if e.kind is EffectKind.SECURITY_WEAKENING and e.detail == TASKS_NOT_KNOWN:
            out.append(f"{dict(e.extra).get('command', 'a task change')} of scheduled tasks the gateway cannot name")
        if e.kind not in _NEEDS_TARGET:
            continue
        variable = dict(e.extra).get(UNKNOWN_VARIABLE)
        if variable is not None and e.kind in (EffectKind.KILL, EffectKind.KILL_FORCED):
            out.append(
                f"{e.detail or e.kind.value} of a process named through {variable}, which has no standard value "
                "and may name any process"
            )
        elif variable is not None:
            out.append(
                f"{e.detail or e.kind.value} of a path through {variable}, which has no standard value "
                "and may have been set to any folder by an earlier command"
            )
        elif e.target is None or not e.target.strip():
            out.append(f"{e.detail or e.kind.value} of a target that is not constant")
        elif e.kind in (EffectKind.KILL, EffectKind.KILL_FORCED) and e.target.lower().startswith("pid:"):
            out.append(f"{e.detail or 'a kill'} of process id {e.target[4:]}, which may be any process")
    return tuple(dict.fromkeys(out))


_QUOTED = re.compile(r"'(.{1,400})'", re.DOTALL)  # first to last quote: quoted text may hold quotes


def _brief(sentence: str) -> str:
    """An analyser's sentence without the command text it quotes (only its first word stays).

    Reasons travel into refusals, the audit and approval files; a quoted command may carry a
    password (`… -ArgumentList s3cret`) cut short enough that redaction no longer sees its shape.
    """

    def first_word(m: re.Match[str]) -> str:
        words = m.group(1).split()
        return "'" + (words[0][:40] if words else "") + (" …" if len(words) > 1 else "") + "'"

    # Shorten the quoted text first: cut at ": " first, a quote holding ": " loses its closing
    # quote and would travel whole.
    return _QUOTED.sub(first_word, sentence).split(": ", 1)[0]


def _dynamic_hit(reasons: Sequence[str], action: Literal["ask", "deny"]) -> RuleHit:
    what = "; ".join(_brief(r) for r in reasons[:3])
    return RuleHit(
        rule_id=DYNAMIC_RULE,
        action=action,
        risk="dynamic-command",
        reason=f"part of this command is built at run time, so the gateway cannot tell what it runs ({what[:300]}). "
        "Instead, write the command out with its names and paths spelled as constants.",
    )


def _unparsed_hit(analysis: Analysis) -> RuleHit:
    return RuleHit(
        rule_id=UNPARSED_RULE,
        action="ask",
        risk="uninspectable",
        reason=f"the gateway could not read this command with the PowerShell grammar "
        f"({_brief((analysis.failed or '').split(' near ', 1)[0])[:120]}), so it cannot tell what it does. "
        "Instead, write it as plain statements, one per line.",
    )


# The rule id of every refusal that keeps the agent from lifting its own guard (by place, by text in
# self_protection.py, or by process here); never exempted by `allow_rules`.
SELF_PROTECTION_ID = "self-protection"
_KILLS = frozenset({EffectKind.KILL, EffectKind.KILL_FORCED})


def _own_process_hit(effects: Sequence[Effect], own_processes: Collection[str]) -> RuleHit | None:
    """`self-protection` for a kill that would end the gateway itself (by its pid, or by the name of
    the interpreter it runs in: `Stop-Process -Name python` ends every Python, the guard among them)."""
    if not own_processes:
        return None
    for e in effects:
        if e.kind in _KILLS and e.target is not None and ends_own_process(e.target, own_processes):
            return RuleHit(
                rule_id=SELF_PROTECTION_ID,
                action="deny",
                risk="self-protection",
                reason=f"ending {e.target[:80]!r} would end the gateway itself (a kill by that name or pid "
                "reaches its process), and with it the guard on every call. Instead, ask the user to end the process "
                "you mean.",
            )
    return None


# Registry values that are a command line Windows starts (S-RULE-116): any value of a Run key (at logon), a
# service's `ImagePath` (at its start) and `FailureCommand` (when it fails). Place id → value names (None: any).
_COMMAND_KEYS: Mapping[str, frozenset[str] | None] = {
    "run-key": None,
    "services-key": frozenset({"imagepath", "failurecommand"}),
}
_LATER_DEPTH = 3  # a task that schedules a task …: judged this many levels down, then it is only asked


def _holds_a_command(place_id: str, value_name: str | None) -> bool:
    if place_id not in _COMMAND_KEYS:
        return False
    names = _COMMAND_KEYS[place_id]
    return names is None or (value_name or "").lower() in names


def _runs_later(effects: Sequence[Effect]) -> tuple[str, ...]:
    """The command lines the call sets up to run later: a task's action, a service's binary, an `at` job, a
    run key's value."""
    lines: list[str] = []
    for e in effects:
        line = dict(e.extra).get(RUNS_LATER)
        if line is None and e.kind is EffectKind.REGISTRY_SET and e.data and e.target:
            key = canonical_key(e.target)
            places = key_places(key, e.value_name) if key is not None else ()
            if any(_holds_a_command(p.id, e.value_name) for p in places):
                line = e.data
        if line and line.strip():
            lines.append(line.strip())
    return tuple(dict.fromkeys(lines))


def _unasked_lines(effects: Sequence[Effect]) -> tuple[str, ...]:
    """The command lines the call sets up to run later with nobody asked (a package's install script)."""
    lines = (dict(e.extra).get(RUNS_UNASKED) for e in effects)
    return tuple(dict.fromkeys(line.strip() for line in lines if line and line.strip()))


def _later_hits(
    lines: Sequence[str],
    gateway_paths: Sequence[str],
    own_processes: Collection[str],
    depth: int,
    *,
    keep_asks: bool = False,
) -> list[RuleHit]:
    """A deny for each command line set up to run later that would be refused if it ran now (S-RULE-116):
    judged as the program started with those arguments, as Windows starts it. With `keep_asks` (a line that
    runs with nobody asked, S-RULE-208), one that would ask now asks now too."""
    hits: list[RuleHit] = []
    for line in lines if depth < _LATER_DEPTH else ():
        argv = split_command_line(line)
        if not argv:
            continue
        started = {"mode": "launch_executable", "executable": argv[0], "args": argv[1:]}
        inner = judge_call("App", started, gateway_paths=gateway_paths, own_processes=own_processes, depth=depth + 1)
        deny = next((h for h in inner.hits if h.action == "deny"), None)
        if deny is not None:
            hits.append(replace(deny, reason=f"what this sets up to run later would be refused now: {deny.reason}"))
        elif keep_asks and inner.hits:
            ask = inner.hits[0]
            hits.append(replace(ask, reason=f"what this sets up to run later, with nobody asked then: {ask.reason}"))
    return hits


def judge_call(
    tool: str,
    args: Mapping[str, object],
    *,
    gateway_paths: Sequence[str] = (),
    dynamic_action: Literal["ask", "deny"] = "ask",
    own_processes: Collection[str] = (),
    depth: int = 0,
) -> Judged:
    """Analyse one call and judge its effects (module docstring).

    Args:
        tool: the tool name.
        args: the call's arguments under upstream's names.
        gateway_paths: the gateway's own files and folders (self-protection by place).
        dynamic_action: what a non-constant command name or target gets.
        own_processes: the gateway's own pid and interpreter name (self-protection by process).
        depth: how many command lines set up to run later led here (`_later_hits`).

    Returns:
        The analysis, effects, views for the regex rules (None: use the raw views) and hits.
    """
    analysis = analyse_tool(tool, args)
    own = tool_effects(tool, args)
    effects: list[Effect] = [*own, *copied_off(own), *written_off(own)]  # FileSystem to another machine
    view_ops: tuple[Operation, ...] | None = None
    hits: list[RuleHit] = []
    if analysis is not None:
        ops = tuple(op for op in analysis.operations if not _dry_run(op))
        effects.extend(pipeline_effects(ops))
        if analysis.failed is None and tool == "PowerShell":  # App keeps its command-line views
            view_ops = ops
    mine = _own_process_hit(effects, own_processes)
    if mine is not None:
        hits.append(mine)
    found = judge_all(effects, gateway_paths=gateway_paths)
    if found is not None:
        hits.append(found)
    later = _runs_later(effects)
    if later:
        hits.extend(_later_hits(later, gateway_paths, own_processes, depth))
    unasked = _unasked_lines(effects)
    if unasked:
        hits.extend(_later_hits(unasked, gateway_paths, own_processes, depth, keep_asks=True))
    unknown = (*(analysis.dynamic if analysis is not None else ()), *_unknown_targets(effects))
    if unknown:
        hits.append(_dynamic_hit(unknown, dynamic_action))
    unparsed = _unparsed_hit(analysis) if analysis is not None and analysis.failed is not None else None
    return Judged(analysis=analysis, effects=tuple(effects), view_ops=view_ops, hits=tuple(hits), unparsed=unparsed)
