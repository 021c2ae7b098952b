"""Behaviour a ninth random mutation sample of policy/ found unpinned (issue 12).

Each test is a command an agent could send, keys it presses, a name it launches, or a parser's own result, and what
the gateway reads from it: the verdict, the reason a person reads, an effect, or the operations the analyser reads.
Expectations are what Windows, PowerShell and cmd.exe do; where the gateway reads more strictly than Windows would
run (a quoted class name, a stray word PowerShell refuses), the test says so.
"""

from __future__ import annotations

import pytest

from policy.rules.args import fuzzy_shell
from policy.rules.command import judge_call
from policy.rules.keyboard import entered_lines
from policy.rules.paths import canonical_path
from policy.rules.place_table import PlaceCategory, _parse_table
from policy.rules.shell.dispatch import analyse_program
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.test_mut_typed import _hit
from tests.policy.test_typed import capture_of
from tests.policy.verdicts import effect_rows, ps, reason_of, verdict

K = EffectKind


# ---------------------------------------------------------------------------------------
# App launch and self-protection


@requirement("S-RULE-64")
@pytest.mark.parametrize("name", ["GIT BASH", "COMMAND PROMPT", "UBUNTU", "WINDOWS TERMINAL"])
def test_a_shell_named_in_capitals_is_still_a_shell(name: str) -> None:
    """S-RULE-64: fuzzywuzzy's `extractOne` folds case and punctuation before it scores, so `GIT BASH` finds Git
    Bash in the Start menu; the gateway scores the name folded the same way."""
    assert fuzzy_shell(name)


@requirement("S-SELF-10")
def test_the_self_protection_refusal_tells_the_agent_what_to_do_instead() -> None:
    """S-SELF-10: the refusal of a kill that would end the gateway ends with the remedy, as the agent reads it."""
    hits = judge_call("PowerShell", {"command": "Stop-Process -Id 4242"}, own_processes=("4242",)).hits
    reasons = [h.reason for h in hits if h.rule_id == "self-protection"]
    assert reasons == [
        "ending 'pid:4242' would end the gateway itself (a kill by that name or pid reaches its process), and with "
        "it the guard on every call. Instead, ask the user to end the process you mean."
    ]


# ---------------------------------------------------------------------------------------
# Files, registry and programs read into effects


@requirement("S-RULE-18")
def test_a_dotnet_file_call_acts_on_the_path_it_is_given() -> None:
    """S-RULE-18: `[IO.File]::Delete(path)` deletes that path: the hosts file's deletion is refused, not asked
    about as a target nobody can name."""
    command = "[IO.File]::Delete('C:\\Windows\\System32\\drivers\\etc\\hosts')"
    assert effect_rows(command) == [(K.DELETE, "C:\\Windows\\System32\\drivers\\etc\\hosts", "[IO.File]::Delete")]
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-18")
def test_a_read_is_named_by_the_cmdlet_that_reads() -> None:
    """S-RULE-18: `Get-Content` and `Get-ChildItem` read their paths, each effect named by its cmdlet; the read of a
    private key is refused."""
    assert effect_rows("Get-Content C:\\t\\a.txt") == [(K.READ, "C:\\t\\a.txt", "Get-Content")]
    assert effect_rows("gci C:\\t") == [(K.READ, "C:\\t", "Get-ChildItem")]
    assert ps("Get-Content ~\\.ssh\\id_rsa") == ("credential-access", "deny")


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "row"),
    [
        ("Invoke-Item C:\\t\\a.exe", (K.EXECUTE, "C:\\t\\a.exe", "Invoke-Item")),
        ("Start-Job -FilePath C:\\t\\a.ps1", (K.EXECUTE, "C:\\t\\a.ps1", "Start-Job")),
    ],
)
def test_a_cmdlet_that_runs_a_file_is_named_in_its_effect(command: str, row: tuple[K, str, str]) -> None:
    """S-RULE-18: what runs a file is an EXECUTE of it, named by the cmdlet."""
    assert effect_rows(command) == [row]


@requirement("S-RULE-73")
@pytest.mark.parametrize("command", ["git -C", "git --work-tree", "git --git-dir"])
def test_a_git_option_without_its_value_names_no_tree(command: str) -> None:
    """S-RULE-73: git's own valued option as the last word has no value (git refuses the call): nothing is read
    into it, and the call is judged as the harmless command it is."""
    assert ps(command) is None


@requirement("S-RULE-18")
def test_a_registry_key_opened_earlier_is_not_the_object_of_a_file_method() -> None:
    """S-RULE-18: only a RegistryKey method acts on a key opened before; `$f.MoveTo(…)` after an `OpenSubKey` still
    moves a file into System32, and is refused."""
    command = (
        "$k = [Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software\\x', $true); "
        "$f.MoveTo('C:\\Windows\\System32\\a.dll')"
    )
    assert (K.WRITE, "C:\\Windows\\System32\\a.dll", ".MoveTo() destination") in effect_rows(command)
    assert ps(command) == ("protected-place-write", "deny")


