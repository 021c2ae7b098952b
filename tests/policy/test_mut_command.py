"""What the command analyser tells the model and what the regex rules read (S-RULE-13, -14); found by mutation testing.

The `dynamic-command` and `unparsed-command` reasons are read by the model and land in the audit:
their wording is pinned, and so is what they leave out of the command (only the first word of a
quoted command stays, text after `: ` goes). The regex table reads each resolved operation rendered
back to one normal spelling: cmd switches with `/`, .NET calls as `[type]::method(args)`, values with
white space quoted, non-constant values as `$dynamic`, piped commands joined by ` | `, and several
statements also as one `; `-joined script.
"""

from __future__ import annotations

import pytest

from policy.rules.command import _brief, _unparsed_hit, judge_call, render
from policy.rules.match import load_rules
from policy.rules.shell.ops import Analysis, Operation
from tests._requirements import requirement

_DYNAMIC = "part of this command is built at run time, so the gateway cannot tell what it runs ({}). " + (
    "Instead, write the command out with its names and paths spelled as constants."
)
_UNPARSED = (
    "the gateway could not read this command with the PowerShell grammar ({}), so it cannot tell what it does. "
    + ("Instead, write it as plain statements, one per line.")
)
_SENDKEYS = (
    "'[System.Windows.Forms.SendKeys]::SendWai' types keys that are not constant into whichever window has the focus"
)


def _ps(command: str) -> tuple[str, str, str, str] | None:
    hit = load_rules().match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action, hit.risk, hit.reason)


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    ("command", "what"),
    [
        (
            "iex $a; iex $b; iex $c; iex $d",
            "; ".join(["'iex …' runs text that is not constant (Invoke-Expression)"] * 3),
        ),
        ("& $x", "'& …' runs a command whose name is not constant"),
        (
            "[System.Windows.Forms.SendKeys]::SendWait($a); [System.Windows.Forms.SendKeys]::SendWait($b); "
            "[System.Windows.Forms.SendKeys]::SendWait($c)",
            f"{_SENDKEYS}; {_SENDKEYS}; '[System.Windows.Forms.SendKeys]::SendWai' types keys that are not constan",
        ),
        ('cmd /c "%FOO% a: b: c"', "cmd command name uses a variable the standard environment does not define"),
    ],
    ids=["three-of-four-briefs", "one-brief", "cut-at-300-chars", "text-after-colon-dropped"],
)
def test_a_dynamic_command_reason_names_at_most_three_briefs_and_no_command_text(command: str, what: str) -> None:
    """S-RULE-14: the ask quotes the first three sentences, `; `-joined, each quoted command cut to its first word
    (`…` when more followed; a one-word command at 40 characters, with no `…`), the whole at 300 characters;
    what a sentence says after `: ` (the command line itself) is left out."""
    assert _ps(command) == ("dynamic-command", "ask", "dynamic-command", _DYNAMIC.format(what))


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    ("command", "what"),
    [
        ('Get-Date "unterminated', "PowerShell syntax error"),
        ('Get-Date "a near b', "PowerShell syntax error"),  # only the first ` near ` cuts
        ('powershell -c "Get-Date \'x"', "powershell"),  # the nested program, not its text
    ],
    ids=["syntax-error", "near-in-the-command", "nested-program"],
)
def test_an_unparsed_command_reason_says_why_without_the_text_near_the_error(command: str, what: str) -> None:
    """S-RULE-14: a command the grammar cannot read asks `unparsed-command` (risk `uninspectable`); its reason gives
    the failure up to the first ` near ` and `: `, never the command text around the error."""
    assert _ps(command) == ("unparsed-command", "ask", "uninspectable", _UNPARSED.format(what))


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    ("failed", "what"),
    [("x" * 200, "x" * 120), ("", "")],
    ids=["cut-at-120-chars", "empty"],
)
def test_an_unparsed_reason_is_cut_at_120_characters(failed: str, what: str) -> None:
    """S-RULE-14: no analyser reports a failure this long or this short; the reason's bound still holds for one."""
    assert _unparsed_hit(Analysis(failed=failed)).reason == _UNPARSED.format(what)


@requirement("S-RULE-14")
@pytest.mark.parametrize("command", ["& $x s3cret: more", "& $x 'a: s3cret' more", "iex $y; s3cret: x"])
def test_a_dynamic_reason_never_quotes_words_after_the_first_even_when_they_hold_a_colon(command: str) -> None:
    """S-RULE-14: the quoted command is shortened before the sentence is cut at `: `, so a `: ` inside the command
    cannot keep the rest of it (a password, say) in the reason, the refusal and the audit."""
    hit = _ps(command)
    assert hit is not None and hit[0] == "dynamic-command"
    assert "s3cret" not in hit[3] and "more" not in hit[3]


@requirement("S-RULE-14")
def test_a_blank_quoted_command_briefs_to_empty_quotes() -> None:
    """S-RULE-14: no analyser quotes blank text; should one, its brief keeps the quotes and nothing between them."""
    assert _brief("' \t ' runs a command whose name is not constant") == "'' runs a command whose name is not constant"


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "views"),
    [
        ("Get-ChildItem | Remove-Item", ("get-childitem | remove-item",)),
        ("Get-Date; Get-Location", ("get-date", "get-location", "get-date; get-location")),
        (
            'cmd /c "rd /s /q C:\\x"',
            ("cmd /c 'rd /s /q c:/x'", "remove-item /s /q c:/x", "cmd /c 'rd /s /q c:/x'; remove-item /s /q c:/x"),
        ),
        ("[IO.File]::Copy('C:\\a b', $b)", ("[system.io.file]::copy('c:/a b', $dynamic)",)),
        ("Remove-Item -Path 'C:\\a b' -Recurse", ("remove-item -path 'c:/a b' -recurse",)),
    ],
    ids=["pipeline", "two-statements", "cmd-switches", "dotnet-call", "param-with-space"],
)
def test_the_regex_rules_read_each_operation_in_one_normal_spelling(command: str, views: tuple[str, ...]) -> None:
    """S-RULE-13: piped commands are one statement joined by ` | `; several statements are each a view and also one
    `; `-joined view; cmd switches keep `/`; a .NET call reads `[type]::method(a, b)`; white space is quoted."""
    assert judge_call("PowerShell", {"command": command}).views == views


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("op", "text"),
    [
        (Operation(shell="dotnet", name="a::b::c"), "[a]::b::c()"),
        (
            Operation(shell="powershell", name="remove-item", params=(("path", None),), args=(None, "", "a b", "c")),
            "remove-item -path $dynamic $dynamic '' 'a b' c",
        ),
        (Operation(shell="cmd", name="dir", params=(("s", "true"), ("a", "h"))), "dir /s /a h"),
    ],
    ids=["dotnet-type-split-once", "values", "cmd"],
)
def test_render_spells_values_as_the_rules_read_them(op: Operation, text: str) -> None:
    """S-RULE-13: a .NET name splits at its first `::`; a non-constant value is `$dynamic`, an empty or spaced one is
    quoted; a `true` parameter is a bare switch."""
    assert render(op) == text
