"""Behaviour a seventh look at the surviving mutants of a random mutation sample of policy/ found unpinned (issue 12).

Each test is a command an agent could send, keys a script types, or a parser's own result, and what the gateway
reads from it: the verdict, an effect, or the operations the analyser reads. Expectations are what Windows,
PowerShell and cmd.exe do; where the gateway is stricter than Windows (it stops reading at a bound, asks about a
value it cannot know, or reads a command Windows would refuse as if it ran), the test says so.
"""

from __future__ import annotations

import threading

import pytest

from policy.rules.shell.cmd import MAX_NESTING, analyse_cmd
from policy.rules.shell.dispatch import analyse_program
from policy.rules.shell.ops import EffectKind
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from policy.rules.shell.ps_tree import PARSER, text_of
from policy.rules.shell.sendkeys import typed_text
from tests._requirements import requirement
from tests.policy.verdicts import effect_rows, ps

K = EffectKind


# ---------------------------------------------------------------------------------------
# cmd.exe


@requirement("S-RULE-15")
def test_a_command_after_an_if_block_is_read() -> None:
    """S-RULE-15: `if exist x (echo a) & rd /s /q C:\\Windows`: the block ends the `if`; the `rd` after the `&` is
    read (it is no `else`), and the deletion of the Windows folder is refused."""
    command = 'cmd /c "if exist C:\\x (echo a) & rd /s /q C:\\Windows"'
    assert effect_rows(command) == [(K.DELETE_RECURSIVE, "C:\\Windows", "rd /s")]
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-15")
def test_every_variable_a_set_a_list_computes_is_not_known() -> None:
    """S-RULE-15: `set /a x=1,y=2` computes both x and y; the gateway holds each as not known (it does not do the
    arithmetic), so `del C:\\t\\%y%` deletes a file it cannot name, never the literal `%y%`."""
    assert effect_rows('cmd /c "set /a x=1,y=2 & del C:\\t\\%y%"') == [(K.DELETE, None, "del")]


@requirement("S-RULE-15")
def test_start_with_a_folder_switch_and_no_folder_is_judged_not_failed() -> None:
    """S-RULE-15: `start /d` with nothing after it (cmd refuses the missing folder) is read as a start of no program
    with no folder: the gateway reads it, without failing, and passes it."""
    command = "cmd /c start /d"
    assert effect_rows(command) == [(K.EXECUTE, None, "start")]
    assert ps(command) is None


@requirement("S-RULE-11")
def test_a_balanced_block_past_the_nesting_bound_is_only_too_deep() -> None:
    """S-RULE-11: blocks nested MAX_NESTING deep around one letter are balanced: the gateway stops reading at its bound
    and says so, and does not also call the parentheses unbalanced."""
    found = analyse_cmd("(" * MAX_NESTING + "x" + ")" * MAX_NESTING)
    assert found.failed == "too deeply nested"


@requirement("S-RULE-15")
def test_a_recursive_for_marks_a_del_recursive_once() -> None:
    """S-RULE-15: `for /r C:\\t %f in (*.tmp) do del /s /q "%f"` deletes in every folder under C:\\t; the del already
    says `/s`, so it keeps its one `/s` (and its `/q`)."""
    found = analyse_cmd('for /r C:\\t %f in (*.tmp) do del /s /q "%f"')
    assert [(op.name, op.params, op.args) for op in found.operations] == [
        ("del", (("s", "true"), ("q", "true")), ("C:\\t\\*.tmp",))
    ]


@requirement("S-RULE-15")
def test_quotes_around_a_program_with_a_trailing_blank_stay() -> None:
    """S-RULE-15: `cmd /c "C:\\Program Files\\x.exe "`: two quotes, a blank inside and an executable's name (Windows
    drops the trailing blank of a file name), so cmd keeps the quotes and runs x.exe, not `C:\\Program`."""
    found = analyse_program("cmd", ["/c", '"C:\\Program Files\\x.exe "'])
    assert [op.name for op in found.operations] == ["x"]


# ---------------------------------------------------------------------------------------
# Interpreters and wrappers


@requirement("S-RULE-16")
def test_a_powershell_switch_with_its_value_after_a_colon_takes_one_word() -> None:
    """S-RULE-16: `powershell -ExecutionPolicy:Bypass Remove-Item C:\\Windows\\System32`: the value is glued to the
    switch, so the next word starts the command, whose deletion is refused."""
    command = "powershell -ExecutionPolicy:Bypass Remove-Item C:\\Windows\\System32"
    assert effect_rows(command) == [(K.DELETE, "C:\\Windows\\System32", "Remove-Item")]
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-14")
def test_runas_of_a_command_line_not_known_is_a_dynamic_command() -> None:
    """S-RULE-14: `runas /user:admin $c` starts a command line the gateway cannot know: it asks as about any
    dynamic command (the `/user:` switch is runas's own, not a command)."""
    assert ps("runas /user:admin $c") == ("dynamic-command", "ask")


