"""Behaviour a second random mutation sample of policy/ found unpinned (issue 12, seed 20261206).

Each test is a command an agent could send, a tool call, or keys it types, and what the gateway reads
from it: the verdict, an effect, the arguments the analyser folds, or the text of a reason. Expectations
are what Windows, PowerShell and cmd.exe do; where the gateway is stricter than Windows (it asks about
a value it cannot know rather than guess), the test says so.
"""

from __future__ import annotations

import pytest

from policy.catalog import catalog_reads
from policy.rules.keyboard import TypingTarget, line_known_after, unentered_after
from policy.rules.normalize import expand
from policy.rules.shell.cmd import analyse_cmd
from policy.rules.shell.ops import EffectKind
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from policy.typed import _judge
from tests._requirements import requirement
from tests.policy._world import context
from tests.policy.verdicts import RULES, args_of, effect_rows, ps, ps_effects, reason_of, verdict

K = EffectKind


# ---------------------------------------------------------------------------------------
# The catalog


@requirement("S-CAT-02")
def test_the_catalog_reads_the_command_content_of_the_system_tools() -> None:
    """S-CAT-02: the argument names the gateway reads include each tool's command content (`command`, …)."""
    reads = catalog_reads()
    assert reads["PowerShell"] == frozenset({"command"})
    assert {"mode", "name", "pid", "force"} <= reads["Process"]
    assert {"text", "loc", "label"} <= reads["Type"]


# ---------------------------------------------------------------------------------------
# File, registry, process and security effects


@requirement("S-RULE-85")
def test_every_default_a_script_sets_is_applied_not_only_the_last() -> None:
    """S-RULE-85: two `$PSDefaultParameterValues[…]` writes: the first (`Remove-Item:Recurse`) still holds."""
    command = (
        "$PSDefaultParameterValues['Remove-Item:Recurse'] = $true; "
        "$PSDefaultParameterValues['Get-ChildItem:Force'] = $true; Remove-Item C:\\t\\x"
    )
    assert effect_rows(command) == [(K.DELETE_RECURSIVE, "C:\\t\\x", "Remove-Item -Recurse")]
    assert ps(command) == ("recursive-delete", "deny")


@requirement("S-RULE-102")
def test_a_file_objects_copy_to_writes_its_destination() -> None:
    """S-RULE-102: `(Get-Item X).CopyTo(d)` writes d (named as the copy's destination): into System32, denied."""
    command = r"(Get-Item C:\t\a.dll).CopyTo('C:\Windows\System32\x.dll')"
    assert (K.WRITE, r"C:\Windows\System32\x.dll", ".CopyTo() destination") in effect_rows(command)
    assert ps(command) == ("protected-place-write", "deny")


@requirement("S-RULE-18")
def test_a_dotnet_file_copy_reads_its_source_and_writes_its_destination() -> None:
    """S-RULE-18: `[IO.File]::Copy(a, b)` reads a and writes b."""
    command = r"[IO.File]::Copy('C:\t\a.dll', 'C:\Windows\System32\x.dll')"
    assert effect_rows(command) == [
        (K.READ, r"C:\t\a.dll", "[IO.File]::Copy"),
        (K.WRITE, r"C:\Windows\System32\x.dll", "[IO.File]::Copy destination"),
    ]
    assert ps(command) == ("protected-place-write", "deny")


@requirement("S-RULE-18")
def test_get_itemproperty_of_a_file_reads_it() -> None:
    """S-RULE-18: `Get-ItemProperty <file>` reads the file's attributes; it writes nothing (not even the hosts file)."""
    command = r"Get-ItemProperty C:\Windows\System32\drivers\etc\hosts"
    assert effect_rows(command) == [(K.READ, r"C:\Windows\System32\drivers\etc\hosts", "Get-ItemProperty")]
    assert ps(command) is None


@requirement("S-RULE-59")
def test_tar_long_directory_option_names_the_extraction_folder() -> None:
    """S-RULE-59: `tar -x --directory <dir> -f a.tar` unpacks into <dir> (the value of `--directory`)."""
    command = r"tar -x --directory C:\Windows\System32 -f C:\t\a.tar"
    found = [e for e in effect_rows(command) if e[2] == "tar -x"]
    assert found == [(K.READ, r"C:\t\a.tar", "tar -x"), (K.WRITE, r"C:\Windows\System32", "tar -x")]
    assert ps(command) == ("protected-place-write", "deny")


