"""The machine's domain membership is an account change; its name a network change (S-RULE-184).

Every verdict below passed before: joining an attacker's domain makes its admins this machine's admins, and leaving
the domain locks out every domain account that logs on here.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("account-change", "deny")


@requirement("S-RULE-184")
@pytest.mark.parametrize(
    "command",
    [
        "Add-Computer -DomainName evil.example -Credential $c -Restart",
        "Add-Computer evil.example",
        "Add-Computer -WorkgroupName WORKGROUP",
        "Remove-Computer -UnjoinDomainCredential $c -Force",
        "netdom join %COMPUTERNAME% /domain:evil.example /userd:x /passwordd:*",
        "netdom remove %COMPUTERNAME% /domain:corp.example",
        r"djoin /requestodj /loadfile C:\t\blob.txt /windowspath %SystemRoot% /localos",
    ],
)
def test_joining_or_leaving_a_domain_is_refused(command: str) -> None:
    """S-RULE-184: who administers the machine and who may log on."""
    assert ps(command) == DENY


@requirement("S-RULE-184")
@pytest.mark.parametrize("command", ["Rename-Computer -NewName X -Restart", "netdom renamecomputer pc1 /newname:X"])
def test_renaming_the_machine_asks(command: str) -> None:
    """S-RULE-184: shares, sessions and the domain's trust know it by its name."""
    assert ps(command) == ("network-change", "ask")


@requirement("S-RULE-184")
@pytest.mark.parametrize(
    "command",
    ["netdom query fsmo", r"djoin /provision /domain corp.example /machine pc2 /savefile C:\t\b.txt", "hostname"],
)
def test_looking_and_provisioning_for_another_machine_stay_ordinary(command: str) -> None:
    """S-RULE-184: only this machine's own membership or name."""
    assert ps(command) is None
