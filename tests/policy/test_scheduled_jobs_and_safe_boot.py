"""A PowerShell scheduled job is the scheduled task it is (S-RULE-209); the Safe Mode lists are a security setting
(S-RULE-210).

Before, `Register-ScheduledJob -Name x -ScriptBlock { … } -Trigger (New-JobTrigger -AtLogOn)` passed while
`Register-ScheduledTask` and `schtasks /create` asked: the job is a Task Scheduler task under
`\\Microsoft\\Windows\\PowerShell\\ScheduledJobs` and runs its block at every logon with nobody asked. And a service
added to `…\\Control\\SafeBoot\\Minimal` (it then starts in Safe Mode, where no security tool runs: the ransomware
route whose `bcdedit /set safeboot` half was already refused) passed by every tool.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, verdict

PERSISTENCE = ("persistence-autostart", "ask")
WEAKENING = ("security-weakening", "deny")


@requirement("S-RULE-209")
@pytest.mark.parametrize(
    "command",
    [
        "Register-ScheduledJob -Name x -ScriptBlock { calc }",
        "Register-ScheduledJob x { calc }",  # both positional
        "Register-ScheduledJob -Name x -ScriptBlock { calc } -Trigger (New-JobTrigger -AtLogOn)",
        r"Register-ScheduledJob -Name x -FilePath C:\Users\me\x.ps1 -Trigger (New-JobTrigger -AtStartup)",
        "Register-ScheduledJob -N x -Sc { calc }",  # prefixes
        "PSScheduledJob\\Register-ScheduledJob -Name x -ScriptBlock { calc }",
        "$p = @{Name = 'x'; ScriptBlock = { calc }}; Register-ScheduledJob @p",
        "& ('Register-Scheduled' + 'Job') -Name x -ScriptBlock { calc }",
        "Set-ScheduledJob -Name x -ScriptBlock { calc }",
        r"Get-ScheduledJob x | Set-ScheduledJob -FilePath C:\Users\me\y.ps1",
        "Add-JobTrigger -Name x -Trigger (New-JobTrigger -AtLogOn)",
        "Get-ScheduledJob x | Add-JobTrigger -Trigger (New-JobTrigger -Daily -At 3am)",
        "Get-ScheduledJob x | Set-JobTrigger -AtLogOn",
        'powershell -c "Register-ScheduledJob -Name x -ScriptBlock { calc }"',
    ],
)
def test_a_scheduled_job_asks_as_persistence(command: str) -> None:
    """S-RULE-209: registered, given new code or a new trigger, a job runs later with nobody asked."""
    assert ps(command) == PERSISTENCE


@requirement("S-RULE-209")
def test_a_scheduled_job_typed_into_a_console_asks() -> None:
    """S-RULE-209: the keyboard is a shell; the job typed into PowerShell is the same job."""
    assert typed_in_console("Register-ScheduledJob -Name x -ScriptBlock { calc }") == PERSISTENCE


@requirement("S-RULE-209")
def test_the_reason_names_the_cmdlet_as_it_is_spelled() -> None:
    """S-RULE-209: the person approving sees which cmdlet registers what."""
    from tests.policy.verdicts import reason_of

    assert "Register-ScheduledJob" in reason_of("Register-ScheduledJob -Name x -ScriptBlock { calc }")


@requirement("S-RULE-209")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"Register-ScheduledJob -Name x -ScriptBlock { Remove-Item C:\Windows -Recurse -Force }", "deny"),
        (r"$sb = { Remove-Item C:\Windows -Recurse -Force }; Register-ScheduledJob -Name x -ScriptBlock $sb", "deny"),
        ("Register-ScheduledJob -Name x -ScriptBlock { Stop-Process -Name lsass -Force }", "deny"),
    ],
)
def test_a_jobs_block_is_judged_where_it_is_written(command: str, expected: str) -> None:
    """S-RULE-209: the block's delete or kill is refused as that delete or kill, not only asked as persistence."""
    found = ps(command)
    assert found is not None
    assert found[1] == expected
    assert found[0] != "persistence-autostart"


