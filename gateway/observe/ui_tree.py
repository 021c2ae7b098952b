"""The `UI Tree:` section of a Snapshot (FORMATS §5.1–§5.2; S-OBS-05 … S-OBS-10, S-OBS-30 … S-OBS-32).

Each tree line is a prefix of `│   `/`    ` units (one per depth), a connector (`├── `,
or `└── ` for a parent's last child) and a node: an element `(x,y) CTRL "name"  [action:
…]` with optional meta brackets in their documented order, or a window, structural or
text line `CTRL "name"`. `parse_tree` never raises: a line it does not understand is
reported to the caller's warnings (S-OBS-10), never guessed. `No elements` is a sentinel
and ends the tree (S-OBS-07); a truncation note records the capture limit (S-OBS-08).

Speed and memory (S-OBS-30, S-OBS-31): the section is read in place, one pattern match
per line over the prose itself, so no list of lines is built; a line the fast reading does
not cover is read by the grammar in `gateway/observe/_tree_line.py` (which explains why
both readings agree). Repeated controls and actions share one string per parse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from gateway.observe._tree_line import (
    NO_FLAGS,
    NOT_FAST,
    PLAIN,
    Node,
    Split,
    kind_of,
    line_pattern,
    make_element,
    read_node,
    split_meta,
    split_prefix,
)
from policy.observation import Element, TreeState


class Warnings(Protocol):
    """Where the tree parser reports what it did not understand (`observe` keeps them bounded)."""

    def add(self, msg: str) -> None: ...

    def line(self, index: int, what: str, line: str) -> None: ...


_NOTE = "... [truncated:"
_TRUNCATED = re.compile(r"reached the (\d+)-element capture limit")
_MAX_JOIN = 8  # a UIA name with line breaks spans a few physical lines at most
_MAX_TAILS = 256  # bracket tails remembered per tree: the repeated ones show up early (S-OBS-31)


@dataclass(frozen=True, slots=True)
class TreeResult:
    """The parsed tree: its elements, its state, and the capture limit when it was cut off."""

    elements: tuple[Element, ...]
    state: TreeState
    truncated: bool
    limit: int | None


@dataclass(slots=True)
class _Body:
    """The tree lines between the header and the truncation note, as offsets into the prose."""

    text: str
    end: int  # offset where the last body line ends
    indent: int
    pattern: re.Pattern[str]

    def line_at(self, m: re.Match[str]) -> str:
        """The line a match covers, without its margin (FORMATS §5.6)."""
        return self.text[m.start(1) : m.end()] if m[11] is None else m[11]

    def following(self, pos: int) -> Iterator[tuple[int, str]]:
        """`(lines advanced, line)` for each non-blank line starting at or after offset `pos`."""
        margin = " " * self.indent
        seen = 0
        while pos <= self.end:
            nl = self.text.find("\n", pos, self.end)
            raw = self.text[pos : nl if nl >= 0 else self.end]
            pos = nl + 1 if nl >= 0 else self.end + 1
            seen += 1
            line = raw[self.indent :] if raw.startswith(margin) else raw
            if line.strip():
                yield seen, line


def parse_tree(text: str, start: int, first: int, indent: int, w: Warnings) -> TreeResult:
    """The `UI Tree:` section from offset `start` of `text` to its end (S-OBS-05…08); never raises.

    Args:
        text: the whole prose; lines end with `\\n` (a trailing `\\r` already removed).
        start: the offset of the first line after the `UI Tree:` header.
        first: that line's index, for the warnings.
        indent: the header's indent; it is removed from each tree line (FORMATS §5.6).
        w: where lines not understood are reported.
    Returns:
        The elements in tree order, the tree state (`present`, `empty`, `no_elements`,
        `absent`) and whether (and at which element limit) upstream truncated it.
    """
    end, truncated, limit = _truncation(text, start, first, w)
    if indent and not truncated:
        w.add("the UI Tree section is indented but carries no truncation note")
    body = _Body(text, end, indent, line_pattern(indent))
    rows = body.pattern.finditer(text, start, max(start, end))
    index = first - 1
    for m in rows:
        index += 1
        root = body.line_at(m)
        if root.strip():
            break
    else:
        w.add("the UI Tree section is empty")
        return TreeResult((), "absent", truncated, limit)
    if root.strip() == "No elements":
        for m in rows:  # the sentinel ends the tree: nothing after it is an element (S-OBS-07)
            index += 1
            if (ln := body.line_at(m)).strip():
                w.line(index, "line after 'No elements' ignored", ln)
        return TreeResult((), "no_elements", truncated, limit)
    if root.strip() == "desktop":
        elements, present = _tree_lines(body, rows, index, None, w)
    else:
        w.line(index, "the UI Tree does not start with 'desktop'", root)
        elements, present = _tree_lines(body, rows, index - 1, m, w)
    return TreeResult(elements, "present" if present else "empty", truncated, limit)


def _truncation(text: str, start: int, first: int, w: Warnings) -> tuple[int, bool, int | None]:
    """Where the tree body ends, and the truncation note's limit: the first line whose
    stripped text starts with `... [truncated:`; every non-blank line after it is reported."""
    pos = start
    while (at := text.find(_NOTE, pos)) >= 0:
        ls = text.rfind("\n", 0, at) + 1
        if ls == at or text[ls:at].isspace():
            break
        pos = at + 1
    else:
        return len(text), False, None
    nl = text.find("\n", ls)
    note = text[ls:] if nl < 0 else text[ls:nl]
    index = first + text.count("\n", start, ls)
    m = _TRUNCATED.search(note)
    if m is None:
        w.line(index, "truncation note without an element limit", note)
    if nl >= 0:
        for k, line in enumerate(_lines_from(text, nl + 1), start=index + 1):
            if line.strip():
                w.line(k, "line after the truncation note", line)
    return ls - 1, True, int(m[1]) if m else None


def _lines_from(text: str, pos: int) -> Iterator[str]:
    """The lines of `text` from offset `pos`, one at a time (no list of them is built, S-OBS-31)."""
    while (nl := text.find("\n", pos)) >= 0:
        yield text[pos:nl]
        pos = nl + 1
    yield text[pos:]


def _tree_lines(
    body: _Body, rows: Iterator[re.Match[str]], index: int, pending: re.Match[str] | None, w: Warnings
) -> tuple[tuple[Element, ...], bool]:
    """Elements of the body lines `rows` (after `pending`, a first line already taken), in order;
    also whether any is not a window."""
    out: list[Element] = []
    append = out.append
    make = make_element
    shared: dict[str, str] = {}  # one string per distinct control and action (S-OBS-31)
    share = shared.setdefault
    tails: dict[str, Split] = {"": PLAIN}  # bracket tails repeat (`[v:0.0%]`, `[toggle:off]` …)
    tail_of = tails.get
    prefixes = [""]  # prefixes[d]: the exact prefix a line at depth d must carry
    prev_depth, prev_last = -1, None  # the previous line, when it left `prefixes` as it should be
    top_window: str | None = None  # the current depth-0 line's name when it is a window
    present = False
    numbered = enumerate(rows if pending is None else _chain(pending, rows), index + 1)
    for index, m in numbered:
        p, last, x, y, control, name, action, tail, s_control, s_name, _ = m.groups()
        if x is not None and (split := tail_of(tail) or _split(tails, tail)) is not NOT_FAST:
            # an element line `(x,y) CTRL "NAME"  [action: A]…` (S-OBS-05, S-OBS-06)
            kind, point = "element", (int(x), int(y))
            flags, meta = split
            control, action = share(control, control), share(action, action)
            depth, present = len(p) >> 2, True
        elif s_control is not None:  # a window, structural or text line
            kind, point, action, flags, meta = kind_of(s_control), None, None, NO_FLAGS, ()
            control, name, depth = share(s_control, s_control), s_name, len(p) >> 2
            present = present or kind != "window"
        else:  # a line the fast reading does not cover: the grammar decides (S-OBS-10)
            line = body.line_at(m)
            if not line.strip():
                continue
            slow = _slow(body, m, line, index, w)
            if slow is None:
                continue
            (kind, control, name, point, action, flags, meta, _), depth, closes, used = slow
            p, last, present = line[: 4 * depth], "└── " if closes else None, present or kind != "window"
            for _ in range(used):  # the lines a name spanning lines took
                next(numbered, None)
        if depth != prev_depth or last != prev_last or p != prefixes[depth]:  # not a plain sibling
            prev_depth, prev_last = depth, last
            if depth >= len(prefixes):
                w.line(index, "tree nesting jumps a level", body.line_at(m))
                prev_depth = -1
            elif p != prefixes[depth]:
                w.line(index, "tree prefix does not match its parents", body.line_at(m))
                prev_depth = -1
            del prefixes[depth + 1 :]
            prefixes.append(p + ("│   " if last is None else "    "))  # `└── ` closes its parent's children
        if depth:
            window = top_window
        else:
            window = top_window = name if kind == "window" else None
        append(make(kind, control, name, point, action, flags, meta, depth, window))
    return tuple(out), present


def _split(tails: dict[str, Split], tail: str) -> Split:
    split = split_meta(tail) or NOT_FAST
    if len(tails) < _MAX_TAILS:  # distinct values make distinct tails: remember only the first few
        tails[tail] = split
    return split


def _chain(first: re.Match[str], rest: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    yield first
    yield from rest


def _slow(body: _Body, m: re.Match[str], line: str, index: int, w: Warnings) -> tuple[Node, int, bool, int] | None:
    """Read one line by the grammar (FORMATS §5.1): `(node, depth, last, lines consumed after it)`."""
    split = split_prefix(line)
    if split is None:
        w.line(index, "tree line not understood", line)
        return None
    depth, last, rest = split
    node, used = read_node(rest), 0
    if node is None:
        node, used, spanned = _joined(body, m.end() + 1, rest)
        if node is None:
            w.line(index, "tree node not understood", line)
            return None
        w.line(index, f"element name spans {spanned} lines; joined them", line)
    if node[7]:
        w.line(index, "meta brackets outside the documented grammar", line)
    return node, depth, last, used


def _joined(body: _Body, pos: int, rest: str) -> tuple[Node | None, int, int]:
    """Retry a failed node with the following non-tree lines: a UIA name may hold line breaks (§5.1).

    Returns `(node, physical lines consumed after the first, non-blank lines joined in all)`."""
    joined = rest
    for extra, (advanced, line) in enumerate(body.following(pos), start=1):
        if extra > _MAX_JOIN or split_prefix(line) is not None:
            break
        joined += "\n" + line
        node = read_node(joined)
        if node is not None:
            return node, advanced, extra + 1
    return None, 0, 1
