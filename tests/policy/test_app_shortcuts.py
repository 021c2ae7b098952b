"""A program's shortcut on the Start menu or the shared desktop is a startup place (S-RULE-172).

Every ask below passed before: a shortcut the user starts Chrome or Edge with, rewritten to start another program
first (`WScript.Shell` `CreateShortcut(…).Save()`, or a copy over it), runs that program at the user's next click.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

ASK = ("persistence-autostart", "ask")
_MENU = r"$env:APPDATA\Microsoft\Windows\Start Menu\Programs"


@requirement("S-RULE-172")
@pytest.mark.parametrize(
    "command",
    [
        f'$s = (New-Object -ComObject WScript.Shell).CreateShortcut("{_MENU}\\Google Chrome.lnk"); '
        "$s.TargetPath = 'C:\\t\\x.exe'; $s.Save()",
        r'Copy-Item C:\t\x.lnk "C:\ProgramData\Microsoft\Windows\Start Menu\Programs\Microsoft Edge.lnk"',
        r'Copy-Item C:\t\x.lnk "C:\Users\Public\Desktop\Google Chrome.lnk" -Force',
        f'Set-Content "{_MENU}\\x.url" "[InternetShortcut]`nURL=file:///C:/t/x.exe"',
    ],
)
def test_writing_a_start_menu_or_shared_desktop_shortcut_asks(command: str) -> None:
    """S-RULE-172: as writing into the Startup folder does."""
    assert ps(command) == ASK


@requirement("S-RULE-172")
def test_the_filesystem_tool_is_judged_alike() -> None:
    """S-RULE-172: FileSystem write of the same shortcut."""
    path = r"C:\ProgramData\Microsoft\Windows\Start Menu\Programs\Google Chrome.lnk"
    assert verdict("FileSystem", mode="write", path=path, content="x") == ASK


@requirement("S-RULE-172")
@pytest.mark.parametrize(
    "command",
    [
        f'Get-ChildItem "{_MENU}" -Recurse -Filter *.lnk',
        f'Copy-Item "{_MENU}\\x.lnk" C:\\t\\ ',
        r"$s = (New-Object -ComObject WScript.Shell).CreateShortcut('C:\t\new.lnk'); $s.TargetPath = 'x'; $s.Save()",
        r"Copy-Item C:\t\* $env:USERPROFILE\Desktop",  # the user's own desktop: everyday copies land there
        r"Set-Content $env:USERPROFILE\Desktop\notes.txt hi",
    ],
)
def test_reading_shortcuts_and_everyday_desktop_copies_stay_ordinary(command: str) -> None:
    """S-RULE-172: only a shortcut written where the user starts programs from."""
    assert ps(command) is None
