"""A Win32_Process terminate is judged on the processes its filter selects (S-RULE-88).

Found by a helper's mutation pass: a filter on another property (`ParentProcessId=624`,
`UserName='bob'`) was read as no filter at all, so a kill of a few processes was refused as a kill of
every process; and `Name LIKE 'lsa%'` named a process called `lsa%`.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-88")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            'Invoke-WmiMethod -Class Win32_Process -Name Terminate -Filter "ParentProcessId=624"',
            ("force-kill", "ask"),
        ),
        (
            "Get-WmiObject Win32_Process -Filter \"UserName='bob'\" | Invoke-WmiMethod -Name Terminate",
            ("force-kill", "ask"),
        ),
        ('wmic process where "ParentProcessId=624" delete', ("force-kill", "ask")),
        (
            "Get-CimInstance Win32_Process -Filter \"Name like 'lsa%'\" | Invoke-CimMethod -MethodName Terminate",
            ("kill-critical-process", "deny"),
        ),
        (
            "Get-CimInstance Win32_Process -Filter \"Name like '%'\" | Invoke-CimMethod -MethodName Terminate",
            ("kill-all", "deny"),
        ),
        ("wmic process call terminate", ("kill-all", "deny")),
        ("Invoke-WmiMethod -Class Win32_Process -Name Terminate", ("kill-all", "deny")),
        ("wmic process where \"name='lsass.exe'\" call terminate", ("kill-critical-process", "deny")),
    ],
    ids=["parent-id", "user-name", "wmic-parent-id", "like-prefix", "like-all", "wmic-all", "no-filter", "name"],
)
def test_the_filter_selects_the_processes_killed(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-88: another property's test selects processes not named (asked); no filter is every process."""
    assert ps(command) == expected


@requirement("S-RULE-88")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "Get-CimInstance Win32_Process -Filter \"CommandLine like '%lsass%'\""
            " | Invoke-CimMethod -MethodName Terminate",
            ("kill-critical-process", "deny"),
        ),
        ("wmic process where \"ExecutablePath like '%winlogon%'\" call terminate", ("kill-critical-process", "deny")),
        ("wmic process where \"CommandLine like '%winmcp%'\" call terminate", ("kill-critical-process", "deny")),
        ("wmic process where \"CommandLine like '%'\" call terminate", ("kill-all", "deny")),
        (
            "Get-CimInstance Win32_Process -Filter \"CommandLine like '%notepad%'\""
            " | Invoke-CimMethod -MethodName Terminate",
            ("force-kill", "ask"),
        ),
    ],
)
def test_a_command_line_or_path_test_names_the_processes_as_a_name_test_does(
    command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-88: `CommandLine LIKE '%winmcp%'` selects the gateway as surely as its name would."""
    assert ps(command) == expected
