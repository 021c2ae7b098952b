"""The simulator's command places: consoles, the Run box, address bars, a UAC prompt (S-SIM-05, S-SIM-09).

Each scenario's Snapshot is parsed by the gateway's own parser, so these tests prove that what the
gateway will read about a console (issue 18 item 4) is what the simulator prints, and that typing
into it is recorded, so an end-to-end test can show that a refused call left no event.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.observe.parse import parse_result
from gateway.sim import build_server, read_events, scenario_names
from policy.observation import Capture, Element
from tests._requirements import requirement
from tests.sim._sim import call, connect

pytestmark = pytest.mark.anyio

EDGE_TITLE = "Example Domain - Microsoft\u200b Edge"

# scenario → (Focused Window name or None, focused element as (window, control, name) or None)
EXPECTED: dict[str, tuple[str | None, tuple[str, str, str] | None]] = {
    "console-powershell": ("Windows PowerShell", ("Windows PowerShell", "document", "Text Area")),
    "console-cmd": ("Command Prompt", ("Command Prompt", "document", "Text Area")),
    "windows-terminal": ("Windows PowerShell", ("Windows PowerShell", "terminal", "Windows PowerShell")),
    "run-box": (None, ("Run", "edit", "Open:")),
    "taskmgr-run": ("Task Manager", ("Create new task", "edit", "Open:")),
    "explorer-address": ("Documents - File Explorer", ("Documents - File Explorer", "edit", "Address")),
    "explorer-system32": ("System32 - File Explorer", ("System32 - File Explorer", "list item", "hal.dll")),
    "browser-address": (EDGE_TITLE, None),  # the address bar is never printed (FORMATS §5.5)
    "uac-prompt": (None, ("User Account Control", "edit", "Password")),
    "notepad": ("powershell notes.txt - Notepad", ("powershell notes.txt - Notepad", "document", "Text editor")),
    "python-repl": ("Python 3.12 (64-bit)", ("Python 3.12 (64-bit)", "document", "Text Area")),
    # The session's input-capture pane is no control Windows-MCP lists: the window is all there is to see.
    "remote-desktop": ("10.0.0.5 - Remote Desktop Connection", None),
    "vscode-terminal": (
        "main.py - project - Visual Studio Code",
        ("main.py - project - Visual Studio Code", "edit", "Terminal 1, pwsh"),
    ),
}
OPENED = {
    "console-powershell": ["Administrator: Windows PowerShell"],
    "console-cmd": ["C:\\WINDOWS\\system32\\cmd.exe"],
}


async def snapshot(name: str) -> Capture:
    """The scenario's Snapshot as the gateway parses it."""
    async with connect(build_server(name)) as client:
        result = await call(client, "Snapshot")
    capture = parse_result("Snapshot", result)
    assert isinstance(capture, Capture), capture
    return capture


def focused_elements(capture: Capture) -> list[Element]:
    return [e for e in capture.elements if e.kind == "element" and "focused" in e.flags]


@requirement("S-SIM-05")
def test_the_command_place_scenarios_are_built_in() -> None:
    """S-SIM-05: the command-place worlds are listed after the sample worlds."""
    names = scenario_names()
    first = names.index("user-control") + 1
    assert names[first : first + len(EXPECTED)] == list(EXPECTED)


@requirement("S-SIM-05", "S-SIM-04")
@pytest.mark.parametrize("name", list(EXPECTED))
async def test_scenario_snapshot_parses_to_its_focused_window_and_element(name: str) -> None:
    """S-SIM-05: each command place parses cleanly into the expected focused window and focused element."""
    capture = await snapshot(name)
    window, element = EXPECTED[name]
    assert capture.warnings == ()
    assert capture.tree == "present"
    assert (capture.focused.name if capture.focused else None) == window
    assert [w.name for w in capture.windows] == OPENED.get(name, [])
    focused = {(e.window, e.control, e.name) for e in focused_elements(capture)}
    assert focused == ({element} if element else set())


@requirement("S-SIM-06")
async def test_browser_address_bar_is_in_the_label_table_but_not_the_text(event_log: Path) -> None:
    """S-SIM-06: the Edge address bar is label 0 and focused, yet the text shows only the page."""
    async with connect(build_server("browser-address", event_log=event_log)) as client:
        result = await call(client, "Snapshot")
        await call(client, "Type", {"label": 0, "text": "file:///C:/", "press_enter": True})
    capture = parse_result("Snapshot", result)
    assert isinstance(capture, Capture)
    names = {e.name for e in capture.elements if e.window == EDGE_TITLE}
    assert "Address and search bar" not in names and {"Search", "Example Domain"} <= names
    typed = [e for e in read_events(event_log) if e["kind"] == "type"]
    assert [t["screen_point"] for t in typed] == [[850, 62]]


@requirement("S-SIM-09")
@pytest.mark.parametrize(
    ("name", "point", "window"),
    [
        ("console-powershell", [741, 452], "Windows PowerShell"),
        ("console-cmd", [741, 452], "Command Prompt"),
        ("windows-terminal", [810, 490], "Windows PowerShell"),
        ("run-box", [233, 924], None),  # no app window is active while the Run box is in front
        ("explorer-address", [690, 156], "Documents - File Explorer"),
        ("notepad", [800, 520], "powershell notes.txt - Notepad"),
    ],
)
async def test_typing_into_a_command_place_is_one_event(
    event_log: Path, name: str, point: list[int], window: str | None
) -> None:
    """S-SIM-09: Type into each place appends one `type` event with its point, text and Enter."""
    async with connect(build_server(name, event_log=event_log)) as client:
        await call(client, "Snapshot")
        result = await call(client, "Type", {"loc": point, "text": "Get-Date", "press_enter": True})
    assert result["isError"] is False
    typed = [e for e in read_events(event_log) if e["kind"] == "type"]
    assert len(typed) == 1
    assert typed[0]["screen_point"] == point and typed[0]["window"] == window
    assert typed[0]["detail"]["text"] == "Get-Date" and typed[0]["detail"]["press_enter"] is True
