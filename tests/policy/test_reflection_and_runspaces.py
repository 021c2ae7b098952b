"""Calls made by reflection or through a runspace (S-RULE-142): the same call, reached another way.

`[IO.Directory]::Delete('C:\\Users', $true)` is refused; so must be the method looked up by name and invoked, the
member invoked by name, the type looked up by name, and the text handed to a runspace's pipeline.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DELETE = ("protected-place-delete", "deny")
DYNAMIC = ("dynamic-command", "ask")


@requirement("S-RULE-142")
@pytest.mark.parametrize(
    "command",
    [
        "$m = [IO.Directory].GetMethod('Delete', [type[]]@([string], [bool])); $m.Invoke($null, @('C:\\Users', $true))",
        "[IO.Directory].GetMethod('delete').Invoke($null, @('C:\\Users', $true))",
        "[IO.Directory].InvokeMember('Delete', 'InvokeMethod', $null, $null, @('C:\\Users', $true))",
        "[System.IO.File].InvokeMember('Delete', 'InvokeMethod', $null, $null, @('C:\\Windows\\System32\\hal.dll'))",
        "[type]::GetType('System.IO.Directory')::Delete('C:\\Users', $true)",
        "$t = [Type]::GetType('System.IO.File'); $t::Delete('C:\\Windows\\System32\\hal.dll')",
    ],
)
def test_a_method_reached_by_reflection_is_the_direct_call(command: str) -> None:
    """S-RULE-142: the static call by the name reflection found."""
    assert ps(command) == DELETE


@requirement("S-RULE-142")
@pytest.mark.parametrize(
    "command",
    [
        "$rs = [RunspaceFactory]::CreateRunspace(); $rs.Open(); "
        "$rs.CreatePipeline('Remove-Item C:\\Users -Recurse').Invoke()",
        "$Host.Runspace.CreateNestedPipeline('Remove-Item C:\\Users -Recurse', $false).Invoke()",
        "$rs.CreateDisconnectedPipeline('Remove-Item C:\\Users -Recurse')",
    ],
)
def test_text_handed_to_a_runspace_pipeline_is_analysed(command: str) -> None:
    """S-RULE-142: the pipeline's text runs as PowerShell."""
    assert ps(command) == DELETE


@requirement("S-RULE-142")
@pytest.mark.parametrize(
    "command",
    [
        "[IO.Directory].GetMethod($name).Invoke($null, @('C:\\Users', $true))",
        "[IO.Directory].GetMethods() | Where-Object Name -eq 'Delete' | "
        "ForEach-Object { $_.Invoke($null, @('C:\\Users', $true)) }",
        "[IO.File].GetMember('Del*')",
        "$Host.Runspace.CreateNestedPipeline($code, $false).Invoke()",
    ],
)
def test_a_name_or_text_not_constant_asks(command: str) -> None:
    """S-RULE-142: reflection by a name found at run time, and a pipeline of text nobody can read, ask."""
    assert ps(command) == DYNAMIC


@requirement("S-RULE-142")
@pytest.mark.parametrize(
    "command",
    [
        "[string].GetMethods() | Select-Object Name",
        "[Math].GetMethod('Max', [type[]]@([int], [int])).Invoke($null, @(1, 2))",
        "[IO.Path].GetMethod('Combine', [type[]]@([string], [string])).Invoke($null, @('a', 'b'))",
        "$rs = [RunspaceFactory]::CreateRunspace(); $rs.Open(); $rs.CreatePipeline('Get-Date').Invoke()",
        "$rs.CreatePipeline().Invoke()",
    ],
)
def test_reflection_that_calls_nothing_harmful_passes(command: str) -> None:
    """S-RULE-142: listing a pure type's methods, calling a pure method, a pipeline that only reads the date."""
    assert ps(command) is None