@requirement("S-RULE-18")
def test_a_key_created_on_a_variable_is_a_key_a_later_set_value_may_act_on() -> None:
    """S-RULE-18: `$h.CreateSubKey('…\\Policies\\System')` opens that key under the one `$h` holds; `$k.SetValue`
    after it may act on either, and each is judged."""
    command = (
        "$h = [Microsoft.Win32.Registry]::LocalMachine.OpenSubKey('SOFTWARE', $true); "
        "$k = $h.CreateSubKey('Microsoft\\Windows\\CurrentVersion\\Policies\\System'); $k.SetValue('EnableLUA', 0)"
    )
    sets = [target for kind, target, detail in effect_rows(command) if detail == "RegistryKey.setvalue"]
    assert sets == ["HKLM\\SOFTWARE", "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System"]


@requirement("S-RULE-86")
def test_a_word_after_the_feature_name_is_not_a_second_feature() -> None:
    """S-RULE-86: words bind as in PowerShell: `-FeatureName` given by name takes its one value, and a stray word
    after it has no position to go to (PowerShell refuses the call), so it is not read as SMB 1.0 turned on."""
    assert ps("Enable-WindowsOptionalFeature -Online -FeatureName TelnetClient SMB1Protocol") is None
    assert ps("Enable-WindowsOptionalFeature -Online -FeatureName SMB1Protocol") == ("security-weakening", "deny")


@requirement("S-RULE-118")
def test_gh_auth_status_with_its_short_show_token_flag_prints_the_token() -> None:
    """S-RULE-118: `gh auth status -t` is `--show-token`: it prints the stored token."""
    assert ps("gh auth status -t") == ("credential-access", "deny")
    assert ps("gh auth status") is None


@requirement("S-RULE-104")
def test_a_listing_with_include_hands_down_the_matching_items() -> None:
    """S-RULE-104: `-Include` keeps one name pattern as `-Filter` does: the piped delete is of `Documents\\*.tmp`
    (asked), not of the Documents folder itself (refused)."""
    command = "Get-ChildItem ~\\Documents -Include *.tmp | Remove-Item"
    assert (K.DELETE, "~\\Documents\\*.tmp", "Remove-Item") in effect_rows(command)
    assert ps(command) == ("wildcard-delete", "ask")


@requirement("S-RULE-143")
@pytest.mark.parametrize("value", ['"exefile"', "'exefile'"])
def test_a_quoted_running_class_is_still_a_hijack(value: str) -> None:
    """S-RULE-143: the class written with quotes around it is read as the class (stricter than Windows, which would
    look up a class with the quotes in its name)."""
    assert verdict("Registry", mode="set", path="HKCU:\\Software\\Classes\\.txt", name="", value=value) == (
        "persistence-hijack",
        "deny",
    )


@requirement("S-RULE-32")
def test_a_network_change_reason_names_the_cmdlet() -> None:
    """S-RULE-32: the question a person reads names what changes the network."""
    command = "Disable-NetAdapter -Name Ethernet"
    assert ps(command) == ("network-change", "ask")
    assert "the network (disable-netadapter):" in reason_of(command).lower()


@requirement("S-RULE-31")
def test_a_program_started_in_a_mapped_share_keeps_the_folder_name() -> None:
    """S-RULE-31: `Z:\\Xfer` on a drive mapped to `\\\\files.example\\drop` is `\\\\files.example\\drop\\Xfer`; only
    the separators between the share and the folder are dropped, never letters of the folder's name."""
    command = "net use Z: \\\\files.example\\drop; cd Z:\\Xfer; tool.exe"
    started = [row for row in effect_rows(command) if row[2] == "started in another machine's folder"]
    assert started == [(K.EXECUTE, "\\\\files.example\\drop\\Xfer\\tool", "started in another machine's folder")]


@requirement("S-RULE-136")
@pytest.mark.parametrize(
    "command",
    ["Remove-Item (Get-PSReadLineOption).ContinuationPrompt", "$p = 'C:\\t\\a.txt'; Remove-Item $p.HistorySavePath"],
)
def test_only_the_history_save_path_of_the_psreadline_options_is_the_history_file(command: str) -> None:
    """S-RULE-136: another property of the options, or a `HistorySavePath` of something else, is not the console
    history: the delete of a target nobody can name asks; `(Get-PSReadLineOption).HistorySavePath` is refused."""
    assert ps(command) == ("dynamic-command", "ask")
    assert ps("Remove-Item (Get-PSReadLineOption).HistorySavePath") == ("credential-access", "deny")


# ---------------------------------------------------------------------------------------
# Paths and the place table


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("\\\\?\\GLOBALROOT\\SystemRoot\\..\\PROGRA~1\\x.dll", "c:\\program files\\x.dll"),
        ("\\\\?\\GLOBALROOT\\SystemRoot\\..\\DOCUME~1", "c:\\users"),
        ("\\\\?\\GLOBALROOT\\SystemRoot\\System32", "c:\\windows\\system32"),
    ],
)
def test_globalroot_systemroot_is_on_the_system_drive(path: str, expected: str) -> None:
    """S-RULE-17: `\\\\?\\GLOBALROOT\\SystemRoot` is `C:\\Windows`, on the system drive, where the standard 8.3
    names (`PROGRA~1`, `DOCUME~1`) are expanded as on `C:` itself."""
    assert canonical_path(path) == expected


