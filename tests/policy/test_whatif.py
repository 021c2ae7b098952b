"""`-WhatIf`: a cmdlet that only says what it would do is not judged as doing it (S-RULE-68)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()


def verdict(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-68")
@pytest.mark.parametrize(
    "command",
    [
        "Remove-Item C:\\Windows\\System32 -Recurse -WhatIf",
        "Remove-Item C:\\data -Recurse -wi",
        "Get-ChildItem C:\\data | Remove-Item -Recurse -WhatIf",
        "Stop-Computer -WhatIf",
        "Set-MpPreference -DisableRealtimeMonitoring $true -WhatIf:$true",
        "Remove-Item C:\\Users\\me\\Documents\\draft.txt -WhatIf",
    ],
)
def test_a_cmdlet_with_whatif_changes_nothing(command: str) -> None:
    """S-RULE-68: with -WhatIf a cmdlet prints what it would do (one without ShouldProcess cannot bind the
    parameter and does nothing): no effect, and no text rule reads it as the act."""
    assert verdict(command) is None


@requirement("S-RULE-68")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-Item C:\\Windows\\System32 -Recurse -WhatIf:$false", ("protected-place-delete", "deny")),
        ("Remove-Item C:\\data -Recurse -WhatIf:$x", ("recursive-delete", "deny")),
        # a function of the script's own takes -WhatIf and does what its body does
        (
            "function Remove-Item { param([switch]$WhatIf) [IO.Directory]::Delete('C:\\data', $true) }; "
            "Remove-Item -WhatIf",
            ("recursive-delete", "deny"),
        ),
        ("reg delete HKLM\\Software\\Vendor /f -WhatIf", ("registry-delete-machine-hive", "deny")),  # not a cmdlet
        ("Remove-Item C:\\data -Recurse -WhatIf; Remove-Item C:\\data -Recurse", ("recursive-delete", "deny")),
    ],
)
def test_whatif_false_a_variable_a_script_function_or_a_program_still_acts(
    command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-68: only a constant -WhatIf on a cmdlet is a dry run."""
    assert verdict(command) == expected
