"""Firewall rules switched off or opened, BitLocker off, boot code rewritten, a root removed, a rollback (S-RULE-65)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()
WEAK = ("security-weakening", "deny")


def verdict(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-65")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-NetFirewallRule -All", WEAK),
        ("Get-NetFirewallRule | Disable-NetFirewallRule", WEAK),
        ("Disable-NetFirewallRule -Name CorpBlockSMB", WEAK),
        ("Set-NetFirewallRule -Name CorpBlockSMB -Action Allow", WEAK),
        ("Set-NetFirewallRule -Name CorpBlockSMB -Enabled False", WEAK),
        ("netsh advfirewall reset", WEAK),
        ("netsh advfirewall firewall delete rule name=all", WEAK),
        ("netsh advfirewall firewall set rule name=CorpBlock new action=allow", WEAK),
        ("netsh advfirewall firewall set rule name=CorpBlock new enable=no", WEAK),
        ("manage-bde -off C:", WEAK),
        ("manage-bde -forcerecovery C:", WEAK),
        ("manage-bde -protectors -delete C:", WEAK),
        ("Disable-BitLocker -MountPoint C:", WEAK),
        ("Suspend-BitLocker -MountPoint C: -RebootCount 0", WEAK),
        ("Remove-BitLockerKeyProtector -MountPoint C: -KeyProtectorId '{x}'", WEAK),
        ("certutil -delstore root 0563b8630d62d75abbc8ab1e4bdfb5a899b24d43", WEAK),
        ("bootsect /nt60 C: /mbr", ("delete-backups", "deny")),
        ("Restore-Computer -RestorePoint 12", ("shutdown-restart", "deny")),
    ],
)
def test_each_is_refused(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-65: which of the rules is a block rule is not known, so switching one off or opening it is a
    weakening; BitLocker off leaves the disk readable; bootsect rewrites boot code; a rollback restarts."""
    assert verdict(command) == expected


@requirement("S-RULE-65")
@pytest.mark.parametrize(
    "command",
    [
        "Disable-NetFirewallRule -DisplayGroup 'File and Printer Sharing'",  # Windows' groups are allow rules
        "Set-NetFirewallRule -DisplayGroup 'Remote Desktop' -Enabled False",
        'netsh advfirewall firewall set rule group="Remote Desktop" new enable=no',
        "Set-NetFirewallRule -Name CorpBlock -Description 'blocks the old port'",
        "New-NetFirewallRule -DisplayName BlockOut -Direction Outbound -Action Block",
        "netsh advfirewall firewall show rule name=all",
        "Get-NetFirewallRule -DisplayGroup 'Remote Desktop'",
        "manage-bde -status",
        "Get-BitLockerVolume",
        "certutil -store root",
        "Get-ComputerRestorePoint",
    ],
)
def test_reading_and_closing_pass(command: str) -> None:
    """S-RULE-65: listing, closing Windows' own allow groups, adding a block rule and a description pass."""
    assert verdict(command) is None
