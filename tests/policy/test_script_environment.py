"""An environment variable the script sets is read back as what it set (S-RULE-105): stop 31's attacker pass.

`$env:X = 'C:\\Users\\me\\.ssh\\id_rsa'; Get-Content $env:X` was allowed: `$env:X` was always read as the
machine's variable (its spelling, for `places.py`), never as the value the script had just given it.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.dispatch import analyse_tool
from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-105")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"$env:X = 'C:\Users\me\.ssh\id_rsa'; Get-Content $env:X", ("credential-access", "deny")),
        ("$env:X = 'C:\\Users\\me\\.ssh'; Copy-Item \"$env:X\\id_rsa\" C:\\t", ("credential-access", "deny")),
        (r"${env:X} = 'C:\Windows\System32'; Remove-Item ${env:X} -Recurse -Force", ("protected-place-delete", "deny")),
        (r"$env:X = 'Remove-Item'; & $env:X C:\Users -Recurse -Force", ("protected-place-delete", "deny")),
        (r"$env:X = 'rm -r -fo C:\Users'; iex $env:X", ("protected-place-delete", "deny")),
        (r"$env:Path += ';C:\tools\bin'; git --version", None),
        (r"$env:X = 'C:\t\notes.txt'; Get-Content $env:X", None),
        ("iex $env:X", ("dynamic-command", "ask")),  # never set here: the machine's, not known
    ],
    ids=["read-key", "copy-key", "braced", "command-name", "iex", "path-append", "ordinary-read", "unset"],
)
def test_a_variable_the_script_sets_has_that_value(command: str, expected: object) -> None:
    """S-RULE-105: reads, copies, deletes and calls through `$env:X` use the value the script gave it."""
    assert ps(command) == expected


@requirement("S-RULE-105")
def test_an_appended_machine_variable_keeps_its_spelling() -> None:
    """S-RULE-105: `$env:TEMP += '\\sub'` is the machine's TEMP with `\\sub` after it, for `places.py` to resolve."""
    analysis = analyse_tool("PowerShell", {"command": r"$env:TEMP += '\sub'; Get-ChildItem $env:TEMP"})
    assert analysis is not None
    (listing,) = [op for op in analysis.operations if op.name == "get-childitem"]
    assert listing.args == ("$env:TEMP\\sub",)


@requirement("S-RULE-105")
def test_a_variable_set_in_one_branch_is_not_constant_after_it() -> None:
    """S-RULE-105: set only when `$a` holds, `$env:X` may be either value afterwards: not constant."""
    analysis = analyse_tool("PowerShell", {"command": r"if ($a) { $env:X = 'C:\t' }; Get-ChildItem $env:X"})
    assert analysis is not None
    (listing,) = [op for op in analysis.operations if op.name == "get-childitem"]
    assert listing.args == (None,)
