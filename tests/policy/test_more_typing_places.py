"""More windows that run typed text (S-RULE-108): an attacker pass of stop 32.

A command typed into a Remote Desktop or virtual machine window was forwarded: the window was not a
place that runs text, though the keyboard reaches whatever has focus on that machine, a shell included.
IPython, R, Julia and the database shells' own titles were not known as language prompts, and a few
consoles (Node.js's prompt, WSL by its name, Nushell, Tera Term, `user@host:path`) not as consoles.
"""

from __future__ import annotations

import pytest

from policy.rules.keyboard import (
    TypingTarget,
    is_console_title,
    is_interpreter_title,
    is_remote_screen_title,
    typing_target,
)
from tests._requirements import requirement
from tests.policy.test_keyboard import retitle, snap
from tests.policy.test_typed import hit_on

NOT_A_PLACE = [
    "Remote Desktop Connection.docx - Word",
    "Oracle VM VirtualBox Manager",
    "julia notes.txt - Notepad",
    "R",
    "Menu",
]


@requirement("S-RULE-108")
@pytest.mark.parametrize(
    "title",
    [
        "Node.js command prompt",
        "Windows Subsystem for Linux",
        "Nushell",
        "10.0.0.5 - Tera Term VT",
        "root@host:/mnt/c#",
    ],
)
def test_more_consoles_are_known_by_their_titles(title: str) -> None:
    """S-RULE-108: Node.js's prompt, WSL, Nushell, Tera Term and a shell's `user@host:path` title are consoles."""
    assert is_console_title(title)


@requirement("S-RULE-108")
@pytest.mark.parametrize(
    "title",
    [
        "IPython: C:Users/me",
        "Jupyter QtConsole",
        "RGui (64-bit)",
        "R Console",
        "Julia 1.10",
        "SQL Shell (psql)",
        "MySQL 8.0 Command Line Client",
        "mongosh mongodb://localhost",
        "Erlang",
    ],
)
def test_more_language_prompts_are_known_by_their_titles(title: str) -> None:
    """S-RULE-108: IPython, Jupyter's console, R, Julia, Erlang and the database shells are language prompts."""
    assert is_interpreter_title(title)


@requirement("S-RULE-108")
@pytest.mark.parametrize(
    "title",
    [
        "Remote Desktop Connection",
        "10.0.0.5 - Remote Desktop Connection",
        "Windows Sandbox",
        "Win11 - VMware Workstation",
        "WIN11 on HOST - Virtual Machine Connection",
        "Win11 [Running] - Oracle VM VirtualBox",
        "Win11 [Wird ausgeführt] - Oracle VM VirtualBox",  # the state is in the user's language
        "Win11 [Running] - Oracle VirtualBox",  # the name since VirtualBox 7.1
        "server - VNC Viewer",
        "123 456 789 - TeamViewer",
        "123 456 789 - AnyDesk",
    ],
)
def test_a_remote_or_virtual_screen_is_known_by_its_title(title: str) -> None:
    """S-RULE-108: Remote Desktop, Sandbox, VMware, Hyper-V, VirtualBox, VNC and remote-support sessions."""
    assert is_remote_screen_title(title)
    assert typing_target(retitle(snap("notepad"), "powershell notes.txt - Notepad", title), (800, 520))[0] is (
        TypingTarget.CONSOLE
    )


@requirement("S-RULE-108")
@pytest.mark.parametrize("title", NOT_A_PLACE)
def test_a_document_named_after_one_is_no_command_place(title: str) -> None:
    """S-RULE-108: a document or a bare letter is not a console, a prompt or a remote screen."""
    assert not (is_console_title(title) or is_interpreter_title(title) or is_remote_screen_title(title))


@requirement("S-RULE-108")
@pytest.mark.parametrize(
    ("text", "expected"),
    [("Remove-Item -Recurse -Force C:\\Windows", ("protected-place-delete", "deny")), ("quarterly report", None)],
    ids=["delete", "ordinary"],
)
def test_text_typed_into_a_remote_session_is_judged_as_a_command(text: str, expected: object) -> None:
    """S-RULE-108: typed into a Remote Desktop window, a delete is denied; ordinary text passes."""
    capture = retitle(snap("notepad"), "powershell notes.txt - Notepad", "10.0.0.5 - Remote Desktop Connection")
    assert hit_on(capture, "Type", text=text, press_enter=True, loc=[800, 520]) == expected
