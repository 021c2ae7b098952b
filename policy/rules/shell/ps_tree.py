"""The PowerShell grammar and small helpers over its syntax tree (issue 18).

The tree-sitter grammar wraps every expression in a chain of precedence nodes
(`logical_expression > bitwise_expression > … > unary_expression`); `unwrap` (`skip_wrappers`)
skips such one-child wrappers, a long chain in one call into the grammar. `parse_text` parses a
text, through `ps_repair` where the grammar rejects valid PowerShell (or may misread a number
suffix), and returns the tree with its `Source`: node texts are
always read from the original text (`Source.text`), never from the repaired one, and by
slicing one string rather than asking each node for its bytes. `split_arguments` re-reads a
command's arguments from text where even the repair did not make the grammar accept it.

Threading: `PARSER` is one module-level `tree_sitter.Parser`, reused for speed. The gateway
calls policy from one event-loop thread; a caller that analyses from several threads must
give each thread its own parser (`new_parser()`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import tree_sitter_powershell
from tree_sitter import Language, Node, Parser, Tree

from policy.rules.shell.ps_repair import GLUED_QUOTE, HAS_NUMBER_SUFFIX, Repair, may_have_number_suffix, repair

_Value = TypeVar("_Value")

LANGUAGE = Language(tree_sitter_powershell.language())
PARSER = Parser(LANGUAGE)

# Precedence and grouping nodes that mean their only child.
WRAPPERS: frozenset[str] = frozenset(
    {"pipeline", "pipeline_chain", "logical_expression", "bitwise_expression", "comparison_expression"}
    | {"additive_expression", "multiplicative_expression", "format_expression", "range_expression"}
    | {"array_literal_expression", "unary_expression", "left_assignment_expression", "argument_expression"}
    | {"logical_argument_expression", "bitwise_argument_expression", "comparison_argument_expression"}
    | {"additive_argument_expression", "multiplicative_argument_expression", "format_argument_expression"}
    | {"range_argument_expression", "command_name_expr", "key_expression", "statement_list", "type_spec"}
    | {"argument_expression_list", "script_block_body", "named_block_list", "expression_with_unary_operator"}
)
# tree-sitter's kind id of an ERROR node (`ts_builtin_sym_error`, outside `node_kind_count`).
ERROR_ID = 0xFFFF


def kind_ids(*names: str) -> frozenset[int]:
    """Every kind id whose name is one of `names` (a name may have several ids; `ERROR` included).

    A node's `kind_id` is an int read without making a string: the walker compares kinds by id
    (a hot path), and `node.type` is the name of `node.kind_id`, so the two tests agree.
    """
    ids = {i for i in range(LANGUAGE.node_kind_count) if LANGUAGE.node_kind_for_id(i) in names}
    return frozenset(ids | ({ERROR_ID} if "ERROR" in names else set()))


def kind_id(name: str) -> int:
    """The kind id of `name` when the grammar has exactly one (raises LookupError at import otherwise).

    `node.kind_id == kind_id(name)` compares two ints; `node.kind_id in kind_ids(name)` hashes the
    id and, on a hit, compares it as an object (each read of `kind_id` makes a new int): a hot loop
    that mostly hits (`command_argument_sep` among a command's elements) tests with this one.
    """
    ids = kind_ids(name)
    if len(ids) != 1:
        raise LookupError(f"tree-sitter-powershell has {len(ids)} kind ids for {name!r}")
    (found,) = ids
    return found


def by_kind(table: dict[str, _Value]) -> dict[int, _Value]:
    """A table keyed by node type, keyed by kind id instead (see `kind_ids`)."""
    return {i: value for name, value in table.items() for i in kind_ids(name)}


def field_id(name: str) -> int:
    """The grammar's id of field `name` (raises LookupError at import if a grammar upgrade dropped it)."""
    found = LANGUAGE.field_id_for_name(name)
    if found is None:
        raise LookupError(f"tree-sitter-powershell has no field {name!r}")
    return found


WRAPPER_IDS: frozenset[int] = kind_ids(*WRAPPERS)
# Typographic quotes and dashes PowerShell accepts as ASCII ones; the grammar does not.
_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'"} | dict.fromkeys("\u201c\u201d\u201e", '"')
)
_DASH = re.compile(r"(?<=[\s(,;|{=])[\u2013\u2014\u2015](?=[A-Za-z])|^[\u2013\u2014\u2015](?=[A-Za-z])")
_SURROGATE = re.compile("[\ud800-\udfff]")


def new_parser() -> Parser:
    """A parser of its own (for a caller that analyses on several threads)."""
    return Parser(LANGUAGE)


