"""Behaviour a fourth look at the surviving mutants of a random mutation sample of policy/ found unpinned (issue 12).

Each test is a command an agent could send and what the gateway reads from it: the verdict, an effect, or
the text of a reason. Expectations are what Windows, PowerShell and cmd.exe do; where the gateway is stricter
than Windows (it asks about a value it cannot know, or reads a command Windows would refuse as if it ran),
the test says so.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import effect_rows, ps, ps_effects, reason_of

K = EffectKind


# ---------------------------------------------------------------------------------------
# Incomplete commands: Windows refuses them, the gateway still judges them


@requirement("S-RULE-21")
@pytest.mark.parametrize(
    ("command", "rows"),
    [
        # mklink with only the link name prints "The syntax of the command is incorrect." and makes nothing;
        # the gateway reads the link's write (stricter), with no target.
        (r"cmd /c mklink C:\t\l", [(K.WRITE, r"C:\t\l", "mklink (symboliclink)")]),
        # xcopy with no source says "Invalid number of parameters"; robocopy prints its usage.
        ("xcopy", [(K.READ, None, "xcopy")]),
        ("robocopy", [(K.READ, None, "robocopy")]),
        # esentutl /y with no file to copy copies nothing.
        ("esentutl /y", [(K.READ, None, "esentutl /y")]),
    ],
)
def test_a_program_missing_its_words_is_judged_not_failed(command: str, rows: list[tuple[K, str | None, str]]) -> None:
    """S-RULE-21: `mklink l`, `xcopy`, `robocopy` and `esentutl /y` without the words they need get a verdict:
    the gateway reads what is written (the link, an unknown source) and passes."""
    assert effect_rows(command) == rows
    assert ps(command) is None


@requirement("S-RULE-21")
def test_mklink_with_only_the_link_links_to_nothing() -> None:
    """S-RULE-21: `mklink C:\\t\\l` names no target: the write of the link carries an empty link target."""
    assert [e.extra for e in ps_effects(r"cmd /c mklink C:\t\l")] == [(("link_target", ""),)]


@requirement("S-RULE-21")
def test_get_folder_path_with_no_folder_is_asked_about() -> None:
    """S-RULE-21: `[Environment]::GetFolderPath()` with no folder fails in PowerShell (no overload takes no
    argument), so the Remove-Item around it never runs; the gateway cannot name the path and asks (stricter)."""
    command = "Remove-Item ([Environment]::GetFolderPath())"
    assert ps(command) == ("dynamic-command", "ask")
    assert effect_rows(command) == [(K.DELETE, None, "Remove-Item")]


# ---------------------------------------------------------------------------------------
# $PSDefaultParameterValues


@requirement("S-RULE-85")
def test_two_constant_defaults_written_by_index_are_both_read() -> None:
    """S-RULE-85: two constant writes by index are two changes the gateway reads, not a change it cannot
    follow: a recursive forced listing passes."""
    command = (
        "$PSDefaultParameterValues['Get-ChildItem:Force'] = $true; "
        "$PSDefaultParameterValues['Get-ChildItem:Recurse'] = $true; Get-ChildItem C:\\t"
    )
    assert ps(command) is None


# ---------------------------------------------------------------------------------------
# Files: object methods, copies, ACLs, drives, listings


@requirement("S-RULE-102")
def test_a_file_objects_copy_to_reads_the_file_and_writes_the_copy() -> None:
    """S-RULE-102: `(Get-Item a).CopyTo(b)` reads a (as `Copy-Item a b` does) and writes b."""
    found = effect_rows("(Get-Item C:\\t\\a).CopyTo('C:\\t\\b')")
    assert (K.READ, "C:\\t\\a", ".CopyTo()") in found
    assert (K.WRITE, "C:\\t\\b", ".CopyTo() destination") in found
    assert all(kind is not None for kind, _, _ in found)


@requirement("S-RULE-18")
def test_icacls_grant_written_before_the_file_still_names_the_file() -> None:
    """S-RULE-18: icacls expects the file first; written `icacls /grant Everyone:F <file>`, the gateway still
    reads the grant's account as the grant's, not as the file (stricter: icacls may refuse the order), so the
    ACL change of the hosts file is refused."""
    hosts = "C:\\Windows\\System32\\drivers\\etc\\hosts"
    assert effect_rows(f"icacls /grant Everyone:F {hosts}") == [(K.WRITE, hosts, "icacls /grant")]
    assert ps(f"icacls /grant Everyone:F {hosts}") == ("protected-place-write", "deny")


@requirement("S-RULE-51")
def test_a_drive_whose_provider_is_named_binds_its_root_by_position() -> None:
    """S-RULE-51: `New-PSDrive W -PSProvider FileSystem C:\\t` binds C:\\t to -Root (the next free position after
    Name, as PowerShell binds it), so `W:\\x` is C:\\t\\x."""
    found = effect_rows("New-PSDrive W -PSProvider FileSystem C:\\t; Remove-Item W:\\x")
    assert (K.DELETE, "C:\\t\\x", "Remove-Item") in found


@requirement("S-RULE-104")
def test_a_listing_with_a_list_of_patterns_hands_down_no_single_pattern() -> None:
    """S-RULE-104: `-Include *.txt,*.log` is a list, no single item pattern: the gateway reads the removal in
    C:\\t as before, never a `*.log` in the current folder (which the command does not touch)."""
    found = effect_rows("Get-ChildItem C:\\t -Include *.txt,*.log | Remove-Item")
    assert [t for k, t, _ in found if k is K.DELETE] == ["C:\\t"]


# ---------------------------------------------------------------------------------------
# Uploads, services, remote access


@requirement("S-RULE-30")
def test_copy_item_literal_path_to_a_session_is_an_upload() -> None:
    """S-RULE-30: `Copy-Item -LiteralPath f -ToSession $s` sends f to the other machine, as `-Path` does."""
    command = "Copy-Item -LiteralPath C:\\t\\a -ToSession $s -Destination C:\\x"
    assert (K.UPLOAD, "C:\\t\\a", "Copy-Item -ToSession") in effect_rows(command)
    assert ps(command) == ("upload-file", "ask")


@requirement("S-RULE-52")
def test_stop_of_a_service_found_by_display_name_is_stop_service() -> None:
    """S-RULE-52: `(Get-Service -DisplayName '…Defender Antivirus Service').Stop()` stops WinDefend."""
    command = "(Get-Service -DisplayName 'Microsoft Defender Antivirus Service').Stop()"
    assert ps(command) == ("disable-defender", "deny")


@requirement("S-RULE-98")
@pytest.mark.parametrize("service", ["sshd", "WinRM"])
def test_restarting_a_remote_access_service_starts_it(service: str) -> None:
    """S-RULE-98: `Restart-Service` starts a stopped service, so it opens remote access as `Start-Service` does."""
    command = f"Restart-Service {service}"
    assert effect_rows(command) == [(K.SECURITY_WEAKENING, service, "remote-access")]
    assert ps(command) == ("security-weakening", "deny")


@requirement("S-RULE-34")
@pytest.mark.parametrize(
    ("command", "cmdlet"),
    [
        ("Enable-PSRemoting -Force", "Enable-PSRemoting"),
        ("Set-WSManQuickConfig -Force", "Set-WSManQuickConfig"),
    ],
)
def test_remote_management_switched_on_names_its_cmdlet(command: str, cmdlet: str) -> None:
    """S-RULE-34: `Enable-PSRemoting` and `Set-WSManQuickConfig` weaken remote access; the effect names the cmdlet."""
    assert [(e.kind, e.detail, e.extra) for e in ps_effects(command)] == [
        (K.SECURITY_WEAKENING, "remote-access", (("command", cmdlet),))
    ]
    assert ps(command) == ("security-weakening", "deny")


# ---------------------------------------------------------------------------------------
# Processes, WMI, DLLs


@requirement("S-RULE-67")
def test_a_debugger_attached_to_a_process_named_by_a_variable_is_credential_access() -> None:
    """S-RULE-67: `cdb -pn $name` attaches to a process the gateway cannot name (lsass, maybe): refused."""
    command = "cdb -pn $name -c q"
    assert ps(command) == ("credential-access", "deny")
    assert (K.KILL_FORCED, None, "cdb (debugger: ends it on quit)") in effect_rows(command)


@requirement("S-RULE-88")
@pytest.mark.parametrize(
    "command",
    [
        "wmic process where \"ExecutablePath like '%sass.exe'\" delete",
        "Get-CimInstance Win32_Process -Filter \"ExecutablePath LIKE '%sass.exe'\" | Remove-CimInstance",
    ],
)
def test_a_path_test_ending_in_a_fragment_and_exe_names_lsass(command: str) -> None:
    """S-RULE-88: `ExecutablePath LIKE '%sass.exe'` selects C:\\Windows\\System32\\lsass.exe: a kill of lsass."""
    assert ps(command) == ("kill-critical-process", "deny")
    assert [t for k, t, _ in effect_rows(command) if k is K.KILL_FORCED] == ["lsass"]


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    "command",
    [
        "Set-WmiInstance __EventFilter -Namespace root\\subscription -Arguments @{Name='f'}",
        "New-CimInstance __EventFilter -Namespace root/subscription -Property @{Name='f'}",
    ],
)
def test_a_wmi_subscription_class_given_by_position_is_persistence(command: str) -> None:
    """S-RULE-18: the class is `Set-WmiInstance`'s and `New-CimInstance`'s first positional parameter: an
    `__EventFilter` made that way is a WMI event subscription (persistence)."""
    found = effect_rows(command)
    assert [(k, t) for k, t, _ in found] == [(K.PERSISTENCE, "__eventfilter")]


@requirement("S-RULE-18")
def test_shadow_copies_removed_through_a_pipe_come_first_in_the_command() -> None:
    """S-RULE-18: `Get-CimInstance Win32_ShadowCopy | Remove-CimInstance; Format-Volume D` destroys the backups,
    then formats D: the effects come in that order, and the verdict names the first (`delete-backups`)."""
    command = "Get-CimInstance Win32_ShadowCopy | Remove-CimInstance; Format-Volume -DriveLetter D"
    assert effect_rows(command) == [
        (K.DISK_DESTROY, None, "backups"),
        (K.DISK_DESTROY, "D", "Format-Volume"),
    ]
    assert ps(command) == ("delete-backups", "deny")
    assert "(backups)" in reason_of(command)


@requirement("S-RULE-113")
@pytest.mark.parametrize(
    ("command", "item"),
    [
        ("rundll32.exe 'shell32.dll,Control_RunDLL' 'C:\\t\\a b\\x.cpl'", "C:\\t\\a b\\x.cpl"),
        ("rundll32.exe 'shell32.dll,Control_RunDLL' 'C:\\t\\x.cpl,@0'", "C:\\t\\x.cpl"),
    ],
)
def test_control_rundll_runs_the_whole_cpl_path(command: str, item: str) -> None:
    """S-RULE-113: `shell32.dll,Control_RunDLL "<x.cpl>"` runs x.cpl: a path with a blank is one path, and
    `,@0` (the applet's index) is not part of the file."""
    assert effect_rows(command) == [(K.EXECUTE, item, "rundll32 shell32.dll,Control_RunDLL")]


# ---------------------------------------------------------------------------------------
# Dry runs, environment


@requirement("S-RULE-68")
def test_a_loop_fed_by_a_dry_run_is_asked_about() -> None:
    """S-RULE-68: `Copy-Item … -PassThru -WhatIf` copies nothing and hands nothing down, so the loop after it
    removes nothing; the gateway cannot name `$_` and asks (stricter)."""
    command = "Copy-Item C:\\t\\a C:\\t\\b -PassThru -WhatIf | ForEach-Object { Remove-Item $_ }"
    assert ps(command) == ("dynamic-command", "ask")
    assert effect_rows(command) == [(K.DELETE, None, "Remove-Item")]


@requirement("S-RULE-84")
@pytest.mark.parametrize(
    "command",
    [
        "setx FOO 1",
        "[Environment]::SetEnvironmentVariable('FOO', '1', 'User')",
        "Remove-ItemProperty HKCU:\\Environment -Name ?ATH",
    ],
)
def test_an_ordinary_persistent_variable_is_an_environment_change(command: str) -> None:
    """S-RULE-84: a persistent variable that cannot be the gateway's (`FOO`, `?ATH`) is an `environment-change`."""
    assert ps(command) == ("environment-change", "ask")
