"""Behaviour a twelfth random mutation sample of policy/ found unpinned.

Each test is a command an agent could send, keys it types, or a function's own result, and what the gateway reads
from it: the verdict, the reason a person reads, an effect, or the operations the analyser reads. Expectations are
what Windows, PowerShell, cmd.exe, git and the Linux tools do; where the gateway reads more than the program would
(a `file:` URL written without slashes, a trailing `-o` with no file), the test says so.
"""

from __future__ import annotations

from dataclasses import replace

from policy.observation import Capture, Element
from policy.rules.command import judge_call
from policy.rules.keyboard import TypingTarget, typing_target
from policy.rules.normalize import expand
from policy.rules.shell.cmd import analyse_cmd
from policy.rules.shell.dispatch import script_content
from policy.rules.shell.ops import EffectKind
from policy.typed import _session_changes
from tests._requirements import requirement
from tests.policy.test_typed import capture_of
from tests.policy.verdicts import args_of, effect_rows, ps, ps_effects

K = EffectKind


# ---------------------------------------------------------------------------------------
# What a program writes, reads or runs


@requirement("S-RULE-148")
def test_curl_with_a_last_dash_o_and_no_file_writes_a_file_nobody_can_name() -> None:
    """S-RULE-148: `curl -o` as the last word names no file: the write's target is not known, and asks."""
    assert effect_rows("curl.exe https://x.test/a -o") == [(K.WRITE, None, "curl -o")]
    assert ps("curl.exe https://x.test/a -o") == ("dynamic-command", "ask")


@requirement("S-RULE-148")
def test_curl_dash_capital_o_keeps_the_name_before_the_first_question_mark() -> None:
    """S-RULE-148: the query starts at the first `?`; a `/` inside the query is not part of the saved name."""
    assert effect_rows("curl.exe -O https://x.test/a/b?c/d?e") == [(K.WRITE, "b", "curl -O")]


@requirement("S-RULE-18")
def test_esentutl_with_dash_flags_copies_the_sam_database() -> None:
    """S-RULE-18: `esentutl -y -vss <SAM> -d <copy>` (flags with `-` as well as `/`): the source is the first word
    that is not a flag, the SAM hive, which is credential access."""
    rows = effect_rows("esentutl.exe -y -vss C:\\Windows\\System32\\config\\SAM -d C:\\t\\s")
    assert rows == [
        (K.CREDENTIAL_ACCESS, "C:\\Windows\\System32\\config\\SAM", "esentutl /y /vss"),
        (K.WRITE, "C:\\t\\s", "esentutl /y destination"),
    ]


@requirement("S-RULE-18")
def test_esentutl_of_the_sam_database_with_a_trailing_backslash_is_credential_access() -> None:
    """S-RULE-18: `…\\config\\SAM\\` names the same file: a trailing separator does not hide the database."""
    rows = effect_rows("esentutl.exe /y C:\\Windows\\System32\\config\\SAM\\ /d C:\\t\\s")
    assert rows[0] == (K.CREDENTIAL_ACCESS, "C:\\Windows\\System32\\config\\SAM\\", "esentutl /y")
    assert ps("esentutl.exe /y C:\\Windows\\System32\\config\\SAM\\ /d C:\\t\\s") == ("credential-access", "deny")


@requirement("S-RULE-148")
def test_extrac32_without_a_folder_unpacks_into_the_current_folder() -> None:
    """S-RULE-148: `extrac32 /e x.cab` with no `/l` unpacks everything into the current folder, `.`."""
    found = [(e.kind, e.target, e.detail, e.extra) for e in ps_effects("extrac32.exe /e C:\\t\\a.cab")]
    assert found == [(K.WRITE, ".", "extrac32", (("recursive", "true"),))]


@requirement("S-RULE-121")
def test_tar_append_writes_the_archive() -> None:
    """S-RULE-121: `tar --append --file=x.tar …` adds to the archive, so it writes it, as `--create` does."""
    assert (K.WRITE, "C:\\t\\x.tar", "tar -c") in effect_rows("tar.exe --append --file=C:\\t\\x.tar foo")


@requirement("S-RULE-18")
def test_set_content_writes_its_file_under_the_cmdlets_name() -> None:
    """S-RULE-18: `Set-Content` and `Add-Content` write the path they are given, shown under their own name."""
    assert effect_rows("Set-Content -Path C:\\t\\a.txt -Value x") == [(K.WRITE, "C:\\t\\a.txt", "Set-Content")]
    assert effect_rows("Add-Content C:\\t\\a.txt x") == [(K.WRITE, "C:\\t\\a.txt", "Add-Content")]


