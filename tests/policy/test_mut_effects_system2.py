"""The local account cmdlets' effects, pinned whole (issue 12: surviving mutants of `effects_system._account`).

An account change names the cmdlet that made it (the effect's detail, which the reason a person reads
quotes); the corpus tests compare only the rule id, so these rows pin the detail too.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps_effects


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("New-LocalUser bob", ("bob", "New-LocalUser", ())),
        ("Disable-LocalUser -SID S-1-5-21-1", ("S-1-5-21-1", "Disable-LocalUser", ())),
        ("Rename-LocalUser bob alice", ("bob", "Rename-LocalUser", ())),
        ("Add-LocalGroupMember Administrators bob", ("Administrators", "Add-LocalGroupMember", (("member", "bob"),))),
        (
            "Remove-LocalGroupMember -Group Administrators -Member bob,eve",
            ("Administrators", "Remove-LocalGroupMember", (("member", "bob"), ("member", "eve"))),
        ),
    ],
    ids=["new-user", "disable-by-sid", "rename", "add-member", "remove-members"],
)
def test_an_account_change_names_its_target_its_cmdlet_and_its_members(command: str, expected: object) -> None:
    """S-RULE-18: one account-change effect per account or group, its detail the cmdlet as PowerShell spells it."""
    (found,) = ps_effects(command)
    assert (found.kind.value, (found.target, found.detail, found.extra)) == ("account-change", expected)
