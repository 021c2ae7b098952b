"""A browser (or a chat app built on Chromium) opened for remote control on the user's own profile (S-RULE-167).

Every refusal below passed before: the DevTools protocol hands out every cookie of the profile it runs, so an
infostealer starts the browser this way instead of reading the cookie files the credential places guard.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import split_command_line
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

DENY = ("credential-access", "deny")
_CHROME = r"C:\Program Files\Google\Chrome\Application\chrome.exe"


@requirement("S-RULE-167")
@pytest.mark.parametrize(
    "command",
    [
        "Start-Process chrome.exe '--remote-debugging-port=9222'",
        "Start-Process msedge -ArgumentList '--remote-debugging-port=9222','--restore-last-session'",
        "Start-Process brave '--remote-debugging-pipe'",
        "cmd /c start chrome --remote-debugging-port=9222",
        "Start-Process chrome.exe '--remote-debugging-port=9222 "
        '--user-data-dir="C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data"\'',
        'cmd /c start msedge --remote-debugging-port=9222 --user-data-dir="%LOCALAPPDATA%\\Microsoft\\Edge\\User Data"',
        "Start-Process firefox '--remote-debugging-port 9222'",
        "Start-Process firefox '--marionette -profile "
        "C:\\Users\\me\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\a.default'",
        "Start-Process slack '--remote-debugging-port=9222'",
        "Start-Process discord '--remote-debugging-port=9222'",
    ],
)
def test_remote_debugging_of_the_users_own_profile_is_credential_access(command: str) -> None:
    """S-RULE-167: named or left to the default, the user's profile is theirs."""
    assert ps(command) == DENY


@requirement("S-RULE-167")
@pytest.mark.parametrize(
    "command",
    [
        "Start-Process chrome.exe '--remote-debugging-port=9222 --user-data-dir=C:\\Temp\\run1'",
        "Start-Process chrome.exe '--headless --user-data-dir=C:\\Temp\\run1 --remote-debugging-port=0'",
        "Start-Process firefox '-profile C:\\Temp\\p --marionette'",
        "Start-Process chrome.exe 'https://example.com'",
        "Start-Process msedge '--inprivate https://example.com'",
        # Unquoted, Chrome gets `…\Chrome\User` (a new, empty folder) and `Data` (a page to open).
        'Start-Process chrome -ArgumentList "--remote-debugging-port=9222 '
        '--user-data-dir=$env:LOCALAPPDATA\\Google\\Chrome\\User Data"',
    ],
)
def test_automation_with_a_profile_of_its_own_stays_ordinary(command: str) -> None:
    """S-RULE-167: Playwright and Puppeteer start browsers this way every day."""
    assert ps(command) is None


@requirement("S-RULE-167")
def test_app_launch_is_read_alike() -> None:
    """S-RULE-167: App's launch_executable of the browser is the same start."""
    assert verdict("App", mode="launch_executable", executable=_CHROME, args=["--remote-debugging-port=9222"]) == DENY
    args = ["--remote-debugging-port=9222", "--user-data-dir=C:\\t\\p"]
    assert verdict("App", mode="launch_executable", executable=_CHROME, args=args) is None


@requirement("S-RULE-167")
def test_a_quoted_part_continues_its_word_as_windows_splits_it() -> None:
    """S-RULE-167: `--user-data-dir="C:\\x\\User Data"` is one word (a quote toggles quoting anywhere in a word)."""
    assert split_command_line('--p=1 --dir="C:\\x\\User Data" y') == ("--p=1", "--dir=C:\\x\\User Data", "y")
    assert split_command_line('a"b c"d "e f" \'g h\' i,j "k') == ("ab cd", "e f", "g h", "i", "j", "k")
