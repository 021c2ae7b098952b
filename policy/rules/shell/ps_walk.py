"""The statement and command walker of the PowerShell analyser (issue 18).

`Walker` runs through a syntax tree in source order, keeping the constant variables,
script aliases and functions it has seen, and turns every command invocation into an
`Operation` (`ps_fold.Folder` does the expressions). Control flow is handled soundly rather
than precisely: a variable assigned in a branch or loop is not constant after it, a loop
body sees its own assignments as unknown, and a script block is walked where it is written
and again where it is invoked, so a later change of a variable it reads is not missed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from tree_sitter import Node

from policy.rules.shell import ps_operators as ops
from policy.rules.shell.ops import Operation, Value
from policy.rules.shell.ps_fold import (
    MAX_REWALKS,
    MAX_TEXT_DEPTH,
    MAX_TREE_LEVEL,
    Folder,
    Nested,
    shown,
)
from policy.rules.shell.ps_names import (
    ALIAS_SETTERS,
    BLOCK_RUNNERS,
    BUILTIN_ALIASES,
    DANGEROUS_METHODS,
    VARIABLE_SETTERS,
    canonical_type,
    is_switch,
    looks_like_program,
    program_name,
)
from policy.rules.shell.ps_repair import HAS_NUMBER_SUFFIX
from policy.rules.shell.ps_text import split_words, verbatim
from policy.rules.shell.ps_tree import (
    ERROR_ID,
    WRAPPER_IDS,
    Source,
    assigned_variables,
    by_kind,
    field_id,
    kind_ids,
    parse_text,
    split_arguments,
    unwrap,
    variable_key,
)
from policy.rules.shell.ps_values import (
    UNKNOWN,
    CommandRef,
    Hashtable,
    ObjectRef,
    PSValue,
    ScriptBlock,
    as_text,
    as_value,
    flatten,
    is_known,
)
from policy.rules.shell_names import SC_VERBS
from policy.rules.shell_names import canonical_parameter as _canonical_parameter

_MODULE_QUALIFIED = re.compile(r"[\w.]+\\([\w]+-[\w]+)")
_WILDCARD = re.compile(r"[*?\[]")
_VARIABLE_PATH = re.compile(r"\$\{?[\w:]+\}?(?:[\\/][^\s]*)?")
_BLANK = re.compile(r"\s")
_BLOCKS = frozenset({"program", "statement_list", "statement_block", "script_block", "script_block_body"})
_BLOCKS |= frozenset({"named_block", "named_block_list", "param_block", "catch_clauses", "elseif_clauses"})
_SKIPPED = frozenset({"comment", "empty_statement", "function_name", "function_parameter_declaration"})
_MAX_UNROLL = 8
# The commands `_semantics` gives a meaning beyond their operation.
_MEANINGFUL = frozenset({"invoke-expression", "new-object", "get-command", "write-output", "start-process"})
_MEANINGFUL |= {"foreach-object"} | ALIAS_SETTERS | VARIABLE_SETTERS
# Kinds the command walker tests, by id (`ps_tree.kind_ids`).
_COMMAND = kind_ids("command")
_INVOKATION_OPERATOR = kind_ids("command_invokation_operator")
_COMMAND_ELEMENTS = kind_ids("command_elements")
_COMMAND_NAME = kind_ids("command_name")
_PATH_COMMAND_NAME = kind_ids("path_command_name")
_COMMAND_NAME_FIELD = field_id("command_name")
_ARGUMENT_SEP = kind_ids("command_argument_sep")
_PARAMETER = kind_ids("command_parameter")
_REDIRECTION = kind_ids("redirection")
_REDIRECTIONS = kind_ids("redirections")
_STOP_PARSING = kind_ids("stop_parsing")
_SCRIPT_BLOCK = kind_ids("script_block_expression")
_ARGUMENT_LIST = kind_ids("argument_list")
_OTHER_ELEMENTS = _REDIRECTION | _STOP_PARSING | _ARGUMENT_LIST | kind_ids("comment")
_GENERIC_TOKEN = kind_ids("generic_token")
_INTEGER_LITERAL = kind_ids("integer_literal")
_VARIABLE = kind_ids("variable")
_MEMBER_ACCESS = kind_ids("member_access")
_CLAUSES = frozenset({"elseif_clauses", "elseif_clause", "else_clause", "switch_body", "switch_clauses"})
_CLAUSES |= frozenset({"switch_clause", "catch_clauses", "catch_clause", "finally_clause"})


@functools.lru_cache(maxsize=4096)
def canonical_parameter(command: str, name: str) -> str:
    """`shell_names.canonical_parameter`, cached: it scans the command's parameter table per call."""
    return _canonical_parameter(command, name)


