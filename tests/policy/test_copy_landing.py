"""A copy or move into a folder is judged on where its item lands (S-RULE-147).

`Copy-Item C:\\t\\authorized_keys ~\\.ssh` names the folder, but writes `~\\.ssh\\authorized_keys`; a wildcard, a
listing piped in or robocopy's folder contents put items nobody can name there. Every spelling below passed
before: the destination folder itself is no protected place.
"""

from __future__ import annotations

import json

import pytest

from policy.rules.effects_common import LANDED, RECURSIVE, landed
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import guarded as guarded_call

PROGRAMS = "C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs"


def guarded(line: str) -> tuple[str, str] | None:
    """`line` is a PowerShell command, or `FileSystem {json arguments}`."""
    tool, _, rest = line.partition(" ")
    if tool == "FileSystem":
        return guarded_call(tool, **json.loads(rest))
    return guarded_call("PowerShell", command=line)


def fs(mode: str, path: str, destination: str) -> str:
    return "FileSystem " + json.dumps({"mode": mode, "path": path, "destination": destination})


@requirement("S-RULE-147")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # a named item lands on a protected place by its name
        (r"Copy-Item C:\t\authorized_keys C:\Users\bob\.ssh", ("account-change", "deny")),
        (r"cmd /c copy C:\t\authorized_keys C:\Users\bob\.ssh", ("account-change", "deny")),
        # where `.ssh` does not exist yet, the item moved becomes it: its items (id_rsa among them) are judged too
        (r"cmd /c move C:\t\authorized_keys C:\Users\bob\.ssh\ ", ("credential-access", "deny")),
        (r"Copy-Item C:\t\Microsoft.PowerShell_profile.ps1 C:\Users\bob\Documents\WindowsPowerShell",
         ("self-protection", "deny")),
        (fs("copy", r"C:\t\authorized_keys", r"C:\Users\bob\.ssh"), ("account-change", "deny")),
        (fs("move", r"C:\t\Microsoft.PowerShell_profile.ps1", r"C:\Users\bob\Documents\WindowsPowerShell"),
         ("self-protection", "deny")),
        (fs("move", r"C:\t\Startup", PROGRAMS), ("persistence-autostart", "ask")),
        # a folder copied whole (-Recurse) or moved lands whole
        (rf'Copy-Item C:\t\Startup "{PROGRAMS}" -Recurse', ("persistence-autostart", "ask")),
        (rf'Move-Item C:\t\Startup "{PROGRAMS}" -Force', ("persistence-autostart", "ask")),
        (r"Copy-Item C:\t\.ssh C:\Users\bob -Recurse -Force", ("copy-over-protected", "ask")),
        (r"Copy-Item C:\t\WindowsPowerShell C:\Users\bob\Documents -Recurse", ("copy-over-protected", "ask")),
        ("bash -c 'cp -r /c/t/Startup \"/c/Users/bob/AppData/Roaming/Microsoft/Windows/Start Menu/Programs\"'",
         ("persistence-autostart", "ask")),
        (r"wsl cp /mnt/c/t/authorized_keys /mnt/c/Users/bob/.ssh", ("account-change", "deny")),
        ("bash -c 'cp -t /c/Users/bob/.ssh /c/t/authorized_keys'", ("account-change", "deny")),
        ('$f = New-Object -ComObject Scripting.FileSystemObject; $f.CopyFile("C:\\t\\authorized_keys", '
         '"C:\\Users\\bob\\.ssh\\")', ("account-change", "deny")),
        ('$s = New-Object -ComObject Shell.Application; $s.Namespace("C:\\Users\\bob\\.ssh").CopyHere('
         '"C:\\t\\authorized_keys")', ("account-change", "deny")),
        # items nobody can name: a wildcard, -Filter, a listing piped in, a folder's contents
        (r"Copy-Item C:\t\* -Destination $env:APPDATA -Recurse -Force", ("self-protection", "deny")),
        (r"Move-Item C:\t\cfg\* $env:APPDATA -Force", ("self-protection", "deny")),
        (r"Copy-Item C:\t -Filter *.toml -Destination $env:APPDATA\winmcp-gateway", ("self-protection", "deny")),
        (r"robocopy C:\t\cfg $env:APPDATA /E", ("self-protection", "deny")),
        (r"xcopy C:\t\cfg %APPDATA% /E /Y", ("self-protection", "deny")),
        (r"Get-ChildItem C:\t\cfg | Copy-Item -Destination $env:APPDATA -Recurse", ("self-protection", "deny")),
        (r"Copy-Item C:\t\* C:\Users\bob\AppData\Roaming\Microsoft\Windows -Recurse", ("copy-over-protected", "ask")),
        (r"robocopy C:\t\cfg C:\Users\bob\AppData\Roaming\Microsoft\Windows /E", ("copy-over-protected", "ask")),
        (r'Copy-Item C:\t\* "C:\ProgramData\Microsoft\Windows\Start Menu\Programs" -Recurse',
         ("persistence-autostart", "ask")),
        (r"Get-ChildItem C:\t -Filter *.ps1 | Copy-Item -Destination C:\Users\bob\Documents\WindowsPowerShell",
         ("self-protection", "deny")),
        (r"robocopy C:\t C:\Users\bob\.ssh authorized_keys", ("account-change", "deny")),
    ],
)  # fmt: skip
def test_what_lands_on_a_protected_place_is_refused(line: str, expected: tuple[str, str]) -> None:
    """S-RULE-147: the item's landing place (or, for items nobody names, every place below the folder) is judged."""
    assert guarded(line) == expected


