"""Probe last (S-FRESH-10) and probe reuse (S-FRESH-11), proven by the simulator's event log.

The drift probe is a Snapshot, so it leaves a `capture` event in the log: a refused call must
leave none after the observation it cited, an allowed one exactly one (or none, when the probe
was reused), followed by its click.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gateway.cli import main as cli_main
from gateway.doctor.checks import check_config
from tests._requirements import requirement
from tests.e2e.harness import annotation_of, first_text, gateway_rig

pytestmark = pytest.mark.anyio

CHROME = "Example Domain - Google Chrome"
POINT = [800, 520]  # inside Notepad's editor in the `default` world


def _obs(result: dict[str, Any]) -> str:
    line = annotation_of(result)
    assert line is not None
    return line.split("obs=")[1].split()[0]


def _kinds(rig: Any) -> list[str]:
    return [e["kind"] for e in rig.events()]


@requirement("S-FRESH-10")
async def test_an_allowed_click_probes_once_after_everything_else_allowed(tmp_path: Path) -> None:
    """S-FRESH-10: the default gate reads the focused window once, just before it forwards."""
    async with gateway_rig(tmp_path) as rig:
        obs = _obs(await rig.call("Snapshot", {}))
        result = await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert result["isError"] is False, first_text(result)
        assert _kinds(rig) == ["capture", "capture", "click"]


@pytest.mark.parametrize("why", ["stopped", "superseded", "unknown", "needs approval", "hidden tool"])
@requirement("S-FRESH-10")
async def test_a_click_that_will_be_refused_never_pays_for_a_probe(tmp_path: Path, why: str) -> None:
    """S-FRESH-10: kill switch, a superseded or unknown basis, an approval to ask for, a hidden tool —
    each refuses before the probe, so the log holds no capture after the observations taken."""
    config: dict[str, Any] = {}
    if why == "needs approval":
        config["require_approval_for_input"] = True
    if why == "hidden tool":
        config["tools_deny"] = ["Click"]
    async with gateway_rig(tmp_path, config=config) as rig:
        obs = _obs(await rig.call("Snapshot", {}))
        if why == "superseded":
            await rig.call("Snapshot", {})
        if why == "unknown":
            obs = "obs-99999"
        if why == "stopped":
            assert cli_main(["kill", "engage", "--reason", "test", "--state-dir", str(rig.app.config.state_dir)]) == 0
        before = len(rig.events())
        result = await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert result["isError"] is True
        assert first_text(result).split(":")[0] in (
            "DENIED KILLED",
            "DENIED STALE_OBSERVATION",
            "DENIED UNKNOWN_OBSERVATION",
            "DENIED APPROVAL_REQUIRED",
            "DENIED TOOL_NOT_ALLOWED",
        )
        assert "PROBE_PENDING" not in first_text(result)
        assert rig.events()[before:] == [], "a refused click read the desktop (or reached it)"


@requirement("S-FRESH-10")
async def test_the_probe_still_catches_a_focus_change(tmp_path: Path) -> None:
    """S-FRESH-10: probing last changes when, not whether — a moved focus is PROCESS_CHANGED, nothing clicked."""
    async with gateway_rig(tmp_path) as rig:
        obs = _obs(await rig.call("Snapshot", {}))
        rig.world("focus", window=CHROME)
        result = await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert first_text(result).startswith("DENIED PROCESS_CHANGED: ")
        assert rig.side_effects() == []


@requirement("S-FRESH-11")
async def test_probe_reuse_is_off_by_default(tmp_path: Path) -> None:
    """S-FRESH-11: probe_reuse_ms defaults to 0 — a click a moment after its Snapshot is still probed."""
    async with gateway_rig(tmp_path) as rig:
        assert rig.app.config.probe_reuse_ms == 0
        obs = _obs(await rig.call("Snapshot", {}))
        await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert _kinds(rig) == ["capture", "capture", "click"]


@requirement("S-FRESH-11")
async def test_a_reused_capture_covers_one_click_and_the_next_is_probed_again(tmp_path: Path) -> None:
    """S-FRESH-11: within probe_reuse_ms of a capture with nothing forwarded since, the click is judged on
    that capture (no probe); the click itself may move focus, so the next one is probed — and a focus
    change made meanwhile is caught there, with nothing clicked."""
    async with gateway_rig(tmp_path, config={"probe_reuse_ms": 2000}) as rig:
        obs = _obs(await rig.call("Snapshot", {}))
        first = await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert first["isError"] is False, first_text(first)
        assert _kinds(rig) == ["capture", "click"]
        rig.world("focus", window=CHROME)
        second = await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert first_text(second).startswith("DENIED PROCESS_CHANGED: ")
        assert _kinds(rig) == ["capture", "click", "capture"]


@requirement("S-FRESH-11")
async def test_reuse_never_outlives_its_window_or_a_forwarded_change(tmp_path: Path) -> None:
    """S-FRESH-11: a system call forwarded after the capture (it may open a window) ends the reuse."""
    async with gateway_rig(tmp_path, config={"probe_reuse_ms": 2000}) as rig:
        obs = _obs(await rig.call("Snapshot", {}))
        result = await rig.call("Clipboard", {"mode": "set", "text": "hello"})
        assert result["isError"] is False, first_text(result)
        before = len(rig.events())
        await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert [e["kind"] for e in rig.events()[before:]] == ["capture", "click"]


@requirement("S-FRESH-11")
async def test_the_price_of_reuse_is_what_the_doc_says(tmp_path: Path) -> None:
    """S-FRESH-11: inside the window, a focus change made outside the gateway is not seen (the documented
    price) — which is why it is off by default, and a doctor warning when on."""
    async with gateway_rig(tmp_path, config={"probe_reuse_ms": 2000}) as rig:
        obs = _obs(await rig.call("Snapshot", {}))
        rig.world("focus", window=CHROME)
        result = await rig.call("Click", {"loc": POINT, "based_on": obs})
        assert result["isError"] is False
        assert _kinds(rig) == ["capture", "click"]
        warnings = [f.message for f in check_config(rig.app.config).findings]
        assert any(w.startswith("probe_reuse_ms = 2000: ") for w in warnings), warnings
