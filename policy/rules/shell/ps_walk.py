"""The statement walker of the PowerShell analyser (issue 18).

`Walker` runs through a syntax tree in source order, keeping the constant variables,
script aliases and functions it has seen; commands become operations in `ps_command`,
expressions are folded in `ps_fold` and `ps_calls`. Control flow is handled soundly rather
than precisely: a variable assigned in a branch or loop is not constant after it, a loop
body sees its own assignments as unknown, and a script block is walked where it is written
and again where it is invoked, so a later change of a variable it reads is not missed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeAlias

from tree_sitter import Node

from policy.rules.shell import ps_operators as ops
from policy.rules.shell.ps_command import CommandWalker, Word, has_operator
from policy.rules.shell.ps_fold import MAX_REWALKS, MAX_TEXT_DEPTH, MAX_TREE_LEVEL, Nested, shown
from policy.rules.shell.ps_text import verbatim
from policy.rules.shell.ps_tree import (
    WRAPPER_IDS,
    assigned_variables,
    by_kind,
    field_id,
    kind_id,
    kind_ids,
    parse_text,
    skip_wrappers,
    split_arguments,
    unwrap,
    variable_key,
)
from policy.rules.shell.ps_values import UNKNOWN, PSValue, ScriptBlock, flatten, is_known

_BLOCKS = frozenset({"program", "statement_list", "statement_block", "script_block", "script_block_body"})
_BLOCKS |= frozenset({"named_block", "named_block_list", "param_block", "catch_clauses", "elseif_clauses"})
# `function f($p = (…)) {…}`: a default value runs when the function is called without that argument, like
# one in a `param(…)` block (S-RULE-55).
_BLOCKS |= frozenset({"function_parameter_declaration"})
_SKIPPED = frozenset({"comment", "empty_statement", "function_name"})
_MAX_UNROLL = 8
_VARIABLE_PATH = re.compile(r"\$\{?[\w:]+\}?(?:[\\/][^\s]*)?")
_VARIABLE_PATH_START = re.compile(r"\$\{?[\w:]+\}?[\\/]")
# Kinds the statement walker tests, by id (`ps_tree.kind_ids`; `kind_id` for a test that mostly hits).
_COMMAND = kind_id("command")
_REDIRECTION = kind_ids("redirection")
_REDIRECTIONS = kind_ids("redirections")
_PIPELINE_CHAIN_TAIL = kind_ids("pipeline_chain_tail")
_ASSIGNMENT_OPERATOR = kind_ids("assignement_operator")
_VALUE_FIELD = field_id("value")
_VARIABLE = kind_ids("variable")
_MEMBER_ACCESS = kind_ids("member_access")
_STATEMENT_BLOCK = kind_ids("statement_block")
_FOREACH_PARTS = _VARIABLE | _STATEMENT_BLOCK | kind_ids("foreach_parameter")
_FUNCTION_NAME = kind_ids("function_name")
_SIMPLE_NAME = kind_ids("simple_name")
_PROGRAM = kind_ids("program")
_CLAUSES = kind_ids("elseif_clauses", "elseif_clause", "else_clause", "switch_body", "switch_clauses")
_CLAUSES |= kind_ids("switch_clause", "catch_clauses", "catch_clause", "finally_clause")


class Walker(CommandWalker):
    """Walks statements; see the module docstring."""

    def __init__(self, nested: Nested | None, depth: int, *, glued: bool = False) -> None:
        super().__init__(nested, depth)
        self._active: set[int] = set()
        self.glued = glued  # every text is parsed with `parse_text(…, glued=True)` (see `GluedWord`)

    # -- texts --------------------------------------------------------------------------

    def run_text(self, text: str) -> None:
        """Parse and walk one PowerShell text at the current depth."""
        parsed = parse_text(text, glued=self.glued)
        self._trees.append(parsed.tree)
        if parsed.error is not None:
            self.fail(parsed.error)
        self.walk_in(parsed.source, parsed.tree.root_node)

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
        if kind in WRAPPER_IDS:  # `unwrap` (a hot path)
            node = skip_wrappers(node)
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

    def _statement_function(self, node: Node) -> PSValue:
        self._function(node)
        return UNKNOWN

    def _statement_error(self, node: Node) -> PSValue:
        self._error(node)
        return UNKNOWN

    def _pipeline_parts(self, node: Node) -> PSValue:
        value: PSValue = UNKNOWN
        for child in node.named_children:
            if child.kind_id not in _PIPELINE_CHAIN_TAIL:
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
            if element.kind_id == _COMMAND:
                value = self.command(
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
        children = node.children
        target = children[0] if children else None
        operator = None
        for child in children:
            if child.kind_id in _ASSIGNMENT_OPERATOR:
                operator = child
                break
        value_node = node.child_by_field_id(_VALUE_FIELD)
        value = self.walk(value_node) if value_node is not None else UNKNOWN
        if target is None:
            return UNKNOWN
        kind = target.kind_id
        if kind in WRAPPER_IDS:  # `unwrap` (`$x = …`: ten wrappers above the variable)
            target = skip_wrappers(target)
            kind = target.kind_id
        op_text = self.text(operator) if operator is not None else "="
        if kind in _VARIABLE:
            written = self.text(target)
            key = variable_key(written)
            if op_text == "+=":
                # `$env:Path += ';x'` adds to the machine's value (its spelling, for places.py) unless set here.
                before = self.lookup(written) if key.startswith("env:") else self.env.get(key, UNKNOWN)
                value = ops.apply_operator("+", before, value)
            elif op_text != "=":
                value = UNKNOWN
            if key.startswith(("function:", "alias:")):  # `$function:f = 'rm …'`, `${alias:a} = 'x'`
                drive, _, name = key.partition(":")
                self.define_session_item(drive, name.rpartition(":")[2], value, self.text(node))
            else:
                # `$env:X = 'C:\…\id_rsa'; Get-Content $env:X` reads the key (S-RULE-105): an environment
                # variable the script sets is read back as what it set.
                self.env[key] = value
        else:
            if kind in _MEMBER_ACCESS:
                self.set_property(target, value, self.text(node))
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
            kind = child.kind_id
            if kind in _STATEMENT_BLOCK:
                self.env = dict(before)
                self.walk(child)
                after.append(self.env)
                self.env = before
            elif kind in _CLAUSES:
                stack[:0] = child.named_children
            else:
                self.walk(child)
        self.env = _merge(before, after)
        return UNKNOWN

    def _loop(self, node: Node, variable: str | None = None, value: PSValue = UNKNOWN) -> PSValue:
        before = self.env
        self.env = dict(before)
        for name in assigned_variables(self.text(node)):
            self.env[name] = UNKNOWN
        if variable is not None:
            self.env[variable] = value
        for child in node.named_children:
            if variable is not None and child.kind_id in _VARIABLE:
                continue
            self.walk(child)
        after = self.env
        self.env = _merge(before, [after])
        return UNKNOWN

    def _foreach(self, node: Node) -> PSValue:
        parts = node.named_children
        variable_node = next((c for c in parts if c.kind_id in _VARIABLE), None)
        name = variable_key(self.text(variable_node)) if variable_node is not None else None
        source = next((c for c in parts if c.kind_id not in _FOREACH_PARTS), None)
        items = self.fold(source) if source is not None else UNKNOWN
        body = next((c for c in parts if c.kind_id in _STATEMENT_BLOCK), None)
        if body is None:
            return UNKNOWN
        values = flatten(items) if isinstance(items, tuple) else (items,)
        if not is_known(items) or len(values) > _MAX_UNROLL:
            values = (UNKNOWN,)
        for item in values:
            self._loop(body, name, item)
        return UNKNOWN

    def _function(self, node: Node) -> None:
        name_node = next((c for c in node.named_children if c.kind_id in _FUNCTION_NAME), None)
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
            if inner.kind_id == _COMMAND and not has_operator(inner):
                resume = self._recover_command(inner, node)
                continue
            if child.is_named and child.kind_id not in _SIMPLE_NAME:
                self.walk(child)

    # -- recovery -----------------------------------------------------------------------

    def _recover_command(self, command: Node, container: Node) -> int:
        """Re-read a command the grammar broke (`gci $env:TEMP\\x`) from its text; returns where it ended."""
        raw = container.text or b""
        start = command.start_byte - container.start_byte
        tail = raw[start:].decode("utf-8", "replace")
        tokens, end = split_arguments(tail)
        if not tokens:
            return command.end_byte
        words: list[Word] = []
        for token, joined in tokens[1:]:
            if token.startswith("-") and len(token) > 1 and token[1].isalpha() and not joined:
                words.append(Word("param", token.split(":", 1)[0]))
                if ":" in token:
                    words[-1].value, words[-1].has_value = self._recovered_value(token.split(":", 1)[1]), True
                continue
            if token.startswith("@") and token[1:2].isalpha():
                words.append(Word("splat", token, self.lookup(token)))
                continue
            value = self._recovered_value(token)
            if joined and words and words[-1].kind == "arg":
                words[-1].value = (*flatten(words[-1].value), value)
            else:
                words.append(Word("arg", token, value))
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
        if _VARIABLE_PATH_START.match(token) and '"' not in token:
            # `$p\x$(Remove-Item …)`: a path after a variable with a subexpression glued on is one word,
            # which PowerShell expands as it would the same text in double quotes; read that way, the
            # subexpression's commands are walked (not given up on as one unparsable expression).
            return self._recovered_expression(f'"{token}"')
        if token[:1] in "$(@{[":
            return self._recovered_expression(token)
        return self.bareword(token)

    def _recovered_expression(self, token: str) -> PSValue:
        """A recovered word's value, parsed as an expression and its commands walked (unknown if it does not parse)."""
        parsed = parse_text(token, glued=self.glued)
        self._trees.append(parsed.tree)
        root = parsed.tree.root_node
        if parsed.error is not None:
            return UNKNOWN
        top = unwrap(root)
        statements = list(top.named_children) if top.kind_id in _PROGRAM else [root]
        values = [self.walk_in(parsed.source, c) for c in statements]
        return values[-1] if len(values) == 1 else UNKNOWN


_Walk: TypeAlias = Callable[[Walker, Node], PSValue]
# Statement type → how it is walked (any other node is an expression: `fold`).
_WALKERS_BY_TYPE: dict[str, _Walk] = {
    **dict.fromkeys(_BLOCKS, Walker._block),
    **dict.fromkeys(("class_statement", "enum_statement", "data_statement", "flow_control_statement"), Walker._block),
    **dict.fromkeys(_SKIPPED, Walker._skipped),
    "pipeline": Walker._pipeline_parts,
    "pipeline_chain": Walker._pipeline,
    "command": Walker.command,
    "assignment_expression": Walker._assignment,
    **dict.fromkeys(("if_statement", "switch_statement", "try_statement", "trap_statement"), Walker._branches),
    **dict.fromkeys(("while_statement", "do_statement", "for_statement"), Walker._loop),
    "foreach_statement": Walker._foreach,
    "function_statement": Walker._statement_function,
    "ERROR": Walker._statement_error,
}
_WALKERS: dict[int, _Walk] = by_kind(_WALKERS_BY_TYPE)  # by kind id (`ps_tree.kind_ids`): a hot path


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
