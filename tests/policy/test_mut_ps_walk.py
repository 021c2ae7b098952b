"""The statement walker's branches, pipelines, error recovery and nesting limit, pinned by value.

Issue 12: each row kills surviving mutants of `policy/rules/shell/ps_walk.py`. A row is what the analyser
reads from a short script: the arguments an operation gets, the command piping into it, the verdict, or
why the analysis is incomplete. A value the walker cannot know reads as None (`UNKNOWN`).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from policy.rules.shell.ops import Analysis
from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from tests._requirements import requirement
from tests.policy.verdicts import args_of, ps


def analysis(command: str) -> Analysis:
    """The analysis of `command`, computed afresh (not from the cache)."""
    clear_analysis_cache()
    return analyse_powershell(command)


def calls(command: str) -> list[tuple[str, tuple[tuple[str, str | None], ...], tuple[str | None, ...]]]:
    """Each operation the analyser reads from `command`: its name, named parameters and arguments, in order."""
    return [(op.name, op.params, op.args) for op in analysis(command).operations]


# -- branches -----------------------------------------------------------------------------------


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # A `try` block, a `trap` block and a `switch` clause may or may not run: a variable set there is unknown after.
        (r"$p = 'C:\t'; try { $p = 'C:\x' } catch { 1 }; Get-ChildItem $p", [(None,)]),
        (r"$p = 'C:\t'; trap { $p = 'C:\x' }; Get-ChildItem $p", [(None,)]),
        (r"$p = 'C:\t'; switch ($x) { 1 { $p = 'C:\x' } }; Get-ChildItem $p", [(None,)]),
        # An `if` condition always runs: what it assigns is constant after the statement.
        (r"$p = 'C:\t'; if ($p = 'C:\x') { 1 }; Get-ChildItem $p", [("C:\\x",)]),
    ],
    ids=["try", "trap", "switch", "if-condition"],
)
def test_a_branch_body_may_not_run_but_a_condition_always_does(command: str, expected: object) -> None:
    """S-RULE-13: an assignment in a branch body leaves the variable unknown; one in the condition holds."""
    assert args_of(command, "get-childitem") == expected


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "command",
    [
        r"if ($a) { Remove-Item C:\t\a } elseif ($b) { Remove-Item C:\t\b } else { Remove-Item C:\t\c }",
        r"try { Remove-Item C:\t\a } catch [System.Exception] { Remove-Item C:\t\b } finally { Remove-Item C:\t\c }",
    ],
    ids=["if-elseif-else", "try-catch-finally"],
)
def test_every_clause_of_a_branch_statement_is_walked(command: str) -> None:
    """S-RULE-13: the `else` after `elseif` clauses and the `finally` after `catch` clauses are read too."""
    assert args_of(command, "remove-item") == [("C:\\t\\a",), ("C:\\t\\b",), ("C:\\t\\c",)]


# -- pipelines ----------------------------------------------------------------------------------


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "command",
    [r"'C:\t\a' | Remove-Item", r"'C:\t\a' > C:\t\out.txt | Remove-Item"],
    ids=["expression", "redirected-expression"],
)
def test_a_command_piped_from_an_expression_knows_it_has_input(command: str) -> None:
    """S-RULE-13: a command fed by an expression (redirected or not) records input from "", not None."""
    (remove,) = [op for op in analysis(command).operations if op.name == "remove-item"]
    assert remove.input_from == ""


@requirement("S-RULE-13")
def test_the_value_of_a_redirected_expression_is_unknown() -> None:
    """S-RULE-13: `$v = 'x' > file` leaves `$v` unknown (the output went to the file), never `$null`."""
    assert args_of(r"$v = ('C:\t\a' > C:\t\o.txt); Remove-Item $v", "remove-item") == [(None,)]


# -- error recovery -----------------------------------------------------------------------------


@requirement("S-RULE-13")
def test_the_code_after_a_recovered_command_in_a_broken_text_is_walked() -> None:
    """S-RULE-13: in `Get-Item C:\\x | %{ Remove-Item …` (no closing brace) both commands are read."""
    assert calls(r"Get-Item C:\x | %{ Remove-Item C:\t\q") == [
        ("get-item", (), ("C:\\x",)),
        ("remove-item", (), ("C:\\t\\q",)),
    ]


# The grammar breaks on `$env:TEMP\x` (a variable glued to a path) and on an unclosed `}`: the broken
# command is re-read from its text, word by word, as PowerShell's argument mode reads it.


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            r"Remove-Item $env:TEMP\x -Recurse; }",
            [("remove-item", (("recurse", "true"),), ("$env:TEMP\\x",))],
        ),
        # A two-letter parameter is a parameter; a lone `-` is an argument.
        (r"Remove-Item $env:TEMP\x -r ; }", [("remove-item", (("recurse", "true"),), ("$env:TEMP\\x",))]),
        (r"Remove-Item $env:TEMP\x - ; }", [("remove-item", (), ("$env:TEMP\\x", "-"))]),
        # The broken command is found where it starts, after a command the grammar read.
        (
            r"Get-Date; Remove-Item $env:TEMP\x -Recurse; }",
            [("get-date", (), ()), ("remove-item", (("recurse", "true"),), ("$env:TEMP\\x",))],
        ),
        # A constant splatted hashtable gives its parameters; the words after the splat are still read.
        (
            r"$p = @{Recurse = $true}; Remove-Item $env:TEMP\x @p -Force ; }",
            [("remove-item", (("recurse", "true"), ("force", "true")), ("$env:TEMP\\x",))],
        ),
        # A parameter that takes a value takes the argument after it.
        (
            r"Copy-Item $env:TEMP\x -Destination C:\t\d ; }",
            [("copy-item", (("destination", "C:\\t\\d"),), ("$env:TEMP\\x",))],
        ),
        # Words joined by a comma are one array: both items are the parameter's value.
        (
            r"Remove-Item -Path $env:TEMP\x,C:\t\b ; }",
            [("remove-item", (("path", "$env:TEMP\\x"), ("path", "C:\\t\\b")), ())],
        ),
        # A comma after a switch starts a new argument; it adds nothing to the switch.
        (
            r"Remove-Item $env:TEMP\x -Force ,C:\t\b ; }",
            [("remove-item", (("force", "true"),), ("$env:TEMP\\x", "C:\\t\\b"))],
        ),
        # `sc` followed by a service verb is the service control program, not Set-Content.
        (r"sc stop $env:TEMP\x ; }", [("sc", (), ("stop", "$env:TEMP\\x"))]),
        # The broken command ends at `|`: the script block after it is walked.
        (
            r"Get-Item $p\x|%{ Remove-Item C:\t\q",
            [("get-item", (), (None,)), ("remove-item", (), ("C:\\t\\q",))],
        ),
    ],
    ids=[
        "switch",
        "short-parameter",
        "lone-dash",
        "after-a-command",
        "splat",
        "parameter-value",
        "array",
        "comma-after-switch",
        "sc-verb",
        "pipe-into-block",
    ],
)
def test_a_command_the_grammar_broke_is_re_read_word_by_word(command: str, expected: object) -> None:
    """S-RULE-13: the recovered command's parameters, splats and arguments are those PowerShell binds."""
    assert calls(command) == expected


