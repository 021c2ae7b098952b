"""A line the gateway can no longer follow: Enter there asks a person (S-RULE-60).

A console runs its line when Enter comes, and keys other than typing change that line in ways the
gateway cannot see: Tab completes `Stop-Comp` to `Stop-Computer`, Backspace turns `Remove-Itemx`
into `Remove-Item`, Up recalls history, a click moves the caret in a Run box. Each row replays a
sequence of calls the way the gateway does — judge the call (`typed_hit`), then, if it went
through, follow the line (`unentered_after`, `line_known_after`) — on the simulator's Snapshot of
the place, with the real built-in rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from policy.context import SessionView
from policy.observation import Observation
from policy.rules.keyboard import is_paste_chord, line_known_after, unentered_after
from policy.rules.uia_keys import key_events
from policy.typed import UNKNOWN_LINE_RULE, typed_hit
from tests._requirements import requirement
from tests.policy._world import T0, call, context
from tests.policy.test_typed import RULES, capture_of, focus_point

Step = tuple[str, dict[str, Any]]


def replay(scenario: str, steps: list[Step], clipboard: str | None = None) -> list[tuple[str, str] | None]:
    """Each step's hit (rule id, action), or None where it went through; a refused step changes nothing."""
    capture = capture_of(scenario)
    loc = focus_point(capture)
    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture)
    line, known, out = "", True, []
    for tool, raw in steps:
        args = {**raw, "loc": loc} if raw.pop("at_focus", False) else raw
        view = SessionView(
            session="s1",
            observations={"obs-1": obs},
            latest_id="obs-1",
            generation=1,
            clipboard=clipboard,
            unentered=line,
            line_known=known,
        )
        hit = typed_hit(call(tool, **args), context(view, rules=RULES))
        out.append(None if hit is None else (hit.rule_id, hit.action))
        if hit is None:
            paste = is_paste_chord(tool, args)
            pasted = clipboard if paste else None
            known = line_known_after(known, line, tool, args, paste=paste, pasted=pasted)
            line = unentered_after(line, tool, args, pasted)
    return out


def key(chord: str) -> Step:
    return ("Shortcut", {"shortcut": chord})


def typed(text: str, **more: Any) -> Step:
    return ("Type", {"text": text, "at_focus": True, **more})


ASK = (UNKNOWN_LINE_RULE, "ask")


@requirement("S-RULE-60")
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd", "windows-terminal"])
@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        # Tab completes `Stop-Comp` to `Stop-Computer`; the Enter key runs it
        ([typed("Stop-Comp"), key("tab"), key("enter")], [None, None, ASK]),
        # ... or the rest of the command is typed with Enter
        ([typed("Remove-It"), key("tab"), typed(" C:\\data -Recurse -Force", press_enter=True)], [None, None, ASK]),
        # Backspace makes a command of a harmless word
        ([typed("Stop-Computerx"), key("backspace"), key("enter")], [None, None, ASK]),
        # history: Up recalls a line, Enter runs it
        ([key("up"), key("enter")], [None, ASK]),
        ([typed("x"), key("ctrl+r"), key("return")], [None, None, ASK]),
    ],
    ids=["tab-then-enter-key", "tab-then-typed-enter", "backspace", "history-up", "history-search"],
)
def test_enter_after_keys_the_gateway_cannot_follow_asks(
    scenario: str, steps: list[Step], expected: list[tuple[str, str] | None]
) -> None:
    """S-RULE-60: after Tab, Backspace, Up or Ctrl+R in a console, the Enter that runs the line asks a person."""
    assert replay(scenario, [(t, dict(a)) for t, a in steps]) == expected


@requirement("S-RULE-60")
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd"])
def test_a_letter_typed_with_shortcut_joins_the_line_it_completes(scenario: str) -> None:
    """S-RULE-60: `Stop-Compute` typed, then Shortcut `r`, is the line `Stop-Computer`: refused as that
    when the letter is pressed (text without Enter is judged: a later Enter runs it)."""
    assert replay(scenario, [typed("Stop-Compute"), key("r")]) == [None, ("shutdown-restart", "deny")]