@requirement("S-RULE-18")
def test_invoke_item_runs_the_path_given_by_position() -> None:
    """S-RULE-18: `Invoke-Item C:\\t\\a.exe` (the path as its first positional argument) runs that file."""
    assert effect_rows("Invoke-Item C:\\t\\a.exe") == [(K.EXECUTE, "C:\\t\\a.exe", "Invoke-Item")]


@requirement("S-RULE-125")
def test_disable_pnpdevice_by_position_names_the_device() -> None:
    """S-RULE-125: `Disable-PnpDevice '<id>'` binds the id to `-InstanceId`, its first position."""
    assert effect_rows("Disable-PnpDevice 'USB\\VID_1234'") == [(K.DEVICE_CHANGE, "USB\\VID_1234", "Disable-PnpDevice")]


@requirement("S-RULE-147")
def test_wsl_cp_dash_a_copies_a_folder_whole() -> None:
    """S-RULE-147: `cp -a` (archive) copies a folder and everything under it, as `-r` does; plain `cp` does not."""
    into = [e.extra for e in ps_effects("wsl cp -a /mnt/c/t/x /mnt/c/t/y") if e.detail == "wsl cp into a folder"]
    assert into == [(("recursive", "true"), ("landed", "true"))]
    plain = [e.extra for e in ps_effects("wsl cp /mnt/c/t/x /mnt/c/t/y") if e.detail == "wsl cp into a folder"]
    assert plain == [(("landed", "true"),)]


@requirement("S-RULE-144")
def test_a_file_url_without_slashes_is_a_read_of_that_file() -> None:
    """S-RULE-144: `file:C:\\…` (no `//`) handed to `Invoke-WebRequest` is still a `file:` URL: a read of the SSH
    key it names, and the key is a credential."""
    command = "Invoke-WebRequest -Uri file:C:\\Users\\bob\\.ssh\\id_rsa -OutFile C:\\t\\k"
    assert (K.READ, "file:C:\\Users\\bob\\.ssh\\id_rsa", "Invoke-WebRequest of a file: URL") in effect_rows(command)
    assert ps(command) == ("credential-access", "deny")


@requirement("S-RULE-85")
def test_a_quoted_false_default_for_recurse_turns_it_on() -> None:
    """S-RULE-85: PowerShell converts the string `'false'` to a switch that is on (a non-empty string), so the
    default makes `Remove-Item` recursive; `$false` leaves it off."""
    quoted = "$PSDefaultParameterValues['Remove-Item:Recurse'] = 'false'; Remove-Item C:\\x"
    assert (K.DELETE_RECURSIVE, "C:\\x", "Remove-Item -Recurse") in effect_rows(quoted)
    off = "$PSDefaultParameterValues['Remove-Item:Recurse'] = $false; Remove-Item C:\\x"
    assert effect_rows(off) == [(K.DELETE, "C:\\x", "Remove-Item")]


# ---------------------------------------------------------------------------------------
# git settings


@requirement("S-RULE-73")
def test_a_pager_turned_off_with_zero_starts_nothing() -> None:
    """S-RULE-73: `git -c pager.log=0` turns the pager off (git reads 0 as false); `=1` turns one on, which asks."""
    assert ps("git -c pager.log=0 log") is None
    assert effect_rows("git -c pager.log=0 log") == []
    assert ps("git -c pager.log=1 log") == ("persistence-autostart", "ask")


# ---------------------------------------------------------------------------------------
# What starts another command


@requirement("S-RULE-25")
def test_rundll32_shellexec_without_dll_suffix_runs_its_command() -> None:
    """S-RULE-25: rundll32 loads `shell32` as `shell32.dll`, so `shell32,ShellExec_RunDLL <command>` starts the
    command, which is judged."""
    command = 'rundll32.exe shell32,ShellExec_RunDLL powershell.exe -c "Remove-Item C:\\Users -Recurse -Force"'
    assert (K.DELETE_RECURSIVE, "C:\\Users", "Remove-Item -Recurse") in effect_rows(command)


@requirement("S-RULE-36")
def test_forfiles_with_a_last_dash_p_and_no_folder_asks() -> None:
    """S-RULE-36: `forfiles /c "… @path" /p` with nothing after `/p` names no folder: which files the command runs
    on is not known, so it is judged as a command not known and asks; with the folder given, it is judged."""
    assert ps('forfiles /c "cmd /c del @path" /p') == ("dynamic-command", "ask")
    assert effect_rows('forfiles /c "cmd /c del @path" /p C:\\t') == [
        (K.EXECUTE, "cmd /c del @path", "forfiles /c"),
        (K.DELETE, "C:\\t\\*", "del"),
    ]


