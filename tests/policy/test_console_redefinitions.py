"""What one Type call defines in a console changes what a later one runs (S-RULE-119).

A console keeps its session: `Set-Alias ls Remove-Item` typed and entered, then `ls C:\\Users -Recurse` typed
later, deletes the profiles while the later text reads as a listing. The PowerShell tool starts a fresh
PowerShell for each call, so there the alias dies with the call; typed into a console it stays.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import capture_of, focus_point, hit_of, typed_in_console

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
    text = "function ls { Remove-Item C:\\Users -Recurse -Force }"
    assert typed_in_console(text) == (
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
    assert typed_in_console(text) is None


@requirement("S-RULE-123")
@pytest.mark.parametrize(
    "text",
    [
        "$env:TEMP = 'C:\\Windows\\System32'",
        "$env:Temp+='\\..\\..\\Windows'",
        "${env:ProgramFiles(x86)} = 'C:\\t'",
        "set TEMP=C:\\Windows\\System32",
        'set "windir=C:\\t"',
        "Set-Item -Path 'env:\\windir' -Value C:\\t",
        "[Environment]::SetEnvironmentVariable('ComSpec', 'C:\\t\\cmd.exe')",
        "$env:Path = 'C:\\Users\\Public;' + $env:Path",
        "$env:Path = $env:Path -replace '^', 'C:\\Users\\Public;'",
        "$env:Path = $env:Path + ';C:\\x' -replace '^', 'C:\\Users\\Public;'",
        "$env:PSModulePath = 'C:\\Users\\Public\\mods'",
        "set PATH=C:\\Users\\Public;%PATH%",
        "dir & set TEMP=C:\\Windows",
    ],
)
@pytest.mark.parametrize("scenario", ["console-powershell", "console-cmd", "windows-terminal"])
def test_a_standard_variable_changed_in_a_console_asks(text: str, scenario: str) -> None:
    """S-RULE-123: a later `del $env:TEMP\\hal.dll` or `notepad` would reach a place or program the text does not
    name: the standard folders and the program lookup lists."""
    loc = focus_point(capture_of(scenario))
    hit = hit_of(scenario, "Type", text=text, loc=loc, press_enter=True)
    assert hit == ASK


@requirement("S-RULE-123")
@pytest.mark.parametrize(
    "text",
    [
        "$env:Path += ';C:\\Users\\me\\tools'",
        '$env:Path = "$env:Path;C:\\Users\\me\\tools"',
        "$env:Path = $env:Path + ';C:\\Users\\me\\tools'; python -V",
        "set PATH=%PATH%;C:\\Users\\me\\tools",
        "$env:DEBUG = '1'",
        "$env:TEMPDIR = 'C:\\t'",
        "if ($env:TEMP -eq 'C:\\t') { 'same' }",
        "Write-Output '$env:TEMP = 1'",
        "Get-Item env:windir",
    ],
)
def test_appending_to_a_lookup_list_other_variables_and_reads_pass(text: str) -> None:
    """S-RULE-123: an append shadows nothing already found; a variable with no standard value is S-RULE-122's."""
    assert typed_in_console(text) is None


@requirement("S-RULE-123")
def test_the_reason_says_what_changed_and_the_powershell_tool_is_not_affected() -> None:
    """S-RULE-123: the person sees the assignment; a fresh PowerShell per tool call keeps nothing."""
    from policy.typed import _session_changes
    from tests.policy.verdicts import ps

    (hit,) = _session_changes("$env:TEMP = 'C:\\Windows'", "a PowerShell console")
    assert "changes a standard environment variable in a PowerShell console's session ($env:TEMP =" in hit.reason
    assert ps("$env:TEMP = 'C:\\t'; Write-Output $env:TEMP") is None
