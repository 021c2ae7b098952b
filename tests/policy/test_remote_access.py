"""Remote management opened up, and the hijack and autostart points found next (S-RULE-34)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()


def _hit(tool: str, args: dict[str, object]) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


WEAK = ("security-weakening", "deny")


@requirement("S-RULE-34")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Enable-PSRemoting -Force -SkipNetworkProfileCheck", WEAK),
        ("Set-WSManQuickConfig -Force", WEAK),
        ("Enable-WSManCredSSP -Role Server -Force", WEAK),
        ("winrm qc -q", WEAK),
        ("winrm set winrm/config/service '@{AllowUnencrypted=\"true\"}'", WEAK),
        ("winrm set winrm/config/service/auth '@{Basic=\"true\"}'", WEAK),
        ("Set-Item WSMan:\\localhost\\Client\\TrustedHosts -Value 10.0.0.* -Concatenate -Force", WEAK),
        ("Set-Item -Path WSMan:\\localhost\\Service\\AllowUnencrypted -Value $true", WEAK),
        ("Add-WindowsCapability -Online -Name OpenSSH.Server~~~~0.0.1.0", WEAK),
        ("winrm get winrm/config/client", None),
        ("winrm enumerate winrm/config/listener", None),
        ("Get-ChildItem WSMan:\\localhost\\Client", None),
        ("Test-WSMan", None),
        ("Add-WindowsCapability -Online -Name OpenSSH.Client~~~~0.0.1.0", None),
    ],
)
def test_remote_management_opened_up_is_security_weakening(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-34: WinRM switched on or opened, or an SSH server installed, is refused; reading the settings is not."""
    assert _hit("PowerShell", {"command": command}) == expected


@requirement("S-RULE-34")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        (
            "Registry",
            {"mode": "set", "path": "HKCU\\Control Panel\\Desktop", "name": "SCRNSAVE.EXE", "value": "C:\\t\\a.scr"},
            ("persistence-hijack", "deny"),
        ),
        (
            "Registry",
            {"mode": "set", "path": "HKCU\\Control Panel\\Desktop", "name": "ScreenSaveTimeOut", "value": "60"},
            None,
        ),
        (
            "PowerShell",
            {"command": "New-Item 'HKCU:\\Software\\Microsoft\\Office test\\Special\\Perf' -Value C:\\t\\a.dll -Force"},
            ("persistence-hijack", "deny"),
        ),
        (
            "Registry",
            {
                "mode": "set",
                "path": "HKCU\\Software\\Microsoft\\Office\\16.0\\Excel\\Options",
                "name": "OPEN1",
                "value": "/R C:\\t\\a.xll",
            },
            ("persistence-autostart", "ask"),
        ),
        (
            "Registry",
            {
                "mode": "set",
                "path": "HKCU\\Software\\Microsoft\\Office\\16.0\\Excel\\Options",
                "name": "DefaultFormat",
                "value": "51",
            },
            None,
        ),
        (
            "Registry",
            {
                "mode": "set",
                "path": "HKCU\\Software\\Microsoft\\Office\\Word\\Addins\\x.Connect",
                "name": "LoadBehavior",
                "value": "3",
            },
            ("persistence-autostart", "ask"),
        ),
        ("PowerShell", {"command": "Clear-RecycleBin -DriveLetter D -Force"}, ("recursive-delete", "deny")),
        ("PowerShell", {"command": "Get-ChildItem 'C:\\$Recycle.Bin' -Force"}, None),
    ],
)
def test_screen_saver_office_keys_and_the_recycle_bin(
    tool: str, args: dict[str, object], expected: tuple[str, str] | None
) -> None:
    """S-RULE-34: screen saver and "Office test" keys hijack, Office add-ins autostart, emptying the bin deletes."""
    assert _hit(tool, args) == expected
