"""One line of the `UI Tree:` section (FORMATS §5.1–§5.2), read two ways that agree.

`read_node` is the grammar itself: it splits the prefix, then reads the node after the
connector the way §5.1 says: the name runs from the first `"` after CTRL to the *last*
`"  [action: ` whose remainder parses as the brackets of §5.2 (names and values may hold
`"`, `]` and two spaces). It handles every line, including the lenient fallback for
brackets out of order, and it is what the tree parser uses whenever the fast reading
below does not apply.

`line_pattern` is the fast reading: one compiled pattern that `finditer` runs over the
whole tree, one match per line, with the prefix, point, control, name, action and the
raw bracket tail as groups; `META` then splits a non-empty tail. It only accepts lines
whose reading is unambiguous, and for those it gives exactly what `read_node` gives
(S-OBS-05, S-OBS-06, S-OBS-32):

* the name may hold `"` but not `"  [action: `, and the tail after `[action: …]` holds no
  `"` except the two of a `[value:"…"]` whose value holds none and does not start with
  `  [action: `; so the line contains `"  [action: ` exactly once, and "the last one whose
  remainder parses" can only be that one;
* the tail pattern is §5.2's bracket sequence with the same optional groups in the same
  order, its free-text groups narrowed only by `"`, which does not occur there; so the
  first parse it finds is the first parse `read_node` finds;
* a line without a point is `CTRL "NAME"` with CTRL up to the first ` "` (never empty, the
  line not starting with `(`) and NAME up to the line's last `"`, as `read_node` reads it.

Every other line (a quote in an action, a value holding `"`, a second `"  [action: `,
brackets out of order, a name spanning lines, a point in non-ASCII digits, noise) does not
match the fast reading and goes through `read_node`, unchanged.
`tests/gateway/test_observe_speed_equivalence.py` checks that the two readings agree on
every sample line and on seeded edge lines.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
from collections.abc import Callable
from typing import Literal

from policy.observation import Element, Point

Kind = Literal["window", "structural", "element", "text"]
Meta = tuple[tuple[str, str], ...]
Node = tuple[str, str, str, Point | None, str | None, frozenset[str], Meta, bool]
"""kind, control, name, point, action, flags, meta, lenient (brackets outside §5.2's order)."""
MakeElement = Callable[[str, str, str, Point | None, str | None, frozenset[str], Meta, int, str | None], Element]

UNITS = ("│   ", "    ")
CONNECTORS = {"├── ": False, "└── ": True}  # value: the connector closes its parent's children
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
META_KEYS = ("value", "range", "toggle", "state", "shortcut", "v", "h")
# `_TAIL` after its action bracket, with no `"` outside a quote-free value (see the docstring).
META = re.compile(
    r"(?P<focused>  \[focused\])?"
    r"(?P<password>  \[password\])?"
    r'(?:  \[value:"(?!  \[action: )(?P<value>[^"\n]*)"\])?'
    rf"(?:  \[range:(?P<range>{_NUM}-{_NUM})\])?"
    r'(?:  \[toggle:(?P<toggle>[^\]"\n]*)\])?'
    r'(?:  \[state:(?P<state>[^\]"\n]*)\])?'
    r'(?:  \[shortcut:(?P<shortcut>[^"\n]*)\])?'
    rf"(?:  \[v:(?P<v>{_NUM})%\])?"
    rf"(?:  \[h:(?P<h>{_NUM})%\])?"
)
_FLAG_SETS = {
    (False, False): frozenset(),
    (True, False): frozenset({"focused"}),
    (False, True): frozenset({"password"}),
    (True, True): frozenset({"focused", "password"}),
}
NO_FLAGS: frozenset[str] = frozenset()
Split = tuple[frozenset[str], Meta]
PLAIN: Split = (NO_FLAGS, ())  # an element line without meta brackets
NOT_FAST: Split = (frozenset(), ())  # by identity: a tail the fast reading leaves to `read_node`

# Groups of `line_pattern`: 1 prefix, 2 the connector when it is `└── `, then an element
# (3 x, 4 y, 5 control, 6 name, 7 action, 8 bracket tail) or a window/structural/text line
# (9 control, 10 name); or 11: any other line (its margin removed), read by `read_node`.
_LINE = (
    r"^{margin}(?:((?:│   |    )*+)(?:├── |(└── ))"
    r'(?:\((-?[0-9]+),(-?[0-9]+)\) ([^"\n]+) "([^"\n]*+(?:"(?!  \[action: )[^"\n]*+)*+)"'
    r'  \[action: ([^\]"\n]*)\]((?:  \[.*)?)'
    r'|(?!\()((?:[^ \n]| (?!"))++) "(.*)")$'
    r"|(.*)$)"
)


@functools.lru_cache(maxsize=8)
def line_pattern(indent: int) -> re.Pattern[str]:
    """The fast per-line pattern (MULTILINE) for a tree whose lines carry an `indent`-space margin.

    Args:
        indent: the `UI Tree:` header's indent (FORMATS §5.6); a line starting with that
            many spaces has them removed, any other line is read as it is.
    Returns:
        The compiled pattern; see the group list above `_LINE`.
    """
    margin = f"(?: {{{indent}}})?+" if indent else ""
    return re.compile(_LINE.format(margin=margin), re.MULTILINE)


def split_meta(tail: str) -> Split | None:
    """Flags and keyed brackets of a fast-read bracket tail, or None when `read_node` must decide."""
    if not tail:
        return PLAIN
    m = META.fullmatch(tail)
    if m is None:
        return None
    focused, password, value, span, toggle, state, shortcut, v, h = m.groups()
    meta: list[tuple[str, str]] = []  # in §5.2's order, as printed (spelled out: this runs per distinct tail)
    if value is not None:
        meta.append(("value", value))
    if span is not None:
        meta.append(("range", span))
    if toggle is not None:
        meta.append(("toggle", toggle))
    if state is not None:
        meta.append(("state", state))
    if shortcut is not None:
        meta.append(("shortcut", shortcut))
    if v is not None:
        meta.append(("v", v))
    if h is not None:
        meta.append(("h", h))
    return _FLAG_SETS[focused is not None, password is not None], tuple(meta)


def kind_of(control: str) -> Kind:
    """The kind of a line without a point: `window`, `text` or any other control (§5.1)."""
    return "window" if control == "window" else "text" if control == "text" else "structural"


def split_prefix(line: str) -> tuple[int, bool, str] | None:
    """`(depth, closes its parent, node text)` of a tree line, or None without prefix + connector."""
    pos = 0
    while line[pos : pos + 4] in UNITS:
        pos += 4
    last = CONNECTORS.get(line[pos : pos + 4])
    if last is None:
        return None
    return pos // 4, last, line[pos + 4 :]


def read_node(rest: str) -> Node | None:
    """One node after the connector: element, window, structural or text line (§5.1)."""
    if rest.startswith("("):
        m = _COORDS.match(rest)
        return _element(rest, (int(m[1]), int(m[2])), m.end()) if m else None
    if rest.endswith('"'):
        q = rest.find(' "')
        if q > 0 and len(rest) >= q + 3:
            control = rest[:q]
            return kind_of(control), control, rest[q + 2 : -1], None, None, NO_FLAGS, (), False
    return None


def _element(rest: str, point: Point, start: int) -> Node | None:
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
                return "element", control, rest[q + 1 : a], point, m["action"], NO_FLAGS, (), False
            flags = _FLAG_SETS[m["focused"] is not None, m["password"] is not None]
            meta = tuple((key, m[key]) for key in META_KEYS if m[key] is not None)
            return "element", control, rest[q + 1 : a], point, m["action"], flags, meta, False
        fallback = a if fallback < 0 else fallback
        end = a + len(_ACTION) - 1
    if fallback < 0:
        return None
    return _lenient(rest, point, control, rest[q + 1 : fallback], rest[fallback + 3 :])


def _lenient(rest: str, point: Point, control: str, name: str, tail: str) -> Node | None:
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
    return "element", control, name, point, m[1], _FLAG_SETS["focused" in flags, "password" in flags], tuple(meta), True


_FIELDS = ("kind", "control", "name", "point", "action", "flags", "meta", "depth", "window")


class _Twin:
    """`Element`'s slot layout without its frozen `__setattr__`: filled, then made an `Element`."""

    __slots__ = ("kind", "control", "name", "point", "action", "flags", "meta", "depth", "window")
    kind: str
    control: str
    name: str
    point: Point | None
    action: str | None
    flags: frozenset[str]
    meta: Meta
    depth: int
    window: str | None


def _make_by_slots(
    kind: str,
    control: str,
    name: str,
    point: Point | None,
    action: str | None,
    flags: frozenset[str],
    meta: Meta,
    depth: int,
    window: str | None,
) -> Element:
    e = _new(_Twin)
    e.kind = kind
    e.control = control
    e.name = name
    e.point = point
    e.action = action
    e.flags = flags
    e.meta = meta
    e.depth = depth
    e.window = window
    e.__class__ = Element  # type: ignore[assignment]  # same layout: CPython allows it (see _element_maker)
    return e  # type: ignore[return-value]


def _make_by_init(
    kind: str,
    control: str,
    name: str,
    point: Point | None,
    action: str | None,
    flags: frozenset[str],
    meta: Meta,
    depth: int,
    window: str | None,
) -> Element:
    return Element(
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


def _element_maker() -> MakeElement:
    """The constructor the tree parser uses for its elements (S-OBS-30).

    `Element.__init__` (frozen, slots, kw_only) writes each field through
    `object.__setattr__`, which costs several times the object itself, and a 5,000-element
    tree builds 5,000 of them. `_make_by_slots` fills a twin with the same slots by plain
    attribute writes and then assigns `__class__` (allowed between identical layouts); the
    result is an `Element` no different from one `__init__` makes (type, fields, equality,
    hash, repr). That holds only while `Element` is a plain slotted dataclass with exactly
    these fields and no `__post_init__`, so this checks that, and one probe element,
    before choosing it; otherwise `Element(...)` itself is used.
    """
    plain = (
        tuple(f.name for f in dataclasses.fields(Element)) == _FIELDS
        and tuple(getattr(Element, "__slots__", ())) == _FIELDS
        and not hasattr(Element, "__post_init__")
        and all(isinstance(Element.__dict__.get(n), types.MemberDescriptorType) for n in _FIELDS)
    )
    probe_args = ("element", "button", "OK", (1, -2), "click", frozenset({"focused"}), (("value", "v"),), 3, "w")
    try:
        probe, expected = _make_by_slots(*probe_args), _make_by_init(*probe_args)
        same = type(probe) is Element and probe == expected and repr(probe) == repr(expected)
        same = same and hash(probe) == hash(expected)
    except (TypeError, AttributeError):
        same = False
    return _make_by_slots if plain and same else _make_by_init


_new = object.__new__
make_element: MakeElement = _element_maker()
