"""More places that hold a sign-in (S-RULE-140): read or copied by any tool, they are `credential-access`.

Each place was found by asking where a token stealer looks on a developer's Windows machine that the table did not
yet know. Their neighbours (settings files, a backup of Documents) stay ordinary.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

DENY = ("credential-access", "deny")
ROAMING = r"C:\Users\me\AppData\Roaming"
LOCAL = r"C:\Users\me\AppData\Local"


@requirement("S-RULE-140")
@pytest.mark.parametrize(
    "path",
    [
        r"C:\Users\me\.config\gcloud\credentials.db",
        r"C:\Users\me\.config\gcloud\application_default_credentials.json",
        ROAMING + r"\NuGet\NuGet.Config",
        ROAMING + r"\mRemoteNG\confCons.xml",
        ROAMING + r"\Code\User\globalStorage\state.vscdb",
        ROAMING + r"\Cursor\User\globalStorage\state.vscdb",
        ROAMING + r"\Code - Insiders\User\globalStorage\state.vscdb.backup",
        ROAMING + r"\discord\Local Storage\leveldb\000005.ldb",
        ROAMING + r"\discordcanary\Local Storage\leveldb\LOG",
        LOCAL + r"\Microsoft\Olk\EBWebView\Default\Network\Cookies",
        LOCAL
        + r"\Packages\MSTeams_8wekyb3d8bbwe\LocalCache\Microsoft\MSTeams\EBWebView\WV2Profile_tfw\Network\Cookies",
    ],
)
def test_a_sign_in_read_or_copied_is_refused(path: str) -> None:
    """S-RULE-140: FileSystem read and copy, PowerShell Get-Content and Copy-Item alike."""
    assert verdict("FileSystem", mode="read", path=path) == DENY
    assert verdict("FileSystem", mode="copy", path=path, destination=r"C:\t\x") == DENY
    assert ps(f"Get-Content '{path}'") == DENY
    assert ps(f"Copy-Item '{path}' C:\\t\\") == DENY


@requirement("S-RULE-140")
def test_a_folder_holding_one_is_refused_when_copied_whole() -> None:
    """S-RULE-140: a recursive copy or archive of the folder carries the sign-in with it."""
    assert ps(rf"Compress-Archive '{ROAMING}\discord\Local Storage\leveldb' C:\t\d.zip") == DENY
    assert ps(rf"Copy-Item '{ROAMING}\Cursor\User' -Recurse D:\backup") == DENY


@requirement("S-RULE-140")
@pytest.mark.parametrize(
    "command",
    [
        rf"Get-Content {ROAMING}\Code\User\settings.json",
        rf"Copy-Item {ROAMING}\Code\User\keybindings.json D:\backup\\",
        r"Copy-Item C:\Users\me\Documents -Recurse D:\backup",
        r"Get-Content C:\Users\me\.ssh\config",
        rf"Get-ChildItem {ROAMING}\discord",
    ],
)
def test_their_neighbours_pass(command: str) -> None:
    """S-RULE-140: settings files, a backup of Documents (a `*.kdbx` there is not a place), a listing."""
    assert ps(command) is None
