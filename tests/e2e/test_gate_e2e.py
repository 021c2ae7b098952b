"""The gate end to end: each refusal never reaches the desktop, each allowed action lands where meant.

client (mcp SDK) ⇄ gateway ⇄ simulator (stdio child). The simulator's event log is the proof:
refused → no side-effect event; allowed → exactly one event at the intended screen point.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.cli import main as cli_main
from tests._requirements import requirement
from tests.e2e.harness import annotation_of, first_text, gateway_rig

pytestmark = pytest.mark.anyio

NOTEPAD = "notes.txt - Notepad"
CHROME = "Example Domain - Google Chrome"


def _clicks(rig) -> list[list[int]]:  # type: ignore[no-untyped-def]
    return [e["screen_point"] for e in rig.side_effects() if e["kind"] == "click"]


@requirement("S-FLOW-01", "S-PRX-04")
async def test_click_without_observation_is_refused_and_never_reaches_the_desktop(tmp_path: Path) -> None:
    """S-FLOW-01, S-PRX-04: NO_OBSERVATION is a result (not a JSON-RPC error) and the simulator saw nothing."""
    async with gateway_rig(tmp_path) as rig:
        result = await rig.call("Click", {"loc": [640, 480]})
        assert result["isError"] is True
        assert first_text(result).startswith("DENIED NO_OBSERVATION: ")
        assert "Remedy: " in first_text(result) and "Snapshot" in first_text(result)
        assert rig.events() == []


@requirement("S-FLOW-01", "S-FLOW-02")
async def test_click_based_on_a_fresh_observation_lands_at_the_intended_point(tmp_path: Path) -> None:
    """S-FLOW-02: an allowed click reaches the simulator exactly once, at the cited screen point."""
    async with gateway_rig(tmp_path, scenario="hidpi") as rig:
        snap = await rig.call("Snapshot", {"use_vision": True})
        line = annotation_of(snap)
        assert line is not None and "scale=1.333333" in line
        obs_id = line.split("obs=")[1].split()[0]
        conv = await rig.call("winmcp_to_screen", {"x": 1890, "y": 26.25, "based_on": obs_id})
        assert conv["structuredContent"]["loc"] == [2520, 35]
        result = await rig.call("Click", {"loc": conv["structuredContent"]["loc"], "based_on": obs_id})
        assert result["isError"] is False, first_text(result)
        assert _clicks(rig) == [[2520, 35]]


@pytest.mark.parametrize(
    ("based_on", "code"),
    [("obs-999", "UNKNOWN_OBSERVATION"), (7, "UNKNOWN_OBSERVATION"), ("", "UNKNOWN_OBSERVATION")],
)
@requirement("S-FLOW-01")
async def test_an_unknown_or_malformed_based_on_is_refused(tmp_path: Path, based_on: object, code: str) -> None:
    """S-FLOW-01: UNKNOWN_OBSERVATION for ids that name nothing or are not strings; nothing reaches upstream."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})
        result = await rig.call("Click", {"loc": [640, 480], "based_on": based_on})
        assert first_text(result).startswith(f"DENIED {code}: ")
        assert rig.side_effects() == []


@requirement("S-FLOW-01")
async def test_a_superseded_observation_is_stale(tmp_path: Path) -> None:
    """S-FLOW-01: STALE_OBSERVATION when a newer observation of the session exists."""
    async with gateway_rig(tmp_path) as rig:
        first = annotation_of(await rig.call("Snapshot", {}))
        await rig.call("Snapshot", {})
        old_id = first.split("obs=")[1].split()[0]  # type: ignore[union-attr]
        result = await rig.call("Click", {"loc": [640, 480], "based_on": old_id})
        assert first_text(result).startswith("DENIED STALE_OBSERVATION: ")
        assert rig.side_effects() == []


