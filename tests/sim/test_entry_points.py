"""Entry points: ``python -m gateway.sim`` over real stdio, ``main``, exports (S-SIM-07).

Expected image sizes follow FORMATS §3.1: with ``WINDOWS_MCP_SCREENSHOT_SCALE=0.5`` a 1920x1080
desktop gives a 960x540 image and the printed scale 2.0 (pixel (200,150) → (400,300)).
"""

from __future__ import annotations

import base64
import io
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from PIL import Image

import gateway.sim
from gateway.sim import build_server, main, read_events, send_control
from tests._requirements import REPO, requirement
from tests.sim._sim import TIMEOUT, call, connect, sample, text

pytestmark = pytest.mark.anyio


@requirement("S-SIM-07", "S-SIM-04", "S-SIM-08", "S-SIM-09")
async def test_python_dash_m_serves_over_stdio(tmp_path: Path) -> None:
    """S-SIM-07: a child `python -m gateway.sim` answers like upstream, honours control and event log."""
    events, control = tmp_path / "events.jsonl", tmp_path / "control.jsonl"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway.sim", "--scenario", "empty", "--event-log", str(events)],
        env={"WINMCP_SIM_CONTROL": str(control)},
        cwd=REPO,
    )
    with anyio.fail_after(TIMEOUT * 3):
        async with Client(params, mode="legacy") as client:
            listed = await client.list_tools()
            first = await call(client, "Snapshot")
            send_control(control, "scenario", name="default")
            clicked = await call(client, "Click", {"loc": [640, 480]})
    assert len(listed.tools) == 21
    assert first["content"][0]["text"] == sample("07_snapshot_empty_ui_tree", "txt")
    assert text(clicked) == "Single left clicked at (640,480)."
    assert [(e["kind"], e["window"]) for e in read_events(events)] == [
        ("capture", None),
        ("click", "notes.txt - Notepad"),
    ]


@requirement("S-SIM-07")
def test_bad_scenario_exits_2_with_the_reason_on_stderr() -> None:
    """S-SIM-07: an unknown scenario stops the child with exit code 2 and says why on stderr only."""
    done = subprocess.run(
        [sys.executable, "-m", "gateway.sim", "--scenario", "no-such-world"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT * 3,
        check=False,
        stdin=subprocess.DEVNULL,
        cwd=REPO,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "unknown scenario 'no-such-world'" in done.stderr


@requirement("S-SIM-07", "S-SIM-10")
@pytest.mark.parametrize(
    "argv",
    [["--scenario", "nope"], ["--mutate-schema", "explode:Click.loc"], ["--scenario", "tests/missing.toml"]],
)
def test_main_returns_2_for_bad_options(argv: list[str]) -> None:
    """S-SIM-07: main() refuses a bad scenario or mutation before serving anything."""
    assert main(argv) == 2


@requirement("S-SIM-07")
async def test_upstream_environment_variables_apply() -> None:
    """S-SIM-07: WINDOWS_MCP_SCREENSHOT_SCALE downsizes the image; WINDOWS_MCP_MAX_TREE_ELEMENTS truncates."""
    env = {"WINDOWS_MCP_SCREENSHOT_SCALE": "0.5", "WINDOWS_MCP_MAX_TREE_ELEMENTS": "3"}
    async with connect(build_server("default", environ=env)) as client:
        shot = await call(client, "Snapshot", {"use_vision": True})
    prose = text(shot)
    assert "Screenshot Original Size: (1920,1080)\nScreenshot Coordinate Scale: 2.0 — " in prose
    assert "(e.g. image pixel (200, 150) → screen coordinate (400, 300))" in prose
    assert '\n\n    UI Tree:\n    desktop\n    └── window "notes.txt - Notepad"\n' in prose
    assert prose.endswith(
        "reached the 3-element capture limit — some elements were not visited. Narrow the view (filter by "
        "window, scroll to the area of interest, use_dom=True for a browser page) or raise "
        "WINDOWS_MCP_MAX_TREE_ELEMENTS for a complete tree.]"
    )
    with Image.open(io.BytesIO(base64.b64decode(shot["content"][1]["data"]))) as png:
        assert png.size == (960, 540)


@requirement("S-SIM-07")
def test_package_exports_exactly_its_public_names() -> None:
    """S-SIM-07: gateway.sim.__all__ lists the entry points and each is exported."""
    assert sorted(gateway.sim.__all__) == [
        "build_server",
        "main",
        "read_events",
        "scenario_names",
        "send_control",
    ]
    for name in gateway.sim.__all__:
        assert callable(getattr(gateway.sim, name))


@requirement("S-SIM-07", "S-SIM-09")
async def test_build_server_reads_paths_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-SIM-07: without path arguments build_server uses WINMCP_SIM_EVENT_LOG and WINMCP_SIM_CONTROL."""
    events, control = tmp_path / "ev.jsonl", tmp_path / "ctl.jsonl"
    monkeypatch.setenv("WINMCP_SIM_EVENT_LOG", str(events))
    monkeypatch.setenv("WINMCP_SIM_CONTROL", str(control))
    async with connect(build_server("default")) as client:
        send_control(control, "focus", window="Example Domain - Google Chrome")
        await call(client, "Shortcut", {"shortcut": "ctrl+c"})
    assert [(e["kind"], e["window"]) for e in read_events(events)] == [("shortcut", "Example Domain - Google Chrome")]
