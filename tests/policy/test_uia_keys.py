"""A Shortcut read as Windows-MCP presses it: a uiautomation SendKeys string (S-RULE-63; policy/rules/uia_keys.py).

Rows come from uiautomation's own SendKeys examples and from Windows-MCP 0.8.8's `shortcut`, which
splits the value at `+`, keeps one-character keys and wraps longer names in braces.
"""

from __future__ import annotations

import pytest

from policy.rules.uia_keys import Press, key_events, presses, sendkeys_text
from tests._requirements import requirement
from tests.policy.test_typed_lines import ASK, key, replay

P = Press


@requirement("S-RULE-63")
@pytest.mark.parametrize(
    ("shortcut", "text"),
    [
        ("ctrl+v", "{ctrl}v"),
        ("Ctrl + Shift + Esc", "{Ctrl}{Shift}{Esc}"),
        ("windows+r", "{Win}r"),
        ("command+x", "{Win}x"),
        ("option+f4", "{Alt}{f4}"),
        ("backspace", "{Back}"),
        ("a+b+c", "abc"),
        ("{+E+n+t+e+r+}", "{Enter}"),
        ("a++b", "a{}b"),
    ],
)
def test_windows_mcp_builds_a_sendkeys_string(shortcut: str, text: str) -> None:
    """S-RULE-63: split at `+`, one-character keys as they are, longer names in braces after the aliases."""
    assert sendkeys_text(shortcut) == text


@requirement("S-RULE-63")
@pytest.mark.parametrize(
    ("text", "pressed"),
    [
        ("{Ctrl}a{Delete}", (P("CTRL", True), P("a", False, frozenset({"ctrl"})), P("DELETE", True))),
        ("{Ctrl}{Shift}s", (P("CTRL", True), P("s", False, frozenset({"ctrl", "shift"})))),
        (
            "{Ctrl}(AB)c",
            (P("CTRL", True), P("A", False, frozenset({"ctrl"})), P("B", False, frozenset({"ctrl"})), P("c", False)),
        ),
        ("({Shift}a)", (P("(", False), P("SHIFT", True), P("a", False, frozenset({"shift"})), P(")", False))),
        ("{a 3}", (P("a", False),) * 3),
        ("{{}x{}}", (P("{", False), P("x", False), P("}", False))),
        ("r{Win}", (P("r", False), P("WIN", True))),
        ("{RControl}v", (P("RCONTROL", True), P("v", False))),  # RControl is not one of its hold keys
        ("{Stop-Computer}", (P("Stop-Computer", False),)),  # not a key name: typed as text
    ],
)
def test_sendkeys_presses_keys_by_its_grammar(text: str, pressed: tuple[Press, ...]) -> None:
    """S-RULE-63: `{Name}` and `{Name N}`, hold keys for the next key or a `( … )` group, braces escaped."""
    assert presses(text) == pressed


@requirement("S-RULE-63")
@pytest.mark.parametrize("text", ["{", "{}", "{a b}", "{a 1 2}", "x{Enter"])
def test_a_string_sendkeys_rejects_presses_nothing(text: str) -> None:
    """S-RULE-63: uiautomation reads the whole string first and raises on a bad `{…}`: no key goes out."""
    assert presses(text) is None


@requirement("S-RULE-63")
@pytest.mark.parametrize("shortcut", ["{", "a+{", "S+t+o+p+{+e+n+t+e+r"])
def test_a_shortcut_whose_string_sendkeys_rejects_presses_nothing(shortcut: str) -> None:
    """S-RULE-63: an unbalanced brace makes the whole call press nothing (so it types nothing to judge)."""
    assert key_events(shortcut) == ()