@requirement("S-RULE-209")
@pytest.mark.parametrize(
    "command",
    [
        "Get-ScheduledJob",
        "Get-JobTrigger -Name x",
        "Disable-ScheduledJob -Name x",
        "Unregister-ScheduledJob -Name x",
        "Get-ScheduledJob | Unregister-ScheduledJob",
        "New-JobTrigger -AtLogOn",
        "Receive-Job -Name x",
    ],
)
def test_reading_disabling_and_removing_jobs_stay_ordinary(command: str) -> None:
    """S-RULE-209: nothing new runs later."""
    assert ps(command) is None


SAFE_BOOT = r"HKLM\SYSTEM\CurrentControlSet\Control\SafeBoot"


@requirement("S-RULE-210")
@pytest.mark.parametrize(
    "command",
    [
        rf"reg add {SAFE_BOOT}\Minimal\x /ve /d Service /f",
        r"reg add HKLM\SYSTEM\ControlSet001\Control\SafeBoot\Network\x /ve /d Service /f",
        r"reg.exe ADD hklm\system\currentcontrolset\control\safeboot\minimal\x /VE /D Driver /F",
        r"New-Item HKLM:\SYSTEM\CurrentControlSet\Control\SafeBoot\Minimal\x -Value Service -Force",
        r"Set-ItemProperty HKLM:\SYSTEM\CurrentControlSet\Control\SafeBoot -Name AlternateShell -Value C:\t\x.exe",
        rf"reg delete {SAFE_BOOT} /f",
        r"Remove-Item HKLM:\SYSTEM\CurrentControlSet\Control\SafeBoot\Minimal -Recurse",
        rf"cmd /c reg add {SAFE_BOOT}\Minimal\x /ve /d Service /f",
        r"$k = 'SafeBoot'; reg add HKLM\SYSTEM\CurrentControlSet\Control\$k\Minimal\x /ve /d Service /f",
    ],
)
def test_the_safe_mode_lists_are_a_security_setting(command: str) -> None:
    """S-RULE-210: a service there starts where no security tool runs; deleted, there is no Safe Mode."""
    assert ps(command) == WEAKENING


@requirement("S-RULE-210")
@pytest.mark.parametrize(
    "args",
    [
        {"mode": "set", "path": SAFE_BOOT.replace("HKLM", "HKLM:") + r"\Minimal\x", "name": "(default)", "value": "x"},
        {"mode": "set", "path": SAFE_BOOT.replace("HKLM", "HKLM:"), "name": "AlternateShell", "value": r"C:\x.exe"},
        {"mode": "delete", "path": SAFE_BOOT.replace("HKLM", "HKLM:") + r"\Network"},
    ],
)
def test_the_registry_tool_is_refused_the_same(args: dict[str, str]) -> None:
    """S-RULE-210: one place, every tool."""
    assert verdict("Registry", **args) == WEAKENING


@requirement("S-RULE-210")
def test_typed_into_a_console_is_refused_the_same() -> None:
    """S-RULE-210: the keyboard is a shell."""
    assert typed_in_console(rf"reg add {SAFE_BOOT}\Minimal\x /ve /d Service /f") == WEAKENING


@requirement("S-RULE-210")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("PowerShell", {"command": rf"reg query {SAFE_BOOT}\Minimal"}),
        ("PowerShell", {"command": r"Get-ChildItem HKLM:\SYSTEM\CurrentControlSet\Control\SafeBoot\Network"}),
        ("Registry", {"mode": "get", "path": SAFE_BOOT.replace("HKLM", "HKLM:") + r"\Minimal"}),
        ("PowerShell", {"command": r"reg add HKCU\Software\SafeBoot\x /ve /d y /f"}),  # another key of that name
    ],
)
def test_reading_the_lists_stays_ordinary(tool: str, args: dict[str, str]) -> None:
    """S-RULE-210: reading them changes nothing."""
    assert verdict(tool, **args) is None
