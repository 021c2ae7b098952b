"""A path through an environment variable with no standard value (S-RULE-122).

`setx P C:\\Windows\\System32` in one call, `cmd /c del %P%\\hal.dll` in the next: the second names no protected
place, yet deletes a system file. A variable the standard environment does not define may hold any folder, so a
change through it is a change of a target nobody can name, asked like `Remove-Item $x`.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.winenv import unknown_variable
from tests._requirements import requirement
from tests.policy.test_console_folder import typed_after
from tests.policy.verdicts import ps, reason_of

ASKED = ("dynamic-command", "ask")


@requirement("S-RULE-122")
@pytest.mark.parametrize(
    "command",
    [
        r'Remove-Item "$env:P\hal.dll"',
        r"Remove-Item ${env:P}\hal.dll",
        r'cmd /c "del %P%\hal.dll"',
        r'Set-Content "$env:P\hosts" "1.2.3.4 bank.example"',
        r'Copy-Item C:\t\evil.dll "$env:P"',
        r'Move-Item "$env:P" C:\t\away',
        r"Remove-Item C:\Users\$env:P\x.txt",  # a variable in the middle may hold `..\..\Windows`
        r"Set-Location $env:P; Remove-Item hal.dll",
        r'cmd /c "cd /d %P% && del hal.dll"',
    ],
)
def test_a_change_through_a_variable_with_no_standard_value_asks(command: str) -> None:
    """S-RULE-122: delete, write, copy onto, move, and relative changes after moving into such a variable."""
    assert ps(command) == ASKED


@requirement("S-RULE-122")
def test_the_reason_names_the_variable() -> None:
    """S-RULE-122: the person asked sees which variable and why it matters."""
    reason = reason_of(r'Remove-Item "$env:P\hal.dll"')
    assert "Remove-Item of a path through $env:P, which has no standard value" in reason
    assert "may have been set to any folder by an earlier command" in reason


@requirement("S-RULE-122")
@pytest.mark.parametrize(
    "command",
    [
        r"Remove-Item $env:TEMP\build.log",
        r"cmd /c del %USERPROFILE%\x.txt",
        r'Get-Content "$env:P\notes.txt"',  # a read through it changes nothing
        r'Remove-Item "%P%.txt"',  # PowerShell does not expand cmd's spelling: a file with that name
        r"Set-Location $env:USERPROFILE\src; Remove-Item build.log",
    ],
)
def test_standard_variables_reads_and_the_other_shells_spelling_pass(command: str) -> None:
    """S-RULE-122: known variables, reads, and the spelling the shell does not expand."""
    assert ps(command) is None


@requirement("S-RULE-122")
@pytest.mark.parametrize(
    ("shell", "target", "expected"),
    [
        ("powershell", "$env:P\\x", "$env:P"),
        ("powershell", "${env:Odd Name}\\x", "${env:Odd Name}"),
        ("powershell", "$env:windir\\x", None),
        ("powershell", "%P%\\x", None),
        ("cmd", "%P%\\x", "%P%"),
        ("cmd", "%P:~0,3%\\x", "%P:~0,3%"),
        ("cmd", "%ProgramFiles(x86)%\\x", None),
        ("cmd", "$env:P\\x", None),
        ("program", "$env:P\\x", "$env:P"),
        ("program", "%P%\\x", "%P%"),
        ("bash", "$env:P/x", None),
    ],
)
def test_which_variables_a_shell_expands_without_a_standard_value(
    shell: str, target: str, expected: str | None
) -> None:
    """S-RULE-122: each shell's own spelling, names in any case, substrings by their variable's name."""
    assert unknown_variable(shell, target) == expected


@requirement("S-RULE-122")
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd"])
def test_a_console_moved_into_such_a_variable_asks_for_relative_changes(scenario: str) -> None:
    """S-RULE-122: `cd %P%` typed in one call, `del hal.dll` in the next."""
    assert typed_after(("%P%",), "del hal.dll", scenario) == ASKED
    assert typed_after(("%TEMP%",), "del hal.dll", scenario) is None


@requirement("S-RULE-122")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Stop-Process -Name $env:P", ASKED),
        ("Stop-Process -Name $env:P -Force", ("force-kill", "ask")),  # asked either way; the force names it
        ("cdb -pn $env:P", ("credential-access", "deny")),  # a debugger on lsass reads its secrets
        ("Stop-Process -Name $env:USERNAME", None),  # a standard variable: a name the gateway reads
    ],
)
def test_a_process_named_through_such_a_variable_may_be_any_process(command: str, expected: object) -> None:
    """S-RULE-122: a kill asks as a kill of a process nobody can name; a debugger attached to it is credential
    access, as one attached by pid is."""
    assert ps(command) == expected
    if expected == ASKED:
        assert "of a process named through $env:P, which has no standard value and may name any process" in (
            reason_of(command)
        )
