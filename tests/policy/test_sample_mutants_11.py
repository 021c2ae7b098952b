"""Behaviour an eleventh random mutation sample of policy/ found unpinned (issue 12).

Each test is a command an agent could send, keys it presses, or a parser's or table builder's own result, and what
the gateway reads from it: the verdict, the reason a person reads, an effect, or the operations the analyser reads.
Expectations are what Windows, PowerShell and cmd.exe do; where the gateway reads a command PowerShell would refuse
(a string given as a task action, a stray second word for New-Item, a type literal missing its `]`), the test says
so. Three builders run only while their module loads (the rule table, the place table, the client-config pattern),
so their tests call them directly.
"""

from __future__ import annotations

import re

import pytest

from policy.rules.builtin import RuleSpec
from policy.rules.match import _compile
from policy.rules.place_table import PlaceCategory, _parse_table
from policy.rules.self_protection import _named_file
from policy.rules.shell.cmd import MAX_DEPTH, analyse_cmd
from policy.rules.shell.ops import Analysis, EffectKind, Operation, Value
from tests._requirements import requirement
from tests.policy.test_mut_typed import _hit
from tests.policy.test_typed import capture_of
from tests.policy.verdicts import effect_rows, ps, ps_effects, reason_of

K = EffectKind


# ---------------------------------------------------------------------------------------
# Scheduled tasks and services


@requirement("S-RULE-18")
@pytest.mark.parametrize("cmdlet", ["Register-ScheduledTask", "Set-ScheduledTask"])
def test_a_task_action_written_as_text_is_the_command_the_task_runs(cmdlet: str) -> None:
    """S-RULE-18: a task's `-Action` given as constant text is recorded as the command its persistence runs (the
    effect's `command` fact). PowerShell itself wants task action objects there and refuses a string, so such a
    call changes nothing; the gateway still records what the call names, as for every other persistence."""
    found = [(e.kind, e.target, e.detail, e.extra) for e in ps_effects(f"{cmdlet} -TaskName MyTask -Action calc.exe")]
    assert found[0] == (K.PERSISTENCE, "MyTask", cmdlet, (("command", "calc.exe"),))


@requirement("S-RULE-145")
def test_a_task_change_that_names_no_task_and_has_none_piped_in_is_no_weakening() -> None:
    """S-RULE-145: only tasks piped in from a listing the gateway does not follow ask; `Disable-ScheduledTask` with no
    task at all disables nothing, and a piped `Set-ScheduledTask` is its new action (persistence), not a weakening."""
    assert ps("Disable-ScheduledTask") is None
    assert ps("Get-ScheduledTask | Disable-ScheduledTask") == ("dynamic-command", "ask")
    assert effect_rows("Get-ScheduledTask -TaskName MyTask | Set-ScheduledTask -Trigger $t") == [
        (K.PERSISTENCE, None, "Set-ScheduledTask")
    ]


