"""File effects of PowerShell cmdlets, cmd built-ins and file programs, pinned whole (S-RULE-18).

Found by mutation testing of `policy/rules/effects_files.py`: the corpus tests check only the final
verdict, which another rule often reaches anyway, so a branch could give the wrong effect kind, target,
phrase or extra fact unnoticed. Each case here is a command an agent could send through the PowerShell
tool; the expected effects are written from what the command does on Windows, including the negative
cases (a read-only form, a switch absent) that must give nothing, or a read instead of a write.
`git clean` and git's program settings moved to `effects_git.py`; their table stays here, read through
the same public entry point.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import ps as _verdict

K = EffectKind
Row = tuple[EffectKind, str | None, str, str | None, str | None, tuple[tuple[str, str], ...]]
ALL = (("recursive", "true"),)
INTO = (("landed", "true"),)  # S-RULE-147: where a copy lands when its destination is a folder
TREE_INTO = (*ALL, *INTO)
ACL = (("permissions", "true"),)  # S-RULE-181: a change of who may open it


def _effects(command: str) -> list[Row]:
    return [
        (e.kind, e.target, e.detail, e.value_name, e.data, tuple(e.extra))
        for e in judge_call("PowerShell", {"command": command}).effects
    ]


def _e(kind: EffectKind, target: str | None, detail: str, extra: tuple[tuple[str, str], ...] = ()) -> Row:
    return (kind, target, detail, None, None, extra)


UNPACKED = (("recursive", "true"),)  # an archive's files land anywhere under the folder (S-RULE-115)
CMDLETS: list[tuple[str, list[Row]]] = [
    (r"Remove-Item C:\Temp\old -Recurse", [_e(K.DELETE_RECURSIVE, r"C:\Temp\old", "Remove-Item -Recurse")]),
    (r"Remove-Item C:\Temp\a.txt", [_e(K.DELETE, r"C:\Temp\a.txt", "Remove-Item")]),
    (
        r"Remove-Item -LiteralPath C:\Temp\a.txt, C:\Temp\b.txt",
        [
            _e(K.DELETE, r"C:\Temp\a.txt", "Remove-Item"),
            _e(K.DELETE, r"C:\Temp\b.txt", "Remove-Item"),
        ],
    ),
    # env: and variable: live in the session: nothing on the machine is deleted.
    (r"Remove-Item env:FOO", []),
    (r"Remove-Item -Path variable:x, C:\Temp\a.txt", [_e(K.DELETE, r"C:\Temp\a.txt", "Remove-Item")]),
    (
        r"Copy-Item C:\Users\bob\.ssh -Destination D:\backup -Recurse",
        [
            _e(K.READ, r"C:\Users\bob\.ssh", "Copy-Item -Recurse", ALL),
            _e(K.WRITE, r"D:\backup", "Copy-Item destination"),
            _e(K.WRITE, r"D:\backup\.ssh", "Copy-Item -Recurse into a folder", TREE_INTO),
            # where D:\backup does not exist yet, the folder becomes it (S-RULE-147)
            _e(K.WRITE, r"D:\backup\*", "Copy-Item -Recurse as the new folder", INTO),
        ],
    ),
    (
        r"Copy-Item C:\Temp\a.txt D:\a.txt",
        [
            _e(K.READ, r"C:\Temp\a.txt", "Copy-Item"),
            _e(K.WRITE, r"D:\a.txt", "Copy-Item destination"),
        ],
    ),
    # A move takes the folder itself along: it is a MOVE, not a read of its contents.
    (
        r"Move-Item C:\Temp\dir D:\dir -Recurse",
        [
            _e(K.MOVE, r"C:\Temp\dir", "Move-Item -Recurse"),
            _e(K.WRITE, r"D:\dir", "Move-Item destination"),
            _e(K.WRITE, r"D:\dir\*", "Move-Item -Recurse as the new folder", INTO),
        ],
    ),
    (
        r"Move-Item C:\a.txt C:\b.txt",
        [
            _e(K.MOVE, r"C:\a.txt", "Move-Item"),
            _e(K.WRITE, r"C:\b.txt", "Move-Item destination"),
            _e(K.WRITE, r"C:\b.txt\a.txt", "Move-Item into a folder", TREE_INTO),
            _e(K.WRITE, r"C:\b.txt\*", "Move-Item as the new folder", INTO),
        ],
    ),
    (r"Copy-Item C:\Temp\a.txt env:X", [_e(K.READ, r"C:\Temp\a.txt", "Copy-Item")]),
    # Rename-Item's new name stays in the same folder unless it is a path.
    (
        r"Rename-Item C:\Temp\a.txt b.txt",
        [
            _e(K.MOVE, r"C:\Temp\a.txt", "Rename-Item"),
            _e(K.WRITE, r"C:\Temp\b.txt", "Rename-Item destination"),
        ],
    ),
    (
        r"Rename-Item C:\Temp\sub\ c.txt",
        [
            _e(K.MOVE, "C:\\Temp\\sub\\", "Rename-Item"),
            _e(K.WRITE, r"C:\Temp\c.txt", "Rename-Item destination"),
        ],
    ),
    (r"Rename-Item a.txt b.txt", [_e(K.MOVE, "a.txt", "Rename-Item"), _e(K.WRITE, "b.txt", "Rename-Item destination")]),
    (
        r"Rename-Item C:\Temp\a.txt C:\Other\b.txt",
        [
            _e(K.MOVE, r"C:\Temp\a.txt", "Rename-Item"),
            _e(K.WRITE, r"C:\Other\b.txt", "Rename-Item destination"),
        ],
    ),
    (
        r"Rename-Item C:\Temp\a.txt C:/Other/b.txt",
        [
            _e(K.MOVE, r"C:\Temp\a.txt", "Rename-Item"),
            _e(K.WRITE, "C:/Other/b.txt", "Rename-Item destination"),
        ],
    ),
    # A path in the registry is a key: the same cmdlets hand over to the registry's effects.
    (
        r"Rename-Item HKCU:\Software\App -NewName App2",
        [
            _e(K.REGISTRY_DELETE, r"HKCU:\Software\App", "Rename-Item"),
            _e(K.REGISTRY_SET, r"HKCU:\Software\App2", "Rename-Item"),
        ],
    ),
    (
        r"Move-Item HKCU:\Software\App HKCU:\Software\Other",
        [
            _e(K.REGISTRY_DELETE, r"HKCU:\Software\App", "Move-Item"),
            _e(K.REGISTRY_SET, r"HKCU:\Software\Other", "Move-Item destination"),
        ],
    ),
    (
        r"Remove-Item HKCU:\Software\App -Recurse",
        [_e(K.REGISTRY_DELETE, r"HKCU:\Software\App", "Remove-Item (registry key)", ALL)],
    ),
    (
        r"Set-ItemProperty HKCU:\Software\App -Name Path -Value C:\x",
        [(K.REGISTRY_SET, r"HKCU:\Software\App", "Set-ItemProperty", "Path", r"C:\x", ())],
    ),
    (r"New-Item HKCU:\Software\App2", [_e(K.REGISTRY_SET, r"HKCU:\Software\App2", "New-Item (registry key)")]),
    (r"Set-Content C:\Temp\a.txt hello", [_e(K.WRITE, r"C:\Temp\a.txt", "Set-Content")]),
    (r"Add-Content -Path C:\Temp\a.txt -Value hi", [_e(K.WRITE, r"C:\Temp\a.txt", "Add-Content")]),
    (r"Clear-Content C:\Temp\a.log", [_e(K.WRITE, r"C:\Temp\a.log", "Clear-Content")]),
    (r"Set-Content env:FOO bar", []),
    (r"Out-File -FilePath C:\Temp\o.txt", [_e(K.WRITE, r"C:\Temp\o.txt", "Out-File")]),
    (r"Get-Process | Out-File C:\Temp\p.txt", [_e(K.WRITE, r"C:\Temp\p.txt", "Out-File")]),
    (r"Get-Process | Export-Csv C:\Temp\p.csv", [_e(K.WRITE, r"C:\Temp\p.csv", "Export-Csv")]),
    (
        r"Unblock-File C:\Users\bob\Downloads\tool.exe",
        [_e(K.WRITE, r"C:\Users\bob\Downloads\tool.exe", "Unblock-File", (("zone_mark", "removed"),))],
    ),
    (
        r"New-Item -ItemType SymbolicLink -Path C:\Temp\link -Value C:\Windows",
        [
            _e(
                K.WRITE,
                r"C:\Temp\link",
                "New-Item -ItemType symboliclink",
                (("link_target", r"C:\Windows"), *TREE_INTO),
            ),
        ],
    ),
    (
        r"New-Item -ItemType Junction -Path C:\Temp\j -Target C:\Windows",
        [
            _e(K.WRITE, r"C:\Temp\j", "New-Item -ItemType junction", (("link_target", r"C:\Windows"), *TREE_INTO)),
        ],
    ),
    (
        r"New-Item -ItemType HardLink C:\Temp\h",
        [
            _e(K.WRITE, r"C:\Temp\h", "New-Item -ItemType hardlink", (("link_target", ""),)),
        ],
    ),
    (r"New-Item -ItemType Directory C:\Temp\new", [_e(K.WRITE, r"C:\Temp\new", "New-Item")]),
    (r"New-Item C:\Temp -Name x.txt", [_e(K.WRITE, r"C:\Temp\x.txt", "New-Item")]),
    (r"New-Item -Name x.txt", [_e(K.WRITE, "x.txt", "New-Item")]),
    (r"New-Item -Path C:\Temp\x.txt", [_e(K.WRITE, r"C:\Temp\x.txt", "New-Item")]),
    (r"New-Item env:FOO -Value bar", []),
    (r"Clear-RecycleBin -DriveLetter D -Force", [_e(K.DELETE_RECURSIVE, r"d:\$Recycle.Bin", "Clear-RecycleBin")]),
    (r"Clear-RecycleBin -DriveLetter E: -Force", [_e(K.DELETE_RECURSIVE, r"e:\$Recycle.Bin", "Clear-RecycleBin")]),
    (r"Clear-RecycleBin -Force", [_e(K.DELETE_RECURSIVE, r"c:\$Recycle.Bin", "Clear-RecycleBin")]),
    (
        r"Set-ItemProperty C:\Temp\a.txt -Name IsReadOnly -Value $true",
        [_e(K.WRITE, r"C:\Temp\a.txt", "Set-ItemProperty")],
    ),
    (r"Get-ItemProperty C:\Temp\a.txt", [_e(K.READ, r"C:\Temp\a.txt", "Get-ItemProperty")]),
    (r"Set-Item env:FOO bar", []),
    (r"Clear-Item C:\Temp\a.txt", [_e(K.WRITE, r"C:\Temp\a.txt", "Clear-Item")]),
    (
        r"Compress-Archive C:\Users\bob\Documents -DestinationPath C:\Temp\d.zip",
        [
            _e(K.READ, r"C:\Users\bob\Documents", "Compress-Archive", ALL),
            _e(K.WRITE, r"C:\Temp\d.zip", "Compress-Archive destination"),
        ],
    ),
    (r"Expand-Archive C:\Temp\d.zip", [_e(K.READ, r"C:\Temp\d.zip", "Expand-Archive", ALL)]),
    (r"Set-Acl C:\Temp\a.txt $acl", [_e(K.WRITE, r"C:\Temp\a.txt", "Set-Acl", ACL)]),
    (r"Start-Transcript -OutputDirectory C:\Logs", [_e(K.WRITE, r"C:\Logs", "Start-Transcript")]),
    (r"Start-Transcript C:\Logs\t.txt", [_e(K.WRITE, r"C:\Logs\t.txt", "Start-Transcript")]),
    (r"Get-Content C:\Temp\a.txt", [_e(K.READ, r"C:\Temp\a.txt", "Get-Content")]),
    (r"Get-Content env:PATH", []),
    (r"Get-ChildItem C:\Users\bob", [_e(K.READ, r"C:\Users\bob", "Get-ChildItem")]),
    # Test-Path says whether a file exists; it reads nothing in it.
    (r"Test-Path C:\Users\bob\.ssh\id_rsa", []),
    (r"Select-String foo C:\Temp\a.txt", [_e(K.READ, r"C:\Temp\a.txt", "Select-String")]),
    (r"Format-Hex C:\Temp\a.bin", [_e(K.READ, r"C:\Temp\a.bin", "Format-Hex")]),
]


@requirement("S-RULE-18")
@pytest.mark.parametrize(("command", "expected"), CMDLETS, ids=[c for c, _ in CMDLETS])
def test_file_cmdlets_give_these_effects(command: str, expected: list[Row]) -> None:
    """S-RULE-18: each file cmdlet's effects: kind, target as written, and the phrase a reason quotes."""
    assert _effects(command) == expected


