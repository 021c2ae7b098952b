"""The system clock set is a security weakening (S-RULE-215).

Before, `Set-Date`, cmd's `date 01-01-2020`/`time 10:00`, `net time \\\\dc01 /set` and WMI's `SetDateTime` passed.
The gateway dates observations, approvals and its audit lines by that clock: set back, an approval a person granted
for ten minutes lasts as long as the clock was moved, and the audit's times say what the agent chose.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, reason_of

WEAKENING = ("security-weakening", "deny")


@requirement("S-RULE-215")
@pytest.mark.parametrize(
    "command",
    [
        "Set-Date -Date (Get-Date).AddDays(-1)",
        "Set-Date -Adjust -1:00:00",
        "Set-Date 2020-01-01",
        "Microsoft.PowerShell.Utility\\Set-Date 2020-01-01",
        "& ('Set-' + 'Date') 2020-01-01",
        "$p = @{Date = '2020-01-01'}; Set-Date @p",
        "cmd /c date 01-01-2020",
        "cmd /c time 10:00",
        'cmd /c "echo 01-01-2020| date"',  # the value piped in
        "net time \\\\dc01 /set /y",
        "net.exe time /set",
        "Invoke-CimMethod -ClassName Win32_OperatingSystem -MethodName SetDateTime -Arguments @{LocalDateTime='2020'}",
        "Invoke-WmiMethod -Class Win32_OperatingSystem -Name SetDateTime -ArgumentList '20200101000000.000000+000'",
        'powershell -c "Set-Date 2020-01-01"',
    ],
)
def test_setting_the_clock_is_refused(command: str) -> None:
    """S-RULE-215: in every spelling, the clock the gateway's approvals and audit are dated by."""
    assert ps(command) == WEAKENING


@requirement("S-RULE-215")
@pytest.mark.parametrize(
    ("text", "scenario"),
    [("Set-Date 2020-01-01", "console-powershell"), ("date 01-01-2020", "console-cmd"), ("time 10:00", "console-cmd")],
)
def test_typed_into_a_console_is_refused(text: str, scenario: str) -> None:
    """S-RULE-215: the keyboard is a shell."""
    assert typed_in_console(text, scenario) == WEAKENING


@requirement("S-RULE-215")
def test_the_reason_says_why_the_clock_matters_and_the_remedy_reads_it() -> None:
    """S-RULE-215: the refusal names the gateway's own time, and points at a harmless read."""
    reason = reason_of("Set-Date 2020-01-01")
    assert "system clock" in reason
    assert "approval" in reason
    assert "`Get-Date`" in reason
    assert ps("Get-Date") is None  # the remedy is itself allowed (issue 18 item 5)


@requirement("S-RULE-215")
@pytest.mark.parametrize(
    "command",
    [
        "Get-Date",
        "Get-Date -Format o",
        "date",  # PowerShell's `Get-Date`
        "cmd /c date /t",
        "cmd /c time /T",
        "cmd /c date",  # prints, then waits for a value only the person can type
        "net time \\\\dc01",  # reads another machine's time
        "Set-TimeZone -Id UTC",  # the zone, not the clock: the epoch time the gateway reads stays
        "w32tm /query /status",
        "Write-Output 'Set-Date 2020-01-01'",
    ],
)
def test_reading_the_clock_stays_ordinary(command: str) -> None:
    """S-RULE-215: reading the time, or changing the zone it is shown in, moves nothing."""
    assert ps(command) is None
