"""Defaults a script sets in `$PSDefaultParameterValues` are applied to its later commands (S-RULE-85).

Found by an attacker pass: `$PSDefaultParameterValues['Remove-Item:Recurse']=$true; Remove-Item C:\\temp\\build`
deletes the whole tree, but the `Remove-Item` it runs names no `-Recurse` and the call was forwarded.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_defaults import with_default_parameters
from policy.rules.shell.ops import Analysis, Operation
from tests._requirements import requirement
from tests.policy.verdicts import ps

RECURSIVE = ("recursive-delete", "deny")
DYNAMIC = ("dynamic-command", "ask")


@requirement("S-RULE-85")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("$PSDefaultParameterValues['Remove-Item:Recurse']=$true; Remove-Item C:\\temp\\build", RECURSIVE),
        ('$PSDefaultParameterValues["Remove-Item:Recurse"] = $true; rm C:\\temp\\build', RECURSIVE),
        ("$global:PSDefaultParameterValues['Remove-Item:Recurse']=$true; del C:\\temp\\build", RECURSIVE),
        ("${PSDefaultParameterValues}['Remove-Item:Recurse']=$true; Remove-Item C:\\temp\\build", RECURSIVE),
        ("$psdefaultparametervalues['remove-item:recurse']=$true; Remove-Item C:\\temp\\build", RECURSIVE),
        ("$PSDefaultParameterValues.Add('Remove-Item:Recurse', $true); Remove-Item C:\\temp\\build", RECURSIVE),
        ("$PSDefaultParameterValues.'Remove-Item:Recurse' = $true; Remove-Item C:\\temp\\build", RECURSIVE),
        (
            "$PSDefaultParameterValues = @{'Out-File:Encoding'='utf8'; 'Remove-Item:Recurse'=$true}\n"
            "Remove-Item C:\\temp\\build",
            RECURSIVE,
        ),
        ("$PSDefaultParameterValues['Remove-*:Recurse']=$true; Remove-Item C:\\temp\\build", RECURSIVE),
        ("$PSDefaultParameterValues['*:Recurse']=$true; Remove-Item C:\\temp\\build", RECURSIVE),
        # A quoted 'false' is a non-empty string: PowerShell turns the switch on.
        ("$PSDefaultParameterValues['Remove-Item:Recurse']='false'; Remove-Item C:\\temp\\build", RECURSIVE),
        (
            "$PSDefaultParameterValues['Remove-Item:Recurse']=$true; $PSDefaultParameterValues['*:Force']=$true; "
            "Remove-Item C:\\Users\\me\\Documents",
            ("protected-place-delete", "deny"),
        ),
        (
            "$PSDefaultParameterValues['Stop-Process:Name']='lsass'; Stop-Process -Force",
            ("kill-critical-process", "deny"),
        ),
        ("$PSDefaultParameterValues['Stop-Process:Force']=$true; Stop-Process -Name notepad", ("force-kill", "ask")),
        (
            "$PSDefaultParameterValues['Remove-Item:Path']='C:\\Windows\\System32'; Remove-Item -Recurse",
            ("protected-place-delete", "deny"),
        ),
        (
            "iex ('$PSDefault'+'ParameterValues[''Remove-Item:Recurse'']=$true'); Remove-Item C:\\temp\\build",
            RECURSIVE,
        ),
        (
            "powershell -c \"`$PSDefaultParameterValues['Remove-Item:Recurse']=`$true; Remove-Item C:\\temp\\b\"",
            RECURSIVE,
        ),
    ],
)
def test_a_default_set_in_the_script_is_applied_to_its_commands(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-85: the later command is judged as PowerShell runs it, with the default it did not set."""
    assert ps(command) == expected