@requirement("S-FLOW-01")
async def test_an_observation_older_than_the_limit_is_stale(tmp_path: Path) -> None:
    """S-FLOW-01: STALE_OBSERVATION past max_observation_age_ms (clock injected, no sleeping)."""
    async with gateway_rig(tmp_path, config={"max_observation_age_ms": 5000}) as rig:
        now = [1_000_000.0]
        rig.app.clock = lambda: now[0]
        await rig.call("Snapshot", {})
        now[0] += 6.0
        result = await rig.call("Click", {"loc": [640, 480]})
        assert first_text(result).startswith("DENIED STALE_OBSERVATION: ")
        assert rig.side_effects() == []
        await rig.call("Snapshot", {})
        now[0] += 4.0
        assert (await rig.call("Click", {"loc": [640, 480]}))["isError"] is False
        assert _clicks(rig) == [[640, 480]]


@requirement("S-FLOW-03")
async def test_a_click_after_the_focus_moved_is_refused(tmp_path: Path) -> None:
    """S-FLOW-03: PROCESS_CHANGED when another window took the focus since the observation."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})
        rig.world("focus", window=CHROME)
        result = await rig.call("Click", {"loc": [640, 480]})
        assert first_text(result).startswith("DENIED PROCESS_CHANGED: ")
        assert rig.side_effects() == []


@requirement("S-FLOW-03")
async def test_a_click_after_the_focused_window_moved_is_refused(tmp_path: Path) -> None:
    """S-FLOW-03: the probe is anchored inside the observed window, so a moved window reads as drift."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})
        rig.world("move", window=NOTEPAD, rect=[1000, 500, 1500, 900])
        result = await rig.call("Click", {"loc": [800, 520]})
        assert first_text(result).startswith("DENIED PROCESS_CHANGED: ")
        assert rig.side_effects() == []


@requirement("S-FLOW-03")
async def test_the_drift_probe_can_be_turned_off(tmp_path: Path) -> None:
    """S-FLOW-03: require_process_match = false sends no probe and does not check the window."""
    async with gateway_rig(tmp_path, config={"require_process_match": False}) as rig:
        await rig.call("Snapshot", {})
        rig.world("focus", window=CHROME)
        result = await rig.call("Click", {"loc": [640, 480]})
        assert result["isError"] is False
        assert [e["kind"] for e in rig.events()] == ["capture", "click"]


@requirement("S-FLOW-04")
async def test_a_label_after_another_capture_is_refused(tmp_path: Path) -> None:
    """S-FLOW-04: unprobed, a WaitFor replaced upstream's label table since the observation → STALE, nothing clicked."""
    async with gateway_rig(tmp_path, config={"require_process_match": False}) as rig:
        await rig.call("Snapshot", {"use_vision": True})
        await rig.call("WaitFor", {"condition": "text", "text": "Notepad", "timeout": 2})
        result = await rig.call("Click", {"label": 0})
        assert first_text(result).startswith("DENIED STALE_OBSERVATION: ")
        assert rig.side_effects() == []


@requirement("S-FLOW-04")
async def test_a_label_after_a_capture_of_a_changed_desktop_is_refused(tmp_path: Path) -> None:
    """S-FLOW-04: probed, the new table is checked against the observed one: an element renamed → STALE."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {"use_vision": True})
        rig.world("element", window="notes.txt - Notepad", name="File", set={"name": "Datei"})
        await rig.call("WaitFor", {"condition": "text", "text": "Notepad", "timeout": 2})
        result = await rig.call("Click", {"label": 0})
        assert first_text(result).startswith("DENIED STALE_OBSERVATION: "), first_text(result)
        assert rig.side_effects() == []


@requirement("S-FLOW-04")
async def test_a_label_on_the_table_the_model_saw_acts_on_that_element(tmp_path: Path) -> None:
    """S-FLOW-04: with no capture since, label 0 resolves on the observed table (samples/01: the document)."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {"use_vision": True})
        result = await rig.call("Click", {"label": 0})
        assert result["isError"] is False, first_text(result)
        assert _clicks(rig) == [[800, 520]]  # label 0 = document "Text editor" at (800,520)


