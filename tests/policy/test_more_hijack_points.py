"""More places Windows runs what they name (S-RULE-173).

Every refusal below passed before: the crash debugger (AeDebug) starts on any program's crash, an assistive
technology registration and a credential provider are loaded by the logon screen (a provider sees every
password typed there), a print processor is loaded by the spooler as SYSTEM, and a Group Policy script runs at logon
or startup.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

HIJACK = ("persistence-hijack", "deny")
_NT = r"HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion"


@requirement("S-RULE-173")
@pytest.mark.parametrize(
    "command",
    [
        f'reg add "{_NT}\\AeDebug" /v Debugger /d "C:\\t\\x.exe" /f',
        f'reg add "{_NT}\\AeDebug" /v Auto /d 1 /f',
        r'reg add "HKLM\SOFTWARE\WOW6432Node\Microsoft\Windows NT\CurrentVersion\AeDebug" /v Debugger /d x /f',
        r"Set-ItemProperty HKLM:\SOFTWARE\Microsoft\.NETFramework -Name DbgManagedDebugger -Value C:\t\x.exe",
        f'reg add "{_NT}\\Accessibility\\ATs\\x" /v StartExe /d C:\\t\\x.exe /f',
        r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Print\Environments\Windows x64\Print Processors\x" '
        r"/v Driver /d x.dll /f",
        r'reg add "HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Authentication\Credential Providers'
        r'\{11111111-1111-1111-1111-111111111111}" /ve /d x /f',
        r'reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Group Policy\Scripts\Logon\0\0" '
        r"/v Script /d C:\t\x.bat /f",
    ],
)
def test_a_key_windows_starts_what_it_names_from_is_a_hijack_point(command: str) -> None:
    """S-RULE-173: as the Winlogon, IFEO and print-monitor keys are."""
    assert ps(command) == HIJACK


@requirement("S-RULE-173")
def test_the_registry_tool_is_judged_alike() -> None:
    """S-RULE-173: the Registry tool's set of the crash debugger."""
    args = {"mode": "set", "path": f"HKLM:{_NT[4:]}\\AeDebug", "name": "Debugger", "value": "x", "type": "String"}
    assert verdict("Registry", **args) == HIJACK


@requirement("S-RULE-173")
@pytest.mark.parametrize(
    "command",
    [
        f'reg query "{_NT}\\AeDebug"',
        r"Get-ItemProperty 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Accessibility\ATs\osk'",
    ],
)
def test_reading_them_stays_ordinary(command: str) -> None:
    """S-RULE-173: only a write where Windows starts what it names."""
    assert ps(command) is None