@requirement("S-RULE-147")
@pytest.mark.parametrize(
    "line",
    [
        r"Copy-Item .\report.pdf C:\Users\bob\Documents",
        r"Copy-Item C:\proj\* C:\backup -Recurse",
        r"Copy-Item C:\Users\bob\Documents\* D:\backup -Recurse",
        r"Copy-Item C:\t\*.pdf C:\Users\bob\Documents",
        r"robocopy C:\src C:\dst /E",
        r"xcopy C:\src C:\dst /E /I /Y",
        r"Copy-Item .\dist\* C:\inetpub\wwwroot\app -Recurse -Force",
        r"Get-ChildItem .\logs -Filter *.log | Move-Item -Destination .\archive",
        r"cmd /c copy *.txt C:\Users\bob\Documents",
        r"wsl cp -r ~/proj /mnt/c/Users/bob/Documents/proj",
        fs("copy", r"C:\Users\bob\Desktop\a.txt", r"C:\Users\bob\Documents"),
        fs("move", r"C:\Users\bob\Downloads\proj", r"C:\Users\bob\Documents\code"),
    ],
)
def test_ordinary_copies_pass(line: str) -> None:
    """S-RULE-147: a named file into an ordinary folder, a tree into a new one, `*.pdf` into Documents."""
    assert guarded(line) is None


@requirement("S-RULE-147")
@pytest.mark.parametrize(
    ("source", "destination", "tree", "contents", "target", "extra"),
    [
        ("C:\\t\\a.txt", "D:\\x", False, False, "D:\\x\\a.txt", LANDED),
        ("C:\\t\\dir\\", "D:\\x\\", True, False, "D:\\x\\dir", (*RECURSIVE, *LANDED)),
        ("'C:\\t\\a b.txt'", '"D:\\x y"', False, False, "D:\\x y\\a b.txt", LANDED),
        ("C:\\t\\*.ps1", "D:\\x", False, False, "D:\\x\\*.ps1", LANDED),
        (None, "D:\\x", True, False, "D:\\x\\*", (*RECURSIVE, *LANDED)),
        ("C:\\t\\dir", "D:\\x", False, True, "D:\\x\\*", LANDED),  # a folder's contents
        ("C:\\t\\.", "D:\\x", False, False, "D:\\x\\*", LANDED),
        ("C:\\t\\..", "D:\\x", False, False, "D:\\x\\*", LANDED),
        ("D:", "C:\\x", False, False, "C:\\x\\*", LANDED),  # a drive's current folder
        ("C:\\t\\a", "C:\\", False, False, "C:\\a", LANDED),
        ("C:\\t\\a", "\\", False, False, "\\a", LANDED),
        ("/mnt/c/t/a", "D:\\x", False, False, "D:\\x\\a", LANDED),
    ],
)
def test_landed_names_the_item_inside_the_folder(
    source: str | None, destination: str, tree: bool, contents: bool, target: str, extra: tuple[tuple[str, str], ...]
) -> None:
    """S-RULE-147: `<destination>\\<source's last name>`, `*` for names not known; the tree below when `tree`."""
    (found,) = landed(source, destination, "copy", tree=tree, contents=contents)
    assert (found.kind, found.target, found.detail, found.extra) == (EffectKind.WRITE, target, "copy", extra)


