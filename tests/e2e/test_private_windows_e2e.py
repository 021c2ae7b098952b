"""Private windows stay private, end to end: `mcp` client ⇄ gateway ⇄ simulator (issue 15.1; S-PRIV-03..08).

The simulator's `private` scenario paints the password manager's content with two exact colours
that appear nowhere else and names its elements with words that appear nowhere else. The forwarded
PNG is checked pixel by pixel against the simulator's own image of the same world (a client talking
to the simulator directly); the covering rectangle is derived here from the scenario's geometry, not
asked of the gateway.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from gateway.observe.mask import MASK_FILL
from gateway.sim.scenarios.private import (
    PRIVATE_COLORS,
    PRIVATE_DUAL_RECT,
    PRIVATE_NAMES,
    PRIVATE_RECT,
    PRIVATE_SECRET,
    PRIVATE_TITLE,
)
from gateway.sim.scenarios.private import keepass as private_window
from tests._requirements import requirement
from tests.e2e.harness import annotation_of, direct_sim, first_text, gateway_rig, wire

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

SECRETS = (*PRIVATE_NAMES, PRIVATE_TITLE, PRIVATE_SECRET)
INSIDE = [1300, 400]  # a point inside PRIVATE_RECT, on no element
NOTEPAD = [500, 450]  # inside Notepad, left of the private window


def image_of(result: dict[str, Any]) -> Image.Image:
    items = [c for c in result["content"] if c.get("type") == "image"]
    assert len(items) == 1, [c.get("type") for c in result["content"]]
    return Image.open(io.BytesIO(base64.b64decode(items[0]["data"]))).convert("RGB")


def texts_of(result: dict[str, Any]) -> str:
    return "\n".join(c["text"] for c in result["content"] if c.get("type") == "text")


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    found = image.getcolors(maxcolors=1 << 24)
    assert found is not None
    return {c for _, c in found}


def covering_rect() -> tuple[int, int, int, int]:
    """S-PRIV-03's bound, derived from the scenario: every W×H window holding all element centres."""
    width, height = PRIVATE_RECT[2] - PRIVATE_RECT[0], PRIVATE_RECT[3] - PRIVATE_RECT[1]
    centres: list[tuple[int, int]] = []

    def walk(elements: Any) -> None:
        for e in elements:
            if e.kind == "interactive" or e.scrollable:
                centres.append(((e.rect.left + e.rect.right) // 2, (e.rect.top + e.rect.bottom) // 2))
            walk(e.children)

    walk(private_window().children)
    xs, ys = [c[0] for c in centres], [c[1] for c in centres]
    return max(xs) - width, max(ys) - height, min(xs) + width + 1, min(ys) + height + 1


def box(rect: tuple[int, int, int, int], scale: float, *, grow: int = 0) -> tuple[int, int, int, int]:
    """A screen rect on an image of origin 0,0 and `scale` = image px per screen px."""
    return (
        int(rect[0] * scale) - grow,
        int(rect[1] * scale) - grow,
        int(rect[2] * scale + 0.999) + grow,
        int(rect[3] * scale + 0.999) + grow,
    )


async def reference(tmp: Path, scenario: str, tool: str, args: dict[str, Any]) -> Image.Image:
    """The simulator's own image of the same world, to a client that talks to it directly."""
    (tmp / "direct").mkdir()
    async with direct_sim(tmp / "direct", scenario=scenario) as client:
        return image_of(wire(await client.call_tool(tool, args)))


def assert_masked(forwarded: Image.Image, original: Image.Image, scale: float = 1.0) -> None:
    """No pattern pixel anywhere, the window solid, everything outside the covering rect unchanged."""
    assert set(PRIVATE_COLORS) <= colours(original), "the simulator did not paint its pattern: the test proves nothing"
    assert not set(PRIVATE_COLORS) & colours(forwarded), "a pixel of the private window's pattern was forwarded"
    inner = forwarded.crop(box(PRIVATE_RECT, scale))
    assert colours(inner) == {MASK_FILL}, "the private window's rectangle is not painted solid"
    if forwarded.size == original.size:
        a, b = forwarded.copy(), original.copy()
        for im in (a, b):  # blank the covering rect (plus its rounding pixel) in both, compare the rest
            ImageDraw.Draw(im).rectangle(box(covering_rect(), scale, grow=1), fill=(0, 0, 0))
        assert a.tobytes() == b.tobytes(), "pixels outside the private window's covering rectangle changed"


@requirement("S-PRIV-08", "S-PRIV-03", "S-PRIV-04", "S-PRIV-05")
async def test_the_private_window_never_leaves_and_a_click_into_it_never_arrives(tmp_path: Path) -> None:
    """S-PRIV-08: PNG, text and audit hold nothing of the password manager; a click into it is refused."""
    args = {"use_vision": True}
    original = await reference(tmp_path, "private", "Snapshot", args)
    async with gateway_rig(tmp_path, scenario="private") as rig:
        result = await rig.call("Snapshot", args)
        assert_masked(image_of(result), original)
        text = texts_of(result)
        assert [s for s in SECRETS if s in text] == []
        assert "[private window 1]" in text and "masked=1" in (annotation_of(result) or "")
        refused = first_text(await rig.call("Click", {"loc": INSIDE}))
        assert refused.startswith("DENIED PRIVATE_WINDOW: ") and PRIVATE_TITLE not in refused
        typed = first_text(await rig.call("Type", {"text": "exfiltrate", "loc": NOTEPAD}))
        assert typed.startswith("DENIED PRIVATE_WINDOW: "), typed  # keys go to the focused, private window
        assert rig.side_effects() == [], "a refused action reached the simulated desktop"
        assert first_text(await rig.call("Click", {"loc": NOTEPAD})).startswith("Single left clicked")
        assert [e["kind"] for e in rig.side_effects()] == ["click"]
        await rig.call("winmcp_state", {})
        audit = (rig.app.config.state_dir / "audit.jsonl").read_text(encoding="utf-8")
        assert '"deny"' in audit and '"observation"' in audit
        assert [s for s in SECRETS if s in audit] == [], "the audit holds the private window's names or title"


@requirement("S-PRIV-03", "S-PRIV-08")
async def test_a_screenshot_is_masked_by_a_companion_snapshot(tmp_path: Path) -> None:
    """S-PRIV-03: Screenshot enumerates no window; the gateway looks once more and masks what it saw."""
    original = await reference(tmp_path, "private", "Screenshot", {})
    async with gateway_rig(tmp_path, scenario="private") as rig:
        result = await rig.call("Screenshot", {})
        assert_masked(image_of(result), original)
        assert "masked=1" in (annotation_of(result) or "")
        assert first_text(await rig.call("Click", {"loc": INSIDE})).startswith("DENIED PRIVATE_WINDOW")
        assert rig.side_effects() == []


@requirement("S-PRIV-03", "S-PRIV-08")
async def test_a_private_window_behind_the_focused_one_is_placed_and_masked(tmp_path: Path) -> None:
    """S-PRIV-03: not traversed, it is placed by a whole-screen region Snapshot; the rest stays usable."""
    original = await reference(tmp_path, "private-background", "Snapshot", {"use_vision": True})
    async with gateway_rig(tmp_path, scenario="private-background") as rig:
        result = await rig.call("Snapshot", {"use_vision": True})
        line = annotation_of(result) or ""
        assert "masked=1" in line and "mask=whole" not in line, line
        forwarded = image_of(result)
        assert not set(PRIVATE_COLORS) & colours(forwarded)
        assert set(PRIVATE_COLORS) <= colours(original)
        assert [s for s in SECRETS if s in texts_of(result)] == []
        assert first_text(await rig.call("Click", {"loc": INSIDE})).startswith("DENIED PRIVATE_WINDOW")
        assert first_text(await rig.call("Click", {"loc": NOTEPAD})).startswith("Single left clicked")
        assert [e["kind"] for e in rig.side_effects()] == ["click"]


@requirement("S-PRIV-03")
async def test_a_downscaled_capture_is_masked_through_the_exact_mapping(tmp_path: Path) -> None:
    """S-PRIV-03: with screenshot scale 0.5 the window is masked in image pixels, nothing of it left."""
    async with gateway_rig(tmp_path, scenario="private") as rig:
        rig.world("set", screenshot_scale=0.5)
        result = await rig.call("Snapshot", {"use_vision": True})
        forwarded = image_of(result)
        assert forwarded.size == (960, 540)
        assert "scale=2 " in (annotation_of(result) or "")
        assert not set(PRIVATE_COLORS) & colours(forwarded)
        assert colours(forwarded.crop(box(PRIVATE_RECT, 0.5))) == {MASK_FILL}


@requirement("S-PRIV-06")
async def test_a_window_that_turns_private_after_the_snapshot_gets_no_keys(tmp_path: Path) -> None:
    """S-PRIV-06: the probe sees the focused window renamed to a banking title; Type is refused."""
    async with gateway_rig(tmp_path, scenario="default") as rig:
        snap = await rig.call("Snapshot", {})
        assert "masked=" not in (annotation_of(snap) or "")
        rig.world("window", window="notes.txt - Notepad", title="Online Banking - Notepad")
        text = first_text(await rig.call("Type", {"text": "hello", "loc": [600, 500]}))
        assert text.startswith("DENIED PRIVATE_WINDOW: "), text
        assert "Online Banking" not in text
        assert rig.side_effects() == []
        audit = (rig.app.config.state_dir / "audit.jsonl").read_text(encoding="utf-8")
        assert "Online Banking" not in audit


@requirement("S-PRIV-05")
async def test_observation_keeps_working_and_other_input_tools_are_refused_too(tmp_path: Path) -> None:
    """S-PRIV-05: Scroll at the cursor, Move, a drag, MultiSelect and a Shortcut aimed at it are refused."""
    async with gateway_rig(tmp_path, scenario="private") as rig:
        await rig.call("Snapshot", {})
        calls: list[tuple[str, dict[str, Any]]] = [
            ("Scroll", {"direction": "down"}),  # the cursor (1200,400) is on the private window
            ("Move", {"loc": INSIDE}),
            ("Move", {"loc": NOTEPAD, "drag": True, "from_loc": INSIDE}),
            ("MultiSelect", {"locs": [NOTEPAD, INSIDE]}),
            ("Shortcut", {"shortcut": "ctrl+c"}),
            ("Click", {"loc": [PRIVATE_RECT[0], PRIVATE_RECT[1]]}),  # the corner: border included
        ]
        for tool, args in calls:
            text = first_text(await rig.call(tool, args))
            assert text.startswith("DENIED PRIVATE_WINDOW: "), (tool, text)
        assert rig.side_effects() == []
        for tool in ("Screenshot", "Snapshot"):
            assert (await rig.call(tool, {})).get("isError") is not True


@requirement("S-PRIV-04")
async def test_waitfor_does_not_name_the_private_window(tmp_path: Path) -> None:
    """S-PRIV-04: WaitFor's "active window was '…'" names a placeholder, in the result and the audit."""
    async with gateway_rig(tmp_path, scenario="private") as rig:
        args = {"condition": "active_window", "window_name": "Calculator", "timeout": 0.3, "interval": 0.1}
        result = await rig.call("WaitFor", args)
        text = texts_of(result)
        assert "active window was '[private window 1]'" in text, text
        assert PRIVATE_TITLE not in text and PRIVATE_TITLE not in str(result.get("structuredContent"))
        assert PRIVATE_TITLE not in (rig.app.config.state_dir / "audit.jsonl").read_text(encoding="utf-8")


@requirement("S-PRIV-03", "S-PRIV-08")
async def test_a_downscaled_capture_with_a_negative_origin_is_masked_where_the_window_is(tmp_path: Path) -> None:
    """S-PRIV-03: DISPLAY2 at (-1920,0), 4480x1440 shown as 1920x617: the mask lands on the window."""
    original = await reference(tmp_path, "private-dual", "Snapshot", {"use_vision": True})
    async with gateway_rig(tmp_path, scenario="private-dual") as rig:
        result = await rig.call("Snapshot", {"use_vision": True})
        line = annotation_of(result) or ""
        assert "origin=-1920,0" in line and "image=1920x617" in line and "masked=1" in line, line
        forwarded = image_of(result)
        assert set(PRIVATE_COLORS) <= colours(original)
        assert not set(PRIVATE_COLORS) & colours(forwarded)
        scale = 1920 / 4480  # image px per screen px
        left, top, right, bottom = PRIVATE_DUAL_RECT
        inner = (
            int((left + 1920) * scale) + 1,
            int(top * scale) + 1,
            int((right + 1920) * scale) - 1,
            int(bottom * scale) - 1,
        )
        assert colours(forwarded.crop(inner)) == {MASK_FILL}
        assert forwarded.getpixel((1500, 300)) == original.getpixel((1500, 300))  # the primary, far away
        assert first_text(await rig.call("Click", {"loc": [-1400, 400]})).startswith("DENIED PRIVATE_WINDOW")
        assert rig.side_effects() == []
