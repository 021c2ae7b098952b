"""Defender told to allow a named threat, and the code-integrity settings (S-RULE-152)."""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

CI = "HKLM:\\SYSTEM\\CurrentControlSet\\Control\\CI\\Config"


@requirement("S-RULE-152")
@pytest.mark.parametrize(
    ("actions", "expected"),
    [
        ("6", ("disable-defender", "deny")),  # Allow
        ("9", ("disable-defender", "deny")),  # NoAction
        ("Allow", ("disable-defender", "deny")),
        ("2,6", ("disable-defender", "deny")),  # one of the listed threats allowed
        ("2, Allow", ("disable-defender", "deny")),
        ("$a", ("disable-defender", "deny")),  # not constant
        ("3", None),  # remove
        ("2,3", None),  # quarantine, remove
    ],
)
def test_a_threat_allowed_by_id_is_defender_weakened(actions: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-152: any Allow or NoAction among the per-threat actions lets that threat stay."""
    assert ps(f"Set-MpPreference -ThreatIDDefaultAction_Ids 1,2 -ThreatIDDefaultAction_Actions {actions}") == expected


@requirement("S-RULE-152")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("Registry", {"mode": "set", "path": CI, "name": "VulnerableDriverBlocklistEnable", "value": "0"},
         ("security-weakening", "deny")),
        ("PowerShell", {"command": f"Set-ItemProperty '{CI}' -Name VulnerableDriverBlocklistEnable -Value 0"},
         ("security-weakening", "deny")),
        ("Registry", {"mode": "get", "path": CI, "name": "VulnerableDriverBlocklistEnable"}, None),
        ("PowerShell", {"command": "reg query HKLM\\SYSTEM\\CurrentControlSet\\Control\\CI\\Config"}, None),
    ],
)  # fmt: skip
def test_the_code_integrity_settings_are_a_security_tool(tool: str, args: dict[str, str], expected: object) -> None:
    """S-RULE-152: a change below `Control\\CI` weakens driver checks; reading it passes."""
    assert verdict(tool, **args) == expected
