"""A remote-control program installed or started is a person's call (S-RULE-169).

Every ask below passed before: whoever holds the other end of AnyDesk, TeamViewer, ScreenConnect, a VNC server,
an RMM agent or Quick Assist sees and drives the desktop, and the gateway judges none of their clicks.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_remote_control import remote_control_tool
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

ASK = ("remote-control", "ask")


@requirement("S-RULE-169")
@pytest.mark.parametrize(
    "command",
    [
        "winget install AnyDesk.AnyDesk",
        "winget install -e --id TeamViewer.TeamViewer",
        "winget install Google.ChromeRemoteDesktopHost",
        "choco install anydesk -y",
        "scoop install extras/rustdesk",
        r'Start-Process "C:\Program Files (x86)\AnyDesk\AnyDesk.exe"',
        r'& "$env:USERPROFILE\Downloads\AnyDesk.exe" --install "C:\Program Files (x86)\AnyDesk" --silent',
        r"msiexec /i C:\t\ScreenConnect.ClientSetup.msi /qn",
        r"C:\t\TeamViewer_Setup.exe /S",
        "quickassist",
        "Start-Process quickassist.exe",
        r"cmd /c start C:\t\rustdesk-1.3.1-x86_64.exe",
    ],
)
def test_installing_or_starting_a_remote_control_program_asks(command: str) -> None:
    """S-RULE-169: by package name, by its setup, or by starting it."""
    assert ps(command) == ASK


@requirement("S-RULE-169")
@pytest.mark.parametrize(
    "command",
    [
        "winget uninstall AnyDesk.AnyDesk",
        "winget install Git.Git",
        "winget install RealVNC.VNCViewer",  # a viewer connects elsewhere: nobody reaches this machine through it
        "vncviewer server1",
        "Start-Process mstsc '/v:server1'",
        "Get-Process AnyDesk",
        "Stop-Process -Name AnyDesk",
        r'Get-Content "C:\ProgramData\AnyDesk\ad.trace"',
    ],
)
def test_viewers_and_looking_at_one_stay_ordinary(command: str) -> None:
    """S-RULE-169: only installing or starting the program that lets others in asks."""
    assert ps(command) is None


@requirement("S-RULE-169")
def test_app_launch_by_name_asks() -> None:
    """S-RULE-169: App `launch` of the Start-menu name is the same start."""
    assert verdict("App", mode="launch", name="AnyDesk") == ASK
    assert verdict("App", mode="launch", name="Quick Assist") == ASK
    assert verdict("App", mode="launch", name="Notepad") is None


@requirement("S-RULE-169")
def test_names_match_at_a_word_start_only() -> None:
    """S-RULE-169: `TeamViewer_Setup.exe`, `GlavSoft.TightVNC` match; a name merely containing one does not."""
    assert remote_control_tool(r"C:\t\TeamViewer_Setup.exe") == "teamviewer"
    assert remote_control_tool("GlavSoft.TightVNC") == "tightvnc"
    assert remote_control_tool(r"C:\t\myanydeskbackup.exe") is None
    assert remote_control_tool(None) is None
