"""Places that run later what is written into them (S-RULE-66): PowerShell module folders, the taskbar's
pinned shortcuts, and the app-alias folder on the PATH."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()
HOME = "C:\\Users\\me"
PINS = "$env:APPDATA\\Microsoft\\Internet Explorer\\Quick Launch\\User Pinned\\TaskBar"


def verdict(tool: str, **args: object) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-66")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        (
            "FileSystem",
            {
                "mode": "write",
                "path": f"{HOME}\\Documents\\PowerShell\\Modules\\PSReadLine\\PSReadLine.psm1",
                "content": "x",
            },
            ("persistence-autostart", "ask"),
        ),
        (
            "FileSystem",
            {
                "mode": "write",
                "path": f"{HOME}\\OneDrive\\Documents\\WindowsPowerShell\\Modules\\A\\A.psm1",
                "content": "x",
            },
            ("persistence-autostart", "ask"),
        ),
        (
            "PowerShell",
            {"command": f'Copy-Item C:\\t\\Edge.lnk "{PINS}\\"'},
            ("persistence-autostart", "ask"),
        ),
        (
            "FileSystem",
            {"mode": "write", "path": f"{HOME}\\AppData\\Local\\Microsoft\\WindowsApps\\winget.exe", "content": "x"},
            ("persistence-hijack", "deny"),
        ),
        (
            "PowerShell",
            {"command": "Copy-Item C:\\t\\evil.exe $env:LOCALAPPDATA\\Microsoft\\WindowsApps\\python.exe"},
            ("persistence-hijack", "deny"),
        ),
    ],
    ids=["psreadline", "onedrive-module", "taskbar-pin", "windowsapps-fs", "windowsapps-copy"],
)
def test_writing_where_it_runs_later_is_refused(tool: str, args: dict[str, object], expected: tuple[str, str]) -> None:
    """S-RULE-66: a module loads in every PowerShell that uses it (PSReadLine at every start), a pinned
    shortcut starts what it points at, a program in WindowsApps runs for its namesake on the PATH."""
    assert verdict(tool, **args) == expected


@requirement("S-RULE-66")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        (
            "FileSystem",
            {"mode": "read", "path": f"{HOME}\\Documents\\PowerShell\\Modules\\PSReadLine\\PSReadLine.psm1"},
        ),
        ("FileSystem", {"mode": "list", "path": f"{HOME}\\AppData\\Local\\Microsoft\\WindowsApps"}),
        ("PowerShell", {"command": "Get-ChildItem $env:LOCALAPPDATA\\Microsoft\\WindowsApps"}),
        ("PowerShell", {"command": "Install-Module PSReadLine -Scope CurrentUser"}),
        ("FileSystem", {"mode": "write", "path": f"{HOME}\\Documents\\report.txt", "content": "x"}),
    ],
)
def test_reading_them_and_installing_a_module_pass(tool: str, args: dict[str, object]) -> None:
    """S-RULE-66: reading and listing pass; so does Install-Module (the person's tool for modules)."""
    assert verdict(tool, **args) is None


@requirement("S-RULE-66")
@pytest.mark.parametrize(
    "path",
    [
        f"{HOME}\\.ssh\\config",
        f"{HOME}\\AppData\\Local\\Packages\\Microsoft.WindowsTerminal_8wekyb3d8bbwe\\LocalState\\settings.json",
        f"{HOME}\\AppData\\Local\\Packages\\Microsoft.WindowsTerminalPreview_8wekyb3d8bbwe\\LocalState\\settings.json",
    ],
)
def test_settings_that_name_a_command_run_later_are_autostart_places(path: str) -> None:
    """S-RULE-66: the SSH client's `ProxyCommand`, a Terminal profile's command line; reading them passes."""
    assert verdict("FileSystem", mode="write", path=path, content="Host *\n  ProxyCommand x") == (
        "persistence-autostart",
        "ask",
    )
    assert verdict("FileSystem", mode="read", path=path) is None
