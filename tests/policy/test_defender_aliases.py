"""Defender's settings spelled by Set-MpPreference's own aliases or a prefix are refused (S-RULE-206).

Before, `Set-MpPreference -mapsr 0` (cloud protection off), `-scsc 2` (no samples sent) and a prefix such as
`-MAPS 0` or `-Submit NeverSend` passed, while the full names were refused: the module's aliases were known
only for the six `-Disable…` switches.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("disable-defender", "deny")


@requirement("S-RULE-206")
@pytest.mark.parametrize(
    "command",
    [
        "Set-MpPreference -mapsr 0",
        "Set-MpPreference -scsc 2",
        "Set-MpPreference -darchsc $true",
        "Set-MpPreference -demsc $true",
        "Set-MpPreference -drdsc $true",
        "Set-MpPreference -dsnf $true",
        "Set-MpPreference -dcqsc $true",
        "Set-MpPreference -drp $true",
        "Set-MpPreference -ltdefac Allow",
        "Set-MpPreference -stdefac NoAction",
        "Set-MpPreference -unktdefac Allow",
        "Set-MpPreference -tiddefaci 2147519003 -tiddefaca Allow",
        "Set-MpPreference -MAPS 0",
        "Set-MpPreference -Submit NeverSend",
        "Set-MpPreference -PUA 0",
        "Set-MpPreference -EnableControlled Disabled",
        "Set-MpPreference -EnableNetwork AuditMode",
        "Set-MpPreference -CloudBlock 0",
        "Set-MpPreference -Sev Allow",
        "$s = 'mapsr'; $p = @{$s = 0}; Set-MpPreference @p",
    ],
)
def test_an_alias_or_a_prefix_turns_protection_off_as_the_name_does(command: str) -> None:
    """S-RULE-206: the module's own aliases, and a prefix of a setting the rules read."""
    assert ps(command) == DENY


@requirement("S-RULE-206")
@pytest.mark.parametrize(
    "command",
    [
        "Set-MpPreference -MAPSReporting Advanced",
        "Set-MpPreference -mapsr 2",
        "Set-MpPreference -scsc 1",
        "Set-MpPreference -ScanAvgCPULoadFactor 5",
        "Set-MpPreference -en Disabled",  # `-en` starts two settings: PowerShell refuses it, nothing changes
        "Set-MpPreference -stdefac Quarantine",
        "Get-MpPreference",
    ],
)
def test_a_setting_that_keeps_protection_stays_ordinary(command: str) -> None:
    """S-RULE-206: a value that keeps protection, a setting the rules do not read, an ambiguous prefix."""
    assert ps(command) is None
