"""The fast reading of tree lines gives exactly what the grammar gives (S-OBS-32).

`gateway/observe/_tree_line.py` reads most lines with one pattern and leaves the rest to
`read_node`, the grammar of FORMATS §5.1–§5.2. These tests parse many lines both ways:
each line once as a tree line through `parse_text` (fast reading when it applies) and once
through `read_node` alone, and require the same element. The lines are every tree line of
every upstream sample plus lines assembled from grammar tokens with a fixed seed, chosen
to sit on the fast reading's edges: quotes in names, actions and values, a second
`"  [action: `, brackets out of order, empty values, two spaces.
"""

from __future__ import annotations

import random

import pytest

from gateway.observe._tree_line import line_pattern, read_node, split_meta, split_prefix
from gateway.observe.parse import parse_text, unwrap_text
from policy.observation import Element
from tests._requirements import SAMPLES, requirement

HEAD = "\n    Cursor Position: (1, 1)\n\n\nUI Tree:\n"
NOTE = "\n\n... [truncated: reached the 9-element capture limit — some elements were not visited.]"
# Pieces of §5.1/§5.2 lines and of what breaks them (FORMATS §5.1: names are not escaped).
NAME_BITS = ("a", " ", "  ", '"', "]", "[", "b c", '"  [action: x', '"  [', "🔊", "é", '""')
VALUE_BITS = ("v", '"', "]", "[", "  [", '"]', "  [action: z", '"  [action: q]', " ", "%", "")
BRACKETS = (
    "  [focused]",
    "  [password]",
    '  [value:"{}"]',
    "  [range:0.0-100.0]",
    "  [range:-5-e]",
    "  [toggle:{}]",
    "  [state:{}]",
    "  [shortcut:{}]",
    "  [v:33.33%]",
    "  [h:{}%]",
)
# Lines where a narrower fast reading would pick another `"  [action: ` or another value end,
# or read digits the grammar's `\d` reads too; all but the last are left to the grammar.
EDGES = (
    '(١٢,٣) button "Arabic-Indic digits"  [action: click]',
    '(1,2) edit "n"  [action: fill]  [value:"a"]  [toggle:b"]',
    '(1,2) edit "n"  [action: fill]  [value:"a"]  [state:b"]',
    '(1,2) edit "n"  [action: fill]  [value:"x"]  [shortcut:y"]',
    '(1,2) edit "n"  [action: fill]  [value:"  [action: z"]',
    '(1,2) edit "n"  [action: fill]  [value:"x"  [action: y]"]',
    '(1,2) button "n"  [action: c]  [shortcut:q"  [action: d]',
    '(1,2) button "n"  [action: c"  [action: d]',
    '(1,2) button "a"  [action: b]"  [action: c]',
    '(1,2) button "a"  [action: b]  [v:1%]"  [action: c]  [h:2%]',
    '(1,2) button "a"  [action: b]  [value:""]  [toggle:]  [state:]  [shortcut:]',
)
ODD = ('"  [action: click]', "  [action: fill]", "[action: ", "  [", '"', " ", "(1,2) ", "\t", "x")


def _element_of(rest: str) -> Element | None:
    """What the grammar alone makes of a depth-0 line `├── rest`."""
    node = read_node(rest)
    if node is None:
        return None
    kind, control, name, point, action, flags, meta, _ = node
    window = name if kind == "window" else None
    return Element(
        kind=kind,  # type: ignore[arg-type]
        control=control,
        name=name,
        point=point,
        action=action,
        flags=flags,
        meta=meta,
        depth=0,
        window=window,
    )


def _fast(rest: str, indent: int = 0) -> bool:
    """Whether the fast reading takes the line (rather than handing it to `read_node`)."""
    m = line_pattern(indent).fullmatch(" " * indent + "├── " + rest)
    return m is not None and (m[9] is not None or (m[3] is not None and split_meta(m[8]) is not None))


def _generated_line(rng: random.Random) -> str:
    def bits(pool: tuple[str, ...], most: int) -> str:
        return "".join(rng.choice(pool) for _ in range(rng.randint(0, most)))

    action = rng.choice(("click", "fill", "", "a]b", 'a"b', "slide"))
    line = f'({rng.randint(-99, 99)},{rng.randint(0, 99)}) {rng.choice(("button", "list item", "edit"))} "'
    line += f'{bits(NAME_BITS, 4)}"  [action: {action}]'
    for bracket in BRACKETS:
        if rng.random() < 0.3:
            line += bracket.format(bits(VALUE_BITS, 3))
    if rng.random() < 0.2:  # one piece out of place
        at = rng.randint(0, len(line))
        line = line[:at] + rng.choice(ODD) + line[at:]
    if rng.random() < 0.1:
        line = rng.choice(("window", "pane", "text", "tool bar")) + f' "{bits(NAME_BITS, 4)}"'
    return line


