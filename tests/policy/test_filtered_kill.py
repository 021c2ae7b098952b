"""A process list filtered by name, piped to a kill: the names kept are the ones killed (S-RULE-72)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()


def verdict(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-72")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Get-Process | Where-Object Name -eq lsass | Stop-Process -Force", ("kill-critical-process", "deny")),
        ("Get-Process | Where-Object ProcessName -like ls* | Stop-Process", ("kill-critical-process", "deny")),
        ("Get-Process | Where-Object Name -in 'notepad','lsass' | Stop-Process", ("kill-critical-process", "deny")),
        ("Get-Process | ? Name -eq notepad | Stop-Process -Force", ("force-kill", "ask")),
        ("Get-Process | ? Name -eq notepad | Stop-Process", None),
        # a filter read any other way stays a person's call; no filter at all is every process
        ("Get-Process | Where-Object { $_.CPU -gt 100 } | Stop-Process", ("dynamic-command", "ask")),  # S-RULE-76
        ("Get-Process | Where-Object CPU -gt 100 | Stop-Process", ("dynamic-command", "ask")),
        ("Get-Process | Stop-Process", ("kill-all", "deny")),
    ],
)
def test_the_kept_names_are_judged_as_the_kill(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-72: `Where-Object Name|ProcessName -eq|-like|-in <constant>` names what the kill reaches."""
    assert verdict(command) == expected
