"""Constant folding of PowerShell expressions on the syntax tree (issue 18).

`Folder.fold(node)` returns what an expression evaluates to when that is certain (strings,
numbers, arrays, hashtables, script blocks, objects the script created) and `UNKNOWN`
otherwise. Folding also reports what an expression *does*: a method call is handed to
`call_member` (`ps_calls`: `[IO.File]::Delete(…)` or a COM call becomes an operation), a command
inside `(…)`/`$(…)` is walked. The class chain is `Folder` (expressions) → `ps_calls.MethodCalls`
→ `ps_command.CommandWalker` → `ps_walk.Walker` (statements), which supplies the hooks below.

Speed (issue 18: p95 ≤ 1 ms for a 2 KB script): kinds are compared by id, never by type
string; the one-child wrapper chains are skipped in a loop inside `fold`, not by a call per
level; an `Operation` is made by `make_operation` (see there).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Protocol, TypeAlias

from tree_sitter import Node

from policy.rules.shell import ps_operators as ops
from policy.rules.shell.ops import Analysis, Operation, Shell, Value
from policy.rules.shell.ps_names import (
    ENCODINGS,
    FILE_OBJECT_TYPES,
    KEPT_ACCELERATORS,
    PSREADLINE_HISTORY,
    PSREADLINE_OPTIONS,
    canonical_type,
)
from policy.rules.shell.ps_text import expand_text, here_body, verbatim
from policy.rules.shell.ps_tree import (
    WRAPPER_IDS,
    GluedWord,
    Source,
    by_kind,
    kind_id,
    kind_ids,
    skip_wrappers,
    source_of,
    variable_key,
)
from policy.rules.shell.ps_values import (
    UNKNOWN,
    Hashtable,
    ObjectRef,
    PSValue,
    ScriptBlock,
    TypeRef,
    as_text,
    flatten,
)


class Nested(Protocol):
    """What looks inside a program a script starts (`dispatch.analyse_program`): called with the program, its
    argv and the nesting level of what it runs. A PowerShell script passes `env`, the environment variables it set
    (`$env:P = …`; upper-case names, None for a value not known), which the program inherits, and `expanded`:
    whether it filled an environment variable's value into the argv (S-RULE-219). cmd passes neither."""

    def __call__(
        self,
        program: str,
        argv: tuple[Value, ...],
        depth: int,
        /,
        env: Mapping[str, str | None] | None = None,
        expanded: bool = False,
    ) -> Analysis: ...


MAX_OPERATIONS = 512
MAX_TEXT_DEPTH = 8  # nested iex / -EncodedCommand / cmd /c levels (issue 18)
MAX_TREE_LEVEL = 100  # nested expressions and blocks walked; keeps far below Python's recursion limit
MAX_REWALKS = 64  # script blocks and functions re-walked where they are invoked
_TEXT_SHOWN = 200

# Variables whose value PowerShell defines; `$env:X` and `$HOME` stay as text for places.py.
_AUTOMATIC: dict[str, PSValue] = {
    "true": True,
    "false": False,
    "null": None,
    "executioncontext": ObjectRef("engine", "executioncontext"),
}
_COMPOUND_OPERATORS = frozenset({"+", "*", "-f", "-join", "..", "-replace", "-ireplace", "-creplace"})
_COMPOUND_OPERATORS |= frozenset({"-split", "-isplit", "-csplit", "-", "/", "%"})
_OPERATOR_NODES = kind_ids("comparison_operator", "format_operator")
_HASH_BODY = kind_ids("hash_literal_body")
_HASH_ENTRY = kind_ids("hash_entry")
_SIMPLE_NAME = kind_ids("simple_name")
_MEMBER_NAME = kind_ids("member_name")
_ARGUMENT_LIST = kind_ids("argument_list")
_ARGUMENT_EXPRESSION_LIST = kind_ids("argument_expression_list")

