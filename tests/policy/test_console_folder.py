"""A console keeps its current folder between calls (S-RULE-120).

`cd C:\\Windows\\System32` entered by one Type call, then `del hal.dll` entered by the next, deletes a system
file, though the second call names no protected path. The gateway keeps the folder changes entered
(`keyboard.console_moves_after`) and judges the next typed command with them in front.
"""

from __future__ import annotations

from typing import Any

import pytest

from policy.context import SessionView
from policy.observation import Observation
from policy.rules.keyboard import UNKNOWN_FOLDER, console_moves_after, location_statements
from policy.typed import typed_hit
from tests._requirements import requirement
from tests.policy._world import T0, call, context
from tests.policy.test_typed import RULES, capture_of, focus_point


def typed_after(moves: tuple[str, ...], text: str, scenario: str = "console-powershell") -> tuple[str, str] | None:
    capture = capture_of(scenario)
    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture)
    view = SessionView(session="s1", observations={"obs-1": obs}, latest_id="obs-1", generation=1, console_moves=moves)
    args: dict[str, Any] = {"text": text, "loc": focus_point(capture), "press_enter": True}
    hit = typed_hit(call("Type", **args), context(view, rules=RULES))
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-120")
@pytest.mark.parametrize(
    ("args", "before", "after"),
    [
        ({"text": "cd C:\\Windows\\System32", "press_enter": True}, (), ("C:\\Windows\\System32",)),
        ({"text": "cd /d C:\\Windows\n"}, (), ("C:\\Windows",)),
        ({"text": "Set-Location -Path 'C:\\Program Files'; dir", "press_enter": True}, (), ("'C:\\Program Files'",)),
        ({"text": "pushd System32", "press_enter": True}, ("C:\\Windows",), ("C:\\Windows", "System32")),
        ({"text": "popd", "press_enter": True}, ("C:\\x",), ("C:\\x", UNKNOWN_FOLDER)),
        ({"text": "cd C:\\Windows"}, (), ()),  # not entered yet: nothing moved
        ({"text": "Write-Output 'cd C:\\x'", "press_enter": True}, (), ()),
    ],
)
def test_the_folder_changes_a_call_enters_are_kept(
    args: dict[str, Any], before: tuple[str, ...], after: tuple[str, ...]
) -> None:
    """S-RULE-120: `cd`, `cd /d`, `Set-Location -Path`, `pushd` are kept as written, only once entered; `popd`
    makes the folder unknown."""
    assert console_moves_after(before, "", "Type", args) == after


@requirement("S-RULE-120")
def test_a_shortcut_enter_ends_the_line_typed_before_it() -> None:
    """S-RULE-120: `cd C:\\Windows` typed without Enter, then the `enter` chord, moves the console."""
    assert console_moves_after((), "cd C:\\Windows", "Shortcut", {"shortcut": "enter"}) == ("C:\\Windows",)


@requirement("S-RULE-120")
@pytest.mark.parametrize(
    ("moves", "text", "expected"),
    [
        (("C:\\Windows\\System32",), "del hal.dll", ("protected-place-delete", "deny")),
        (("C:\\Windows", "System32"), "Remove-Item hal.dll", ("protected-place-delete", "deny")),
        (("C:\\Program Files",), "Set-Content App\\x.dll x", ("protected-place-write", "deny")),
        ((UNKNOWN_FOLDER,), "Remove-Item hal.dll", ("dynamic-command", "ask")),
        (("%windir%\\System32",), "del hal.dll", ("protected-place-delete", "deny")),  # cmd's variable
        (("C:\\Windows\\System32", "C:\\src"), "del hal.dll", None),  # an absolute cd moved it on
        (("C:\\src\\app",), "del build.log", None),
        ((), "del hal.dll", None),
    ],
)
def test_the_next_command_typed_is_judged_from_the_folder_the_console_is_in(
    moves: tuple[str, ...], text: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-120: a relative path reaches System32 or Program Files after an earlier `cd`; an unknown folder asks."""
    assert typed_after(moves, text) == expected


@requirement("S-RULE-120")
def test_the_folder_changes_are_written_as_powershell_reads_them() -> None:
    """S-RULE-120: quoted whole (cmd's `cd C:\\Program Files` needs no quotes), `%VAR%` as `$env:VAR`, an unknown
    folder as a variable nobody set."""
    assert location_statements(["C:\\Program Files", "%windir%", "'C:\\x'", "it's", UNKNOWN_FOLDER]) == (
        "Set-Location 'C:\\Program Files'; Set-Location \"$env:windir\"; Set-Location 'C:\\x'; "
        "Set-Location 'it''s'; Set-Location $__unknown_folder; "
    )


@requirement("S-RULE-120")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Set-Location $x; Remove-Item hal.dll", ("dynamic-command", "ask")),
        ("Set-Location $x; Set-Content notes.txt hi", ("dynamic-command", "ask")),
        ("Set-Location $x; Remove-Item C:\\t\\a.txt", None),  # an absolute path does not depend on it
        ("Set-Location $x; Get-ChildItem", None),
        ("Set-Location $x; Set-Location C:\\src; Remove-Item build.log", None),
    ],
)
def test_a_location_that_is_not_constant_makes_relative_changes_ask(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-120: in the PowerShell tool too, a relative path changed after `Set-Location $x` is nowhere known."""
    hit = RULES.match("PowerShell", {"command": command})
    assert (None if hit is None else (hit.rule_id, hit.action)) == expected
