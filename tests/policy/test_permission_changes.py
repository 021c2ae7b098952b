"""Changing who may open the user's own folders is a person's call (S-RULE-181).

Every ask below passed before: an ACL change was a write of the folder, and writing a user's folder is ordinary,
so `icacls C:\\Users\\me /deny Everyone:F /T` (which locks the person out of their own profile) went through.
"""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy.verdicts import ps

ASK = ("permission-change", "ask")


@requirement("S-RULE-181")
@pytest.mark.parametrize(
    "command",
    [
        r"icacls C:\Users\me /deny Everyone:F /T",
        r"icacls C:\Users\me\Documents /inheritance:r /grant:r Administrators:F",
        r'icacls "$env:USERPROFILE\Desktop" /remove:g me',
        r"icacls C:\Users /grant Everyone:F",
        r"icacls C:\Users\me\AppData /reset /T",
        r"icacls C:\Users\me /setowner Administrators",
        r"icacls C:\Users\me\Downloads /restore C:\t\acl.txt",
        r"cacls C:\Users\me /E /D Everyone",
        r"$acl = Get-Acl C:\Users\me; $acl.SetAccessRuleProtection($true,$false); Set-Acl C:\Users\me $acl",
        r"Set-Acl -Path ~\Documents -AclObject $acl",
        r"takeown /f C:\Users\me\Documents",
        r'cmd /c "icacls %USERPROFILE% /deny Everyone:F"',
    ],
)
def test_changing_who_may_open_a_users_own_folder_asks(command: str) -> None:
    """S-RULE-181: icacls, cacls, Set-Acl and takeown of the folders themselves."""
    assert ps(command) == ASK


@requirement("S-RULE-181")
@pytest.mark.parametrize(
    "command",
    [
        r"icacls C:\Users\me\Documents\a.txt /grant Everyone:R",
        r"icacls C:\Users\me\Documents\Project /grant Bob:R",
        r"icacls C:\t\build /grant Users:M /T",
        r"icacls C:\Users\me\Documents",
        r"cacls C:\Users\me",
        r"Get-Acl C:\Users\me | Format-List",
        r"icacls C:\Users\me /save C:\t\acl.txt",
    ],
)
def test_files_inside_other_folders_and_showing_permissions_stay_ordinary(command: str) -> None:
    """S-RULE-181: only the user's own folders themselves, and only a change."""
    assert ps(command) is None


@requirement("S-RULE-181")
def test_a_system_place_keeps_its_refusal() -> None:
    """S-RULE-181: the ask is for the user's folders; System32's ACL stays a refused write (S-RULE-20)."""
    assert ps(r"icacls C:\Windows\System32 /grant Everyone:F") == ("protected-place-write", "deny")


@requirement("S-RULE-181")
def test_the_reason_names_the_folder_and_the_remedy_shows_the_permissions() -> None:
    """S-RULE-181: a person reads which folder and how to look first."""
    hit = load_rules().match("PowerShell", {"command": r"icacls C:\Users\me /deny Everyone:F"})
    assert hit is not None and hit.rule_id == "permission-change"
    assert "profile folder" in hit.reason and "icacls /deny" in hit.reason and "Get-Acl" in hit.reason