# `Operation(…)` runs a frozen dataclass's `__init__` (one `object.__setattr__` per field, keyword
# arguments): about 2 µs, and a 2 KB script makes ~40 of them. `make_operation` fills the same slots
# directly; it is exactly the value `Operation(…)` makes as long as `Operation` has these fields,
# slots and no `__post_init__`, which is checked here at import.
_OPERATION_FIELDS = ("shell", "name", "params", "args", "text", "depth", "input_from")
if tuple(f.name for f in dataclasses.fields(Operation)) != _OPERATION_FIELDS or hasattr(Operation, "__post_init__"):
    raise ImportError("ops.Operation changed: update ps_fold.make_operation")
_new_object = object.__new__
_SET_SHELL, _SET_NAME, _SET_PARAMS, _SET_ARGS, _SET_TEXT, _SET_DEPTH, _SET_INPUT = (
    getattr(Operation, name).__set__ for name in _OPERATION_FIELDS
)


def _closing_quote(text: str, i: int) -> int:
    """Where the string opened by the quote at `i` closes (a doubled quote, and in `"…"` a backtick,
    escape); `len(text)` when it never does."""
    quote = text[i]
    j = i + 1
    while j < len(text):
        ch = text[j]
        if ch == "`" and quote == '"':
            j += 2
            continue
        if ch == quote:
            if text[j + 1 : j + 2] == quote:
                j += 2
                continue
            return j
        j += 1
    return len(text)


def make_operation(
    shell: Shell,
    name: str,
    params: tuple[tuple[str, Value], ...],
    args: tuple[Value, ...],
    text: str,
    depth: int,
    input_from: str | None = None,
) -> Operation:
    """`Operation(shell=…, name=…, …)` without the frozen dataclass's `__init__` (see above; a hot path)."""
    op: Operation = _new_object(Operation)
    _SET_SHELL(op, shell)
    _SET_NAME(op, name)
    _SET_PARAMS(op, params)
    _SET_ARGS(op, args)
    _SET_TEXT(op, text)
    _SET_DEPTH(op, depth)
    _SET_INPUT(op, input_from)
    return op


def shown(text: str) -> str:
    """`text` shortened for an operation's `text` and a dynamic sentence."""
    if len(text) > 4 * _TEXT_SHOWN:
        # A command with a long block argument: normalise only its start (nested commands would
        # otherwise each re-split the whole block); fall back when blanks collapse too much.
        head = " ".join(text[: 4 * _TEXT_SHOWN].split())
        if len(head) > _TEXT_SHOWN:
            return head[: _TEXT_SHOWN - 1] + "…"
    text = " ".join(text.split())
    return text if len(text) <= _TEXT_SHOWN else text[: _TEXT_SHOWN - 1] + "…"