CMD: list[tuple[str, list[Row]]] = [
    (r"cmd /c del /s /q C:\Temp\*.log", [_e(K.DELETE_RECURSIVE, r"C:\Temp\*.log", "del /s")]),
    (r"cmd /c del C:\Temp\a.log", [_e(K.DELETE, r"C:\Temp\a.log", "del")]),
    (r"cmd /c rd /s /q C:\Temp\old", [_e(K.DELETE_RECURSIVE, r"C:\Temp\old", "rd /s")]),
    (r"cmd /c rd C:\Temp\empty", [_e(K.DELETE, r"C:\Temp\empty", "rd")]),
    (
        r"cmd /c move C:\a.txt C:\b.txt D:\dest",
        [
            _e(K.MOVE, r"C:\a.txt", "move"),
            _e(K.MOVE, r"C:\b.txt", "move"),
            _e(K.WRITE, r"D:\dest", "move destination"),
            _e(K.WRITE, r"D:\dest\a.txt", "move into a folder", TREE_INTO),
            _e(K.WRITE, r"D:\dest\b.txt", "move into a folder", TREE_INTO),
        ],
    ),
    (r"cmd /c move C:\a.txt", [_e(K.MOVE, r"C:\a.txt", "move")]),
    # A source that is not constant (`%x%` unset): something is moved.
    (r"cmd /c move", [_e(K.MOVE, None, "move")]),
    (
        r"cmd /c ren C:\Temp\a.txt b.txt",
        [_e(K.MOVE, r"C:\Temp\a.txt", "ren"), _e(K.WRITE, r"C:\Temp\b.txt", "ren destination")],
    ),
    (r"cmd /c ren C:\Temp\a.txt", [_e(K.MOVE, r"C:\Temp\a.txt", "ren")]),
    # `copy a+b c` concatenates: both parts are read.
    (
        r"cmd /c copy a.txt+b.txt C:\Temp\c.txt",
        [
            _e(K.READ, "a.txt", "copy"),
            _e(K.READ, "b.txt", "copy"),
            _e(K.WRITE, r"C:\Temp\c.txt", "copy destination"),
            _e(K.WRITE, r"C:\Temp\c.txt\a.txt", "copy into a folder", INTO),
            _e(K.WRITE, r"C:\Temp\c.txt\b.txt", "copy into a folder", INTO),
        ],
    ),
    (r"cmd /c copy C:\a.txt", [_e(K.READ, r"C:\a.txt", "copy")]),
    (
        r"cmd /c mklink /J C:\Temp\j C:\Windows",
        [_e(K.WRITE, r"C:\Temp\j", "mklink (junction)", (("link_target", r"C:\Windows"), *TREE_INTO))],
    ),
    (
        r"cmd /c mklink /H C:\Temp\h C:\Windows\win.ini",
        [
            _e(K.WRITE, r"C:\Temp\h", "mklink (hardlink)", (("link_target", r"C:\Windows\win.ini"),)),
        ],
    ),
    (
        r"cmd /c mklink /D C:\Temp\s C:\Windows",
        [
            _e(K.WRITE, r"C:\Temp\s", "mklink (symboliclink)", (("link_target", r"C:\Windows"), *TREE_INTO)),
        ],
    ),
    (r"cmd /c mklink C:\Temp\s", [_e(K.WRITE, r"C:\Temp\s", "mklink (symboliclink)", (("link_target", ""),))]),
    (r"cmd /c type C:\Windows\win.ini", [_e(K.READ, r"C:\Windows\win.ini", "type")]),
    (r"cmd /c dir C:\Users", [_e(K.READ, r"C:\Users", "dir")]),
    (r"cmd /c md C:\Temp\new", [_e(K.WRITE, r"C:\Temp\new", "md")]),
    (r"cmd /c assoc .txt=txtfile", [(K.REGISTRY_SET, r"HKCR\.txt", "assoc", "", "txtfile", ())]),
    (
        r'cmd /c ftype txtfile=C:\evil.exe "%1"',
        [
            (K.REGISTRY_SET, r"HKCR\txtfile\shell\open\command", "ftype", "", r"C:\evil.exe", ()),
        ],
    ),
    # Without `=` assoc and ftype only show the association.
    (r"cmd /c assoc .txt", []),
    (r"cmd /c ftype txtfile", []),
]