@requirement("S-RULE-147")
@pytest.mark.parametrize("destination", [None, "", "  ", "''"])
def test_landed_adds_nothing_without_a_destination(destination: str | None) -> None:
    """S-RULE-147: no destination (not constant, or empty): nothing lands anywhere the gateway can name."""
    assert landed("C:\\t\\a", destination, "copy", tree=True) == ()


@requirement("S-RULE-147")
def test_a_copy_to_a_share_uploads_no_more_than_before() -> None:
    """S-RULE-147: the landing write on another machine is no further upload: the file sent, the share written."""
    from policy.rules.command import judge_call

    uploads = [
        e
        for e in judge_call("PowerShell", {"command": r"Copy-Item C:\t\a.txt \\files.example\drop"}).effects
        if e.kind is EffectKind.UPLOAD
    ]
    assert [e.target for e in uploads] == ["C:\\t\\a.txt", "\\\\files.example\\drop"]


@requirement("S-RULE-147")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # where the destination does not exist yet, the folder copied or moved whole becomes it
        (r"Copy-Item C:\t\kit -Recurse -Destination C:\Users\me\.ssh", ("credential-access", "deny")),
        (r"Move-Item C:\t\kit C:\Users\me\.ssh", ("credential-access", "deny")),
        (r"cmd /c move C:\t\kit C:\Users\me\.ssh", ("credential-access", "deny")),
        (r"Copy-Item C:\t\kit -Recurse -Destination C:\Users\me\Documents\WindowsPowerShell",
         ("self-protection", "deny")),
        # folders every profile has already exist: a copy there lands inside them
        (r"Copy-Item C:\t\proj $HOME -Recurse", None),
        (r"Move-Item C:\t\notes.txt $HOME", None),
        (r"Copy-Item C:\t\proj C:\Users\me\Documents -Recurse", None),
        (r"Move-Item C:\t\x C:\Users\me\AppData\Roaming", None),
        (r"Copy-Item C:\t\a.txt C:\Users\me\.ssh", None),  # a file, no -Recurse: lands as .ssh\a.txt
    ],
)  # fmt: skip
def test_a_folder_becomes_a_destination_that_does_not_exist(line: str, expected: object) -> None:
    """S-RULE-147: both readings — into the folder, or as the folder — are judged; the second only where it can be."""
    assert guarded(line) == expected


@requirement("S-RULE-147")
def test_robocopy_names_after_its_options_are_not_files_it_copies() -> None:
    """S-RULE-147: `/XF a b` excludes names; only the words between the destination and the first option are files."""
    from policy.rules.effects_common import LANDED
    from tests.policy.verdicts import ps_effects

    landed = {
        e.target for e in ps_effects(r"robocopy C:\t\cfg D:\dst *.json /E /XF x.tmp y.tmp") if LANDED[0] in e.extra
    }
    assert landed == {"D:\\dst\\*.json"}
    landed = {e.target for e in ps_effects(r"robocopy C:\t\cfg D:\dst /E /XD cache /XF x.tmp") if LANDED[0] in e.extra}
    assert landed == {"D:\\dst\\*"}