@requirement("S-RULE-60")
def test_text_typed_at_the_start_of_the_line_is_judged_in_front_of_it() -> None:
    """S-RULE-60: `caret_position=start` puts `Remove-Item ` in front of `C:\\data -Recurse -Force` typed earlier."""
    got = replay(
        "console-powershell",
        [typed("C:\\data -Recurse -Force"), typed("Remove-Item ", caret_position="start", press_enter=True)],
    )
    assert got == [None, ("recursive-delete", "deny")]


@requirement("S-RULE-60")
@pytest.mark.parametrize("scenario", ["run-box", "explorer-address"])
def test_a_click_into_a_field_that_holds_text_may_put_the_caret_anywhere(scenario: str) -> None:
    """S-RULE-60: in a Run box, `cmd /c rd ` clicked in front of `C:\\data /s /q` typed earlier cannot be placed."""
    got = replay(scenario, [typed("C:\\data /s /q"), typed("cmd /c rd ", press_enter=True)])
    assert got == [None, ASK]


@requirement("S-RULE-60")
def test_an_enter_in_a_paste_after_keys_the_gateway_cannot_follow_asks() -> None:
    """S-RULE-60: a pasted line break is an Enter too."""
    got = replay("console-powershell", [typed("Stop-Comp"), key("tab"), key("ctrl+v")], clipboard="\r\n")
    assert got == [None, None, ASK]


@requirement("S-RULE-60")
@pytest.mark.parametrize(
    ("scenario", "steps"),
    [
        # the remedy: Esc empties the line, then the whole command again
        ("console-powershell", [key("tab"), key("esc"), typed("Get-ChildItem C:\\Users", press_enter=True)]),
        # Enter ends the line: what comes after it is known again
        ("console-powershell", [typed("Get-Date", press_enter=True), typed("Get-Location", press_enter=True)]),
        ("console-cmd", [key("esc"), typed("dir", press_enter=True)]),
        # keys that type letters, or change no line, keep the line known
        ("console-powershell", [key("l"), key("s"), key("space"), key("enter")]),
        ("run-box", [key("win+r"), typed("notepad", press_enter=True)]),
        ("browser-address", [key("ctrl+l"), typed("https://example.com/docs", press_enter=True)]),
        ("browser-address", [key("alt+tab"), key("ctrl+c"), key("f5"), typed("https://example.com", press_enter=True)]),
        # Tab in a form, then Enter in a text field that runs nothing
        ("notepad", [key("tab"), typed("dear diary", press_enter=True)]),
        # a click that moves the caret in an empty field, and MultiEdit (each item cleared)
        ("run-box", [typed("notepad", press_enter=True), typed("calc", press_enter=True)]),
        ("console-powershell", [key("tab"), ("MultiEdit", {"locs": [[850, 62, "Get-Date"]]}), key("enter")]),
    ],
    ids=[
        "remedy-clear",
        "after-enter",
        "after-esc",
        "letter-keys",
        "win-r",
        "ctrl-l",
        "no-line-keys",
        "notepad",
        "empty-field",
        "multiedit",
    ],
)
def test_ordinary_typing_and_the_remedy_go_through(scenario: str, steps: list[Step]) -> None:
    """S-RULE-60: the line stays known through typing, Enter, Esc, letters, and chords that change no line."""
    assert replay(scenario, [(t, dict(a)) for t, a in steps]) == [None] * len(steps)


@requirement("S-RULE-60")
def test_the_ask_says_why_and_its_remedy_is_itself_allowed() -> None:
    """S-RULE-60: the reason names the keys and the remedy (Esc, then the whole command with press_enter),
    which is allowed for an ordinary command (issue 18 item 5)."""
    capture = capture_of("console-powershell")
    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture)
    view = SessionView(
        session="s1", observations={"obs-1": obs}, latest_id="obs-1", generation=1, unentered="x", line_known=False
    )
    hit = typed_hit(call("Shortcut", shortcut="enter"), context(view, rules=RULES))
    assert hit is not None and hit.rule_id == UNKNOWN_LINE_RULE and hit.action == "ask"
    assert "Tab completion" in hit.reason and "press Esc" in hit.reason
    assert typed_hit(call("Shortcut", shortcut="esc"), context(view, rules=RULES)) is None
    after_esc = SessionView(session="s1", observations={"obs-1": obs}, latest_id="obs-1", generation=1)
    remedy = call("Type", text="Get-Date", press_enter=True, loc=focus_point(capture))
    assert typed_hit(remedy, context(after_esc, rules=RULES)) is None


