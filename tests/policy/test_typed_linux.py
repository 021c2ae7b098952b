"""Text typed into a console is judged as a Linux shell runs it too (S-RULE-131).

A console may hold WSL, Git Bash or an SSH session (a Terminal tab titled after the profile, a remote screen): there
`sudo rm -rf /` reaches every Windows drive through `/mnt/c`, and PowerShell's and cmd's readings of the same text
name no protected place.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import capture_of, focus_point, hit_of


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
    """S-RULE-131: the Run box and address bars run Windows command lines only."""
    loc = focus_point(capture_of("run-box"))
    assert hit_of("run-box", "Type", text="rm /mnt/c/Windows/System32/hal.dll", loc=loc, press_enter=True) is None
