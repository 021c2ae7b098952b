"""The label table the gateway rebuilds from a printed tree, row by row (S-FRESH-05); found by mutation testing.

Upstream numbers its labels over the interactive lines window by window, then the scrollable ones;
the gateway must rebuild exactly that numbering, or a label call acts on another element.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy.labels import cited_labels, label_table
from policy.observation import Element
from tests._requirements import requirement
from tests.policy._world import NOTEPAD_TREE, observation

NOTEPAD_NAME = "notes.txt - Notepad"

# (label, window, kind, likely element, its point, how many elements the label may be)
NOTEPAD_ROWS = [
    (0, NOTEPAD_NAME, "interactive", "Text editor", (800, 520), 7),
    (1, NOTEPAD_NAME, "interactive", "View", (308, 152), 7),
    (2, NOTEPAD_NAME, "interactive", "Edit", (268, 152), 7),
    (3, NOTEPAD_NAME, "interactive", "File", (228, 152), 7),
    (4, NOTEPAD_NAME, "interactive", "Close", (1377, 116), 7),
    (5, NOTEPAD_NAME, "interactive", "Maximize", (1331, 116), 7),
    (6, NOTEPAD_NAME, "interactive", "Minimize", (1285, 116), 7),
    (7, "Taskbar", "interactive", "Clock 10:42 AM 5/14/2026", (1860, 1056), 6),
    (8, "Taskbar", "interactive", "Google Chrome - 1 running window", (216, 1056), 6),
    (9, "Taskbar", "interactive", "Notepad - 1 running window", (168, 1056), 6),
    (10, "Taskbar", "interactive", "Task View", (120, 1056), 6),
    (11, "Taskbar", "interactive", "Search", (72, 1056), 6),
    (12, "Taskbar", "interactive", "Start", (24, 1056), 6),
    (13, NOTEPAD_NAME, "scrollable", "Text editor", (1122, 691), 1),
]


@requirement("S-FRESH-05")
def test_the_label_table_numbers_interactive_lines_window_by_window_then_scrollable_ones() -> None:
    """S-FRESH-05: samples/01's 13 interactive lines (Notepad, then the taskbar) and its one scrollable line."""
    table = label_table(observation("obs-1"))
    assert (table.complete, table.problem) == (True, "")
    got = [(r.label, r.window, r.kind, r.likely.name, r.likely.point, len(r.candidates)) for r in table.rows]
    assert got == NOTEPAD_ROWS
    assert all(c.window == r.window for r in table.rows for c in r.candidates)


@requirement("S-FRESH-05")
def test_a_capture_without_a_tree_or_from_the_dom_has_no_labels_and_says_why() -> None:
    """S-FRESH-05: no tree (tree skipped, a Screenshot) or a DOM capture: an empty, incomplete table with the reason."""
    for obs in (observation("obs-2", tree="skipped"), observation("obs-2", tool="Screenshot")):
        t = label_table(obs)
        assert (t.rows, t.complete, t.problem) == ((), False, "obs-2 has no UI tree, so it has no labels")
    t = label_table(observation("obs-3", use_dom=True), use_dom=True)
    assert (t.rows, t.complete, t.problem) == (
        (),
        False,
        "obs-3 is a DOM capture (use_dom), whose labels have no text lines",
    )


@requirement("S-FRESH-05")
def test_a_browser_window_ends_the_table_at_its_unprinted_chrome() -> None:
    """S-FRESH-05: rows before a browser window are placed, none from it on; the reason names it (60 chars)."""
    title = "P" * 70 + " - Google Chrome"
    browser = (
        Element(kind="window", control="window", name=title, window=title),
        Element(kind="element", control="link", name="Learn more", point=(650, 330), depth=1, window=title),
        Element(kind="text", control="text", name="Example Domain", depth=1, window=title),
    )
    t = label_table(observation("obs-4", elements=(*NOTEPAD_TREE[:8], *browser)))
    assert [r.likely.name for r in t.rows] == ["Text editor", "View", "Edit", "File", "Close", "Maximize", "Minimize"]
    assert t.complete is False
    assert t.problem == (
        f'the browser window "{"P" * 60}" holds labels for its own tabs and address bar, '
        "which the tree does not print, so labels from there on cannot be placed"
    )


@requirement("S-FRESH-05")
def test_a_window_showing_page_text_is_treated_as_a_browser_whatever_its_title() -> None:
    """S-FRESH-05: page text (text lines) in a window marks a web view: its labels cannot be placed either."""
    title = "Help Viewer"
    viewer = (
        Element(kind="window", control="window", name=title, window=title),
        Element(kind="element", control="link", name="Next", point=(650, 330), depth=1, window=title),
        Element(kind="text", control="text", name="Chapter 1", depth=1, window=title),
    )
    t = label_table(observation("obs-5", elements=viewer))
    assert (t.rows, t.complete) == ((), False) and '"Help Viewer"' in t.problem
    plain = label_table(observation("obs-6", elements=viewer[:2]))
    assert plain.complete is True and [r.likely.name for r in plain.rows] == ["Next"]


@requirement("S-FRESH-05")
def test_an_element_line_without_a_point_and_a_structural_line_with_one_take_no_label() -> None:
    """S-FRESH-05: only element lines with a point are numbered; a line the parser could not place
    (no point) and a structural line (which has one) leave the numbering as it was."""
    obs = observation("obs-1")
    extra = (
        Element(kind="element", control="button", name="Unplaced", point=None, window=NOTEPAD_NAME),
        Element(kind="structural", control="pane", name="Frame", point=(10, 10), window=NOTEPAD_NAME),
    )
    capture = replace(obs.capture, elements=(*obs.capture.elements[:2], *extra, *obs.capture.elements[2:]))
    table = label_table(replace(obs, capture=capture))
    got = [(r.label, r.window, r.kind, r.likely.name, r.likely.point, len(r.candidates)) for r in table.rows]
    assert got == NOTEPAD_ROWS


@requirement("S-FRESH-05")
@pytest.mark.parametrize(
    ("tool", "labels", "cited"),
    [
        ("MultiEdit", [[4, "text"], [7, "more"]], (4, 7)),
        ("MultiEdit", [5], (5,)),  # a bare label in MultiEdit is read as it is
        ("MultiSelect", [3, "8"], (3, 8)),
        ("MultiSelect", [[4, "text"]], None),  # only MultiEdit's items are [label, text] pairs
    ],
)
def test_cited_labels_reads_multiedit_pairs_and_nothing_else_as_pairs(
    tool: str, labels: list[object], cited: tuple[int, ...] | None
) -> None:
    """S-FRESH-05: a call's labels are read as the tool defines them; a pair where a label belongs is malformed."""
    assert cited_labels(tool, {"labels": labels}) == cited
