"""Pastes and right clicks into places that run text, in detail (S-RULE-12); found by mutation testing.

A right click pastes only where it lands in a console, so its `loc` and `label` must be read as the
model gave them; a paste the gateway cannot read asks with a fixed explanation; and the reason says
whether the pasted text runs at once (it holds a line break) or waits for a later Enter.
"""

from __future__ import annotations

from typing import Any

import pytest

from policy.context import SessionView
from policy.decision import RuleHit
from policy.observation import Capture, Element, Observation, Window
from policy.rules.match import load_rules
from policy.typed import typed_hit
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, T0, call, context
from tests.policy.test_typed import capture_of, focus_point

RULES = load_rules()
DANGEROUS = "Remove-Item -Recurse -Force C:\\data"
CONSOLE = Window(name="Windows PowerShell", depth=3, status="Normal", width=1100, height=640, handle=77)
CONSOLE_TEXT = (741, 452)

# Notepad has the focus; a PowerShell console is open behind it. A right click pastes only if it
# lands on the console's text area.
BEHIND: tuple[Element, ...] = (
    Element(kind="window", control="window", name=NOTEPAD.name, window=NOTEPAD.name),
    Element(
        kind="element",
        control="document",
        name="Text editor",
        point=(300, 300),
        depth=1,
        window=NOTEPAD.name,
        flags=frozenset({"focused"}),
    ),
    Element(kind="window", control="window", name=CONSOLE.name, window=CONSOLE.name),
    Element(kind="element", control="document", name="Text Area", point=CONSOLE_TEXT, depth=1, window=CONSOLE.name),
)


def _hit(capture: Capture, tool: str, clipboard: str | None, **args: Any) -> RuleHit | None:
    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture)
    view = SessionView(session="s1", observations={"obs-1": obs}, latest_id="obs-1", generation=1, clipboard=clipboard)
    return typed_hit(call(tool, **args), context(view, rules=RULES))


def _behind(clipboard: str | None = DANGEROUS, **args: Any) -> tuple[str, str] | None:
    hit = _hit(Capture(tool="Snapshot", focused=NOTEPAD, tree="present", elements=BEHIND), "Click", clipboard, **args)
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"loc": list(CONSOLE_TEXT)}, ("recursive-delete", "deny")),
        ({"loc": [741.6, 452.2]}, ("recursive-delete", "deny")),  # a float point is the pixel it truncates to
        ({"loc": (*CONSOLE_TEXT, 1)}, ("recursive-delete", "deny")),  # extra items after x, y are ignored
        ({"loc": [452, 452]}, None),
        ({"loc": [300, 300]}, None),
        ({"loc": 741}, None),  # not a point: the focus decides (Notepad)
        ({"loc": ["x", "y"]}, None),
        ({}, None),
    ],
    ids=["on-console", "float", "triple", "swapped", "on-notepad", "int", "text", "no-loc"],
)
def test_a_right_click_pastes_into_the_console_only_where_its_point_lands(
    args: dict[str, Any], expected: tuple[str, str] | None
) -> None:
    """S-RULE-12: the right click's `loc` (x, y) is where it pastes; a console behind the focus counts there only."""
    assert _behind(button="right", **args) == expected


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("label", "expected"),
    [(1, ("recursive-delete", "deny")), (0, None), (True, None), ("1", None), (7, None)],
    ids=["console-label", "notepad-label", "bool", "string", "unplaced"],
)
def test_a_right_click_by_label_pastes_only_on_an_integer_label_of_the_console(
    label: object, expected: tuple[str, str] | None
) -> None:
    """S-RULE-12: a right click's label is an integer row of the label table; True or "1" is not a label."""
    assert _behind(button="right", label=label) == expected


@requirement("S-RULE-12")
def test_a_paste_into_a_security_prompt_with_an_unknown_clipboard_asks_why() -> None:
    """S-RULE-12: an unknown clipboard pasted into a UAC prompt asks, with the fixed unknown-paste explanation."""
    capture = capture_of("uac-prompt")
    hit = _hit(capture, "Shortcut", None, shortcut="ctrl+v")
    assert hit is not None
    assert (hit.rule_id, hit.action, hit.risk) == ("unknown-paste", "ask", "dynamic-command")
    assert hit.reason.startswith("this pastes into ") and hit.reason.endswith(
        ", which runs what it is given, and the gateway cannot know what the clipboard holds. "
        "Instead, type the command with Type, or set it with Clipboard first."
    )


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("clipboard", "runs"),
    [
        (DANGEROUS, "(a later Enter runs it)"),
        (DANGEROUS + "\n", "and run (Enter follows)"),
        (DANGEROUS + "\r", "and run (Enter follows)"),
    ],
    ids=["no-break", "newline", "carriage-return"],
)
def test_a_pasted_command_says_whether_its_line_break_runs_it(clipboard: str, runs: str) -> None:
    """S-RULE-12: pasted text holding a line break runs at once; without one a later Enter runs it."""
    capture = capture_of("console-powershell")
    hit = _hit(capture, "Click", clipboard, loc=focus_point(capture), button="right")
    assert hit is not None and hit.rule_id == "recursive-delete"
    assert f" {runs} is a command: " in hit.reason


def _behind_hit(tool: str, **args: Any) -> RuleHit | None:
    capture = Capture(tool="Snapshot", focused=NOTEPAD, tree="present", elements=BEHIND)
    return _hit(capture, tool, None, **args)


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"loc": list(CONSOLE_TEXT)}, "recursive-delete"),
        ({"loc": [300, 300]}, None),
        ({"label": 1}, "recursive-delete"),
        ({"label": 0}, None),
    ],
    ids=["loc-console", "loc-notepad", "label-console", "label-notepad"],
)
def test_typed_text_is_judged_where_its_loc_or_label_puts_it(args: dict[str, Any], expected: str | None) -> None:
    """S-RULE-12: Type's loc or label decides where the text lands: the console behind Notepad, or Notepad."""
    hit = _behind_hit("Type", text=DANGEROUS, **args)
    assert (None if hit is None else hit.rule_id) == expected


