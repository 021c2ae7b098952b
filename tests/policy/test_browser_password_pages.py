"""A browser's own page of saved passwords or payment cards is a credential store (S-RULE-214).

Before, `Start-Process chrome chrome://settings/passwords`, `msedge edge://wallet/passwords` and
`chrome://password-manager/passwords` typed into the Run box or a browser's address bar passed while reading the
browser's `Login Data` was refused: the next Snapshot reads every saved site and user name from the page.
"""

from __future__ import annotations

import pytest

from policy.private import private_patterns
from policy.rules.effects_browsers import password_page
from tests._requirements import requirement
from tests.policy.test_typed import capture_of, focus_point, hit_of
from tests.policy.verdicts import ps, verdict

CREDENTIALS = ("credential-access", "deny")
PAGES = [
    "chrome://settings/passwords",
    "chrome://settings/passwords/check",
    "chrome://password-manager/passwords",
    "chrome://settings/autofill",
    "chrome://settings/payments",
    "CHROME://SETTINGS/PASSWORDS",
    "edge://settings/passwords",
    "edge://wallet/passwords",
    "edge://settings/profiles/passwords",
    "brave://settings/passwords",
    "vivaldi://settings/passwords",
    "opera://settings/passwords",
    "about:logins",
    "https://passwords.google.com",
    "passwords.google.com/options",
]


@requirement("S-RULE-214")
@pytest.mark.parametrize("page", PAGES)
def test_the_page_is_known_in_any_spelling(page: str) -> None:
    """S-RULE-214: every browser's scheme, any case, a path under its settings."""
    assert password_page(page)
    assert password_page(f"'{page}'")


@requirement("S-RULE-214")
@pytest.mark.parametrize(
    "command",
    [
        "Start-Process chrome chrome://settings/passwords",
        "Start-Process msedge -ArgumentList 'edge://wallet/passwords'",
        "start msedge edge://settings/passwords",
        "Invoke-Item chrome://password-manager/passwords",
        "Start-Process 'chrome://settings/payments'",
        "firefox about:logins",
        "& 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' --new-window chrome://settings/passwords",
        'cmd /c "start chrome chrome://settings/autofill"',
        "$p = 'chrome://settings/' + 'passwords'; Start-Process chrome $p",  # built
        "brave.exe brave://settings/passwords/check",
    ],
)
def test_opening_the_page_is_refused(command: str) -> None:
    """S-RULE-214: however it is opened, the page shows what `Login Data` holds."""
    assert ps(command) == CREDENTIALS


@requirement("S-RULE-214")
def test_the_app_tool_is_refused_the_same() -> None:
    """S-RULE-214: one rule, every tool."""
    assert verdict("App", mode="launch", name="msedge", args="edge://settings/passwords") == CREDENTIALS


@requirement("S-RULE-214")
@pytest.mark.parametrize("scenario", ["browser-address", "run-box", "explorer-address"])
@pytest.mark.parametrize("page", ["chrome://settings/passwords", "edge://wallet/passwords", "about:logins"])
def test_typed_into_an_address_bar_or_the_run_box_is_refused(scenario: str, page: str) -> None:
    """S-RULE-214: the keyboard opens it as surely."""
    where = focus_point(capture_of(scenario))
    assert hit_of(scenario, "Type", loc=where, text=page, press_enter=True) == CREDENTIALS


@requirement("S-RULE-214")
def test_the_reason_names_the_page() -> None:
    """S-RULE-214: the person sees which page."""
    from tests.policy.verdicts import reason_of

    assert "chrome://settings/passwords" in reason_of("Start-Process chrome chrome://settings/passwords")


@requirement("S-RULE-214")
def test_chromes_password_manager_window_is_private_by_default() -> None:
    """S-RULE-214 (S-PRIV-01): the page reached by clicks is hidden from Snapshots."""
    assert private_patterns(()).matches("Google Password Manager - Google Chrome")


@requirement("S-RULE-214")
@pytest.mark.parametrize(
    "command",
    [
        "Start-Process chrome chrome://settings/",
        "Start-Process chrome chrome://settings/appearance",
        "Start-Process chrome chrome://history",
        "Start-Process chrome https://example.com/settings/passwords",
        "Start-Process chrome https://passwords.google.com.example.net/",  # another host
        "Write-Output 'open chrome://settings/passwords'",  # only printed
        "Start-Process slack chrome://settings/passwords",  # not a browser
    ],
)
def test_other_pages_stay_ordinary(command: str) -> None:
    """S-RULE-214: other settings pages, web pages and printed text are no password store."""
    assert ps(command) is None
