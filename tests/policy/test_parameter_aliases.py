"""A cmdlet's own parameter aliases are that cmdlet's parameters, and only its own (S-RULE-205).

Before, `Out-File -Path C:\\Windows\\System32\\x.dll` and `Tee-Object -Path …` passed (their `-FilePath` has the
alias `Path`), `Start-Process -Path cmd -ArgumentList '/c rd /s /q …'` only asked as dynamic (its `-FilePath` has
the aliases `Path` and `PSPath`), and `New-Service -Path '<command line>'` was not judged by that command line
(`-BinaryPathName`'s alias). One table of aliases was applied to every cmdlet, so `Write-S3Object -File` read as
`-FilePath` and `Start-Process -PSPath` as `-LiteralPath`.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import bind
from policy.rules.shell.ops import Operation
from tests._requirements import requirement
from tests.policy.verdicts import ps

WRITE = ("protected-place-write", "deny")
DELETE = ("protected-place-delete", "deny")


@requirement("S-RULE-205")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"Get-Process | Out-File -Path C:\Windows\System32\x.dll", WRITE),
        (r"Get-Process | Out-File -Fi C:\Windows\System32\x.dll", WRITE),  # a prefix of -FilePath
        (r"Get-Process | Tee-Object -Path C:\Windows\System32\x.dll", WRITE),
        (r"Get-Process | Tee-Object -FileP C:\Windows\System32\x.dll", WRITE),
        (r"Start-Process -Path cmd -ArgumentList '/c rd /s /q C:\Windows'", DELETE),
        (r"Start-Process -PSPath cmd -Args '/c rd /s /q C:\Windows'", DELETE),
        (r"New-Service -Name x -Path 'cmd /c rd /s /q C:\Windows'", DELETE),
        ("Stop-Service -SN WinDefend", ("disable-defender", "deny")),
        ("Stop-Process -PID 4", ("kill-critical-process", "deny")),
        ("Get-Process -ProcessName lsass | Stop-Process", ("kill-critical-process", "deny")),
        ("Clear-EventLog -LN Security", ("log-clear", "deny")),
        (r"New-Item -Type SymbolicLink -Path C:\t\l -Target C:\Windows", WRITE),
    ],
)
def test_a_cmdlets_own_alias_is_its_parameter(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-205: each spelling is judged as the parameter it names."""
    assert ps(command) == expected


def _bound(name: str, *params: tuple[str, str]) -> dict[str, str | None]:
    return bind(Operation(shell="powershell", name=name, params=params))


@requirement("S-RULE-205")
@pytest.mark.parametrize(
    ("cmdlet", "written", "bound_as"),
    [
        ("start-process", "path", "filepath"),
        ("start-process", "pspath", "filepath"),  # not -LiteralPath: Start-Process has none
        ("start-process", "runas", "credential"),
        ("out-file", "path", "filepath"),
        ("invoke-command", "pspath", "filepath"),
        ("new-service", "path", "binarypathname"),
        ("new-item", "type", "itemtype"),
        ("new-item", "target", "value"),
        ("new-itemproperty", "type", "propertytype"),
        ("set-itemproperty", "type", "type"),  # the registry value's kind, not an item type
        ("write-s3object", "file", "file"),  # its own -File, not -FilePath
        ("get-service", "servicename", "name"),
        ("set-service", "sn", "name"),
        ("wait-process", "pid", "id"),
        ("get-eventlog", "ln", "logname"),
        ("remove-item", "lp", "literalpath"),
        ("get-content", "pspath", "literalpath"),  # the shared alias where the cmdlet has none of its own
        ("get-wmiobject", "cn", "computername"),
    ],
)
def test_which_parameter_an_alias_binds(cmdlet: str, written: str, bound_as: str) -> None:
    """S-RULE-205: a cmdlet's own alias first, then the shared ones, then a prefix of its parameters."""
    assert list(_bound(cmdlet, (written, "x"))) == [bound_as]


@requirement("S-RULE-205")
def test_an_alias_of_one_cmdlet_is_not_anothers() -> None:
    """S-RULE-205: `-Type` is -ItemType only for New-Item; elsewhere it is what that cmdlet calls it."""
    assert ps(r"Set-ItemProperty -Path HKCU:\Software\MyApp -Name Size -Value 1 -Type DWord") is None
    assert list(_bound("stop-computer", ("type", "x"))) == ["type"]
