"""Upstream's label table as far as an observation can tell it (FORMATS.md §7; issue 17).

Upstream numbers `label`s over its last capture's walk: the interactive nodes, then the
scrollable nodes, window by window in the printed window order. What the printed tree fixes
exactly, and what it does not:

- **Which window a label falls in** is exact for native windows: each window contributes one
  label per interactive line (and, after all interactive labels, one per scroll line), in
  printed window order.
- **Which element inside the window** is not: upstream walks a window's children
  right-to-left, pre-order, while the tree prints an interactive element's children *after*
  it as its siblings. `[A, b, c]` printed at one level may be three leaves (labels c, b, A) or
  A with two children (labels A, c, b). So every line of the window is a candidate; the
  all-leaves reading (reverse print order, what every sample shows) is only `likely`.
- **Browser windows** hold labels for their own chrome (tabs, address bar) that have no text
  line (§5.5), and a DOM capture holds only DOM nodes: from the first browser window on,
  nothing is certain.

That is why the gateway never translates a label to a point: it forwards the label, after a
full-tree probe has shown that upstream's new table is the observed one (`label_signature`
equal), and judges what the label can reach by its window and candidates (S-FRESH-05).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from policy.observation import Capture, Element, Observation

# Window titles of upstream's browsers (is_browser: chrome.exe, msedge.exe, firefox.exe).
_BROWSER_TITLE = re.compile(r"(?: - Google Chrome| - Microsoft\u200b? Edge|Mozilla Firefox)\s*$")
_SCROLL_META = frozenset({"v", "h"})

LabelKind = Literal["interactive", "scrollable"]
Signature = tuple[tuple[str, ...], tuple[tuple[object, ...], ...]]


@dataclass(frozen=True, slots=True, kw_only=True)
class LabelRow:
    """What one label can be: its window, its kind, the line it most likely is, every line it may be."""

    label: int
    window: str
    kind: LabelKind
    likely: Element
    candidates: tuple[Element, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class LabelTable:
    """The labels an observation places with certainty, and why the rest cannot be placed.

    `rows[i]` is label i for every i < len(rows). With `complete` False, upstream's table may
    hold more labels (or other ones) from `len(rows)` on: `problem` says why, in plain words.
    """

    rows: tuple[LabelRow, ...]
    complete: bool
    problem: str = ""


def is_scroll_line(element: Element) -> bool:
    """A scrollable node's line: it carries the `[v:…%]` / `[h:…%]` brackets (FORMATS.md §5.2)."""
    return any(key in _SCROLL_META for key, _ in element.meta)


def _point_lines(capture: Capture) -> list[Element]:
    return [e for e in capture.elements if e.kind == "element" and e.point is not None]


def _windows(capture: Capture) -> list[str]:
    return [e.name for e in capture.elements if e.kind == "window"]


def _browser_windows(capture: Capture) -> set[str]:
    found = {e.window for e in capture.elements if e.kind == "text" and e.window is not None}
    found.update(name for name in _windows(capture) if _BROWSER_TITLE.search(name))
    return found


def label_table(obs: Observation, *, use_dom: bool = False) -> LabelTable:
    """The label table of `obs`, as far as its printed tree fixes it (module docstring).

    Args:
        obs: the observation a label call cites.
        use_dom: the capture was a Snapshot with `use_dom` (a DOM-only table).

    Returns:
        The rows placed with certainty and whether that is all of upstream's table.
    """
    capture = obs.capture
    if capture.tool != "Snapshot" or capture.tree != "present":
        return LabelTable(rows=(), complete=False, problem=f"{obs.id} has no UI tree, so it has no labels")
    if use_dom:
        problem = f"{obs.id} is a DOM capture (use_dom), whose labels have no text lines"
        return LabelTable(rows=(), complete=False, problem=problem)
    browsers = _browser_windows(capture)
    lines = _point_lines(capture)
    rows: list[LabelRow] = []
    kinds: tuple[LabelKind, ...] = ("interactive", "scrollable")
    for kind in kinds:
        for window in dict.fromkeys(_windows(capture)):
            if window in browsers:
                return LabelTable(
                    rows=tuple(rows),
                    complete=False,
                    problem=f'the browser window "{window[:60]}" holds labels for its own tabs and address bar, '
                    "which the tree does not print, so labels from there on cannot be placed",
                )
            mine = tuple(e for e in lines if e.window == window and is_scroll_line(e) == (kind == "scrollable"))
            for k in range(len(mine)):
                rows.append(LabelRow(label=len(rows), window=window, kind=kind, likely=mine[-1 - k], candidates=mine))
    return LabelTable(rows=tuple(rows), complete=True)


def label_signature(capture: Capture) -> Signature:
    """What upstream's label table is built from, as printed: equal signatures, equal tables.

    The windows in order, and every element line's window, control, name and point — except a
    scroll line's point, which upstream draws at random on every capture (FORMATS.md §5.1).
    Values, focus and toggle states do not move a label and are left out.

    Args:
        capture: a parsed Snapshot.

    Returns:
        A comparable value.
    """
    lines = tuple((e.window, e.control, e.name, None if is_scroll_line(e) else e.point) for e in _point_lines(capture))
    return tuple(_windows(capture)), lines


def cited_labels(tool: str, args: Mapping[str, object]) -> tuple[int, ...] | None:
    """The label numbers a call cites (`label`, `labels`, MultiEdit's `[[label, text], …]`), or None if malformed.

    Args:
        tool: the tool name.
        args: the call's arguments.

    Returns:
        The labels (empty when none is cited), or None when a label is not a whole number.
    """
    found: list[object] = []
    if args.get("label") is not None:
        found.append(args["label"])
    labels = args.get("labels")
    if labels is not None:
        if not isinstance(labels, list):
            return None
        for item in labels:
            found.append(item[0] if tool == "MultiEdit" and isinstance(item, list) and item else item)
    out: list[int] = []
    for value in found:
        if isinstance(value, bool) or not isinstance(value, int | str):
            return None
        try:
            out.append(int(value))
        except ValueError:
            return None
    return tuple(out)
