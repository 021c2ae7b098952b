"""Behaviour a fifth random mutation sample of policy/ found unpinned (issue 12, helper B's share).

Each test is a command an agent could send, a key chord, or a file the gateway reads, and what the gateway
reads from it: the verdict, an effect, the arguments the analyser folds, or a parser's own result. Expectations
are what Windows, PowerShell and cmd.exe do; where the gateway is stricter than Windows (it stops reading at a
bound, or asks about a value it cannot know rather than guess), the test says so.
"""

from __future__ import annotations

import base64

import pytest

from policy.rules.reg_file import reg_file_effects
from policy.rules.shell.cmd import MAX_BODY_RUNS, MAX_NESTING, analyse_cmd
from policy.rules.shell.cmd_expand import MAX_EXPANDED_CHARS
from policy.rules.shell.dispatch import analyse_program
from policy.rules.shell.ops import EffectKind
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from policy.rules.uia_keys import key_events
from tests._requirements import requirement
from tests.policy.verdicts import args_of, effect_rows, ps

K = EffectKind


# ---------------------------------------------------------------------------------------
# Files the gateway reads


@requirement("S-RULE-117")
def test_a_reg_file_value_before_any_key_writes_nothing() -> None:
    """S-RULE-117: a value line before the first `[key]` belongs to no key: regedit writes nothing for it."""
    text = 'REGEDIT4\n"Stray"="x"\n[HKEY_CURRENT_USER\\Software\\A]\n"P"="q"\n'
    found = [(e.kind, e.target, e.value_name, e.data) for e in reg_file_effects(text, "a.reg")]
    assert found == [(K.REGISTRY_SET, "HKCU\\Software\\A", "P", "q")]


@requirement("S-RULE-28")
def test_echoing_a_value_not_known_into_a_script_that_runs_asks() -> None:
    """S-RULE-28: `echo $d > x.bat; x.bat` runs a script whose text the gateway cannot know: it asks."""
    command = "echo $d > C:\\t\\x.bat; C:\\t\\x.bat"
    assert ps(command) == ("unread-script", "ask")


# ---------------------------------------------------------------------------------------
# cmd.exe


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cmd /c 'del C:\\t\\a)b'", [(K.DELETE, "C:\\t\\a)b", "del")]),
        ("cmd /c 'rd /s /q C:\\t\\x)y'", [(K.DELETE_RECURSIVE, "C:\\t\\x)y", "rd /s")]),
    ],
)
def test_a_closing_parenthesis_outside_a_block_is_part_of_the_word(
    command: str, expected: list[tuple[EffectKind, str, str]]
) -> None:
    """S-RULE-15: outside `( … )` cmd reads `)` as an ordinary character: `del C:\\t\\a)b` deletes `a)b`."""
    assert effect_rows(command) == expected


@requirement("S-RULE-11")
def test_a_for_body_run_too_often_says_why_it_stopped() -> None:
    """S-RULE-11: a nested `for` whose body would run 81 times is read for MAX_BODY_RUNS (64) runs, then the
    analysis says so (cmd runs all 81; the gateway stops reading and asks)."""
    items = " ".join(str(i) for i in range(9))
    assert len(items.split()) ** 2 > MAX_BODY_RUNS
    analysis = analyse_cmd(f"for %a in ({items}) do for %b in ({items}) do echo %a%b")
    assert analysis.failed == "too many for-loop iterations to analyse"


@requirement("S-RULE-11")
@pytest.mark.parametrize("before", [0, 1, 10])
def test_the_nesting_bound_does_not_grow_with_the_commands_before(before: int) -> None:
    """S-RULE-11: blocks nested MAX_NESTING (48) deep are past the bound however many commands come first
    (cmd itself runs them; the gateway stops reading there), and 46 deep are read."""
    prefix = "echo a & " * before
    deep = analyse_cmd(prefix + "(" * MAX_NESTING + "rd /s /q C:\\t\\x" + ")" * MAX_NESTING)
    assert deep.failed is not None
    assert "too deeply nested" in deep.failed
    assert "rd" not in [op.name for op in deep.operations]
    shallow = analyse_cmd(prefix + "(" * (MAX_NESTING - 2) + "rd /s /q C:\\t\\x" + ")" * (MAX_NESTING - 2))
    assert shallow.failed is None
    assert [op.args for op in shallow.operations if op.name == "rd"] == [("C:\\t\\x",)]


@requirement("S-RULE-11")
def test_percent_expansion_stops_exactly_at_its_bound() -> None:
    """S-RULE-11: `%VAR%` is expanded while fewer than MAX_EXPANDED_CHARS characters have been added to the
    line, and read as written after that (cmd would refuse a line this long: 8191 characters at most)."""
    size_a = 4095
    copies = MAX_EXPANDED_CHARS // size_a  # 32
    short_of_it = MAX_EXPANDED_CHARS - 1 - copies * size_a  # 31: the line grows to one below the bound

    def rd_targets(size_b: int) -> list[tuple[str | None, ...]]:
        line = f"set a={'x' * size_a}& set b={'y' * size_b}& echo {'%a%' * copies}%b%& rd /s /q %windir%"
        return [op.args for op in analyse_cmd(line).operations if op.name == "rd"]

    assert rd_targets(short_of_it) == [("C:\\Windows",)]
    assert rd_targets(short_of_it + 1) == [("%windir%",)]


