"""More registry places (S-RULE-161): App Paths and deeper handlers hijack what a name starts; Office's trusted
locations, Outlook's macro level, AlwaysInstallElevated and LSASS crash dumps weaken the machine.

Every refusal below passed before.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

HIJACK = ("persistence-hijack", "deny")
WEAK = ("security-weakening", "deny")


@requirement("S-RULE-161")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('reg add "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\App Paths\\notepad.exe" /ve /d C:\\t\\x.exe /f',
         HIJACK),
        ('reg add "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\chrome.exe" /ve /d C:\\t\\x.exe /f',
         HIJACK),
        ('New-Item "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\App Paths\\code.exe" -Value C:\\t\\x.exe '
         "-Force", HIJACK),
        ('reg add "HKCU\\Software\\Classes\\Directory\\Background\\shell\\x\\command" /ve /d C:\\t\\x.exe /f', HIJACK),
        ('reg add "HKCU\\Software\\Classes\\Directory\\shell\\x\\command" /ve /d C:\\t\\x.exe /f', HIJACK),
        ('reg add "HKCU\\Software\\Microsoft\\Office\\16.0\\Excel\\Security\\Trusted Locations\\x" /v Path /d C:\\t',
         WEAK),
        ('reg add "HKCU\\Software\\Microsoft\\Office\\16.0\\Outlook\\Security" /v Level /t REG_DWORD /d 1', WEAK),
        ("reg add HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\Installer /v AlwaysInstallElevated /t REG_DWORD /d 1",
         WEAK),
        ("Set-ItemProperty HKCU:\\SOFTWARE\\Policies\\Microsoft\\Windows\\Installer -Name AlwaysInstallElevated "
         "-Value 1", WEAK),
        ('reg add "HKLM\\SOFTWARE\\Microsoft\\Windows\\Windows Error Reporting\\LocalDumps\\lsass.exe" /v DumpType '
         "/t REG_DWORD /d 2", WEAK),
        # ordinary
        ('reg query "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\chrome.exe"', None),
        ("reg query HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\Installer /v AlwaysInstallElevated", None),
        ("reg add HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\Installer /v DisableMSI /t REG_DWORD /d 0 /f", None),
        ('reg add "HKCU\\Software\\Microsoft\\Office\\16.0\\Word\\Options" /v AutoSaveTime /d 5 /f', None),
        ('reg query "HKLM\\SOFTWARE\\Microsoft\\Windows\\Windows Error Reporting\\LocalDumps"', None),
    ],
)  # fmt: skip
def test_more_registry_places_are_judged(command: str, expected: object) -> None:
    """S-RULE-161: by reg.exe and by the registry provider."""
    assert ps(command) == expected


@requirement("S-RULE-161")
def test_the_registry_tool_reaches_the_same_places() -> None:
    """S-RULE-161: the Registry tool's `set` of an App Paths default and of AlwaysInstallElevated."""
    app_paths = "HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\App Paths\\msedge.exe"
    assert verdict("Registry", mode="set", path=app_paths, name="", value="C:\\t\\x.exe") == HIJACK
    installer = "HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\Installer"
    assert verdict("Registry", mode="set", path=installer, name="AlwaysInstallElevated", value="1") == WEAK
    assert verdict("Registry", mode="get", path=app_paths) is None