@requirement("S-RULE-72")
def test_a_kill_that_names_its_own_process_is_not_the_piped_one() -> None:
    """S-RULE-72: `Get-Process notepad | Stop-Process 1234`: 1234 binds to -Id, so the piped processes cannot
    bind as well; what it names is process 1234, not notepad."""
    assert effect_rows("Get-Process notepad | Stop-Process 1234") == [(K.KILL, "pid:1234", "Stop-Process")]


@requirement("S-RULE-11")
def test_a_shell_verb_on_parsename_without_an_argument_is_judged() -> None:
    """S-RULE-11: `.ParseName()` with no argument (PowerShell refuses the call) gets a verdict, no exception:
    the item deleted is unknown, so it asks (stricter than PowerShell, which deletes nothing)."""
    command = (
        "$sh = New-Object -ComObject Shell.Application; "
        r"$sh.Namespace('C:\Windows\System32').ParseName().InvokeVerb('delete')"
    )
    assert ps(command) == ("dynamic-command", "ask")


@requirement("S-RULE-31")
def test_invoke_item_from_a_share_names_the_cmdlet() -> None:
    """S-RULE-31: `Invoke-Item \\\\host\\share\\x.exe` runs x.exe from the share; the effect names Invoke-Item."""
    assert effect_rows(r"Invoke-Item \\host\share\x.exe") == [(K.EXECUTE, r"\\host\share\x.exe", "Invoke-Item")]


@requirement("S-RULE-16")
@pytest.mark.parametrize("switch", ["-f", "-File", "-fi"])
def test_powershell_file_in_any_abbreviation_runs_the_script(switch: str) -> None:
    """S-RULE-16: `powershell -f x.ps1` (an abbreviation of -File) runs x.ps1: from a share, `remote-code`."""
    command = rf"powershell {switch} \\host\share\x.ps1"
    assert (K.EXECUTE, r"\\host\share\x.ps1", "powershell -File") in effect_rows(command)
    assert ps(command) == ("remote-code", "ask")


@requirement("S-RULE-65")
def test_a_firewall_rule_disabled_by_position_is_named() -> None:
    """S-RULE-65: `Disable-NetFirewallRule BlockIn`: the first positional argument is -Name, the rule switched off."""
    assert [(e.kind, e.target, e.detail) for e in ps_effects("Disable-NetFirewallRule BlockIn")] == [
        (K.SECURITY_WEAKENING, "BlockIn", "firewall-rule")
    ]


@requirement("S-RULE-18")
def test_a_new_service_names_the_cmdlet_that_made_it() -> None:
    """S-RULE-18: `New-Service evil C:\\t\\evil.exe` is persistence by New-Service, the program its command."""
    found = [(e.kind, e.target, e.detail, e.extra) for e in ps_effects(r"New-Service evil C:\t\evil.exe")]
    later = ("runs_later", r"C:\t\evil.exe")  # what it runs is judged now (S-RULE-116)
    assert found == [(K.PERSISTENCE, "evil", "New-Service", (("command", r"C:\t\evil.exe"), later))]


@requirement("S-RULE-51")
def test_set_location_literalpath_moves_the_current_folder() -> None:
    """S-RULE-51: after `Set-Location -LiteralPath C:\\Windows\\System32`, `drivers` is System32's drivers."""
    command = r"Set-Location -LiteralPath C:\Windows\System32; Remove-Item drivers -Recurse"
    assert (K.DELETE_RECURSIVE, r"C:\Windows\System32\drivers", "Remove-Item -Recurse") in effect_rows(command)
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-35")
def test_a_filtered_literalpath_listing_hands_down_the_matching_items() -> None:
    """S-RULE-35: `gci -LiteralPath ~\\Downloads -Filter *.tmp | Remove-Item` deletes Downloads\\*.tmp, not all."""
    command = r"Get-ChildItem -LiteralPath C:\Users\bob\Downloads -Filter *.tmp | Remove-Item"
    assert (K.DELETE, r"C:\Users\bob\Downloads\*.tmp", "Remove-Item") in effect_rows(command)


