"""A question asking for a secret is a password prompt (S-RULE-187); the Internet zones and remote-session policies
are security settings (S-RULE-188).

Every refusal below passed before: `Read-Host 'Enter your Windows password'` and an `InputBox` titled "Windows
Security" collect a password in plain sight, and a site made trusted or a session made watchable without consent
changed no place the rules knew.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

PROMPT = ("credential-prompt-command", "ask")
WEAKENS = ("security-weakening", "deny")
_VB = "Add-Type -AssemblyName Microsoft.VisualBasic; "


@requirement("S-RULE-187")
@pytest.mark.parametrize(
    "command",
    [
        "$p = Read-Host 'Enter your Windows password'",
        "Read-Host -Prompt 'Your PIN'",
        "$code = Read-Host 'Enter the verification code we sent you'",
        'Read-Host "Microsoft account passcode"',
        "$k = Read-Host 'Paste your wallet seed phrase'",
        _VB + "$p = [Microsoft.VisualBasic.Interaction]::InputBox('Windows needs your password', 'Windows Security')",
        _VB + "[Microsoft.VisualBasic.Interaction]::InputBox('Enter your MFA code')",
    ],
)
def test_a_question_asking_for_a_secret_asks(command: str) -> None:
    """S-RULE-187: what is typed lands in the command's hands."""
    assert ps(command) == PROMPT


@requirement("S-RULE-187")
@pytest.mark.parametrize(
    "command",
    [
        "$n = Read-Host 'Your name'",
        "$a = Read-Host 'Continue? (y/n)'",
        _VB + "$f = [Microsoft.VisualBasic.Interaction]::InputBox('Folder name')",
        "Write-Host 'password rotated'; Read-Host 'Press Enter to continue'",
        "Get-Help Read-Host",
    ],
)
def test_other_questions_stay_ordinary(command: str) -> None:
    """S-RULE-187: only a question about a secret, in the prompt's own statement."""
    assert ps(command) is None


@requirement("S-RULE-188")
@pytest.mark.parametrize(
    "command",
    [
        r'reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Internet Settings\ZoneMap\Domains\evil.example" '
        "/v https /t REG_DWORD /d 2 /f",
        r"Set-ItemProperty 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Internet Settings\Zones\3' "
        "-Name 1806 -Value 0",
        r"New-Item 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\CurrentVersion\Internet Settings\ZoneMap"
        r"\Domains\evil.example'",
        r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services" /v Shadow /t REG_DWORD /d 2 /f',
        r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Remote Assistance" /v fAllowToGetHelp /t REG_DWORD /d 1 /f',
    ],
)
def test_a_zone_or_a_remote_session_policy_changed_is_refused(command: str) -> None:
    """S-RULE-188: a site trusted, a zone's protections off, a session watchable without consent."""
    assert ps(command) == WEAKENS


@requirement("S-RULE-188")
def test_the_registry_tool_is_judged_the_same() -> None:
    """S-RULE-188: by place, whatever tool writes the key."""
    key = r"HKLM:\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services"
    assert verdict("Registry", mode="set", path=key, name="Shadow", value="2", type="DWord") == WEAKENS


@requirement("S-RULE-188")
@pytest.mark.parametrize(
    "command",
    [
        r'reg query "HKCU\Software\Microsoft\Windows\CurrentVersion\Internet Settings\ZoneMap" /s',
        r"Get-ItemProperty 'HKLM:\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services'",
    ],
)
def test_reading_them_stays_ordinary(command: str) -> None:
    """S-RULE-188: only a change weakens."""
    assert ps(command) is None