def prepare_text(text: str) -> str:
    """`text` as PowerShell reads it: typographic quotes/dashes made ASCII, lone surrogates replaced."""
    if text.isascii():
        return text  # no typographic quote, dash or surrogate to fold (the common case, checked in C)
    text = text.translate(_QUOTES)
    if "\u2013" in text or "\u2014" in text or "\u2015" in text:
        text = _DASH.sub("-", text)
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    return text


def prepare(text: str) -> bytes:
    """`prepare_text(text)` as the UTF-8 bytes to parse."""
    return prepare_text(text).encode("utf-8")


@dataclass(frozen=True, slots=True)
class Source:
    """The text one tree was parsed from: node texts are read here, from the original.

    Attributes:
        original: the original text's UTF-8 bytes.
        ascii_text: the original as a string when it is ASCII (byte offsets are then string
            offsets, and slicing it is the cheapest way to read a node's text), else None.
        offsets: when the parsed text is a `ps_repair` rewrite of the original, the original
            byte offset of each parsed byte offset (index = parsed offset); empty otherwise.
        unrepaired_quotes: the text holds a quote and was parsed as it is, without trying the
            repair: a bareword with a quote in it may be a glued word (`parse_text`, `GluedWord`).
    """

    original: bytes
    ascii_text: str | None
    offsets: tuple[int, ...] = ()
    unrepaired_quotes: bool = False

    def span(self, start: int, end: int) -> str:
        """The original text between two parsed byte offsets (node boundaries)."""
        if self.offsets:
            start, end = self.offsets[start], self.offsets[end]
        if self.ascii_text is not None:
            return self.ascii_text[start:end]
        return self.original[start:end].decode("utf-8", "replace")

    def text(self, node: Node) -> str:
        """A node's original text (`span` inlined for the common case: a hot path)."""
        if not self.offsets and self.ascii_text is not None:
            return self.ascii_text[node.start_byte : node.end_byte]
        return self.span(node.start_byte, node.end_byte)

    def reader(self) -> Callable[[Node], str]:
        """`text` as one closure specialised to this source (the walker's hottest call)."""
        offsets, ascii_text, original = self.offsets, self.ascii_text, self.original
        if ascii_text is not None:
            if not offsets:
                return lambda node: ascii_text[node.start_byte : node.end_byte]
            return lambda node: ascii_text[offsets[node.start_byte] : offsets[node.end_byte]]
        if not offsets:
            return lambda node: original[node.start_byte : node.end_byte].decode("utf-8", "replace")
        return lambda node: original[offsets[node.start_byte] : offsets[node.end_byte]].decode("utf-8", "replace")


@dataclass(frozen=True, slots=True)
class Parsed:
    """One text parsed: the tree, where its node texts come from, and the grammar's complaint."""

    tree: Tree
    source: Source
    error: str | None  # None: the tree (of the original or of its repair) has no syntax error


def source_of(text: str) -> Source:
    """The `Source` of a text parsed as it is."""
    raw = text.encode("utf-8")
    return Source(raw, text if len(raw) == len(text) else None)


class GluedWord(Exception):  # noqa: N818 - a signal, not an error
    """A bareword with a quote in it was read from a tree parsed without trying the repair: the
    analysis starts again with `parse_text(…, glued=True)` (see `parse_text`)."""


def parse_text(text: str, *, glued: bool = False) -> Parsed:
    """Parse PowerShell text, through `ps_repair` where the grammar rejects valid PowerShell.

    The repaired text is used only when it parses without any error; otherwise the original's
    tree is returned with its error (the walker's text recovery then does what it can).

    Two misreadings come without an error, so the repair is tried before the tree is trusted: a
    number suffix (`$a = 1MB` parses as a command named `1MB`), always; and a quoted part with a
    blank inside a bareword (`C:\\x\\User" Data\\y"` parses as two words), only when `glued`.
    `GLUED_QUOTE` finds such a quote only as a superset: it cannot tell an opening quote from a
    closing one, so most texts with quotes match it, and the repair's pass costs about 0.1 ms on
    2 KB. Without `glued`, a text with a quote is parsed as it is and its `Source` says so
    (`unrepaired_quotes`); the walker raises `GluedWord` when it reads a bareword holding a quote
    from such a tree, the only place a glued word shows in it, and the analysis starts again with
    `glued` (`powershell._analyse`). Both ways reach the same tree; most scripts never pay for the pass.

    Args:
        text: the command text (any string).
        glued: try the repair first wherever `GLUED_QUOTE` finds a quote glued to a word.

    Returns:
        The tree, its `Source` and None, or the original's tree and a description of its error.
    """
    text = prepare_text(text)
    source = source_of(text)
    quotes = '"' in text or "'" in text
    repaired: Repair | None = None
    tried = False
    if (may_have_number_suffix(text) and HAS_NUMBER_SUFFIX.search(text)) or (
        glued and quotes and GLUED_QUOTE.search(text)
    ):
        repaired, tried = repair(text), True
        fixed = _parse_repaired(text, source, repaired)
        if fixed is not None:
            return fixed
    tree = PARSER.parse(_blanks(source.original))
    root = tree.root_node
    if not root.has_error:
        if quotes and not tried and not glued:
            source = Source(source.original, source.ascii_text, unrepaired_quotes=True)
        return Parsed(tree, source, None)
    if not tried:
        repaired = repair(text)
        fixed = _parse_repaired(text, source, repaired)
        if fixed is not None:
            return fixed
    error = first_error(root)
    where = " ".join(source.text(error).split())[:40] if error is not None else ""
    return Parsed(tree, source, f"PowerShell syntax error near {where!r}" if where else "PowerShell syntax error")


