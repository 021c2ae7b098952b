"""A drag in File Explorer deletes, moves or hands over the file it drags (S-RULE-213).

Before, `Move {"drag": true, "from_loc": <hal.dll in System32>, "loc": <the Recycle Bin>}` passed while the Delete
key on the same item (S-RULE-153) and FileSystem `delete` of it were refused; so did dragging a program into a
Startup folder, and `~\\.ssh\\id_rsa` into a browser's mail window.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy.observation import Capture, Element
from policy.rules.explorer_drag import explorer_drag
from tests._requirements import requirement
from tests.policy.test_explorer_delete import showing
from tests.policy.test_typed import capture_of, hit_on

HAL = (905, 201)  # `hal.dll` in the explorer-system32 world
KERNEL32 = (905, 223)
ITEMS_VIEW = (900, 500)
UNSEEN = (600, 700)  # a point where no element is printed
STARTUP = "C:\\Users\\demo\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup"
MAIL = "Inbox - me@example.com - Outlook"
DOWNLOADS = "Downloads - File Explorer"


def _line(window: str, control: str, name: str, point: tuple[int, int] | None, **kw: object) -> Element:
    kind = "window" if control == "window" else "element"
    return Element(kind=kind, control=control, name=name, point=point, window=window, depth=1, **kw)  # type: ignore[arg-type]


def with_windows(base: Capture) -> Capture:
    """`base` plus the desktop's icons, an Explorer window on a Startup folder and a mail program's window."""
    startup = "Startup - File Explorer"
    extra = (
        _line("Program Manager", "window", "Program Manager", None),
        _line("Program Manager", "list item", "Recycle Bin", (47, 47)),
        _line("Program Manager", "list item", "notes.txt", (47, 127)),
        _line(startup, "window", startup, None),
        _line(startup, "edit", "Address", (1600, 60), meta=(("value", STARTUP),)),
        _line(startup, "list", "Items View", (1600, 300)),
        _line(startup, "tree item", "Documents", (1450, 300)),
        _line("Program Manager", "list", "Desktop", (960, 560)),
        _line(MAIL, "window", MAIL, None),
        _line(MAIL, "document", "Message body", (1600, 800)),
        _line(MAIL, "list item", "Inbox", (1700, 900)),  # a list item, but no file's
        _line(DOWNLOADS, "window", DOWNLOADS, None),  # an Explorer window whose address is not printed
        _line(DOWNLOADS, "list", "Items View", (300, 950)),
    )
    return replace(base, elements=base.elements + extra)


def drag(capture: Capture, start: tuple[int, int] | None, end: tuple[int, int], **more: object) -> object:
    args: dict[str, object] = {"drag": True, "loc": list(end), **more}
    if start is not None:
        args["from_loc"] = list(start)
    return hit_on(capture, "Move", **args)


SYSTEM32 = with_windows(capture_of("explorer-system32"))


@requirement("S-RULE-213")
@pytest.mark.parametrize(
    ("start", "end"),
    [
        (HAL, (47, 47)),  # onto the Recycle Bin
        (HAL, UNSEEN),
        (HAL, KERNEL32),  # onto another item of the folder (a folder there: a move into it)
        (HAL, (1600, 300)),  # into another Explorer window's folder
        (HAL, (1450, 300)),  # onto a navigation-pane entry: a folder the Snapshot does not name
        (HAL, (47, 127)),  # onto a desktop icon
        ((600, 205), (47, 47)),  # off the item's centre, nearer the address box: one of the folder's items
        (None, (47, 47)),  # no `from_loc`: from where the pointer is (on the item's row)
        ((1290, 120), (47, 47)),  # from the window, not an item: one of the folder's items
    ],
)
def test_dragging_a_system_file_out_of_system32_is_refused(start: tuple[int, int] | None, end: tuple[int, int]) -> None:
    """S-RULE-213: it leaves System32 however it is dropped, as FileSystem delete or move of it would."""
    assert drag(SYSTEM32, start, end) == ("protected-place-delete", "deny")


@requirement("S-RULE-213")
def test_dropping_on_the_folders_own_view_moves_nothing() -> None:
    """S-RULE-213: let go over its own folder, nothing moves."""
    assert drag(SYSTEM32, HAL, ITEMS_VIEW) is None


@requirement("S-RULE-213")
def test_the_reason_says_what_was_dragged_where() -> None:
    """S-RULE-213: the refusal names the item, the window and the drop."""
    found = explorer_drag(SYSTEM32, HAL, (47, 47))
    assert found is not None
    assert found.source == "C:\\Windows\\System32\\hal.dll"
    assert found.call == {"mode": "delete", "path": found.source}
    assert "to the Recycle Bin" in found.description


@requirement("S-RULE-213")
def test_a_program_dragged_into_a_startup_folder_asks() -> None:
    """S-RULE-213: dropped into Startup it runs at every sign-in, as FileSystem move there would."""
    downloads = with_windows(showing("C:\\Users\\demo\\Downloads", "setup.exe"))
    assert drag(downloads, HAL, (1600, 300)) == ("persistence-autostart", "ask")
    assert explorer_drag(downloads, HAL, (1600, 300)).call == {  # type: ignore[union-attr]
        "mode": "move",
        "path": "C:\\Users\\demo\\Downloads\\setup.exe",
        "destination": STARTUP,
    }


@requirement("S-RULE-213")
def test_a_private_key_dragged_into_another_program_is_refused() -> None:
    """S-RULE-213: dropped into a mail or browser window, the file is handed over: read as a credential store."""
    ssh = with_windows(showing("C:\\Users\\demo\\.ssh", "id_ed25519"))
    assert drag(ssh, HAL, (1600, 800)) == ("credential-access", "deny")


@requirement("S-RULE-213")
@pytest.mark.parametrize(
    ("folder", "item", "end"),
    [
        ("C:\\Users\\demo\\Documents", "report.docx", (47, 47)),  # one document to the Recycle Bin
        ("C:\\Users\\demo\\Documents", "report.docx", (1600, 800)),  # attached to a mail
        ("C:\\Users\\demo\\Downloads", "photo.jpg", KERNEL32),  # into a subfolder
        ("C:\\Users\\demo\\Documents", None, UNSEEN),  # one of its items, not every one
    ],
)
def test_ordinary_drags_pass(folder: str, item: str | None, end: tuple[int, int]) -> None:
    """S-RULE-213: what FileSystem would do with the same file passes here too."""
    assert drag(with_windows(showing(folder, item)), HAL, end) is None


@requirement("S-RULE-213")
@pytest.mark.parametrize(
    "args",
    [
        {"loc": [47, 47]},  # a move of the pointer
        {"loc": [47, 47], "drag": False, "from_loc": list(HAL)},
        {"loc": [47, 47], "drag": "false", "from_loc": list(HAL)},
    ],
)
def test_a_move_without_a_drag_drags_nothing(args: dict[str, object]) -> None:
    """S-RULE-213: the pointer moving over an item picks nothing up."""
    assert hit_on(SYSTEM32, "Move", **args) is None


@requirement("S-RULE-213")
def test_a_drag_that_starts_elsewhere_is_no_files() -> None:
    """S-RULE-213: a slider, a window's title bar or text in another program is not a file."""
    assert explorer_drag(SYSTEM32, (1600, 800), (47, 47)) is None  # text in the mail window
    assert explorer_drag(SYSTEM32, (47, 47), HAL) is None  # the Recycle Bin icon itself


