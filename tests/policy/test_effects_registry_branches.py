"""Each branch of the registry effects (`policy/rules/effects_registry.py`) as whole effects; found by mutation testing.

Each row is a command as the model would send it to the PowerShell tool and the effects the gateway reads
from it: kind, the key as written, the phrase a reason quotes, the value name, the data and the extra
facts (the value's type, `recursive`, `all_values`, the imported file). The corpus tests only check the
verdict, which another rule often reaches anyway; these rows pin which key and value each tool touches,
so a provider cmdlet, `reg.exe`, `setx`, `regedit`, `[Environment]`, `[Registry]`, `RegistryKey` and
`WScript.Shell` all name WDigest's `UseLogonCredential = 1` the same way. Expectations follow what each
tool does on Windows (`reg save HKLM\\SAM` writes the password hashes to a file, `setx /m` writes the
machine environment key, `SetEnvironmentVariable` without a persistent target touches only the process).
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import RECURSIVE, effect
from policy.rules.effects_registry import (
    is_credential_hive,
    registry_cmdlet,
    registry_effect_with_key,
    registry_key_in_text,
    registry_root,
)
from policy.rules.shell.ops import Effect, EffectKind, Operation
from tests._requirements import requirement
from tests.policy.verdicts import ps as _verdict
from tests.policy.verdicts import ps_effects as _effects

K = EffectKind
SET, DELETE, READ = K.REGISTRY_SET, K.REGISTRY_DELETE, K.READ
_DEEP = RECURSIVE  # a read of the key and every key under it (S-RULE-107)

USER_ENV = "HKCU\\Environment"
MACHINE_ENV = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
FOO = "HKCU:\\Software\\Foo"
BAR = "HKCU:\\Software\\Bar"
WDIGEST = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\WDigest"
WDIGEST_DRIVE = WDIGEST.replace("HKLM", "HKLM:")
WSH = "$s = New-Object -ComObject WScript.Shell; "
ENV_CALL = "[Environment]::SetEnvironmentVariable"


# ---------------------------------------------------------------------------------------
# Provider cmdlets on registry paths


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            rf"Set-ItemProperty -Path '{WDIGEST_DRIVE}' -Name UseLogonCredential -Value 1 -Type DWord",
            (
                effect(
                    SET,
                    WDIGEST_DRIVE,
                    "Set-ItemProperty",
                    value_name="UseLogonCredential",
                    data="1",
                    extra=(("type", "DWord"),),
                ),
            ),
            id="set-itemproperty-type-alias",
        ),
        pytest.param(
            rf"New-ItemProperty -Path {FOO} -Name X -Value 1 -PropertyType DWord -Force",
            (effect(SET, FOO, "New-ItemProperty", value_name="X", data="1", extra=(("type", "DWord"),)),),
            id="new-itemproperty-propertytype",
        ),
        pytest.param(
            rf"New-ItemProperty -Path {FOO} -Name X -Value 1",
            (effect(SET, FOO, "New-ItemProperty", value_name="X", data="1"),),
            id="new-itemproperty-untyped",
        ),
        pytest.param(
            rf"New-ItemProperty -Path {FOO} -Name A,B -Value x -PropertyType String",
            (
                effect(SET, FOO, "New-ItemProperty", value_name="A", data="x", extra=(("type", "String"),)),
                effect(SET, FOO, "New-ItemProperty", value_name="B", data="x", extra=(("type", "String"),)),
            ),
            id="new-itemproperty-two-names",
        ),
        pytest.param(
            rf"Set-ItemProperty {FOO} X 1",
            (effect(SET, FOO, "Set-ItemProperty", value_name="X", data="1"),),
            id="set-itemproperty-positional",
        ),
        pytest.param(
            rf"Set-ItemProperty -Path {FOO} -Value 1",
            (effect(SET, FOO, "Set-ItemProperty", value_name=None, data="1"),),
            id="set-itemproperty-no-name",
        ),
        pytest.param(
            "Set-ItemProperty -Name X -Value 1",
            (effect(SET, None, "Set-ItemProperty", value_name="X", data="1"),),
            id="set-itemproperty-piped-key-unknown",
        ),
        pytest.param(
            rf"Remove-Item {FOO} -Recurse",
            (effect(DELETE, FOO, "Remove-Item (registry key)", extra=(("recursive", "true"),)),),
            id="remove-item-recurse",
        ),
        pytest.param(
            rf"Remove-Item {FOO} -Recurse:$true",
            (effect(DELETE, FOO, "Remove-Item (registry key)", extra=(("recursive", "true"),)),),
            id="remove-item-recurse-true",
        ),
        pytest.param(
            rf"Remove-Item {FOO}",
            (effect(DELETE, FOO, "Remove-Item (registry key)"),),
            id="remove-item-one-key",
        ),
        pytest.param(
            r"Remove-Item Registry::HKEY_CURRENT_USER\Software\Foo -Recurse:$false",
            (effect(DELETE, r"Registry::HKEY_CURRENT_USER\Software\Foo", "Remove-Item (registry key)"),),
            id="remove-item-recurse-false-is-one-key",
        ),
        pytest.param(
            rf"Remove-ItemProperty {FOO} -Name A,B",
            (
                effect(DELETE, FOO, "Remove-ItemProperty", value_name="A"),
                effect(DELETE, FOO, "Remove-ItemProperty", value_name="B"),
            ),
            id="remove-itemproperty-two-names",
        ),
        pytest.param(
            rf"Remove-ItemProperty -Path {FOO}",
            (effect(DELETE, FOO, "Remove-ItemProperty"),),
            id="remove-itemproperty-no-name",
        ),
        pytest.param(
            rf"Rename-ItemProperty {FOO} -Name A -NewName B",
            (
                effect(DELETE, FOO, "Rename-ItemProperty", value_name="A"),
                effect(SET, FOO, "Rename-ItemProperty", value_name="B"),
            ),
            id="rename-itemproperty",
        ),
        pytest.param(
            rf"Rename-ItemProperty {FOO} -Name A",
            (effect(DELETE, FOO, "Rename-ItemProperty", value_name="A"), effect(SET, FOO, "Rename-ItemProperty")),
            id="rename-itemproperty-new-name-missing",
        ),
        pytest.param(
            rf"Clear-ItemProperty {FOO} -Name A,B",
            (
                effect(SET, FOO, "Clear-ItemProperty", value_name="A", data=""),
                effect(SET, FOO, "Clear-ItemProperty", value_name="B", data=""),
            ),
            id="clear-itemproperty-empties-each-value",
        ),
        pytest.param(
            rf"Clear-ItemProperty {FOO}",
            (effect(SET, FOO, "Clear-ItemProperty", data=""),),
            id="clear-itemproperty-no-name",
        ),
        pytest.param(
            rf"Copy-ItemProperty -Path {FOO} -Destination {BAR} -Name A,B",
            (
                effect(SET, BAR, "Copy-ItemProperty", value_name="A"),
                effect(SET, BAR, "Copy-ItemProperty", value_name="B"),
            ),
            id="copy-itemproperty-sets-the-destination-only",
        ),
        pytest.param(
            rf"Move-ItemProperty -Path {FOO} -Destination {BAR} -Name A,B",
            (
                effect(SET, BAR, "Move-ItemProperty", value_name="A"),
                effect(SET, BAR, "Move-ItemProperty", value_name="B"),
                effect(DELETE, FOO, "Move-ItemProperty", value_name="A"),
                effect(DELETE, FOO, "Move-ItemProperty", value_name="B"),
            ),
            id="move-itemproperty-sets-then-deletes",
        ),
        pytest.param(
            rf"Move-ItemProperty -Path {FOO} -Destination {BAR}",
            (effect(SET, BAR, "Move-ItemProperty"), effect(DELETE, FOO, "Move-ItemProperty")),
            id="move-itemproperty-no-name",
        ),
        pytest.param(
            rf"Get-ItemProperty {FOO} -Name A",
            (effect(READ, FOO, "Get-ItemProperty", value_name="A"),),
            id="get-itemproperty-reads",
        ),
        pytest.param(
            rf"Get-ItemPropertyValue {FOO} -Name A",
            (effect(READ, FOO, "Get-ItemPropertyValue", value_name="A"),),
            id="get-itempropertyvalue-reads",
        ),
        pytest.param(
            "Get-ItemProperty -Name X",
            (effect(READ, None, "Get-ItemProperty", value_name="X"),),
            id="get-itemproperty-piped",
        ),
        pytest.param(
            rf"Move-Item {FOO} {BAR}",
            (effect(DELETE, FOO, "Move-Item"), effect(SET, BAR, "Move-Item destination")),
            id="move-item-deletes-source",
        ),
        pytest.param(
            rf"Copy-Item {FOO} {BAR}",
            (effect(READ, FOO, "Copy-Item"), effect(SET, BAR, "Copy-Item destination")),
            id="copy-item-reads-source",
        ),
        pytest.param(
            rf"Copy-Item -Path C:\Temp\x -Destination {FOO}",
            (effect(READ, "C:\\Temp\\x", "Copy-Item"), effect(SET, FOO, "Copy-Item destination")),
            id="copy-item-into-registry",
        ),
        pytest.param(
            rf"Rename-Item {FOO} Bar",
            (effect(DELETE, FOO, "Rename-Item"), effect(SET, BAR, "Rename-Item")),
            id="rename-item-positional",
        ),
        pytest.param(
            rf"Rename-Item {FOO}\ -NewName Bar",
            (effect(DELETE, FOO + "\\", "Rename-Item"), effect(SET, BAR, "Rename-Item")),
            id="rename-item-trailing-separator",
        ),
        pytest.param(
            r"Rename-Item 'HKCU:\Software\Microsoft\Windows\CurrentVersion\RunX' -NewName Run",
            (
                effect(DELETE, r"HKCU:\Software\Microsoft\Windows\CurrentVersion\RunX", "Rename-Item"),
                effect(SET, r"HKCU:\Software\Microsoft\Windows\CurrentVersion\Run", "Rename-Item"),
            ),
            id="rename-item-into-run-key",
        ),
        pytest.param(
            rf"Rename-Item -Path {FOO} -NewName $n",
            (effect(DELETE, FOO, "Rename-Item"), effect(SET, None, "Rename-Item")),
            id="rename-item-new-name-unknown",
        ),
        pytest.param(
            rf"Rename-Item -Path {FOO}",
            (effect(DELETE, FOO, "Rename-Item"), effect(SET, None, "Rename-Item")),
            id="rename-item-new-name-missing",
        ),
        pytest.param(
            r"Clear-Item -Path HKLM:\SOFTWARE\Foo",
            (effect(SET, r"HKLM:\SOFTWARE\Foo", "Clear-Item", value_name="", data=""),),
            id="clear-item-empties-default-value",
        ),
        pytest.param(
            rf"Set-Item {FOO} -Value hello",
            (effect(SET, FOO, "Set-Item (registry key)", data="hello"),),
            id="set-item-default-value",
        ),
        pytest.param(
            rf"Set-Item -Path {FOO}",
            (effect(SET, FOO, "Set-Item (registry key)"),),
            id="set-item-no-value",
        ),
        pytest.param(
            rf"New-Item {FOO} -ItemType Key",
            (effect(SET, FOO, "New-Item (registry key)"),),
            id="new-item-key",
        ),
        pytest.param(
            r"New-Item -Path HKCU:\Software -Name Foo -Value x",
            (effect(SET, FOO, "New-Item (registry key)", data="x"),),
            id="new-item-name-and-value",
        ),
        pytest.param(
            rf"Set-Content {FOO} -Value x",
            (effect(SET, FOO, "Set-Content"),),
            id="set-content-on-a-key",
        ),
        pytest.param(
            r"Add-Content -Path HKLM:\SOFTWARE\Foo -Value x",
            (effect(SET, r"HKLM:\SOFTWARE\Foo", "Add-Content"),),
            id="add-content-on-a-key",
        ),
    ],
)
def test_provider_cmdlets_name_key_value_and_data(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: each provider cmdlet on a registry path is the set, delete or read of that key's values."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "params", "expected"),
    [
        pytest.param(
            "get-item",
            (("name", "A"),),
            (effect(READ, FOO, "Get-Item", value_name="A"),),
            id="get-item",
        ),
        pytest.param("get-childitem", (), (effect(READ, FOO, "Get-ChildItem"),), id="get-childitem"),
        pytest.param("test-path", (), (effect(READ, FOO, "Test-Path"),), id="test-path"),
        pytest.param(
            "set-acl",
            (("value", "x"),),
            (effect(SET, FOO, "Set-Acl"),),
            id="any-other-cmdlet-sets-the-key",
        ),
    ],
)
def test_registry_cmdlet_reads_with_read_verbs(
    name: str, params: tuple[tuple[str, str], ...], expected: tuple[Effect, ...]
) -> None:
    """S-RULE-18: `registry_cmdlet` (the registry half of every provider cmdlet) reads with a read verb, else sets.

    Get-Item/Get-ChildItem/Test-Path reach the file readers first today, so the function is asked directly.
    """
    op = Operation("powershell", name, params, (FOO,))
    assert registry_cmdlet(op, FOO, dict(params)) == expected


# ---------------------------------------------------------------------------------------
# reg.exe


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r"reg add HKLM\SOFTWARE\Foo /v Bar /t REG_DWORD /d 1 /f",
            (effect(SET, r"HKLM\SOFTWARE\Foo", "reg add", value_name="Bar", data="1", extra=(("type", "REG_DWORD"),)),),
            id="add-typed-value",
        ),
        pytest.param(
            r"REG ADD HKLM\SOFTWARE\Foo /V Bar /D 1",
            (effect(SET, r"HKLM\SOFTWARE\Foo", "reg add", value_name="Bar", data="1"),),
            id="add-upper-case-untyped",
        ),
        pytest.param(
            r'reg add "HKCU\Software\Foo" /ve /d hello /f',
            (effect(SET, r"HKCU\Software\Foo", "reg add", value_name="", data="hello"),),
            id="add-default-value",
        ),
        pytest.param(
            r"reg add HKCU\Software\Foo /f",
            (effect(SET, r"HKCU\Software\Foo", "reg add"),),
            id="add-key-only",
        ),
        pytest.param(
            r"reg delete HKCU\Software\Foo /v Bar /f",
            (effect(DELETE, r"HKCU\Software\Foo", "reg delete", value_name="Bar"),),
            id="delete-value",
        ),
        pytest.param(
            r"reg delete HKCU\Software\Foo /va /f",
            (effect(DELETE, r"HKCU\Software\Foo", "reg delete", extra=(("all_values", "true"),)),),
            id="delete-all-values",
        ),
        pytest.param(
            r"reg delete HKCU\Software\Foo /ve /f",
            (effect(DELETE, r"HKCU\Software\Foo", "reg delete", value_name=""),),
            id="delete-default-value",
        ),
        pytest.param(
            r"reg delete HKCU\Software\Foo /f",
            (
                effect(DELETE, r"HKCU\Software\Foo", "reg delete", extra=RECURSIVE),
            ),  # the key and all below (S-RULE-191)
            id="delete-key",
        ),
        pytest.param(
            r"reg save HKLM\SAM C:\Temp\sam.hiv",
            (
                effect(K.CREDENTIAL_ACCESS, r"HKLM\SAM", "reg save"),
                effect(K.WRITE, r"C:\Temp\sam.hiv", "reg save file"),
            ),
            id="save-sam",
        ),
        pytest.param(
            r"reg export HKLM\SAM C:\Temp\sam.reg /y",
            (
                effect(K.CREDENTIAL_ACCESS, r"HKLM\SAM", "reg export"),
                effect(K.WRITE, r"C:\Temp\sam.reg", "reg export file"),
            ),
            id="export-sam",
        ),
        pytest.param(
            r"reg save HKLM\SOFTWARE C:\Temp\sw.hiv",
            (
                effect(READ, r"HKLM\SOFTWARE", "reg save", extra=_DEEP),
                effect(K.WRITE, r"C:\Temp\sw.hiv", "reg save file"),
            ),
            id="save-software-is-a-read",
        ),
        pytest.param(
            r"reg export HKCU\Software\Foo C:\Temp\foo.reg",
            (
                effect(READ, r"HKCU\Software\Foo", "reg export", extra=_DEEP),
                effect(K.WRITE, r"C:\Temp\foo.reg", "reg export file"),
            ),
            id="export-user-key",
        ),
        pytest.param(
            r"reg export HKCU\Software\Foo",
            (effect(READ, r"HKCU\Software\Foo", "reg export", extra=_DEEP), effect(K.WRITE, None, "reg export file")),
            id="export-without-file",
        ),
        pytest.param(
            r"reg import C:\Temp\foo.reg",
            (
                effect(READ, r"C:\Temp\foo.reg", "reg import file"),
                effect(SET, None, "reg import", extra=(("file", r"C:\Temp\foo.reg"),)),
            ),
            id="import-sets-unknown-keys",
        ),
        pytest.param(
            "reg import",
            (effect(READ, None, "reg import file"), effect(SET, None, "reg import", extra=(("file", ""),))),
            id="import-without-file",
        ),
        pytest.param(
            r"reg restore HKLM\SOFTWARE\Foo C:\Temp\foo.hiv",
            (effect(SET, r"HKLM\SOFTWARE\Foo", "reg restore", extra=(("file", r"C:\Temp\foo.hiv"),)),),
            id="restore",
        ),
        pytest.param(
            r"reg load HKLM\Temp C:\Users\Default\NTUSER.DAT",
            (effect(SET, r"HKLM\Temp", "reg load", extra=(("file", r"C:\Users\Default\NTUSER.DAT"),)),),
            id="load",
        ),
        pytest.param(
            r"reg load HKLM\Temp",
            (effect(SET, r"HKLM\Temp", "reg load", extra=(("file", ""),)),),
            id="load-without-file",
        ),
        pytest.param(
            r"reg unload HKLM\Temp",
            (effect(DELETE, r"HKLM\Temp", "reg unload"),),
            id="unload",
        ),
        pytest.param(
            r"reg copy HKCU\Software\Foo HKCU\Software\Bar /s /f",
            (effect(READ, r"HKCU\Software\Foo", "reg copy"), effect(SET, r"HKCU\Software\Bar", "reg copy destination")),
            id="copy",
        ),
        pytest.param(
            r"reg query HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Run",
            (effect(READ, r"HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Run", "reg query"),),
            id="query-key",
        ),
        pytest.param(
            r"reg query HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Run /v OneDrive",
            (effect(READ, r"HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Run", "reg query", value_name="OneDrive"),),
            id="query-value",
        ),
        pytest.param(
            r"reg query HKCU\Software\Foo /ve",
            (effect(READ, r"HKCU\Software\Foo", "reg query", value_name=""),),
            id="query-default-value",
        ),
        pytest.param(
            r"reg query HKCU\Software\Foo /s /se ;",
            (effect(READ, r"HKCU\Software\Foo", "reg query", extra=_DEEP),),
            id="query-separator-is-no-key",
        ),
        pytest.param(
            r"reg compare HKCU\Software\Foo HKCU\Software\Bar /v X",
            (
                effect(READ, r"HKCU\Software\Foo", "reg compare", value_name="X"),
                effect(READ, r"HKCU\Software\Bar", "reg compare", value_name="X"),
            ),
            id="compare-reads-both",
        ),
        pytest.param(r"reg flags HKLM\Software\Foo query", (), id="flags-query-nothing"),
        pytest.param("reg", (), id="no-verb"),
    ],
)
def test_reg_exe_verbs(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: each `reg.exe` verb is the set, delete, read or hive save of the key it names."""
    assert _effects(command) == expected


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("key", "expected"),
    [
        pytest.param(r"HKLM\SAM", True, id="sam"),
        pytest.param(r"HKLM\SAM\SAM\Domains\Account", True, id="inside-sam"),
        pytest.param(r"HKLM\SECURITY", True, id="security"),
        pytest.param(r"HKLM\SECURITY\Policy\Secrets", True, id="lsa-secrets"),
        pytest.param(r"HKLM\SYSTEM", True, id="system-root-holds-the-boot-key"),
        pytest.param(r"HKLM\SYSTEM\CurrentControlSet\Control\Lsa", True, id="lsa-key"),
        pytest.param(r"HKLM\SYSTEM\CurrentControlSet\Control\Lsa\\", True, id="lsa-key-trailing-separator"),
        pytest.param(r"HKLM\SYSTEM\CurrentControlSet\Services", False, id="system-services"),
        pytest.param(r"HKLM\SOFTWARE", False, id="software"),
        pytest.param(r"HKLM\SOFTWARE\SAM", False, id="sam-below-software"),
        pytest.param(r"HKCU\SAM", False, id="user-hive"),
        pytest.param(r"HKEY_USERS\SECURITY", False, id="users-hive"),
        pytest.param("HKLM", False, id="hive-alone"),
        pytest.param(None, False, id="unknown"),
        pytest.param("hklm\\sam", True, id="lower-case"),
        pytest.param(r"HKEY_LOCAL_MACHINE\SYSTEM", True, id="long-hive-name"),
        pytest.param(r"HKLM:\SECURITY", True, id="drive-spelling"),
        pytest.param("HKLM/SAM", True, id="forward-slash"),
        pytest.param(r"HKLM\\SAM", True, id="doubled-separator"),
        pytest.param(r"Registry::HKEY_LOCAL_MACHINE\SAM", True, id="provider-path"),
        pytest.param(r"Microsoft.PowerShell.Core\Registry::HKEY_LOCAL_MACHINE\SECURITY", True, id="full-provider"),
        pytest.param(r"Registry::HKEY_LOCAL_MACHINE\SOFTWARE", False, id="provider-path-software"),
    ],
)
def test_credential_hives_in_every_spelling(key: str | None, expected: bool) -> None:
    """S-RULE-19: SAM, SECURITY and the SYSTEM root or its Lsa key hold the hashes or the key to them."""
    assert is_credential_hive(key) is expected


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(r"reg save HKLM\SAM C:\Temp\sam.hiv", ("credential-access", "deny"), id="save-sam"),
        pytest.param(r"reg save HKLM\SECURITY C:\Temp\sec.hiv", ("credential-access", "deny"), id="save-security"),
        pytest.param(r"reg save HKLM\SYSTEM C:\Temp\sys.hiv", ("credential-access", "deny"), id="save-system"),
        pytest.param(
            r"reg save HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet\Control\Lsa C:\Temp\lsa.hiv",
            ("credential-access", "deny"),
            id="save-lsa",
        ),
        pytest.param(r"reg save HKLM\SYSTEM\CurrentControlSet\Services C:\Temp\svc.hiv", None, id="save-services"),
        pytest.param(r"reg save HKCU\SAM C:\Temp\x.hiv", None, id="save-user-key-named-sam"),
        pytest.param(r"reg export HKCU\Software\Foo C:\Temp\foo.reg", None, id="export-own-key"),
    ],
)
def test_saving_a_credential_hive_is_refused(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-19: `reg save`/`export` of a credential hive is refused; other keys pass."""
    assert _verdict(command) == expected


# ---------------------------------------------------------------------------------------
# setx and regedit


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r'setx PATH "C:\Tools"',
            (effect(SET, USER_ENV, "setx", value_name="PATH", data="C:\\Tools"),),
            id="user-variable",
        ),
        pytest.param(
            r'setx /m PATH "C:\Tools"',
            (effect(SET, MACHINE_ENV, "setx /m", value_name="PATH", data="C:\\Tools"),),
            id="machine-variable",
        ),
        pytest.param(
            "setx COR_ENABLE_PROFILING 1 /m",
            (effect(SET, MACHINE_ENV, "setx /m", value_name="COR_ENABLE_PROFILING", data="1"),),
            id="machine-switch-last",
        ),
        pytest.param(
            r"setx MYVAR /k HKLM\Software\Foo\Bar",
            (effect(SET, USER_ENV, "setx", value_name="MYVAR"),),
            id="from-registry-value-unknown-data",
        ),
        pytest.param(
            r"setx MYVAR /f C:\Temp\data.txt",
            (effect(SET, USER_ENV, "setx", value_name="MYVAR"),),
            id="from-file-unknown-data",
        ),
        pytest.param(
            "setx /s server /u admin /p pw FOO bar",
            (effect(SET, USER_ENV, "setx", value_name="FOO", data="bar"),),
            id="remote-options-are-not-the-name",
        ),
        pytest.param(
            "setx FOO",
            (effect(SET, USER_ENV, "setx", value_name="FOO"),),
            id="name-only",
        ),
        pytest.param("setx", (effect(SET, USER_ENV, "setx"),), id="nothing-given"),
    ],
)
def test_setx_writes_the_environment_key(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: `setx` writes HKCU\\Environment, or the machine environment key with `/m`."""
    assert _effects(command) == expected


@requirement("S-RULE-39")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r"regedit /s C:\Temp\foo.reg",
            (
                effect(READ, r"C:\Temp\foo.reg", "regedit import file"),
                effect(SET, None, "regedit import", extra=(("file", r"C:\Temp\foo.reg"),)),
            ),
            id="silent-import",
        ),
        pytest.param(
            r"regedt32 C:\Temp\foo.reg",
            (
                effect(READ, r"C:\Temp\foo.reg", "regedit import file"),
                effect(SET, None, "regedit import", extra=(("file", r"C:\Temp\foo.reg"),)),
            ),
            id="regedt32-import",
        ),
        pytest.param(
            r"regedit /e C:\Temp\out.reg HKEY_LOCAL_MACHINE\SOFTWARE\Foo",
            (
                effect(READ, r"HKEY_LOCAL_MACHINE\SOFTWARE\Foo", "regedit export", extra=_DEEP),
                effect(K.WRITE, r"C:\Temp\out.reg", "regedit export"),
            ),
            id="export-key",
        ),
        pytest.param(
            r"regedit /e C:\Temp\out.reg",
            (
                effect(READ, "hklm", "regedit export", extra=_DEEP),
                effect(K.WRITE, r"C:\Temp\out.reg", "regedit export"),
            ),
            id="export-everything",
        ),
        pytest.param(
            r"regedit /a C:\Temp\out.reg HKEY_CURRENT_USER\Software",
            (
                effect(READ, r"HKEY_CURRENT_USER\Software", "regedit export", extra=_DEEP),
                effect(K.WRITE, r"C:\Temp\out.reg", "regedit export"),
            ),
            id="ansi-export",
        ),
        # the editor window itself (S-RULE-154): its clicks change keys unjudged
        pytest.param(
            "regedit",
            (effect(K.EXECUTE, "regedit", "regedit opened", extra=(("console", "the Registry Editor"),)),),
            id="editor-window",
        ),
    ],
)
def test_regedit_imports_and_exports(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-39: `regedit file` imports it (keys unknown), `/e`/`/a` exports a key (or everything) to a file."""
    assert _effects(command) == expected


@requirement("S-RULE-39")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(r"regedit /s C:\Temp\foo.reg", ("dynamic-command", "ask"), id="import-asks"),
        pytest.param(r"reg import C:\Temp\foo.reg", ("dynamic-command", "ask"), id="reg-import-asks"),
        pytest.param(r"regedit /e C:\Temp\out.reg HKEY_CURRENT_USER\Software\Contoso", None, id="export-passes"),
        # S-RULE-107: all of HKCU\Software holds the keys where remote-access tools keep saved passwords.
        pytest.param(
            r"regedit /e C:\Temp\out.reg HKEY_CURRENT_USER\Software",
            ("credential-access", "deny"),
            id="export-of-stores",
        ),
        pytest.param("regedit", ("admin-console", "ask"), id="window-asks"),  # S-RULE-154
    ],
)
def test_regedit_verdicts(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-39: an import's values are not known and ask; an export is a read."""
    assert _verdict(command) == expected


# ---------------------------------------------------------------------------------------
# .NET and COM


@requirement("S-RULE-79")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            f"{ENV_CALL}('COR_PROFILER', '{{guid}}', 'Machine')",
            (effect(SET, MACHINE_ENV, ENV_CALL, value_name="COR_PROFILER", data="{guid}"),),
            id="machine-by-name",
        ),
        pytest.param(
            f"{ENV_CALL}('FOO', 'bar', 'User')",
            (effect(SET, USER_ENV, ENV_CALL, value_name="FOO", data="bar"),),
            id="user-by-name",
        ),
        pytest.param(
            f"{ENV_CALL}('FOO', 'bar', 2)",
            (effect(SET, MACHINE_ENV, ENV_CALL, value_name="FOO", data="bar"),),
            id="machine-by-number",
        ),
        pytest.param(
            f"{ENV_CALL}('FOO', 'bar', 1)",
            (effect(SET, USER_ENV, ENV_CALL, value_name="FOO", data="bar"),),
            id="user-by-number",
        ),
        pytest.param(f"{ENV_CALL}('FOO', 'bar', 0)", (), id="process-by-number"),
        pytest.param(f"{ENV_CALL}('FOO', 'bar', 'Process')", (), id="process-by-name"),
        pytest.param(f"{ENV_CALL}('FOO', 'bar')", (), id="no-target-is-the-process"),
        pytest.param(
            f"{ENV_CALL}('FOO', 'bar', [EnvironmentVariableTarget]::Machine)",
            (effect(SET, MACHINE_ENV, ENV_CALL, value_name="FOO", data="bar"),),
            id="machine-enum",
        ),
        pytest.param(
            f"{ENV_CALL}('FOO', 'bar', [System.EnvironmentVariableTarget]::User)",
            (effect(SET, USER_ENV, ENV_CALL, value_name="FOO", data="bar"),),
            id="user-enum-full-name",
        ),
        pytest.param(
            f"{ENV_CALL}('FOO', 'bar', [EnvironmentVariableTarget]::Process)",
            (),
            id="process-enum",
        ),
        pytest.param(
            f"{ENV_CALL}('FOO', 'bar', $t)",
            (
                effect(SET, USER_ENV, ENV_CALL + " (scope unknown)", value_name="FOO", data="bar"),
                effect(SET, MACHINE_ENV, ENV_CALL + " (scope unknown)", value_name="FOO", data="bar"),
            ),
            id="unknown-target-is-both-scopes",
        ),
        pytest.param(
            f"{ENV_CALL}('FOO', $v, 'User')",
            (effect(SET, USER_ENV, ENV_CALL, value_name="FOO"),),
            id="unknown-value",
        ),
    ],
)
def test_set_environment_variable_targets(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-79: `[Environment]::SetEnvironmentVariable` writes the user or machine key; Process writes nothing."""
    assert _effects(command) == expected


@requirement("S-RULE-79")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(f"{ENV_CALL}('COR_PROFILER', '{{guid}}', 'Machine')", ("persistence-hijack", "deny"), id="api"),
        pytest.param("setx COR_ENABLE_PROFILING 1 /m", ("persistence-hijack", "deny"), id="setx"),
        pytest.param(f"{ENV_CALL}('COR_PROFILER', '{{guid}}', 'Process')", None, id="process-only"),
        pytest.param(r'setx PATH "C:\Tools"', ("environment-change", "ask"), id="ordinary-variable"),
    ],
)
def test_loader_variables_are_refused_by_any_route(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-79: a persistent profiler variable is refused, the process's own is not judged."""
    assert _verdict(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r"[Microsoft.Win32.Registry]::SetValue('HKEY_CURRENT_USER\Software\Foo', 'Bar', 'baz')",
            (effect(SET, r"HKEY_CURRENT_USER\Software\Foo", "[Registry]::SetValue", value_name="Bar", data="baz"),),
            id="registry-setvalue",
        ),
        pytest.param(
            r"[Microsoft.Win32.Registry]::GetValue('HKEY_LOCAL_MACHINE\SOFTWARE\Foo', 'Bar', $null)",
            (effect(READ, r"HKEY_LOCAL_MACHINE\SOFTWARE\Foo", "[Registry]::GetValue", value_name="Bar"),),
            id="registry-getvalue",
        ),
        pytest.param(
            WSH + r"$s.RegWrite('HKCU\Software\Foo\Bar', 1, 'REG_DWORD')",
            (
                effect(
                    SET,
                    r"HKCU\Software\Foo",
                    "WScript.Shell.RegWrite",
                    value_name="Bar",
                    data="1",
                    extra=(("type", "REG_DWORD"),),
                ),
            ),
            id="regwrite-value",
        ),
        pytest.param(
            WSH + r"$s.RegWrite('HKCU\Software\Foo\', 'x')",
            (effect(SET, "HKCU\\Software\\Foo\\", "WScript.Shell.RegWrite", data="x"),),
            id="regwrite-trailing-separator-is-the-key",
        ),
        pytest.param(
            WSH + "$s.RegWrite('Bar', 'x')",
            (effect(SET, "Bar", "WScript.Shell.RegWrite", data="x"),),
            id="regwrite-no-separator",
        ),
        pytest.param(
            WSH + "$s.RegWrite($p, 1)",
            (effect(SET, None, "WScript.Shell.RegWrite", data="1"),),
            id="regwrite-unknown-path",
        ),
        pytest.param(
            WSH + r"$s.RegDelete('HKCU\Software\Foo\Bar')",
            (effect(DELETE, r"HKCU\Software\Foo", "WScript.Shell.RegDelete", value_name="Bar"),),
            id="regdelete-value",
        ),
        pytest.param(
            WSH + r"$s.RegDelete('HKCU\Software\Foo\')",
            (effect(DELETE, "HKCU\\Software\\Foo\\", "WScript.Shell.RegDelete"),),
            id="regdelete-key",
        ),
        pytest.param(
            WSH + r"$s.RegRead('HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Winlogon\DefaultPassword')",
            (
                effect(
                    READ,
                    r"HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Winlogon",
                    "WScript.Shell.RegRead",
                    value_name="DefaultPassword",
                ),
            ),
            id="regread-value",
        ),
        pytest.param(
            WSH + r"$s.RegRead('HKCU\Software\Foo\')",
            (effect(READ, "HKCU\\Software\\Foo\\", "WScript.Shell.RegRead"),),
            id="regread-key-default",
        ),
    ],
)
def test_static_and_com_registry_calls(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: `[Registry]::SetValue/GetValue` and WScript.Shell's RegWrite/RegDelete/RegRead split key and value."""
    assert _effects(command) == expected


REG = "[Microsoft.Win32.Registry]::"


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            REG + r"LocalMachine.OpenSubKey('SOFTWARE\Foo', $true).SetValue('Bar', 1)",
            (effect(SET, r"HKLM\SOFTWARE\Foo", "RegistryKey.setvalue", value_name="Bar", data="1"),),
            id="chain-setvalue",
        ),
        pytest.param(
            REG + r"CurrentUser.OpenSubKey('Software\Foo', $true).DeleteValue('Bar')",
            (effect(DELETE, r"HKCU\Software\Foo", "RegistryKey.deletevalue", value_name="Bar"),),
            id="chain-deletevalue",
        ),
        pytest.param(
            REG + r"CurrentUser.DeleteSubKeyTree('Software\Foo')",
            (effect(DELETE, r"HKCU\Software\Foo", "RegistryKey.deletesubkeytree", extra=(("recursive", "true"),)),),
            id="hive-deletesubkeytree",
        ),
        pytest.param(
            REG + r"CurrentUser.DeleteSubKey('Software\Foo')",
            (effect(DELETE, r"HKCU\Software\Foo", "RegistryKey.deletesubkey"),),
            id="hive-deletesubkey",
        ),
        pytest.param(
            REG + r"CurrentUser.OpenSubKey('Software', $true).DeleteSubKeyTree('Foo')",
            (effect(DELETE, r"HKCU\Software\Foo", "RegistryKey.deletesubkeytree", extra=(("recursive", "true"),)),),
            id="subkey-relative-to-the-opened-key",
        ),
        pytest.param(  # the chain read from the text already ends in the subkey the call creates
            REG + r"CurrentUser.CreateSubKey('Software\Foo')",
            (effect(SET, r"HKCU\Software\Foo", "RegistryKey.createsubkey"),),
            id="hive-createsubkey",
        ),
        pytest.param(
            REG + r"CurrentUser.OpenSubKey('Software').CreateSubKey('Foo')",
            (effect(SET, r"HKCU\Software\Foo", "RegistryKey.createsubkey"),),
            id="chain-createsubkey",
        ),
        pytest.param(
            "$k = " + REG + r"CurrentUser.OpenSubKey('Software', $true); $k.CreateSubKey('Foo')",
            (effect(SET, r"HKCU\Software\Foo", "RegistryKey.createsubkey"),),
            id="createsubkey-on-a-variable",
        ),
        pytest.param(
            "$k = " + REG + r"CurrentUser.OpenSubKey('Software', $true); $k.DeleteSubKey('Foo')",
            (effect(DELETE, r"HKCU\Software\Foo", "RegistryKey.deletesubkey"),),
            id="deletesubkey-on-a-variable",
        ),
        pytest.param(
            "$k = " + REG + r"CurrentUser.OpenSubKey('Software', $true); $k.DeleteValue('Foo')",
            (effect(DELETE, r"HKCU\Software", "RegistryKey.deletevalue", value_name="Foo"),),
            id="deletevalue-on-a-variable",
        ),
        pytest.param(
            "$k = " + REG + r"CurrentUser.OpenSubKey('Software\Foo', $true); $k.SetValue('Bar', 'baz', 'String')",
            (effect(SET, r"HKCU\Software\Foo", "RegistryKey.setvalue", value_name="Bar", data="baz"),),
            id="setvalue-on-a-variable",
        ),
        pytest.param(
            REG + r"Users.OpenSubKey('.DEFAULT\Software', $true).SetValue('X', 'y')",
            (effect(SET, r"HKU\.DEFAULT\Software", "RegistryKey.setvalue", value_name="X", data="y"),),
            id="users-hive",
        ),
        pytest.param(
            REG + r"CurrentConfig.OpenSubKey('Software', $true).SetValue('X', 'y')",
            (effect(SET, r"HKCC\Software", "RegistryKey.setvalue", value_name="X", data="y"),),
            id="current-config-hive",
        ),
        pytest.param(
            r"[Microsoft.Win32.RegistryKey]::OpenBaseKey('LocalMachine', 'Registry64')"
            r".OpenSubKey('SOFTWARE\Foo', $true).SetValue('Bar', 1)",
            (effect(SET, r"HKLM\SOFTWARE\Foo", "RegistryKey.setvalue", value_name="Bar", data="1"),),
            id="openbasekey-chain",
        ),
        pytest.param(
            r"$k = [Microsoft.Win32.RegistryKey]::OpenBaseKey('LocalMachine', 'Registry64'); "
            r"$k.DeleteSubKeyTree('SOFTWARE\Foo')",
            (effect(DELETE, r"HKLM\SOFTWARE\Foo", "RegistryKey.deletesubkeytree", extra=(("recursive", "true"),)),),
            id="openbasekey-variable",
        ),
        pytest.param(
            r"$k = [Microsoft.Win32.RegistryKey]::OpenBaseKey('Users', 'Registry64'); $k.DeleteSubKey('x')",
            (effect(DELETE, r"HKU\x", "RegistryKey.deletesubkey"),),
            id="openbasekey-users",
        ),
        pytest.param(
            "$k = " + REG + r"LocalMachine.OpenSubKey($p, $true); $k.SetValue('Bar', 1)",
            (effect(SET, None, "RegistryKey.setvalue", value_name="Bar", data="1"),),
            id="unknown-subkey",
        ),
        pytest.param(
            "$k = " + REG + r"LocalMachine.OpenSubKey('SOFTWARE\Foo', $true); $k.GetValue('Bar')",
            (effect(K.READ, r"HKLM\SOFTWARE\Foo", "RegistryKey.getvalue", value_name="Bar"),),  # S-RULE-165
            id="getvalue-reads-the-value",
        ),
        pytest.param(
            "$k = " + REG + r"LocalMachine.OpenSubKey('SOFTWARE\Foo', $true); $k.Flush()",
            (),
            id="flush-changes-nothing",
        ),
    ],
)
def test_registry_key_methods(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: a `RegistryKey` method acts on the key its object opened; a subkey argument is relative to it."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(REG + "LocalMachine.OpenSubKey('SOFTWARE\\Foo')", "HKLM\\SOFTWARE\\Foo", id="single-quotes"),
        pytest.param('[Registry]::CurrentUser.OpenSubKey("Software\\Foo")', "HKCU\\Software\\Foo", id="short-type"),
        pytest.param("[Win32.Registry]::ClassesRoot.OpenSubKey('x')", "HKCR\\x", id="win32-type"),
        pytest.param("([microsoft.win32.registry]::Users).OpenSubKey('S-1-5-18')", "HKU\\S-1-5-18", id="parenthesised"),
        pytest.param("  [Registry] :: CurrentConfig", "HKCC", id="blanks-and-hive-only"),
        pytest.param(
            REG + "LocalMachine.OpenSubKey('\\SOFTWARE\\').OpenSubKey('Foo\\')",
            "HKLM\\SOFTWARE\\Foo",
            id="separators-trimmed-and-chained",
        ),
        pytest.param(REG + "LocalMachine.CreateSubKey('SOFTWARE\\Foo')", "HKLM\\SOFTWARE\\Foo", id="createsubkey"),
        pytest.param(REG + "LocalMachine.OpenSubKey($p)", None, id="subkey-not-constant"),
        pytest.param(REG + "PerformanceData.OpenSubKey('x')", None, id="not-a-hive-it-names"),
        pytest.param(
            "[Microsoft.Win32.RegistryKey]::OpenBaseKey('LocalMachine', 'Registry64').OpenSubKey('SOFTWARE')",
            "HKLM\\SOFTWARE",
            id="openbasekey",
        ),
        pytest.param(
            "[RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]::CurrentUser, 'Default').OpenSubKey('x')",
            "HKCU\\x",
            id="openbasekey-enum",
        ),
        pytest.param("[RegistryKey]::OpenBaseKey('Bogus', 'Default')", None, id="openbasekey-unknown-hive"),
        pytest.param("$k.OpenSubKey('SOFTWARE')", None, id="not-from-a-hive"),
    ],
)
def test_registry_key_in_text(text: str, expected: str | None) -> None:
    """S-RULE-18: the key a .NET chain opens is read from its text, hive first, then each constant subkey."""
    assert registry_key_in_text(text) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("op", "expected"),
    [
        pytest.param(Operation("dotnet", "microsoft.win32.registry::localmachine"), "HKLM", id="hive-property"),
        pytest.param(Operation("dotnet", "microsoft.win32.registry::currentuser.opensubkey"), "HKCU", id="hive-call"),
        pytest.param(Operation("dotnet", "microsoft.win32.registry::classesroot"), "HKCR", id="classes-root"),
        pytest.param(Operation("dotnet", "microsoft.win32.registry::setvalue"), None, id="static-method-no-hive"),
        pytest.param(Operation("powershell", "microsoft.win32.registry::localmachine"), None, id="not-dotnet"),
        pytest.param(
            Operation("dotnet", "microsoft.win32.registrykey::openbasekey", (), ("LocalMachine", "Registry64")),
            "HKLM",
            id="openbasekey",
        ),
        pytest.param(
            Operation(
                "dotnet", "microsoft.win32.registrykey::openbasekey", (), ("[Microsoft.Win32.RegistryHive]::Users",)
            ),
            "HKU",
            id="openbasekey-enum-text",
        ),
        pytest.param(
            Operation("dotnet", "microsoft.win32.registrykey::openbasekey", (), ("'CurrentConfig'",)),
            "HKCC",
            id="openbasekey-quoted",
        ),
        pytest.param(
            Operation("dotnet", "microsoft.win32.registrykey::openbasekey", (), (None,)), None, id="openbasekey-unknown"
        ),
        pytest.param(Operation("dotnet", "microsoft.win32.registrykey::openremotebasekey"), None, id="other-call"),
    ],
)
def test_registry_root(op: Operation, expected: str | None) -> None:
    """S-RULE-18: the hive a .NET registry operation starts from."""
    assert registry_root(op) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("found", "key", "expected"),
    [
        pytest.param(
            effect(SET, None, "RegistryKey.setvalue", value_name="Bar", data="1", extra=(("type", "x"),)),
            "HKLM\\SOFTWARE\\Foo",
            effect(
                SET, "HKLM\\SOFTWARE\\Foo", "RegistryKey.setvalue", value_name="Bar", data="1", extra=(("type", "x"),)
            ),
            id="no-target-is-the-key",
        ),
        pytest.param(
            effect(DELETE, "\\Sub", "RegistryKey.deletesubkey"),
            "HKCU\\Software\\",
            effect(DELETE, "HKCU\\Software\\Sub", "RegistryKey.deletesubkey"),
            id="relative-joined-with-one-separator",
        ),
    ],
)
def test_registry_effect_with_key(found: Effect, key: str, expected: Effect) -> None:
    """S-RULE-18: a key method's relative target is joined onto its object's key, everything else kept."""
    assert registry_effect_with_key(found, key) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            rf"Set-ItemProperty -Path '{WDIGEST_DRIVE}' -Name UseLogonCredential -Value 1",
            ("security-weakening", "deny"),
            id="cmdlet",
        ),
        pytest.param(
            rf"reg add {WDIGEST} /v UseLogonCredential /t REG_DWORD /d 1 /f",
            ("security-weakening", "deny"),
            id="reg-add",
        ),
        pytest.param(
            WSH + rf"$s.RegWrite('{WDIGEST}\UseLogonCredential', 1, 'REG_DWORD')",
            ("security-weakening", "deny"),
            id="regwrite",
        ),
        pytest.param(
            REG + r"LocalMachine.OpenSubKey('SYSTEM\CurrentControlSet\Control\SecurityProviders\WDigest', $true)"
            ".SetValue('UseLogonCredential', 1)",
            ("security-weakening", "deny"),
            id="registrykey-chain",
        ),
        pytest.param(
            rf"reg query {WDIGEST} /v UseLogonCredential",
            None,
            id="reading-passes",
        ),
    ],
)
def test_wdigest_whichever_tool_wrote_it(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-18: WDigest `UseLogonCredential = 1` is the same weakening by cmdlet, reg.exe, COM or .NET."""
    assert _verdict(command) == expected
