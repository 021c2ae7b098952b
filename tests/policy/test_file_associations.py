"""File types pointed at a class that runs its file (S-RULE-143).

`assoc .txt=exefile` makes Windows run every `.txt` file as a program when it is opened: a document the agent wrote
becomes code the user starts by double-clicking it. The same default value written to the extension's key in
`…\\Software\\Classes` does the same.
"""

from __future__ import annotations

import pytest

from policy.rules.judge import RUNNING_CLASSES
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

HIJACK = ("persistence-hijack", "deny")


@requirement("S-RULE-143")
@pytest.mark.parametrize("cls", sorted(RUNNING_CLASSES))
def test_each_running_class_makes_assoc_a_hijack(cls: str) -> None:
    """S-RULE-143: every class in the list runs its file."""
    assert ps(f"cmd /c assoc .txt={cls}") == HIJACK


@requirement("S-RULE-143")
@pytest.mark.parametrize(
    "key",
    [
        r"HKCU:\Software\Classes\.txt",
        r"HKLM:\SOFTWARE\Classes\.txt",
        r"Registry::HKEY_CLASSES_ROOT\.txt",
        r"HKEY_USERS\S-1-5-21-1-2-3-1001\Software\Classes\.txt",
    ],
)
def test_the_extensions_default_value_by_every_tool(key: str) -> None:
    """S-RULE-143: the Registry tool, reg add /ve, Set-ItemProperty '(default)' and New-Item -Value."""
    assert verdict("Registry", mode="set", path=key, name="", value="exefile") == HIJACK
    reg_key = key.replace("Registry::HKEY_CLASSES_ROOT", "HKCR").replace(":", "", 1)
    assert ps(f"reg add {reg_key} /ve /d ExeFile /f") == HIJACK
    assert ps(f"Set-ItemProperty -Path '{key}' -Name '(default)' -Value batfile") == HIJACK
    assert ps(f"New-Item -Path '{key}' -Value vbsfile -Force") == HIJACK


@requirement("S-RULE-143")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("PowerShell", {"command": "cmd /c assoc .log=Notepad++_file"}),
        ("PowerShell", {"command": "cmd /c assoc .txt=txtfile"}),
        ("PowerShell", {"command": "cmd /c assoc .txt"}),
        ("Registry", {"mode": "set", "path": r"HKCU:\Software\Classes\.txt", "name": "", "value": "txtfile"}),
        (
            "Registry",
            {"mode": "set", "path": r"HKCU:\Software\Classes\.txt", "name": "Content Type", "value": "exefile"},
        ),
        ("Registry", {"mode": "get", "path": r"HKCU:\Software\Classes\.txt"}),
        ("Registry", {"mode": "set", "path": r"HKCU:\Software\Classes\exefile", "name": "", "value": "Application"}),
    ],
)
def test_other_classes_and_values_pass(tool: str, args: dict[str, str]) -> None:
    """S-RULE-143: an editor's class, the type's own class, a lookup, another value, the class's description."""
    assert verdict(tool, **args) is None
