"""Language prompts and more terminals (S-RULE-103): an attacker pass of stop 31.

With a Python prompt focused, `Type {text: "import shutil; shutil.rmtree('C:/Users')", press_enter: true}`
was forwarded: the window was not known as a place that runs text, and the command rules read Python
as nothing. A language prompt now asks for whatever is typed into it, as `python -c` on a command line
does; conda's, Git's and third-party terminals (and an SSH client's window) are consoles.
"""

from __future__ import annotations

from typing import Any

import pytest

from policy.rules.keyboard import TypingTarget, is_console_title, is_interpreter_title, typing_target
from tests._requirements import requirement
from tests.policy.test_keyboard import retitle, snap
from tests.policy.test_typed import capture_of, focus_point, hit_of, hit_on

PYTHON = "import shutil; shutil.rmtree('C:/Users')"


@requirement("S-RULE-103")
@pytest.mark.parametrize(
    "title",
    [
        "Python 3.12 (64-bit)",
        "C:\\Python312\\python.exe",
        "Administrator: C:\\Windows\\py.exe",
        "C:\\Program Files\\nodejs\\node.exe",
        "Node.js",
        "python",
        "Command Prompt - python",
        "C:\\WINDOWS\\system32\\cmd.exe - python  app.py",
        "Windows PowerShell - node",
        "Command Prompt - sqlcmd -S db",
    ],
)
def test_a_language_prompt_is_known_by_its_title(title: str) -> None:
    """S-RULE-103: the Start menu's Python, an interpreter's program path, a shell running one."""
    assert is_interpreter_title(title)
    assert typing_target(retitle(snap("notepad"), "powershell notes.txt - Notepad", title), (800, 520))[0] is (
        TypingTarget.INTERPRETER
    )


@requirement("S-RULE-103")
@pytest.mark.parametrize(
    "title",
    ["python notes.txt - Notepad", "Python - Wikipedia - Google Chrome", "Command Prompt - ping 1.1.1.1", "pyramid"],
)
def test_a_title_that_only_mentions_a_language_is_not_a_prompt(title: str) -> None:
    """S-RULE-103: a document or page about Python, and a shell running another program, are not prompts."""
    assert not is_interpreter_title(title)


@requirement("S-RULE-103")
@pytest.mark.parametrize(
    "title",
    [
        "Anaconda Prompt (miniconda3)",
        "Anaconda Powershell Prompt (miniconda3)",
        "Git CMD",
        "Cmder",
        "MSYS2 MINGW64",
        "Cygwin64 Terminal",
        "Windows Terminal Preview",
        "10.0.0.5 - PuTTY",
        "WezTerm",
    ],
)
def test_more_terminals_are_consoles(title: str) -> None:
    """S-RULE-103: conda's and Git's prompts, third-party terminals and an SSH client run typed commands."""
    assert is_console_title(title)
    assert not is_console_title(title + ".txt - Notepad")


def _python(**args: Any) -> tuple[str, str] | None:
    return hit_of("python-repl", "Type", loc=focus_point(capture_of("python-repl")), **args)


@requirement("S-RULE-103")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"text": PYTHON, "press_enter": True}, ("dynamic-command", "ask")),
        ({"text": PYTHON}, ("dynamic-command", "ask")),  # a later Enter runs it
        ({"text": "print('hello')\n"}, ("dynamic-command", "ask")),
        ({"text": "   "}, None),  # blank text runs nothing
    ],
    ids=["enter", "no-enter", "newline", "blank"],
)
def test_text_typed_into_a_language_prompt_asks(args: dict[str, Any], expected: object) -> None:
    """S-RULE-103: what a Python prompt runs cannot be judged by the command rules: a person decides."""
    assert typing_target(capture_of("python-repl"), None)[0] is TypingTarget.INTERPRETER
    assert _python(**args) == expected


@requirement("S-RULE-103")
@pytest.mark.parametrize(
    ("text", "expected"),
    [("Remove-Item -Recurse -Force C:\\Windows", ("protected-place-delete", "deny")), ("conda activate base", None)],
    ids=["delete", "ordinary"],
)
def test_a_command_typed_into_a_conda_prompt_is_judged(text: str, expected: object) -> None:
    """S-RULE-103: an Anaconda Prompt is a console: a recursive delete typed there is denied, `conda` passes."""
    capture = retitle(snap("console-cmd"), "Command Prompt", "Anaconda Prompt (miniconda3)")
    assert typing_target(capture, None)[0] is TypingTarget.CONSOLE
    assert hit_on(capture, "Type", text=text, press_enter=True) == expected