@requirement("S-RULE-213")
def test_a_desktop_file_dragged_is_judged_where_it_lands() -> None:
    """S-RULE-213: a file on the desktop is in the user's Desktop folder."""
    found = explorer_drag(SYSTEM32, (47, 127), (1600, 300))
    assert found is not None
    assert found.source == "%USERPROFILE%\\Desktop\\notes.txt"
    assert found.call["destination"] == STARTUP


@requirement("S-RULE-213")
@pytest.mark.parametrize(
    ("start", "end", "source", "call", "said"),
    [
        (HAL, (47, 47), "C:\\Windows\\System32\\hal.dll", {"mode": "delete"}, "to the Recycle Bin"),
        (HAL, UNSEEN, "C:\\Windows\\System32\\hal.dll", {"mode": "delete"}, "somewhere the Snapshot does not show"),
        ((880, 203), (1600, 300), "C:\\Windows\\System32\\hal.dll", {"mode": "move", "destination": STARTUP},
         f"into {STARTUP}"),
        ((1290, 120), (1450, 300), "C:\\Windows\\System32\\*", {"mode": "delete"}, "to 'Documents' in "),
        (HAL, (300, 950), "C:\\Windows\\System32\\hal.dll", {"mode": "delete"}, f"in '{DOWNLOADS}'"),
        (HAL, (1600, 800), "C:\\Windows\\System32\\hal.dll", {"mode": "read"}, "which receives the file"),
        (HAL, (960, 560), "C:\\Windows\\System32\\hal.dll", {"mode": "move", "destination": "%USERPROFILE%\\Desktop"},
         "into %USERPROFILE%\\Desktop"),
        ((47, 127), (1600, 800), "%USERPROFILE%\\Desktop\\notes.txt", {"mode": "read"}, "from the desktop"),
        (HAL, (47, 127), "C:\\Windows\\System32\\hal.dll",
         {"mode": "move", "destination": "%USERPROFILE%\\Desktop\\notes.txt"}, "into %USERPROFILE%\\Desktop\\notes"),
    ],
)  # fmt: skip
def test_each_drop_is_read_as_its_filesystem_call(
    start: tuple[int, int], end: tuple[int, int], source: str, call: dict[str, str], said: str
) -> None:
    """S-RULE-213: the item is the nearest to the start (off its centre too; a grab beside the items is one of the
    folder's), and the drop decides the call; the description says which."""
    found = explorer_drag(SYSTEM32, start, end)
    assert found is not None
    assert found.source == source
    assert {k: v for k, v in found.call.items() if k != "path"} == call
    assert found.call["path"] == source
    assert said in found.description


