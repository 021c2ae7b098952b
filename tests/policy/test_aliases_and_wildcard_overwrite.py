"""Every built-in alias of Windows PowerShell 5.1 is known, and a wildcard overwrite of a user's
files asks (S-RULE-78).

Found by an attacker pass: `clc $env:USERPROFILE\\Documents\\*` was read as a program named `clc`,
and `Clear-Content ~\\Documents\\*.docx` (every document emptied) passed where a delete of them asks.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.dispatch import analyse_tool
from tests._requirements import requirement
from tests.policy.verdicts import ps


# A sample across the aliases that were missing, as `Get-Alias` lists them on Windows PowerShell 5.1.
@requirement("S-RULE-78")
@pytest.mark.parametrize(
    ("alias", "cmdlet"),
    [
        ("clc", "clear-content"),
        ("cli", "clear-item"),
        ("clp", "clear-itemproperty"),
        ("cpp", "copy-itemproperty"),
        ("mp", "move-itemproperty"),
        ("rnp", "rename-itemproperty"),
        ("gi", "get-item"),
        ("gpv", "get-itempropertyvalue"),
        ("pushd", "push-location"),
        ("popd", "pop-location"),
        ("rvpa", "resolve-path"),
        ("swmi", "set-wmiinstance"),
        ("ndr", "new-psdrive"),
        ("mount", "new-psdrive"),
        ("etsn", "enter-pssession"),
        ("scb", "set-clipboard"),
        ("sort", "sort-object"),
        ("fc", "format-custom"),
    ],
)
def test_a_built_in_alias_is_its_cmdlet(alias: str, cmdlet: str) -> None:
    """S-RULE-78: the alias resolves to the cmdlet, not to a program of that name."""
    (op,) = analyse_tool("PowerShell", {"command": f"{alias} x"}).operations
    assert (op.shell, op.name) == ("powershell", cmdlet)


@requirement("S-RULE-78")
@pytest.mark.parametrize(
    "command",
    [
        "Clear-Content C:\\Users\\me\\Documents\\*.docx",
        "Set-Content ~\\Desktop\\*.txt 'gone'",
        "clc $env:USERPROFILE\\Documents\\*",
        "sc C:\\Users\\me\\Pictures\\*.jpg ''",
    ],
)
def test_a_wildcard_overwrite_of_a_users_folder_asks(command: str) -> None:
    """S-RULE-78: every matching file emptied at once is a person's call, as a delete of them is."""
    assert ps(command) == ("wildcard-delete", "ask")


@requirement("S-RULE-78")
@pytest.mark.parametrize(
    "command",
    [
        "Clear-Content C:\\Users\\me\\Documents\\a.docx",  # one named file
        "Add-Content C:\\Users\\me\\Documents\\*.txt 'x'",  # appends keep what was there
        "Set-Content C:\\temp\\*.log ''",  # not a user's folder
        "Clear-Content C:\\Users\\me\\Documents\\proj\\*.log",  # a project's logs, below the folder itself
        "pushd C:\\src\\app; gi .\\README.md",
    ],
)
def test_single_files_appends_and_other_folders_pass(command: str) -> None:
    """S-RULE-78: no false alarm on a named file, an append, or files outside a user's own folders."""
    assert ps(command) is None


@requirement("S-RULE-78")
def test_pushd_moves_where_relative_paths_point() -> None:
    """S-RULE-78: `pushd` is Push-Location, so a relative delete after it lands in that folder."""
    assert ps("pushd C:\\Windows\\System32; del drivers\\etc\\hosts") == ("protected-place-delete", "deny")