@requirement("S-RULE-18")
@pytest.mark.parametrize(("command", "expected"), CMD, ids=[c for c, _ in CMD])
def test_cmd_builtins_give_these_effects(command: str, expected: list[Row]) -> None:
    """S-RULE-18: cmd's own file commands as effects (delete, move, rename, copy, links, associations)."""
    assert _effects(command) == expected


PROGRAMS: list[tuple[str, list[Row]]] = [
    (
        r"robocopy C:\src D:\dst /MIR",
        [
            _e(K.READ, r"C:\src", "robocopy", ALL),
            _e(K.WRITE, r"D:\dst", "robocopy destination"),
            _e(K.DELETE_RECURSIVE, r"D:\dst", "robocopy /mir"),
            _e(K.WRITE, r"D:\dst\*", "robocopy into a folder (with subfolders)", TREE_INTO),
        ],
    ),
    (
        r"robocopy C:\src D:\dst /PURGE",
        [
            _e(K.READ, r"C:\src", "robocopy", ALL),
            _e(K.WRITE, r"D:\dst", "robocopy destination"),
            _e(K.DELETE_RECURSIVE, r"D:\dst", "robocopy /purge"),
            _e(K.WRITE, r"D:\dst\*", "robocopy into a folder", INTO),
        ],
    ),
    (
        r"robocopy C:\src D:\dst /MOVE",
        [
            _e(K.MOVE, r"C:\src", "robocopy /move"),
            _e(K.WRITE, r"D:\dst", "robocopy destination"),
            _e(K.WRITE, r"D:\dst\*", "robocopy into a folder (with subfolders)", TREE_INTO),
        ],
    ),
    (
        r"robocopy C:\src D:\dst /MOV",
        [
            _e(K.MOVE, r"C:\src", "robocopy /move"),
            _e(K.WRITE, r"D:\dst", "robocopy destination"),
            _e(K.WRITE, r"D:\dst\*", "robocopy into a folder", INTO),
        ],
    ),
    (
        r"robocopy C:\src D:\dst",
        [
            _e(K.READ, r"C:\src", "robocopy", ALL),
            _e(K.WRITE, r"D:\dst", "robocopy destination"),
            _e(K.WRITE, r"D:\dst\*", "robocopy into a folder", INTO),
        ],
    ),
    # xcopy has no /MIR or /MOVE: the same words are not its.
    (
        r"xcopy C:\src D:\dst /E",
        [
            _e(K.READ, r"C:\src", "xcopy", ALL),
            _e(K.WRITE, r"D:\dst", "xcopy destination"),
            _e(K.WRITE, r"D:\dst\*", "xcopy into a folder (with subfolders)", TREE_INTO),
        ],
    ),
    (r"xcopy C:\src", [_e(K.READ, r"C:\src", "xcopy", ALL)]),
    (
        r"icacls C:\Temp /save C:\acl.txt",
        [_e(K.READ, r"C:\Temp", "icacls /save"), _e(K.WRITE, r"C:\acl.txt", "icacls /save")],
    ),
    (r"icacls C:\Temp /restore C:\acl.txt", [_e(K.WRITE, r"C:\Temp", "icacls /restore", ACL)]),
    (r"icacls C:\Temp /grant Everyone:F", [_e(K.WRITE, r"C:\Temp", "icacls /grant", ACL)]),
    (r"icacls C:\Temp /deny Everyone:W", [_e(K.WRITE, r"C:\Temp", "icacls /deny", ACL)]),
    (r"icacls C:\Temp /grant:r Everyone:F", [_e(K.WRITE, r"C:\Temp", "icacls /grant", ACL)]),
    (r"icacls C:\Temp /reset", [_e(K.WRITE, r"C:\Temp", "icacls /reset", ACL)]),
    (r"icacls C:\Temp /inheritance:d", [_e(K.WRITE, r"C:\Temp", "icacls /inheritance", ACL)]),
    (r"icacls C:\Temp", [_e(K.READ, r"C:\Temp", "icacls")]),
    (r"icacls", []),
    (r"cacls C:\Temp /E /G Everyone:F", [_e(K.WRITE, r"C:\Temp", "cacls", ACL)]),
    (r"cacls C:\Temp /G Everyone:F", [_e(K.WRITE, r"C:\Temp", "cacls", ACL)]),
    (r"cacls C:\Temp /T", [_e(K.READ, r"C:\Temp", "cacls")]),
    (r"cacls C:\Temp", [_e(K.READ, r"C:\Temp", "cacls")]),
    (r"cacls", []),
    # /S:sddl replaces the ACL (either switch character); /S alone only shows it as SDDL.
    (r'cmd /c "cacls C:\Temp /S:D:PAI(A;;FA;;;WD)"', [_e(K.WRITE, r"C:\Temp", "cacls", ACL)]),
    (r'cmd /c "cacls C:\Temp -s:D:PAI(A;;FA;;;WD)"', [_e(K.WRITE, r"C:\Temp", "cacls", ACL)]),
    (r'cmd /c "cacls C:\Temp /S"', [_e(K.READ, r"C:\Temp", "cacls")]),
    # A word that is not constant may be /E or /G.
    (r"cacls C:\Temp $x", [_e(K.WRITE, r"C:\Temp", "cacls", ACL)]),
    (
        r"takeown /f C:\Windows\System32\hal.dll /r",
        [_e(K.WRITE, r"C:\Windows\System32\hal.dll", "takeown", (*ALL, *ACL))],
    ),
    (r"takeown /f C:\Temp\a.txt", [_e(K.WRITE, r"C:\Temp\a.txt", "takeown", ACL)]),
    (r"attrib +h +s C:\Temp\a.txt", [_e(K.WRITE, r"C:\Temp\a.txt", "attrib +h +s")]),
    (r"attrib C:\Temp\a.txt", [_e(K.READ, r"C:\Temp\a.txt", "attrib")]),
    (r"attrib -r C:\Temp\a.txt /s", [_e(K.WRITE, r"C:\Temp\a.txt", "attrib -r")]),
    (r"cipher /w:C:\ ", [_e(K.DISK_DESTROY, "C:\\", "cipher /w")]),
    (r"cipher /e C:\Temp\secret", [_e(K.WRITE, r"C:\Temp\secret", "cipher /e")]),
    (r"cipher /d C:\Temp\secret", [_e(K.WRITE, r"C:\Temp\secret", "cipher /d")]),
    (r"cipher C:\Temp\secret", []),
    (r"sdelete -z C:", [_e(K.DISK_DESTROY, "C:", "sdelete free space")]),
    (r"sdelete -c D:", [_e(K.DISK_DESTROY, "D:", "sdelete free space")]),
    (r"sdelete -s C:\Temp\old", [_e(K.DELETE_RECURSIVE, r"C:\Temp\old", "sdelete -s")]),
    (r"sdelete64 -r C:\Temp\old", [_e(K.DELETE_RECURSIVE, r"C:\Temp\old", "sdelete -s")]),
    (r"sdelete C:\Temp\a.txt", [_e(K.DELETE, r"C:\Temp\a.txt", "sdelete")]),
    # -p takes the number of passes: `3` is no file.
    (r"sdelete -p 3 C:\Temp\a.txt", [_e(K.DELETE, r"C:\Temp\a.txt", "sdelete")]),
    (r"format D: /q", [_e(K.DISK_DESTROY, "D:", "format")]),
    (r"fsutil usn deletejournal /d C:", [_e(K.LOG_CLEAR, "C:", "fsutil usn deletejournal")]),
    (r"fsutil usn deletejournal", [_e(K.LOG_CLEAR, None, "fsutil usn deletejournal")]),
    (
        r"fsutil hardlink create C:\Temp\l C:\Windows\win.ini",
        [
            _e(K.WRITE, r"C:\Temp\l", "fsutil hardlink", (("link_target", r"C:\Windows\win.ini"),)),
        ],
    ),
    (
        r"fsutil file setzerodata offset=0 length=100 C:\Temp\a.txt",
        [_e(K.WRITE, r"C:\Temp\a.txt", "fsutil file setzerodata")],
    ),
    (r"fsutil file queryextents C:\Temp\a.txt", []),
    (r"fsutil reparsepoint query C:\Temp\j", []),
    (r"fsutil reparsepoint delete C:\Temp\j", [_e(K.WRITE, r"C:\Temp\j", "fsutil reparsepoint delete")]),
    (r"fsutil fsinfo drives", []),
    (
        r"esentutl /y C:\Windows\NTDS\ntds.dit /vss /d C:\Temp\n.dit",
        [
            _e(K.CREDENTIAL_ACCESS, r"C:\Windows\NTDS\ntds.dit", "esentutl /y /vss"),
            _e(K.WRITE, r"C:\Temp\n.dit", "esentutl /y destination"),
        ],
    ),
    (
        r"esentutl /y /vss C:\Windows\System32\config\SAM /d C:\Temp\s",
        [
            _e(K.CREDENTIAL_ACCESS, r"C:\Windows\System32\config\SAM", "esentutl /y /vss"),
            _e(K.WRITE, r"C:\Temp\s", "esentutl /y destination"),
        ],
    ),
    (
        r"esentutl /y C:\Temp\a.edb /d C:\Temp\b.edb",
        [
            _e(K.READ, r"C:\Temp\a.edb", "esentutl /y"),
            _e(K.WRITE, r"C:\Temp\b.edb", "esentutl /y destination"),
        ],
    ),
    (r"esentutl /y C:\Temp\a.edb", [_e(K.READ, r"C:\Temp\a.edb", "esentutl /y")]),
    (r"esentutl /p C:\Temp\a.edb", [_e(K.WRITE, r"C:\Temp\a.edb", "esentutl")]),
    (r"subst X: C:\Windows", [_e(K.WRITE, "X:", "subst", (("link_target", r"C:\Windows"),))]),
    (r"subst X: /d", []),
    (r"subst X:", []),
    (
        r"findstr password C:\Temp\a.txt C:\Temp\b.txt",
        [_e(K.READ, r"C:\Temp\a.txt", "findstr"), _e(K.READ, r"C:\Temp\b.txt", "findstr")],
    ),
    (r'findstr /c:"pass word" C:\Temp\a.txt', [_e(K.READ, r"C:\Temp\a.txt", "findstr")]),
    (r"find password C:\Temp\a.txt", [_e(K.READ, r"C:\Temp\a.txt", "find")]),
    (
        r"expand C:\Temp\a.cab -F:* C:\Windows\System32",
        [
            _e(K.READ, r"C:\Temp\a.cab", "expand"),
            _e(K.WRITE, r"C:\Windows\System32", "expand destination", UNPACKED),
        ],
    ),
    (r"expand -d C:\Temp\a.cab", [_e(K.READ, r"C:\Temp\a.cab", "expand")]),
    (r"expand -r C:\Temp\a.cab", [_e(K.READ, r"C:\Temp\a.cab", "expand"), _e(K.WRITE, r"C:\Temp\a.cab", "expand -r")]),
    (r"expand C:\Temp\a.cab", [_e(K.READ, r"C:\Temp\a.cab", "expand")]),
    (
        r"replace C:\Temp\hal.dll C:\Windows\System32",
        [
            _e(K.READ, r"C:\Temp\hal.dll", "replace"),
            _e(K.WRITE, r"C:\Windows\System32\hal.dll", "replace destination"),
        ],
    ),
    (
        r"replace C:\Temp\hal.dll",
        [_e(K.READ, r"C:\Temp\hal.dll", "replace"), _e(K.WRITE, "hal.dll", "replace destination")],
    ),
    (r"replace", []),
    (
        r"replace C:\Temp\hal.dll $d",
        [_e(K.READ, r"C:\Temp\hal.dll", "replace"), _e(K.WRITE, None, "replace destination")],
    ),
    (
        r"tar -xf C:\Temp\a.tar -C C:\Windows",
        [_e(K.READ, r"C:\Temp\a.tar", "tar -x"), _e(K.WRITE, r"C:\Windows", "tar -x", UNPACKED)],
    ),
    (r"tar xf a.tar", [_e(K.READ, "a.tar", "tar -x"), _e(K.WRITE, ".", "tar -x", UNPACKED)]),
    (r"tar -xvzf a.tgz", [_e(K.READ, "a.tgz", "tar -x"), _e(K.WRITE, ".", "tar -x", UNPACKED)]),
    (
        r"tar --extract --file a.tar --directory C:\x",
        [_e(K.READ, "a.tar", "tar -x"), _e(K.WRITE, r"C:\x", "tar -x", UNPACKED)],
    ),
    (r"tar --get -f a.tar", [_e(K.READ, "a.tar", "tar -x"), _e(K.WRITE, ".", "tar -x", UNPACKED)]),
    # the archive written (S-RULE-121), what it is made of read whole (S-RULE-162)
    (r"tar -cf a.tar C:\x", [_e(K.READ, "C:\\x", "tar -c", ALL), _e(K.WRITE, "a.tar", "tar -c")]),
    (r"tar -tf a.tar", []),
    (r"more C:\Temp\a.txt", [_e(K.READ, r"C:\Temp\a.txt", "more")]),
]