@requirement("S-RULE-60")
@pytest.mark.parametrize(
    ("chord", "text"),
    [
        ("a", "a"),
        ("shift+a", "A"),
        ("Shift + Q", "Q"),
        ("7", "7"),
        ("space", " "),
        ("a+b", "ab"),  # Windows-MCP types each one-character key: "ab"
        ("shift+7", None),  # a symbol that depends on the keyboard layout
        ("ctrl+a", None),
        ("alt+d", None),
        ("win+e", None),
        ("tab", None),
        ("", None),
    ],
)
def test_what_text_a_shortcut_types(chord: str, text: str | None) -> None:
    """S-RULE-60: letters (Shift: upper case), digits, space, and every one-character key in a row; nothing
    when a modifier other than Shift is held or the key is a named one."""
    typed = "".join(e.text for e in key_events(chord) if e.kind == "text")
    assert typed == (text or "")
    if text is None:
        assert all(e.kind != "text" for e in key_events(chord))


@requirement("S-RULE-60")
@pytest.mark.parametrize(
    ("known", "line", "tool", "args", "paste", "pasted", "after"),
    [
        (True, "Stop-Comp", "Shortcut", {"shortcut": "tab"}, False, None, False),
        (True, "", "Shortcut", {"shortcut": "backspace"}, False, None, False),
        (True, "", "Shortcut", {"shortcut": "ctrl+z"}, False, None, False),  # undo in PSReadLine
        (True, "", "Shortcut", {"shortcut": "f7"}, False, None, False),  # cmd's history list
        (False, "x", "Shortcut", {"shortcut": "Return"}, False, None, True),
        (False, "x", "Shortcut", {"shortcut": "escape"}, False, None, True),
        (True, "x", "Shortcut", {"shortcut": "win+r"}, False, None, True),
        (True, "x", "Shortcut", {"shortcut": "pagedown"}, False, None, True),
        (False, "x", "Shortcut", {"shortcut": "pagedown"}, False, None, False),
        (True, "x", "Shortcut", {"shortcut": "ctrl+v"}, True, None, False),  # unknown clipboard
        (True, "x", "Shortcut", {"shortcut": "ctrl+v"}, True, "dir", True),
        (False, "x", "Shortcut", {"shortcut": "ctrl+v"}, True, "dir", False),
        (False, "x", "Shortcut", {"shortcut": "ctrl+v"}, True, "dir\ncls", True),
        (False, "x", "Type", {"text": "y", "clear": True}, False, None, False),  # Ctrl+A, Backspace: cmd keeps it
        (False, "x", "Type", {"text": "y", "press_enter": "true"}, False, None, True),
        (False, "x", "Type", {"text": "y\n"}, False, None, True),
        (False, "x", "Type", {"text": "y"}, False, None, False),
        (True, "x", "Type", {"text": "y", "loc": [1, 2]}, False, None, False),
        (True, "x", "Type", {"text": "y", "label": 3}, False, None, False),
        (True, "x", "Type", {"text": "y", "loc": [1, 2], "caret_position": "end"}, False, None, True),
        (True, "", "Type", {"text": "y", "loc": [1, 2]}, False, None, True),
        (False, "x", "MultiEdit", {"locs": [[1, 2, "y"]]}, False, None, True),
        (False, "x", "Click", {"loc": [1, 2]}, False, None, False),
        (True, "x", "PowerShell", {"command": "Get-Date"}, False, None, True),
    ],
)
def test_what_keeps_a_line_known_and_what_does_not(
    known: bool, line: str, tool: str, args: dict[str, Any], paste: bool, pasted: str | None, after: bool
) -> None:
    """S-RULE-60: Enter, Esc and MultiEdit start a known line (`clear` does not: a Command Prompt keeps its line);
    unfollowable keys, an unknown paste and a click into a field that holds text lose it; other calls keep it."""
    assert line_known_after(known, line, tool, args, paste=paste, pasted=pasted) is after


@requirement("S-RULE-60")
def test_a_command_refused_on_its_own_is_still_refused_on_a_line_the_gateway_lost() -> None:
    """S-RULE-60: the unknown line only asks where nothing worse is known: a recursive delete stays denied."""
    got = replay("console-powershell", [key("tab"), typed("Remove-Item -Recurse -Force C:\\data", press_enter=True)])
    assert got == [None, ("recursive-delete", "deny")]


