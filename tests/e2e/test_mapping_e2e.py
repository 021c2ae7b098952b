"""Mapping through the gateway on several display layouts (S-FLOW-10).

Expected values come from reading the samples: 02 (2560x1440 → 1920x1080), 04a (negative-origin
second monitor, full desktop 4480x1440 → 1920x617), 04b (Screenshot of display 1 only, region
(-1920,0,0,1080)) and 03 (region [2000,100,2600,700] at scale 1, `menu item "File"` at (2128,202)).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests._requirements import requirement
from tests.e2e.harness import annotation_of, first_text, gateway_rig

pytestmark = pytest.mark.anyio

LAYOUTS: list[tuple[str, str, dict[str, Any], str, list[tuple[tuple[float, float], list[int]]]]] = [
    (
        "hidpi",
        "Snapshot",
        {"use_vision": True},
        "origin=0,0 scale=1.333333 image=1920x1080 source=2560x1440",
        [((1890, 26.25), [2520, 35]), ((1500, 540), [2000, 720])],
    ),
    (
        "dual-negative",
        "Snapshot",
        {"use_vision": True},
        "origin=-1920,0",
        [((200, 150), [-1453, 350]), ((0, 0), [-1920, 0])],
    ),
    (
        "dual-negative",
        "Screenshot",
        {"display": [1]},
        "origin=-1920,0 scale=1 image=1920x1080",
        [((100, 100), [-1820, 100])],
    ),
    (
        "dual-right",
        "Snapshot",
        {"use_vision": True, "region": [2000, 100, 2600, 700]},
        "origin=2000,100 scale=1 image=600x600",
        [((128, 102), [2128, 202])],
    ),
]


@pytest.mark.parametrize(("scenario", "tool", "args", "annotation", "points"), LAYOUTS)
@requirement("S-FLOW-10")
async def test_annotation_and_conversions_match_the_layout(
    tmp_path: Path,
    scenario: str,
    tool: str,
    args: dict[str, Any],
    annotation: str,
    points: list[tuple[tuple[float, float], list[int]]],
) -> None:
    """S-FLOW-10: the annotation states the mapping; winmcp_to_screen / screen_to_image agree with the samples."""
    async with gateway_rig(tmp_path, scenario=scenario) as rig:
        result = await rig.call(tool, args)
        line = annotation_of(result)
        assert line is not None and annotation in line, line
        obs = line.split("obs=")[1].split()[0]
        for (x, y), loc in points:
            conv = await rig.call("winmcp_to_screen", {"x": x, "y": y, "based_on": obs})
            assert conv["structuredContent"]["loc"] == loc, (x, y, conv)
            back = await rig.call("winmcp_screen_to_image", {"x": loc[0], "y": loc[1], "based_on": obs})
            bx, by = back["structuredContent"]["exact"]
            assert abs(bx - x) <= 1 and abs(by - y) <= 1


@requirement("S-FLOW-10")
async def test_conversion_refuses_without_an_image_or_outside_it(tmp_path: Path) -> None:
    """S-FLOW-10: no image (Snapshot without vision) or a pixel outside the image is a clear refusal."""
    async with gateway_rig(tmp_path, scenario="hidpi") as rig:
        plain = annotation_of(await rig.call("Snapshot", {}))
        obs = plain.split("obs=")[1].split()[0]  # type: ignore[union-attr]
        none = await rig.call("winmcp_to_screen", {"x": 10, "y": 10, "based_on": obs})
        assert none["isError"] is True and "no image" in first_text(none)
        await rig.call("Snapshot", {"use_vision": True})
        outside = await rig.call("winmcp_to_screen", {"x": 1920, "y": 5})
        assert outside["isError"] is True and "outside" in first_text(outside)
        assert rig.side_effects() == []
