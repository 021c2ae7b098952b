"""The statement walker's control flow and variables, pinned by value (issue 12: surviving mutants of `ps_walk`).

Each row is what the analyser reads from a short script: the arguments an operation gets, its depth,
or the verdict. A value the walker cannot know reads as None (`UNKNOWN`), and is never taken for `$null`
(an empty string): `"$p\\sub"` with `$p` unknown is unknown, not `\\sub`.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.powershell import analyse_powershell, clear_analysis_cache
from tests._requirements import requirement
from tests.policy.verdicts import args_of, ps


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # A compound assignment folds: `+=` appends to the value before, any other one is unknown.
        (r"$p = 'C:\t\'; $p += 'x'; Get-ChildItem $p", [("C:\\t\\x",)]),
        (r"""$n = 'C:\t'; $n *= 2; Get-ChildItem "$n\sub" """, [(None,)]),
        (r"$q += 'x'; Get-ChildItem $q", [(None,)]),  # unknown before: unknown after
        # A variable changed in a branch, or in a loop body, is not constant after it (or inside the loop).
        (r"""$p = 'C:\t'; if ($a) { $p = 'C:\x' }; Get-ChildItem "$p\sub" """, [(None,)]),
        (r"$p = 'C:\t'; if ($a) { 1 } else { $p = 'C:\x' }; Get-ChildItem $p", [(None,)]),
        (r"""$p = 'C:\t'; if ($a) { Set-Variable -Name $n -Value 1 }; Get-ChildItem "$p\sub" """, [(None,)]),
        (r"""$p = 'C:\t'; foreach ($i in 1) { Get-ChildItem "$p\sub"; $p = 'C:\x' } """, [(None,)]),
        (r"""function f { Get-ChildItem "$p\sub"; $p = 'x' } """, [(None,)]),
        (r"$p = 'C:\t'; if ($a) { 1 }; Get-ChildItem $p", [("C:\\t",)]),  # unchanged in the branch: constant
    ],
    ids=["append", "multiply", "append-unknown", "if", "else", "set-variable", "loop", "function", "unchanged"],
)
def test_assignments_branches_and_loops_fold_as_powershell_runs_them(command: str, expected: object) -> None:
    """S-RULE-13: what a variable holds after `+=`, a branch or a loop, and that unknown is never `$null`."""
    assert args_of(command, "get-childitem") == expected


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("count", "unrolled"),
    [(8, True), (9, False)],
)
def test_a_foreach_over_up_to_eight_known_items_is_unrolled(count: int, unrolled: bool) -> None:
    """S-RULE-13: each of up to eight constant items is its own operation; more make the loop variable unknown."""
    items = ",".join(str(i) for i in range(1, count + 1))
    found = args_of(f'foreach ($i in {items}) {{ Remove-Item "C:\\t\\$i" }}', "remove-item")
    expected = [(f"C:\\t\\{i}",) for i in range(1, count + 1)] if unrolled else [(None,)]
    assert found == expected


@requirement("S-RULE-13")
def test_a_foreach_over_items_one_of_them_unknown_is_not_unrolled() -> None:
    """S-RULE-13: `foreach ($f in 'a', $x)`: the loop variable is unknown, not each known item in turn."""
    assert args_of(r"foreach ($f in 'C:\t\a', $x) { Remove-Item $f }", "remove-item") == [(None,)]


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("'Get-Date' | iex", None),  # constant text piped into iex: no environment variable read
        (r"'Remove-Item C:\Windows\System32 -Recurse' | Invoke-Expression", ("protected-place-delete", "deny")),
        (r"foreach ($i in 1,2) { $i; Remove-Item C:\Windows\System32 -Recurse }", ("protected-place-delete", "deny")),
        ("if ($a) { 1 } elseif ($p) { 2 }; Get-Date", None),
        (
            r"$t = 'C:\t'; $b = { Remove-Item $t -Recurse }; $t = 'C:\Windows\System32'; $a = { & $b }; & $a",
            ("protected-place-delete", "deny"),
        ),
        (
            r"iex 'function f { Remove-Item $t -Recurse -Force }'; $t = 'C:\Windows\System32'; f",
            ("protected-place-delete", "deny"),
        ),
    ],
    ids=["piped-iex", "piped-iex-delete", "loop-statement", "elseif", "nested-blocks", "function-from-text"],
)
def test_piped_text_loops_and_invoked_blocks_are_judged(command: str, expected: object) -> None:
    """S-RULE-13: text piped to iex runs; a loop body runs on past a bare `$i`; a block runs with today's values."""
    assert ps(command) == expected


@requirement("S-RULE-13")
def test_a_command_after_analysed_text_is_back_at_the_outer_depth() -> None:
    """S-RULE-13: `iex 'Get-Date'` is read one level deeper; the command after it is at depth 0 again."""
    clear_analysis_cache()
    operations = analyse_powershell(r"iex 'Get-Date'; Remove-Item C:\t\x").operations
    assert [(op.name, op.depth) for op in operations if op.name != "invoke-expression"] == [
        ("get-date", 1),
        ("remove-item", 0),
    ]
