"""Recursive registry reads and logging switched off (S-RULE-107, S-RULE-109): an attacker pass of stop 32.

`reg query HKLM /f password /t REG_SZ /s` (the classic hunt for saved passwords), `reg export HKLM\\SOFTWARE`
and `reg query "…\\Windows NT\\CurrentVersion" /s` (which reads the automatic-logon password) passed: a read
of a key was judged on that key alone, not on the keys under it. A VNC server's password, WinSCP's saved
sessions and PuTTY's proxy password were no credential stores. `fltmc unload SysmonDrv` and a set of a log
channel's `Enabled` value in the registry (what `wevtutil sl /e:false` does, which was refused) passed.
"""

from __future__ import annotations

import pytest

from policy.rules.places import key_places_inside
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

CV = r"HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion"
CHANNEL = r"HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\WINEVT\Channels\Microsoft-Windows-PowerShell/Operational"
DENY = ("credential-access", "deny")
AUTOLOGGER = r"reg add HKLM\SYSTEM\CurrentControlSet\Control\WMI\Autologger\EventLog-Security"


@requirement("S-RULE-107")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("reg query HKLM /f password /t REG_SZ /s", DENY),
        ("reg query HKCU /f password /t REG_SZ /s", DENY),
        (f'reg query "{CV}" /s', DENY),
        (r"reg export HKLM\SOFTWARE C:\t\sw.reg", DENY),
        (f'reg save "{CV}" C:\\t\\x.hiv', DENY),
        (r"regedit /e C:\t\all.reg", DENY),
        (f"Get-ChildItem 'HKLM:{CV[4:]}' -Recurse | Get-ItemProperty", DENY),
        (f"gci -Depth 2 -Path 'Registry::{CV}'", DENY),
        (f"Copy-Item 'HKLM:{CV[4:]}' HKCU:\\Software\\x -Recurse", DENY),
        (r'reg query "HKCU\Software\SimonTatham\PuTTY" /s', DENY),
        # Not recursive, or nothing protected under the key: a read passes.
        (f'reg query "{CV}" /v ProductName', None),
        (f"Get-ChildItem 'HKLM:{CV[4:]}'", None),
        (r"reg query HKCU\Software\Contoso /s", None),
        (r"reg export HKCU\Software\Contoso C:\t\contoso.reg", None),
        (r'reg query "HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall" /s', None),
        (r"Get-ChildItem HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall -Recurse", None),
        (r"reg query HKLM\SYSTEM\CurrentControlSet\Services /s /f Sysmon", None),
        (r"Get-ChildItem C:\Users\me\.ssh -Recurse", None),  # a folder's listing shows names only
    ],
)
def test_a_recursive_read_of_a_key_reads_the_stores_under_it(command: str, expected: object) -> None:
    """S-RULE-107: a recursive read (query /s, export, save, gci -Recurse, copy -Recurse) of a key holding a store."""
    assert ps(command) == expected


@requirement("S-RULE-107")
def test_the_places_under_a_key_are_found_by_the_key_table() -> None:
    """S-RULE-107: the Windows NT key holds Winlogon's saved password; an application's own key holds nothing."""
    assert "autologon-password" in {
        p.id for p in key_places_inside(r"hklm\software\microsoft\windows nt\currentversion")
    }
    assert {p.id for p in key_places_inside("hkcu")} >= {"remote-tool-passwords", "user-environment-key"}
    assert key_places_inside(r"hkcu\software\contoso") == ()


