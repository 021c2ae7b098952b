"""A path typed into a file dialog's name box is a write or a read (S-RULE-149).

Notepad's Save As dialog saves the document wherever its "File name:" box says: typing
`C:\\Users\\me\\.ssh\\authorized_keys` there and pressing Enter (or Save) plants an SSH key as surely as
FileSystem `write` would; an Open dialog shows the file it names (a private key on the screen). The captures
are the simulator's `settings` world (samples/05's Save As dialog) and hand-made variants of it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy.observation import Capture, Element
from policy.rules.keyboard import TypingTarget, file_name_box, typing_target
from tests._requirements import requirement
from tests.policy.test_typed import capture_of, hit_on

NAME_BOX = [950, 665]
SAVE = [1045, 755]


def settings() -> Capture:
    return capture_of("settings")


def as_open_dialog(cap: Capture) -> Capture:
    """The same dialog titled "Open" with an "Open" button: what its name box names is opened, not written."""

    def el(e: Element) -> Element:
        window = "Open" if e.window == "Save As" else e.window
        name = {"Save As": "Open", "Save": "Open"}.get(e.name, e.name) if e.window == "Save As" else e.name
        return replace(e, window=window, name=name)

    return replace(cap, elements=tuple(el(e) for e in cap.elements))


def with_box_value(cap: Capture, value: str, folder: str | None = None) -> Capture:
    """The dialog with `value` in its name box and, when given, its breadcrumb showing `folder`."""
    elements = [
        replace(e, meta=(("value", value),)) if e.window == "Save As" and e.name == "File name:" else e
        for e in cap.elements
    ]
    if folder is not None:
        box = next(e for e in elements if e.window == "Save As" and e.name == "File name:")
        elements.append(replace(box, control="tool bar", name=f"Address: {folder}", point=None, meta=()))
    return replace(cap, elements=tuple(elements))


@requirement("S-RULE-149")
def test_the_name_box_of_a_save_dialog_is_a_file_save() -> None:
    """S-RULE-149: the Save As dialog's "File name:" box saves; the same box in an "Open" dialog opens."""
    assert typing_target(settings(), (950, 665))[0] is TypingTarget.FILE_SAVE
    assert typing_target(as_open_dialog(settings()), (950, 665))[0] is TypingTarget.FILE_OPEN


@requirement("S-RULE-149")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C:\\Users\\me\\.ssh\\authorized_keys", ("account-change", "deny")),
        ("%USERPROFILE%\\.ssh\\authorized_keys", ("account-change", "deny")),  # the dialog expands variables
        ("C:\\Windows\\System32\\drivers\\etc\\hosts", ("protected-place-write", "deny")),
        ("C:\\Users\\me\\Documents\\WindowsPowerShell\\Microsoft.PowerShell_profile.ps1", ("self-protection", "deny")),
        ('"C:\\Users\\me\\.ssh\\authorized_keys"', ("account-change", "deny")),  # quoted, as the dialog accepts
        ("..\\..\\.ssh\\authorized_keys", ("dynamic-command", "ask")),  # out of a folder nobody can see
        ("notes2.txt", None),  # a bare name in the dialog's own folder
        ("C:\\Users\\me\\Documents\\notes2.txt", None),
    ],
)
@pytest.mark.parametrize("enter", [True, False])  # without Enter, a later Enter or Save saves it
def test_a_path_typed_into_a_save_dialog_is_judged_as_a_write(
    text: str, expected: tuple[str, str] | None, enter: bool
) -> None:
    """S-RULE-149: the typed path is judged as FileSystem `write` of it, with or without Enter."""
    assert hit_on(settings(), "Type", text=text, loc=NAME_BOX, press_enter=enter) == expected


@requirement("S-RULE-149")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C:\\Users\\me\\.ssh\\id_rsa", ("credential-access", "deny")),
        ('"C:\\t\\a.txt" "C:\\Users\\me\\.ssh\\id_ed25519"', ("credential-access", "deny")),  # several files
        ("C:\\Windows\\System32\\drivers\\etc\\hosts", None),  # reading a protected place is allowed
        ("C:\\t\\a.txt", None),
    ],
)
def test_a_path_typed_into_an_open_dialog_is_judged_as_a_read(text: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-149: an Open dialog shows the file it names: a credential store is a credential read."""
    assert hit_on(as_open_dialog(settings()), "Type", text=text, loc=NAME_BOX, press_enter=True) == expected


@requirement("S-RULE-149")
def test_a_bare_name_is_judged_in_the_folder_the_dialog_shows() -> None:
    """S-RULE-149: with its breadcrumb showing `~\\.ssh`, `authorized_keys` is that folder's file."""
    cap = with_box_value(settings(), "notes.txt", folder="C:\\Users\\me\\.ssh")
    assert hit_on(cap, "Type", text="authorized_keys", loc=NAME_BOX) == ("account-change", "deny")
    assert hit_on(cap, "Type", text="notes.txt", loc=NAME_BOX) is None


@requirement("S-RULE-149")
@pytest.mark.parametrize(
    ("value", "folder", "expected"),
    [
        ("C:\\Users\\me\\.ssh\\authorized_keys", None, ("account-change", "deny")),
        ("authorized_keys", "C:\\Users\\me\\.ssh", ("account-change", "deny")),
        ("notes.txt", None, None),
        ("authorized_keys", None, None),  # a bare name, no folder shown: nothing to judge it by
    ],
)
def test_the_save_button_saves_what_the_name_box_holds(
    value: str, folder: str | None, expected: tuple[str, str] | None
) -> None:
    """S-RULE-149: a click on Save is the Enter of the name box: its value (as the Snapshot shows it) is judged."""
    assert hit_on(with_box_value(settings(), value, folder), "Click", loc=SAVE) == expected


@requirement("S-RULE-149")
def test_file_name_box_finds_the_dialog_of_a_save_button_only() -> None:
    """S-RULE-149: Save gives the box's kind, text and folder; Cancel, or a point on nothing, gives None."""
    cap = with_box_value(settings(), "x.txt", folder="D:\\out")
    found = file_name_box(cap, (1045, 755))
    assert found is not None
    assert (found[0], found[2], found[3]) == (TypingTarget.FILE_SAVE, "x.txt", "D:\\out")
    assert file_name_box(cap, (1145, 755)) is None  # Cancel
    assert file_name_box(cap, (1, 1)) is None
    assert file_name_box(cap, None) is None


@requirement("S-RULE-149")
@pytest.mark.parametrize("scenario", ["explorer-address", "browser-address", "run-box"])
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # opened whole, blanks and all, as ShellExecute opens it (a command line would split it)
        (
            "C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data",
            ("credential-access", "deny"),
        ),
        ("view-source:file:///C:/Users/me/.ssh/id_rsa", ("credential-access", "deny")),
        ("C:\\Users\\me\\My Documents\\report 2024.docx", None),
        ("file:///C:/Users/me/Documents/a.pdf", None),
        ("view-source:https://example.com", None),
    ],
)
def test_the_run_box_and_address_bars_open_a_path_whole(scenario: str, text: str, expected: object) -> None:
    """S-RULE-149: a path typed where it is opened is judged as `Invoke-Item` of the whole of it."""
    cap = capture_of(scenario)
    points = [e.point for e in cap.elements if "focused" in e.flags and e.point is not None]
    loc = list(points[0]) if points else [850, 62]
    assert hit_on(cap, "Type", text=text, loc=loc, press_enter=True) == expected
