"""The side-effect event log (S-SIM-09) and "nothing runs on the host" (S-SIM-03)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from gateway.sim import build_server, read_events
from tests._requirements import requirement
from tests.sim._sim import call, connect, text

pytestmark = pytest.mark.anyio

NOTEPAD = "notes.txt - Notepad"
KEYS = {"seq", "tool", "kind", "args", "screen_point", "window", "generation", "detail"}

# (tool, arguments, expected kinds, expected screen points) — one row per side effect
EFFECTS: list[tuple[str, dict[str, Any], list[str], list[list[int] | None]]] = [
    ("Click", {"loc": [640, 480]}, ["click"], [[640, 480]]),
    ("Click", {"loc": [641, 481], "clicks": 0}, ["hover"], [[641, 481]]),
    ("Type", {"loc": [800, 520], "text": "hi", "clear": True}, ["type"], [[800, 520]]),
    ("Scroll", {"loc": [800, 520], "direction": "down"}, ["scroll"], [[800, 520]]),
    ("Move", {"loc": [100, 200]}, ["move"], [[100, 200]]),
    ("Move", {"loc": [300, 300], "drag": True}, ["drag"], [[300, 300]]),
    ("Shortcut", {"shortcut": "ctrl+s"}, ["shortcut"], [None]),
    (
        "MultiSelect",
        {"locs": [[228, 152], [268, 152]]},
        ["multiselect", "multiselect"],
        [[228, 152], [268, 152]],
    ),
    ("MultiEdit", {"locs": [[800, 520, "a"]]}, ["multiedit"], [[800, 520]]),
    ("Clipboard", {"mode": "set", "text": "x"}, ["clipboard_set"], [None]),
    ("PowerShell", {"command": "Remove-Item C:\\ -Recurse -Force"}, ["powershell"], [None]),
    (
        "Registry",
        {"mode": "set", "path": "HKCU:\\Software\\T", "name": "a", "value": "1"},
        ["registry_set"],
        [None],
    ),
    ("Registry", {"mode": "delete", "path": "HKCU:\\Software\\T"}, ["registry_delete"], [None]),
    ("FileSystem", {"mode": "write", "path": "a.txt", "content": "x"}, ["file_write"], [None]),
    ("FileSystem", {"mode": "copy", "path": "a.txt", "destination": "b.txt"}, ["file_copy"], [None]),
    ("FileSystem", {"mode": "move", "path": "b.txt", "destination": "c.txt"}, ["file_move"], [None]),
    ("FileSystem", {"mode": "delete", "path": "c.txt"}, ["file_delete"], [None]),
    ("Notification", {"title": "t", "message": "m", "app_id": "a"}, ["notification"], [None]),
    ("App", {"mode": "launch", "name": "calculator"}, ["app_launch"], [None]),
    (
        "App",
        {"mode": "resize", "window_loc": [0, 0], "window_size": [800, 600]},
        ["app_resize", "capture"],
        [[0, 0], None],
    ),
    ("App", {"mode": "switch", "name": "Downloads"}, ["app_switch"], [None]),
    ("Process", {"mode": "kill", "name": "chrome.exe"}, ["process_kill"], [None]),
]

# Calls that upstream refuses or that fail: none may reach the desktop.
NO_EFFECT: list[tuple[str, dict[str, Any]]] = [
    ("Click", {"loc": [1, 1], "bogus": 1}),
    ("Click", {"loc": [1, 1], "clicks": "many"}),
    ("Click", {"loc": [5000, 20]}),
    ("Click", {"label": 0}),
    ("Click", {}),
    ("Type", {"loc": [1, 1], "text": "x", "clear": "yes"}),
    ("Scroll", {"type": "horizontal", "direction": "down"}),
    ("Move", {"loc": [3, 3], "from_loc": [1, 1]}),
    ("Snapshot", {"region": [5000, 5000, 5100, 5100]}),
    ("Screenshot", {"display": [3]}),
    ("Registry", {"mode": "get", "path": "HKCU:\\Nope", "name": "x"}),
    ("Registry", {"mode": "delete", "path": "HKCU:\\Nope"}),
    ("FileSystem", {"mode": "read", "path": "missing.txt"}),
    ("FileSystem", {"mode": "delete", "path": "C:/Windows/System32"}),
    ("Process", {"mode": "kill", "pid": 999999}),
    ("Process", {"mode": "kill", "pid": 4}),
    ("App", {"mode": "switch", "name": "Nonexistent App Zzz"}),
    ("App", {"mode": "launch", "name": "Zzzzzz"}),
    ("WaitFor", {"condition": "bogus"}),
    ("Scrape", {"url": "http://127.0.0.1/"}),
    ("NoSuchTool", {}),
]


@requirement("S-SIM-09")
async def test_every_side_effect_is_one_event_line(event_log: Path) -> None:
    """S-SIM-09: each side effect appends its kind with screen point, focused window and generation."""
    async with connect(build_server("default", event_log=event_log)) as client:
        for tool, args, _, _ in EFFECTS:
            result = await call(client, tool, args)
            assert result["isError"] is False, (tool, args, text(result))
    events = read_events(event_log)
    assert [e["kind"] for e in events] == [k for _, _, kinds, _ in EFFECTS for k in kinds]
    assert [e["screen_point"] for e in events] == [p for _, _, _, points in EFFECTS for p in points]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert all(set(e) == KEYS for e in events)
    assert events[0]["window"] == NOTEPAD and events[0]["args"] == {"loc": [640, 480]}
    switch = next(e for e in events if e["kind"] == "app_switch")
    assert switch["window"] == NOTEPAD  # the window focused when the switch happened
    assert [e["generation"] for e in events if e["kind"] == "capture"] == [1]


@requirement("S-SIM-09")
@pytest.mark.parametrize(("tool", "args"), NO_EFFECT)
async def test_refused_or_failed_calls_log_nothing(event_log: Path, tool: str, args: dict[str, Any]) -> None:
    """S-SIM-09: validation errors, upstream errors and failure texts append no event."""
    async with connect(build_server("default", event_log=event_log)) as client:
        await call(client, tool, args)
    assert read_events(event_log) == []


@requirement("S-SIM-09")
async def test_sequence_continues_across_servers_on_one_log(event_log: Path) -> None:
    """S-SIM-09: a second simulator appending to the same log continues its seq numbers."""
    for _ in range(2):
        async with connect(build_server("default", event_log=event_log)) as client:
            await call(client, "Click", {"loc": [1, 1]})
    assert [e["seq"] for e in read_events(event_log)] == [1, 2]


@requirement("S-SIM-09")
def test_read_events_of_a_missing_log_is_empty(tmp_path: Path) -> None:
    """S-SIM-09: no log file means no events."""
    assert read_events(tmp_path / "absent.jsonl") == []


@requirement("S-SIM-03", "S-SIM-09")
async def test_nothing_is_executed_or_written_on_the_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-SIM-03: PowerShell answers canned text and FileSystem writes stay in memory."""
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "marker.txt"
    marker.write_text("keep", encoding="utf-8")
    async with connect(build_server("default")) as client:
        ps = await call(client, "PowerShell", {"command": f"Remove-Item '{marker}'"})
        await call(client, "FileSystem", {"mode": "write", "path": "demo.txt", "content": "x"})
        await call(client, "FileSystem", {"mode": "delete", "path": str(marker)})
        read = await call(client, "FileSystem", {"mode": "read", "path": "demo.txt"})
    canned = f"(fake upstream: PowerShell not executed on Linux) Remove-Item '{marker}'\r\n"
    assert text(ps) == f"Response: {canned}\nStatus Code: 0"
    assert text(read) == "File: C:/Users/demo/Desktop/demo.txt\nx"
    assert marker.read_text(encoding="utf-8") == "keep"
    assert sorted(os.listdir(tmp_path)) == ["marker.txt"]
