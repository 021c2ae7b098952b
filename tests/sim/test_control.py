"""World changes from outside the process through the control file (S-SIM-08).

Coordinates expected after a move follow from samples/01: Notepad at (200,100) has File at
(228,152); moved by (+100,+50) File must be at (328,202).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.sim import build_server, read_events, send_control
from gateway.sim.control import ControlReader
from gateway.sim.server import build_simulator
from tests._requirements import requirement
from tests.sim._sim import call, connect, sample, text

pytestmark = pytest.mark.anyio

NOTEPAD = "notes.txt - Notepad"
CHROME = "Example Domain - Google Chrome"


async def _snapshot_after(control_file: Path, *ops: dict[str, object], scenario: str = "default") -> str:
    server = build_server(scenario, control=control_file)
    async with connect(server) as client:
        for op in ops:
            send_control(control_file, **op)  # type: ignore[arg-type]
        return text(await call(client, "Snapshot"))


@requirement("S-SIM-08")
def test_send_control_appends_one_json_line(control_file: Path) -> None:
    """S-SIM-08: send_control appends exactly one JSON object line per call."""
    send_control(control_file, "focus", window=CHROME)
    send_control(control_file, "set", cursor=[1, 2])
    lines = control_file.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {"op": "focus", "window": CHROME},
        {"op": "set", "cursor": [1, 2]},
    ]


@requirement("S-SIM-08")
async def test_focus_changes_the_focused_window(control_file: Path) -> None:
    """S-SIM-08: after a focus op the next Snapshot's Focused Window and tree are Chrome's."""
    snap = await _snapshot_after(control_file, {"op": "focus", "window": CHROME})
    focused = snap.split("Focused Window:")[1].split("Opened Windows:")[0]
    assert CHROME in focused and NOTEPAD not in focused
    assert f'├── window "{CHROME}"' in snap and '(950,390) link "Learn more"' in snap


@requirement("S-SIM-08")
async def test_move_drags_the_elements_along(control_file: Path) -> None:
    """S-SIM-08: a moved window's elements follow it (File from (228,152) to (328,202))."""
    snap = await _snapshot_after(control_file, {"op": "move", "window": NOTEPAD, "rect": [300, 150, 1500, 950]})
    assert '(328,202) menu item "File"' in snap
    assert "notes.txt - Notepad        2  Normal       1200       800   1706796" in snap


@requirement("S-SIM-08")
async def test_close_open_window_and_element_ops(control_file: Path) -> None:
    """S-SIM-08: close, open (focused), window status and element value ops all show in the next Snapshot."""
    new_window = {
        "title": "Calculator", "handle": 4242, "rect": [500, 200, 820, 700], "process": "calc.exe",
        "children": [{"type": "Button", "name": "Seven", "rect": [510, 400, 580, 450]}],
    }  # fmt: skip
    snap = await _snapshot_after(
        control_file,
        {"op": "element", "window": NOTEPAD, "name": "Text editor", "set": {"value": "changed"}},
        {"op": "window", "window": "Downloads - File Explorer", "status": "Normal"},
        {"op": "close", "window": CHROME},
        {"op": "open", "window": new_window},
    )
    assert "Calculator        1  Normal        320       500      4242" in snap
    assert '(545,425) button "Seven"  [action: click]' in snap
    assert CHROME not in snap and "Downloads - File Explorer        1  Normal       1000       700" in snap
    await_changed = await _snapshot_after(
        control_file.with_name("c2.jsonl"),
        {"op": "element", "window": NOTEPAD, "name": "Text editor", "set": {"value": "changed"}},
    )
    assert '[value:"changed"]' in await_changed


@requirement("S-SIM-08", "S-SIM-04")
async def test_scenario_op_replaces_the_desktop(control_file: Path) -> None:
    """S-SIM-08: switching to the 'empty' scenario yields samples/07 exactly and forgets the labels."""
    server = build_server("default", control=control_file)
    async with connect(server) as client:
        await call(client, "Snapshot")
        send_control(control_file, "scenario", name="empty")
        label = await call(client, "Click", {"label": 0})
        snap = await call(client, "Snapshot")
    assert text(label).endswith("Desktop state is empty. Please call Snapshot first.")
    assert snap["content"][0]["text"] == sample("07_snapshot_empty_ui_tree", "txt")


@requirement("S-SIM-08", "S-SIM-11")
async def test_user_control_on_and_off(control_file: Path) -> None:
    """S-SIM-08: user_control on gates every tool but ControlStatus; off releases it."""
    server = build_server("default", control=control_file)
    async with connect(server) as client:
        send_control(control_file, "user_control", on=True)
        gated = await call(client, "Click", {"loc": [1, 1]})
        status = await call(client, "ControlStatus")
        send_control(control_file, "user_control", on=False)
        free = await call(client, "Click", {"loc": [1, 1]})
    assert gated["isError"] and json.loads(text(gated))["code"] == "USER_CONTROL"
    assert status["structuredContent"]["state"] == "user"
    assert text(free) == "Single left clicked at (1,1)."


@requirement("S-SIM-08")
async def test_set_changes_cursor_and_scale(control_file: Path) -> None:
    """S-SIM-08: set cursor/screenshot_scale show in the next Screenshot (0.5 → coordinate scale 2.0)."""
    server = build_server("default", control=control_file)
    async with connect(server) as client:
        send_control(control_file, "set", cursor=[10, 20], screenshot_scale=0.5)
        shot = await call(client, "Screenshot")
    assert "Cursor Position: (10, 20)" in text(shot)
    assert "Screenshot Original Size: (1920,1080)\nScreenshot Coordinate Scale: 2.0 —" in text(shot)


@requirement("S-SIM-08")
async def test_bad_lines_are_skipped_and_partial_lines_wait(control_file: Path) -> None:
    """S-SIM-08: invalid JSON, unknown ops and unknown windows are skipped; a line without newline waits."""
    reader = ControlReader(control_file)
    control_file.write_text('not json\n{"op": "nope"}\n{"op": "focus", "window": "X"}\n{"op": "set"', encoding="utf-8")
    assert [op.get("op") for op in reader.poll()] == ["nope", "focus"]
    with control_file.open("a", encoding="utf-8") as fh:
        fh.write(', "cursor": [3, 4]}\n')
    assert reader.poll() == [{"op": "set", "cursor": [3, 4]}]
    sim = build_simulator("default", control=control_file)
    sim.refresh()  # the bad ops are logged and skipped; the good one applies
    assert sim.world.cursor == (3, 4) and sim.world.focused_title == NOTEPAD


@requirement("S-SIM-08", "S-SIM-06")
async def test_control_is_applied_between_waitfor_polls(control_file: Path, event_log: Path) -> None:
    """S-SIM-08: a focus change arriving while WaitFor waits is seen by its next poll."""
    sim = build_simulator("default", control=control_file, event_log=event_log)

    async def world_changes_while_waiting(seconds: float) -> None:
        send_control(control_file, "focus", window=CHROME)

    sim.sleep = world_changes_while_waiting  # type: ignore[method-assign]
    result = await sim.call("WaitFor", {"condition": "window", "window_name": "Google Chrome", "interval": 0.5})
    assert result.content[0].text == (  # type: ignore[union-attr]
        f"WaitFor condition 'active_window' satisfied after 0.50s and 2 attempt(s): active window matched {CHROME!r}."
    )
    assert [e["generation"] for e in read_events(event_log)] == [1, 2]