def _sample_rests() -> list[str]:
    rests: set[str] = set()
    for path in SAMPLES.glob("*.txt"):
        text, _ = unwrap_text(path.read_bytes().decode("utf-8"))
        for raw in text.replace("\r\n", "\n").split("\n"):
            split = split_prefix(raw)  # a truncated tree's margin reads as one more unit: same node text
            if split is not None:
                rests.add(split[2])
    return sorted(rests)


def _agree(rests: list[str], indent: int = 0) -> None:
    """Parse all `rests` as sibling lines of one tree and compare each element with the grammar's."""
    margin = " " * indent
    tree = margin + "desktop\n" + "\n".join(margin + "├── " + rest for rest in rests) + (NOTE if indent else "")
    capture = parse_text("Snapshot", HEAD.replace("UI Tree:", margin + "UI Tree:") + tree)
    expected = [e for e in map(_element_of, rests) if e is not None]
    assert list(capture.elements) == expected
    assert [type(e) for e in capture.elements] == [Element] * len(expected)


@requirement("S-OBS-32")
def test_every_sample_tree_line_reads_the_same_both_ways() -> None:
    """S-OBS-32: each tree line of the upstream samples gives the grammar's element, and the fast
    reading takes every sample element line (none needs the grammar fallback)."""
    rests = _sample_rests()
    assert len(rests) > 40
    _agree(rests)
    assert [r for r in rests if not _fast(r)] == []


@requirement("S-OBS-32")
@pytest.mark.parametrize(("indent", "count"), [(0, 1000), (4, 400)])
def test_generated_lines_read_the_same_both_ways(indent: int, count: int) -> None:
    """S-OBS-32: seeded lines on the fast reading's edges (quotes, a second `"  [action: `, brackets
    out of order) give the grammar's element, in plain and truncated (indented) trees."""
    rng = random.Random(32 + indent)
    rests = [*EDGES, *(_generated_line(rng) for _ in range(count))]
    fast = sum(map(_fast, rests, [indent] * len(rests)))
    assert count // 5 < fast < count - count // 5  # both readings are exercised
    assert not any(map(_fast, EDGES[:-1], [indent] * len(EDGES))) and _fast(EDGES[-1], indent)
    _agree(rests, indent)


@requirement("S-OBS-32")
def test_a_name_that_needs_the_grammar_is_read_by_it_inside_a_fast_tree() -> None:
    """S-OBS-32: lines the fast reading leaves alone keep the grammar's reading, warnings included,
    in the middle of fast-read lines (a value with quotes, out-of-order brackets, a split name)."""
    lines = [
        '├── (1,1) button "a"  [action: click]',
        '├── (2,2) edit "Say"  [action: fill]  [value:"say "hi" now"]',
        '├── (3,3) list "L"  [action: click]  [v:1%]  [focused]',
        '├── (4,4) button "two',
        'lines"  [action: click]',
        '└── (5,5) button "z"  [action: click]',
    ]
    capture = parse_text("Snapshot", HEAD + "desktop\n" + "\n".join(lines))
    got = [(e.name, e.point, e.meta, sorted(e.flags)) for e in capture.elements]
    assert got == [
        ("a", (1, 1), (), []),
        ("Say", (2, 2), (("value", 'say "hi" now'),), []),
        ("L", (3, 3), (("v", "1"),), ["focused"]),
        ("two\nlines", (4, 4), (), []),
        ("z", (5, 5), (), []),
    ]
    assert [w.split(": ")[:2] for w in capture.warnings] == [
        ["line 9", "meta brackets outside the documented grammar"],
        ["line 10", "element name spans 2 lines; joined them"],
    ]


@requirement("S-OBS-32")
def test_a_sibling_with_another_prefix_is_still_reported() -> None:
    """S-OBS-32: the fast path keeps the prefix stack for a run of siblings, yet a sibling whose
    prefix differs from its parents' is reported, and so is the sibling right after it."""
    lines = [
        '├── window "W"',
        '│   ├── (1,1) button "a"  [action: click]',
        '    ├── (2,2) button "b"  [action: click]',
        '│   ├── (3,3) button "c"  [action: click]',
        '│   │   └── (4,4) button "d"  [action: click]',
        '    │   └── (5,5) button "e"  [action: click]',
        '└── window "X"',
    ]
    capture = parse_text("Snapshot", HEAD + "desktop\n" + "\n".join(lines))
    assert [(e.name, e.depth, e.window) for e in capture.elements] == [
        ("W", 0, "W"),
        ("a", 1, "W"),
        ("b", 1, "W"),
        ("c", 1, "W"),
        ("d", 2, "W"),
        ("e", 2, "W"),
        ("X", 0, "X"),
    ]
    assert [w.split(": ")[:2] for w in capture.warnings] == [
        ["line 9", "tree prefix does not match its parents"],
        ["line 12", "tree prefix does not match its parents"],
    ]
