"""An editor's run key runs code nobody judged (S-RULE-139).

Text typed into an editor is an ordinary text field's (S-RULE-126): it is not read as a command. An editor that runs
its document or selection on a key (F5 in VS Code, F8 in the PowerShell ISE, Ctrl+E in SQL Server Management Studio)
turns that text into code; the key is where the gateway must ask.
"""

from __future__ import annotations

import pytest

from policy.observation import Capture, Element, Window
from policy.rules.keyboard import document_run_button, document_run_keys
from tests._requirements import requirement
from tests.policy.test_typed import hit_on

ASK = ("dynamic-command", "ask")


def focused_on(title: str, *elements: Element) -> Capture:
    """A capture whose focused window is `title`."""
    window = Window(name=title, depth=0, status="Maximized", width=1920, height=1032, handle=7)
    return Capture(tool="Snapshot", focused=window, windows=(window,), elements=elements)


def button(name: str, window: str, point: tuple[int, int] = (400, 40), control: str = "button") -> Element:
    return Element(kind="element", control=control, name=name, point=point, window=window, depth=3, flags=())


@requirement("S-RULE-139")
@pytest.mark.parametrize(
    ("title", "keys"),
    [
        ("deploy.ps1 - infra - Visual Studio Code", ["f5", "ctrl+f5", "F8", "shift+enter", "ctrl+alt+n"]),
        ("main.py - project - Visual Studio Code - Insiders", ["f5"]),
        ("App (Running) - Microsoft Visual Studio", ["f5", "ctrl+f5"]),
        ("Administrator: Windows PowerShell ISE", ["f5", "f8"]),
        ("SQLQuery1.sql - srv.master (sa (52)) - Microsoft SQL Server Management Studio", ["f5", "ctrl+e", "alt+x"]),
        ("query.sql - Azure Data Studio", ["f5"]),
        ("Microsoft Visual Basic for Applications - Book1.xlsm", ["f5", "f8"]),
        ("report.R - RStudio", ["ctrl+enter", "ctrl+shift+enter", "ctrl+shift+s"]),
        ("Spyder (Python 3.12)", ["f5", "f9"]),
        ("x.py - C:\\t\\x.py (3.12.1)", ["f5"]),
    ],
)
def test_a_run_key_in_an_editor_asks(title: str, keys: list[str]) -> None:
    """S-RULE-139: each editor's keys that run the document or selection ask; the reason names key and editor."""
    for key in keys:
        assert hit_on(focused_on(title), "Shortcut", shortcut=key) == ASK, key
    found = document_run_keys(focused_on(title), keys[0])
    assert found is not None and repr(title) in found


@requirement("S-RULE-139")
@pytest.mark.parametrize(
    ("title", "key"),
    [
        ("deploy.ps1 - infra - Visual Studio Code", "ctrl+s"),
        ("deploy.ps1 - infra - Visual Studio Code", "ctrl+e"),  # quick open, not SSMS's execute
        ("Administrator: Windows PowerShell ISE", "ctrl+f5"),
        ("notes.txt - Notepad", "f5"),  # Notepad's F5 types the time and date
        ("Google - Microsoft Edge", "f5"),  # a browser reloads
        ("visual studio code tips.txt - Notepad", "f5"),
    ],
)
def test_other_keys_and_other_windows_pass(title: str, key: str) -> None:
    """S-RULE-139: keys that run nothing, and the same keys in windows that are no such editor."""
    assert hit_on(focused_on(title), "Shortcut", shortcut=key) is None


@requirement("S-RULE-139")
def test_a_run_button_of_an_editor_asks() -> None:
    """S-RULE-139: a click on a run button printed exactly at the point; other buttons, and a run button of an
    application that is no editor, pass."""
    title = "main.py - project - Visual Studio Code"
    for name in ("Run Python File", "Run", "Start Debugging", "Run Script (F5)"):
        capture = focused_on(title, button(name, title))
        assert hit_on(capture, "Click", loc=[400, 40]) == ASK, name
    split = focused_on(title, button("Run or Debug...", title, control="split button"))
    assert hit_on(split, "Click", loc=[400, 40]) is None  # opens a menu of run commands: nothing runs yet
    assert hit_on(focused_on(title, button("Save", title)), "Click", loc=[400, 40]) is None
    assert hit_on(focused_on(title, button("Run", title)), "Click", loc=[10, 10]) is None  # not at the button
    other = "Downloads - File Explorer"
    assert hit_on(focused_on(other, button("Run", other)), "Click", loc=[400, 40]) is None
    ssms = "SQLQuery1.sql - srv.master - Microsoft SQL Server Management Studio"
    assert document_run_button(focused_on(ssms, button("Execute", ssms, control="menu item")), (400, 40)) is not None
