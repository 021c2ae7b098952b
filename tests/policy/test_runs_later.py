"""What a persistence entry will run is judged now (S-RULE-116).

A scheduled task, a service or a run key only asks (`persistence-autostart`): a person may approve "a task
named backup" without reading its command. When that command would be refused if the agent ran it now, the
entry is refused for it, with the reason of the rule it hits.
"""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

RUN_KEY = "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"
DELETE_USERS = ("protected-place-delete", "deny")


@requirement("S-RULE-116")
@pytest.mark.parametrize(
    "command",
    [
        r'schtasks /create /tn x /sc once /st 23:00 /tr "cmd /c rd /s /q C:\Users"',
        r'schtasks /change /tn x /tr "cmd /c rd /s /q C:\Users"',
        r"Register-ScheduledTask x -Action (New-ScheduledTaskAction -Execute cmd.exe -Argument '/c rd /s /q C:\Users')",
        r"$a = New-ScheduledTaskAction -Execute cmd -Argument '/c rd /s /q C:\Users'; Register-ScheduledTask x -A $a",
        r"New-Service -Name x -BinaryPathName 'cmd.exe /c rd /s /q C:\Users'",
        r"Set-Service x -BinaryPathName 'cmd.exe /c rd /s /q C:\Users'",
        r'sc.exe create x binPath= "cmd /c rd /s /q C:\Users" start= auto',
        r"at 23:00 /every:M cmd /c rd /s /q C:\Users",
        r"Set-ItemProperty HKCU:\Software\Microsoft\Windows\CurrentVersion\RunOnce x 'cmd /c rd /s /q C:\Users'",
    ],
)
def test_an_entry_that_would_run_a_refused_command_is_refused_for_it(command: str) -> None:
    """S-RULE-116: tasks, services, `at` jobs and run keys, by every spelling the analyser reads."""
    assert ps(command) == DELETE_USERS


@requirement("S-RULE-116")
def test_the_registry_tool_and_the_reason() -> None:
    """S-RULE-116: a Run value set by the Registry tool is judged too; the reason says it runs later."""
    args = {"mode": "set", "path": RUN_KEY, "name": "x", "value": "cmd /c rd /s /q C:\\Users"}
    assert verdict("Registry", **args) == DELETE_USERS
    hit = load_rules().match("Registry", args)
    assert hit is not None and hit.reason.startswith("what this sets up to run later would be refused now: ")
    command = r'schtasks /create /tn x /sc daily /tr "powershell -c Stop-Process -Name lsass -Force"'
    assert ps(command) == ("kill-critical-process", "deny")


@requirement("S-RULE-116")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("PowerShell", {"command": r'schtasks /create /tn b /sc daily /tr "robocopy C:\Users\me\Documents D:\b /E"'}),
        ("PowerShell", {"command": r"New-ScheduledTaskAction -Execute notepad.exe"}),
        ("PowerShell", {"command": r"New-Service -Name svc -BinaryPathName 'C:\Program Files\Svc\svc.exe'"}),
        ("Registry", {"mode": "set", "path": RUN_KEY, "name": "x", "value": '"C:\\Program Files\\App\\app.exe" -min'}),
    ],
)
def test_an_entry_that_runs_something_harmless_keeps_its_own_ask(tool: str, args: dict[str, object]) -> None:
    """S-RULE-116: otherwise the entry is the person's call, as before."""
    assert verdict(tool, **args) == ("persistence-autostart", "ask")


@requirement("S-RULE-116")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        (
            "Registry",
            {
                "mode": "set",
                "path": "HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Spooler",
                "name": "ImagePath",
                "value": "cmd /c rd /s /q C:\\Users",
            },
        ),
        (
            "App",
            {
                "mode": "launch_executable",
                "executable": "C:\\Windows\\System32\\schtasks.exe",
                "args": ["/create", "/tn", "x", "/sc", "onlogon", "/tr", "cmd /c rd /s /q C:\\Users"],
            },
        ),
        (
            "PowerShell",
            {
                "command": r"reg add HKCU\Software\Microsoft\Windows\CurrentVersion\Run /v x "
                r"/d 'cmd /c rd /s /q C:\Users'"
            },
        ),
    ],
)
def test_every_tool_that_sets_up_an_entry_is_judged_on_what_it_runs(tool: str, args: dict[str, object]) -> None:
    """S-RULE-116: a service's `ImagePath` set by the Registry tool, App starting schtasks.exe, and `reg add` of a
    Run value, as the cmdlets are (a service's other values are not a command line)."""
    assert verdict(
        "Registry",
        mode="set",
        path="HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Svc",
        name="Description",
        value="cmd /c rd /s /q C:\\Users",
    ) == ("persistence-autostart", "ask")
    assert verdict(tool, **args) == DELETE_USERS
