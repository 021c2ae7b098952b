"""Which services a stop or disable selects: every one, a wildcard, a display name, a filter (S-RULE-87).

Found by a helper's mutation pass: `Get-Service | Stop-Service` (every service, Defender's too),
`Stop-Service -DisplayName 'Windows Defender Antivirus Service'`, `Stop-Service W*` and
`wmic service call stopservice` were forwarded; only a service's own name was known.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from tests._requirements import requirement
from tests.policy.verdicts import ps

DEFENDER = ("disable-defender", "deny")
FIREWALL = ("disable-firewall", "deny")
UNKNOWN = ("dynamic-command", "ask")


@requirement("S-RULE-87")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Get-Service | Stop-Service -Force", DEFENDER),
        ("gsv | spsv", DEFENDER),
        ("Get-Service | Set-Service -StartupType Disabled", DEFENDER),
        ("Stop-Service W*", DEFENDER),
        ("Stop-Service -Name '*'", DEFENDER),
        ("Stop-Service -DisplayName 'Windows Defender Antivirus Service'", DEFENDER),
        ("Stop-Service -DisplayName 'Microsoft Defender Antivirus Service'", DEFENDER),
        ("Set-Service -DisplayName 'Windows Defender Firewall' -StartupType Disabled", FIREWALL),
        ("Get-Service -DisplayName '*Defender*' | Stop-Service", DEFENDER),
        ("Get-Service | Where-Object Name -like 'Win*' | Stop-Service", DEFENDER),
        ("wmic service call stopservice", DEFENDER),
        ("wmic service WinDefend call stopservice", DEFENDER),
        ("wmic service where \"name like 'Win%'\" call stopservice", DEFENDER),
        ("Get-WmiObject Win32_Service | Invoke-WmiMethod -Name StopService", DEFENDER),
        (
            "Get-WmiObject Win32_Service -Filter \"DisplayName='Windows Defender Firewall'\" | "
            "Invoke-WmiMethod -Name StopService",
            FIREWALL,
        ),
    ],
    ids=[
        "every-service",
        "every-service-aliases",
        "every-service-disabled",
        "wildcard-name",
        "star",
        "display-name",
        "display-name-new-brand",
        "display-name-firewall",
        "display-wildcard-piped",
        "filter-wildcard",
        "wmic-every-service",
        "wmic-key",
        "wmic-like",
        "wmi-every-service",
        "wmi-display-name",
    ],
)
def test_a_selection_that_takes_in_a_security_service_is_refused(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-87: the services a wildcard, display name or missing filter selects include Defender's."""
    assert ps(command) == expected


@requirement("S-RULE-87")
@pytest.mark.parametrize(
    "command",
    [
        "Stop-Service $svc",
        "Get-Service | Where-Object {$_.Status -eq 'Running'} | Stop-Service",
        "wmic service where \"state='running'\" call stopservice",
        "Get-Content services.txt | Stop-Service",
    ],
    ids=["variable", "filter-not-read", "wmic-other-test", "names-from-a-file"],
)
def test_services_the_gateway_cannot_name_ask(command: str) -> None:
    """S-RULE-87: a stop of services not known may be Defender's; a person decides."""
    assert ps(command) == UNKNOWN


@requirement("S-RULE-87")
def test_the_reason_says_which_services_were_not_named() -> None:
    """S-RULE-87: the question names the act, not a weakening the gateway cannot show."""
    (hit,) = judge_call("PowerShell", {"command": "Stop-Service $svc"}).hits
    assert "Stop-Service of services that are not constant" in hit.reason


@requirement("S-RULE-87")
@pytest.mark.parametrize(
    "command",
    [
        "Stop-Service Spooler",
        "Get-Service *print* | Stop-Service",
        "Get-Service | Where-Object Name -eq Spooler | Stop-Service",
        "Set-Service $s -StartupType Automatic",
        "Restart-Service Spooler",
        "wmic service Spooler call stopservice",
        "wmic service get name,state",
        "Get-Service | Select-Object Name, Status",
        "Start-Service W*",
    ],
)
def test_other_services_and_reads_pass(command: str) -> None:
    """S-RULE-87: a selection without a security service, or a start or read, passes."""
    assert ps(command) is None