@requirement("S-RULE-107")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("PowerShell", {"command": r"reg query HKLM\SOFTWARE\RealVNC\WinVNC4 /v Password"}, DENY),
        ("PowerShell", {"command": r"reg query HKLM\SOFTWARE\TightVNC\Server"}, DENY),
        ("PowerShell", {"command": r"reg query HKCU\Software\ORL\WinVNC3 /v PasswordViewOnly"}, DENY),
        ("PowerShell", {"command": r'reg query "HKCU\Software\Martin Prikryl\WinSCP 2\Sessions" /s'}, DENY),
        (
            "PowerShell",
            {"command": r"Get-ChildItem 'HKCU:\Software\Martin Prikryl\WinSCP 2\Sessions' | Get-ItemProperty"},
            DENY,
        ),
        (
            "PowerShell",
            {"command": r'reg query "HKCU\Software\SimonTatham\PuTTY\Sessions\prod" /v ProxyPassword'},
            DENY,
        ),
        ("Registry", {"mode": "get", "path": r"HKLM:\SOFTWARE\RealVNC\WinVNC4", "name": "Password"}, DENY),
        (
            "Registry",
            {"mode": "get", "path": r"HKCU:\Software\Martin Prikryl\WinSCP 2\Sessions\prod", "name": "Password"},
            DENY,
        ),
        # A session's host name is no secret.
        ("PowerShell", {"command": r'reg query "HKCU\Software\SimonTatham\PuTTY\Sessions\prod" /v HostName'}, None),
        ("PowerShell", {"command": r"reg query HKLM\SOFTWARE\TightVNC\Server /v RfbPort"}, None),
    ],
)
def test_a_remote_tool_saved_password_is_a_credential_store(tool: str, args: dict[str, str], expected: object) -> None:
    """S-RULE-107: VNC passwords, WinSCP's sessions and PuTTY's proxy password are read only by a person."""
    assert verdict(tool, **args) == expected


@requirement("S-RULE-109")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("PowerShell", {"command": "fltmc unload SysmonDrv"}, ("security-weakening", "deny")),
        ("PowerShell", {"command": "fltmc.exe detach WdFilter C:"}, ("disable-defender", "deny")),
        ("PowerShell", {"command": "fltmc unload VendorEdrFilter"}, ("security-weakening", "deny")),
        ("PowerShell", {"command": 'cmd /c "fltmc unload WdFilter"'}, ("disable-defender", "deny")),
        (
            "PowerShell",
            {"command": "Start-Process fltmc -ArgumentList 'unload','SysmonDrv'"},
            ("security-weakening", "deny"),
        ),
        ("PowerShell", {"command": "fltmc"}, None),
        ("PowerShell", {"command": "fltmc filters"}, None),
        ("PowerShell", {"command": "fltmc instances -v C:"}, None),
        (
            "PowerShell",
            {"command": f"Set-ItemProperty 'HKLM:{CHANNEL[4:]}' -Name Enabled -Value 0"},
            ("security-weakening", "deny"),
        ),
        (
            "PowerShell",
            {"command": f'reg add "{CHANNEL}" /v Enabled /t REG_DWORD /d 0 /f'},
            ("security-weakening", "deny"),
        ),
        ("PowerShell", {"command": f"Remove-Item 'HKLM:{CHANNEL[4:]}' -Recurse"}, ("security-weakening", "deny")),
        (
            "PowerShell",
            {"command": AUTOLOGGER + r" /v Start /t REG_DWORD /d 0 /f"},
            ("security-weakening", "deny"),
        ),
        (
            "Registry",
            {"mode": "set", "path": "HKLM:" + CHANNEL[4:], "name": "Enabled", "value": "0", "type": "DWord"},
            ("security-weakening", "deny"),
        ),
        ("PowerShell", {"command": f"Get-ItemProperty 'HKLM:{CHANNEL[4:]}'"}, None),
        (
            "PowerShell",
            {"command": r"reg query HKLM\SYSTEM\CurrentControlSet\Control\WMI\Autologger\EventLog-Security"},
            None,
        ),
    ],
)
def test_switching_logging_or_file_monitoring_off_is_refused(tool: str, args: dict[str, str], expected: object) -> None:
    """S-RULE-109: a filter driver unloaded, a log channel or boot trace session switched off; reading passes."""
    assert verdict(tool, **args) == expected