@requirement("S-RULE-14")
@pytest.mark.parametrize("splat", ["@p", "@p1"])
def test_a_splat_of_an_unknown_variable_in_a_recovered_command_is_dynamic(splat: str) -> None:
    """S-RULE-14: `@p` (a name, digits too) not set in the script is a splat that is not constant, and asks."""
    command = rf"Remove-Item $env:TEMP\x {splat} C:\t\b ; }}"
    result = analysis(command)
    assert [(op.name, op.args) for op in result.operations] == [("remove-item", ("$env:TEMP\\x", "C:\\t\\b"))]
    assert result.dynamic == (
        f"'Remove-Item $env:TEMP\\x {splat} C:\\t\\b' splats parameters ({splat}) that are not constant",
    )
    assert ps(command) == ("dynamic-command", "ask")


@requirement("S-RULE-44")
@pytest.mark.parametrize(
    ("word", "value"),
    [
        (r"C:\t\a'b'", "C:\\t\\ab"),  # a quoted part glued to a bare word: one argument, quotes removed
        (r'"C:\t\a""b"', 'C:\\t\\a"b'),  # `""` in a double-quoted string is one quote
        (r'"$env:TEMP\y"', "$env:TEMP\\y"),  # a variable in a double-quoted string: its spelling, for places.py
        ("Xcopy", "Xcopy"),  # a bare word is text, not a command to run
        ("$env:TEMP/y", "$env:TEMP/y"),  # a variable with a path after it: its spelling, not a division
        ("$true", "True"),  # an automatic variable: its value
    ],
    ids=["glued-quote", "doubled-quote", "expandable", "bare-word", "variable-path", "variable"],
)
def test_an_argument_of_a_recovered_command_is_read_as_powershell_quotes_it(word: str, value: str) -> None:
    """S-RULE-44: each word after the broken `$env:TEMP\\x` is one argument with PowerShell's quoting applied."""
    assert calls(rf"Remove-Item $env:TEMP\x {word} ; }}") == [("remove-item", (), ("$env:TEMP\\x", value))]


# -- the nesting limit ----------------------------------------------------------------------------
# The walker follows at most MAX_TREE_LEVEL (100) levels of the syntax tree, counting each level once
# on the way down and giving it back on the way up; the counts below are where that limit falls.


def _nested_ifs(levels: int) -> str:
    """`if ($a) { 1; if ($a) { 1; … Remove-Item C:\\t\\a } }`: each level has a statement before the next."""
    text = r"Remove-Item C:\t\a"
    for _ in range(levels):
        text = "if ($a) { 1; " + text + " }"
    return text