@requirement("S-RULE-84")
def test_a_wildcard_with_two_bracket_sets_can_name_a_gateway_setting() -> None:
    """S-RULE-84: `-Name '[vw]INMCP_GATEWAY_[x]'` matches WINMCP_GATEWAY_X (each `[…]` ends at its own `]`)."""
    command = r"Remove-ItemProperty HKCU:\Environment -Name '[vw]INMCP_GATEWAY_[x]'"
    assert ps(command) == ("self-protection", "deny")


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"Remove-Item C:\Windows\Temp\x.log", None),
        (r"Remove-Item C:\Windows\x.log", ("protected-place-delete", "deny")),
    ],
)
def test_the_windows_temp_folder_is_carved_out_of_windows(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-19: a file in C:\\Windows\\Temp is anyone's temporary file; one directly in C:\\Windows is not."""
    assert ps(command) == expected


# ---------------------------------------------------------------------------------------
# Shells, wrappers and programs


@requirement("S-RULE-03")
def test_start_process_argument_list_items_are_one_command_line() -> None:
    """S-RULE-03: `Start-Process cmd -ArgumentList '/c','rd','C:\\Users'` runs `cmd /c rd C:\\Users` (items joined)."""
    assert "cmd /c rd c:/users" in expand(r"Start-Process cmd -ArgumentList '/c','rd','C:\Users'")


@requirement("S-RULE-100")
@pytest.mark.parametrize("switches", ["-?", r"-File /t/x.ps1"])
def test_powershell_with_a_switch_that_is_no_bare_switch_does_not_run_piped_text(switches: str) -> None:
    """S-RULE-100: `… | powershell -?` prints help and `-File x` runs the file: the piped text is no command."""
    assert ps(rf"'Remove-Item C:\Windows\System32 -Recurse' | powershell {switches}") is None
    assert ps(r"'Remove-Item C:\Windows\System32 -Recurse' | powershell -NoProfile") == (
        "protected-place-delete",
        "deny",
    )


@requirement("S-RULE-04")
def test_a_long_cmd_command_is_shortened_with_an_ellipsis() -> None:
    """S-RULE-04: a cmd command's text in reasons and the audit is at most 200 characters, ending in `…`."""
    (op,) = analyse_cmd("echo " + "a" * 300).operations
    assert op.text == "echo " + "a" * 194 + "…"


@requirement("S-RULE-114")
def test_a_batch_file_written_from_a_file_the_gateway_did_not_read_asks() -> None:
    """S-RULE-114: `type a.txt > x.bat & x.bat`: x.bat holds a.txt's content, which the gateway never saw."""
    assert ps(r'cmd /c "type C:\t\a.txt > C:\t\x.bat & C:\t\x.bat"') == ("unread-script", "ask")


@requirement("S-RULE-18")
def test_an_app_argument_string_with_a_tab_is_split_as_a_command_line() -> None:
    """S-RULE-18: App `args` given as one string is a command line: blanks and tabs both separate arguments."""
    args = "delete\tHKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run /f"
    assert verdict("App", mode="launch", executable="reg.exe", args=args) == ("registry-delete-machine-hive", "deny")


@requirement("S-RULE-31")
def test_explorer_starts_its_first_program_even_with_a_switch_after_it() -> None:
    """S-RULE-31: `explorer \\\\host\\share\\x.exe "/e,"` opens (runs) x.exe from the share: `remote-code`."""
    assert ps(r'explorer.exe \\host\share\x.exe "/e,"') == ("remote-code", "ask")


@requirement("S-RULE-14")
def test_powershell_given_an_unknown_argument_says_so() -> None:
    """S-RULE-14: `powershell $x` asks, and the reason says powershell is given an argument that is not constant."""
    assert "powershell is given an argument that is not constant" in reason_of("powershell $x")


@requirement("S-RULE-11")
def test_the_analyser_reads_a_command_with_an_unhashable_nested_reader() -> None:
    """S-RULE-11: `analyse_powershell` never raises, also when its reader of programs cannot be cached."""

    class Reader:
        __hash__ = None  # type: ignore[assignment]

        def __call__(self, name: str, argv: object, depth: int, env: object = None, expanded: bool = False) -> object:
            from policy.rules.shell.ops import Analysis

            return Analysis()

    clear_analysis_cache()
    analysis = analyse_powershell(r"Get-ChildItem C:\t", nested=Reader())  # type: ignore[arg-type]
    assert [(o.name, o.args) for o in analysis.operations] == [("get-childitem", ("C:\\t",))]


# ---------------------------------------------------------------------------------------
# The PowerShell analyser


@requirement("S-RULE-50")
@pytest.mark.parametrize(
    "command",
    [
        "[System.Security.Cryptography.SHA256]::Create().ComputeHash([byte[]](1,2))",
        r"$w = [System.Xml.XmlWriter]::Create('C:\t\a.xml'); $w.WriteStartDocument(); $w.Close()",
    ],
)
def test_only_powershell_create_makes_a_pipeline_object(command: str) -> None:
    """S-RULE-50: `[SHA256]::Create()` or `[XmlWriter]::Create()` is no PowerShell engine: its methods run no code."""
    assert ps(command) is None


@requirement("S-RULE-14")
def test_invoke_expression_command_parameter_is_judged_as_its_text() -> None:
    """S-RULE-14: `Invoke-Expression -Command '<constant>'` runs that text, judged as a command."""
    assert ps(r"Invoke-Expression -Command 'Remove-Item C:\Windows\System32 -Recurse'") == (
        "protected-place-delete",
        "deny",
    )


@requirement("S-RULE-44")
def test_a_recovered_command_reads_each_argument_after_a_parenthesised_one() -> None:
    """S-RULE-44: in a recovered command, `(Get-Date)` is one argument (its `)` closes it) and `"b"` the next."""
    assert args_of('Remove-Item $env:TEMP\\x (Get-Date) "b" ; }', "remove-item") == [("$env:TEMP\\x", None, "b")]


@requirement("S-RULE-13")
def test_a_dot_sourced_block_sets_variables_in_the_script() -> None:
    """S-RULE-13: `. { $p = … }` runs in the caller's scope, so $p is known after it (unlike `& { … }`)."""
    command = r". { $p = 'C:\Windows\System32' }; Remove-Item $p -Recurse"
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # A range is folded by its length (here 3 items), not by where it lies.
        (r"$a = (5000 .. 5002) -join ''; Get-ChildItem C:\t\$a", [("C:\\t\\500050015002",)]),
        (r"Get-ChildItem ('C:\t\abc'.Substring(0, 4))", [("C:\\t",)]),
        (r"Get-ChildItem ([string]::Format('C:\t\{0}', 'a'))", [("C:\\t\\a",)]),
        # A group that matched nothing is replaced by nothing.
        (r"Get-ChildItem ('C:\t\ab' -replace '(x?)b', 'c$1')", [("C:\\t\\ac",)]),
        (r"$n = 'x'; Get-ChildItem " + '"C:\\t\\${n}"', [("C:\\t\\x",)]),
        # A boolean in a string is `False`, as .NET's Boolean.ToString() writes it.
        ('Get-ChildItem "C:\\t\\$false"', [("C:\\t\\False",)]),
    ],
    ids=["range-far-from-zero", "substring", "string-format", "replace-empty-group", "braced-variable", "false"],
)
def test_more_constant_folding_matches_dotnet(command: str, expected: list[tuple[str | None, ...]]) -> None:
    """S-RULE-13: what `..`, `.Substring`, `[string]::Format`, `-replace`, `${n}` and `$false` fold to."""
    assert args_of(command, "get-childitem") == expected


