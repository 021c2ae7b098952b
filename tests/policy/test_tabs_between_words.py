"""A tab separates a command's words as a blank does (S-RULE-130).

tree-sitter-powershell rejects a tab between a command's words, so `Remove-Item<TAB>-Recurse<TAB>C:\\Users` was
`unparsed-command` (ask) whatever it did, and a harmless `Get-ChildItem<TAB>C:\\t` asked too. Found by a mutation
helper (issue 12).
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import args_of, ps


@requirement("S-RULE-130")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-Item\t-Recurse\t-Force\tC:\\Users", ("protected-place-delete", "deny")),
        ("Remove-Item\tC:\\Windows\\System32\\hal.dll", ("protected-place-delete", "deny")),
        ("Get-ChildItem\tC:\\t", None),
        ("Get-ChildItem \t C:\\t\t-Recurse", None),
        ("foreach ($f in Get-ChildItem\tC:\\t) {\n\tWrite-Output\t$f.Name\n}", None),
    ],
)
def test_a_tab_between_words_is_a_blank(command: str, expected: object) -> None:
    """S-RULE-130: the command is read, and judged for what it does."""
    assert ps(command) == expected


@requirement("S-RULE-130")
@pytest.mark.parametrize(
    "command",
    ['Write-Output "a\tb"', "Write-Output 'a\tb'", 'Write-Output @"\na\tb\n"@', 'Write-Output\t"a\tb"'],
)
def test_a_string_keeps_its_tabs(command: str) -> None:
    """S-RULE-130: only the grammar sees blanks; values are read from the text as written."""
    assert args_of(command, "write-output") == [("a\tb",)]
