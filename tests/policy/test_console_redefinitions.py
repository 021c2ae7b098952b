"""What one Type call defines in a console changes what a later one runs (S-RULE-119).

A console keeps its session: `Set-Alias ls Remove-Item` typed and entered, then `ls C:\\Users -Recurse` typed
later, deletes the profiles while the later text reads as a listing. The PowerShell tool starts a fresh
PowerShell for each call, so there the alias dies with the call; typed into a console it stays.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import capture_of, focus_point, hit_of

ASK = ("dynamic-command", "ask")


@requirement("S-RULE-119")
@pytest.mark.parametrize(
    "text",
    [
        "Set-Alias ls Remove-Item",
        "sal -Name dir -Value Remove-Item -Option AllScope",
        "New-Alias cat Remove-Item",
        "function git { Write-Output hi }",
        "filter Out-Default { $_ }",
        "${function:Get-ChildItem} = { 'x' }",
        "Set-Item function:ls { 'x' }",
        "doskey dir=echo hi",
        "Set-PSReadLineKeyHandler -Chord Enter -Function AcceptLine",
        "$ExecutionContext.InvokeCommand.PreCommandLookupAction = { }",
    ],
)
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd", "windows-terminal"])
def test_a_definition_typed_into_a_console_asks(text: str, scenario: str) -> None:
    """S-RULE-119: an alias, function, filter, doskey macro, key handler or lookup hook lasts in the session."""
    loc = focus_point(capture_of(scenario))
    assert hit_of(scenario, "Type", text=text, loc=loc, press_enter=True) == ASK


@requirement("S-RULE-119")
def test_a_destructive_definition_keeps_its_deny_and_the_run_box_has_no_session() -> None:
    """S-RULE-119: the body is still judged (a deny stands); the Run box and an address bar keep nothing."""
    loc = focus_point(capture_of("console-powershell"))
    text = "function ls { Remove-Item C:\\Users -Recurse -Force }"
    assert hit_of("console-powershell", "Type", text=text, loc=loc, press_enter=True) == (
        "protected-place-delete",
        "deny",
    )
    run = focus_point(capture_of("run-box"))
    assert hit_of("run-box", "Type", text="notepad function.txt", loc=run, press_enter=True) is None


@requirement("S-RULE-119")
@pytest.mark.parametrize(
    "text", ["Get-Alias ls", "Get-Command -CommandType Function", "Write-Output 'function f {}'", "git status"]
)
def test_reading_definitions_and_ordinary_commands_pass(text: str) -> None:
    """S-RULE-119: listing aliases and functions, and text that only mentions a definition, pass."""
    loc = focus_point(capture_of("console-powershell"))
    assert hit_of("console-powershell", "Type", text=text, loc=loc, press_enter=True) is None
