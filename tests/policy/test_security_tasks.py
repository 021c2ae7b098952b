"""Scheduled tasks that keep a defence working (S-RULE-145).

Defender's scans, cache maintenance and signature updates, and Windows Update's scans and orchestration, run as
scheduled tasks. Stopping the service is refused; disabling or deleting its tasks must be too. The user's own tasks
are theirs to manage.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_security import security_task
from tests._requirements import requirement
from tests.policy.verdicts import ps, reason_of

DEFENDER = ("disable-defender", "deny")
WEAKENING = ("security-weakening", "deny")
SCAN = "\\Microsoft\\Windows\\Windows Defender\\Windows Defender Scheduled Scan"


@requirement("S-RULE-145")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"Disable-ScheduledTask -TaskName '{SCAN}'", DEFENDER),
        (
            "Disable-ScheduledTask -TaskPath '\\Microsoft\\Windows\\Windows Defender\\' "
            "-TaskName 'Windows Defender Cache Maintenance'",
            DEFENDER,
        ),
        ("Disable-ScheduledTask 'Windows Defender Verification'", DEFENDER),
        (f"Unregister-ScheduledTask -TaskName '{SCAN}' -Confirm:$false", DEFENDER),
        (f'schtasks /change /tn "{SCAN}" /disable', DEFENDER),
        (f'schtasks /delete /tn "{SCAN}" /f', DEFENDER),
        ("schtasks /delete /tn * /f", DEFENDER),
        ("Unregister-ScheduledTask -TaskName '\\Microsoft\\Windows\\WindowsUpdate\\Scheduled Start'", WEAKENING),
        ('schtasks /delete /tn "\\Microsoft\\Windows\\UpdateOrchestrator\\Schedule Scan" /f', WEAKENING),
        ("Disable-ScheduledTask -TaskPath '\\Microsoft\\Windows\\WaaSMedic\\' -TaskName PerformRemediation", WEAKENING),
        (
            f"Set-ScheduledTask -TaskName '{SCAN}' -Action (New-ScheduledTaskAction -Execute 'C:\\t\\x.exe')",
            DEFENDER,
        ),
    ],
)
def test_a_defence_keeping_task_is_not_disabled_or_removed(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-145: by full name, by folder and name, by a name that says Defender, and every task at once."""
    assert ps(command) == expected


@requirement("S-RULE-145")
def test_tasks_piped_from_a_listing_ask() -> None:
    """S-RULE-145: which tasks a listing hands on is not followed: the removal asks, naming what it cannot name."""
    assert ps("Get-ScheduledTask | Unregister-ScheduledTask -Confirm:$false") == ("dynamic-command", "ask")
    assert ps("Get-ScheduledTask -TaskPath '\\Microsoft\\Windows\\WindowsUpdate\\' | Disable-ScheduledTask") == (
        "dynamic-command",
        "ask",
    )


@requirement("S-RULE-145")
@pytest.mark.parametrize(
    "command",
    [
        "Unregister-ScheduledTask -TaskName MyBackup -Confirm:$false",
        "Disable-ScheduledTask -TaskName '\\Contoso\\Nightly Sync'",
        "schtasks /delete /tn MyBackup /f",
        f'schtasks /run /tn "{SCAN}"',
        "Get-ScheduledTask -TaskPath '\\Microsoft\\Windows\\Windows Defender\\'",
    ],
)
def test_the_users_own_tasks_and_running_or_listing_pass(command: str) -> None:
    """S-RULE-145: the user's tasks, a run of Defender's scan, a listing of Defender's tasks."""
    assert ps(command) is None


@requirement("S-RULE-145")
def test_what_a_task_keeps_is_read_from_its_folder_or_name() -> None:
    """S-RULE-145: the folder matches whole components; a name that merely resembles one does not."""
    assert security_task("\\Microsoft\\Windows\\ExploitGuard\\", "ExploitGuard MDM policy Refresh") == "defender"
    assert security_task(None, "\\microsoft\\windows\\windowsupdate\\Scheduled Start") == "updates"
    assert security_task(None, "\\Microsoft\\Windows\\WindowsUpdateTool\\x") is None
    assert security_task(None, "Backup of Windows Update logs") is None
    assert security_task(None, None) is None


@requirement("S-RULE-145")
@pytest.mark.parametrize(
    "command",
    [
        f'$t = Get-ScheduledTask -TaskName "{SCAN}"; Disable-ScheduledTask -InputObject $t',
        "Unregister-ScheduledTask -InputObject $t -Confirm:$false",
        "Get-ScheduledTask | Disable-ScheduledTask",
    ],
)
def test_a_task_handed_over_as_an_object_asks(command: str) -> None:
    """S-RULE-145: a task object (`-InputObject $t`) is followed no better than one piped in: which task it is
    cannot be named, so the change asks, and the reason names the cmdlet as PowerShell spells it."""
    assert ps(command) == ("dynamic-command", "ask")
    assert "ScheduledTask of scheduled tasks" in reason_of(command)