def _blanks(raw: bytes) -> bytes:
    """What the grammar is given: tabs as blanks. PowerShell separates words with either; the grammar takes a tab
    between a command's words for a syntax error (`Get-ChildItem<TAB>C:\\t`). One byte for one, so every offset
    stays, and node texts are read from the original (a tab inside a string stays a tab)."""
    return raw.replace(b"\t", b" ") if b"\t" in raw else raw


def _parse_repaired(text: str, source: Source, repaired: Repair | None) -> Parsed | None:
    if repaired is None:
        return None
    raw = repaired.text.encode("utf-8")
    tree = PARSER.parse(_blanks(raw))
    if tree.root_node.has_error:
        return None
    if source.ascii_text is not None and len(raw) == len(repaired.text):
        anchors = repaired.anchors
    else:
        anchors = _byte_anchors(text, repaired)
    return Parsed(tree, Source(source.original, source.ascii_text, _offset_table(len(raw), anchors)), None)


# The offsets 0..8192 as int objects made once: a table is a few long runs of consecutive offsets,
# and a slice of this tuple copies references where `range` makes an int object per offset (~35 µs
# for a 2 KB text). A run past its end (a text over 8 KB) is made from a `range`, as before.
_OFFSETS = tuple(range(8193))


def _offset_table(length: int, anchors: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Parsed offset → original offset for 0..length: one lookup per node text, no search.

    No anchors (only same-length edits, nothing moved): every offset maps to itself, which an
    empty table (`Source.offsets`) says without the table.
    """
    if not anchors:
        return ()
    table: list[int] = []
    at, original = 0, 0
    for parsed, mapped in (*anchors, (length + 1, 0)):
        end = original + parsed - at
        table += _OFFSETS[original:end] if end <= len(_OFFSETS) else range(original, end)
        at, original = parsed, mapped
    return tuple(table)


def _byte_anchors(text: str, repaired: Repair) -> tuple[tuple[int, int], ...]:
    """Code-point anchors as byte anchors (both offsets ascend, so each stretch is encoded once)."""
    out: list[tuple[int, int]] = []
    parsed_cp = parsed_b = original_cp = original_b = 0
    for parsed, original in repaired.anchors:
        parsed_b += len(repaired.text[parsed_cp:parsed].encode("utf-8"))
        original_b += len(text[original_cp:original].encode("utf-8"))
        parsed_cp, original_cp = parsed, original
        out.append((parsed_b, original_b))
    return tuple(out)


def text_of(node: Node) -> str:
    """A node's source text (never raises on a node that splits a UTF-8 sequence)."""
    raw = node.text or b""
    return raw.decode("utf-8", "replace")


# The kinds `named_descendant_for_byte_range` may reach below the node `unwrap` stops at: the only
# child of a non-wrapper with the same bytes (`string_literal` → `verbatim_string_characters`,
# `integer_literal` → `decimal_integer_literal`, `command` → `command_name`, `variable` →
# `braced_variable`, `type_name` → `type_identifier`, `path_command_name` → its token). A `variable`
# is such a child only under `path_command_name`, which no chain below a statement or expression
# wrapper holds (it is the child of `command_name_expr`, whose parent is a `command`).
_BELOW_STOP: frozenset[int] = kind_ids(
    "verbatim_string_characters", "expandable_string_literal", "verbatim_here_string_characters",
    "expandable_here_string_literal", "decimal_integer_literal", "hexadecimal_integer_literal",
    "command_name", "braced_variable", "type_identifier", "path_command_name_token",
)  # fmt: skip


def skip_wrappers(node: Node) -> Node:
    """`unwrap(node)` for a node whose kind is a wrapper, with a long chain crossed in one step.

    An expression statement sits under ten one-child wrappers (`pipeline > pipeline_chain >
    logical_expression > … > unary_expression`): past the second, the chain's end is found by
    `named_descendant_for_byte_range` (each wrapper spans exactly its one child's bytes, so the
    deepest named node with the chain's bytes is its end) unless that end is a kind in
    `_BELOW_STOP` or the tree is broken there; then, and for the short chains, child by child.
    """
    if node.child_count != 1:
        return node
    node = node.child(0)  # (not `children[0]`: no list made for the one child)
    if node.kind_id not in WRAPPER_IDS:
        return node
    if node.child_count != 1:
        return node
    node = node.child(0)
    kind = node.kind_id
    if kind not in WRAPPER_IDS:
        return node
    if not node.has_error:
        deepest = node.named_descendant_for_byte_range(node.start_byte, node.end_byte)
        if deepest is not None:
            kind = deepest.kind_id
            if kind not in _BELOW_STOP:
                # Mostly the chain's end itself; a wrapper here has more than one child (`1 + 2`).
                return deepest if kind not in WRAPPER_IDS else _finish(deepest, kind)
            parent = deepest.parent
            if parent is not None:
                # The non-wrapper whose only child `deepest` is (`string_literal`, …) ends the chain;
                # a wrapper parent (`command_name_expr` > `command_name`) means `deepest` does.
                return deepest if parent.kind_id in WRAPPER_IDS else parent
            kind = node.kind_id
    return _finish(node, kind)


def _finish(node: Node, kind: int) -> Node:
    """The rest of a chain of one-child wrappers, child by child."""
    while kind in WRAPPER_IDS:
        if node.child_count != 1:
            break
        node = node.child(0)
        kind = node.kind_id
    return node


def unwrap(node: Node) -> Node:
    """The node a chain of one-child wrappers stands for."""
    return skip_wrappers(node) if node.kind_id in WRAPPER_IDS else node


def first_error(root: Node) -> Node | None:
    """The first ERROR or MISSING node under `root` (iterative: deep trees are fine)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            return node
        if node.has_error:
            stack.extend(reversed(node.children))
    return None


# Where code assigns a variable: `$x =`, `$a, $b =`, `$x +=`, `$x++`, `++$x`, `foreach ($x in`.
# Read from text, not the tree: a superset is safe (more variables treated as unknown) and a
# regex pass is far cheaper than walking every node of a loop body.
_VAR = r"\$(?:\{[^}]*\}|[\w:?]+)"
_ASSIGNED = re.compile(
    rf"({_VAR}(?:\s*,\s*{_VAR})*)\s*(?:[-+*/%?]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*({_VAR})|foreach\s*\(\s*({_VAR})",
    re.IGNORECASE,
)
_ONE_VAR = re.compile(_VAR)


def assigned_variables(text: str) -> set[str]:
    """Lower-case names of the variables assigned anywhere in `text` (a superset; see `_ASSIGNED`)."""
    if "=" not in text and "++" not in text and "--" not in text and "foreach" not in text.lower():
        return set()
    names: set[str] = set()
    for match in _ASSIGNED.finditer(text):
        for group in match.groups():
            if group:
                names.update(variable_key(v) for v in _ONE_VAR.findall(group))
    return names


@functools.lru_cache(maxsize=4096)
def variable_key(written: str) -> str:
    """The lookup key of a variable as written (`$Script:X`, `${x}`, `@p`) → `x`; `env:` kept (cached: a hot path)."""
    name = written.lstrip("$@")
    if name.startswith("{") and name.endswith("}"):
        name = name[1:-1]
    name = name.lower()
    scope, sep, rest = name.partition(":")
    if sep and scope in ("script", "global", "local", "private", "using"):
        return rest
    return name


_OPENERS = {"(": ")", "{": "}", "[": "]"}


def split_arguments(text: str) -> tuple[list[tuple[str, bool]], int]:
    """Split a command's text into argument words as PowerShell's argument mode does, roughly.

    Args:
        text: the command text (name first).

    Returns:
        The words, each with whether a comma joined it to the word before (an array), and the
        offset where the statement ended (an unquoted `;`, `|` or newline outside brackets).
    """
    words: list[tuple[str, bool]] = []
    current: list[str] = []
    joined = False
    depth: list[str] = []
    quote = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            current.append(ch)
            if ch == "`" and quote == '"' and i + 1 < len(text):
                current.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            current.append(ch)
        elif ch == "`" and i + 1 < len(text):
            current.append(ch + text[i + 1])
            i += 1
        elif ch in _OPENERS:
            depth.append(_OPENERS[ch])
            current.append(ch)
        elif depth and ch == depth[-1]:
            depth.pop()
            current.append(ch)
        elif depth:
            current.append(ch)
        elif ch in ";|\n":
            break
        elif ch == "," or ch.isspace():
            if current:
                words.append(("".join(current), joined))
                current = []
                joined = False
            if ch == ",":
                joined = True
        else:
            current.append(ch)
        i += 1
    if current:
        words.append(("".join(current), joined))
    return words, i
