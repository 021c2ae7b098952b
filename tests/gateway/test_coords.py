"""image pixel ⇄ screen mapping (S-MAP-01…08): rules, samples, the seed's anchors and properties.

Expected numbers are computed by hand from the sample texts: e.g. samples/04a prints
Original Size (4480,1440), displays (0,0,2560,1440) and (-1920,0,0,1080), and its PNG is
1920x617, so origin = (-1920, 0) and scale = (4480/1920, 1440/617).
"""

from __future__ import annotations

import base64
import dataclasses
import inspect
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.observe.coords import (
    build_mapping,
    capture_rect,
    derive_mapping,
    image_to_screen,
    in_image,
    on_displays,
    round_half_away,
    screen_to_image,
    to_loc,
)
from gateway.observe.parse import parse_result
from policy.observation import Capture, Display, Mapping
from tests._requirements import SAMPLES, requirement

DISPLAYS_04 = (
    Display(index=0, device="\\\\.\\DISPLAY1", rect=(0, 0, 2560, 1440), primary=True),
    Display(index=1, device="\\\\.\\DISPLAY2", rect=(-1920, 0, 0, 1080)),
)


def sample_result(stem: str) -> dict[str, Any]:
    """A sample's CallToolResult with the elided image data replaced by the real PNG."""
    result: dict[str, Any] = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))["result"]
    for item in result["content"]:
        if item["type"] == "image":
            item["data"] = base64.b64encode((SAMPLES / f"{stem}.png").read_bytes()).decode("ascii")
    return result


def capture_of(stem: str, tool: str = "Snapshot") -> Capture:
    parsed = parse_result(tool, sample_result(stem))
    assert isinstance(parsed, Capture)
    return parsed


def mapping_of(stem: str, tool: str = "Snapshot") -> Mapping:
    mapping = build_mapping(capture_of(stem, tool))
    assert mapping is not None
    return mapping


# --- S-MAP-01: origin ---------------------------------------------------------------------


@requirement("S-MAP-01")
@pytest.mark.parametrize(
    ("stem", "tool", "origin"),
    [
        ("01_snapshot_full_desktop_scale1", "Snapshot", (0.0, 0.0)),
        ("03_snapshot_region_nonzero_origin", "Snapshot", (2000.0, 100.0)),  # Screenshot Region printed
        ("04a_snapshot_multimonitor_negative_origin", "Snapshot", (-1920.0, 0.0)),  # union of displays
        ("04b_screenshot_display_1_negative_origin", "Screenshot", (-1920.0, 0.0)),  # region of display 1
    ],
)
def test_origin_of_each_sample(stem: str, tool: str, origin: tuple[float, float]) -> None:
    """S-MAP-01: region top-left if printed, else the virtual screen's top-left (union of displays)."""
    m = mapping_of(stem, tool)
    assert m.origin == origin
    assert m.warnings == ()


@requirement("S-MAP-01")
def test_selected_displays_without_region_use_their_union() -> None:
    """S-MAP-01: `Selected Displays` without a region: origin of the selected displays' union, flagged."""
    c = Capture(
        tool="Screenshot",
        displays=DISPLAYS_04,
        selected_displays=(1,),
        screenshot_size=(1920, 1080),
        image_size=(1920, 1080),
    )
    m, warns = derive_mapping(c)
    assert m is not None and m.origin == (-1920.0, 0.0) and m.scale == (1.0, 1.0)
    assert any("no Screenshot Region" in w for w in warns)
    assert capture_rect(dataclasses.replace(c, selected_displays=(0,)))[0] == (0, 0, 2560, 1440)
    rect, warns = capture_rect(dataclasses.replace(c, selected_displays=(5,)))
    assert rect == (-1920, 0, 2560, 1440) and any("not among the visible displays" in w for w in warns)


@requirement("S-MAP-01")
def test_unknown_origin_gives_no_mapping() -> None:
    """S-MAP-01: with neither a region nor displays the origin is unknown: no mapping, and a warning."""
    m, warns = derive_mapping(Capture(tool="Snapshot", screenshot_size=(800, 600), image_size=(800, 600)))
    assert m is None
    assert any("origin is unknown" in w for w in warns)


# --- S-MAP-02 / S-MAP-03: scale -----------------------------------------------------------


@requirement("S-MAP-02")
@pytest.mark.parametrize(
    ("stem", "scale", "source", "image"),
    [
        ("01_snapshot_full_desktop_scale1", (1.0, 1.0), (1920, 1080), (1920, 1080)),
        ("02_snapshot_downscaled_2560x1440", (2560 / 1920, 1440 / 1080), (2560, 1440), (1920, 1080)),
        ("03_snapshot_region_nonzero_origin", (1.0, 1.0), (600, 600), (600, 600)),
        ("04a_snapshot_multimonitor_negative_origin", (4480 / 1920, 1440 / 617), (4480, 1440), (1920, 617)),
    ],
)
def test_scale_is_source_over_png_size_per_axis(
    stem: str, scale: tuple[float, float], source: tuple[int, int], image: tuple[int, int]
) -> None:
    """S-MAP-02: scale = Original Size (else Screenshot Size) / PNG size, exact and per axis."""
    m = mapping_of(stem)
    assert (m.scale, m.source_size, m.image_size) == (scale, source, image)


