"""Defender weakened through its WMI class, audit modes, and a firewall rule that silences it (S-RULE-160).

Every refusal below passed before. `Set-MpPreference` is a wrapper around the `MSFT_MpPreference` class's
methods, so calling them directly did what the cmdlet rules refuse; a blocked outbound rule for `MsMpEng.exe`
is how EDR-silencing tools cut a security product off from its cloud without stopping it.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("disable-defender", "deny")
_CIM = "Invoke-CimMethod -Namespace root/Microsoft/Windows/Defender -ClassName MSFT_MpPreference "
_WMIC = "wmic /namespace:\\\\root\\microsoft\\windows\\defender path MSFT_MpPreference "


@requirement("S-RULE-160")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (_CIM + "-MethodName Add -Arguments @{ExclusionPath=@('C:\\')}", DENY),
        (_CIM + "-MethodName Set -Arguments @{DisableRealtimeMonitoring=$true}", DENY),
        (_CIM + "-MethodName Set -Arguments @{EnableControlledFolderAccess=2}", DENY),
        (_CIM + "-MethodName Remove -Arguments @{AttackSurfaceReductionRules_Ids='9e6c4e1f'}", DENY),
        (_CIM + "-MethodName Set -Arguments $a", DENY),  # settings not known
        ("Invoke-WmiMethod -Namespace root\\Microsoft\\Windows\\Defender -Class MSFT_MpPreference -Name Set "
         "-ArgumentList $true", DENY),  # by position: not known
        (_WMIC + 'call Add ExclusionPath="C:\\"', DENY),
        (_WMIC + "call Set DisableRealtimeMonitoring=true", DENY),
        (_CIM + "-MethodName Set -Arguments @{DisableRealtimeMonitoring=$false}", None),
        (_WMIC + "call Set DisableRealtimeMonitoring=false", None),
        (_WMIC + "get", None),
        (_CIM + "-MethodName Get", None),
    ],
)  # fmt: skip
def test_defender_wmi_methods_are_judged_as_its_cmdlets(command: str, expected: object) -> None:
    """S-RULE-160: Set/Add/Remove of MSFT_MpPreference, through CIM, WMI or wmic."""
    assert ps(command) == expected


@requirement("S-RULE-160")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Set-MpPreference -EnableControlledFolderAccess AuditMode", DENY),
        ("Set-MpPreference -EnableControlledFolderAccess 4", DENY),
        ("Set-MpPreference -EnableNetworkProtection AuditMode", DENY),
        ("Set-MpPreference -AttackSurfaceReductionRules_Ids 9e6c4e1f -AttackSurfaceReductionRules_Actions AuditMode",
         DENY),
        ("Set-MpPreference -ScanScheduleDay 8", DENY),
        ("Set-MpPreference -EnableControlledFolderAccess Enabled", None),
        ("Set-MpPreference -EnableNetworkProtection Enabled", None),
        ("Set-MpPreference -ScanScheduleDay 0", None),
    ],
)  # fmt: skip
def test_audit_modes_and_never_scanning_are_weakening(command: str, expected: object) -> None:
    """S-RULE-160: a mode that blocks nothing, and a scan day of never."""
    assert ps(command) == expected


@requirement("S-RULE-160")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('New-NetFirewallRule -DisplayName x -Direction Outbound -Program "C:\\Program Files\\Windows Defender\\'
         'MsMpEng.exe" -Action Block', DENY),
        ('New-NetFirewallRule -DisplayName x -Direction Outbound -Program "C:\\ProgramData\\Microsoft\\Windows '
         'Defender\\Platform\\4.18.2\\MsMpEng.exe" -Action Block', DENY),
        ('New-NetFirewallRule -DisplayName x -Direction Outbound -Program "C:\\Program Files\\Windows Defender '
         'Advanced Threat Protection\\MsSense.exe" -Action Block', DENY),
        ("New-NetFirewallRule -DisplayName x -Direction Outbound -Program C:\\Windows\\System32\\lsass.exe "
         "-Action Block", DENY),
        ("New-NetFirewallRule -DisplayName x -Direction Outbound -Program $p -Action Block", DENY),  # not known
        ('netsh advfirewall firewall add rule name=x dir=out action=block program="C:\\Program Files\\Windows '
         'Defender\\MsMpEng.exe" enable=yes', DENY),
        ("New-NetFirewallRule -DisplayName x -Direction Outbound -Program C:\\Tools\\game.exe -Action Block", None),
        ("netsh advfirewall firewall add rule name=x dir=out action=block program=C:\\Tools\\game.exe", None),
        ("New-NetFirewallRule -DisplayName x -Direction Outbound -Action Block -RemoteAddress 203.0.113.7", None),
    ],
)  # fmt: skip
def test_a_firewall_rule_that_silences_a_security_tool_is_refused(command: str, expected: object) -> None:
    """S-RULE-160: a block rule for a protected process or a program in Defender's folders."""
    assert ps(command) == expected