@requirement("S-RULE-52")
@pytest.mark.parametrize(
    ("service", "expected"),
    [("WinDefend", None), ("sshd", ("security-weakening", "deny"))],
)
def test_a_wmi_start_mode_change_is_judged_on_the_mode_its_arguments_give(
    service: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-52: `Invoke-CimMethod … ChangeStartMode -Arguments @{StartMode='Automatic'}` is `Set-Service
    -StartupType Automatic`: Defender set to start automatically is no weakening, while the SSH server set to start
    opens remote access."""
    command = (
        f"Invoke-CimMethod -ClassName Win32_Service -Filter \"Name='{service}'\" -MethodName ChangeStartMode "
        "-Arguments @{StartMode='Automatic'}"
    )
    assert ps(command) == expected


# ---------------------------------------------------------------------------------------
# Values one command hands another


@requirement("S-RULE-18")
@pytest.mark.parametrize("maker", ["Get-Item", "Resolve-Path"])
def test_an_item_made_by_its_literal_path_is_the_one_deleted(maker: str) -> None:
    """S-RULE-18: `Remove-Item (Get-Item -LiteralPath X)` deletes X, the item the inner command made: the hosts
    file's deletion is refused, not asked about as a target nobody can name."""
    hosts = "C:\\Windows\\System32\\drivers\\etc\\hosts"
    command = f"Remove-Item ({maker} -LiteralPath '{hosts}')"
    assert (K.DELETE, hosts, "Remove-Item") in effect_rows(command)
    assert ps(command) == ("protected-place-delete", "deny")


# ---------------------------------------------------------------------------------------
# The rule table, the place table and the client-config files


@requirement("S-RULE-24")
def test_a_built_in_rule_of_several_patterns_is_searched_by_each_with_its_own_needles() -> None:
    """S-RULE-24: a built-in rule's patterns are its alternatives: each is searched on its own, with its own needles,
    and a view matches the rule when it matches any of them."""
    spec = RuleSpec(id="x-y", action="deny", risk="r", reason="r", tools=("PowerShell",), patterns=("ab", "cd"))
    rule = _compile(spec)
    assert rule.alternatives == ("ab", "cd")
    assert [needles for _, needles in rule.parts] == [(("ab",),), (("cd",),)]
    assert rule.hits("PowerShell", {}, lambda: ("zcdz",)) and not rule.hits("PowerShell", {}, lambda: ("ac db",))


@requirement("S-RULE-19")
def test_the_place_table_expands_every_brace_list_of_a_pattern() -> None:
    """S-RULE-19: `{a,b}` in a place table's pattern stands for each of its words, and two lists in one pattern for
    every pair of them."""
    entries = _parse_table("run-key autostart-key tree | a folder\n    c:\\{a,b}\\x\\{c,d}")
    assert [(e.place.id, e.place.category, e.patterns) for e in entries] == [
        ("run-key", PlaceCategory.AUTOSTART_KEY, ("c:\\a\\x\\c", "c:\\a\\x\\d", "c:\\b\\x\\c", "c:\\b\\x\\d"))
    ]


@requirement("S-SELF-12")
def test_a_client_config_file_part_with_a_wildcard_matches_one_name_only() -> None:
    """S-SELF-12: an AI client's config file named with `*` (`settings\\*mcp*.json`) matches, in folded text, any
    file of that folder whose name holds `mcp`, and no file in a folder below it."""
    pattern = re.compile(_named_file("settings\\*mcp*.json"))
    assert pattern.fullmatch("settings/cline_mcp_settings.json")
    assert pattern.fullmatch("settings/mcp.json")
    assert not pattern.fullmatch("settings/a/mcp.json")
    assert not pattern.fullmatch("settings/mcp.jsonx")


# ---------------------------------------------------------------------------------------
# cmd.exe


@requirement("S-RULE-15")
def test_a_comment_in_a_for_body_does_not_silence_what_follows_the_loop() -> None:
    """S-RULE-15: `rem` in a `for` body comments out only its own command: the `rd` after the loop still runs."""
    command = 'cmd /c "(for %i in (a) do rem x) & rd /s /q C:\\Users"'
    found = analyse_cmd("(for %i in (a) do rem x) & rd /s /q C:\\Users").operations
    assert [(o.name, o.args) for o in found] == [("rd", ("C:\\Users",))]
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    "line",
    ["r^\nd /s /q C:\\Users", "rd /s /q C:\\Us^\ners"],
    ids=["in-the-name", "in-an-argument"],
)
def test_a_caret_before_a_line_break_joins_the_lines(line: str) -> None:
    """S-RULE-15: a caret at the end of a line escapes the line break: cmd joins the next line to it, so the name
    and the path read whole (`rd`, `C:\\Users`)."""
    assert [(o.name, o.args) for o in analyse_cmd(line).operations] == [("rd", ("C:\\Users",))]


@requirement("S-RULE-11")
def test_a_program_at_the_deepest_level_is_not_looked_into() -> None:
    """S-RULE-11: past the nesting bound nothing is read: a program started at the deepest level is not handed to
    the interpreter reader (the analysis says it is too deeply nested); one level higher it still is."""
    seen: list[tuple[str, int]] = []

    def nested(name: str, argv: tuple[Value, ...], depth: int) -> Analysis:
        seen.append((name, depth))
        return Analysis(operations=(Operation("program", "inner", (), (), "x", depth),))

    deepest = analyse_cmd("powershell -c Get-Date", depth=MAX_DEPTH, nested=nested)
    assert (deepest.failed, seen, [o.name for o in deepest.operations]) == ("too deeply nested", [], ["powershell"])
    above = analyse_cmd("powershell -c Get-Date", depth=MAX_DEPTH - 1, nested=nested)
    assert (above.failed, seen) == (None, [("powershell", MAX_DEPTH)])
    assert [o.name for o in above.operations] == ["powershell", "inner"]


