"""File, registry, pipeline and value effects, with the phrase a refusal quotes; found by mutation testing.

Each row is a command as the model would send it to the PowerShell tool, and the effects the gateway
reads from it: kind, target, the detail a reason shows, and the value name, data and extra facts it
carries. Expectations are written from what the commands do on Windows. A few rows hand the pipeline
operations the analyser never emits by itself (`ParseName`, a bare `powershell -`), built by hand.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import LANDED, RECURSIVE, effect
from policy.rules.effects_files import argument_reads
from policy.rules.effects_pipeline import pipeline_effects
from policy.rules.shell.ops import Effect, EffectKind, Operation
from tests._requirements import requirement
from tests.policy.verdicts import ps_effects as _effects

K = EffectKind
USER_ENV = "HKCU\\Environment"
MACHINE_ENV = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
LOGIN_DATA = "C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data"


def _link(target: str, detail: str, link_target: str, *, folder: bool = True) -> Effect:
    # A link that may lead to a folder replaces everything below its path (S-RULE-148).
    return effect(
        K.WRITE, target, detail, extra=(("link_target", link_target), *((*RECURSIVE, *LANDED) if folder else ()))
    )


# ---------------------------------------------------------------------------------------
# Files: cmd built-ins, file programs, .NET


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            '$f = [IO.FileStream]::new("C:\\a.txt", "Open")',
            (effect(K.READ, "C:\\a.txt", "[IO.FileStream]::new"),),
            id="filestream-open-reads",
        ),
        pytest.param(
            "attrib +h sr.txt", (effect(K.WRITE, "sr.txt", "attrib +h"),), id="attrib-a-path-like-a-change-is-a-path"
        ),
        pytest.param(
            "cacls C:\\x /d bob",
            (effect(K.WRITE, "C:\\x", "cacls", extra=(("permissions", "true"),)),),
            id="cacls-deny-writes",
        ),
        pytest.param("cipher /e C:\\x", (effect(K.WRITE, "C:\\x", "cipher /e"),), id="cipher-encrypt-writes"),
        pytest.param("cipher /d C:\\x", (effect(K.WRITE, "C:\\x", "cipher /d"),), id="cipher-decrypt-writes"),
        pytest.param(
            "Clear-RecycleBin",
            (effect(K.DELETE_RECURSIVE, "c:\\$Recycle.Bin", "Clear-RecycleBin"),),
            id="clear-recyclebin-deletes-the-bin",
        ),
        pytest.param(
            "cmd /c mklink /j C:\\l C:\\t", (_link("C:\\l", "mklink (junction)", "C:\\t"),), id="mklink-junction"
        ),
        pytest.param(
            "cmd /c mklink /h C:\\l C:\\t",
            (_link("C:\\l", "mklink (hardlink)", "C:\\t", folder=False),),
            id="mklink-hardlink",
        ),
        pytest.param(
            "cmd /c mklink C:\\l C:\\t",
            (_link("C:\\l", "mklink (symboliclink)", "C:\\t", folder=False),),
            id="mklink-symlink",
        ),
        pytest.param(
            "cmd /c move C:\\a D:\\b",
            (
                effect(K.MOVE, "C:\\a", "move"),
                effect(K.WRITE, "D:\\b", "move destination"),
                effect(K.WRITE, "D:\\b\\a", "move into a folder", extra=(*RECURSIVE, *LANDED)),  # S-RULE-147
                effect(K.WRITE, "D:\\b\\*", "move as the new folder", extra=LANDED),
            ),
            id="cmd-move-writes-its-destination",
        ),
        pytest.param(
            "cmd /c ren C:\\x\\a b",
            (effect(K.MOVE, "C:\\x\\a", "ren"), effect(K.WRITE, "C:\\x\\b", "ren destination")),
            id="cmd-ren-writes-the-new-name-in-the-same-folder",
        ),
        pytest.param(
            "robocopy C:\\a D:\\b /mov",  # files only
            (
                effect(K.MOVE, "C:\\a", "robocopy /move"),
                effect(K.WRITE, "D:\\b", "robocopy destination"),
                effect(K.WRITE, "D:\\b\\*", "robocopy into a folder", extra=LANDED),
            ),
            id="robocopy-mov-moves",
        ),
        pytest.param(
            "robocopy C:\\a D:\\b /move",  # files and folders
            (
                effect(K.MOVE, "C:\\a", "robocopy /move"),
                effect(K.WRITE, "D:\\b", "robocopy destination"),
                effect(K.WRITE, "D:\\b\\*", "robocopy into a folder (with subfolders)", extra=(*RECURSIVE, *LANDED)),
            ),
            id="robocopy-move-moves",
        ),
        pytest.param(
            "esentutl /y C:\\x\\SAM /d C:\\o",
            (
                effect(K.CREDENTIAL_ACCESS, "C:\\x\\SAM", "esentutl /y"),
                effect(K.WRITE, "C:\\o", "esentutl /y destination"),
            ),
            id="esentutl-copy-without-vss",
        ),
        pytest.param(
            "esentutl /y /vss C:\\x\\SAM /d C:\\o",
            (
                effect(K.CREDENTIAL_ACCESS, "C:\\x\\SAM", "esentutl /y /vss"),
                effect(K.WRITE, "C:\\o", "esentutl /y destination"),
            ),
            id="esentutl-copy-with-vss",
        ),
        pytest.param("findstr pat C:\\a.txt", (effect(K.READ, "C:\\a.txt", "findstr"),), id="findstr-reads-its-files"),
        pytest.param(
            "fsutil hardlink create C:\\l C:\\t",
            (_link("C:\\l", "fsutil hardlink", "C:\\t", folder=False),),
            id="fsutil-hardlink-writes-the-link",
        ),
        pytest.param("fsutil file queryextents C:\\x", (), id="fsutil-file-queryextents-reads-nothing"),
        pytest.param(
            "fsutil file setshortname C:\\x y",
            (effect(K.WRITE, "C:\\x", "fsutil file setshortname"),),
            id="fsutil-file-change-writes-the-file",
        ),
        pytest.param(
            "icacls C:\\x /save C:\\acl.txt",
            (effect(K.READ, "C:\\x", "icacls /save"), effect(K.WRITE, "C:\\acl.txt", "icacls /save")),
            id="icacls-save-writes-the-file",
        ),
        pytest.param(
            "icacls C:\\x /restore C:\\acl.txt",
            (effect(K.WRITE, "C:\\x", "icacls /restore", extra=(("permissions", "true"),)),),
            id="icacls-restore-writes",
        ),
        pytest.param(
            "icacls /deny bob:F C:\\x",
            (effect(K.WRITE, "C:\\x", "icacls /deny", extra=(("permissions", "true"),)),),
            id="icacls-deny-value-is-no-path",
        ),
    ],
)
def test_a_file_command_names_its_path_and_how_it_was_changed(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: cmd built-ins, file programs and .NET file calls name their path and the command in the detail."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "New-Item -Name $n", (effect(K.WRITE, None, "New-Item"),), id="new-item-with-an-unknown-name-writes"
        ),
        pytest.param(
            "New-Item -ItemType SymbolicLink -Path C:\\l -Value C:\\t",
            (_link("C:\\l", "New-Item -ItemType symboliclink", "C:\\t"),),
            id="new-item-symlink",
        ),
        pytest.param("Get-Content C:\\a.txt", (effect(K.READ, "C:\\a.txt", "Get-Content"),), id="get-content-reads"),
        pytest.param("Set-Content C:\\a.txt x", (effect(K.WRITE, "C:\\a.txt", "Set-Content"),), id="set-content"),
        pytest.param(
            "Set-Content HKCU:\\Software\\x y",
            (effect(K.REGISTRY_SET, "HKCU:\\Software\\x", "Set-Content"),),
            id="set-content-in-the-registry-sets-the-key",
        ),
        pytest.param(
            "Start-Transcript C:\\t.txt",
            (effect(K.WRITE, "C:\\t.txt", "Start-Transcript"),),
            id="transcript-positional",
        ),
        pytest.param(
            "Start-Transcript -Path C:\\t.txt",
            (effect(K.WRITE, "C:\\t.txt", "Start-Transcript"),),
            id="transcript-named",
        ),
        pytest.param(
            "Rename-Item HKCU:\\Software\\a b",
            (
                effect(K.REGISTRY_DELETE, "HKCU:\\Software\\a", "Rename-Item"),
                effect(K.REGISTRY_SET, "HKCU:\\Software\\b", "Rename-Item"),
            ),
            id="rename-item-of-a-key",
        ),
        pytest.param(
            "Rename-Item -Path HKCU:\\Software\\a -NewName $n",
            (
                effect(K.REGISTRY_DELETE, "HKCU:\\Software\\a", "Rename-Item"),
                effect(K.REGISTRY_SET, None, "Rename-Item"),
            ),
            id="rename-item-of-a-key-to-an-unknown-name",
        ),
    ],
)
def test_a_file_cmdlet_names_its_path_and_how_it_was_changed(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: file cmdlets name the path (or registry key) and the cmdlet in the detail."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("c^md", (), id="caret-cmd-is-a-shell"),
        pytest.param("ss^h", (), id="caret-ssh-is-a-key-user"),
        pytest.param("sqlite3", (effect(K.READ, LOGIN_DATA, "sqlite3 argument"),), id="sqlite3-reads-it"),
    ],
)
def test_a_program_handed_a_credential_store_reads_it_unless_it_is_a_shell(
    name: str, expected: tuple[Effect, ...]
) -> None:
    """S-RULE-18: a program's argument naming a credential store is read, but `c^md` is cmd and reads nothing itself."""
    assert argument_reads(Operation(shell="program", name=name, args=(LOGIN_DATA,))) == expected