@requirement("S-RULE-85")
@pytest.mark.parametrize(
    "command",
    [
        "$d = $PSDefaultParameterValues; $d['Remove-Item:Recurse'] = $true; Remove-Item C:\\temp\\build",
        "Set-Variable PSDefaultParameterValues @{'Remove-Item:Recurse'=$true}; Remove-Item C:\\temp\\build",
        "Set-Variable ('PSDefault'+'ParameterValues') @{'Remove-Item:Recurse'=$true}; Remove-Item C:\\temp\\b",
        "(Get-Variable PSDef*).Value['Remove-Item:Recurse']=$true; Remove-Item C:\\temp\\build",
        "(Get-Item variable:PSDefaultParameterValues).Value['Remove-Item:Recurse']=$true; Remove-Item C:\\t\\b",
        "$k='Remove-Item:Recurse'; $PSDefaultParameterValues[$k]=$true; Remove-Item C:\\temp\\build",
        "$PSDefaultParameterValues['Remove-Item:Recurse']={$true}; Remove-Item C:\\temp\\build",
        "$PSDefaultParameterValues['Remove-Item:Recurse'] = $on; Remove-Item C:\\temp\\build",
        "$PSDefaultParameterValues.Add('Remove-Item:Recurse', $true -or $x); Remove-Item C:\\temp\\build",
        "$PSDefaultParameterValues += @{'Remove-Item:Recurse'=$true}; Remove-Item C:\\temp\\build",
        "$PSDefaultParameterValues | ForEach-Object { $_['Remove-Item:Recurse']=$true }; Remove-Item C:\\t\\b",
    ],
)
def test_a_change_the_gateway_does_not_follow_asks(command: str) -> None:
    """S-RULE-85: a change of the defaults that is not a constant write is never silently allowed."""
    assert ps(command) == DYNAMIC


@requirement("S-RULE-85")
@pytest.mark.parametrize(
    "command",
    [
        "$PSDefaultParameterValues['Out-File:Encoding']='utf8'; 'x' | Out-File C:\\temp\\a.txt",
        "$PSDefaultParameterValues['*:Encoding'] = 'utf8'",
        "$PSDefaultParameterValues['Export-Csv:NoTypeInformation'] = $true; Get-Process | Export-Csv C:\\t\\p.csv",
        "$PSDefaultParameterValues = @{ 'Invoke-RestMethod:TimeoutSec' = 30 }",
        "$PSDefaultParameterValues",
        "$PSDefaultParameterValues['Out-File:Encoding']",
        "$PSDefaultParameterValues.Clear()",
        "$PSDefaultParameterValues.Remove('Out-File:Encoding')",
        "$PSDefaultParameterValues['Disabled'] = $true",
        "Write-Output 'PSDefaultParameterValues'",
        "Get-Help about_Parameters_Default_Values",
        "Get-Variable",
        "Remove-Item C:\\temp\\a.txt",
        "$PSDefaultParameterValues['Remove-Item:Recurse']=$true; Get-ChildItem C:\\temp",
    ],
)
def test_reading_and_defaults_that_change_nothing_judged_pass(command: str) -> None:
    """S-RULE-85: reading the table and an encoding default are no danger."""
    assert ps(command) is None


@requirement("S-RULE-85")
def test_a_script_that_leaves_the_variable_alone_is_the_same_analysis() -> None:
    """S-RULE-85: the pass returns the analyser's own value when nothing names the variable."""
    analysis = Analysis(operations=(Operation(shell="powershell", name="remove-item", args=("C:\\x",)),))
    assert with_default_parameters("Remove-Item C:\\x", analysis) is analysis


@requirement("S-RULE-85")
def test_a_value_default_beside_a_positional_argument_is_read_both_ways() -> None:
    """S-RULE-85: PowerShell may bind the positional argument to the defaulted parameter; both are judged."""
    op = Operation(shell="powershell", name="remove-item", args=("C:\\temp\\x",))
    text = "$PSDefaultParameterValues['Remove-Item:Path']='C:\\y'; Remove-Item C:\\temp\\x"
    out = with_default_parameters(text, Analysis(operations=(op,)))
    assert out.operations == (
        op,
        Operation(shell="powershell", name="remove-item", args=("C:\\temp\\x",), params=(("path", "C:\\y"),)),
    )


@requirement("S-RULE-85")
@pytest.mark.parametrize(
    "command",
    [
        # A printed name built at run time does not cover a real mention beside it.
        "Write-Output ('PSDefault'+'ParameterValues'); $d = $PSDefaultParameterValues; $d['Remove-Item:Recurse']=$true",
        "Write-Output 'PSDefaultParameterValues'; $d = $PSDefaultParameterValues; $d['Remove-Item:Recurse']=$true",
        "Write-Host ($d = $PSDefaultParameterValues); $d['Remove-Item:Recurse']=$true; Remove-Item C:\\temp\\b",
    ],
)
def test_printing_the_name_hides_no_other_change(command: str) -> None:
    """S-RULE-85: only a quoted literal a printing command shows is set aside."""
    assert ps(command) == DYNAMIC