@requirement("S-RULE-31")
def test_a_program_started_from_a_share_is_marked_at_its_own_level() -> None:
    """S-RULE-31: the `<run>` operation that marks a program started by a UNC path sits at the level of the command
    line that starts it, beside the program's own operation."""
    found = analyse_cmd("\\\\host\\share\\tool.exe /x", depth=2).operations
    assert [(o.name, o.args, o.depth) for o in found] == [
        ("<run>", ("\\\\host\\share\\tool.exe",), 2),
        ("tool", ("/x",), 2),
    ]


# ---------------------------------------------------------------------------------------
# PowerShell


@requirement("S-RULE-114")
def test_a_script_made_by_new_item_with_an_unread_second_word_asks() -> None:
    """S-RULE-114: `New-Item x.ps1 $s` is read as a script written from a value the analyser cannot fold, and asks.
    (New-Item's `-Value` has no position, so PowerShell refuses the second word; the gateway reads it as the value
    and errs towards asking.) With no value the file is empty and nothing is asked."""
    assert ps("New-Item C:\\t\\x.ps1 $s") == ("unread-script", "ask")
    assert ps("New-Item C:\\t\\x.ps1") is None


@requirement("S-RULE-78")
def test_sc_with_only_a_parameter_is_set_content() -> None:
    """S-RULE-78: `sc` is `Set-Content` unless its first argument is a service-control verb; with only a parameter
    (`-Path:C:\\Windows\\win.ini`, no verb) it writes that file, and the write is refused."""
    assert ps("Get-Date | sc -Path:C:\\Windows\\win.ini") == ("protected-place-write", "deny")


@requirement("S-RULE-86")
def test_after_end_of_parameters_a_dashed_word_is_an_item_of_the_array() -> None:
    """S-RULE-86: after `--` a word that looks like a parameter is an argument, and `-x, C:\\Windows\\win.ini` is
    one array: both items are deleted, and the deletion of win.ini is refused."""
    command = "Remove-Item -- -x, C:\\Windows\\win.ini"
    assert effect_rows(command) == [(K.DELETE, "-x", "Remove-Item"), (K.DELETE, "C:\\Windows\\win.ini", "Remove-Item")]
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-14")
def test_a_type_missing_its_closing_bracket_is_named_whole_in_the_reason() -> None:
    """S-RULE-14: `[IO.File::Delete($x)` (the type's `]` missing: PowerShell refuses to parse it) is still read as
    a delete of a target that is not constant, and the reason names the call with the type's name whole."""
    reason = reason_of("[IO.File::Delete($x)")
    assert "file::delete() of a target that is not constant" in reason


@requirement("S-RULE-31")
def test_a_program_on_a_share_without_an_extension_is_remote_code() -> None:
    """S-RULE-31: a command word with a path separator is a program even when its name has a dash and no
    extension (`\\\\host\\share\\do-it`): run from another machine's share, it asks `remote-code`."""
    assert ps("\\\\host\\share\\do-it") == ("remote-code", "ask")
    assert effect_rows("\\\\host\\share\\do-it") == [(K.EXECUTE, "\\\\host\\share\\do-it", "started from its path")]


# ---------------------------------------------------------------------------------------
# Keys


@requirement("S-RULE-63")
def test_keys_after_an_unknown_paste_are_still_judged() -> None:
    """S-RULE-63: a Shortcut that pastes a clipboard the gateway never saw and then types `Stop-Computer` and Enter
    runs that command: the refusal of the shutdown wins over the unknown paste's question."""
    hit = _hit(capture_of("console-powershell"), "Shortcut", None, shortcut="ctrl+v+S+t+o+p+-+C+o+m+p+u+t+e+r+enter")
    assert hit is not None
    assert (hit.rule_id, hit.action) == ("shutdown-restart", "deny")
