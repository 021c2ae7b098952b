"""Text typed into a console is judged as a Linux shell runs it too (S-RULE-131).

A console may hold WSL, Git Bash or an SSH session (a Terminal tab titled after the profile, a remote screen): there
`sudo rm -rf /` reaches every Windows drive through `/mnt/c`, and PowerShell's and cmd's readings of the same text
name no protected place.
"""

from __future__ import annotations

import pytest

from policy.rules.keyboard import UNKNOWN_FOLDER
from tests._requirements import requirement
from tests.policy.test_console_folder import typed_after
from tests.policy.test_typed import capture_of, focus_point, hit_of
from tests.policy.verdicts import ps


@requirement("S-RULE-131")
@pytest.mark.parametrize("scenario", ["console-powershell", "windows-terminal", "remote-desktop", "vscode-terminal"])
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sudo rm -rf /", ("protected-place-delete", "deny")),
        ("rm /mnt/c/Windows/System32/hal.dll", ("protected-place-delete", "deny")),
        ("rm -f /mnt/c/Program\\ Files/App/x.dll", ("protected-place-delete", "deny")),
        ("ls -la", None),
        ("git status", None),
        ("echo 'rm -rf /'", None),
    ],
)
def test_a_console_is_judged_as_a_linux_shell_too(scenario: str, text: str, expected: object) -> None:
    """S-RULE-131: the worse of the PowerShell, cmd and Linux readings stands; a printed command is no command."""
    loc = focus_point(capture_of(scenario))
    assert hit_of(scenario, "Type", text=text, loc=loc, press_enter=True) == expected


@requirement("S-RULE-131")
def test_the_run_box_starts_no_linux_shell() -> None:
    """S-RULE-131: the Run box and address bars run Windows command lines only: a Linux shell's `cd` there is no
    program, so the `rm` after it (a Linux reading would put in System32) is not read as a shell's."""
    loc = focus_point(capture_of("run-box"))
    text = "cd /mnt/c/Windows/System32; rm hal.dll"
    assert hit_of("run-box", "Type", text=text, loc=loc, press_enter=True) is None


@requirement("S-RULE-132")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("bash -c 'cd /mnt/c/Windows/System32 && rm hal.dll'", ("protected-place-delete", "deny")),
        ("bash -c 'cd /mnt/c/Windows; cd System32; rm hal.dll'", ("protected-place-delete", "deny")),
        ("wsl -e bash -c 'cd /mnt/c/Program\\ Files/App && rm -f x.dll'", ("protected-place-delete", "deny")),
        ("bash -c 'cd \"$X\" && rm hal.dll'", ("dynamic-command", "ask")),
        ("bash -c 'cd - && rm hal.dll'", ("dynamic-command", "ask")),
        ("bash -c 'cd /tmp && rm x.txt'", None),
        ("bash -c 'cd && rm -f build.log'", None),  # home
        ("bash -c 'cd /mnt/c/Windows && ls'", None),
    ],
)
def test_a_cd_moves_the_later_relative_paths_of_a_linux_line(command: str, expected: object) -> None:
    """S-RULE-132: joined to the folder, `..` followed; a folder nobody can name leaves the path unknown."""
    assert ps(command) == expected


@requirement("S-RULE-132")
@pytest.mark.parametrize(
    ("moves", "text", "expected"),
    [
        (("/mnt/c/Windows/System32",), "rm hal.dll", ("protected-place-delete", "deny")),
        (("/mnt/c/Windows", "System32"), "rm -f hal.dll", ("protected-place-delete", "deny")),
        ((UNKNOWN_FOLDER,), "rm hal.dll", ("dynamic-command", "ask")),
        (("/tmp",), "rm x.txt", None),
        (("/mnt/c/Windows",), "ls", None),
    ],
)
def test_a_console_cd_entered_earlier_moves_the_linux_reading(
    moves: tuple[str, ...], text: str, expected: object
) -> None:
    """S-RULE-132: `cd /mnt/c/Windows/System32` typed by one call, `rm hal.dll` by the next."""
    assert typed_after(moves, text, "windows-terminal") == expected
