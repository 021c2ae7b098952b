"""An editor's integrated terminal is a console (S-RULE-126).

VS Code's window is titled after the open file ("main.py - project - Visual Studio Code"); only the terminal's
input element says it runs a shell ("Terminal 1, pwsh"). Text typed there runs as in any console.
"""

from __future__ import annotations

import pytest

from policy.observation import Capture, Element, Window
from policy.rules.keyboard import TypingTarget, typing_target
from tests._requirements import requirement
from tests.policy.test_typed import capture_of, focus_point, hit_of

EDITOR = "main.py - project - Visual Studio Code"


def editor_with(name: str, control: str = "edit") -> Capture:
    """An editor window whose one focused element at (500, 700) is `name`."""
    window = Window(name=EDITOR, depth=0, status="Normal", width=1000, height=800, handle=1)
    return Capture(
        tool="Snapshot",
        focused=window,
        windows=(window,),
        elements=(
            Element(kind="window", control="window", name=EDITOR, window=EDITOR),
            Element(
                kind="element",
                control=control,
                name=name,
                point=(500, 700),
                flags=frozenset({"focused"}),
                window=EDITOR,
            ),
        ),
        tree="present",
    )


@requirement("S-RULE-126")
@pytest.mark.parametrize(
    ("name", "control"),
    [
        ("Terminal 1, pwsh", "edit"),
        ("Terminal 3, bash, Use Alt+F1 for terminal accessibility help", "edit"),
        ("Terminal input", "edit"),
        ("Terminal", "tab item"),
        ("Terminal: Local", "pane"),
    ],
)
def test_a_terminal_input_in_an_editor_is_a_console(name: str, control: str) -> None:
    """S-RULE-126: at its point and as the keyboard focus, whatever the window's title."""
    capture = editor_with(name, control)
    assert typing_target(capture, (500, 700))[0] is TypingTarget.CONSOLE
    assert typing_target(capture, None)[0] is TypingTarget.CONSOLE
    assert "the integrated terminal" in typing_target(capture, None)[1]


@requirement("S-RULE-126")
@pytest.mark.parametrize(
    "name", ["Editor content;Press Alt+F1 for Accessibility Options.", "Terminals", "Terminal settings", "Search"]
)
def test_the_editor_and_names_that_only_contain_the_word_are_text(name: str) -> None:
    """S-RULE-126: the editor's own text area and look-alike names stay ordinary text fields."""
    assert typing_target(editor_with(name), (500, 700))[0] is TypingTarget.TEXT


@requirement("S-RULE-126")
def test_the_simulated_editor_judges_its_terminal_and_not_its_editor() -> None:
    """S-RULE-126: in the `vscode-terminal` world a delete typed into the terminal is refused; code typed into the
    editor and an ordinary command in the terminal pass."""
    terminal = focus_point(capture_of("vscode-terminal"))
    delete = "Remove-Item -Recurse -Force C:\\Users"
    assert hit_of("vscode-terminal", "Type", text=delete, loc=terminal, press_enter=True) == (
        "protected-place-delete",
        "deny",
    )
    assert hit_of("vscode-terminal", "Type", text="git status", loc=terminal, press_enter=True) is None
    code = "import shutil; shutil.rmtree('C:/Users')"
    assert hit_of("vscode-terminal", "Type", text=code, loc=[1000, 300]) is None