@requirement("S-MAP-02")
def test_no_attachment_ratio_is_ever_multiplied_in() -> None:
    """S-MAP-02: regression — the falsified double scaling (1.333333/0.75 = 1.777778) cannot happen."""
    assert list(inspect.signature(build_mapping).parameters) == ["capture"]
    m = mapping_of("02_snapshot_downscaled_2560x1440")
    assert image_to_screen(m, 1920, 1080) == (2560.0, 1440.0)  # the image's far corner is the screen's
    assert m.scale[0] == pytest.approx(1.333333, abs=1e-6)
    assert m.scale[0] != pytest.approx(1.777778, abs=1e-3)


@requirement("S-MAP-02")
def test_source_falls_back_to_the_capture_rectangle() -> None:
    """S-MAP-02: without any printed size, the region size is the source, with a warning."""
    c = Capture(tool="Snapshot", region=(100, 100, 500, 400), image_size=(200, 150))
    m, warns = derive_mapping(c)
    assert m is not None and m.source_size == (400, 300) and m.scale == (2.0, 2.0)
    assert any("no screenshot size printed" in w for w in warns)


@requirement("S-MAP-03")
def test_printed_scale_is_explained_by_int_truncation_in_04a() -> None:
    """S-MAP-03: 2.333333 vs the exact y scale 1440/617 = 2.33387 is int() truncation: no warning."""
    m, warns = derive_mapping(capture_of("04a_snapshot_multimonitor_negative_origin"))
    assert m is not None and warns == ()
    assert m.scale[1] - 2.333333 > 5e-4  # the axes really differ; the check must tolerate it


@requirement("S-MAP-03")
@pytest.mark.parametrize(
    ("printed", "image", "bad_axes"),
    [
        (2.333333, (1920, 617), ""),
        (2.333333, (1920, 616), "y"),  # 1440/2.333333 = 617.14: 616 is more than one pixel short
        (2.333333, (1920, 618), "y"),  # more than the capture scaled by 1/c
        (2.333333, (1919, 617), ""),  # 4480·s may be 1919.9999 in floats: int() gives 1919
        (2.333333, (1918, 617), "x"),  # 4480/2.333333 = 1920.0003: two pixels short
        (2.5, (1920, 617), "xy"),
        (0.5, (1920, 617), "xy"),
    ],
)
def test_printed_scale_disagreement_is_a_warning(printed: float, image: tuple[int, int], bad_axes: str) -> None:
    """S-MAP-03: a printed coord_scale not explaining an axis's image size is a warning naming the axis."""
    c = Capture(
        tool="Snapshot",
        displays=DISPLAYS_04,
        original_size=(4480, 1440),
        coord_scale=printed,
        image_size=image,
    )
    _, warns = derive_mapping(c)
    flagged = "".join(axis for axis in "xy" if any(f"does not explain {axis}" in w for w in warns))
    assert flagged == bad_axes


@requirement("S-MAP-03")
@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"image_size": (960, 540)}, "unscaled"),
        ({"region": (0, 0, 1000, 1000)}, "capture rectangle is 1000x1000"),
        ({"original_size": (1920, 1080)}, "without a Coordinate Scale"),
        ({"coord_scale": 1.0}, "without Screenshot Original Size"),
    ],
)
def test_other_inconsistencies_are_warnings(changes: dict[str, object], fragment: str) -> None:
    """S-MAP-03: a size, region or scale line that does not fit the others is reported on the mapping."""
    base = Capture(
        tool="Screenshot",
        displays=(Display(index=0, device="D", rect=(0, 0, 1920, 1080), primary=True),),
        screenshot_size=(1920, 1080),
        image_size=(1920, 1080),
    )
    m, warns = derive_mapping(dataclasses.replace(base, **changes))  # type: ignore[arg-type]
    assert any(fragment in w for w in warns), warns
    assert m is not None and m.warnings == warns


# --- S-MAP-05 / S-MAP-06: numbers that were measured or are known to be wrong upstream -----


@requirement("S-MAP-05")
def test_04a_image_pixel_maps_to_the_negative_screen_point_not_upstreams_hint() -> None:
    """S-MAP-05: 04a image (200,150) → screen (-1453.33, 350.08) → loc (-1453, 350); upstream: (467, 350)."""
    m = mapping_of("04a_snapshot_multimonitor_negative_origin")
    sx, sy = image_to_screen(m, 200, 150)
    assert sx == pytest.approx(-1920 + 200 * 4480 / 1920)  # -1453.333…
    assert sy == pytest.approx(150 * 1440 / 617)  # 350.081…
    assert to_loc(sx, sy) == (-1453, 350)
    text = (SAMPLES / "04a_snapshot_multimonitor_negative_origin.txt").read_text(encoding="utf-8")
    hint = re.search(r"image pixel \(200, 150\) → screen coordinate \((-?\d+), (-?\d+)\)", text)
    assert hint is not None and (int(hint[1]), int(hint[2])) == (467, 350)
    assert to_loc(sx, sy) != (467, 350)


