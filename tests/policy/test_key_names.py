"""Key names as Windows-MCP reads them: one table for every rule that reads a Shortcut (S-RULE-04, S-RULE-60).

Windows-MCP's Shortcut maps `windows` and `command` to the Win key and `option` to Alt before it
presses anything, and its key library takes left/right and long forms (`lwin`, `lcontrol`, `escape`).
A rule that reads a chord under other names misses it: `command+r` opens the Run box like Win+R.
"""

from __future__ import annotations

import pytest

from policy.rules.args import chord_keys
from policy.rules.keyboard import is_enter_chord, is_paste_chord, line_known_after
from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()


@requirement("S-RULE-04")
@pytest.mark.parametrize("chord", ["command+r", "Command + X", "cmd+r", "windows+r", "lwin+x", "super+r", "R+Win"])
def test_every_spelling_of_win_r_and_win_x_asks(chord: str) -> None:
    """S-RULE-04: the Run box and the power-user menu, whatever the Win key is called."""
    hit = RULES.match("Shortcut", {"shortcut": chord})
    assert hit is not None and (hit.rule_id, hit.action) == ("shortcut-command-launcher", "ask")


@requirement("S-RULE-04")
@pytest.mark.parametrize("chord", ["ctrl+r", "alt+r", "option+f4", "win+e", "command+d"])
def test_other_chords_do_not_ask(chord: str) -> None:
    """S-RULE-04: Ctrl+R, Alt+R, Alt+F4, Win+E and Win+D open no command place."""
    assert RULES.match("Shortcut", {"shortcut": chord}) is None


@requirement("S-RULE-60")
@pytest.mark.parametrize(
    ("chord", "keys"),
    [
        ("Command+V", {"win", "v"}),
        ("LControl + Shift + V", {"ctrl", "shift", "v"}),
        ("option+Escape", {"alt", "esc"}),
        ("Return", {"enter"}),
        ("shift+ins", {"shift", "insert"}),
        ("", set()),
    ],
)
def test_one_table_names_every_key(chord: str, keys: set[str]) -> None:
    """S-RULE-60: paste, Enter and line detection read the same names as the launcher rule."""
    assert chord_keys(chord) == keys


@requirement("S-RULE-60")
def test_aliases_reach_paste_enter_and_the_line() -> None:
    """S-RULE-60: `lcontrol+v` pastes, `Return` is Enter, and `command+v` (Win+V, the clipboard history) loses
    the line the gateway follows."""
    assert is_paste_chord("Shortcut", {"shortcut": "lcontrol+v"})
    assert is_enter_chord("Shortcut", {"shortcut": "Return"})
    assert line_known_after(True, "x", "Shortcut", {"shortcut": "command+v"}) is False
    assert line_known_after(True, "x", "Shortcut", {"shortcut": "windows+e"}) is True
