"""The `UI Tree:` section of a Snapshot (FORMATS §5.1–§5.2; S-OBS-05 … S-OBS-10).

Each tree line is a prefix of `│   `/`    ` units (one per depth), a connector (`├── `,
or `└── ` for a parent's last child) and a node: an element `(x,y) CTRL "name"  [action:
…]` with optional meta brackets in their documented order, or a window, structural or
text line `CTRL "name"`. `parse_tree` never raises: a line it does not understand is
reported to the caller's warnings (S-OBS-10), never guessed. `No elements` is a sentinel
and ends the tree (S-OBS-07); a truncation note records the capture limit (S-OBS-08).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from policy.observation import Element, Point, TreeState


class Warnings(Protocol):
    """Where the tree parser reports what it did not understand (`observe` keeps them bounded)."""

    def add(self, msg: str) -> None: ...

    def line(self, index: int, what: str, line: str) -> None: ...


_UNITS = ("│   ", "    ")
_CONNECTORS = {"├── ": False, "└── ": True}  # value: the connector closes its parent's children
_COORDS = re.compile(r"\((-?\d+),(-?\d+)\) ")
_ACTION = '"  [action: '
_NUM = r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[+-]?\d+)?)"
# The brackets of §5.2 in their fixed order. `value` and `shortcut` may contain `]`, `"` and
# two spaces, so they are greedy and the rest of the line decides where they end.
_TAIL = re.compile(
    r"\[action: (?P<action>[^\]]*)\]"
    r"(?P<focused>  \[focused\])?"
    r"(?P<password>  \[password\])?"
    r'(?:  \[value:"(?P<value>.*)"\])?'
    rf"(?:  \[range:(?P<range>{_NUM}-{_NUM})\])?"
    r"(?:  \[toggle:(?P<toggle>[^\]]*)\])?"
    r"(?:  \[state:(?P<state>[^\]]*)\])?"
    r"(?:  \[shortcut:(?P<shortcut>.*)\])?"
    rf"(?:  \[v:(?P<v>{_NUM})%\])?"
    rf"(?:  \[h:(?P<h>{_NUM})%\])?",
    re.DOTALL,
)
_META_KEYS = ("value", "range", "toggle", "state", "shortcut", "v", "h")
_FLAG_SETS = {
    (False, False): frozenset(),
    (True, False): frozenset({"focused"}),
    (False, True): frozenset({"password"}),
    (True, True): frozenset({"focused", "password"}),
}
_NO_FLAGS: frozenset[str] = frozenset()
_TRUNCATED = re.compile(r"reached the (\d+)-element capture limit")
_MAX_JOIN = 8  # a UIA name with line breaks spans a few physical lines at most

_Node = tuple[str, str, str, Point | None, str | None, frozenset[str], tuple[tuple[str, str], ...], bool]


@dataclass(frozen=True, slots=True)
class TreeResult:
    """The parsed tree: its elements, its state, and the capture limit when it was cut off."""

    elements: tuple[Element, ...]
    state: TreeState
    truncated: bool
    limit: int | None


def parse_tree(lines: list[str], start: int, w: Warnings) -> TreeResult:
    """The `UI Tree:` section from `lines[start]` to the end (S-OBS-05…08); never raises.

    Args:
        lines: the whole prose, split into lines (not stripped).
        start: the index of the `UI Tree:` header line; its indent is removed from each
            tree line (FORMATS §5.6).
        w: where lines not understood are reported.
    Returns:
        The elements in tree order, the tree state (`present`, `empty`, `no_elements`,
        `absent`) and whether (and at which element limit) upstream truncated it.
    """
    header = lines[start]
    indent = len(header) - len(header.lstrip(" "))
    margin = " " * indent
    body: list[tuple[int, str]] = []
    truncated, limit = False, None
    for i in range(start + 1, len(lines)):
        raw = lines[i]
        if raw.lstrip().startswith("... [truncated:"):
            truncated = True
            m = _TRUNCATED.search(raw)
            limit = int(m[1]) if m else None
            if m is None:
                w.line(i, "truncation note without an element limit", raw)
            for j in range(i + 1, len(lines)):
                if lines[j].strip():
                    w.line(j, "line after the truncation note", lines[j])
            break
        body.append((i, raw[indent:] if raw.startswith(margin) else raw))
    if indent and not truncated:
        w.add("the UI Tree section is indented but carries no truncation note")
    filled = [(i, ln) for i, ln in body if ln.strip()]
    if not filled:
        w.add("the UI Tree section is empty")
        return TreeResult((), "absent", truncated, limit)
    i0, root = filled[0]
    if root.strip() == "No elements":
        for i, ln in filled[1:]:  # the sentinel ends the tree: nothing after it is an element (S-OBS-07)
            w.line(i, "line after 'No elements' ignored", ln)
        return TreeResult((), "no_elements", truncated, limit)
    if root.strip() == "desktop":
        filled = filled[1:]
    else:
        w.line(i0, "the UI Tree does not start with 'desktop'", root)
    elements = _tree_lines(filled, w)
    state: TreeState = "present" if any(e.kind != "window" for e in elements) else "empty"
    return TreeResult(elements, state, truncated, limit)


def _tree_lines(body: list[tuple[int, str]], w: Warnings) -> tuple[Element, ...]:
    out: list[Element] = []
    prefixes = [""]  # prefixes[d]: the exact prefix a line at depth d must carry
    top: Element | None = None  # the current depth-0 line, for Element.window
    k = 0
    while k < len(body):
        i, line = body[k]
        split = _split_prefix(line)
        if split is None:
            w.line(i, "tree line not understood", line)
            k += 1
            continue
        depth, last, rest = split
        node, used = _node(rest), 1
        if node is None:
            node, used = _joined(body, k, rest)
            if node is None:
                w.line(i, "tree node not understood", line)
                k += 1
                continue
            w.line(i, f"element name spans {used} lines; joined them", line)
        if node[7]:
            w.line(i, "meta brackets outside the documented grammar", line)
        if depth >= len(prefixes):
            w.line(i, "tree nesting jumps a level", line)
        elif line[: 4 * depth] != prefixes[depth]:
            w.line(i, "tree prefix does not match its parents", line)
        del prefixes[depth + 1 :]
        prefixes.append(line[: 4 * depth] + ("    " if last else "│   "))
        kind, control, name, point, action, flags, meta, _ = node
        window = name if depth == 0 and kind == "window" else None
        if depth > 0 and top is not None and top.kind == "window":
            window = top.name
        element = Element(
            kind=kind,  # type: ignore[arg-type]
            control=control,
            name=name,
            point=point,
            action=action,
            flags=flags,
            meta=meta,
            depth=depth,
            window=window,
        )
        if depth == 0:
            top = element
        out.append(element)
        k += used
    return tuple(out)


def _split_prefix(line: str) -> tuple[int, bool, str] | None:
    pos = 0
    while line[pos : pos + 4] in _UNITS:
        pos += 4
    last = _CONNECTORS.get(line[pos : pos + 4])
    if last is None:
        return None
    return pos // 4, last, line[pos + 4 :]


def _joined(body: list[tuple[int, str]], k: int, rest: str) -> tuple[_Node | None, int]:
    """Retry a failed node with the following non-tree lines: a UIA name may hold line breaks (§5.1)."""
    joined = rest
    for extra in range(1, _MAX_JOIN + 1):
        if k + extra >= len(body) or _split_prefix(body[k + extra][1]) is not None:
            break
        joined += "\n" + body[k + extra][1]
        node = _node(joined)
        if node is not None:
            return node, extra + 1
    return None, 1


def _node(rest: str) -> _Node | None:
    """One node after the connector: element, window, structural or text line (§5.1)."""
    if rest.startswith("("):
        m = _COORDS.match(rest)
        return _element(rest, (int(m[1]), int(m[2])), m.end()) if m else None
    if rest.endswith('"'):
        q = rest.find(' "')
        if q > 0 and len(rest) >= q + 3:
            control = rest[:q]
            kind = "window" if control == "window" else "text" if control == "text" else "structural"
            return kind, control, rest[q + 2 : -1], None, None, _NO_FLAGS, (), False
    return None


def _element(rest: str, point: Point, start: int) -> _Node | None:
    q = rest.find('"', start)  # the first quote after CTRL opens the name
    if q <= start + 1 or rest[q - 1] != " ":
        return None
    control = rest[start : q - 1]
    # The name ends at the last `"  [action: ` whose remainder parses; scanning leftwards
    # only matters when a value itself contains that text.
    end, fallback = len(rest), -1
    while (a := rest.rfind(_ACTION, q + 1, end)) >= 0:
        m = _TAIL.fullmatch(rest, a + 3)
        if m is not None:
            if m.lastgroup == "action":  # the common line without any meta bracket
                return "element", control, rest[q + 1 : a], point, m["action"], _NO_FLAGS, (), False
            flags = _FLAG_SETS[m["focused"] is not None, m["password"] is not None]
            meta = tuple((key, m[key]) for key in _META_KEYS if m[key] is not None)
            return "element", control, rest[q + 1 : a], point, m["action"], flags, meta, False
        fallback = a if fallback < 0 else fallback
        end = a + len(_ACTION) - 1
    if fallback < 0:
        return None
    return _lenient(rest, point, control, rest[q + 1 : fallback], rest[fallback + 3 :])


def _lenient(rest: str, point: Point, control: str, name: str, tail: str) -> _Node | None:
    """Keep an element whose brackets break the documented order; the caller warns (S-OBS-10)."""
    m = re.match(r"\[action: ([^\]]*)\]", tail)
    if m is None:
        return None
    flags: set[str] = set()
    meta: list[tuple[str, str]] = []
    for part in tail[m.end() :].split("  [")[1:]:
        part = part[:-1] if part.endswith("]") else part
        if part in ("focused", "password"):
            flags.add(part)
        elif ":" in part:
            key, val = part.split(":", 1)
            if key == "value" and len(val) >= 2 and val[0] == val[-1] == '"':
                val = val[1:-1]
            meta.append((key, val[:-1] if key in ("v", "h") and val.endswith("%") else val))
    return "element", control, name, point, m[1], frozenset(flags), tuple(meta), True
