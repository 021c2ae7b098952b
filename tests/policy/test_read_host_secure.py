"""`Read-Host -AsSecureString` (or `-MaskInput`) is a password prompt in the console (S-RULE-176).

The asks below passed before: a command that hides what the person types into its prompt, then turns the secure
string back into text (`SecureStringToBSTR`), collects a password as `Get-Credential` does (S-RULE-42).
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

ASK = ("credential-prompt-command", "ask")


@requirement("S-RULE-176")
@pytest.mark.parametrize(
    "command",
    [
        "$s = Read-Host -AsSecureString 'Password'; "
        "[Runtime.InteropServices.Marshal]::PtrToStringAuto([Runtime.InteropServices.Marshal]::SecureStringToBSTR($s))",
        "$p = Read-Host 'Password' -MaskInput",
        "$p = Read-Host -as 'Password'",
        "& ('Read-'+'Host') -AsSecureString",
    ],
)
def test_a_hidden_console_prompt_is_a_password_prompt(command: str) -> None:
    """S-RULE-176: as Get-Credential's prompt."""
    assert ps(command) == ASK


@requirement("S-RULE-176")
@pytest.mark.parametrize("command", ["$n = Read-Host 'Your name'", "$n = Read-Host -Prompt 'Continue? (y/n)'"])
def test_an_ordinary_console_question_stays_ordinary(command: str) -> None:
    """S-RULE-176: what is typed in plain sight is no password prompt."""
    assert ps(command) is None