class Folder:
    """Folding state for one analysis; see the module docstring."""

    def __init__(self, nested: Nested | None, depth: int) -> None:
        self.nested = nested
        self.depth = depth
        self.env: dict[str, PSValue] = {}
        self.ops: list[Operation] = []
        self._op_keys: set[tuple[object, ...]] = set()
        self.dynamic: list[str] = []
        self.failed: str | None = None
        self.level = 0
        self.rewalks = 0
        # How many times an environment variable (or `$HOME`) was read: its value is kept as its
        # spelling (`$env:TEMP`) for places.py, so text run as code compares this count before and
        # after folding to know the code holds a value nobody can read here (`iex $env:X`).
        self.env_reads = 0
        # Whether the words of the command (or method call) being started read one: set where it is known, read
        # by `call_nested` (S-RULE-219).
        self.argv_from_env = False
        self._source: Source = source_of("")
        self.text: Callable[[Node], str] = self._source.reader()  # a node's text, as written in the original
        # The original text when it is ASCII (byte offsets are string offsets), else None, and the
        # repair's offset table (`Source.offsets`) or None: the hottest loops slice node texts
        # themselves, as `text` does, rather than call it.
        self.plain: str | None = ""
        self.offsets: tuple[int, ...] | None = None

    @property
    def source(self) -> Source:
        """The text of the tree being walked (set per tree; `text` reads node texts from it)."""
        return self._source

    @source.setter
    def source(self, source: Source) -> None:
        self._source = source
        self.text = source.reader()
        self.plain = source.ascii_text
        self.offsets = source.offsets or None

    # -- results ------------------------------------------------------------------------

    def emit(self, op: Operation) -> None:
        """Record one operation (duplicates from re-walked blocks are dropped)."""
        self._add(
            (op.shell, op.name, op.params, op.args, op.text, op.depth, op.input_from),
            op,
        )

    def record(  # noqa: PLR0913
        self,
        shell: Shell,
        name: str,
        params: tuple[tuple[str, Value], ...],
        args: tuple[Value, ...],
        text: str,
        input_from: str | None = None,
    ) -> None:
        """`emit(Operation(…))` at the current depth, the operation made only when it is new (a hot path)."""
        key = (shell, name, params, args, text, self.depth, input_from)
        if key not in self._op_keys:
            self._append(key, make_operation(shell, name, params, args, text, self.depth, input_from))

    def _add(self, key: tuple[object, ...], op: Operation) -> None:
        # Keyed by the operation's fields as a tuple: the same equality and hash as `Operation`'s,
        # computed in C rather than by the dataclass's `__hash__`/`__eq__`.
        if key not in self._op_keys:
            self._append(key, op)

    def _append(self, key: tuple[object, ...], op: Operation) -> None:
        if len(self.ops) >= MAX_OPERATIONS:
            self.fail("too many commands")
            return
        self._op_keys.add(key)
        self.ops.append(op)

    def note_dynamic(self, sentence: str) -> None:
        """Record an invocation whose name or decisive argument is not constant."""
        if sentence not in self.dynamic:
            self.dynamic.append(sentence)

    def fail(self, reason: str) -> None:
        """Record why the analysis is incomplete (the first reason wins)."""
        if self.failed is None:
            self.failed = reason

    def call_nested(self, program: str, argv: tuple[Value, ...]) -> None:
        """Hand a program's argv to the dispatcher (`cmd /c`, `powershell -enc`, …) and merge its analysis."""
        if self.nested is None or not program:
            return
        if self.depth + 1 > MAX_TEXT_DEPTH:
            self.fail("too deeply nested")
            return
        env = self.started_env()
        result = self.nested(program, argv, self.depth + 1, env=env, expanded=self.argv_from_env)
        for op in result.operations:
            self.emit(op)
        for sentence in result.dynamic:
            self.note_dynamic(sentence)
        if result.failed is not None:
            self.fail(f"{program}: {result.failed}")

    def started_env(self) -> dict[str, str | None]:
        """The environment variables this script set, as a program it starts inherits them (S-RULE-219): upper-case
        names, and each value as text (None where it is not known)."""
        return {key[4:].upper(): as_text(value) for key, value in self.env.items() if key.startswith("env:")}

    def set_env_variable(self, name: str | None, value: PSValue) -> None:
        """An environment variable this script sets for itself (`Set-Item env:P`, `SetEnvironmentVariable`), read
        back as `$env:P = value` is (S-RULE-105, S-RULE-219). When which one changed is not known (a name not
        constant, a wildcard), none of the script's own values can be trusted any more."""
        if name is None or not name.strip() or "*" in name or "?" in name:
            self.env = {k: v for k, v in self.env.items() if not k.startswith("env:")}
        else:
            self.env["env:" + name.strip().lower()] = value

    # -- hooks the statement walker supplies ------------------------------------------

    def walk(self, node: Node) -> PSValue:
        """Walk a statement (or a pipeline) and return its value."""
        raise NotImplementedError

    def run_block(self, block: ScriptBlock, *, child_scope: bool = True) -> None:
        """Walk a script block where it is invoked."""
        raise NotImplementedError

    def analyse_text(self, text: str) -> None:
        """Analyse PowerShell text that this script runs (`iex`, `[scriptblock]::Create`)."""
        raise NotImplementedError

    def defer_block(self, node: Node) -> None:
        """Walk a script block literal where it is written (it may run later, or elsewhere)."""
        raise NotImplementedError

    def call_member(self, target: Node, separator: str, member: Node, arg_node: Node | None, text: str) -> PSValue:
        """A method call (`ps_calls.MethodCalls`)."""
        raise NotImplementedError

    def script_from_text(self, source: str | None, text: str, *, from_env: bool = False) -> PSValue:
        """A script block made from text (`ps_calls.MethodCalls`)."""
        raise NotImplementedError

    # -- variables ----------------------------------------------------------------------

    def lookup(self, written: str) -> PSValue:
        """The value of a variable as written (`$x`, `${env:P}`, `$script:x`)."""
        key = variable_key(written)
        if key.startswith("env:"):
            if key in self.env:  # set earlier in this script (S-RULE-105): its value, not the machine's
                return self.env[key]
            self.env_reads += 1
            return "$env:" + written.lstrip("$@{").rstrip("}").split(":", 1)[1]
        if key == "home":
            self.env_reads += 1
            return "$HOME"
        if key in _AUTOMATIC:
            return _AUTOMATIC[key]
        return self.env.get(key, UNKNOWN)

    def lookup_text(self, written: str) -> str | None:
        """A variable's value as text (for string expansion), or None if not constant."""
        return as_text(self.lookup(written))

    # -- expressions --------------------------------------------------------------------

    def fold(self, node: Node) -> PSValue:
        """The value of the expression at `node` (see the module docstring)."""
        if self.level >= MAX_TREE_LEVEL:
            self.fail("too deeply nested")
            return UNKNOWN
        # No try/finally: an exception ends the whole analysis (`analyse_powershell` catches it).
        self.level += 1
        kind = node.kind_id
        if kind in WRAPPER_IDS:  # `unwrap`: the hottest step of the analyser
            node = skip_wrappers(node)
            kind = node.kind_id
        handler = _FOLDERS.get(kind)
        if handler is not None:
            value = handler(self, node)
        else:
            for child in node.named_children:
                self.fold(child)
            value = UNKNOWN
        self.level -= 1
        return value

    def _fold(self, node: Node) -> PSValue:
        handler = _FOLDERS.get(node.kind_id)
        if handler is not None:
            return handler(self, node)
        # Anything else (`-not $x`, `$i++`, a statement in expression position): fold its parts
        # for the commands they hold; the value itself is not known.
        for child in node.named_children:
            self.fold(child)
        return UNKNOWN

    def _string(self, node: Node) -> PSValue:
        inner = node.named_children
        if not inner:
            return verbatim(self.text(node))
        child = inner[0]
        kind = child.kind_id
        if kind == _VERBATIM:  # `_fold` of the commonest strings, inlined
            return verbatim(self.text(child))
        if kind == _EXPANDABLE:
            return self._expandable(child, here=False)
        return self._fold(child)

    def _script_block(self, node: Node) -> PSValue:
        self.defer_block(node)
        return ScriptBlock(node=node, origin=self.source)

    def arguments(self, node: Node | None) -> list[PSValue]:
        """The values of an `argument_list` (`(a, b)` of a method call, or glued to a command's word)."""
        if node is None:
            return []
        values: list[PSValue] = []
        stack = list(node.named_children)
        while stack:
            child = stack.pop(0)
            if child.kind_id in _ARGUMENT_EXPRESSION_LIST and child.child_count > 1:
                stack[:0] = child.named_children
                continue
            values.append(self.fold(child))
        return values

    def _argument_list(self, node: Node) -> PSValue:
        # `New-Object IO.StreamWriter('C:\x')`: in argument mode `('C:\x')` is its own argument, a
        # parenthesised expression: one value, or the array of several (`('x', 'Create')`) (S-RULE-77).
        values = self.arguments(node)
        return values[0] if len(values) == 1 else tuple(values)

    def _array_literal(self, node: Node) -> PSValue:
        return tuple(self.fold(c) for c in node.named_children)

    def bareword(self, text: str) -> PSValue:
        """An unquoted argument or command word: escapes and `$var` references expanded, and a quoted
        part inside it (`C:\\Chrome\\User" Data"`, `a'b c'`) read as that string, its quotes removed
        (S-RULE-44)."""
        if "$" not in text and "`" not in text and '"' not in text and "'" not in text:
            return text  # what `expand_text` returns for it, without the calls (a hot path)
        if '"' in text or "'" in text:
            if self._source.unrepaired_quotes:
                raise GluedWord  # may be a word the grammar split at a quoted blank: parse again (`parse_text`)
            return self._quoted_bareword(text)
        value = expand_text(text, self.lookup_text, doubled_quote=False)
        return UNKNOWN if value is None else value

    def _quoted_bareword(self, text: str) -> PSValue:
        parts: list[str | None] = []
        start = i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "`":
                i += 2
                continue
            if ch not in "\"'":
                i += 1
                continue
            parts.append(expand_text(text[start:i], self.lookup_text, doubled_quote=False))
            j = _closing_quote(text, i)
            inner = text[i + 1 : j]
            if ch == "'":
                parts.append(inner.replace("''", "'"))
            else:
                parts.append(expand_text(inner, self.lookup_text, doubled_quote=True) if "$(" not in inner else None)
            start = i = j + 1
        parts.append(expand_text(text[start:], self.lookup_text, doubled_quote=False))
        return UNKNOWN if None in parts else "".join(p for p in parts if p is not None)

    def _expandable(self, node: Node, *, here: bool) -> PSValue:
        # The original's bytes: the grammar was given tabs as blanks (`ps_tree._blanks`), a string keeps its own.
        # A repaired parse has other offsets; its strings are the original's but for that blanking.
        source = self._source
        raw = source.original[node.start_byte : node.end_byte] if not source.offsets else (node.text or b"")
        base = node.start_byte
        if here:
            first = raw.find(b"\n")
            lo = first + 1 if first >= 0 else 2
            last = raw.rfind(b"\n")
            hi = last if last >= lo else max(lo, len(raw) - 2)
            if hi > lo and raw[hi - 1 : hi] == b"\r":
                hi -= 1
        else:
            lo, hi = 1, max(1, len(raw) - 1)
        children = node.named_children
        if not children:  # no variable or sub-expression inside: the literal text alone (a hot path)
            return _literal(raw[lo:hi], here)
        parts: list[str] = []
        pos = lo
        known = True
        for child in children:
            start, end = child.start_byte - base, child.end_byte - base
            if start < pos or end > hi:
                continue
            parts.append(_literal(raw[pos:start], here))
            value = self.fold(child)
            text = as_text(value)
            if text is None:
                known = False
            else:
                parts.append(text)
            pos = end
        parts.append(_literal(raw[pos:hi], here))
        return "".join(parts) if known else UNKNOWN

    def _array_expression(self, node: Node) -> PSValue:
        inner = [c for c in node.named_children]
        if not inner:
            return ()
        values = [self.walk(c) for c in inner]
        if len(values) != 1:
            return UNKNOWN
        value = values[0]
        return value if isinstance(value, tuple) or value is UNKNOWN else (value,)

    def _hashtable(self, node: Node) -> PSValue:
        entries: list[tuple[str, PSValue]] = []
        known = True
        stack = list(node.named_children)
        while stack:
            child = stack.pop(0)
            kind = child.kind_id
            if kind in _HASH_BODY:
                stack[:0] = child.named_children
                continue
            if kind not in _HASH_ENTRY:
                continue
            parts = child.named_children
            if len(parts) < 2:
                continue
            key_node = parts[0]
            while key_node.kind_id in WRAPPER_IDS:  # `unwrap`
                key_children = key_node.children
                if len(key_children) != 1:
                    break
                key_node = key_children[0]
            key = as_text(self.fold(parts[0])) if key_node.kind_id not in _SIMPLE_NAME else self.text(key_node)
            value = self.walk(parts[1])
            if key is None:
                known = False
            else:
                entries.append((key, value))
        return Hashtable(tuple(entries)) if known else UNKNOWN

    def _grouped(self, node: Node) -> PSValue:
        statements = node.named_children
        values = [self.walk(c) for c in statements]
        return values[0] if len(values) == 1 else UNKNOWN

    def _type_name(self, node: Node) -> str:
        written = self.text(node).strip()
        if written.startswith("[") and written.endswith("]"):
            written = written[1:-1]
        if written.endswith("[]"):
            return canonical_type(written[:-2]) + "[]"
        return canonical_type(written)

    def _unary(self, node: Node) -> PSValue:
        children = node.children
        if len(children) < 2:
            return self.fold(children[0]) if children else UNKNOWN
        operator = self.text(children[0]).lower()
        operand = self.fold(children[-1])
        if operator == "-join":
            parts = [as_text(v) for v in flatten(operand)]
            return UNKNOWN if any(p is None for p in parts) else "".join(p or "" for p in parts)
        if operator == ",":
            return (operand,)
        if operator == "-" and isinstance(operand, int | float) and not isinstance(operand, bool):
            return -operand
        if operator in ("-split", "-isplit", "-csplit") and isinstance(operand, str):
            return tuple(operand.split())
        return UNKNOWN

    def _cast(self, node: Node) -> PSValue:
        children = node.named_children
        if len(children) < 2:
            return UNKNOWN
        target = self._type_name(children[0])
        reads = self.env_reads
        value = self.fold(children[-1])
        return _convert(target, value, self, from_env=self.env_reads != reads)

    def _member(self, node: Node) -> PSValue:
        children = node.children
        if len(children) < 3:
            return UNKNOWN
        base = self.fold(children[0])
        member = self.text(children[-1]).lower()
        if isinstance(base, TypeRef) and base.name == "system.text.encoding" and member in ENCODINGS:
            return ObjectRef("encoding", member)
        if isinstance(base, ObjectRef) and base.kind == "engine":
            if member in ("invokecommand", "sessionstate"):
                return ObjectRef("engine", member if member == "invokecommand" else "executioncontext")
            if member == "invokeprovider" and base.name == "executioncontext":
                return ObjectRef("engine", "invokeprovider")
            if base.name == "invokeprovider" and member in _PROVIDER_AREAS:  # ps_calls.PROVIDER_CALLS (S-RULE-141)
                return ObjectRef("engine", "provider." + member)
        if base == PSREADLINE_OPTIONS and member == "historysavepath":
            return PSREADLINE_HISTORY
        if isinstance(base, str) and member == "length":
            return len(base)
        if isinstance(base, tuple) and member in ("length", "count"):
            return len(base)
        return UNKNOWN

    def _element(self, node: Node) -> PSValue:
        children = node.named_children
        if len(children) < 2:
            return UNKNOWN
        base = self.fold(children[0])
        index = self.fold(children[1])
        if isinstance(index, int) and not isinstance(index, bool) and isinstance(base, str | tuple):
            try:
                return base[index]
            except IndexError:
                return None
        return UNKNOWN

    def _binary(self, node: Node) -> PSValue:
        acc: PSValue = UNKNOWN
        operator = ""
        first = True
        for child in node.children:
            if not child.is_named or child.kind_id in _OPERATOR_NODES:
                operator = self.text(child).strip().lower()
                continue
            value = self.fold(child)
            if first:
                acc, first = value, False
            else:
                acc = ops.apply_operator(operator, acc, value) if operator in _COMPOUND_OPERATORS else UNKNOWN
        return acc

    def _invocation(self, node: Node) -> PSValue:
        children = node.children
        target = children[0] if children else None
        separator = children[1].type if len(children) > 1 else ""
        member = arg_node = None
        for child in children:  # the first of each, as `next(…)` finds it
            kind = child.kind_id
            if member is None and kind in _MEMBER_NAME:
                member = child
            elif arg_node is None and kind in _ARGUMENT_LIST:
                arg_node = child
        if target is None or member is None:
            return UNKNOWN
        return self.call_member(target, separator, member, arg_node, shown(self.text(node)))