@requirement("S-RULE-12")
@pytest.mark.parametrize("label", [2, 7])
def test_a_label_the_observation_does_not_place_is_an_unknown_place_that_is_judged(label: int) -> None:
    """S-RULE-12: typing at a label past the table's end lands somewhere unknown, so the text is judged."""
    hit = _behind_hit("Type", text=DANGEROUS, label=label)
    assert hit is not None and hit.rule_id == "recursive-delete"
    assert hit.reason.startswith(f"text typed into label {label}, which obs-1 does not place (a later Enter runs it)")


@requirement("S-RULE-12")
def test_without_an_observation_typed_text_is_judged_as_going_to_an_unknown_place() -> None:
    """S-RULE-12: no observation to read the target from: the text is judged, and the reason says why."""
    view = SessionView(session="s1", observations={}, latest_id=None, generation=0)
    hit = typed_hit(call("Type", text=DANGEROUS, press_enter=True), context(view, rules=RULES))
    assert hit is not None and hit.reason.startswith(
        "text typed into an unknown place (no observation to read it from) and run (Enter follows) is a command: "
    )


@requirement("S-RULE-12")
@pytest.mark.parametrize(
    ("enter", "runs"),
    [(True, "and run (Enter follows)"), (False, "(a later Enter runs it)")],
    ids=["enter", "no-enter"],
)
def test_a_typed_command_says_whether_enter_runs_it(enter: bool, runs: str) -> None:
    """S-RULE-12: the reason says the text runs now (press_enter) or when a later Enter comes."""
    hit = _behind_hit("Type", text=DANGEROUS, loc=list(CONSOLE_TEXT), press_enter=enter)
    assert hit is not None
    assert hit.reason.startswith(f"text typed into the console window 'Windows PowerShell' {runs} is a command: ")


@requirement("S-RULE-12")
def test_of_several_typed_texts_the_one_a_rule_denies_wins_over_one_that_asks() -> None:
    """S-RULE-12: MultiEdit typing an asking and a denied command into the console: the deny is the answer."""
    asking = _behind_hit("Type", text="iex $payload", loc=list(CONSOLE_TEXT))
    assert asking is not None and asking.action == "ask"
    hit = _behind_hit("MultiEdit", locs=[[*CONSOLE_TEXT, "iex $payload"], [*CONSOLE_TEXT, DANGEROUS]])
    assert hit is not None and (hit.rule_id, hit.action) == ("recursive-delete", "deny")


@requirement("S-RULE-12")
def test_typing_into_a_security_prompt_asks_the_person_to_answer_it() -> None:
    """S-RULE-12: a UAC prompt: ask, risk credential-prompt, and the reason says to let the person answer."""
    capture = capture_of("uac-prompt")
    hit = _hit(capture, "Type", None, text="hunter2", loc=focus_point(capture))
    assert hit is not None and (hit.rule_id, hit.action, hit.risk) == ("credential-prompt", "ask", "credential-prompt")
    assert hit.reason.startswith("this would type into ") and hit.reason.endswith(
        ", a Windows security prompt. Instead, let the person answer the prompt themselves."
    )


def _decide_behind(rows: tuple[tuple[str, str, RuleHit], ...]) -> tuple[object, object]:
    from policy import PolicyConfig, decide
    from tests.policy._world import TableRules

    capture = Capture(tool="Snapshot", focused=NOTEPAD, tree="present", elements=BEHIND)
    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture)
    view = SessionView(session="s1", observations={"obs-1": obs}, latest_id="obs-1", generation=1)
    config = PolicyConfig(require_process_match=False)
    d = decide(
        call("Type", text=DANGEROUS, loc=list(CONSOLE_TEXT)),
        context(view, rules=TableRules(rows=rows), config=config),
        T0,
    )
    return d.code, d.rule_id


def _rule(rule_id: str, action: str) -> RuleHit:
    return RuleHit(rule_id=rule_id, action=action, risk="r", reason="why")  # type: ignore[arg-type]


@requirement("S-RULE-12", "S-DEC-06")
@pytest.mark.parametrize(
    ("type_rule", "text_rule", "expected"),
    [
        ("ask", "deny", ("COMMAND_RULE", "text-rule")),  # a denied text beats the Type call's own ask
        ("deny", "deny", ("COMMAND_RULE", "type-rule")),  # the call's own deny is found first
        ("ask", "ask", ("APPROVAL_REQUIRED", "type-rule")),  # two asks: the call's own rule speaks
        (None, "ask", ("APPROVAL_REQUIRED", "text-rule")),
    ],
    ids=["ask-then-deny", "deny-first", "two-asks", "text-only"],
)
def test_a_denied_typed_text_wins_over_the_calls_own_ask_rule(
    type_rule: str | None, text_rule: str, expected: tuple[str, str]
) -> None:
    """S-RULE-12: a rule on the Type call and a rule on the text it types at a console: a deny wins, else the call's."""
    rows = [("PowerShell", "remove-item", _rule("text-rule", text_rule))]
    if type_rule is not None:
        rows.insert(0, ("Type", "remove-item", _rule("type-rule", type_rule)))
    code, rule_id = _decide_behind(tuple(rows))
    assert (str(code), rule_id) == expected
