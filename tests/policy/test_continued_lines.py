"""A line a console does not run yet (S-RULE-146): what the next call types completes it.

PowerShell shows `>>` after `Remove-Item `` and waits; cmd asks `More?` after a trailing caret; a Linux shell waits
after a trailing backslash. The command that runs is the lines together, so they are judged together.
"""

from __future__ import annotations

import pytest

from policy.context import SessionView
from policy.observation import Observation
from policy.rules.keyboard import continues, unentered_after
from policy.typed import typed_hit
from tests._requirements import requirement
from tests.policy.test_typed import RULES, T0, call, capture_of, context, focus_point


def typed_in_turn(scenario: str, texts: list[str]) -> list[tuple[str, str] | None]:
    """Each text typed with Enter by a call of its own, the console keeping what the calls before left in it."""
    capture = capture_of(scenario)
    loc = focus_point(capture)
    held, verdicts = "", []
    for text in texts:
        obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture)
        view = SessionView(session="s1", observations={"obs-1": obs}, latest_id="obs-1", generation=1, unentered=held)
        args = {"text": text, "loc": loc, "press_enter": True}
        hit = typed_hit(call("Type", **args), context(view, rules=RULES))
        verdicts.append(None if hit is None else (hit.rule_id, hit.action))
        held = unentered_after(held, "Type", args)
    return verdicts


@requirement("S-RULE-146")
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd", "windows-terminal"])
@pytest.mark.parametrize(
    "texts",
    [
        ["Remove-Item `", "C:\\Users -Recurse -Force"],
        ["foreach ($d in 'C:\\Users') {", "Remove-Item $d -Recurse -Force", "}"],
        ["Get-ChildItem C:\\Windows\\System32\\hal.dll |", "Remove-Item -Force"],
    ],
)
def test_the_line_that_completes_a_continued_one_is_judged_with_it(scenario: str, texts: list[str]) -> None:
    """S-RULE-146: the last call's line is the delete the lines make together (the first ask for their own reasons,
    which a person might approve)."""
    last = typed_in_turn(scenario, texts)[-1]
    assert last is not None and last[1] == "deny", last


@requirement("S-RULE-146")
def test_a_complete_line_leaves_nothing_behind() -> None:
    """S-RULE-146: after a complete line, or once the continued lines are complete, the next line stands alone."""
    assert typed_in_turn("console-powershell", ["cd C:\\t", "dir"]) == [None, None]
    assert typed_in_turn("console-cmd", ["echo don't", "dir"]) == [None, None]
    held = unentered_after("", "Type", {"text": "Remove-Item `", "press_enter": True})
    assert held == "Remove-Item `\n"
    assert unentered_after(held, "Type", {"text": "C:\\t\\old.txt", "press_enter": True}) == ""
    assert unentered_after(held, "Type", {"text": "C:\\t\\x"}) == "Remove-Item `\nC:\\t\\x"


@requirement("S-RULE-146")
@pytest.mark.parametrize(
    ("text", "waits"),
    [
        ("Remove-Item `", True),
        ("rd /s /q ^", True),
        ("rm -rf \\", True),
        ("Get-Process |", True),
        ("Get-Process | ", True),
        ("foreach ($x in 1..3) {", True),
        ("Write-Output (", True),
        ("$s = @'", True),
        ('$s = @"\nx', True),
        ("$s = @'\nx\n'@", False),
        ("if ($a) { 'b' }", False),
        ("Write-Output '{'", False),  # a brace in a string opens nothing
        ("echo don't", False),  # a quote left open: cmd runs it
        ("dir", False),
        ("", False),
    ],
)
def test_what_makes_a_console_wait(text: str, waits: bool) -> None:
    """S-RULE-146: a continuation mark at the end, an open here-string or block; not a quote or a closed block."""
    assert continues(text) is waits
