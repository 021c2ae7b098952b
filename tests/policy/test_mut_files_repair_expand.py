""".NET file calls, the PowerShell repair pass and cmd.exe's expansion phases, pinned by behaviour (issue 12).

Found by mutation testing of `effects_file_calls`, `ps_repair` and `cmd_expand`: each test is a call an agent
could make (or the text the analyser reads) and what Windows, PowerShell or cmd.exe do with it: the effect the
gateway reads, the verdict, or the text the parser is handed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from policy.rules.effects_file_calls import opens_for_writing
from policy.rules.shell.cmd_expand import UNKNOWN, replace, substitute_for, substring
from policy.rules.shell.ops import EffectKind
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from policy.rules.shell.ps_repair import may_have_number_suffix, needed_branches, repair
from tests._requirements import requirement
from tests.policy.verdicts import effect_rows, ps, reason_of

K = EffectKind
HOSTS = "C:\\Windows\\System32\\drivers\\etc\\hosts"


# ---------------------------------------------------------------------------------------
# .NET and COM file calls (effects_file_calls)


@requirement("S-RULE-18")
def test_io_file_open_with_an_access_that_is_not_constant_is_a_write() -> None:
    """S-RULE-18: `[IO.File]::Open(hosts, 'Open', $access)`: the access may be Write, so the hosts file may be
    written, and a write to the system folder is refused (stop 24: `Open(p, 'Open', 'Write')` writes)."""
    command = f"[IO.File]::Open('{HOSTS}', 'Open', $access)"
    assert effect_rows(command) == [(K.WRITE, HOSTS, "[IO.File]::Open")]
    assert ps(command) == ("protected-place-write", "deny")
    assert opens_for_writing((HOSTS, "Open", None))
    assert not opens_for_writing((HOSTS, "Open", "Read"))


@requirement("S-RULE-102")
@pytest.mark.parametrize(
    ("command", "source"),
    [("$x.MoveTo($d)", (K.MOVE, ".MoveTo()")), ("$x.CopyTo($d)", (K.READ, ".CopyTo()"))],
)
def test_an_untraced_objects_move_or_copy_names_the_call_in_what_it_asks(
    command: str, source: tuple[EffectKind, str]
) -> None:
    """S-RULE-102: `$x.MoveTo($d)` on an object the analyser cannot trace moves (or reads) something unknown and
    writes a destination that is not constant: the gateway asks, and its reason names the call and the
    destination, so a person sees what is not known."""
    kind, detail = source
    assert effect_rows(command) == [(kind, None, detail), (K.WRITE, None, detail + " destination")]
    assert ps(command) == ("dynamic-command", "ask")
    assert f"{detail} destination of a target that is not constant" in reason_of(command)
    if kind is K.MOVE:
        assert ".MoveTo() of a target that is not constant;" in reason_of(command)


# ---------------------------------------------------------------------------------------
# The repair pass (ps_repair): switch clauses


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "text",
    [
        "switch ($x) { 1 {'a'}default {'b'} }",  # no blank after the clause: nothing to make a `;` of
        "switch ($x) { 1 {'a'}X {'b'} }",
        "switch ($x) { 1 {'a'} }",  # the last clause: the switch's own `}` follows
        "switch ($x) { 1 {'a'}  }",
        "switch ($x) { 1 {'a'} # the end\n}",
    ],
)
def test_only_a_blank_between_two_switch_clauses_becomes_a_separator(text: str) -> None:
    """S-RULE-13: the repair turns the blank between two clauses on one line into `;` and nothing else: a clause
    glued to the one before, or a clause followed by the switch's closing brace or a comment, is left as written."""
    assert repair(text) is None


@requirement("S-RULE-11")
@pytest.mark.parametrize("text", ["switch ($x) { 1 {'a'}", "switch ($x) { 1 {'a'}  ", "switch ($x) { 1 {'a'}\t"])
def test_a_switch_body_cut_off_after_a_clause_is_read_without_raising(text: str) -> None:
    """S-RULE-11: a switch body that ends right after a clause (nothing, or only blanks, after its `}`) is an
    unfinished script: the repair leaves it as it is and the analysis reports a failed parse, it does not raise."""
    assert repair(text) is None
    clear_analysis_cache()
    assert analyse_powershell(text).failed


# ---------------------------------------------------------------------------------------
# The repair pass (ps_repair): bareword arrays, rare spots, the suffix pre-check


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("text", "repaired"),
    [
        ("a,b", "a ,b"),  # the bareword starts the text
        ("Get-Process | Select-Object Id,X", "Get-Process | Select-Object Id ,X"),
        ("Get-Process | Select-Object Id,Name", "Get-Process | Select-Object Id ,Name"),
        # blanks around the comma move before it (same length); `@(` at the start is not the word before it
        ("@(1,2) | Select-Object Id , Name", "@(1 ,2) | Select-Object Id  ,Name"),
    ],
)
def test_a_bareword_array_comma_is_moved_against_the_next_element(text: str, repaired: str) -> None:
    """S-RULE-13: `a,b` / `a , b` in argument mode is one array; the grammar reads it once the comma stands
    against the next element (`a ,b`), and nothing else in the text changes."""
    result = repair(text)
    assert result is not None
    assert result.text == repaired


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "text",
    [
        "Write-Output 'a',b",  # the element before is a string, not a bareword
        "Get-Process | Select-Object Id,$b",  # the element after is a variable: `,$b` is no bareword
        "Get-Process | Select-Object Id,",  # the array goes on on the next line
    ],
)
def test_a_comma_next_to_a_string_or_a_variable_is_left_as_written(text: str) -> None:
    """S-RULE-13: only a comma between two barewords is moved; `'a',b` and `a,$b` parse as they are."""
    assert repair(text) is None


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("text", "repaired"),
    [("-- x", "-_ x"), ("--", "-_"), ("-Name1 x", "-Name_ x"), ("-Name1", "-Name_"), ("x -Name1 y", "x -Name_ y")],
)
def test_a_rare_spot_at_the_start_of_the_text_is_repaired_like_one_after_a_blank(text: str, repaired: str) -> None:
    """S-RULE-13: the end-of-parameters `--` and a parameter with a digit are rewritten where they start the text,
    as after a blank: the pre-check that leaves the rare branch out never misses one there."""
    assert needed_branches(text)[0]
    result = repair(text)
    assert result is not None
    assert result.text == repaired


