"""A drive taken away from the person's programs is a person's call (S-RULE-185).

Every ask below passed before: a drive letter removed, a volume dismounted, a disk set offline or read-only leaves
the person's files where their programs no longer find or write them.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

ASK = ("device-change", "ask")


@requirement("S-RULE-185")
@pytest.mark.parametrize(
    "command",
    [
        r"mountvol C:\ /d",
        r"mountvol D:\ /p",
        "Set-Partition -DriveLetter D -NewDriveLetter Z",
        "Set-Partition -DriveLetter D -IsHidden $true",
        "Set-Partition -DriveLetter D -IsOffline $true",
        "Set-Disk -Number 1 -IsOffline $true",
        "Set-Disk -Number 1 -IsReadOnly $true",
        r"Remove-PartitionAccessPath -DiskNumber 1 -PartitionNumber 2 -AccessPath D:\ ",
        r'cmd /c "mountvol E:\ /d"',
    ],
)
def test_a_drive_taken_away_asks(command: str) -> None:
    """S-RULE-185: a letter removed, a volume dismounted, a disk offline or read-only."""
    assert ps(command) == ASK


@requirement("S-RULE-185")
@pytest.mark.parametrize(
    "command",
    [
        "mountvol",
        "Set-Partition -DriveLetter D -IsHidden $false",
        "Set-Disk -Number 1 -IsOffline $false",
        "Get-Partition",
        "Resize-Partition -DriveLetter C -Size 200GB",
    ],
)
def test_turning_back_listing_and_resizing_stay_ordinary(command: str) -> None:
    """S-RULE-185: only taking a drive away asks."""
    assert ps(command) is None