@requirement("S-FLOW-05")
async def test_window_allowlist_refuses_other_windows(tmp_path: Path) -> None:
    """S-FLOW-05: WINDOW_NOT_ALLOWED when the focused window matches no allowed_windows pattern."""
    async with gateway_rig(tmp_path, config={"allowed_windows": ["*Chrome*"]}) as rig:
        await rig.call("Snapshot", {})
        result = await rig.call("Click", {"loc": [640, 480]})
        assert first_text(result).startswith("DENIED WINDOW_NOT_ALLOWED: ")
        assert rig.side_effects() == []


@requirement("S-FLOW-06")
async def test_a_person_stop_blocks_actions_but_not_observation(tmp_path: Path) -> None:
    """S-FLOW-06: a person's stop blocks Click and PowerShell, Snapshot still works, a model cannot release it."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})
        assert cli_main(["kill", "engage", "--state-dir", str(rig.app.config.state_dir)]) == 0
        click = await rig.call("Click", {"loc": [640, 480]})
        shell = await rig.call("PowerShell", {"command": "Get-Date"})
        assert first_text(click).startswith("DENIED KILLED: ")
        assert first_text(shell).startswith("DENIED KILLED: ")
        snap = await rig.call("Snapshot", {})
        assert snap["isError"] is False and annotation_of(snap) is not None
        release = await rig.call("winmcp_kill", {"action": "release"})
        assert release["isError"] is True and release["structuredContent"]["engaged"] is True
        state = await rig.call("winmcp_state", {})
        assert state["structuredContent"]["kill"]["by"] == "person"
        assert rig.side_effects() == []
        assert cli_main(["kill", "release", "--state-dir", str(rig.app.config.state_dir)]) == 0
        await rig.call("Snapshot", {})
        assert (await rig.call("Click", {"loc": [640, 480]}))["isError"] is False
        assert _clicks(rig) == [[640, 480]]


@requirement("S-FLOW-06")
async def test_a_stop_file_made_by_hand_stops_the_gateway(tmp_path: Path) -> None:
    """S-FLOW-06: a STOP file in the state dir, even empty, engages the stop as a person's."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})
        (rig.app.config.state_dir / "STOP").write_text("")
        result = await rig.call("Click", {"loc": [640, 480]})
        assert first_text(result).startswith("DENIED KILLED: ")
        assert (await rig.call("winmcp_kill", {"action": "release"}))["isError"] is True
        assert rig.side_effects() == []


@requirement("S-FLOW-07")
async def test_two_gateways_sharing_a_state_dir_share_the_stop_but_not_observations(tmp_path: Path) -> None:
    """S-FLOW-07: one gateway's kill switch stops the other; neither can cite the other's observation."""
    shared = tmp_path / "shared-state"
    async with (
        gateway_rig(tmp_path / "a", state_dir=shared) as a,
        gateway_rig(tmp_path / "b", state_dir=shared) as b,
    ):
        a_obs = _obs_id(await a.call("Snapshot", {}))
        b_obs = _obs_id(await b.call("Snapshot", {}))
        assert a_obs != b_obs, "observation ids are unique across processes sharing a state dir"
        cross = await b.call("Click", {"loc": [640, 480], "based_on": a_obs})
        assert first_text(cross).startswith("DENIED UNKNOWN_OBSERVATION: ")
        await a.call("winmcp_kill", {"action": "engage", "reason": "stop everything"})
        stopped = await b.call("Click", {"loc": [640, 480], "based_on": b_obs})
        assert first_text(stopped).startswith("DENIED KILLED: ")
        assert a.side_effects() == [] and b.side_effects() == []


def _obs_id(result: dict) -> str:  # type: ignore[type-arg]
    line = annotation_of(result)
    assert line is not None
    return line.split("obs=")[1].split()[0]
