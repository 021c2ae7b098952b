"""Command rules: match a SYSTEM call's content against built-in and custom rules (DESIGN.md §5).

A TRIPWIRE, NOT A SANDBOX: rules are regexes over normalised text (see `_normalize`) and
predicates over structured arguments. They turn the common dangerous spellings into an
explicit, audited deny or ask; variables, concatenation, wildcards and download-then-run
in separate calls get through. Isolation needs Windows Sandbox or a VM.

    views = expand(PowerShell command) | App command line layers | "key=value" text
    RuleSet.match(tool, args) → first DENY hit in table order, else first ASK, else None
                                (built-ins first, then custom rules; allow_rules skipped)

Every argument a rule reads is a real upstream name (`rules_read_args`, S-RULE-01). The
table is `_builtin_rules`, its argument predicates `_rule_args`; self-protection (checked
first, never exempted) is `_self_protection`.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from policy.catalog import UPSTREAM_TOOLS
from policy.decision import RuleHit
from policy.rules.args import Predicate, app_command_line, value_text
from policy.rules.builtin import (
    BUILTIN_SPECS,
    COMMAND_TOOLS,
    MAX_COMMAND_CHARS,
    READ_ARGS,
    UNINSPECTABLE_VIEW,
    RuleSpec,
)
from policy.rules.command import ANALYSER_RULE_IDS, Judged, judge_call
from policy.rules.judge import EFFECT_RULES
from policy.rules.normalize import expand_checked, fold
from policy.rules.places import environment_path
from policy.rules.processes import canonical_process
from policy.rules.self_protection import SELF_PROTECTION_ID, protected_hit

KNOWN_TOOLS: frozenset[str] = frozenset(n for n, s in UPSTREAM_TOOLS.items() if not s.own)
_RULE_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_CUSTOM_KEYS = frozenset({"id", "pattern", "risk", "reason", "action", "tools"})


class RuleLoadError(ValueError):
    """A custom rule or an `allow_rules` entry is unusable; the message names which and why."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """One command rule: a regex over normalised views and/or a predicate over arguments.

    Attributes:
        id: stable id, cited in refusals and the audit (`allow_rules` names it).
        action: "deny" refuses; "ask" needs a person's approval.
        risk: a short risk class (`data-loss`, `security-weakening`, …).
        reason: what is wrong and what to do instead, for the model.
        tools: the tool names the rule applies to.
        pattern: regex searched in each view of the call (`tool_views`).
        predicate: `(tool, args) -> bool` for structured tools.
        builtin: True for the built-in table (only those can be exempted).
    """

    id: str
    action: Literal["deny", "ask"]
    risk: str
    reason: str
    tools: frozenset[str]
    pattern: re.Pattern[str] | None = None
    predicate: Predicate | None = field(default=None, compare=False)
    builtin: bool = False
    # Groups of strings such that a text `pattern` matches in holds one of each group
    # (`required_literals`), or None: a view lacking a group cannot match and is not searched
    # (a refusal to look, never a judgement: every other view is searched exactly as before).
    needles: tuple[tuple[str, ...], ...] | None = field(default=None, init=False, compare=False, repr=False)
    # The pattern's top-level alternatives, when it was joined from several (`_compile`): each is
    # searched on its own with its own needles (a view matches the join iff it matches one of them).
    alternatives: tuple[str, ...] = field(default=(), compare=False, repr=False)
    parts: tuple[tuple[re.Pattern[str], tuple[tuple[str, ...], ...] | None], ...] = field(
        default=(), init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        if not _RULE_ID.match(self.id):
            raise ValueError(f"rule id {self.id!r} must match {_RULE_ID.pattern}")
        if self.action not in ("deny", "ask"):
            raise ValueError(f"rule {self.id}: action must be 'deny' or 'ask', not {self.action!r}")
        if not self.risk.strip() or not self.reason.strip():
            raise ValueError(f"rule {self.id}: risk and reason must be non-empty")
        if self.pattern is None and self.predicate is None:
            raise ValueError(f"rule {self.id}: needs a pattern or a predicate")
        if not self.tools:
            raise ValueError(f"rule {self.id}: applies to no tool")
        if self.pattern is not None:
            object.__setattr__(self, "needles", required_literals(self.pattern))
            if self.alternatives and self.pattern.pattern != _join_alternatives(self.alternatives):
                raise ValueError(f"rule {self.id}: alternatives are not the pattern's")
            # Searched one by one only when no alternative refers to a group (numbers shift in the join).
            split = len(self.alternatives) > 1 and not any(_GROUP_REFERENCE.search(a) for a in self.alternatives)
            sources = self.alternatives if split else ()
            parts = [(re.compile(f"(?:{s})", self.pattern.flags), None) for s in sources] or [(self.pattern, None)]
            object.__setattr__(self, "parts", tuple((p, required_literals(p)) for p, _ in parts))

    def hits(self, tool: str, args: Mapping[str, object], views: Callable[[], Sequence[str]]) -> bool:
        """Whether this rule matches the call (`views` is computed lazily, once per call).

        Args:
            tool: the tool name.
            args: the call's arguments.
            views: returns the call's normalised views.

        Returns:
            True on a match.
        """
        if tool not in self.tools:
            return False
        if self.predicate is not None and self.predicate(tool, args):
            return True
        if self.pattern is None:
            return False
        texts = views()
        needles = self.needles
        if needles is not None:
            joined = _joined(texts)
            for group in needles:
                if not any(needle in joined for needle in group):
                    return False  # no view holds any string of this group: none can match
        for part, part_needles in self.parts:
            candidates = texts
            if part_needles is not None:
                joined = _joined(texts)
                if not all(any(n in joined for n in group) for group in part_needles):
                    continue  # no view can match this alternative
                if len(texts) > 1:
                    candidates = [v for v in texts if all(any(n in v for n in group) for group in part_needles)]
            if any(part.search(v) for v in candidates):
                return True
        return False

    def hit(self) -> RuleHit:
        """This rule as the value the decision chain receives."""
        return RuleHit(rule_id=self.id, action=self.action, risk=self.risk, reason=self.reason)


# ---------------------------------------------------------------------------------------
# Needles: the literal strings a pattern cannot match without (a prefilter for `Rule.hits`)

# One call's views joined by a character no needle holds (checked in `required_literals`), kept
# for the call's next rule: `(views, joined)`, replaced as one object (no torn read).
_NEEDLE_SEPARATOR = "\x00"
_last_joined: tuple[Sequence[str], str] = ((), "")


def _joined(views: Sequence[str]) -> str:
    """The views as one text, so a needle is looked for once per rule rather than once per view."""
    global _last_joined  # noqa: PLW0603 - a one-entry memo: every rule of one call asks for the same views
    if type(views) is not tuple:
        return _NEEDLE_SEPARATOR.join(views)  # a mutable sequence may change: never kept
    last = _last_joined
    if last[0] is views:
        return last[1]
    joined = _NEEDLE_SEPARATOR.join(views)
    _last_joined = (views, joined)
    return joined


_Group = frozenset[str]  # at least one of these strings is in the searched text
# A back-reference (`\1`, `(?P=name)`) or a conditional group (`(?(1)…)`) in a pattern's source (a superset).
_GROUP_REFERENCE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")
try:  # the stdlib's regex parser: private, so a Python without it only loses the prefilter (never a rule)
    import re._parser as sre  # type: ignore[import-not-found]  # no stubs

    _REPEATS: tuple[object, ...] = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
except (ImportError, AttributeError):  # pragma: no cover - every supported Python has it
    sre = None
    _REPEATS = ()
_MAX_GROUPS = 4  # the strongest groups kept per rule (each costs a substring search per view)


def required_literals(pattern: re.Pattern[str]) -> tuple[tuple[str, ...], ...] | None:
    """Groups of literal strings such that a text `pattern` matches in holds one string of every group.

    Read from the parsed pattern: a run of literal characters is held by every match of the
    sequence it is in; a group or a repeat of at least one holds what its content holds; an
    alternation holds, for its best group of each branch, their union (nothing known if one
    branch holds nothing known); a positive lookahead or lookbehind's content is in the searched
    text too (needles are looked for in the text, not in the match), so `^(?=.*a)(?=.*b)` gives
    two groups. Anything else (classes, `.`, negative lookarounds, back-references,
    case-insensitive parts) contributes nothing and ends a run: every answer errs towards searching.

    Args:
        pattern: a compiled pattern over text.

    Returns:
        Up to `_MAX_GROUPS` groups (the longest shortest-needle first), each shortest needle
        first with no needle holding another of its group; None when nothing is known, the
        pattern is case-insensitive, or a needle would hold the separator `_joined` uses.
    """
    if pattern.flags & re.IGNORECASE or sre is None:
        return None
    try:
        groups = _required(list(sre.parse(pattern.pattern, pattern.flags)))
    except (re.error, RecursionError, OverflowError):
        return None
    if not groups or any(not n or _NEEDLE_SEPARATOR in n for g in groups for n in g):
        return None
    best = sorted(set(groups), key=lambda g: (_strength(g), sorted(g)), reverse=True)[:_MAX_GROUPS]
    out = []
    for group in best:
        ordered = sorted(group, key=lambda n: (len(n), n))
        out.append(tuple(n for i, n in enumerate(ordered) if not any(m in n for m in ordered[:i])))
    return tuple(out)


def _strength(group: _Group) -> tuple[int, int]:
    return min(len(n) for n in group), -len(group)


def _required(items: list[tuple[object, object]]) -> list[_Group]:
    """The groups every match of a sequence of parsed items satisfies (empty: none known)."""
    groups: list[_Group] = []
    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL and isinstance(av, int):
            run.append(chr(av))
            continue
        if run:
            groups.append(frozenset({"".join(run)}))
            run = []
        groups.extend(_required_item(op, av))
    if run:
        groups.append(frozenset({"".join(run)}))
    return groups


def _required_item(op: object, av: object) -> list[_Group]:
    if op is sre.SUBPATTERN and isinstance(av, tuple) and len(av) == 4:
        _group, add_flags, _del_flags, body = av
        return [] if add_flags & re.IGNORECASE else _required(list(body))
    if op is sre.ASSERT and isinstance(av, tuple) and len(av) == 2:
        return _required(list(av[1]))  # a positive lookaround matches in the same text: its literals are there
    if op is sre.ATOMIC_GROUP:
        return _required(list(av))  # type: ignore[call-overload]
    if op in _REPEATS and isinstance(av, tuple) and len(av) == 3:
        low, _high, body = av
        return _required(list(body)) if low >= 1 else []
    if op is sre.BRANCH and isinstance(av, tuple) and len(av) == 2:
        union: set[str] = set()
        for branch in av[1]:
            found = _required(list(branch))
            if not found:
                return []  # this branch matches without any known literal
            strongest: _Group = max(found, key=_strength)
            union.update(strongest)
        return [frozenset(union)]
    return []


def _join_alternatives(sources: Sequence[str]) -> str:
    return "|".join(f"(?:{p})" for p in sources)


def _compile(spec: RuleSpec) -> Rule:
    pattern = re.compile(_join_alternatives(spec.patterns)) if spec.patterns else None
    return Rule(
        id=spec.id,
        action=spec.action,
        risk=spec.risk,
        reason=spec.reason,
        tools=frozenset(spec.tools),
        pattern=pattern,
        predicate=spec.predicate,
        builtin=True,
        alternatives=tuple(spec.patterns),
    )


BUILTIN_RULES: tuple[Rule, ...] = tuple(_compile(s) for s in BUILTIN_SPECS)


def builtin_rule_ids() -> tuple[str, ...]:
    """The built-in rule ids (the ids `allow_rules` may name): the regex table in order, then the
    effect table's and the analyser's ids not already named (self-protection is never exemptible)."""
    ids = [r.id for r in BUILTIN_RULES]
    ids += [r.id for r in EFFECT_RULES if r.id != SELF_PROTECTION_ID]
    ids += list(ANALYSER_RULE_IDS)
    return tuple(dict.fromkeys(ids))


def rules_read_args() -> Mapping[str, frozenset[str]]:
    """Tool → the argument names the rules read (the doctor checks each against upstream).

    Returns:
        A read-only mapping; every name is a real upstream argument (S-RULE-01).
    """
    return MappingProxyType({tool: frozenset(names) for tool, names in READ_ARGS.items()})


# ---------------------------------------------------------------------------------------
# Views: the text a pattern sees


# A key=value view keeps this much of each value: the predicates read structured arguments
# whole; the cut only bounds what text patterns scan.
KV_VALUE_CHARS = 4096


def _command_views(text: str) -> tuple[str, ...]:
    # Too long, too deep or too wide to inspect in bounded time: the sentinel view makes
    # rule `uninspectable-command` deny it rather than trust a partial view (S-RULE-11).
    if len(text) > MAX_COMMAND_CHARS:
        return (UNINSPECTABLE_VIEW,)
    layers, complete = expand_checked(text)
    return (*layers, UNINSPECTABLE_VIEW) if not complete else tuple(layers)


# What a file says is not a command: a written script's content is analysed as the script it is
# (`shell.dispatch`), a document's not at all, so the text patterns never see FileSystem `content`.
_NOT_VIEWED = frozenset({"content"})


def tool_views(tool: str, args: Mapping[str, object]) -> tuple[str, ...]:
    """The normalised texts rule patterns are searched in, for one call.

    PowerShell: every layer of `expand(command)`. App: every layer of the command line
    `<executable file name> <args…>` (launch modes), then the `key=value` view. Any other
    tool: the `key=value` view — the arguments `rules_read_args` lists (all arguments, by
    name, for a tool it does not list), values `fold`ed (lower case, `/`, single spaces)
    and cut at KV_VALUE_CHARS, lists joined with spaces, booleans `true`/`false`. A command
    longer than MAX_COMMAND_CHARS, or whose expansion hit a cap, gets UNINSPECTABLE_VIEW
    instead of (or after) its layers; rule `uninspectable-command` denies it.

    Args:
        tool: the tool name.
        args: the call's arguments.

    Returns:
        The views, outermost first (possibly empty).
    """
    views: list[str] = []
    if tool == "PowerShell":
        command = args.get("command")
        return _command_views(value_text(command)) if command is not None else ()
    if tool == "App":
        line = app_command_line(args)
        if line:
            views.extend(_command_views(line))
    keys = READ_ARGS.get(tool) or tuple(sorted(str(k) for k in args))
    pairs = [
        f"{k}={fold(value_text(args[k])[:KV_VALUE_CHARS])}"
        for k in keys
        if args.get(k) is not None and k not in _NOT_VIEWED
    ]
    if pairs:
        views.append(" ".join(pairs))
    return tuple(views)


# ---------------------------------------------------------------------------------------
# The rule set


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """The loaded rules: built-ins (in table order) then custom rules, minus exemptions.

    Attributes:
        rules: every rule, built-ins first (the regex table; the effect table is `judge.py`).
        allow_rules: built-in ids exempted by configuration (audited on each use).
        protected_paths: the gateway's own state dir, config, audit and STOP file; when set,
            `match` checks `protected_hit` first (a `self-protection` hit cannot be exempted).
        dynamic_action: what a command that stays non-constant after folding gets (`dynamic_commands`).
        analyse: False keeps only self-protection (rules switched off), by text and by place.
    """

    rules: tuple[Rule, ...] = BUILTIN_RULES
    allow_rules: frozenset[str] = frozenset()
    protected_paths: tuple[str, ...] = ()
    dynamic_action: Literal["ask", "deny"] = "ask"
    analyse: bool = True  # False (command_rules_enabled = false): only self-protection by place applies
    own_processes: tuple[str, ...] = ()  # the gateway's own pid and interpreter name (`processes.ends_own_process`)
    # The Python environment the gateway runs in (S-SELF-13): a change there is `self-protection`, by place only —
    # reading it or running its Python is any program's (`places.ENVIRONMENT_PLACE`).
    environment_paths: tuple[str, ...] = ()
    # The rules that name each tool, in table order, filled on first use (a memo of `rules`: a
    # Click need not look at a hundred PowerShell patterns on every call; issue 13).
    _by_tool: dict[str, tuple[Rule, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _places: list[tuple[str, ...]] = field(default_factory=list, init=False, compare=False, repr=False)

    def _rules_for(self, tool: str) -> tuple[Rule, ...]:
        found = self._by_tool.get(tool)
        if found is None:
            found = self._by_tool[tool] = tuple(r for r in self.rules if tool in r.tools)
        return found

    def _judged(self, tool: str, args: Mapping[str, object]) -> Judged:
        return judge_call(
            tool,
            args,
            gateway_paths=self._gateway_paths(),
            dynamic_action=self.dynamic_action,
            own_processes=self.own_processes,
        )

    def _gateway_paths(self) -> tuple[str, ...]:
        # protected_paths also names the gateway's command line (`winmcp-gateway`, `-m gateway`), which
        # the text check looks for; places are absolute paths only (a bare word would be read as a
        # file on the Desktop, and its every parent folder would count as the gateway's).
        if not self._places:
            own = tuple(p for p in self.protected_paths if ntpath.isabs(p) or p.startswith("/"))
            self._places.append(own + tuple(environment_path(p) for p in self.environment_paths))
        return self._places[0]

    def _matching(
        self, tool: str, args: Mapping[str, object], exempted: bool, judged: Judged | None = None
    ) -> list[Rule]:
        cache: list[tuple[str, ...]] = []
        rendered: list[tuple[str, ...]] = []  # the judged operations' views, rendered on first use

        def views() -> tuple[str, ...]:
            # Built-in patterns read what the command runs (rendered operations) when the grammar read
            # it; custom rules, written against the command as spelled, keep the raw views.
            if not cache:
                cache.append(tool_views(tool, args))
            return cache[0]

        def run_views() -> tuple[str, ...]:
            if judged is None or judged.view_ops is None:
                return views()
            if not rendered:
                rendered.append(judged.views or ())
            return rendered[0]

        return [
            r
            for r in self._rules_for(tool)
            if (r.builtin and r.id in self.allow_rules) == exempted
            and r.hits(tool, args, run_views if r.builtin else views)
        ]

    def match(self, tool: str, args: Mapping[str, object], *, table: bool = True) -> RuleHit | None:
        """The rule this call hits: the first DENY in order, else the first ASK (S-RULE-07).

        Args:
            tool: the tool name exactly as called.
            args: the call's arguments (as they would be sent upstream).
            table: False leaves out the regex table (built-in and custom): only what the analysis
                found counts (effects, dynamic names, self-protection). For a second reading of
                text the regex table already saw as written (typed text read as cmd, S-RULE-27).

        Returns:
            A `RuleHit` (rule_id `self-protection` first, when `protected_paths` is set and
            the call names one), or None when no (non-exempted) rule matches.
        """
        if self.protected_paths:
            guard = protected_hit(tool, args, self.protected_paths)
            if guard is not None:
                return guard
        judged = self._judged(tool, args)
        effect_hits = [
            h
            for h in judged.hits
            if h.rule_id == SELF_PROTECTION_ID or (self.analyse and h.rule_id not in self.allow_rules)
        ]
        denied = next((h for h in effect_hits if h.action == "deny"), None)
        if not self.analyse or not table or denied is not None:
            # A deny of the analysis comes before any regex rule's hit: the regex table need not be read.
            return denied or (effect_hits[0] if effect_hits else None)
        hits = effect_hits + [r.hit() for r in self._matching(tool, args, exempted=False, judged=judged)]
        if not hits and judged.unparsed is not None and judged.unparsed.rule_id not in self.allow_rules:
            hits.append(judged.unparsed)
        return next((h for h in hits if h.action == "deny"), hits[0] if hits else None)

    def exempted_by(self, tool: str, args: Mapping[str, object]) -> tuple[str, ...]:
        """Built-in rule ids that match this call but are exempted by `allow_rules` (S-RULE-09).

        The shell audits each one, so an exemption is never silent.

        Args:
            tool: the tool name.
            args: the call's arguments.

        Returns:
            The exempted ids that matched, in table order (empty when none).
        """
        if not self.allow_rules:
            return ()
        judged = self._judged(tool, args)
        effect_ids = [
            h.rule_id for h in (*judged.hits, judged.unparsed) if h is not None and h.rule_id in self.allow_rules
        ]
        return tuple(
            dict.fromkeys([*effect_ids, *(r.id for r in self._matching(tool, args, exempted=True, judged=judged))])
        )


# ---------------------------------------------------------------------------------------
# Loading custom rules (S-RULE-08)

_ESCAPE_OK = set("dDsSwWbBAZ")


def normal_form_problem(pattern: str) -> str | None:
    """Why a custom pattern can never match normalised text, or None if it can.

    Normalised text is lower case, uses `/`, single spaces and no backticks; a pattern with
    upper-case letters, `\\\\` (a literal backslash), `\\t`/`\\n`/`\\r`, two spaces or a
    backtick would be silently dead — the prior art's most expensive class of bug.

    Args:
        pattern: the regex source.

    Returns:
        A description of the first problem, or None.
    """
    if "  " in pattern:
        return "contains two spaces in a row (normalised text has single spaces)"
    if "`" in pattern:
        return "contains a backtick (normalise removes PowerShell escapes)"
    # Group names may use any case; an escaped `\(` opens no group, so its `?P=…` stays and is judged.
    text = re.sub(r"(?<!\\)((?:\\\\)*)\(\?P(?:<[^>]*>|=[^)]*\))", r"\1", pattern)
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "\\":
                return "contains \\\\ (a literal backslash); normalised text uses / as the path separator"
            if nxt in "tnrfv":
                return f"contains \\{nxt}; normalised text folds all white space to single spaces"
            if nxt in "xuU":
                i += {"x": 4, "u": 6, "U": 10}[nxt]
                continue
            if nxt.isupper() and nxt not in _ESCAPE_OK:
                return f"contains the escape \\{nxt}, which is not a character class"
            i += 2
            continue
        if ch.isupper():
            return f"contains upper case {ch!r} (normalised text is lower case)"
        i += 1
    return None


def _custom_rule(index: int, raw: object, taken: set[str]) -> Rule:
    where = f"custom rule #{index}"
    if not isinstance(raw, Mapping):
        raise RuleLoadError(f"{where}: must be a table with id, pattern, risk, reason, not {type(raw).__name__}")
    rid = raw.get("id")
    if isinstance(rid, str):
        where += f" ({rid!r})"
    unknown = sorted(str(k) for k in raw if k not in _CUSTOM_KEYS)
    if unknown:
        raise RuleLoadError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(_CUSTOM_KEYS)}")
    for key in ("id", "pattern", "risk", "reason"):
        if not isinstance(raw.get(key), str) or not str(raw.get(key)).strip():
            raise RuleLoadError(f"{where}: `{key}` must be a non-empty string")
    assert isinstance(rid, str)
    if not _RULE_ID.match(rid):
        raise RuleLoadError(f"{where}: id must be lower case letters, digits, '.', '_' or '-'")
    if rid in taken or rid == SELF_PROTECTION_ID:
        raise RuleLoadError(f"{where}: duplicate id (built-in or earlier custom rule)")
    action = raw.get("action", "deny")
    if action not in ("deny", "ask"):
        raise RuleLoadError(f"{where}: unknown action {action!r}; use 'deny' or 'ask'")
    tools_raw = raw.get("tools", COMMAND_TOOLS)
    if isinstance(tools_raw, str) or not isinstance(tools_raw, Sequence) or not tools_raw:
        raise RuleLoadError(f"{where}: `tools` must be a non-empty list of tool names")
    bad = sorted(str(t) for t in tools_raw if t not in KNOWN_TOOLS)
    if bad:
        raise RuleLoadError(f"{where}: unknown tool name(s) {bad}; known: {sorted(KNOWN_TOOLS)}")
    source = str(raw["pattern"])
    try:
        pattern = re.compile(source)
    except re.error as exc:
        raise RuleLoadError(f"{where}: pattern {source!r} is not a valid regex: {exc}") from None
    problem = normal_form_problem(source)
    if problem:
        raise RuleLoadError(f"{where}: pattern {source!r} is not in normalised form: {problem}")
    if pattern.search("") is not None:
        raise RuleLoadError(f"{where}: pattern {source!r} matches empty text (it would hit every call)")
    return Rule(
        id=rid,
        action=action,
        risk=str(raw["risk"]),
        reason=str(raw["reason"]),
        tools=frozenset(str(t) for t in tools_raw),
        pattern=pattern,
    )


def load_rules(
    custom: Sequence[Mapping[str, object]] = (),
    allow_rules: Sequence[str] = (),
    *,
    protected_paths: Sequence[str] = (),
    dynamic_commands: str = "ask",
    own_processes: Sequence[str] = (),
    environment_paths: Sequence[str] = (),
) -> RuleSet:
    """Build the rule set: built-ins, then custom rules, with built-in exemptions.

    A custom rule is `{id, pattern, risk, reason, action = "deny", tools = ["PowerShell",
    "App"]}`; `pattern` is a regex over normalised text (`tool_views`).

    Args:
        custom: custom rules, appended after the built-ins (they cannot remove one).
        allow_rules: built-in rule ids to exempt.
        protected_paths: the gateway's own files (see `RuleSet.protected_paths`).
        dynamic_commands: "ask" or "deny" for a command that is not constant after folding.
        own_processes: the gateway's own pid and the name of the interpreter it runs in; a kill that
            reaches one of them is `self-protection` (canonical forms are taken here).
        environment_paths: the folders of the Python environment the gateway runs in; a change there is
            `self-protection` (see `RuleSet.environment_paths`).

    Returns:
        The rule set.

    Raises:
        RuleLoadError: naming the rule (index and id) or allow_rules entry and the problem:
            not a table, unknown key, missing/empty field, bad or duplicate id, invalid
            regex, pattern not in normalised form or matching empty text, unknown action,
            unknown tool, or an allow_rules id that is not a built-in.
    """
    if isinstance(custom, str | bytes | Mapping) or not isinstance(custom, Sequence):
        raise RuleLoadError("custom rules must be a list of tables")
    if isinstance(allow_rules, str | bytes) or not isinstance(allow_rules, Sequence):
        raise RuleLoadError("allow_rules must be a list of built-in rule ids")
    taken = set(builtin_rule_ids())
    rules = list(BUILTIN_RULES)
    for index, raw in enumerate(custom):
        rule = _custom_rule(index, raw, taken)
        taken.add(rule.id)
        rules.append(rule)
    known = builtin_rule_ids()
    for entry in allow_rules:
        if entry not in known:
            raise RuleLoadError(f"allow_rules: {entry!r} is not a built-in rule id; known: {list(known)}")
    if isinstance(protected_paths, str | bytes) or not all(isinstance(p, str) for p in protected_paths):
        raise RuleLoadError("protected_paths must be a list of path strings")
    if isinstance(own_processes, str | bytes) or not all(isinstance(p, str) for p in own_processes):
        raise RuleLoadError("own_processes must be a list of process names and pids")
    if isinstance(environment_paths, str | bytes) or not all(isinstance(p, str) for p in environment_paths):
        raise RuleLoadError("environment_paths must be a list of path strings")
    if dynamic_commands not in ("ask", "deny"):
        raise RuleLoadError(f"dynamic_commands must be 'ask' or 'deny', not {dynamic_commands!r}")
    return RuleSet(
        rules=tuple(rules),
        allow_rules=frozenset(allow_rules),
        protected_paths=tuple(protected_paths),
        dynamic_action="deny" if dynamic_commands == "deny" else "ask",
        own_processes=tuple(sorted({canonical_process(p) for p in own_processes if p.strip()})),
        environment_paths=tuple(p for p in environment_paths if ntpath.isabs(p) or p.startswith("/")),
    )