def ok_button(scenario: str) -> list[int]:
    found = [e.point for e in capture_of(scenario).elements if e.control == "button" and e.name == "OK"]
    assert found and found[0] is not None
    return list(found[0])


def ok_label(scenario: str) -> int:
    from policy.labels import label_table

    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture_of(scenario))
    point = tuple(ok_button(scenario))
    rows = label_table(obs, use_dom=False).rows
    return next(i for i, row in enumerate(rows) if any(c.point == point for c in row.candidates))


@requirement("S-RULE-60")
@pytest.mark.parametrize("scenario", ["run-box", "taskmgr-run"])
def test_ok_in_a_run_box_is_its_enter(scenario: str) -> None:
    """S-RULE-60: after a key the gateway cannot follow, a click on the Run box's OK (by point or by label) asks;
    on a line it knows, OK goes through (the line was judged as it was typed); Cancel never asks."""
    ok, label = ok_button(scenario), ok_label(scenario)
    cancel = [list(e.point) for e in capture_of(scenario).elements if e.name == "Cancel" and e.point][0]
    lost = [typed("shutdo"), key("down")]
    assert replay(scenario, [*lost, ("Click", {"loc": ok})]) == [None, None, ASK]
    assert replay(scenario, [*lost, ("Click", {"label": label})]) == [None, None, ASK]
    assert replay(scenario, [*lost, ("Click", {"loc": cancel})]) == [None, None, None]
    assert replay(scenario, [typed("notepad"), ("Click", {"loc": ok})]) == [None, None]
    assert replay(scenario, [*lost, ("Click", {"loc": ok, "button": "right"})])[2] != ASK


@requirement("S-RULE-60")
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd"])
@pytest.mark.parametrize(
    "steps",
    [
        [typed("Stop-Comp\t", press_enter=True)],  # upstream types "\t" as the Tab key: completion
        [typed("Stop-Comp\t\n")],
        [typed("Stop-Comp\t"), key("enter")],
        [typed("Stop-Comp\t"), typed("", press_enter=True)],
        [typed("Stop-Computerx\b\n")],  # a control character typed as a key
        [typed("x", clear=True), typed("Stop-Comp\t", clear=True, press_enter=True)],
        [key("win+v"), key("enter")],  # the clipboard history pastes an item the gateway never saw
    ],
    ids=[
        "tab-enter",
        "tab-newline",
        "tab-then-enter-key",
        "tab-then-typed-enter",
        "backspace-char",
        "cleared",
        "win-v",
    ],
)
def test_a_tab_or_control_key_typed_as_text_loses_the_line(scenario: str, steps: list[Step]) -> None:
    """S-RULE-60: Windows-MCP types `\\t` as the Tab key (completion) and other control characters as keys:
    the Enter that runs such a line asks, in the same call or a later one; so does Enter after Win+V."""
    got = replay(scenario, [(t, dict(a)) for t, a in steps])
    assert got[-1] == ASK and all(g is None for g in got[:-1]), got


@requirement("S-RULE-60")
def test_a_tab_in_a_document_or_on_a_line_not_run_changes_nothing() -> None:
    """S-RULE-60: a Tab typed into Notepad is text; a Tab on a line ended by Enter before it does not reach the next."""
    assert replay("notepad", [typed("a\tb", press_enter=True)]) == [None]
    assert replay("console-powershell", [typed("Get-Date\n"), typed("Get-Location", press_enter=True)]) == [None, None]


@requirement("S-RULE-29")
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd"])
def test_multiedit_into_a_console_completes_the_line_typed_before(scenario: str) -> None:
    """S-RULE-29: MultiEdit types each item after Ctrl+A and Backspace, which a Command Prompt keeps its line
    through (as Type's `clear`): `r` typed, then MultiEdit `d /s /q C:\\Users⏎` is the delete of `C:\\Users`."""
    point = list(focus_point(capture_of(scenario)))
    steps: list[Step] = [typed("r"), ("MultiEdit", {"locs": [[*point, "d /s /q C:\\Users\n"]]})]
    assert replay(scenario, steps) == [None, ("recursive-delete", "deny")]
    assert replay(scenario, [typed("r"), ("MultiEdit", {"locs": [[*point, "d notes\n"]]})]) == [None, None]
