"""Constant folding of PowerShell expressions on the syntax tree (issue 18).

`Folder.fold(node)` returns what an expression evaluates to when that is certain (strings,
numbers, arrays, hashtables, script blocks, objects the script created) and `UNKNOWN`
otherwise. Folding also reports what an expression *does*: a `[IO.File]::Delete(…)` or a
COM method call becomes an operation, a command inside `(…)`/`$(…)` is walked. The
statement walker (`powershell.py`) subclasses `Folder` and supplies the four hooks at the end.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from typing import TypeAlias

from tree_sitter import Node

from policy.rules.shell import ps_operators as ops
from policy.rules.shell.ops import Analysis, Operation, Value
from policy.rules.shell.ps_names import (
    COMMAND_LINE_METHODS,
    DANGEROUS_METHODS,
    ENCODINGS,
    KEPT_ACCELERATORS,
    PURE_STATIC_TYPES,
    canonical_type,
    program_name,
)
from policy.rules.shell.ps_text import expand_text, here_body, split_program, verbatim
from policy.rules.shell.ps_tree import WRAPPER_IDS, Source, by_kind, source_of, unwrap, variable_key
from policy.rules.shell.ps_values import (
    UNKNOWN,
    CommandRef,
    Hashtable,
    ObjectRef,
    PSValue,
    ScriptBlock,
    TypeRef,
    as_text,
    as_value,
    flatten,
)

Nested: TypeAlias = Callable[[str, tuple[Value, ...], int], Analysis]

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
_WILDCARD = re.compile(r"[*?\[]")


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
        self._op_keys: set[Operation] = set()
        self.dynamic: list[str] = []
        self.failed: str | None = None
        self.level = 0
        self.rewalks = 0
        # How many times an environment variable (or `$HOME`) was read: its value is kept as its
        # spelling (`$env:TEMP`) for places.py, so text run as code compares this count before and
        # after folding to know the code holds a value nobody can read here (`iex $env:X`).
        self.env_reads = 0
        self._source: Source = source_of("")
        self.text: Callable[[Node], str] = self._source.reader()  # a node's text, as written in the original

    @property
    def source(self) -> Source:
        """The text of the tree being walked (set per tree; `text` reads node texts from it)."""
        return self._source

    @source.setter
    def source(self, source: Source) -> None:
        self._source = source
        self.text = source.reader()

    # -- results ------------------------------------------------------------------------

    def emit(self, op: Operation) -> None:
        """Record one operation (duplicates from re-walked blocks are dropped)."""
        keys = self._op_keys
        known = len(keys)
        keys.add(op)  # one hash of the operation (a membership test first would hash it twice)
        if len(keys) == known:
            return
        if len(self.ops) >= MAX_OPERATIONS:
            keys.discard(op)
            self.fail("too many commands")
            return
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
        result = self.nested(program, argv, self.depth + 1)
        for op in result.operations:
            self.emit(op)
        for sentence in result.dynamic:
            self.note_dynamic(sentence)
        if result.failed is not None:
            self.fail(f"{program}: {result.failed}")

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

    # -- variables ----------------------------------------------------------------------

    def lookup(self, written: str) -> PSValue:
        """The value of a variable as written (`$x`, `${env:P}`, `$script:x`)."""
        key = variable_key(written)
        if key.startswith("env:"):
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
        while kind in WRAPPER_IDS:  # `unwrap`, inlined: the hottest loop of the analyser
            children = node.children
            if len(children) != 1:
                break
            node = children[0]
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
        return self._fold(inner[0]) if inner else verbatim(self.text(node))

    def _script_block(self, node: Node) -> PSValue:
        self.defer_block(node)
        return ScriptBlock(node=node, origin=self.source)

    def _array_literal(self, node: Node) -> PSValue:
        return tuple(self.fold(c) for c in node.named_children)

    def bareword(self, text: str) -> PSValue:
        """An unquoted argument or command word: escapes and `$var` references expanded."""
        if "$" not in text and "`" not in text:
            return text  # what `expand_text` returns for it, without the calls (a hot path)
        value = expand_text(text, self.lookup_text, doubled_quote=False)
        return UNKNOWN if value is None else value

    def _expandable(self, node: Node, *, here: bool) -> PSValue:
        raw = node.text or b""
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
        parts: list[str] = []
        pos = lo
        known = True
        for child in node.named_children:
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
            if child.type == "hash_literal_body":
                stack[:0] = child.named_children
                continue
            if child.type != "hash_entry":
                continue
            parts = child.named_children
            if len(parts) < 2:
                continue
            key = (
                as_text(self.fold(parts[0])) if unwrap(parts[0]).type != "simple_name" else self.text(unwrap(parts[0]))
            )
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
        if isinstance(base, ObjectRef) and base.kind == "engine" and member in ("invokecommand", "sessionstate"):
            return ObjectRef("engine", member if member == "invokecommand" else "executioncontext")
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
            if not child.is_named or child.type in ("comparison_operator", "format_operator"):
                operator = self.text(child).strip().lower()
                continue
            value = self.fold(child)
            if first:
                acc, first = value, False
            else:
                acc = ops.apply_operator(operator, acc, value) if operator in _COMPOUND_OPERATORS else UNKNOWN
        return acc

    # -- method calls -------------------------------------------------------------------

    def _arguments(self, node: Node | None) -> list[PSValue]:
        if node is None:
            return []
        values: list[PSValue] = []
        stack = list(node.named_children)
        while stack:
            child = stack.pop(0)
            if child.type == "argument_expression_list" and child.child_count > 1:
                stack[:0] = child.named_children
                continue
            values.append(self.fold(child))
        return values

    def _invocation(self, node: Node) -> PSValue:
        children = node.children
        target = children[0] if children else None
        separator = children[1].type if len(children) > 1 else ""
        member = next((c for c in children if c.type == "member_name"), None)
        arg_node = next((c for c in children if c.type == "argument_list"), None)
        if target is None or member is None:
            return UNKNOWN
        return self.call_member(target, separator, member, arg_node, shown(self.text(node)))

    def call_member(self, target: Node, separator: str, member: Node, arg_node: Node | None, text: str) -> PSValue:
        """A method call `target.member(args)` or `[Type]::member(args)`: folded, or reported as an operation."""
        method_text = self.text(member)
        static = separator == "::"
        base: PSValue = TypeRef(self._type_name(target)) if target.type == "type_literal" else self.fold(target)
        reads = self.env_reads
        args = self._arguments(arg_node)
        from_env = self.env_reads != reads
        if not method_text.replace("_", "a").isalnum():
            method = self.text(member)
            if isinstance(base, ObjectRef | TypeRef) or method.startswith("$"):
                self.note_dynamic(f"'{text}' calls a method whose name is not constant")
            return UNKNOWN
        method = method_text.lower()
        if static and isinstance(base, TypeRef):
            return self._static_call(base.name, method, args, text, from_env)
        return self._instance_call(base, method, args, text, from_env)

    def _static_call(  # noqa: PLR0911
        self, type_name: str, method: str, args: list[PSValue], text: str, from_env: bool = False
    ) -> PSValue:
        texts = [as_text(a) for a in args]
        if type_name == "system.string":
            return ops.string_static(method, args)
        if type_name == "system.convert" and method == "frombase64string":
            # Reported although pure: decoded text that runs hides what runs (the `encoded-command` rule).
            self._emit_call("system.convert::frombase64string", (texts[0] if texts else None,), text)
            if not texts or texts[0] is None:
                return UNKNOWN
            try:
                return base64.b64decode("".join(texts[0].split()), validate=True)
            except (binascii.Error, ValueError):
                return UNKNOWN
        if type_name == "system.char" and method == "convertfromutf32" and args and isinstance(args[0], int):
            return ops.char(args[0])
        if type_name == "system.management.automation.scriptblock" and method == "create":
            source = texts[0] if texts else None
            if source is None or from_env:
                # Code made at run time: reported so a download before it reads as download-and-run.
                self._emit_call("system.management.automation.scriptblock::create", (None,), text)
            return self.script_from_text(source, text, from_env=from_env)
        if type_name in PURE_STATIC_TYPES:
            return UNKNOWN
        self.emit(
            Operation(
                shell="dotnet",
                name=f"{type_name}::{method}",
                args=tuple(as_value(a) for a in args),
                text=text,
                depth=self.depth,
            )
        )
        if type_name == "system.diagnostics.process" and method == "start":
            self._start_program(texts[0] if texts else None, tuple(texts[1:2]), text)
        return UNKNOWN

    def _emit_call(self, name: str, args: tuple[Value, ...], text: str) -> None:
        self.emit(Operation(shell="dotnet", name=name, args=args, text=text, depth=self.depth))

    def script_from_text(self, source: str | None, text: str, *, from_env: bool = False) -> PSValue:
        """A script block made from text: analysed now when constant, dynamic otherwise.

        Args:
            source: the text, or None when it is not constant.
            text: the making expression, for the dynamic sentence.
            from_env: the text holds an environment variable's value (see `env_reads`): what
                runs is not known, although its spelling is.

        Returns:
            The script block (its source analysed at the next depth), or UNKNOWN.
        """
        if source is None:
            self.note_dynamic(f"'{text}' makes a script block from text that is not constant")
            return UNKNOWN
        if from_env:
            self.note_dynamic(f"'{text}' makes a script block from text read from an environment variable")
        self.analyse_text(source)
        return ScriptBlock(source=source)

    def _start_program(self, file: str | None, argv: tuple[Value, ...], text: str) -> None:
        if file is None:
            self.note_dynamic(f"'{text}' starts a program whose name is not constant")
            return
        self.call_nested(program_name(file), argv)

    def _instance_call(  # noqa: C901, PLR0911
        self, base: PSValue, method: str, args: list[PSValue], text: str, from_env: bool = False
    ) -> PSValue:
        texts = [as_text(a) for a in args]
        if isinstance(base, str):
            return ops.string_method(base, method, args)
        if isinstance(base, ScriptBlock):
            if method in ("invoke", "invokereturnasis"):
                self.run_block(base)
            return UNKNOWN
        if isinstance(base, ObjectRef):
            if base.kind == "encoding":
                if method == "getstring" and args and isinstance(args[0], bytes):
                    return args[0].decode(ENCODINGS[base.name], "replace")
                return UNKNOWN
            if base.kind == "engine":
                return self._engine_call(method, texts, text, from_env)
            prefix = "com:" if base.kind == "com" else ""
            self.emit(
                Operation(
                    shell="com" if base.kind == "com" else "dotnet",
                    name=f"{prefix}{base.name}.{method}",
                    args=tuple(as_value(a) for a in args),
                    text=text,
                    depth=self.depth,
                )
            )
            if method in COMMAND_LINE_METHODS and (base.kind == "com" or base.name.endswith("win32_process")):
                self._run_command_line(texts[0] if texts else None, text)
            elif method == "shellexecute":
                self._start_program(texts[0] if texts else None, tuple(t for t in texts[1:2] if t), text)
            return UNKNOWN
        if isinstance(base, TypeRef):
            return self._static_call(base.name, method, args, text, from_env)
        if method in DANGEROUS_METHODS:
            self.emit(
                Operation(
                    shell="dotnet",
                    name="?." + method,
                    args=tuple(as_value(a) for a in args),
                    text=text,
                    depth=self.depth,
                )
            )
        return UNKNOWN

    def _run_command_line(self, command_line: str | None, text: str) -> None:
        if command_line is None:
            self.note_dynamic(f"'{text}' runs a command line that is not constant")
            return
        program, rest = split_program(command_line)
        self.call_nested(program_name(program), (rest,) if rest else ())

    def _engine_call(self, method: str, texts: list[str | None], text: str, from_env: bool) -> PSValue:
        if method in ("invokescript", "newscriptblock"):
            return self.script_from_text(texts[0] if texts else None, text, from_env=from_env)
        if method in ("getcommand", "getcmdlet", "getcommandname"):
            name = texts[0] if texts else None
            if name is None or _WILDCARD.search(name):
                return CommandRef(None, name or "")
            return CommandRef(name)
        self.note_dynamic(f"'{text}' reaches the PowerShell engine directly")
        return UNKNOWN


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


def _literal(raw: bytes, here: bool) -> str:
    text = raw.decode("utf-8", "replace")
    return expand_text(text, lambda _name: "", doubled_quote=not here) or ""


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
    if target in KEPT_ACCELERATORS:
        text = as_text(value)
        return ObjectRef("dotnet", f"{target}:{text.lower()}") if text is not None else ObjectRef("dotnet", target)
    return UNKNOWN