@requirement("S-RULE-16")
def test_powershell_command_with_args_runs_its_command_text() -> None:
    """S-RULE-16: `pwsh -CommandWithArgs '<text>'` (PowerShell 7.4) runs the text as a command, which is judged."""
    command = "pwsh.exe -CommandWithArgs 'Remove-Item C:\\Users -Recurse -Force'"
    assert effect_rows(command) == [(K.DELETE_RECURSIVE, "C:\\Users", "Remove-Item -Recurse")]


@requirement("S-RULE-16")
def test_a_script_files_content_is_read_at_the_depth_it_is_given() -> None:
    """S-RULE-16: a script's content is read one level deeper than the command that wrote it: its operations carry
    that depth, and past the bound nothing is read."""
    (op,) = script_content("powershell", "Remove-Item C:\\x", 3).operations
    assert (op.name, op.args, op.depth) == ("remove-item", ("C:\\x",), 3)


@requirement("S-RULE-03")
def test_wsl_with_a_flag_without_value_expands_to_its_command() -> None:
    """S-RULE-03: `wsl --exec rm -rf /`: `--exec` takes no value, so the nested layer is the `rm` command."""
    assert "remove-item -rf /" in expand("wsl --exec rm -rf /")


@requirement("S-RULE-50")
def test_addscript_of_an_environment_variable_asks() -> None:
    """S-RULE-50: `.AddScript($env:ComSpec)` runs text read from the environment, which may have been changed:
    the call says so (dynamic), even though the variable has a standard value."""
    command = "[PowerShell]::Create().AddScript($env:ComSpec).Invoke()"
    analysis = judge_call("PowerShell", {"command": command}).analysis
    assert analysis is not None
    assert any("read from an environment variable" in d for d in analysis.dynamic)


# ---------------------------------------------------------------------------------------
# What the analyser reads


@requirement("S-RULE-13")
def test_ftype_keeps_the_command_after_the_equals_sign_whole() -> None:
    """S-RULE-13: `ftype type=command` is split at the first `=` only: the command, blanks and `%1` included, is
    one argument, as for `assoc`."""
    ops = analyse_cmd("ftype txtfile=C:\\t\\a b.exe %1").operations
    assert [(o.name, o.args) for o in ops] == [("ftype", ("txtfile", "C:\\t\\a b.exe %1"))]


@requirement("S-RULE-13")
def test_a_hashtable_splatted_to_a_program_becomes_named_arguments() -> None:
    """S-RULE-13: `git @a` with `$a = @{Recurse=1}` hands git `-Recurse:1`, as PowerShell passes a splatted
    hashtable to a native program."""
    assert args_of("$a = @{Recurse=1}; git @a", "git") == [("-Recurse:1",)]


# ---------------------------------------------------------------------------------------
# Typing


def _dialog(title: str, save_control: str) -> Capture:
    """The `settings` world's Save As dialog retitled `title`, its Save button made a `save_control`."""

    def el(e: Element) -> Element:
        if e.window != "Save As":
            return e
        control = save_control if e.name == "Save" else e.control
        name = title if e.kind == "window" else e.name
        return replace(e, window=title, name=name, control=control)

    cap = capture_of("settings")
    return replace(cap, elements=tuple(el(e) for e in cap.elements))


@requirement("S-RULE-149")
def test_a_dialog_with_a_save_split_button_saves_whatever_its_title() -> None:
    """S-RULE-149: a dialog whose title says nothing but which has a Save button (a split button too) saves."""
    assert typing_target(_dialog("Choose a file", "split button"), (950, 665))[0] is TypingTarget.FILE_SAVE
    assert typing_target(_dialog("Choose a file", "button"), (950, 665))[0] is TypingTarget.FILE_SAVE
    assert typing_target(_dialog("Choose a file", "text"), (950, 665))[0] is TypingTarget.FILE_OPEN


@requirement("S-RULE-119")
def test_the_redefinition_reason_names_the_powershell_tool() -> None:
    """S-RULE-119: the reason tells the agent what to do instead, in the words a person reads."""
    (hit,) = _session_changes("Set-Alias ls Remove-Item", "a PowerShell console")
    assert hit.reason.endswith("or use the PowerShell tool (each call is a fresh PowerShell).")