@requirement("S-RULE-18")
@pytest.mark.parametrize(("command", "expected"), PROGRAMS, ids=[c for c, _ in PROGRAMS])
def test_file_programs_give_these_effects(command: str, expected: list[Row]) -> None:
    """S-RULE-18: file programs (robocopy, icacls, sdelete, fsutil, esentutl, tar …) as effects."""
    assert _effects(command) == expected


def _p(key: str, detail: str, data: str) -> Row:
    return (K.PERSISTENCE, key, detail, None, data, ())


GIT: list[tuple[str, list[Row]]] = [
    (r"git clean -fdx", [_e(K.DELETE_RECURSIVE, ".", "git clean -fd")]),
    (r"git clean -fd src", [_e(K.DELETE_RECURSIVE, "src", "git clean -fd")]),
    (r"git clean -f -X -- build", [_e(K.DELETE_RECURSIVE, "build", "git clean -fd")]),
    (r"git clean --force -x build", [_e(K.DELETE_RECURSIVE, "build", "git clean -fd")]),
    # -n only lists; -f alone removes untracked files but keeps folders and ignored files.
    (r"git clean -n -d", []),
    (r"git clean -f", []),
    (r"git status", []),
    (r"git", []),
    (
        r'git config core.sshCommand "C:\Temp\evil.exe"',
        [_p("core.sshCommand", "git config core.sshCommand", r"C:\Temp\evil.exe")],
    ),
    (r"git config --global core.editor notepad", [_p("core.editor", "git config core.editor", "notepad")]),
    (
        r"git config set core.fsmonitor C:\Temp\x.exe",
        [_p("core.fsmonitor", "git config core.fsmonitor", r"C:\Temp\x.exe")],
    ),
    (
        r"git config --file C:\repo\.git\config core.hooksPath C:\Temp\hooks",
        [
            _p("core.hooksPath", "git config core.hooksPath", r"C:\Temp\hooks"),
        ],
    ),
    (
        r"git config --type path core.editor C:\Temp\x.exe",
        [_p("core.editor", "git config core.editor", r"C:\Temp\x.exe")],
    ),
    (
        r"git config credential.helper C:\Temp\steal.exe",
        [
            _p("credential.helper", "git config credential.helper", r"C:\Temp\steal.exe"),
        ],
    ),
    (
        r"git config credential.https://github.com.helper C:\Temp\steal.exe",
        [
            _p(
                "credential.https://github.com.helper",
                "git config credential.https://github.com.helper",
                r"C:\Temp\steal.exe",
            ),
        ],
    ),
    # Git for Windows' own helper is no program of the agent's.
    (r"git config credential.helper manager", []),
    (r"git config credential.helper wincred", []),
    (r"git config alias.st status", []),
    (r'git config alias.x "!C:\Temp\x.exe"', [_p("alias.x", "git config alias.x", r"!C:\Temp\x.exe")]),
    (r"git config pager.log false", []),
    (r"git config protocol.ext.allow never", []),
    (r"git config pager.log less", [_p("pager.log", "git config pager.log", "less")]),
    (r"git config protocol.ext.allow always", [_p("protocol.ext.allow", "git config protocol.ext.allow", "always")]),
    (
        r"git config filter.lfs.smudge C:\Temp\x.exe",
        [_p("filter.lfs.smudge", "git config filter.lfs.smudge", r"C:\Temp\x.exe")],
    ),
    (r"git config include.path C:\Temp\more.cfg", [_p("include.path", "git config include.path", r"C:\Temp\more.cfg")]),
    (r"git config user.name bob", []),
    (r"git config core.editor", []),
    (r"git config --get core.editor", []),
    (r"git config --unset core.editor", []),
    (r"git config --list", []),
    (r"git config get core.editor", []),
    (
        r"git -c core.sshCommand=C:\Temp\x.exe fetch",
        [_p("core.sshCommand", "git -c core.sshCommand", r"C:\Temp\x.exe")],
    ),
    (r"git -c user.name=bob commit", []),
    (r"git -C C:\repo config core.pager less", [_p("core.pager", "git config core.pager", "less")]),
    (r"git --git-dir C:\repo\.git config core.editor vim", [_p("core.editor", "git config core.editor", "vim")]),
    (r"git --no-pager config core.editor vim", [_p("core.editor", "git config core.editor", "vim")]),
]


