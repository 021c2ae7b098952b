"""A service created or re-pointed through WMI is judged as `sc create`/`sc config … binpath=` (S-RULE-178).

Every verdict below that is not None passed before: `[wmiclass]'Win32_Service'.Create`, a Win32_Service object's
`Change(…, PathName)` and a WMI method piped from a variable were not read, so the program a service would start
as SYSTEM, or a security tool's service re-pointed, went unjudged.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

_SPOOLER = "Get-WmiObject Win32_Service -Filter \"Name='Spooler'\""
_DEFENDER = "Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\""


@requirement("S-RULE-178")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            r"([wmiclass]'Win32_Service').Create('upd','upd','C:\Temp\x.exe',16,1,'Automatic',$false,$null,$null)",
            ("persistence-autostart", "ask"),
        ),
        (
            r"([wmiclass]'Win32_Service').Create('u','u','cmd /c rd /s /q C:\Users',16,1,'Auto',$false,$null,$null)",
            ("protected-place-delete", "deny"),
        ),
        (
            r"Invoke-CimMethod -ClassName Win32_Service -MethodName Create -Arguments @{Name='u'; "
            r"PathName='cmd /c net user x P@ss1 /add'}",
            ("account-change", "deny"),
        ),
        (rf"({_SPOOLER}).Change($null,'C:\Temp\x.exe')", ("persistence-autostart", "ask")),
        (rf"({_SPOOLER}).Change($null,'cmd /c net user x P@ss1 /add')", ("account-change", "deny")),
        (rf"$s = {_DEFENDER}; $s.Change($null,'C:\Temp\x.exe')", ("disable-defender", "deny")),
        (rf"({_DEFENDER}).Change($null,$null,$null,$null,'Disabled')", ("disable-defender", "deny")),
        (
            "Get-CimInstance Win32_Service -Filter \"Name='Spooler'\" | Invoke-CimMethod -MethodName Change "
            r"-Arguments @{PathName='C:\Temp\x.exe'}",
            ("persistence-autostart", "ask"),
        ),
    ],
)
def test_a_service_created_or_re_pointed_through_wmi_is_judged(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-178: persistence, and the command line the service would run as SYSTEM is judged as its own."""
    assert ps(command) == expected


@requirement("S-RULE-178")
@pytest.mark.parametrize(
    "command",
    [
        "$s = Get-CimInstance Win32_Service -Filter \"Name='WinDefend'\"; "
        "$s | Invoke-CimMethod -MethodName StopService",
        "Invoke-CimMethod -InputObject (Get-CimInstance Win32_Service -Filter \"Name='WinDefend'\") "
        "-MethodName StopService",
    ],
)
def test_a_wmi_method_on_objects_an_earlier_query_selected_is_judged_on_them(command: str) -> None:
    """S-RULE-178: `$s | Invoke-CimMethod` and `-InputObject (…)` act on what the query selected."""
    assert ps(command) == ("disable-defender", "deny")


@requirement("S-RULE-178")
@pytest.mark.parametrize(
    "command",
    [
        rf"({_SPOOLER}).Change('Print Spooler')",
        rf"({_SPOOLER}).StartService()",
        "$s = Get-CimInstance Win32_Service -Filter \"Name='Spooler'\"; $s | Invoke-CimMethod -MethodName StopService",
        "$x = 'abc'; $x.Replace('a','b')",
        "Get-CimInstance Win32_Service | Select-Object Name, PathName",
    ],
)
def test_a_display_name_or_an_ordinary_service_stays_ordinary(command: str) -> None:
    """S-RULE-178: only a new binary, or a security tool's service changed, is judged."""
    assert ps(command) is None
