"""File Explorer's delete keys delete what is selected in the folder it shows (S-RULE-153).

A Shortcut `delete` with File Explorer showing System32 and `hal.dll` focused deletes a system file as surely as
FileSystem `delete` would; before, keys were judged only where they type text.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy.observation import Capture
from policy.rules.keyboard import explorer_delete
from tests._requirements import requirement
from tests.policy.test_typed import capture_of, hit_on


def showing(folder: str, focused_item: str | None = "hal.dll") -> Capture:
    """The `explorer-system32` world with its address set to `folder`, and `focused_item` (or none) focused."""
    cap = capture_of("explorer-system32")
    elements = []
    for e in cap.elements:
        if e.name == "Address":
            e = replace(e, meta=(("value", folder),))
        if e.control == "list item":
            focused = focused_item is not None and e.name == "hal.dll"
            e = replace(e, name=focused_item or e.name, flags=frozenset({"focused"}) if focused else frozenset())
        elements.append(e)
    return replace(cap, elements=tuple(elements))


@requirement("S-RULE-153")
@pytest.mark.parametrize("key", ["delete", "Delete", "del", "shift+delete", "ctrl+d", "Ctrl+D"])
def test_a_delete_key_in_system32_is_refused(key: str) -> None:
    """S-RULE-153: every delete chord on the focused system file is the delete of that file."""
    assert hit_on(capture_of("explorer-system32"), "Shortcut", shortcut=key) == ("protected-place-delete", "deny")


@requirement("S-RULE-153")
@pytest.mark.parametrize(
    ("folder", "item", "expected"),
    [
        ("C:\\Users\\demo\\.ssh", None, ("credential-access", "deny")),  # whichever item is selected
        ("C:\\Windows\\System32\\drivers\\etc", None, ("protected-place-delete", "deny")),
        ("C:\\Users\\demo\\.ssh", "id_ed25519", ("credential-access", "deny")),
        ("C:\\Users\\demo\\Documents", None, None),  # one item, not every item: no wildcard-delete
        ("C:\\Users\\demo\\Downloads", "setup.exe", None),
        ("C:\\Users", "demo", ("protected-place-delete", "deny")),
    ],
)
def test_the_focused_item_or_any_item_is_judged(folder: str, item: str | None, expected: object) -> None:
    """S-RULE-153: the focused item stands for the selection; without one, any item of the folder does."""
    assert hit_on(showing(folder, item), "Shortcut", shortcut="delete") == expected


@requirement("S-RULE-153")
@pytest.mark.parametrize("key", ["ctrl+c", "enter", "ctrl+a", "d"])
def test_other_keys_delete_nothing(key: str) -> None:
    """S-RULE-153: copying, opening, selecting and a plain `d` are not deletes (renaming and cutting are judged as
    taking the item out of its place: S-RULE-218)."""
    assert hit_on(capture_of("explorer-system32"), "Shortcut", shortcut=key) is None


@requirement("S-RULE-153")
def test_delete_in_a_text_box_edits_text() -> None:
    """S-RULE-153: with the keyboard in the address box (`explorer-address`), Delete removes a character."""
    cap = capture_of("explorer-address")
    assert explorer_delete(cap, "delete") is None
    moved = replace(
        cap,
        elements=tuple(replace(e, meta=(("value", "C:\\Windows\\System32"),)) if e.name == "Address" else e
                       for e in cap.elements),
    )  # fmt: skip
    assert hit_on(moved, "Shortcut", shortcut="delete") is None


@requirement("S-RULE-153")
def test_explorer_delete_names_the_item_and_how() -> None:
    """S-RULE-153: the focused item's path, and whether the Recycle Bin is skipped."""
    cap = capture_of("explorer-system32")
    found = explorer_delete(cap, "shift+delete")
    assert found is not None
    assert found.paths == ("C:\\Windows\\System32\\hal.dll",)
    assert found.permanent is True
    assert explorer_delete(cap, "delete").permanent is False  # type: ignore[union-attr]
    assert explorer_delete(showing("C:\\x", None), "delete").paths == ("C:\\x\\*",)  # type: ignore[union-attr]
    assert explorer_delete(cap, None) is None
    assert explorer_delete(capture_of("notepad"), "delete") is None  # not File Explorer


@requirement("S-RULE-153")
@pytest.mark.parametrize(
    ("folder", "expected"),
    [
        ("C:\\Windows\\System32", ("persistence-hijack", "deny")),  # any name could replace a system program
        ("C:\\Users\\demo\\.ssh", ("credential-access", "deny")),
        ("C:\\Users\\demo\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
         ("persistence-autostart", "ask")),
        ("C:\\Users\\demo\\Documents", None),
        ("C:\\Users\\demo\\Downloads", None),
    ],
)  # fmt: skip
@pytest.mark.parametrize("key", ["ctrl+v", "shift+insert"])
def test_a_paste_drops_unnamed_files_into_the_folder_shown(folder: str, expected: object, key: str) -> None:
    """S-RULE-153: File Explorer's paste is a copy of files nobody named into the folder it shows (S-RULE-147)."""
    shown = showing(folder, "notes.txt")  # the keyboard on an item of the list, as after a click there
    assert hit_on(shown, "Shortcut", shortcut=key) == expected
    assert hit_on(shown, "Shortcut", shortcut="v") is None  # a plain `v` selects by name
