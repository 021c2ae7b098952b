"""Parameter prefixes expanded as PowerShell expands them (S-RULE-02); found by mutation testing."""

from __future__ import annotations

import pytest

from policy.rules.shell_names import canonical_parameter
from tests._requirements import requirement


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("command", "name", "full"),
    [
        ("set-thing", "rec", "recurse"),  # an unknown cmdlet: -rec is -Recurse
        ("set-thing", "rename", "rename"),  # starts with r but is no prefix of recurse
        ("set-thing", "fo", "force"),
        ("set-thing", "f", "f"),  # one letter is too short to mean -Force
        ("shutdown", "r", "r"),  # a native program keeps its flags
    ],
)
def test_an_unknown_cmdlets_parameter_expands_only_to_recurse_or_force(command: str, name: str, full: str) -> None:
    """S-RULE-02: for a cmdlet not in the table only unambiguous prefixes of -Recurse and -Force expand."""
    assert canonical_parameter(command, name) == full
