"""A script written from several items has one line per item (S-RULE-129).

`echo 'x' 'rd /s /q C:\\Windows' > x.bat` writes two lines: PowerShell's Write-Output prints each argument on a
line of its own, so the script's second command deletes C:\\Windows. Read as one line (`x rd /s /q …`) it would
start a program called `x`. Found by a mutation-testing helper (issue 12) outside its list.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENIED = ("protected-place-delete", "deny")


@requirement("S-RULE-129")
@pytest.mark.parametrize(
    "command",
    [
        r"echo 'x' 'rd /s /q C:\Windows' > C:\t\x.bat",
        r"Write-Output x 'rd /s /q C:\Windows' > C:\t\x.bat; C:\t\x.bat",
        r"Set-Content C:\t\x.bat 'x','rd /s /q C:\Windows'",
        r"Set-Content -Path C:\t\x.bat -Value 'x','rd /s /q C:\Windows'",
        r"Set-Content -Path C:\t\x.bat -Value @('x', 'rd /s /q C:\Windows')",
        r"Add-Content C:\t\x.cmd -Value ('x', 'rd /s /q C:\Windows')",
        r"Out-File -FilePath C:\t\x.bat -InputObject @('x', 'rd /s /q C:\Windows')",
        r"[IO.File]::WriteAllLines('C:\t\x.bat', @('x', 'rd /s /q C:\Windows'))",
        r"[IO.File]::AppendAllLines('C:\t\x.bat', [string[]]('x', 'rd /s /q C:\Windows'))",
    ],
)
def test_each_item_of_a_written_script_is_a_line_of_its_own(command: str) -> None:
    """S-RULE-129: the second item is the script's second command, judged as one."""
    assert ps(command) == DENIED


@requirement("S-RULE-129")
def test_a_powershell_script_written_from_items_is_read_line_by_line() -> None:
    """S-RULE-129: a `.ps1` too; its harmless lines pass."""
    assert ps(r"Add-Content C:\t\x.ps1 'Write-Output hi','Remove-Item -Recurse -Force C:\Windows'")[1] == "deny"
    assert ps(r"Set-Content C:\t\x.ps1 'Get-Date','Get-Process'") is None


@requirement("S-RULE-129")
@pytest.mark.parametrize(
    "command",
    [
        r"Set-Content C:\t\x.bat '@echo off','echo hello'",
        r"Set-Content C:\t\x.bat 'echo a,b'",  # a string holding a comma, read both ways: both harmless
        r"echo 'x' 'y' > C:\t\x.bat",
        r'cmd /c "echo x rd /s /q C:\Windows > C:\t\x.bat"',  # cmd's echo writes one line: `x rd …` runs `x`
    ],
)
def test_harmless_items_and_cmds_one_line_echo_pass(command: str) -> None:
    """S-RULE-129: lines that do nothing dangerous pass; cmd's `echo a b` is one line, as cmd writes it."""
    assert ps(command) is None
