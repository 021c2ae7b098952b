"""PowerShell's logging switched off from inside the session through reflection (S-RULE-175).

Every refusal below passed before: the cached Group Policy settings that turn script block logging on, and the ETW
provider every PowerShell event leaves through, are private fields no ordinary script touches. A reflected field's
`GetValue` into AMSI's internals passed too, since S-RULE-165 read `GetValue` as a registry read and dropped the
call's other effects when no registry key was open.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("security-weakening", "deny")
_SMA = "[Ref].Assembly.GetType('System.Management.Automation"


@requirement("S-RULE-175")
@pytest.mark.parametrize(
    "command",
    [
        f"$s={_SMA}.Utils').GetField('cachedGroupPolicySettings','NonPublic,Static').GetValue($null); "
        "$s['ScriptBlockLogging']['EnableScriptBlockLogging']=0",
        "[Reflection.Assembly]::LoadWithPartialName('System.Core').GetType('System.Diagnostics.Eventing.EventProvider')"
        f".GetField('m_enabled','NonPublic,Instance').SetValue({_SMA}.Tracing.PSEtwLogProvider')"
        ".GetField('etwProvider','NonPublic,Static').GetValue($null),0)",
        f"{_SMA}.AmsiUtils').GetField('amsiContext','NonPublic,Static').GetValue($null)",
    ],
)
def test_reaching_into_powershells_logging_or_amsi_internals_is_weakening(command: str) -> None:
    """S-RULE-175: as AMSI's `amsiInitFailed` set through reflection already was."""
    assert ps(command) == DENY


@requirement("S-RULE-175")
@pytest.mark.parametrize(
    "command",
    [
        "(Get-Item .).GetType().GetProperty('Name').GetValue((Get-Item .))",
        "Get-WinEvent -ProviderName Microsoft-Windows-PowerShell -MaxEvents 5",
        "[System.Diagnostics.Eventing.EventProvider]::new([guid]::NewGuid())",
    ],
)
def test_ordinary_reflection_and_reading_the_logs_stay_ordinary(command: str) -> None:
    """S-RULE-175: only PowerShell's own logging internals."""
    assert ps(command) is None