_BINARY_KINDS = frozenset(
    {"logical_expression", "bitwise_expression", "comparison_expression", "additive_expression"}
    | {"multiplicative_expression", "format_expression", "range_expression"}
    | {"logical_argument_expression", "bitwise_argument_expression", "comparison_argument_expression"}
    | {"additive_argument_expression", "multiplicative_argument_expression", "format_argument_expression"}
    | {"range_argument_expression"}
)


_Fold: TypeAlias = Callable[[Folder, Node], PSValue]
# Node type → how it folds: a dict lookup instead of a chain of comparisons (a hot path).
_FOLDERS_BY_TYPE: dict[str, _Fold] = {
    "string_literal": Folder._string,
    "verbatim_string_characters": lambda f, n: verbatim(f.text(n)),
    "verbatim_here_string_characters": lambda f, n: here_body(f.text(n)),
    "expandable_string_literal": lambda f, n: f._expandable(n, here=False),
    "expandable_here_string_literal": lambda f, n: f._expandable(n, here=True),
    "integer_literal": lambda f, n: ops.integer(f.text(n)),
    "real_literal": lambda f, n: ops.real(f.text(n)),
    "variable": lambda f, n: f.lookup(f.text(n)),
    "braced_variable": lambda f, n: f.lookup(f.text(n)),
    "generic_token": lambda f, n: f.bareword(f.text(n)),
    "array_literal_expression": Folder._array_literal,
    "argument_list": Folder._argument_list,
    "array_expression": Folder._array_expression,
    "hash_literal_expression": Folder._hashtable,
    "parenthesized_expression": Folder._grouped,
    "sub_expression": Folder._grouped,
    "script_block_expression": Folder._script_block,
    "type_literal": lambda f, n: TypeRef(f._type_name(n)),
    "expression_with_unary_operator": Folder._unary,
    "cast_expression": Folder._cast,
    "member_access": Folder._member,
    "invokation_expression": Folder._invocation,
    "element_access": Folder._element,
    **dict.fromkeys(_BINARY_KINDS, Folder._binary),
    **dict.fromkeys(("pipeline", "pipeline_chain", "command", "assignment_expression"), lambda f, n: f.walk(n)),
}
# The same by kind id (`ps_tree.kind_ids`): no type string made per node.
_FOLDERS: dict[int, _Fold] = by_kind(_FOLDERS_BY_TYPE)
_VERBATIM = kind_id("verbatim_string_characters")
_EXPANDABLE = kind_id("expandable_string_literal")


