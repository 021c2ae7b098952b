"""Blanks PowerShell reads that the grammar does not: NBSP, NEL and the Unicode separators (S-RULE-61).

PowerShell's tokenizer takes any character `char.IsSeparator` accepts above ASCII, and NBSP and NEL,
for a blank between words (System.Management.Automation.Language.CharExtensions.IsWhitespace), so
`Remove-Item<NBSP>-Recurse<NBSP>-Force<NBSP>C:\\data` runs Remove-Item with both switches. A
zero-width space (U+200B, a format character) is not a blank: the word stays one word.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest

from policy.rules.match import load_rules
from policy.rules.shell.powershell import _BLANK_CHARS, analyse_powershell, powershell_blanks
from tests._requirements import requirement

RULES = load_rules()
BLANKS = list(_BLANK_CHARS)


def verdict(tool: str, args: dict[str, object]) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-61")
def test_the_list_is_every_character_powershell_reads_as_a_blank_above_ascii() -> None:
    """S-RULE-61: NEL, NBSP, and every Unicode space, line or paragraph separator (Zs, Zl, Zp)."""
    expected = {chr(c) for c in range(0x80, sys.maxunicode + 1) if unicodedata.category(chr(c)) in ("Zs", "Zl", "Zp")}
    assert set(BLANKS) == expected | {"\x85"}
    assert len(BLANKS) == len(set(BLANKS))


@requirement("S-RULE-61")
@pytest.mark.parametrize("blank", BLANKS, ids=[f"U+{ord(b):04X}" for b in BLANKS])
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-Item{b}-Recurse{b}-Force{b}C:\\data", ("recursive-delete", "deny")),
        ("$p{b}={b}'C:\\Windows\\System32';{b}Remove-Item{b}$p{b}-Recurse", ("protected-place-delete", "deny")),
        ("Set-MpPreference{b}-DisableRealtimeMonitoring{b}$true", ("disable-defender", "deny")),
    ],
    ids=["recursive-delete", "variable-target", "defender"],
)
def test_a_command_spaced_with_a_unicode_blank_is_judged_as_powershell_runs_it(
    blank: str, command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-61: each blank between the words is a blank: the command is refused as it would run."""
    assert verdict("PowerShell", {"command": command.format(b=blank)}) == expected


@requirement("S-RULE-61")
def test_a_zero_width_space_is_not_a_blank_and_text_in_a_string_is_still_only_printed() -> None:
    """S-RULE-61: U+200B keeps `Remove-Item\\u200b-Recurse` one (unknown) command name, as PowerShell reads it;
    an NBSP inside a printed string does not make a command of it."""
    names = [op.name for op in analyse_powershell("Remove-Item\u200b-Recurse C:\\data").operations]
    assert names == ["remove-item\u200b-recurse"]
    assert verdict("PowerShell", {"command": 'Write-Output "Remove-Item\u00a0-Recurse\u00a0C:\\data"'}) is None
    assert powershell_blanks("a\u00a0b\u3000c") == "a b c"
    assert powershell_blanks("plain ascii") == "plain ascii"