# ---------------------------------------------------------------------------------------
# Registry


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            '[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey("SOFTWARE\\x", $true).DeleteValue("Foo")',
            (effect(K.REGISTRY_DELETE, "HKLM\\SOFTWARE\\x", "RegistryKey.deletevalue", value_name="Foo"),),
            id="deletevalue-names-the-value",
        ),
        pytest.param(
            '[Microsoft.Win32.Registry]::LocalMachine.OpenSubKey("SOFTWARE\\x", $true).SetValue("Foo", "bar")',
            (effect(K.REGISTRY_SET, "HKLM\\SOFTWARE\\x", "RegistryKey.setvalue", value_name="Foo", data="bar"),),
            id="setvalue-keeps-name-and-data",
        ),
        pytest.param(
            '$k = [Microsoft.Win32.RegistryKey]::OpenBaseKey("LocalMachine", "Default"); $k.DeleteValue("Foo")',
            (effect(K.REGISTRY_DELETE, "HKLM", "RegistryKey.deletevalue", value_name="Foo"),),
            id="openbasekey-names-the-hive",
        ),
        pytest.param(
            "reg copy HKLM\\a HKLM\\b",
            (effect(K.READ, "HKLM\\a", "reg copy"), effect(K.REGISTRY_SET, "HKLM\\b", "reg copy destination")),
            id="reg-copy",
        ),
        pytest.param(
            "reg compare HKLM\\a HKLM\\b",
            (effect(K.READ, "HKLM\\a", "reg compare"), effect(K.READ, "HKLM\\b", "reg compare")),
            id="reg-compare-reads-both",
        ),
        pytest.param(
            "reg delete HKLM\\a /va /f",
            (effect(K.REGISTRY_DELETE, "HKLM\\a", "reg delete", extra=(("all_values", "true"),)),),
            id="reg-delete-all-values",
        ),
        pytest.param(
            '$w = New-Object -ComObject WScript.Shell; $w.RegDelete("HKCU\\Software\\x\\Foo")',
            (effect(K.REGISTRY_DELETE, "HKCU\\Software\\x", "WScript.Shell.RegDelete", value_name="Foo"),),
            id="regdelete-names-the-value",
        ),
        pytest.param(
            '$w = New-Object -ComObject WScript.Shell; $w.RegWrite("HKCU\\Software\\x\\Foo", "1", "REG_SZ")',
            (
                effect(
                    K.REGISTRY_SET,
                    "HKCU\\Software\\x",
                    "WScript.Shell.RegWrite",
                    value_name="Foo",
                    data="1",
                    extra=(("type", "REG_SZ"),),
                ),
            ),
            id="regwrite",
        ),
        pytest.param(
            "regedit /a C:\\o.reg HKLM\\x",
            (
                effect(K.READ, "HKLM\\x", "regedit export", extra=(("recursive", "true"),)),
                effect(K.WRITE, "C:\\o.reg", "regedit export"),
            ),
            id="regedit-a-exports",
        ),
        pytest.param(
            "regedit /s C:\\i.reg",
            (
                effect(K.READ, "C:\\i.reg", "regedit import file"),
                effect(K.REGISTRY_SET, None, "regedit import", extra=(("file", "C:\\i.reg"),)),
            ),
            id="regedit-imports",
        ),
        pytest.param(
            '[Environment]::SetEnvironmentVariable("Path", "C:\\x", $t)',
            tuple(
                effect(
                    K.REGISTRY_SET,
                    key,
                    "[Environment]::SetEnvironmentVariable (scope unknown)",
                    value_name="Path",
                    data="C:\\x",
                )
                for key in (USER_ENV, MACHINE_ENV)
            ),
            id="setenvironmentvariable-unknown-scope-keeps-the-data",
        ),
        pytest.param(
            "setx /k HKLM\\x\\y Foo",
            (effect(K.REGISTRY_SET, USER_ENV, "setx", value_name="Foo"),),
            id="setx-k-value-is-no-name",
        ),
        pytest.param(
            'setx /a "1,1" /f C:\\f.txt Foo',
            (effect(K.REGISTRY_SET, USER_ENV, "setx", value_name="Foo"),),
            id="setx-a-value-is-no-name",
        ),
        pytest.param(
            'setx Foo /f C:\\f.txt /r "1,0" Label',
            (effect(K.REGISTRY_SET, USER_ENV, "setx", value_name="Foo"),),
            id="setx-f-data-is-not-known",
        ),
        pytest.param("setx Foo", (effect(K.REGISTRY_SET, USER_ENV, "setx", value_name="Foo"),), id="setx-no-data"),
        pytest.param(
            "setx Foo bar", (effect(K.REGISTRY_SET, USER_ENV, "setx", value_name="Foo", data="bar"),), id="setx-user"
        ),
        pytest.param(
            "Clear-ItemProperty HKCU:\\Software\\x -Name Foo",
            (effect(K.REGISTRY_SET, "HKCU:\\Software\\x", "Clear-ItemProperty", value_name="Foo", data=""),),
            id="clear-itemproperty-empties-the-value",
        ),
        pytest.param(
            "Copy-ItemProperty -Path HKCU:\\Software\\a -Destination HKCU:\\Software\\b -Name Foo",
            (effect(K.REGISTRY_SET, "HKCU:\\Software\\b", "Copy-ItemProperty", value_name="Foo"),),
            id="copy-itemproperty-sets-the-destination",
        ),
        pytest.param(
            "New-ItemProperty HKCU:\\Software\\x -Name Foo -Value 1 -PropertyType DWord",
            (
                effect(
                    K.REGISTRY_SET,
                    "HKCU:\\Software\\x",
                    "New-ItemProperty",
                    value_name="Foo",
                    data="1",
                    extra=(("type", "DWord"),),
                ),
            ),
            id="new-itemproperty-keeps-the-type",
        ),
        pytest.param(
            "Clear-Item HKCU:\\Software\\x",
            (effect(K.REGISTRY_SET, "HKCU:\\Software\\x", "Clear-Item", value_name="", data=""),),
            id="clear-item-empties-the-default-value",
        ),
    ],
)
def test_a_registry_command_names_its_key_value_and_data(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: registry cmdlets, reg.exe, setx, regedit, .NET and COM name key, value, data and the command."""
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# Objects made earlier, piped input, WMI


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "$p = Get-Process notepad; $p.Kill()",
            (effect(K.KILL_FORCED, "notepad", ".Kill() of Get-Process"),),
            id="kill-of-get-process-by-name",
        ),
        pytest.param(
            "$p = Get-Process -Id 42; $p.Kill()",
            (effect(K.KILL_FORCED, "pid:42", ".Kill() of Get-Process"),),
            id="kill-of-get-process-by-id",
        ),
        pytest.param(
            "$p = [System.Diagnostics.Process]::GetProcessById(42); $p.Kill()",
            (effect(K.KILL_FORCED, "pid:42", ".Kill() of GetProcessById"),),
            id="kill-of-getprocessbyid",
        ),
        pytest.param(
            '$t = [IO.Path]::GetFileName("a"); $p.Kill()',
            (effect(K.KILL_FORCED, None, ".Kill()"),),
            id="kill-after-another-dotnet-call-is-not-named-by-it",
        ),
        pytest.param(
            "Get-WmiObject Win32_ShadowCopy | Remove-WmiObject",
            (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "Win32_ShadowCopy delete"),)),),
            id="shadow-copies-removed",
        ),
        pytest.param(
            "Get-CimInstance Win32_ShadowCopy | Invoke-CimMethod -MethodName Delete",
            (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "Win32_ShadowCopy delete"),)),),
            id="shadow-copies-delete-method",
        ),
        pytest.param(
            "Get-WmiObject Win32_OperatingSystem | Invoke-WmiMethod -Name Win32Shutdown",
            (effect(K.POWER, None, "Win32_OperatingSystem win32shutdown"),),
            id="win32shutdown-by-name",
        ),
        pytest.param(
            "Get-CimInstance -Query \"select * from Win32_Process where name='notepad.exe'\" | Remove-CimInstance",
            (effect(K.KILL_FORCED, "notepad.exe", "Win32_Process terminate"),),
            id="process-removed-by-query-names-it",
        ),
    ],
)
def test_an_object_made_earlier_names_what_a_method_or_pipe_acts_on(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: `.Kill()` and WMI sinks name what the earlier Get-Process, GetProcessById or WMI query found."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
def test_invokeverb_delete_of_a_parsed_item_deletes_that_item() -> None:
    """S-RULE-18: Shell.Application `Namespace(f).ParseName(i).InvokeVerb('delete')` deletes f\\i."""
    ops = (
        Operation(shell="com", name="com:shell.application.namespace", args=("C:\\x",)),
        Operation(shell="com", name="?.parsename", args=("a.txt",)),
        Operation(shell="dotnet", name="?.invokeverb", args=("delete",)),
    )
    assert pipeline_effects(ops) == (effect(K.DELETE, "C:\\x\\a.txt", "Shell.Application InvokeVerb delete"),)


@requirement("S-RULE-18")
def test_a_shell_reading_its_script_from_stdin_after_a_download_runs_the_download() -> None:
    """S-RULE-18: `powershell -` after a download runs what it reads: download and run."""
    ops = (
        Operation(shell="powershell", name="invoke-webrequest", args=("http://x/a.ps1",)),
        Operation(shell="program", name="powershell", args=("-",)),
    )
    assert pipeline_effects(ops) == (
        effect(K.DOWNLOAD_EXECUTE, "http://x/a.ps1", "download then run (invoke-webrequest + powershell)"),
    )


# ---------------------------------------------------------------------------------------
# Values handed over: the current folder, Join-Path


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "cd C:\\x; cd sub; Remove-Item a.txt",
            (effect(K.DELETE, "a.txt", "Remove-Item"), effect(K.DELETE, "C:\\x\\sub\\a.txt", "Remove-Item")),
            id="relative-cd-joins-the-current-folder",
        ),
        pytest.param(
            "Remove-Item (Join-Path C:\\a b -AdditionalChildPath c)",
            (effect(K.DELETE, "C:\\a\\b\\c", "Remove-Item"),),
            id="join-path-additional-child-path",
        ),
        pytest.param(
            "Remove-Item ([Environment]::GetFolderPath([System.Environment+SpecialFolder]::Startup))",
            (effect(K.DELETE, "%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup", "Remove-Item"),),
            id="getfolderpath-enum",
        ),
        pytest.param(
            "Get-Item C:\\x\\* | % { Remove-Item $_ }",
            (effect(K.READ, "C:\\x\\*", "Get-Item"), effect(K.DELETE, "C:\\x\\*", "Remove-Item")),
            id="loop-over-get-item",
        ),
    ],
)
def test_a_value_made_earlier_names_the_target(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: a relative path after `cd`, `Join-Path`, `GetFolderPath` and `$_` of a listing name the target."""
    assert _effects(command) == expected
