"""An application-compatibility shim database patches the programs it names (S-RULE-151)."""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

FLAGS = "HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\AppCompatFlags"
HIJACK = ("persistence-hijack", "deny")


@requirement("S-RULE-151")
@pytest.mark.parametrize(
    "command", ["sdbinst -q C:\\t\\x.sdb", "sdbinst.exe C:\\t\\x.sdb", "cmd /c sdbinst -u C:\\t\\x.sdb"]
)
def test_sdbinst_registers_a_shim_database(command: str) -> None:
    """S-RULE-151: installing (or removing) a shim database is a hijack point changed."""
    assert ps(command) == HIJACK


@requirement("S-RULE-151")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            {"mode": "set", "path": FLAGS + "\\InstalledSDB\\{x}", "name": "DatabasePath", "value": "C:\\t\\x.sdb"},
            HIJACK,
        ),
        ({"mode": "set", "path": FLAGS + "\\Custom\\notepad.exe", "name": "{x}.sdb", "value": "1"}, HIJACK),
        # a whole HKLM key deleted is refused by the machine-hive row first
        ({"mode": "delete", "path": FLAGS + "\\Custom\\notepad.exe"}, ("registry-delete-machine-hive", "deny")),
        ({"mode": "get", "path": FLAGS + "\\InstalledSDB"}, None),
        ({"mode": "list", "path": FLAGS + "\\Custom"}, None),
        (
            {
                "mode": "set",
                "path": FLAGS.replace("HKLM", "HKCU") + "\\Layers",
                "name": "C:\\a\\x.exe",
                "value": "~ WIN8RTM",
            },
            None,
        ),
    ],
)
def test_the_shim_keys_are_a_hijack_point(args: dict[str, str], expected: tuple[str, str] | None) -> None:
    """S-RULE-151: a change below InstalledSDB or Custom is refused; reads and a program's own layer pass."""
    assert verdict("Registry", **args) == expected