def _literal(raw: bytes, here: bool) -> str:
    text = raw.decode("utf-8", "replace")
    if "$" not in text and "`" not in text and (here or '""' not in text):
        return text  # what `expand_text` returns for it (no variable, escape or doubled quote)
    return expand_text(text, _no_variable, doubled_quote=not here) or ""


def _no_variable(_name: str) -> str:
    return ""


# The areas of `$ExecutionContext.InvokeProvider` whose methods reach files and keys (S-RULE-141).
_PROVIDER_AREAS = frozenset({"item", "content", "property", "childitem", "securitydescriptor"})


def _convert(target: str, value: PSValue, folder: Folder, *, from_env: bool = False) -> PSValue:
    if target == "system.char":
        return ops.char(value)
    if target == "system.char[]":
        items = tuple(value) if isinstance(value, str) else flatten(value)
        chars = tuple(ops.char(v) for v in items)
        return chars if all(isinstance(c, str) for c in chars) else UNKNOWN
    if target == "system.string":
        text = as_text(value)
        return UNKNOWN if text is None else text
    if target == "system.string[]":
        texts = tuple(as_text(v) for v in flatten(value))
        return UNKNOWN if any(t is None for t in texts) else tuple(t or "" for t in texts)
    if target in ("system.int32", "system.int64", "system.byte"):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return ops.integer(value.strip()) if isinstance(value, str) else UNKNOWN
    if target == "system.management.automation.scriptblock":
        if isinstance(value, ScriptBlock):
            return value
        return folder.script_from_text(as_text(value), f"[scriptblock]{value!r}"[:_TEXT_SHOWN], from_env=from_env)
    if target in FILE_OBJECT_TYPES:  # `[IO.FileInfo]'C:\\x'`: an object for that path (S-RULE-133)
        return ObjectRef("dotnet", target, as_text(value))
    if target in KEPT_ACCELERATORS:
        text = as_text(value)
        return ObjectRef("dotnet", f"{target}:{text.lower()}") if text is not None else ObjectRef("dotnet", target)
    return UNKNOWN
