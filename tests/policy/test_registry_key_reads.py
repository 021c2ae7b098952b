"""A registry value read through .NET's `RegistryKey` is judged as a registry read (S-RULE-165).

Every refusal below passed before: `GetValue` was not read at all, so Winlogon's saved password, the SAM's keys and
PuTTY's proxy password could be read by the .NET API where `Get-ItemProperty` of the same value is refused.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("credential-access", "deny")
_HKLM = "[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey"
_WINLOGON = "'SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon'"


@requirement("S-RULE-165")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"{_HKLM}({_WINLOGON}).GetValue('DefaultPassword')", DENY),
        (f"$k = {_HKLM}({_WINLOGON}); $k.GetValue('DefaultPassword')", DENY),
        (f"{_HKLM}('SAM\\SAM\\Domains\\Account').GetValue('F')", DENY),
        (f"$k = {_HKLM}('SECURITY\\Policy\\Secrets'); $k.GetSubKeyNames()", DENY),
        ("[Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software\\SimonTatham\\PuTTY\\Sessions\\x')"
         ".GetValue('ProxyPassword')", DENY),
        (f"$k = {_HKLM}({_WINLOGON}); $k.GetValue('Shell')", None),
        (f"{_HKLM}('SOFTWARE\\Microsoft\\Windows\\CurrentVersion').GetValue('ProgramFilesDir')", None),
        ("(Get-Item .).GetType().GetProperty('Name').GetValue((Get-Item .))", None),  # no registry key: no read
    ],
)  # fmt: skip
def test_a_registry_key_read_through_dotnet_is_judged(command: str, expected: object) -> None:
    """S-RULE-165: as Get-ItemProperty of the same key and value."""
    assert ps(command) == expected
