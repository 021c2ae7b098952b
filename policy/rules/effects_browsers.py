"""A browser opened for remote control on the user's own profile (issue 18, S-RULE-167).

`chrome --remote-debugging-port=9222` lets any program on the machine drive the browser through the
DevTools protocol, and that protocol hands out every cookie of the profile it runs (`Network.getAllCookies`,
`Storage.getCookies`); an unpacked extension loaded with `--load-extension` reads them as well. That is the
session of every site the user is signed in to, with no password prompt and no decryption step.
Infostealers start the browser this way instead of reading the encrypted cookie files, so the rules on
those files (the `*-credentials` places) never see it. Firefox's remote protocol (`--remote-debugging-port`,
`--marionette`, `-start-debugger-server`) does the same, and so do chat apps built on Chromium (Slack,
Discord, Teams, Signal), whose sessions sign in as the user.

Automation does this every day with a profile of its own (`--user-data-dir=C:\\Temp\\run1`, Playwright and
Puppeteer make a fresh one): that is ordinary. The user's own profile, named or left to the default, is
`CREDENTIAL_ACCESS` (judge row `credential-access`, deny). A profile folder whose cookie file would be a
browser's credential store (`places`) is the user's own, whatever spelling names it.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Mapping, Sequence

from policy.rules.effects_common import Effects, Handler, argv_of, effect, program_stem
from policy.rules.paths import canonical_path
from policy.rules.places import places_of
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

# Chromium browsers, and chat apps built on Chromium (Electron) whose session cookies sign in as the user.
_CHROMIUM = frozenset(
    {"chrome", "msedge", "brave", "vivaldi", "chromium", "opera", "slack", "discord", "teams", "ms-teams", "signal"}
)
_MOZILLA = frozenset({"firefox", "thunderbird", "librewolf", "waterfox"})
# `--load-extension`: an unpacked extension loaded into the profile reads its cookies as the protocol does.
_CHROMIUM_DEBUGGING = ("remote-debugging-port", "remote-debugging-pipe", "remote-debugging-address", "load-extension")
_MOZILLA_DEBUGGING = ("remote-debugging-port", "marionette", "start-debugger-server", "remote-allow-hosts")


def _own_profile(folder: str, cookie_file: str) -> bool:
    """Whether `folder` is a browser's own profile store: its cookie file there would be a credential store."""
    canonical = canonical_path(ntpath.join(folder.strip().strip("'\""), cookie_file))
    return canonical is not None and any(p.id.endswith("-credentials") for p in places_of(canonical))


def _remote_debugging(op: Operation) -> Effects:
    stem = program_stem(op.name)
    argv = argv_of(op)
    chromium = stem in _CHROMIUM
    if not argv.flag(*(_CHROMIUM_DEBUGGING if chromium else _MOZILLA_DEBUGGING)):
        return ()
    folder: Value = argv.value("user-data-dir") if chromium else argv.value("profile")
    # A Chromium user-data folder holds profiles (`Default\Cookies`); Opera's and Firefox's are the profile.
    if folder is not None and not any(
        _own_profile(folder, f) for f in ("Default\\Cookies", "Cookies", "cookies.sqlite")
    ):
        return ()
    how = "an unpacked extension" if argv.flag("load-extension") and not argv.flag(*_CHROMIUM_DEBUGGING[:3]) else None
    shown = f"{stem} with {how or 'remote debugging'} on " + (
        "the profile it names" if folder else "the user's own profile"
    )
    return (effect(EffectKind.CREDENTIAL_ACCESS, folder or stem, shown + " (every signed-in site's cookies)"),)


# A browser's own pages that show its saved passwords and payment cards (S-RULE-214): opened, the next Snapshot
# reads every saved site and user name (a password shown is one click and a Windows Hello prompt away). Chromium
# browsers by their own scheme (Edge, Brave, Opera and Vivaldi also answer to `chrome://`), Firefox's `about:logins`,
# and the web page of Google's password manager (the same list, synced).
_PASSWORD_PAGE = re.compile(
    r"^[\"']?(?:(?:chrome|edge|brave|vivaldi|opera)://(?:password-manager|wallet"
    r"|settings/+(?:[^\s\"'?#]*/)?(?:passwords?|payments?|autofill)(?![\w-]))|about:logins"
    r"|(?:https?://)?passwords\.google\.com(?![\w.-]))",
    re.IGNORECASE,
)
_BROWSERS = frozenset({"chrome", "msedge", "brave", "vivaldi", "chromium", "opera"}) | _MOZILLA


def password_page(word: Value) -> bool:
    """Whether `word` is the address of a browser's saved-password or payment page (`chrome://settings/passwords`,
    `edge://wallet`, `chrome://password-manager/passwords`, `about:logins`, any case)."""
    return word is not None and _PASSWORD_PAGE.match(word.strip()) is not None


def _password_pages(op: Operation) -> Effects:
    """A browser started on its password or payment page (`msedge edge://settings/passwords`)."""
    if program_stem(op.name) not in _BROWSERS:
        return ()
    pages = [w for w in argv_of(op).words if password_page(w)]
    return tuple(_opened(page, program_stem(op.name)) for page in pages)


def password_pages_opened(per_op: Sequence[Effects]) -> Effects:
    """Each password or payment page another way opens (`Invoke-Item`, `Start-Process`, `start`, the address typed
    into the Run box or a browser's address bar): what is started is the page's address."""
    return tuple(
        _opened(e.target, "its browser")
        for effects in per_op
        for e in effects
        if e.kind is EffectKind.EXECUTE and password_page(e.target)
    )


def _opened(page: Value, by: str) -> Effect:
    return effect(EffectKind.CREDENTIAL_ACCESS, page, f"a browser's saved passwords or payment cards ({page}, in {by})")


def _browser(op: Operation) -> Effects:
    return _remote_debugging(op) + _password_pages(op)


BROWSER_PROGRAMS: Mapping[str, Handler] = dict.fromkeys(_CHROMIUM | _MOZILLA, _browser)