@requirement("S-RULE-13")
@pytest.mark.parametrize("text", ["Get-Process", "Get-ChildItem -Filter *.txt", "Remove-Item C:\\t\\a.log"])
def test_the_suffix_pre_check_is_false_for_ascii_text_without_a_suffix(text: str) -> None:
    """S-RULE-13: `may_have_number_suffix` is false for ASCII text that holds no `kb`...`pb` (what lets the
    hot path skip the number pattern), and true for text with a suffix or beyond ASCII."""
    assert not may_have_number_suffix(text)
    assert may_have_number_suffix("$a -gt 1MB")
    assert may_have_number_suffix("Get-Process é")


# ---------------------------------------------------------------------------------------
# cmd.exe's expansion phases (cmd_expand)


def _finishes(work: Callable[[], object]) -> list[object]:
    """`work`'s result, run on a thread that must finish within five seconds (a loop that never ends fails)."""
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(work()), daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "the expansion did not finish"
    return result


@requirement("S-RULE-15")
@pytest.mark.parametrize("spec", ["X1", "1,x", "x", "1,"])
def test_a_substring_that_is_not_a_number_pair_is_not_known(spec: str) -> None:
    """S-RULE-15: `%VAR:~X1%`, `%VAR:~1,x%`: a start or length that is not a number is no substring cmd cuts as
    the gateway could know it; the value is held as not known, never cut at a guessed place."""
    assert substring("abcdef", spec) == UNKNOWN


@requirement("S-RULE-15")
def test_a_replacement_replaces_every_occurrence_and_finishes() -> None:
    """S-RULE-15: `%P:/=\\%` replaces each of the three slashes in `C:/a/b/c` (case-insensitively, left to right)
    and returns; a value with one match is replaced once."""
    assert _finishes(lambda: replace("C:/a/b/c", "/", "\\")) == ["C:\\a\\b\\c"]
    assert _finishes(lambda: replace("aXbxcX", "x", "-")) == ["a-b-c-"]
    assert _finishes(lambda: replace("C:\\Temp", "temp", "Windows")) == ["C:\\Windows"]


@requirement("S-RULE-15")
def test_a_for_body_is_substituted_and_the_substitution_finishes() -> None:
    """S-RULE-15: `del %i` with `a.txt` is `del a.txt`: every character that is not the loop variable is copied."""
    assert _finishes(lambda: substitute_for("del C:\\t\\%i", "i", "a.txt")) == ["del C:\\t\\a.txt"]


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("body", "expected"),
    [("rd /s /q %~fi", "rd /s /q C:\\Windows"), ("%~dpi\\x", "C:\\Windows\\x"), ("del %~nxi", "del C:\\Windows")],
)
def test_a_for_variable_with_modifiers_is_the_items_value_without_its_quotes(body: str, expected: str) -> None:
    """S-RULE-15: `%~fi`, `%~dpi`, `%~nxi` (any run of modifiers before the letter) stand for the item with its
    quotes removed, wherever in the body they are: the gateway reads the whole value and finishes."""
    assert _finishes(lambda: substitute_for(body, "i", '"C:\\Windows"')) == [expected]


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("command", "rows"),
    [
        ('cmd /c "for %i in (a) do del/q C:\\Windows\\%i"', [(K.DELETE, "C:\\Windows\\a", "del")]),
        ('cmd /c "for %i in (a) do rd/s/q C:\\Windows\\%i"', [(K.DELETE_RECURSIVE, "C:\\Windows\\a", "rd /s")]),
        ('cmd /c "for %i in (a) do del\\Windows\\%i"', [(K.DELETE, "\\Windows\\a", "del")]),
        (
            'cmd /c "for %i in (a b) do (echo 2>C:\\Windows\\%i.ini)"',
            [(K.WRITE, "C:\\Windows\\a.ini", "redirect >"), (K.WRITE, "C:\\Windows\\b.ini", "redirect >")],
        ),
    ],
)
def test_a_builtin_glued_to_its_argument_in_a_for_body_runs_once_per_item(
    command: str, rows: list[tuple[EffectKind, str, str]]
) -> None:
    """S-RULE-15: `del/q x`, `rd/s/q x`, `del\\x` are the built-in and its arguments (cmd splits the glued word),
    and a `2>` handle belongs to the redirection; inside a `for` body the body is read as written and run per item,
    so each item's deletion or write of the Windows folder is read and refused."""
    assert effect_rows(command) == rows
    assert ps(command) in (("protected-place-delete", "deny"), ("protected-place-write", "deny"))


@requirement("S-RULE-15")
def test_a_builtin_glued_to_dots_does_not_swallow_the_next_command() -> None:
    """S-RULE-15: `echo&cd..&rd /s /q C:\\Windows`: `cd..` is `cd ..`; the `rd` after it is read whole and the
    deletion of the Windows folder is refused."""
    command = 'cmd /c "echo&cd..&rd /s /q C:\\Windows"'
    assert effect_rows(command) == [(K.DELETE_RECURSIVE, "C:\\Windows", "rd /s")]
    assert ps(command) == ("protected-place-delete", "deny")