@requirement("S-RULE-63")
@pytest.mark.parametrize(
    ("shortcut", "kinds"),
    [
        ("S+t+o+p+enter", ["text"] * 4 + ["enter"]),
        ("{+E+n+t+e+r+}", ["enter"]),
        ("ctrl+v", ["keep", "paste"]),
        ("shift+insert", ["keep", "paste"]),
        ("win+r", ["keep", "launcher"]),
        ("{+W+i+n+}+r", ["keep", "launcher"]),
        ("win+v", ["keep", "edit"]),
        ("tab", ["edit"]),
        ("escape", ["end-line"]),
        ("alt+tab", ["keep", "keep"]),
        ("ctrl+a", ["keep", "edit"]),
    ],
)
def test_each_key_means_something_for_the_line(shortcut: str, kinds: list[str]) -> None:
    """S-RULE-63: typed text, Enter, a paste, the Run box, an unseen edit, Esc, or nothing."""
    assert [e.kind for e in key_events(shortcut)] == kinds


@requirement("S-RULE-63")
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd", "run-box"])
@pytest.mark.parametrize(
    ("shortcut", "rule"),
    [
        ("S+t+o+p+-+C+o+m+p+u+t+e+r+enter", "shutdown-restart"),
        ("r+d+space+/+s+space+/+q+space+C+:+\\+d+a+t+a+enter", "recursive-delete"),
        ("S+t+o+p+-+C+o+m+p+u+t+e+r", "shutdown-restart"),  # no Enter yet: a later Enter runs it
    ],
)
def test_a_command_typed_with_shortcut_keys_is_judged_where_it_lands(scenario: str, shortcut: str, rule: str) -> None:
    """S-RULE-63: the Shortcut tool types text when its keys are characters: judged as typed text is."""
    assert replay(scenario, [key(shortcut)]) == [(rule, "deny")]


@requirement("S-RULE-63")
def test_hidden_enter_and_hidden_win_r_are_read_as_what_they_press() -> None:
    """S-RULE-63: `{+E+n+t+e+r+}` is Enter (asks on a lost line), `{+W+i+n+}+r` opens the Run box (asks)."""
    assert replay("console-powershell", [key("tab"), key("{+E+n+t+e+r+}")]) == [None, ASK]
    from policy.rules.match import load_rules

    hit = load_rules().match("Shortcut", {"shortcut": "{+W+i+n+}+r"})
    assert hit is not None and hit.rule_id == "shortcut-command-launcher"


@requirement("S-RULE-63")
def test_ordinary_shortcuts_still_pass() -> None:
    """S-RULE-63: Ctrl+C, Alt+Tab, Ctrl+S and typing `ls` + Enter in a console go through; into Notepad any text."""
    for chord in ("ctrl+c", "alt+tab", "ctrl+s", "l+s+enter", "ctrl+shift+esc"):
        assert replay("console-powershell", [key(chord)]) == [None], chord
    assert replay("notepad", [key("S+t+o+p+-+C+o+m+p+u+t+e+r+enter")]) == [None]


@requirement("S-RULE-63")
@pytest.mark.parametrize("shortcut", ["{a 99999999999999}", "{a " + "9" * 5000 + "}", "{Enter 100000}"])
def test_a_huge_repeat_count_is_read_no_further_than_a_bound(shortcut: str) -> None:
    """S-RULE-63: `{a N}` with a huge N is read for a bounded number of presses and marks the line as changed
    unseen (it once made judging loop for ever: found by the argument-shape fuzz test)."""
    events = key_events(shortcut)
    assert 0 < len(events) <= 70
    assert events[0].kind == "edit"


@requirement("S-RULE-63")
def test_a_non_ascii_repeat_count_presses_nothing() -> None:
    """S-RULE-63: SendKeys accepts `²` as a digit and then fails to read it as a number: nothing is pressed."""
    assert presses("{a ²}") is None


@requirement("S-RULE-63")
def test_a_shortcut_of_countless_keys_is_read_no_further_than_a_bound() -> None:
    """S-RULE-63: a megabyte of keys is read up to a bound of presses, then the line counts as changed unseen."""
    events = key_events("+".join(["{a 64}"] * 100_000))
    assert len(events) < 5_000 and events[-1].kind == "edit"
