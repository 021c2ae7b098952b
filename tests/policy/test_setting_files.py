"""Settings applied from a file (S-RULE-117).

`reg import x.reg` does whatever the file says. Written in the same command with constant text, the file is
read line by line as the `reg add`/`reg delete` each line is; a file nobody read asks by what it can do.
"""

from __future__ import annotations

import pytest

from policy.rules.reg_file import reg_file_effects
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import ps

K = EffectKind
HEADER = "Windows Registry Editor Version 5.00`n"
RUN = r"[HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Run]`n"


def written_then_imported(body: str, importer: str = "reg import") -> str:
    return f'Set-Content C:\\t\\x.reg "{HEADER}{body}"; {importer} C:\\t\\x.reg'


@requirement("S-RULE-117")
@pytest.mark.parametrize(
    ("body", "importer", "expected"),
    [
        (RUN + r'`"x`"=`"cmd /c rd /s /q C:\\Users`"', "reg import", ("protected-place-delete", "deny")),
        (
            r'[HKEY_LOCAL_MACHINE\SOFTWARE\Policies\Microsoft\Windows Defender]`n`"DisableAntiSpyware`"=dword:1',
            "regedit /s",
            ("disable-defender", "deny"),
        ),
        (r"[-HKEY_LOCAL_MACHINE\SOFTWARE]", "reg import", ("registry-delete-machine-hive", "deny")),
        (RUN + r'`"x`"=`"notepad.exe`"', "reg import", ("persistence-autostart", "ask")),
        (r'[HKEY_CURRENT_USER\Software\MyApp]`n`"Theme`"=`"dark`"', "reg import", None),
    ],
)
def test_a_reg_file_written_and_imported_is_judged_by_its_lines(
    body: str, importer: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-117: a Run value by what it runs, a Defender policy, a hive deleted; an app's setting passes."""
    assert ps(written_then_imported(body, importer)) == expected


@requirement("S-RULE-117")
def test_the_reg_file_grammar() -> None:
    """S-RULE-117: hives spelled out, `@`, escaped strings, DWORDs, UTF-16 hex(2) with a continued line,
    a value deleted with `-`, a key deleted with `[-…]` (the values under it ignored, as regedit does)."""
    text = (
        'REGEDIT4\n[HKEY_LOCAL_MACHINE\\Software\\A]\n@="d"\n"P"="C:\\\\x \\"q\\""\n"N"=dword:0000000a\n'
        '"E"=hex(2):25,00,54,00,\\\n  4d,00,50,00,25,00,00,00\n"Old"=-\n'
        '[-HKEY_CURRENT_USER\\Software\\B]\n"Z"="ignored"\n'
    )
    found = [(e.kind, e.target, e.value_name, e.data) for e in reg_file_effects(text, "a.reg")]
    assert found == [
        (K.REGISTRY_SET, "HKLM\\Software\\A", "", "d"),
        (K.REGISTRY_SET, "HKLM\\Software\\A", "P", 'C:\\x "q"'),
        (K.REGISTRY_SET, "HKLM\\Software\\A", "N", "10"),
        (K.REGISTRY_SET, "HKLM\\Software\\A", "E", "%TMP%"),
        (K.REGISTRY_DELETE, "HKLM\\Software\\A", "Old", None),
        (K.REGISTRY_DELETE, "HKCU\\Software\\B", None, None),
    ]


@requirement("S-RULE-117")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"reg import C:\t\other.reg", ("dynamic-command", "ask")),  # not read: its lines are not known
        (r"mofcomp C:\t\x.mof", ("persistence-autostart", "ask")),
        (r"netsh -f C:\t\net.txt", ("network-change", "ask")),
        (r"netsh exec C:\t\net.txt", ("network-change", "ask")),
        (r"LGPO.exe /m C:\t\registry.pol", ("dynamic-command", "ask")),
        (r"bcdedit /import C:\t\bcd.bak", ("delete-backups", "deny")),
        (r"mofcomp -check C:\t\x.mof", None),
        (r"LGPO.exe /b C:\t\backup", None),
        (r"bcdedit /export C:\t\bcd.bak", None),
        (r"netsh interface show interface", None),
    ],
)
def test_setting_files_nobody_read_ask_by_what_they_can_do(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-117: a MOF, a netsh script, a policy file and a boot store replaced; checks and backups pass."""
    assert ps(command) == expected
