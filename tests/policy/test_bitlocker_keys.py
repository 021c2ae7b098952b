"""A drive encrypted, locked or given a new key is a person's call (S-RULE-179).

Every ask below passed before: with a key the person does not hold (`-PasswordProtector -Password …` chosen by the
agent, or the WMI route ShrinkLocker ransomware takes), every file on the drive is unreadable for good.
"""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy.verdicts import ps

ASK = ("disk-encryption", "ask")
_NS = r"-Namespace root\cimv2\Security\MicrosoftVolumeEncryption"
_VOLUME = f"Get-WmiObject {_NS} -Class Win32_EncryptableVolume -Filter \"DriveLetter='D:'\""


@requirement("S-RULE-179")
@pytest.mark.parametrize(
    "command",
    [
        "Enable-BitLocker -MountPoint C: -PasswordProtector -Password (ConvertTo-SecureString 'x' -AsPlainText -Force)",
        "Enable-BitLocker -MountPoint D: -RecoveryPasswordProtector",
        "Get-BitLockerVolume -MountPoint C: | Enable-BitLocker -TpmProtector",
        "Add-BitLockerKeyProtector -MountPoint C: -PasswordProtector -Password $p",
        "Lock-BitLocker -MountPoint D: -ForceDismount",
        "manage-bde -on C: -pw",
        "manage-bde -on D: -RecoveryPassword",
        "manage-bde -changepassword C:",
        "manage-bde -protectors -add C: -pw",
        "cmd /c manage-bde -lock D:",
        f"Invoke-CimMethod {_NS} -ClassName Win32_EncryptableVolume -MethodName Encrypt",
        f"$v = Get-CimInstance {_NS} -ClassName Win32_EncryptableVolume -Filter \"DriveLetter='C:'\"; "
        "$v | Invoke-CimMethod -MethodName ProtectKeyWithPassphrase -Arguments @{PassPhrase='x'}",
        f"({_VOLUME}).Encrypt()",
        f"({_VOLUME}).Lock()",
    ],
)
def test_encrypting_locking_or_rekeying_a_drive_asks(command: str) -> None:
    """S-RULE-179: by the cmdlets, manage-bde, and the WMI class they call."""
    assert ps(command) == ASK


@requirement("S-RULE-179")
def test_decrypting_through_wmi_weakens_bitlocker_as_disable_bitlocker_does() -> None:
    """S-RULE-179: `Decrypt` leaves the drive readable without the person."""
    assert ps(f"({_VOLUME}).Decrypt()") == ("security-weakening", "deny")


@requirement("S-RULE-179")
@pytest.mark.parametrize(
    "command",
    [
        "Get-BitLockerVolume",
        "manage-bde -status",
        "manage-bde -protectors -get C:",
        "Unlock-BitLocker -MountPoint D: -RecoveryPassword 1234",
        "Backup-BitLockerKeyProtector -MountPoint C: -KeyProtectorId $id",
        f"({_VOLUME}).GetProtectionStatus()",
        r"(Get-Item C:\t\a.txt).Encrypt()",
        r"$f = [IO.FileStream]::new('C:\t\a'); $f.Lock(0, 10)",
    ],
)
def test_looking_unlocking_and_backing_up_stay_ordinary(command: str) -> None:
    """S-RULE-179: only a change that can lock the person out asks."""
    assert ps(command) is None


@requirement("S-RULE-179")
def test_the_reason_names_the_drive_and_the_remedy_shows_its_state() -> None:
    """S-RULE-179: the person reads what would change and how to look first."""
    hit = load_rules().match("PowerShell", {"command": "manage-bde -on C: -pw"})
    assert hit is not None and hit.rule_id == "disk-encryption"
    assert "manage-bde -on -pw" in hit.reason and "Get-BitLockerVolume" in hit.reason
