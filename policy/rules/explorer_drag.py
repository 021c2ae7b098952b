"""A drag in File Explorer moves, deletes or hands over the file it drags (S-RULE-213).

Windows-MCP's `Move` with `drag` presses the mouse at `from_loc` (or where the pointer is), moves it to `loc`
and lets go: dropped on the Recycle Bin, the item dragged out of a File Explorer window (or off the desktop) is
deleted; dropped on a folder, or on another Explorer window, it moves there; dropped on any other window (a
browser, a mail or chat window) it is handed to that program, which may send it on. Each is judged as the
FileSystem call it amounts to (`delete`, `move` into the folder, `read`), so dragging `hal.dll` out of System32,
a program into a Startup folder or `~\\.ssh\\id_rsa` into a browser is refused as the tool call would be.

Which element is at a point: the Snapshot prints each element's centre, not its extent. Where a drag starts, the
element whose centre is nearest stands for it (the reading a Type at `loc` gets), and a drag that starts on an
Explorer window but not on one of its items drags one of that folder's items (`<folder>\\*`), as the Delete key
with nothing focused deletes one. Where it lands must be an element printed exactly there; a drop anywhere else
is judged as the item leaving its folder for somewhere unseen (a delete), since the nearest centre may belong to
a window the point is not over. Not known: the folder a navigation-pane entry (`Documents`, `Local Disk (C:)`)
stands for (a drop there is judged as the item leaving its folder, a delete), Ctrl (copy) or Alt (shortcut)
held during the drag, and a drag started from another program (a browser's download list).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from policy.observation import Capture, Element, Point
from policy.rules.keyboard import explorer_folder_of

__all__ = ["ExplorerDrag", "explorer_drag"]

_DESKTOP = "%USERPROFILE%\\Desktop"
_RECYCLE_BIN = "recycle bin"
# Desktop icons that are places of the shell, not files in the Desktop folder.
_SHELL_ICONS = frozenset({"recycle bin", "this pc", "network", "control panel", "home", "gallery"})


@dataclass(frozen=True, slots=True)
class ExplorerDrag:
    """What one drag does to a file.

    Attributes:
        description: what is dragged where, for a reason ("drags 'hal.dll' from File Explorer … to the Recycle Bin").
        source: the dragged item (`<folder>\\<name>`, or `<folder>\\*` standing for one item of the folder).
        call: the FileSystem call it amounts to (`delete`, `move` into a folder, or `read`).
    """

    description: str
    source: str
    call: dict[str, object]


def explorer_drag(capture: Capture, start: Point | None, end: Point | None) -> ExplorerDrag | None:
    """The file a drag from `start` to `end` takes out of a File Explorer window or off the desktop, and what
    becomes of it; None when the drag does not start on one (a slider, a window's title bar, selected text)."""
    start = start if start is not None else capture.cursor
    shown = [e for e in capture.elements if e.kind == "element" and e.point is not None and e.window is not None]
    grabbed = _nearest(shown, start)
    if grabbed is None:
        return None
    picked = _dragged(capture, grabbed)
    if picked is None:
        return None
    source, where = picked
    # Where it lands must be printed exactly there: the nearest centre may belong to a window the point is not over
    # (the desktop's icons are often not in the tree), so anywhere else is "somewhere unseen".
    dropped = next((e for e in shown if end is not None and e.point == end), None)
    what = f"drags {source!r} from {where}"
    if dropped is None:
        return ExplorerDrag(f"{what} somewhere the Snapshot does not show", source, _delete(source))
    target = _folder_at(capture, dropped)
    if dropped.name.strip().casefold() == _RECYCLE_BIN:
        return ExplorerDrag(f"{what} to the Recycle Bin", source, _delete(source))
    if target is not None:
        if target.rstrip("\\").casefold() == source.rpartition("\\")[0].casefold():
            return None  # let go over its own folder: nothing moves
        call: dict[str, object] = {"mode": "move", "path": source, "destination": target}
        return ExplorerDrag(f"{what} into {target}", source, call)
    window = dropped.window or "another window"
    if _is_explorer(capture, window):  # a navigation-pane entry: a folder the Snapshot does not name
        return ExplorerDrag(f"{what} to {dropped.name!r} in {window!r}", source, _delete(source))
    return ExplorerDrag(f"{what} into {window!r}, which receives the file", source, {"mode": "read", "path": source})


def _nearest(elements: list[Element], point: Point | None) -> Element | None:
    if point is None or not elements:
        return None
    exact = [e for e in elements if e.point == point]
    return exact[0] if exact else min(elements, key=lambda e: math.dist(e.point or point, point))


def _dragged(capture: Capture, grabbed: Element) -> tuple[str, str] | None:
    """The path of the item a drag picks up at `grabbed`, and the window it comes from; None for anything else."""
    window = grabbed.window or ""
    folder = explorer_folder_of(capture, window)
    if folder is not None:
        name = grabbed.name if grabbed.control == "list item" and grabbed.name.strip() else "*"
        return folder.rstrip("\\/") + "\\" + name, f"File Explorer {window!r} (showing {folder})"
    if _is_desktop(window) and grabbed.control == "list item":
        if grabbed.name.strip().casefold() in _SHELL_ICONS:
            return None
        return _DESKTOP + "\\" + grabbed.name, "the desktop"
    return None


def _folder_at(capture: Capture, dropped: Element) -> str | None:
    """The folder a drop on `dropped` puts the item in: an Explorer item (a folder in the view) or the view's own
    folder, a desktop icon or the desktop; None for a navigation-pane entry or another program's window."""
    window = dropped.window or ""
    folder = explorer_folder_of(capture, window)
    if folder is not None:
        if dropped.control == "list item":
            return folder.rstrip("\\/") + "\\" + dropped.name
        return None if dropped.control == "tree item" else folder
    if _is_desktop(window):
        return _DESKTOP + ("\\" + dropped.name if dropped.control == "list item" else "")
    return None


def _is_explorer(capture: Capture, title: str) -> bool:
    return explorer_folder_of(capture, title) is not None or title.casefold().endswith(" - file explorer")


def _is_desktop(title: str) -> bool:
    return title == "Program Manager"  # the desktop's own window, whose list holds the desktop's icons


def _delete(path: str) -> dict[str, object]:
    return {"mode": "delete", "path": path}