@requirement("S-RULE-36")
@pytest.mark.parametrize(
    ("folder", "mask", "target"),
    [("C:\\t\\", "x", "C:\\t\\x"), ("C:\\", "Windows", "C:\\Windows")],
)
def test_forfiles_with_a_folder_ending_in_a_backslash_names_each_file_once(folder: str, mask: str, target: str) -> None:
    """S-RULE-36: `forfiles /p C:\\ /m Windows /c "cmd /c rd /s /q @path"`: @path is `C:\\Windows`, one separator."""
    found = effect_rows(f'forfiles /p {folder} /m {mask} /c "cmd /c rd /s /q @path"')
    assert [t for k, t, _ in found if k is K.DELETE_RECURSIVE] == [target]


# ---------------------------------------------------------------------------------------
# Interpreters started by a command


@requirement("S-RULE-16")
def test_powershell_switches_after_an_encoded_command_are_still_read() -> None:
    """S-RULE-16: in `powershell -EncodedCommand … -WindowStyle Hidden -NoProfile` the switches after the
    payload are powershell.exe's own (it reads its whole command line), and the payload is analysed."""
    payload = base64.b64encode("Get-Date".encode("utf-16-le")).decode()
    analysis = analyse_program(
        "powershell.exe", ("-EncodedCommand", payload, "-WindowStyle", "Hidden", "-NoProfile"), 1
    )
    own = [op.params for op in analysis.operations if op.shell == "program"]
    assert own == [(("encodedcommand", payload), ("windowstyle", "Hidden"), ("noprofile", "true"))]
    assert [op.name for op in analysis.operations if op.shell == "powershell"] == ["get-date"]


# ---------------------------------------------------------------------------------------
# The PowerShell analyser


@requirement("S-RULE-11")
def test_casts_nested_past_the_tree_bound_are_not_folded() -> None:
    """S-RULE-11: 120 nested `[string]` casts are past MAX_TREE_LEVEL (100): the path is not read, the command
    asks (PowerShell would delete C:\\t\\x; the gateway stops at its bound); 40 casts are folded."""
    deep = "Remove-Item " + "[string]" * 120 + "'C:\\t\\x'"
    clear_analysis_cache()
    assert analyse_powershell(deep).failed == "too deeply nested"
    assert ps(deep) == ("dynamic-command", "ask")
    assert args_of("Remove-Item " + "[string]" * 40 + "'C:\\t\\x'", "remove-item") == [("C:\\t\\x",)]


@requirement("S-RULE-13")
def test_substring_with_only_a_start_takes_the_rest() -> None:
    """S-RULE-13: `'xxC:\\t\\x'.Substring(2)` is `C:\\t\\x` (.NET: from the start index to the end)."""
    assert args_of("Remove-Item ('xxC:\\t\\x'.Substring(2))", "remove-item") == [("C:\\t\\x",)]


@requirement("S-RULE-13")
def test_a_bareword_array_with_a_blank_before_the_comma_is_two_paths() -> None:
    """S-RULE-13: `Remove-Item C:\\t\\a=b , C:\\t\\c` passes the array of both paths (`=` is a letter in a bareword);
    the text parses, so nothing is left to ask about."""
    command = "Remove-Item C:\\t\\a=b , C:\\t\\c"
    clear_analysis_cache()
    assert analyse_powershell(command).failed is None
    assert ps(command) is None
    assert effect_rows(command) == [
        (K.DELETE, "C:\\t\\a=b", "Remove-Item"),
        (K.DELETE, "C:\\t\\c", "Remove-Item"),
    ]


@requirement("S-RULE-13")
def test_a_braced_variable_inside_a_path_word_is_expanded() -> None:
    """S-RULE-13: after `$n = 'x'`, the bareword `C:\\t\\${n}\\y` is `C:\\t\\x\\y` (expanded as in double quotes)."""
    assert effect_rows("$n = 'x'; Remove-Item C:\\t\\${n}\\y") == [(K.DELETE, "C:\\t\\x\\y", "Remove-Item")]


@requirement("S-RULE-13")
def test_a_braced_variable_after_an_escaped_dollar_is_expanded() -> None:
    """S-RULE-13: after `$n = 'x'`, the bareword `` `$a${n} `` is `$ax`: the escaped `$` is a letter, `${n}` is x."""
    assert args_of("$n = 'x'; Remove-Item `$a${n}", "remove-item") == [("$ax",)]


@requirement("S-RULE-13")
def test_an_escaped_dollar_before_u_braces_is_no_unicode_escape() -> None:
    """S-RULE-13: in `"C:\\t\\`$u{1}"` the backtick escapes the `$`; `u{1}` is plain text (PowerShell 5.1 and 7)."""
    assert args_of('Remove-Item "C:\\t\\`$u{1}"', "remove-item") == [("C:\\t\\$u{1}",)]


@requirement("S-RULE-13")
@pytest.mark.parametrize("word", ["('C:\\t\\q')", "$('C:\\t\\q')", "@('C:\\t\\q')", "('C:\\t\\' + 'q')"])
def test_a_parenthesised_argument_of_a_recovered_command_is_folded(word: str) -> None:
    """S-RULE-13: in text the grammar breaks (`$env:TEMP\\x` glued to a path, a stray `}`), the re-read command's
    `( … )`, `$( … )` and `@( … )` argument of one statement is that statement's value."""
    assert args_of(f"Remove-Item $env:TEMP\\x {word} ; }}", "remove-item") == [("$env:TEMP\\x", "C:\\t\\q")]


# ---------------------------------------------------------------------------------------
# Shortcut keys


@requirement("S-RULE-63")
@pytest.mark.parametrize("chord", ["win+e", "win+d", "win+l"])
def test_win_with_a_key_that_opens_no_prompt_changes_no_line(chord: str) -> None:
    """S-RULE-63: Win+E (Explorer), Win+D (desktop), Win+L (lock) change no line being typed: `keep`."""
    assert [e.kind for e in key_events(chord)] == ["keep"] * len(key_events(chord))
    assert key_events(chord)