@requirement("S-RULE-73")
@pytest.mark.parametrize(("command", "expected"), GIT, ids=[c for c, _ in GIT])
def test_git_clean_and_program_settings_give_these_effects(command: str, expected: list[Row]) -> None:
    """S-RULE-73: `git clean -fd/-x` deletes the tree; a setting naming a program git starts later persists."""
    assert _effects(command) == expected


@requirement("S-RULE-73")
@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        (r'git config core.sshCommand "C:\Temp\evil.exe"', ("persistence-autostart", "ask")),
        (r"git config credential.helper manager", None),
        (r"git config alias.st status", None),
    ],
    ids=["program", "builtin-helper", "plain-alias"],
)
def test_git_program_setting_asks_a_person(command: str, verdict: tuple[str, str] | None) -> None:
    """S-RULE-73: only a setting that starts a program asks."""
    assert _verdict(command) == verdict


CHROME = r"C:\Users\bob\AppData\Local\Google\Chrome\User Data\Default\Login Data"
KEY = r"C:\Users\bob\.ssh\id_rsa"

READS: list[tuple[str, list[Row]]] = [
    (f'sqlite3 "{CHROME}" "select * from logins"', [_e(K.READ, CHROME, "sqlite3 argument")]),
    (rf"7z a C:\Temp\x.7z {KEY}", [_e(K.READ, KEY, "7z argument")]),
    (rf"notepad --file={KEY}", [_e(K.READ, KEY, "notepad argument")]),
    (rf"notepad /f:{KEY}", [_e(K.READ, KEY, "notepad argument")]),
    # A path from the drive's root written with `/` is a path, not a flag.
    (r"notepad /Users/bob/.ssh/id_rsa", [_e(K.READ, "/Users/bob/.ssh/id_rsa", "notepad argument")]),
    (r"7z a C:\Temp\x.7z ~/.ssh/id_rsa", [_e(K.READ, "~/.ssh/id_rsa", "7z argument")]),
    (r"7z a C:\Temp\x.7z C:\Temp\ok.txt", []),
    # ssh uses the key without exposing it.
    (rf"ssh -i {KEY} host", []),
    (rf"ssh-add {KEY}", []),
    (r"curl https://example.com/.ssh/id_rsa", []),
    (r"notepad id_rsa", []),
]


@requirement("S-RULE-53")
@pytest.mark.parametrize(("command", "expected"), READS, ids=[c for c, _ in READS])
def test_a_program_handed_a_credential_store_reads_it(command: str, expected: list[Row]) -> None:
    """S-RULE-53: any program handed a credential store's path reads it; other words give nothing."""
    assert _effects(command) == expected