@requirement("S-RULE-19")
def test_the_place_table_expands_its_registry_stems() -> None:
    """S-RULE-19: `$CV` and `$NT` in a place table stand for the long CurrentVersion keys (both hives: `hk*`)."""
    entries = _parse_table("run-key autostart-key tree | a Run key\n    $CV\\run [x, y]; $NT\\winlogon")
    assert [(e.place.id, e.place.category, e.patterns, e.scope, e.values) for e in entries] == [
        (
            "run-key",
            PlaceCategory.AUTOSTART_KEY,
            ("hk*\\software\\microsoft\\windows\\currentversion\\run",),
            "tree",
            frozenset({"x", "y"}),
        ),
        (
            "run-key",
            PlaceCategory.AUTOSTART_KEY,
            ("hk*\\software\\microsoft\\windows nt\\currentversion\\winlogon",),
            "tree",
            None,
        ),
    ]


# ---------------------------------------------------------------------------------------
# cmd.exe and the programs that start others


@requirement("S-RULE-127")
@pytest.mark.parametrize("command", ['cmd /c "cmd < nul:"', 'cmd /c "powershell < NUL:"'])
def test_a_shell_reading_nul_with_a_colon_runs_nothing(command: str) -> None:
    """S-RULE-127: `NUL:` is the null device as `NUL` is: a shell given it as standard input reads no command."""
    assert ps(command) is None
    assert ps('cmd /c "cmd < C:\\t\\x.txt"') == ("dynamic-command", "ask")


@requirement("S-RULE-15")
def test_a_handle_before_an_input_redirection_is_no_argument() -> None:
    """S-RULE-15: in `del C:\\t\\a.txt 0<C:\\t\\answers.txt` the `0` is the handle the `<` redirects, not a second
    file to delete."""
    assert effect_rows('cmd /c "del C:\\t\\a.txt 0<C:\\t\\answers.txt"') == [(K.DELETE, "C:\\t\\a.txt", "del")]


@requirement("S-RULE-25")
def test_forfiles_runs_the_program_its_command_names_whatever_the_name() -> None:
    """S-RULE-25: `forfiles /c XXXX` runs the program `XXXX` for each file; an empty `/c` runs nothing."""
    ran = analyse_program("forfiles", ("/p", "C:\\t", "/c", "XXXX")).operations
    assert [(op.shell, op.name, op.args) for op in ran] == [("program", "xxxx", ())]
    assert analyse_program("forfiles", ("/p", "C:\\t", "/c", "")).operations == ()


@requirement("S-RULE-25")
def test_pcalua_splits_its_arguments_by_the_argument_rules() -> None:
    """S-RULE-25: `-c` holds the program's arguments only, so its first word follows the MSVC argument rules: `\\"`
    is a literal quote there, not the start of a quoted part."""
    ran = analyse_program("pcalua", ("-a", "notepad.exe", "-c", 'x\\"y z')).operations
    assert [(op.name, op.args) for op in ran] == [("notepad", ('x"y', "z"))]


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    "command",
    ["rundll32 shell32.dll,ShellExec_RunDLL", "rundll32 printui.dll,PrintUIEntry cmd /c rd /s /q C:\\Windows"],
)
def test_rundll32_starts_a_program_only_through_a_starting_entry_point_that_is_given_one(command: str) -> None:
    """S-RULE-25: a starting entry point without a program starts nothing, and the words after another entry point
    are its own arguments, not a program it starts."""
    assert ps(command) is None


# ---------------------------------------------------------------------------------------
# The keyboard


@requirement("S-RULE-29")
@pytest.mark.parametrize(
    ("pasted", "lines"),
    [("C:\\x\nwhoami\nhostname", ["dir C:\\x", "whoami", "hostname"]), ("whoami", ["dir whoami"])],
)
def test_a_paste_then_enter_runs_each_pasted_line_and_then_the_last(pasted: str, lines: list[str]) -> None:
    """S-RULE-29: Ctrl+V then Enter in one chord: each line break of the clipboard runs a line, and the Enter runs
    what follows the last break."""
    assert entered_lines("dir ", "Shortcut", {"shortcut": "ctrl+v+enter"}, pasted=pasted) == lines


@requirement("S-RULE-12")
@pytest.mark.parametrize("clipboard", ["XXXX", "hunter2"])
def test_a_known_clipboard_pasted_into_a_security_prompt_asks_whatever_it_holds(clipboard: str) -> None:
    """S-RULE-12: any text pasted into a UAC prompt (a password is any text) asks `credential-prompt`."""
    hit = _hit(capture_of("uac-prompt"), "Shortcut", clipboard, shortcut="ctrl+v")
    assert hit is not None
    assert (hit.rule_id, hit.action) == ("credential-prompt", "ask")