@requirement("S-MAP-05")
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2.5, 3),
        (-2.5, -3),
        (-1453.5, -1454),
        (-1453.33, -1453),
        (350.08, 350),
        (0.49, 0),
        (-0.49, 0),
        (-0.5, -1),
        (7.0, 7),
    ],
)
def test_round_half_away_from_zero(value: float, expected: int) -> None:
    """S-MAP-05: `loc` rounding is half away from zero on both sides (not Python's banker's rounding)."""
    assert round_half_away(value) == expected


@requirement("S-MAP-06")
@pytest.mark.parametrize(("screen", "image"), [((2520, 35), (1890, 26.25)), ((2000, 720), (1500, 540))])
def test_seed_anchors_on_a_2560x1440_desktop(screen: tuple[int, int], image: tuple[float, float]) -> None:
    """S-MAP-06: the seed's measured anchors hold exactly in both directions on sample 02."""
    m = mapping_of("02_snapshot_downscaled_2560x1440")
    assert screen_to_image(m, *screen) == image
    assert image_to_screen(m, *image) == screen


# --- S-MAP-07 / S-MAP-08 -------------------------------------------------------------------


@requirement("S-MAP-07")
@pytest.mark.parametrize(
    ("point", "inside"),
    [
        ((-1000, 400), True),  # the cursor of 04a, on DISPLAY2
        ((-1, 1079), True),
        ((-1000, 1200), False),  # below DISPLAY2 (bottom 1080), left of DISPLAY1: in no display
        ((2559, 1439), True),
        ((2560, 100), False),  # right edge is exclusive
        ((100, -1), False),
    ],
)
def test_on_displays(point: tuple[int, int], inside: bool) -> None:
    """S-MAP-07: a screen point is on some visible display or flagged as outside every display."""
    assert on_displays(capture_of("04a_snapshot_multimonitor_negative_origin"), *point) is inside


@requirement("S-MAP-07")
def test_on_displays_without_displays_is_false_and_in_image_bounds() -> None:
    """S-MAP-07: nothing vouches for a point when no display is known; image bounds are [0, size)."""
    assert on_displays(Capture(tool="Snapshot"), 0, 0) is False
    m = mapping_of("04a_snapshot_multimonitor_negative_origin")
    assert in_image(m, 0, 0) and in_image(m, 1919.9, 616.9)
    assert not in_image(m, 1920, 0) and not in_image(m, 0, 617) and not in_image(m, -0.1, 5)


@requirement("S-MAP-08")
def test_capture_without_image_has_no_mapping() -> None:
    """S-MAP-08: a Snapshot without vision (sample 05) has no mapping and no mapping warnings."""
    c = capture_of("05_snapshot_rich_tree_no_vision")
    assert build_mapping(c) is None
    assert derive_mapping(c) == (None, ())


# --- S-MAP-04: the two directions are inverse -----------------------------------------------


def mappings() -> st.SearchStrategy[Mapping]:
    def make(ox: int, oy: int, iw: int, ih: int, fx: float, fy: float) -> Mapping:
        source = (max(1, round(iw * fx)), max(1, round(ih * fy)))
        return Mapping(
            origin=(float(ox), float(oy)),
            scale=(source[0] / iw, source[1] / ih),
            image_size=(iw, ih),
            source_size=source,
        )

    return st.builds(
        make,
        st.integers(-20000, 20000),
        st.integers(-20000, 20000),
        st.integers(1, 8000),
        st.integers(1, 8000),
        st.floats(0.1, 10),
        st.floats(0.1, 10),
    )


@requirement("S-MAP-04")
@settings(max_examples=300, deadline=None, database=None)
@given(mappings(), st.floats(0, 1, exclude_max=True), st.floats(0, 1, exclude_max=True))
def test_image_to_screen_and_back_is_identity(m: Mapping, fx: float, fy: float) -> None:
    """S-MAP-04: image → screen → image returns the pixel within one pixel, for any origin and scale."""
    x, y = fx * m.image_size[0], fy * m.image_size[1]
    bx, by = screen_to_image(m, *image_to_screen(m, x, y))
    assert abs(bx - x) < 1 and abs(by - y) < 1
    assert in_image(m, x, y)


@requirement("S-MAP-04")
@settings(max_examples=300, deadline=None, database=None)
@given(mappings(), st.integers(-30000, 30000), st.integers(-30000, 30000))
def test_screen_to_image_and_back_is_identity(m: Mapping, sx: int, sy: int) -> None:
    """S-MAP-04: screen → image → screen, rounded as a `loc`, returns the same integer screen point."""
    back = image_to_screen(m, *screen_to_image(m, sx, sy))
    assert to_loc(*back) == (sx, sy)
