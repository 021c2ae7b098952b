"""Keys a script types (S-RULE-38): SendKeys notation decoded, and the typed lines judged as commands."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from policy.rules.shell.sendkeys import typed_text
from tests._requirements import requirement

RULES = load_rules()


@requirement("S-RULE-38")
@pytest.mark.parametrize(
    ("keys", "typed"),
    [
        ("dir~", "dir\n"),
        ("dir{ENTER}", "dir\n"),
        ("a{TAB}b", "a\tb"),
        ("{+}{^}{%}{~}{(}{)}{[}{]}{{}{}}", "+^%~()[]{}"),
        ("x{a 3}y", "xaaay"),
        ("C:\\Usersx{BS}", "C:\\Users"),
        ("ab{BACKSPACE 2}c", "c"),
        ("{BKSP}a", "a"),
        ("+a+(bc)d", "ABCd"),
        ("+{a 2}", "AA"),
        ("^c%{F4}^+{ESC}rest", "rest"),  # chords type nothing
        ("%(fx)y", "y"),
        ("{F5}{HOME}{ESC}", ""),
        ("{not closed", "{not closed"),
        ("{x 99999}", "x" * 256),  # a repeat count is bounded
        ("", ""),
        ("^", ""),
        ("+", ""),
    ],
)
def test_sendkeys_notation_is_read_as_the_text_it_types(keys: str, typed: str) -> None:
    """S-RULE-38: Enter, Tab, braced characters, repeats, Backspace and Shift type text; Ctrl/Alt chords do not."""
    assert typed_text(keys) == typed


def _ids(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-38")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "Add-Type -AssemblyName System.Windows.Forms; "
            "[System.Windows.Forms.SendKeys]::SendWait('rd /s /q C:\\Users\\me~')",
            ("protected-place-delete", "deny"),
        ),
        ("[Windows.Forms.SendKeys]::Send('Remove-Item -Recurse -Force C:\\data{ENTER}')", ("recursive-delete", "deny")),
        (
            "$w = New-Object -ComObject WScript.Shell; $w.SendKeys('rd /s /q C:\\Users{ENTER}')",
            ("protected-place-delete", "deny"),
        ),
        (
            "(New-Object -ComObject WScript.Shell).SendKeys('rd /s /q C:\\Usersx{BS}~')",
            ("protected-place-delete", "deny"),
        ),
        (
            "(New-Object -ComObject WScript.Shell).SendKeys('reg save HKLM\\SAM C:\\t\\s~')",
            ("credential-access", "deny"),
        ),
        ("(New-Object -ComObject WScript.Shell).SendKeys($keys)", ("dynamic-command", "ask")),
        ("[System.Windows.Forms.SendKeys]::SendWait($k)", ("dynamic-command", "ask")),
        # keys that make no dangerous command
        ("(New-Object -ComObject WScript.Shell).SendKeys('%{F4}')", None),
        ("[System.Windows.Forms.SendKeys]::SendWait('^{ESC}')", None),
        ("[Windows.Forms.SendKeys]::SendWait('Hello world{ENTER}')", None),
    ],
)
def test_keys_a_script_types_are_judged_as_the_command_they_make(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-38: the typed lines are judged as PowerShell and as cmd; keys not constant are dynamic."""
    assert _ids(command) == expected
