"""The single `[gateway]` annotation line (S-MAP-09), written out by hand from DESIGN.md §3."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from gateway.observe.annotation import annotation_line, format_number, quote
from gateway.observe.coords import build_mapping
from gateway.observe.parse import parse_result
from policy.observation import Capture, Mapping, Observation, Window
from tests._requirements import SAMPLES, requirement

TAIL = " | screen = origin + image_px × scale | cite based_on="


def sample_result(stem: str) -> dict[str, Any]:
    """A sample's CallToolResult with the elided image data replaced by the real PNG."""
    result: dict[str, Any] = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))["result"]
    for item in result["content"]:
        if item["type"] == "image":
            item["data"] = base64.b64encode((SAMPLES / f"{stem}.png").read_bytes()).decode("ascii")
    return result


def observation(stem: str, obs_id: str = "obs-3", tool: str = "Snapshot") -> Observation:
    capture = parse_result(tool, sample_result(stem))
    assert isinstance(capture, Capture)
    return Observation(
        id=obs_id,
        session="s1",
        generation=1,
        taken_at_ms=0.0,
        capture=capture,
        mapping=build_mapping(capture),
    )


@requirement("S-MAP-09")
def test_design_example_line_for_sample_02() -> None:
    """S-MAP-09: sample 02 as obs-3 gives DESIGN §3's example line character for character."""
    expected = (
        "[gateway] obs=obs-3 origin=0,0 scale=1.333333 image=1920x1080 source=2560x1440"
        ' focused="notes.txt - Notepad"'
        ' | screen = origin + image_px × scale | cite based_on="obs-3"'
    )
    assert annotation_line(observation("02_snapshot_downscaled_2560x1440")) == expected


@requirement("S-MAP-09")
@pytest.mark.parametrize(
    ("stem", "tool", "fields"),
    [
        (
            "04a_snapshot_multimonitor_negative_origin",
            "Snapshot",
            'origin=-1920,0 scale=2.333333,2.333874 image=1920x617 source=4480x1440 focused="notes.txt - Notepad"',
        ),
        (
            "01_snapshot_full_desktop_scale1",
            "Snapshot",
            'origin=0,0 scale=1 image=1920x1080 source=1920x1080 focused="notes.txt - Notepad"',
        ),
        (
            "03_snapshot_region_nonzero_origin",
            "Snapshot",
            'origin=2000,100 scale=1 image=600x600 source=600x600 focused="notes.txt - Notepad"',
        ),
        (
            "04b_screenshot_display_1_negative_origin",
            "Screenshot",
            "origin=-1920,0 scale=1 image=1920x1080 source=1920x1080",
        ),
        ("05_snapshot_rich_tree_no_vision", "Snapshot", 'focused="Settings"'),
        ("07_snapshot_empty_ui_tree", "Snapshot", ""),
    ],
)
def test_fields_present_only_when_known(stem: str, tool: str, fields: str) -> None:
    """S-MAP-09: `scale=x,y` when axes differ; no image → no mapping fields; no focus → no focused=."""
    line = annotation_line(observation(stem, "obs-12", tool))
    head = "[gateway] obs=obs-12" + (f" {fields}" if fields else "")
    assert line == head + TAIL + '"obs-12"'


@requirement("S-MAP-09")
def test_names_are_escaped_and_the_line_stays_one_line() -> None:
    """S-MAP-09: quotes, backslashes, line breaks and control characters in a window name are escaped."""
    name = 'Say "hi"\\there\nnext\r\tend\u2028\x07'
    capture = Capture(tool="Snapshot", focused=Window(name=name, depth=1, status="Normal", width=1, height=1, handle=1))
    line = annotation_line(Observation(id="obs-1", session="s", generation=0, taken_at_ms=0.0, capture=capture))
    assert (
        line == '[gateway] obs=obs-1 focused="Say \\"hi\\"\\\\there\\nnext\\r\\tend\\u2028\\u0007"' + TAIL + '"obs-1"'
    )
    assert len(line.splitlines()) == 1


@requirement("S-MAP-09")
def test_non_integer_origin_and_image_without_mapping() -> None:
    """S-MAP-09: a fractional origin has ≤ 6 decimals; an image with an unknown mapping prints image= only."""
    mapping = Mapping(origin=(12.5, -3.25), scale=(2.0, 2.0), image_size=(10, 20), source_size=(20, 40))
    capture = Capture(tool="Screenshot", image_size=(10, 20))
    obs = Observation(id="obs-2", session="s", generation=0, taken_at_ms=0.0, capture=capture, mapping=mapping)
    assert (
        annotation_line(obs)
        == "[gateway] obs=obs-2 origin=12.5,-3.25 scale=2 image=10x20 source=20x40" + TAIL + '"obs-2"'
    )
    unknown = Observation(id="obs-4", session="s", generation=0, taken_at_ms=0.0, capture=capture)
    assert annotation_line(unknown) == "[gateway] obs=obs-4 image=10x20" + TAIL + '"obs-4"'


@requirement("S-MAP-09")
@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (-1920.0, "-1920"),
        (1.3333333333, "1.333333"),
        (2.3338735818, "2.333874"),
        (0.1, "0.1"),
        (-0.0000001, "0"),
    ],
)
def test_number_format(value: float, text: str) -> None:
    """S-MAP-09: integral numbers without decimals, others with at most six, trailing zeros dropped."""
    assert format_number(value) == text


@requirement("S-MAP-09")
def test_quote_plain_text() -> None:
    """S-MAP-09: text without special characters is only wrapped in double quotes."""
    assert quote("Notes 📝 - Notepad") == '"Notes 📝 - Notepad"'