@requirement("S-RULE-28")
def test_a_script_path_in_quotes_is_read_as_the_script() -> None:
    """S-RULE-28: `Set-Content "C:\\t\\x.bat'" 'rd /s /q C:\\Windows'; C:\\t\\x.bat`: the gateway reads quotes at the
    ends of a written script's path as quoting and judges the text as the script that runs (stricter: Windows would
    name the file `x.bat'`), so the deletion of the Windows folder is refused."""
    command = "Set-Content \"C:\\t\\x.bat'\" 'rd /s /q C:\\Windows'; C:\\t\\x.bat"
    assert ps(command) == ("protected-place-delete", "deny")


# ---------------------------------------------------------------------------------------
# PowerShell folding


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "command",
    [
        # [char]::ConvertFromUtf32(101) is "e".
        "Remove-Item ('C:\\Windows\\Syst' + [char]::ConvertFromUtf32(101) + 'm32')",
        # Write-Output -InputObject x writes x.
        "Remove-Item (Write-Output -InputObject C:\\Windows\\System32)",
        # [string]::Join('\\', 'C:', 'Windows', 'System32') is C:\\Windows\\System32.
        "Remove-Item ([string]::Join('\\', 'C:', 'Windows', 'System32'))",
    ],
)
def test_folded_values_name_the_system_folder(command: str) -> None:
    """S-RULE-13: `[char]::ConvertFromUtf32`, `Write-Output -InputObject` and `[string]::Join` fold to the text
    PowerShell makes: the deletion of C:\\Windows\\System32 is refused."""
    assert effect_rows(command) == [(K.DELETE, "C:\\Windows\\System32", "Remove-Item")]
    assert ps(command) == ("protected-place-delete", "deny")


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    "command",
    [
        # -not 'x' and !'x' are $false, not 'x': the gateway does not fold -not (asks).
        "Remove-Item ('C:\\t\\' + (-not 'x'))",
        "Remove-Item ('C:\\t\\' + (!'x'))",
        # An array with an element not known turns into a text not known.
        '$a = "C:\\t\\x", $u; Remove-Item ([string]$a)',
    ],
)
def test_a_value_the_gateway_does_not_fold_is_asked_about(command: str) -> None:
    """S-RULE-14: a negated string and an array holding a value not known give a path the gateway cannot name: the
    deletion is a dynamic command."""
    assert effect_rows(command) == [(K.DELETE, None, "Remove-Item")]
    assert ps(command) == ("dynamic-command", "ask")


@requirement("S-RULE-13")
def test_char_zero_is_the_nul_character() -> None:
    """S-RULE-13: `[char]0` is the NUL character (code point 0, as valid as any other): the path it ends is folded
    (Windows refuses it as a file name)."""
    assert effect_rows("Remove-Item ('C:\\t\\a' + [char]0)") == [(K.DELETE, "C:\\t\\a\0", "Remove-Item")]


@requirement("S-RULE-44")
def test_a_dollar_that_starts_no_variable_does_not_stop_the_expansion() -> None:
    """S-RULE-44: in the bareword `C:\\t\\a$\\$d`, `$\\` is a literal dollar; `$d` after it still expands."""
    assert effect_rows('$d = "x"; Remove-Item C:\\t\\a$\\$d') == [(K.DELETE, "C:\\t\\a$\\x", "Remove-Item")]


@requirement("S-RULE-13")
def test_a_generic_type_with_two_type_arguments_keeps_its_whole_name() -> None:
    """S-RULE-13: `[System.Collections.Generic.Dictionary[string,int]]::new()`: the comma is between the generic's
    type arguments (no assembly-qualified name), so the type keeps its whole name."""
    clear_analysis_cache()
    found = analyse_powershell("[System.Collections.Generic.Dictionary[string,int]]::new()")
    assert [op.name for op in found.operations] == ["system.collections.generic.dictionary[string,int]::new"]


@requirement("S-RULE-11")
def test_the_tree_level_bound_does_not_move_with_the_values_before() -> None:
    """S-RULE-11: an expression nested 49 parentheses deep is past the tree-level bound however many array items
    come before it (PowerShell itself runs it; the gateway stops reading there and asks)."""
    clear_analysis_cache()
    command = "Remove-Item @(" + "'a', " * 60 + "(" * 49 + "'C:\\t\\x'" + ")" * 49 + ")"
    found = analyse_powershell(command)
    assert found.failed is not None
    assert "too deeply nested" in found.failed
    assert [op.args for op in found.operations if op.name == "remove-item"] == [(None,)]


@requirement("S-RULE-13")
def test_a_nodes_text_is_its_utf8_source() -> None:
    """S-RULE-13: the text of a parsed node is its source decoded as UTF-8 (`é` stays `é`)."""
    source = "Remove-Item 'C:\\t\\é'"
    assert text_of(PARSER.parse(source.encode("utf-8")).root_node) == source


# ---------------------------------------------------------------------------------------
# Keys a script types


@requirement("S-RULE-38")
def test_an_unmatched_brace_in_sendkeys_is_typed_and_the_reading_ends() -> None:
    """S-RULE-38: `a{b` has a `{` that opens no key name (SendKeys itself refuses it): the gateway reads it as the
    character and finishes reading (stricter: the text is still judged as typed)."""
    result: list[str] = []
    worker = threading.Thread(target=lambda: result.append(typed_text("a{b")), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "typed_text did not finish"
    assert result == ["a{b"]