# ---------------------------------------------------------------------------------------
# Typed text and keys


@requirement("S-RULE-29")
def test_a_shortcut_of_one_letter_adds_it_to_the_line() -> None:
    """S-RULE-29: a Shortcut `r` after `di` types r: the line is `dir`, still known."""
    assert unentered_after("di", "Shortcut", {"shortcut": "r"}) == "dir"
    assert line_known_after(True, "di", "Shortcut", {"shortcut": "r"}) is True


@requirement("S-RULE-63")
def test_a_repeated_key_is_followed_up_to_the_bound() -> None:
    """S-RULE-63: Shortcut `x 64` is SendKeys `{x 64}`: 64 x's, followed; `{x 65}` is past the bound (unknown)."""
    assert unentered_after("", "Shortcut", {"shortcut": "x 64"}) == "x" * 64
    assert line_known_after(True, "", "Shortcut", {"shortcut": "x 64"}) is True
    assert line_known_after(True, "", "Shortcut", {"shortcut": "x 65"}) is False


@requirement("S-RULE-103")
@pytest.mark.parametrize(("enter", "runs"), [(True, "and run (Enter follows)"), (False, "(a later Enter runs it)")])
def test_text_typed_into_an_interpreter_says_when_it_runs(enter: bool, runs: str) -> None:
    """S-RULE-103: the reason for text typed into a Python prompt says whether an Enter follows."""
    hit = _judge("print(1)", (TypingTarget.INTERPRETER, "a Python prompt"), context(rules=RULES), enter=enter)
    assert hit is not None
    assert f"text typed into a Python prompt {runs} is code" in hit.reason