def _nested_blocks(levels: int) -> str:
    """`{ { … Remove-Item C:\\t\\a } }`: script blocks written inside each other."""
    return "{ " * levels + r"Remove-Item C:\t\a" + " }" * levels


def _nested_parentheses(levels: int) -> str:
    """`$x = ((…('C:\\t')…)); Remove-Item $x`: an expression in parentheses inside each other."""
    return "$x = " + "(" * levels + r"'C:\t'" + ")" * levels + r"; Remove-Item $x"


@requirement("S-RULE-21")
@pytest.mark.parametrize(
    ("deepest_read", "nested"),
    [(32, _nested_ifs), (32, _nested_blocks)],
    ids=["ifs-after-statements", "script-blocks"],
)
def test_statements_nested_past_the_limit_are_too_deeply_nested(
    deepest_read: int, nested: Callable[[int], str]
) -> None:
    """S-RULE-21: the deepest nesting still read gives its command; one level more fails as too deeply nested."""
    inside = analysis(nested(deepest_read))
    assert (inside.failed, [(op.name, op.args) for op in inside.operations]) == (None, [("remove-item", ("C:\\t\\a",))])
    beyond = analysis(nested(deepest_read + 1))
    assert (beyond.failed, beyond.operations) == ("too deeply nested", ())


@requirement("S-RULE-21")
def test_a_statement_after_many_siblings_does_not_count_them_as_nesting() -> None:
    """S-RULE-21: sixty `if` statements in a row are not nested: the command after them is read."""
    result = analysis("; ".join(["if ($a) { 1 }"] * 60) + r"; Remove-Item C:\t\a")
    assert (result.failed, [(op.name, op.args) for op in result.operations]) == (None, [("remove-item", ("C:\\t\\a",))])


@requirement("S-RULE-21")
def test_an_expression_nested_past_the_limit_is_unknown_and_too_deeply_nested() -> None:
    """S-RULE-21: 47 parentheses fold to their value; at 48 it is unknown (never `$null`) and the analysis fails."""
    inside = analysis(_nested_parentheses(47))
    assert (inside.failed, [op.args for op in inside.operations]) == (None, [("C:\\t",)])
    beyond = analysis(_nested_parentheses(48))
    assert (beyond.failed, [op.args for op in beyond.operations]) == ("too deeply nested", [(None,)])


# -- invoked script blocks and functions ---------------------------------------------------------


@requirement("S-RULE-13")
def test_a_function_assigns_in_its_own_scope() -> None:
    """S-RULE-13: `$p = 'x'` inside a called function does not change the caller's `$p`."""
    assert args_of(r"$p = 'C:\t'; function f { $p = 'C:\x' }; f; Get-ChildItem $p", "get-childitem") == [("C:\\t",)]


@requirement("S-RULE-13")
def test_a_function_that_calls_itself_is_walked_once_and_raises_no_question() -> None:
    """S-RULE-13: a recursive call of a function already being walked is not followed again (no rewalk limit hit)."""
    result = analysis("function f { Get-Date; f }; f")
    assert ([op.name for op in result.operations], result.dynamic, result.failed) == (["get-date", "f"], (), None)


@requirement("S-RULE-13")
def test_a_block_invoked_from_an_invoked_block_sees_the_variables_of_that_time() -> None:
    """S-RULE-13: `& $a` runs `& $b` again, with `$t` as changed after both blocks were written."""
    command = r"$t = 'C:\t'; $b = { Remove-Item $t -Recurse }; $a = { & $b }; $t = 'C:\Windows\System32'; & $a"
    assert args_of(command, "remove-item") == [("C:\\t",), ("C:\\Windows\\System32",)]
    assert ps(command) == ("protected-place-delete", "deny")


# -- assignments to the session drives ------------------------------------------------------------


@requirement("S-RULE-94")
def test_a_function_body_assigned_from_an_unknown_value_asks_and_quotes_the_assignment() -> None:
    """S-RULE-94: `$function:f = $x` is a body that is not constant; the question quotes the assignment."""
    result = analysis("$function:f = $x; f")
    assert result.dynamic == ("'$function:f = $x' defines a function whose body is not constant",)
    assert ps("$function:f = $x; f") == ("dynamic-command", "ask")


@requirement("S-RULE-94")
def test_an_alias_assigned_through_a_scoped_drive_path_names_its_command() -> None:
    """S-RULE-94: `${alias:global:a} = 'Remove-Item'` makes `a` Remove-Item (any scope), not a function body."""
    command = r"${alias:global:a} = 'Remove-Item'; a C:\Windows\System32 -Recurse"
    assert [(op.name, op.params, op.args, op.depth) for op in analysis(command).operations] == [
        ("remove-item", (("recurse", "true"),), ("C:\\Windows\\System32",), 0)
    ]
    assert ps(command) == ("protected-place-delete", "deny")
