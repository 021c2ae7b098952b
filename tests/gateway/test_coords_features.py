"""Step definitions binding features/mapping.feature (S-MAP-*); steps call gateway.observe.coords / annotate."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from pytest_bdd import given, parsers, scenarios, then

from gateway.observe.annotation import annotation_line
from gateway.observe.coords import derive_mapping, image_to_screen, on_displays, screen_to_image, to_loc
from gateway.observe.parse import parse_result
from policy.observation import Capture, Display, Mapping, Observation
from tests._requirements import SAMPLES

scenarios("mapping.feature")


def _observation(stem: str, obs_id: str) -> Observation:
    result: dict[str, Any] = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))["result"]
    for item in result["content"]:
        if item["type"] == "image":
            item["data"] = base64.b64encode((SAMPLES / f"{stem}.png").read_bytes()).decode("ascii")
    capture = parse_result("Snapshot", result)
    assert isinstance(capture, Capture)
    mapping, _ = derive_mapping(capture)
    return Observation(id=obs_id, session="bdd", generation=1, taken_at_ms=0.0, capture=capture, mapping=mapping)


@given(parsers.parse('the observation of sample "{stem}" as "{obs_id}"'), target_fixture="obs")
def _sample_as(stem: str, obs_id: str) -> Observation:
    return _observation(stem, obs_id)


@given(parsers.re(r'the observation of sample "(?P<stem>[^"]+)"$'), target_fixture="obs")
def _sample(stem: str) -> Observation:
    return _observation(stem, "obs-1")


@given(
    parsers.parse("a capture of {w:d}x{h:d} printed with scale {scale:g} and a PNG of {iw:d}x{ih:d}"),
    target_fixture="warnings",
)
def _capture_with_scale(w: int, h: int, scale: float, iw: int, ih: int) -> tuple[str, ...]:
    display = Display(index=0, device="DISPLAY1", rect=(0, 0, w, h), primary=True)
    capture = Capture(
        tool="Snapshot", displays=(display,), original_size=(w, h), coord_scale=scale, image_size=(iw, ih)
    )
    return derive_mapping(capture)[1]


def _mapping(obs: Observation) -> Mapping:
    assert obs.mapping is not None
    return obs.mapping


@then(parsers.parse("the mapping origin is {x:d}, {y:d}"))
def _origin(obs: Observation, x: int, y: int) -> None:
    assert _mapping(obs).origin == (x, y)


@then(parsers.parse("image pixel {x:g}, {y:g} is screen loc {sx:d}, {sy:d}"))
def _to_loc(obs: Observation, x: float, y: float, sx: int, sy: int) -> None:
    assert to_loc(*image_to_screen(_mapping(obs), x, y)) == (sx, sy)


@then(parsers.parse("upstream's own hint for that pixel says {hx:d}, {hy:d}"))
def _upstream_hint(obs: Observation, hx: int, hy: int) -> None:
    stem = "04a_snapshot_multimonitor_negative_origin"
    text = (SAMPLES / f"{stem}.txt").read_text(encoding="utf-8")
    hint = re.search(r"→ screen coordinate \((-?\d+), (-?\d+)\)", text)
    assert hint is not None and (int(hint[1]), int(hint[2])) == (hx, hy)
    assert to_loc(*image_to_screen(_mapping(obs), 200, 150)) != (hx, hy)


@then(parsers.parse("screen point {x:g}, {y:g} is image pixel {ix:g}, {iy:g}"))
def _screen_to_image(obs: Observation, x: float, y: float, ix: float, iy: float) -> None:
    assert screen_to_image(_mapping(obs), x, y) == (ix, iy)
    assert image_to_screen(_mapping(obs), ix, iy) == (x, y)


@then(parsers.parse('the mapping warns that the printed scale does not explain "{axis}"'))
def _scale_warning(warnings: tuple[str, ...], axis: str) -> None:
    assert [w for w in warnings if "does not explain" in w and f"explain {axis}:" in w]
    assert not [w for w in warnings if "does not explain" in w and f"explain {axis}:" not in w]


@then(parsers.parse("screen point {x:d}, {y:d} is on a display"))
def _on_display(obs: Observation, x: int, y: int) -> None:
    assert on_displays(obs.capture, x, y)


@then(parsers.parse("screen point {x:d}, {y:d} is on no display"))
def _off_display(obs: Observation, x: int, y: int) -> None:
    assert not on_displays(obs.capture, x, y)


@then("there is no mapping")
def _no_mapping(obs: Observation) -> None:
    assert obs.mapping is None


@then("the annotation line is")
def _annotation(obs: Observation, docstring: str) -> None:
    assert annotation_line(obs) == docstring.strip()


@then(parsers.parse("image pixel {x:g}, {y:g} maps to the screen and back unchanged"))
def _round_trip(obs: Observation, x: float, y: float) -> None:
    bx, by = screen_to_image(_mapping(obs), *image_to_screen(_mapping(obs), x, y))
    assert abs(bx - x) < 1e-9 and abs(by - y) < 1e-9