@functools.lru_cache(maxsize=4096)
def _parameter_key(command: str, written: str) -> str:
    """The canonical name of a parameter as written (`-Rec`, `-Path:`) for `command` (cached)."""
    return canonical_parameter(command, written.lstrip("-").rstrip(":").lower())


@dataclass(slots=True)
class _Word:
    """One element of a command after the name: a parameter, an argument, or a splat."""

    kind: str  # "param", "arg", "splat"
    text: str = ""
    value: PSValue = UNKNOWN
    has_value: bool = False
    joined: bool = False  # a bareword array written with commas (`a,b`, `a, b`)
    # For a joined array: its elements joined by the separators as written (`%X:~0,19%`), which
    # is what a native program receives (PowerShell's GetEnumerableArgSeparator); None when an
    # element is not constant or holds a blank.
    line: str | None = None
    end_of_parameters: bool = False  # the `--` word: a program receives it, a cmdlet's binding drops it


class Walker(Folder):
    """Walks statements and commands; see the module docstring."""

    def __init__(self, nested: Nested | None, depth: int) -> None:
        super().__init__(nested, depth)
        self.aliases: dict[str, str | None] = {}
        self.functions: dict[str, ScriptBlock] = {}
        self._active: set[int] = set()
        self._trees: list[object] = []  # keeps every parsed tree (and its node ids) alive

    # -- texts --------------------------------------------------------------------------

    def run_text(self, text: str) -> None:
        """Parse and walk one PowerShell text at the current depth."""
        parsed = parse_text(text)
        self._trees.append(parsed.tree)
        if parsed.error is not None:
            self.fail(parsed.error)
        self._walk_in(parsed.source, parsed.tree.root_node)

    def _walk_in(self, source: Source, node: Node) -> PSValue:
        """Walk `node` of the tree parsed from `source` (node texts are read from it)."""
        before = self.source
        self.source = source
        try:
            return self.walk(node)
        finally:
            self.source = before

    def analyse_text(self, text: str) -> None:
        """Analyse text the script runs (`iex`, `[scriptblock]::Create`) one level deeper, same scope."""
        if self.depth + 1 > MAX_TEXT_DEPTH:
            self.fail("too deeply nested")
            return
        self.depth += 1
        try:
            self.run_text(text)
        finally:
            self.depth -= 1

    # -- statements ---------------------------------------------------------------------

    def walk(self, node: Node) -> PSValue:
        """Walk one statement and return its value (the value of a pipeline's last element)."""
        if self.level >= MAX_TREE_LEVEL:
            self.fail("too deeply nested")
            return UNKNOWN
        self.level += 1  # no try/finally: an exception ends the whole analysis
        kind = node.kind_id
        while kind in WRAPPER_IDS:  # `unwrap`, inlined (a hot path)
            children = node.children
            if len(children) != 1:
                break
            node = children[0]
            kind = node.kind_id
        handler = _WALKERS.get(kind)
        if handler is not None:
            value = handler(self, node)
        elif self.level >= MAX_TREE_LEVEL:  # `fold(node)` inlined: `node` is unwrapped already
            self.fail("too deeply nested")
            value = UNKNOWN
        else:
            self.level += 1
            value = self._fold(node)
            self.level -= 1
        self.level -= 1
        return value

    def _block(self, node: Node) -> PSValue:
        for child in node.named_children:
            self.walk(child)
        return UNKNOWN

    def _skipped(self, node: Node) -> PSValue:
        return UNKNOWN

    def _statement_command(self, node: Node) -> PSValue:
        return self._command(node, None, UNKNOWN)

    def _statement_loop(self, node: Node) -> PSValue:
        return self._loop(node, None, UNKNOWN)

    def _statement_function(self, node: Node) -> PSValue:
        self._function(node)
        return UNKNOWN

    def _statement_error(self, node: Node) -> PSValue:
        self._error(node)
        return UNKNOWN

    def _pipeline_parts(self, node: Node) -> PSValue:
        value: PSValue = UNKNOWN
        for child in node.named_children:
            if child.type != "pipeline_chain_tail":
                value = self.walk(child)
        return value

    def _pipeline(self, node: Node) -> PSValue:
        previous: str | None = None
        piped: PSValue = UNKNOWN
        value: PSValue = UNKNOWN
        first = True
        piped_env = False  # the piped value holds an environment variable's (`Folder.env_reads`)
        for child in node.named_children:
            element = unwrap(child)
            reads = self.env_reads
            if element.kind_id in _COMMAND:
                value = self._command(
                    element, None if first else previous, UNKNOWN if first else piped, piped_env=piped_env
                )
                previous = self._last_name
            elif element.kind_id in _REDIRECTIONS:
                # `"x" >> file`: an expression's redirections stand beside it (a command's are its elements).
                for part in element.named_children:
                    if part.kind_id in _REDIRECTION:
                        self._redirection(part)
                    else:
                        self.fold(part)
                value = UNKNOWN
                previous = ""
            else:
                value = self.fold(element)
                previous = ""
            piped = value
            piped_env = self.env_reads != reads
            first = False
        return value

    def _assignment(self, node: Node) -> PSValue:
        target = node.child(0)
        operator = next((c for c in node.children if c.type == "assignement_operator"), None)
        value_node = node.child_by_field_name("value")
        value = self.walk(value_node) if value_node is not None else UNKNOWN
        if target is None:
            return UNKNOWN
        target = unwrap(target)
        op_text = self.text(operator) if operator is not None else "="
        if target.type == "variable":
            key = variable_key(self.text(target))
            if op_text == "+=":
                value = ops.apply_operator("+", self.env.get(key, UNKNOWN), value)
            elif op_text != "=":
                value = UNKNOWN
            if not key.startswith("env:"):
                self.env[key] = value
        else:
            self.fold(target)
            for name in assigned_variables(self.text(node)):
                self.env[name] = UNKNOWN
        return value

    def _branches(self, node: Node) -> PSValue:
        """`if`/`switch`/`try`: conditions in order, each block as a branch that may or may not run."""
        before = self.env
        after: list[dict[str, PSValue]] = []
        stack = list(node.named_children)
        while stack:
            child = stack.pop(0)
            if child.type == "statement_block":
                self.env = dict(before)
                self.walk(child)
                after.append(self.env)
                self.env = before
            elif child.type in _CLAUSES:
                stack[:0] = child.named_children
            else:
                self.walk(child)
        self.env = _merge(before, after)
        return UNKNOWN

    def _loop(self, node: Node, variable: str | None, value: PSValue) -> PSValue:
        before = self.env
        self.env = dict(before)
        for name in assigned_variables(self.text(node)):
            self.env[name] = UNKNOWN
        if variable is not None:
            self.env[variable] = value
        for child in node.named_children:
            if child.type == "variable" and variable is not None:
                continue
            self.walk(child)
        after = self.env
        self.env = _merge(before, [after])
        return UNKNOWN

    def _foreach(self, node: Node) -> PSValue:
        parts = node.named_children
        variable_node = next((c for c in parts if c.type == "variable"), None)
        name = variable_key(self.text(variable_node)) if variable_node is not None else None
        source = next((c for c in parts if c.type not in ("variable", "statement_block", "foreach_parameter")), None)
        items = self.fold(source) if source is not None else UNKNOWN
        body = next((c for c in parts if c.type == "statement_block"), None)
        if body is None:
            return UNKNOWN
        values = flatten(items) if isinstance(items, tuple) else (items,)
        if not is_known(items) or len(values) > _MAX_UNROLL:
            values = (UNKNOWN,)
        for item in values:
            self._loop(body, name, item)
        return UNKNOWN

    def _function(self, node: Node) -> None:
        name_node = next((c for c in node.named_children if c.type == "function_name"), None)
        if name_node is not None:
            self.functions[self.text(name_node).strip().lower()] = ScriptBlock(node=node, origin=self.source)
        self._deferred(node)

    def _deferred(self, node: Node) -> None:
        """Walk code that may run later (a function body, a script block): in a scope of its own."""
        before = self.env
        self.env = dict(before)
        for name in assigned_variables(self.text(node)):
            self.env[name] = UNKNOWN
        for child in node.named_children:
            self.walk(child)
        self.env = before

    def defer_block(self, node: Node) -> None:
        """A script block literal: walked where it is written."""
        self._deferred(node)

    def run_block(self, block: ScriptBlock, *, child_scope: bool = True) -> None:
        """A script block invoked (`& $sb`, `$sb.Invoke()`): walked again with today's variables."""
        if block.node is None:
            return  # made from text: analysed when it was made
        key = block.node.id
        if key in self._active:
            return
        if self.rewalks >= MAX_REWALKS:
            self.note_dynamic("too many nested invocations of script blocks and functions to follow")
            return
        self.rewalks += 1
        self._active.add(key)
        before, source = self.env, self.source
        if child_scope:
            self.env = dict(before)
        if block.origin is not None:
            self.source = block.origin
        try:
            for child in block.node.named_children:
                self.walk(child)
        finally:
            self._active.discard(key)
            self.source = source
            if child_scope:
                self.env = before

    def _error(self, node: Node) -> None:
        """Recover what the grammar could not parse: re-read a broken command's arguments from text."""
        children = node.children
        resume = -1
        for child in children:
            if child.start_byte < resume:
                continue
            inner = unwrap(child)
            if inner.type == "command" and not _has_operator(inner):
                resume = self._recover_command(inner, node)
                continue
            if child.is_named and child.type not in ("simple_name",):
                self.walk(child)

    # -- commands -----------------------------------------------------------------------

    _last_name: str = ""
    _name_node: Node | None = None  # the name of the command whose words `_words` is reading

    def _command(self, node: Node, input_from: str | None, piped: PSValue, *, piped_env: bool = False) -> PSValue:
        self._last_name = ""
        operator = elements = None
        for child in node.children:  # one pass (instead of a generator per search): a hot path
            kind = child.kind_id
            if kind in _INVOKATION_OPERATOR:
                operator = child
            elif kind in _COMMAND_ELEMENTS:
                elements = child
        name_node = node.child_by_field_id(_COMMAND_NAME_FIELD)
        if (
            elements is not None
            and elements.has_error
            and operator is None
            and any(c.kind_id == ERROR_ID for c in elements.children)
        ):
            self._recover_command(node, node)
            return UNKNOWN
        outer, self._name_node = self._name_node, name_node
        reads = self.env_reads
        words = self._words(elements)
        self._name_node = outer
        from_env = (self.env_reads != reads, piped_env)
        text = shown(self.text(node))
        if name_node is None:
            return UNKNOWN
        if name_node.kind_id in _COMMAND_NAME:
            called = self.bareword(self.text(name_node))  # `_name_value` of a plain name, inlined
        else:
            called = self._name_value(name_node)
        dot = operator is not None and self.text(operator).strip() == "."
        return self._invoke(called, words, text, input_from, piped, dot=dot, from_env=from_env)

    def _runs_blocks(self, name_node: Node | None) -> bool:
        """Whether the command named at `name_node` may run a script block argument (see `_argument`)."""
        if name_node is None or name_node.kind_id not in _COMMAND_NAME:
            return True  # `& $x {…}`, `& 'x' {…}`: not known without folding the name; walked as before
        written = self.text(name_node)
        if "$" in written or "`" in written:
            return True
        resolved = self._resolve(written.strip(), [])
        return resolved is None or resolved[0] != "program" or resolved[1] in BLOCK_RUNNERS

    def _name_value(self, node: Node) -> PSValue:
        node = unwrap(node)
        kind = node.kind_id
        if kind in _COMMAND_NAME:
            return self.bareword(self.text(node))
        if kind in _PATH_COMMAND_NAME:
            if node.named_child_count == 1:
                return self.fold(node.named_children[0])
            parts = [
                self.fold(c) if c.type != "path_command_name_token" else self.bareword(self.text(c))
                for c in node.named_children
            ]
            texts = [as_text(p) for p in parts]
            return UNKNOWN if any(t is None for t in texts) else "".join(t or "" for t in texts)
        return self.fold(node)

    def _invoke(
        self,
        called: PSValue,
        words: list[_Word],
        text: str,
        input_from: str | None,
        piped: PSValue,
        *,
        dot: bool = False,
        from_env: tuple[bool, bool] = (False, False),
    ) -> PSValue:
        if type(called) is str:
            name = called.strip()  # the common case first: a constant name
        elif isinstance(called, ScriptBlock):
            self.run_block(called, child_scope=not dot)
            return UNKNOWN
        elif isinstance(called, CommandRef):
            if called.name is None:
                self.note_dynamic(
                    f"'{text}' runs a command found by the wildcard {called.pattern!r}"
                    if called.pattern
                    else f"'{text}' runs a command whose name is not constant"
                )
                return UNKNOWN
            name = called.name.strip()
        else:
            name = ""
        if not name:
            self.note_dynamic(f"'{text}' runs a command whose name is not constant")
            return UNKNOWN
        resolved = self._resolve(name, words)
        if resolved is None:
            self.note_dynamic(f"'{text}' runs an alias whose target is not constant")
            return UNKNOWN
        kind, canonical = resolved
        self._last_name = canonical
        if kind == "program":
            self._program(canonical, words, text, input_from)
            return UNKNOWN
        params, args, named, positional = self._bind(canonical, words, text)
        self.emit(
            Operation(
                shell="powershell",
                name=canonical,
                params=tuple(params),
                args=tuple(args),
                text=text,
                depth=self.depth,
                input_from=input_from,
            )
        )
        if kind == "function":
            self.run_block(self.functions[canonical])
            return UNKNOWN
        self._last_name = canonical
        return self._semantics(canonical, named, positional, text, piped, input_from is not None, from_env)

    def _resolve(self, name: str, words: list[_Word]) -> tuple[str, str] | None:
        if not self.aliases and not self.functions and name.lower() != "sc":
            return _builtin_resolution(name)  # the common case: no script aliases or functions
        qualified = _MODULE_QUALIFIED.fullmatch(name)
        lowered = (qualified.group(1) if qualified else name).lower()
        for _ in range(8):
            if lowered in self.aliases:
                target = self.aliases[lowered]
                if target is None:
                    return None
                qualified = _MODULE_QUALIFIED.fullmatch(target)
                lowered = (qualified.group(1) if qualified else target).lower()
                continue
            break
        if lowered in self.functions:
            return "function", lowered
        if lowered == "sc":
            first = next((as_text(w.value) for w in words if w.kind == "arg"), None)
            return ("program", "sc") if (first or "").lower() in SC_VERBS else ("cmdlet", "set-content")
        lowered = BUILTIN_ALIASES.get(lowered, lowered)
        if looks_like_program(lowered):
            return "program", program_name(lowered)
        return "cmdlet", lowered

    def _program(self, name: str, words: list[_Word], text: str, input_from: str | None) -> None:
        argv: list[Value] = []
        for word in words:
            if word.kind == "param":
                argv.append(word.text + (":" + (as_text(word.value) or "") if word.has_value else ""))
            elif word.kind == "splat" and isinstance(word.value, Hashtable):
                argv.extend(f"-{k}:{as_text(v) or ''}" for k, v in word.value.entries)
            elif word.line is not None:
                argv.extend(word.line.split())
            else:
                argv.extend(as_value(v) for v in flatten(word.value))
        self.emit(
            Operation(shell="program", name=name, args=tuple(argv), text=text, depth=self.depth, input_from=input_from)
        )
        self.call_nested(name, tuple(argv))

    def _bind(
        self, command: str, words: list[_Word], text: str
    ) -> tuple[list[tuple[str, Value]], list[Value], dict[str, PSValue], list[PSValue]]:
        params: list[tuple[str, Value]] = []
        args: list[Value] = []
        named: dict[str, PSValue] = {}
        positional: list[PSValue] = []

        def add(key: str, value: PSValue) -> None:
            named[key] = value
            if type(value) is str:
                params.append((key, value))  # `as_value` of text is the text (a hot path)
                return
            for item in flatten(value) if isinstance(value, tuple) and value else (value,):
                params.append((key, as_value(item)))

        i = 0
        count = len(words)
        while i < count:
            word = words[i]
            i += 1
            if word.kind == "param":
                key = _parameter_key(command, word.text)
                if word.has_value:
                    add(key, word.value)
                elif not is_switch(command, key) and i < count and words[i].kind == "arg":
                    add(key, words[i].value)
                    i += 1
                else:
                    add(key, True)
            elif word.end_of_parameters:
                continue
            elif word.kind == "splat":
                if isinstance(word.value, Hashtable):
                    for key, value in word.value.entries:
                        add(canonical_parameter(command, key.lower()), value)
                elif isinstance(word.value, tuple):
                    positional.extend(word.value)
                    args.extend(as_value(v) for v in word.value)
                else:
                    self.note_dynamic(f"'{text}' splats parameters ({word.text}) that are not constant")
            else:
                value = word.value
                positional.append(value)
                if type(value) is str:
                    args.append(value)
                else:
                    args.extend(as_value(v) for v in flatten(value))
        return params, args, named, positional

    def _semantics(
        self,
        command: str,
        named: dict[str, PSValue],
        positional: list[PSValue],
        text: str,
        piped: PSValue,
        has_input: bool,
        from_env: tuple[bool, bool],
    ) -> PSValue:  # noqa: C901, PLR0911, PLR0912
        """What a few cmdlets mean beyond their operation: they run text, define names, make objects.

        `from_env`: whether the arguments, and the piped value, hold an environment variable's value.
        """
        if command not in _MEANINGFUL:
            return UNKNOWN  # none of the branches below applies (most commands)
        first = positional[0] if positional else UNKNOWN
        second = positional[1] if len(positional) > 1 else UNKNOWN
        if command == "invoke-expression":
            given = "command" in named or bool(positional)
            source = named.get("command", first if positional else (piped if has_input else UNKNOWN))
            code = as_text(source) if not isinstance(source, ScriptBlock) else None
            if code is None:
                self.note_dynamic(f"'{text}' runs text that is not constant (Invoke-Expression)")
            else:
                if from_env[0] if given else (from_env[1] and has_input):
                    self.note_dynamic(f"'{text}' runs text read from an environment variable (Invoke-Expression)")
                self.analyse_text(code)
            return UNKNOWN
        if command in ALIAS_SETTERS:
            alias = as_text(named.get("name", first))
            target = as_text(named.get("value", second))
            if alias is None:
                self.note_dynamic(f"'{text}' defines an alias whose name is not constant")
            else:
                self.aliases[alias.lower()] = target
            return UNKNOWN
        if command in VARIABLE_SETTERS:
            variable = as_text(named.get("name", first))
            if variable is None:
                self.env.clear()
            else:
                self.env[variable_key(variable)] = named.get("value", second if len(positional) > 1 else None)
            return UNKNOWN
        if command == "new-object":
            progid = as_text(named.get("comobject", UNKNOWN))
            if progid is not None:
                return ObjectRef("com", progid.lower())
            type_name = as_text(named.get("typename", first))
            return ObjectRef("dotnet", canonical_type(type_name)) if type_name else UNKNOWN
        if command == "get-command":
            pattern = as_text(named.get("name", first))
            if pattern is None or _WILDCARD.search(pattern):
                return CommandRef(None, pattern or "")
            return CommandRef(pattern)
        if command == "write-output":
            values = positional if "inputobject" not in named else [named["inputobject"]]
            return values[0] if len(values) == 1 else tuple(values)
        if command == "start-process":
            file = as_text(named.get("filepath", first))
            arguments = named.get("argumentlist", second if len(positional) > 1 else ())
            argv = tuple(as_value(v) for v in flatten(arguments)) if arguments != () else ()
            self._start_program(file, argv, text)
            return UNKNOWN
        if command == "foreach-object":
            member = as_text(named.get("membername", first))
            if member is not None and member.lower() in DANGEROUS_METHODS:
                self.emit(Operation(shell="dotnet", name="?." + member.lower(), text=text, depth=self.depth))
        return UNKNOWN

    # -- words --------------------------------------------------------------------------

    def _words(self, elements: Node | None) -> list[_Word]:
        words: list[_Word] = []
        if elements is None:
            return words
        colon = False
        separator = ""
        last_member: Node | None = None
        text = self.text
        parameters = True  # until `--`: after it a `-Name` word is an argument (about_Parsing)
        for child in elements.children:
            kind = child.kind_id
            if kind in _ARGUMENT_SEP:
                separator = text(child)
                colon = separator != " " and separator.strip() == ":"
                continue  # `last_member` stays: a method call's arguments may follow a blank
            pending, last_member = last_member, None
            if kind in _PARAMETER:
                written = text(child)
                if written == "--" and parameters:
                    parameters = False
                    words.append(_Word("arg", written, written, end_of_parameters=True))
                elif not parameters:
                    words.append(_Word("arg", written, written))
                else:
                    words.append(_Word("param", written.rstrip(":")))
                colon = parameters and written.endswith(":")
            elif kind in _OTHER_ELEMENTS:
                if kind in _REDIRECTION:
                    self._redirection(child)
                elif kind in _STOP_PARSING:
                    words.extend(_Word("arg", value=w) for w in split_words(text(child)[3:]))
                elif kind in _ARGUMENT_LIST and words and words[-1].kind == "arg" and pending is not None:
                    # `iex $wc.DownloadString(u)`: the grammar splits a method call in argument mode.
                    words[-1].value = self._member_call(pending, child)
                elif kind in _ARGUMENT_LIST:
                    self._value_word(child, words, colon, separator)
                    colon = False
            else:
                last_member = self._value_word(child, words, colon, separator)
                colon = False
            separator = ""
        return words

    def _value_word(self, child: Node, words: list[_Word], colon: bool, separator: str) -> Node | None:
        """One argument of a command (a value after a `-Param:` included); returns it if a member access."""
        value_node = child
        value_kind = child.kind_id
        while value_kind in WRAPPER_IDS:  # `unwrap`, inlined (a hot path)
            children = value_node.children
            if len(children) != 1:
                break
            value_node = children[0]
            value_kind = value_node.kind_id
        written = self.text(value_node)
        if value_kind in _GENERIC_TOKEN:
            value = self.bareword(written)  # `_argument` for the commonest argument, inlined
        elif value_kind in _INTEGER_LITERAL and HAS_NUMBER_SUFFIX.search(written):
            value = self.bareword(written)  # `-gt 1MB` in argument mode: a bareword, as unrepaired
        else:
            value = self._argument(value_node)
        if colon and words and words[-1].kind == "param" and not words[-1].has_value:
            words[-1].value, words[-1].has_value = value, True
        elif value_kind in _GENERIC_TOKEN and written.startswith(",") and words and words[-1].kind == "arg":
            _join(words[-1], separator, written, self.bareword(written[1:].lstrip()))
        elif value_kind in _VARIABLE and written.startswith("@"):
            words.append(_Word("splat", written, self.lookup(written)))
        else:
            words.append(_Word("arg", written, value))
        return value_node if value_kind in _MEMBER_ACCESS else None

    def _member_call(self, access: Node, arg_node: Node) -> PSValue:
        children = access.children
        if len(children) < 3 or children[-1].type != "member_name":
            return UNKNOWN
        text = shown(self.text(access) + self.text(arg_node))
        return self.call_member(children[0], children[1].type, children[-1], arg_node, text)

    def _argument(self, node: Node) -> PSValue:
        if node.kind_id in _GENERIC_TOKEN:
            return self.bareword(self.text(node))  # the commonest argument, without `fold`'s dispatch
        if node.kind_id in _SCRIPT_BLOCK and not self._runs_blocks(self._name_node):
            # `bcdedit /set {current} …`: PowerShell hands a program a script block as text
            # (`-encodedCommand …` in 5.1 and 7.x): only a PowerShell host, or a launcher that may
            # start one, runs it. Anywhere else its words are not commands.
            return ScriptBlock(node=node, origin=self.source)
        value = self.fold(node)
        if isinstance(value, ScriptBlock) and node.kind_id in _VARIABLE:
            self.run_block(value)  # a block held in a variable runs where it is passed, with today's variables
        return value

    def _redirection(self, node: Node) -> None:
        target = next((c for c in node.named_children if c.type == "redirected_file_name"), None)
        if target is None:
            return
        parts = [c for c in target.named_children if c.type != "command_argument_sep"]
        if not parts:
            return
        if unwrap(parts[0]).type == "variable" and variable_key(self.text(unwrap(parts[0]))) == "null":
            return  # `> $null` discards
        value = self.fold(parts[0])
        self.emit(
            Operation(
                shell="powershell",
                name="<redirect>",
                args=(as_value(value),),
                text=shown(self.text(node)),
                depth=self.depth,
            )
        )

    # -- recovery -----------------------------------------------------------------------

    def _recover_command(self, command: Node, container: Node) -> int:
        """Re-read a command the grammar broke (`gci $env:TEMP\\x`) from its text; returns where it ended."""
        raw = container.text or b""
        start = command.start_byte - container.start_byte
        tail = raw[start:].decode("utf-8", "replace")
        tokens, end = split_arguments(tail)
        if not tokens:
            return command.end_byte
        words: list[_Word] = []
        for token, joined in tokens[1:]:
            if token.startswith("-") and len(token) > 1 and token[1].isalpha() and not joined:
                words.append(_Word("param", token.split(":", 1)[0]))
                if ":" in token:
                    words[-1].value, words[-1].has_value = self._recovered_value(token.split(":", 1)[1]), True
                continue
            if token.startswith("@") and token[1:2].isalpha():
                words.append(_Word("splat", token, self.lookup(token)))
                continue
            value = self._recovered_value(token)
            if joined and words and words[-1].kind == "arg":
                words[-1].value = (*flatten(words[-1].value), value)
            else:
                words.append(_Word("arg", token, value))
        called = self._recovered_value(tokens[0][0])
        self._invoke(called, words, shown(tail[:end]), None, UNKNOWN)
        return container.start_byte + start + len(tail[:end].encode("utf-8"))

    def _recovered_value(self, token: str) -> PSValue:
        if token.startswith("'") and token.endswith("'") and len(token) >= 2:
            return verbatim(token)
        if token.startswith('"') and token.endswith('"') and len(token) >= 2 and "$(" not in token:
            return self.bareword(token[1:-1].replace('""', '`"'))
        if token.startswith("$") and _VARIABLE_PATH.fullmatch(token):
            return self.bareword(token)
        if token[:1] in "$(@{[":
            parsed = parse_text(token)
            self._trees.append(parsed.tree)
            root = parsed.tree.root_node
            if parsed.error is not None:
                return UNKNOWN
            statements = [c for c in unwrap(root).named_children] if unwrap(root).type == "program" else [root]
            values = [self._walk_in(parsed.source, c) for c in statements]
            return values[-1] if len(values) == 1 else UNKNOWN
        return self.bareword(token)