@requirement("S-RULE-213")
@pytest.mark.parametrize(
    ("folder", "item"),
    [
        ("C:\\Windows\\System32\\", "hal.dll"),
        ("C:\\Users\\demo\\TAX\\", "a.pdf"),  # only separators are trimmed: a name ending in a letter keeps it
    ],
)
def test_a_folder_written_with_a_trailing_separator_is_the_same_folder(folder: str, item: str) -> None:
    """S-RULE-213: `C:\\Windows\\System32\\` shown in the address is System32; let go over it, nothing moves."""
    trailing = with_windows(showing(folder, item))
    found = explorer_drag(trailing, HAL, (47, 47))
    assert found is not None and found.source == folder + item
    assert explorer_drag(trailing, HAL, ITEMS_VIEW) is None
    into = explorer_drag(trailing, HAL, KERNEL32)
    assert into is not None and into.call["destination"] == folder + item


@requirement("S-RULE-213")
def test_a_navigation_pane_drop_of_a_document_is_its_leaving_not_a_move_into_that_window() -> None:
    """S-RULE-213: the pane's entry names no folder: a photo dropped there leaves Downloads (ordinary), it does not go
    into the Startup window's folder (which would ask)."""
    downloads = with_windows(showing("C:\\Users\\demo\\Downloads", "photo.jpg"))
    assert drag(downloads, HAL, (1450, 300)) is None
    found = explorer_drag(downloads, HAL, (1450, 300))
    assert found is not None and found.call == {"mode": "delete", "path": "C:\\Users\\demo\\Downloads\\photo.jpg"}


@requirement("S-RULE-213")
def test_a_list_item_of_another_program_is_no_file() -> None:
    """S-RULE-213: only Explorer's items and the desktop's icons are files."""
    assert explorer_drag(SYSTEM32, (1700, 900), (47, 47)) is None


@requirement("S-RULE-213")
def test_no_start_and_no_pointer_drags_nothing_known() -> None:
    """S-RULE-213: with neither `from_loc` nor a printed pointer, what is picked up is not known."""
    pointerless = replace(SYSTEM32, cursor=None)
    assert explorer_drag(pointerless, None, (47, 47)) is None


@requirement("S-RULE-213")
def test_a_windows_10_explorer_window_is_known_by_its_address_band() -> None:
    """S-RULE-213: Windows 10 titles File Explorer by the folder alone (`Startup`): its Address Band Root says what it
    is, so a drop on its navigation pane is still the item leaving its folder (a delete), not a hand-over."""
    renamed = tuple(
        replace(e, window="Startup", name="Startup" if e.kind == "window" else e.name)
        if e.window == "Startup - File Explorer"
        else e
        for e in SYSTEM32.elements
    )
    band = _line("Startup", "pane", "Address Band Root", None)
    win10 = replace(SYSTEM32, elements=(*renamed, replace(band, kind="structural")))
    found = explorer_drag(win10, HAL, (1450, 300))
    assert found is not None and found.call == {"mode": "delete", "path": "C:\\Windows\\System32\\hal.dll"}
    into = explorer_drag(win10, HAL, (1600, 300))
    assert into is not None and into.call["destination"] == STARTUP
