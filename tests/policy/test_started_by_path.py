"""What PowerShell starts by its path is judged as a start of that path (S-RULE-164).

Both refusals below passed before: the call operator kept only the program's base name, so a document opened by
its path, or a program run from a drive mapped to another machine, was never weighed by where it is.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("credential-access", "deny")
REMOTE = ("remote-code", "ask")


@requirement("S-RULE-164")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("& C:\\Users\\me\\.ssh\\id_rsa", DENY),
        ("C:\\Users\\me\\.ssh\\id_rsa", DENY),
        ("& 'C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data'", DENY),
        (". C:\\Users\\bob\\.aws\\credentials", DENY),
        ("net use Z: \\\\files.example\\drop; Z:\\tools\\setup.exe", REMOTE),
        ("net use Z: \\\\files.example\\drop; & 'Z:\\tools\\setup.exe' /quiet", REMOTE),
        ("New-PSDrive -Name Q -PSProvider FileSystem -Root \\\\files.example\\drop; Q:\\setup.exe", REMOTE),
        ("& C:\\Windows\\System32\\notepad.exe C:\\t\\a.txt", None),
        ("& 'C:\\Program Files\\Git\\bin\\git.exe' status", None),
        (".\\build.ps1", None),
        ("C:\\src\\proj\\tools\\gen.exe --out C:\\src\\proj\\gen", None),
    ],
)
def test_a_path_started_by_powershell_is_judged_by_where_it_is(command: str, expected: object) -> None:
    """S-RULE-164: as `Invoke-Item` of the same path."""
    assert ps(command) == expected
