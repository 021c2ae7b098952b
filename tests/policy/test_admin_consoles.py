"""Administration consoles: opening one asks, whichever way (S-RULE-154).

The toggle that is `Set-MpPreference -DisableRealtimeMonitoring $true` in PowerShell is one click in Windows
Security; a run key is a few in the Registry Editor. The gateway judges typed text, not clicks, so the console
is where it asks. Everything refused below passed before.
"""

from __future__ import annotations

from typing import Any

import pytest

from policy.rules.effects_consoles import console_named, opens_window, start_menu_console
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

ASK = ("admin-console", "ask")


@requirement("S-RULE-154")
@pytest.mark.parametrize(
    "command",
    ["regedit", "regedt32.exe", "C:\\Windows\\regedit.exe /m", "mmc", "mmc compmgmt.msc", "secpol.msc",
     "& 'C:\\Windows\\System32\\gpedit.msc'", "Start-Process taskschd.msc",
     "Invoke-Item C:\\Windows\\System32\\services.msc",
     "cmd /c start services.msc", "control keymgr.dll", "start windowsdefender:", "explorer.exe windowsdefender://threat",
     "Start-Process 'ms-settings:windowsdefender'", "eventvwr", "UserAccountControlSettings.exe", "msconfig",
     "SecHealthUI.exe"],
)  # fmt: skip
def test_a_console_opened_from_a_command_asks(command: str) -> None:
    """S-RULE-154: as a program, by Start-Process or start, by a URI or a Control Panel item."""
    assert ps(command) == ASK


@requirement("S-RULE-154")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"mode": "launch", "name": "Windows Security"}, ASK),
        ({"mode": "launch", "name": "Registry Editor"}, ASK),
        ({"mode": "launch", "name": "Services"}, ASK),
        ({"mode": "launch", "name": "Service"}, ASK),  # upstream's fuzzy match finds Services
        ({"mode": "launch", "name": "Security"}, ASK),
        ({"mode": "launch", "name": "Task Scheduler"}, ASK),
        ({"mode": "launch", "name": "Credential Manager"}, ASK),
        ({"mode": "launch", "name": "gpedit"}, ASK),
        ({"mode": "launch_executable", "executable": "C:\\Windows\\System32\\mmc.exe", "args": ["secpol.msc"]}, ASK),
        ({"mode": "launch_executable", "executable": "C:\\Windows\\regedit.exe"}, ASK),
        # ordinary apps, and the Registry Editor handed work it does without a window
        ({"mode": "launch", "name": "Settings"}, None),
        ({"mode": "launch", "name": "Notepad"}, None),
        ({"mode": "launch", "name": "Windows Update"}, None),
        ({"mode": "launch", "name": "Control Panel"}, None),
        ({"mode": "launch", "name": "File Explorer"}, None),
        ({"mode": "launch", "name": "Registry Editor", "args": ["/e", "C:\\t\\x.reg", "HKEY_CURRENT_USER\\Console"]},
         None),
    ],
)  # fmt: skip
def test_app_opening_a_console_asks(args: dict[str, Any], expected: object) -> None:
    """S-RULE-154: App `launch` by a Start-menu name closer to a console than to a common app, or its program."""
    assert verdict("App", **args) == expected


@requirement("S-RULE-154")
@pytest.mark.parametrize(
    "command",
    ["regedit /s C:\\t\\x.reg", "regedit /e C:\\t\\x.reg HKEY_CURRENT_USER\\Console", "control printers",
     "control.exe C:\\Windows\\System32\\desk.cpl", "Start-Process ms-settings:display", "notepad services.txt",
     "Get-Service", "Write-Output 'open secpol.msc to check'"],
)  # fmt: skip
def test_no_console_no_console_ask(command: str) -> None:
    """S-RULE-154: an import or export without a window, other Control Panel items, settings pages, printed words."""
    assert ps(command) != ASK


@requirement("S-RULE-154")
def test_the_console_helpers() -> None:
    """S-RULE-154: names, paths and URIs to consoles; the Registry Editor opens a window only with `/m` or nothing."""
    assert console_named("C:\\Windows\\System32\\WF.msc") == "the MMC console wf.msc"
    assert console_named("'windowsdefender://threat'") == "Windows Security"
    assert console_named("keymgr.dll,KRShowKeyMgr") == "Credential Manager"
    assert console_named("notepad.exe") is None
    assert console_named(None) is None
    assert opens_window("the Registry Editor", ["/m"]) is True
    assert opens_window("the Registry Editor", ["/s", "x.reg"]) is False
    assert opens_window("Event Viewer", ["/c:x"]) is True
    assert start_menu_console("Settings") is None
    assert start_menu_console("  ") is None
    assert start_menu_console("Local Security Policy") == "Local Security Policy"
