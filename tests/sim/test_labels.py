"""Upstream's label table semantics (S-SIM-06).

Expected coordinates come from samples/01_*.labels.json (label 0 = the document at (800,520),
label 1 = menu item View at (308,152), label 13 = the scrollable document at (1122,691)) and
from samples/10_*.labels.json (browser: label 0 = the address bar at (850,62)).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.sim import build_server, read_events
from tests._requirements import requirement
from tests.sim._sim import call, connect, text

pytestmark = pytest.mark.anyio


@requirement("S-SIM-06")
async def test_label_before_any_capture_says_desktop_state_is_empty() -> None:
    """S-SIM-06: with no capture yet a label cannot resolve."""
    async with connect(build_server("default")) as client:
        result = await call(client, "Click", {"label": 0})
    assert result["isError"] is True
    assert text(result) == "Error calling tool 'Click': Desktop state is empty. Please call Snapshot first."


@requirement("S-SIM-06")
async def test_label_resolves_against_the_last_capture_and_overrides_loc() -> None:
    """S-SIM-06: label N is the centre recorded by the last capture, and it wins over loc."""
    async with connect(build_server("default")) as client:
        await call(client, "Snapshot")
        first = await call(client, "Click", {"label": 1, "loc": [5, 5]})
        scrollable = await call(client, "Move", {"label": 13})
        past_end = await call(client, "Click", {"label": 14})
    assert text(first) == "Single left clicked at (308,152)."
    assert text(scrollable) == "Moved the mouse pointer to (1122,691)."
    assert text(past_end) == "Error calling tool 'Click': Failed to find element with label 14: Label 14 out of range"


@requirement("S-SIM-06")
async def test_screenshot_empties_the_table() -> None:
    """S-SIM-06: Screenshot's capture has no tree, so every label is out of range afterwards."""
    async with connect(build_server("default")) as client:
        await call(client, "Snapshot")
        await call(client, "Screenshot")
        result = await call(client, "Click", {"label": 0})
    assert text(result) == "Error calling tool 'Click': Failed to find element with label 0: Label 0 out of range"


@requirement("S-SIM-06")
async def test_another_sessions_capture_replaces_the_shared_table(control_file: Path) -> None:
    """S-SIM-06: the table is server-wide: session B's Snapshot changes what session A's label means."""
    server = build_server("default", control=control_file)
    async with connect(server) as a, connect(server) as b:
        await call(a, "Snapshot")
        assert text(await call(a, "Move", {"label": 0})) == "Moved the mouse pointer to (800,520)."
        control_file.write_text('{"op": "focus", "window": "Example Domain - Google Chrome"}\n', encoding="utf-8")
        await call(b, "Snapshot")
        # Chrome is focused now: label 0 is its address bar (samples/10's first label, shifted by the window)
        moved = await call(a, "Move", {"label": 0})
    assert text(moved) != "Moved the mouse pointer to (800,520)."
    assert server.simulator.label_table()[0]["window"] == "Example Domain - Google Chrome"  # type: ignore[attr-defined]


@requirement("S-SIM-06", "S-SIM-09")
async def test_every_capture_bumps_the_generation_in_the_event_log(event_log: Path) -> None:
    """S-SIM-06: Snapshot, Screenshot, each WaitFor poll, Scrape-DOM and App resize log new generations."""
    async with connect(build_server("default", event_log=event_log)) as client:
        await call(client, "Snapshot")
        await call(client, "Screenshot")
        await call(
            client,
            "WaitFor",
            {"condition": "active_window", "window_name": "Nope", "timeout": 0.6, "interval": 0.2},
        )
        await call(client, "Scrape", {"url": "https://example.com/", "use_dom": True})
        await call(client, "App", {"mode": "resize", "name": "Example Domain", "window_size": [800, 600]})
        failed = await call(client, "Snapshot", {"region": [5000, 5000, 5100, 5100]})
    captures = [e for e in read_events(event_log) if e["kind"] == "capture"]
    assert [e["tool"] for e in captures] == ["Snapshot", "Screenshot"] + ["WaitFor"] * 4 + ["Scrape", "App"]
    assert [e["generation"] for e in captures] == list(range(1, 9))
    assert "Error capturing desktop state" in text(failed)


@requirement("S-SIM-06")
async def test_failed_capture_keeps_the_previous_table() -> None:
    """S-SIM-06: a capture that fails (bad region) neither replaces the table nor counts."""
    server = build_server("default")
    async with connect(server) as client:
        await call(client, "Snapshot")
        before = server.simulator.label_table()  # type: ignore[attr-defined]
        await call(client, "Snapshot", {"region": [5000, 5000, 5100, 5100]})
        after = await call(client, "Click", {"label": 0})
    assert server.simulator.label_table() == before  # type: ignore[attr-defined]
    assert text(after) == "Single left clicked at (800,520)."


@requirement("S-SIM-06")
async def test_app_switch_refreshes_only_without_a_table(event_log: Path) -> None:
    """S-SIM-06: App switch captures when no table exists yet, and not when one does."""
    async with connect(build_server("default", event_log=event_log)) as client:
        await call(client, "App", {"mode": "switch", "name": "Example Domain - Google Chrome"})
        await call(client, "App", {"mode": "switch", "name": "notes.txt - Notepad"})
    kinds = [e["kind"] for e in read_events(event_log)]
    assert kinds == ["app_switch", "capture", "app_switch"]
