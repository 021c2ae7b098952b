"""Scenarios (S-SIM-05), the desktop model (S-SIM-03) and the table renderer (S-SIM-04)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.sim import build_server, scenario_names
from gateway.sim.model import Rect, Scenario, Window
from gateway.sim.render.tables import tabulate_simple, utf16_len
from gateway.sim.scenarios.files import ScenarioError, load_scenario, scenario_from_dict
from tests._requirements import REPO, requirement
from tests.sim._sim import call, connect, sample, text, upstream_json

pytestmark = pytest.mark.anyio

EXAMPLE = REPO / "gateway" / "sim" / "data" / "example_scenario.toml"
BUILTIN = [
    "default",
    "hidpi",
    "dual-right",
    "dual-negative",
    "settings",
    "empty",
    "truncated",
    "browser",
    "user-control",
    "console-powershell",
    "console-cmd",
    "windows-terminal",
    "run-box",
    "taskmgr-run",
    "explorer-address",
    "explorer-system32",
    "browser-address",
    "uac-prompt",
    "notepad",
    "python-repl",
    "remote-desktop",
    "vscode-terminal",
    "jupyter-notebook",
    "large",
    "private",
    "private-background",
    "private-dual",
]


@requirement("S-SIM-05")
def test_builtin_scenarios_are_listed() -> None:
    """S-SIM-05: scenario_names() lists the built-in worlds in a stable order."""
    assert scenario_names() == BUILTIN


@requirement("S-SIM-05", "S-SIM-04")
@pytest.mark.parametrize("name", [n for n in BUILTIN if n != "user-control"])
async def test_every_builtin_scenario_snapshots(name: str) -> None:
    """S-SIM-05: each built-in world answers Snapshot with upstream's skeleton."""
    async with connect(build_server(name)) as client:
        result = await call(client, "Snapshot")
    prose = text(result)
    assert prose.startswith("\n    Cursor Position: ")
    assert "\n\n    Active Desktop:\n    Name\n" in prose and "UI Tree:\n" in prose


@requirement("S-SIM-05")
async def test_example_toml_file_loads_and_serves() -> None:
    """S-SIM-05: the shipped example scenario loads; its second monitor has a negative origin."""
    async with connect(build_server(EXAMPLE)) as client:
        snap = await call(client, "Snapshot")
        ps = await call(client, "PowerShell", {"command": "Get-Date"})
        launched = await call(client, "App", {"mode": "launch", "name": "calculator"})
        after = await call(client, "Snapshot")
    assert "1:\\\\.\\DISPLAY2 (-1280,0,0,1024)" in text(snap)
    assert text(ps) == "Response: Tuesday, 2 December 2026 09:31:30\r\n\nStatus Code: 0"
    assert text(launched) == "Calculator launched."
    assert "Calculator        1  Normal        320       500" in text(after).split("Opened Windows:")[0]


@requirement("S-SIM-05", "S-SIM-04")
def test_json_file_extending_a_builtin_overrides_keys(tmp_path: Path) -> None:
    """S-SIM-05: a JSON file with extends keeps the base world and overrides the keys it gives."""
    path = tmp_path / "moved.json"
    path.write_text(json.dumps({"extends": "empty", "cursor": [5, 6], "max_tree_elements": 7}), encoding="utf-8")
    scenario = load_scenario(path)
    assert scenario.name == "moved" and scenario.cursor == (5, 6) and scenario.max_tree_elements == 7
    assert scenario.windows == load_scenario("empty").windows


@requirement("S-SIM-05")
@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"extends": "nowhere"}, "extends: unknown scenario 'nowhere'"),
        ({"cursor": [1, 2]}, "displays: required"),
        ({"extends": "default", "windows": [{"title": "W", "rect": [0, 0, 5]}]}, "window 'W': rect must be"),
        ({"extends": "default", "focus": "No Such Window"}, "focus 'No Such Window' names no window"),
        (
            {"extends": "default", "windows": [{"title": "W", "rect": [0, 0, 5, 5], "status": "Gone"}]},
            "status",
        ),
    ],
)
def test_invalid_scenario_data_names_the_problem(data: dict[str, object], fragment: str) -> None:
    """S-SIM-05: bad scenario data raises ScenarioError naming the key."""
    with pytest.raises(ScenarioError, match=None) as info:
        scenario_from_dict(data)
    assert fragment in str(info.value)


@requirement("S-SIM-05")
def test_unknown_name_or_broken_file_is_an_error(tmp_path: Path) -> None:
    """S-SIM-05: an unknown name and an unparsable TOML file are ScenarioErrors."""
    with pytest.raises(ScenarioError, match="unknown scenario"):
        load_scenario("nope")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = ", encoding="utf-8")
    with pytest.raises(ScenarioError, match="broken.toml"):
        load_scenario(broken)


@requirement("S-SIM-03")
def test_model_values_refuse_invalid_states() -> None:
    """S-SIM-03: a window status/kind outside upstream's set or a scenario without displays cannot exist."""
    with pytest.raises(ValueError, match="status"):
        Window(title="w", handle=1, rect=Rect(0, 0, 1, 1), status="Floating")
    with pytest.raises(ValueError, match="kind"):
        Window(title="w", handle=1, rect=Rect(0, 0, 1, 1), kind="popup")
    with pytest.raises(ValueError, match="display"):
        Scenario(name="x", displays=())


@requirement("S-SIM-03")
def test_rect_geometry_matches_upstream_centres() -> None:
    """S-SIM-03: centres use floor division, also for negative coordinates (samples/04a Close at -323)."""
    assert Rect(-346, 100, -300, 132).center() == (-323, 116)
    assert Rect(-438, 100, -392, 132).center() == (-415, 116)
    assert Rect(0, 0, 10, 10).intersect(Rect(10, 0, 20, 10)) is None
    assert Rect.union([Rect(0, 0, 2560, 1440), Rect(-1920, 0, 0, 1080)]) == Rect(-1920, 0, 2560, 1440)


@requirement("S-SIM-04")
def test_process_table_renders_like_tabulate() -> None:
    """S-SIM-04: the Process list table of tool_outputs.json comes out of tabulate_simple unchanged."""
    recorded = upstream_json("tool_outputs.json")[29]["result"]["content"][0]["text"]
    rows = [
        [1475, "bash", "0.0%", "4.0 MB"],
        [2701, "bash", "0.0%", "4.0 MB"],
        [2909, "bash", "0.0%", "4.4 MB"],
    ]
    assert "Processes (3 shown):\n" + tabulate_simple(["PID", "Name", "CPU%", "Memory"], rows) == recorded


@requirement("S-SIM-04")
def test_emoji_window_title_shifts_its_row_like_upstream() -> None:
    """S-SIM-04: UTF-16 widths make the 'Notes 📝 - Notepad' row one character shorter (samples/05)."""
    expected = sample("05_snapshot_rich_tree_no_vision", "decoded.txt").split("    Opened Windows:\n    ")[1]
    expected = expected.split("\n\n\n")[0]
    rows = [
        ["Downloads - File Explorer", 1, "Minimized", 160, 28, 3935530],
        ["Notes 📝 - Notepad", 3, "Normal", 1200, 800, 1706796],
        ["Example Domain - Google Chrome", 6, "Normal", 1400, 940, 2821150],
    ]
    headers = ["Name", "Depth", "Status", "Width", "Height", "Handle"]
    got = tabulate_simple(headers, rows, widths=[utf16_len, len, len, len, len, len])
    assert got == expected
    assert [len(line) for line in got.splitlines()[2:]] == [79, 78, 79]