@functools.lru_cache(maxsize=2048)
def _builtin_resolution(name: str) -> tuple[str, str]:
    """What a command name resolves to with only built-in aliases (cached: a hot path)."""
    qualified = _MODULE_QUALIFIED.fullmatch(name)
    lowered = (qualified.group(1) if qualified else name).lower()
    lowered = BUILTIN_ALIASES.get(lowered, lowered)
    if looks_like_program(lowered):
        return "program", program_name(lowered)
    return "cmdlet", lowered


_Walk: TypeAlias = Callable[[Walker, Node], PSValue]
# Statement type → how it is walked (any other node is an expression: `fold`).
_WALKERS_BY_TYPE: dict[str, _Walk] = {
    **dict.fromkeys(_BLOCKS, Walker._block),
    **dict.fromkeys(("class_statement", "enum_statement", "data_statement", "flow_control_statement"), Walker._block),
    **dict.fromkeys(_SKIPPED, Walker._skipped),
    "pipeline": Walker._pipeline_parts,
    "pipeline_chain": Walker._pipeline,
    "command": Walker._statement_command,
    "assignment_expression": Walker._assignment,
    **dict.fromkeys(("if_statement", "switch_statement", "try_statement", "trap_statement"), Walker._branches),
    **dict.fromkeys(("while_statement", "do_statement", "for_statement"), Walker._statement_loop),
    "foreach_statement": Walker._foreach,
    "function_statement": Walker._statement_function,
    "ERROR": Walker._statement_error,
}
_WALKERS: dict[int, _Walk] = by_kind(_WALKERS_BY_TYPE)  # by kind id (`ps_tree.kind_ids`): a hot path


def _join(word: _Word, separator: str, written: str, item: PSValue) -> None:
    """`a` then `,b`: one array argument (see `_Word.line`)."""
    element = written[1:].lstrip()
    if not word.joined:
        word.line = as_text(word.value) if not isinstance(word.value, tuple) else None
        word.joined = True
    text = as_text(item)
    if word.line is not None and text is not None and not _BLANK.search(word.line + text):
        word.line += separator + written[: len(written) - len(element)] + text
    else:
        word.line = None
    word.value = (*flatten(word.value), *flatten(item))


def _has_operator(command: Node) -> bool:
    return any(c.type == "command_invokation_operator" for c in command.children)


def _merge(before: dict[str, PSValue], branches: list[dict[str, PSValue]]) -> dict[str, PSValue]:
    """The variables after code that may or may not have run: a changed one is no longer constant."""
    merged = dict(before)
    for env in branches:
        for key, value in env.items():
            if key not in before or before[key] != value:
                merged[key] = UNKNOWN
        for key in before:
            if key not in env:
                merged[key] = UNKNOWN
    return merged
