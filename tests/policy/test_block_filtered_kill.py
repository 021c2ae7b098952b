"""A process list filtered by a script block of name tests, piped to a kill (S-RULE-76).

`Get-Process | Where-Object { $_.Name -eq 'lsass' } | Stop-Process` only asked (a filter not read),
so a person could approve the end of Windows; S-RULE-72 already read `Where-Object Name -eq lsass`.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-76")
@pytest.mark.parametrize(
    "command",
    [
        "Get-Process | Where-Object { $_.Name -eq 'lsass' } | Stop-Process",
        "Get-Process | ? { $_.ProcessName -like 'MsMp*' } | Stop-Process -Force",
        "Get-Process | Where-Object { $PSItem.Name -in 'notepad','lsass' } | Stop-Process",
        'Get-Process | Where-Object -FilterScript { $_.Name -eq "csrss" } | Stop-Process',
        "Get-Process | Where-Object { $_.Name -eq 'notepad' -or $_.Name -eq 'winlogon' } | Stop-Process",
        "Get-Process | where { ($_.Name -ieq 'LSASS') } | kill",
    ],
    ids=["eq", "like-alias-force", "in-psitem", "filterscript-double-quotes", "or", "parens-ieq-aliases"],
)
def test_a_kill_of_kept_names_is_refused(command: str) -> None:
    """S-RULE-76: the names the block keeps are the names killed; a kept name is refused."""
    assert ps(command) == ("kill-critical-process", "deny")


@requirement("S-RULE-76")
def test_a_kill_of_ordinary_kept_names_passes() -> None:
    """S-RULE-76: `{ $_.Name -eq 'notepad' }` kills notepad, as `Stop-Process -Name notepad` does."""
    assert ps("Get-Process | Where-Object { $_.Name -eq 'notepad' } | Stop-Process") is None


@requirement("S-RULE-76")
@pytest.mark.parametrize(
    "command",
    [
        "Get-Process | Where-Object { $_.CPU -gt 100 } | Stop-Process",
        "Get-Process | Where-Object { $_.Name -eq $n } | Stop-Process",
        "Get-Process | Where-Object { $_.Name -ne 'explorer' } | Stop-Process",  # keeps every other name
        "Get-Process | Where-Object { $_.Name -eq 'notepad' -and $_.CPU -gt 1 } | Stop-Process",
        'Get-Process | Where-Object { $_.Name -eq "$x" } | Stop-Process',
    ],
    ids=["other-property", "variable", "not-equal", "and", "expandable"],
)
def test_a_block_that_is_not_only_name_tests_still_asks(command: str) -> None:
    """S-RULE-76: what the block keeps is not known: a person is asked, as before."""
    assert ps(command) == ("dynamic-command", "ask")
