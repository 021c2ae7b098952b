"""image pixel ⇄ screen point: `screen = origin + image_px × scale`, per axis (DESIGN.md §3).

Derived from upstream's capture code (FORMATS §3.1): the capture rectangle C is the
`Screenshot Region` when printed, else the union of the selected displays, else the
whole virtual screen (the union of all visible displays); the image is C resized to
`(int(W·s), int(H·s))`. Hence, per axis (S-MAP-01, S-MAP-02):

    origin = (C.left, C.top)
    scale  = source size / image size      (source = Original Size, else Screenshot Size)

The image size is the PNG's own (read by `gateway/observe/parse.py`), and nothing else is
multiplied in: the prior art once multiplied by the ratio of the attachment the client
displayed and was measured wrong (the seed's falsified double-scaling). Upstream's own
hint ignores the origin, which is wrong on a negative-origin layout (samples/04a).

The printed `Screenshot Coordinate Scale` c is `round(1/s, 6)` of the limiting axis and
the other axis is truncated by `int()`, so c is only checked, never used: for each axis
the image size must satisfy `W/c − 1 < image ≤ W/c` within the 6-decimal rounding of c
(S-MAP-03). Everything that does not add up is a warning, and a mapping whose origin or
source is unknown is None (the gateway reports it as MAPPING_INCOMPLETE).
"""

from __future__ import annotations

import math

from policy.observation import Capture, Mapping, Rect, Size

_SCALE_ROUNDING = 5e-7  # upstream prints round(1/s, 6): the printed value is off by at most half a unit
_FLOAT_SLACK = 1e-9


def capture_rect(capture: Capture) -> tuple[Rect | None, tuple[str, ...]]:
    """Return the rectangle upstream captured, in virtual-desktop pixels (S-MAP-01).

    Args:
        capture: a parsed Snapshot/Screenshot.

    Returns:
        `(rect, warnings)`: the printed region; else the union of the selected displays;
        else the union of all visible displays; None when none of them is known.
    """
    if capture.region is not None:
        return capture.region, ()
    warns: list[str] = []
    displays = capture.displays
    if capture.selected_displays is not None:
        chosen = [d for d in displays if d.index in capture.selected_displays]
        if len(chosen) == len(set(capture.selected_displays)):
            displays = tuple(chosen)
        else:
            warns.append("a selected display is not among the visible displays; using all displays")
        warns.append("displays were selected but no Screenshot Region was printed")
    if not displays:
        return None, (*warns, "no Screenshot Region and no Visible Displays: the capture origin is unknown")
    rect = (
        min(d.rect[0] for d in displays),
        min(d.rect[1] for d in displays),
        max(d.rect[2] for d in displays),
        max(d.rect[3] for d in displays),
    )
    return rect, tuple(warns)


def derive_mapping(capture: Capture) -> tuple[Mapping | None, tuple[str, ...]]:
    """Build the image→screen mapping of a capture and say what does not add up.

    Args:
        capture: a parsed Snapshot/Screenshot with `image_size` from the PNG header.

    Returns:
        `(mapping, warnings)`. The mapping is None when there is no image, or when the
        origin or the source size is unknown; the warnings explain why and list every
        inconsistency (S-MAP-03, S-MAP-08). A returned mapping carries the same warnings.
    """
    image = capture.image_size
    if image is None:
        return None, ()
    rect, rect_warns = capture_rect(capture)
    warns = list(rect_warns)
    rect_size = (rect[2] - rect[0], rect[3] - rect[1]) if rect is not None else None
    source = capture.original_size or capture.screenshot_size or rect_size
    if capture.original_size and capture.screenshot_size:
        warns.append("both Screenshot Size and Screenshot Original Size are printed; used Original Size")
    if capture.original_size is None and capture.screenshot_size is None:
        warns.append("no screenshot size printed; source size taken from the capture rectangle")
    if rect is None or source is None or min(source) <= 0 or min(image) <= 0:
        warns.append("mapping unknown: no capture origin or no usable source size")
        return None, tuple(warns)
    if rect_size is not None and rect_size != source:
        warns.append(f"capture rectangle is {_wh(rect_size)} but the source size is {_wh(source)}")
    _check_scale(capture, source, image, warns)
    scale = (source[0] / image[0], source[1] / image[1])
    mapping = Mapping(
        origin=(float(rect[0]), float(rect[1])),
        scale=scale,
        image_size=image,
        source_size=source,
        warnings=tuple(warns),
    )
    return mapping, tuple(warns)


def build_mapping(capture: Capture) -> Mapping | None:
    """Return the capture's image→screen mapping, or None (see `derive_mapping`).

    Args:
        capture: a parsed Snapshot/Screenshot.

    Returns:
        The mapping with its warnings, or None when there is no image or it is unknown.
    """
    return derive_mapping(capture)[0]


def _check_scale(capture: Capture, source: Size, image: Size, warns: list[str]) -> None:
    printed = capture.coord_scale
    if printed is None:
        if capture.original_size is not None:
            warns.append("Screenshot Original Size printed without a Coordinate Scale")
        elif source != image:
            warns.append(f"the image is {_wh(image)} but the text says the capture is {_wh(source)} unscaled")
        return
    if capture.original_size is None:
        warns.append("a Coordinate Scale is printed without Screenshot Original Size")
    for axis, src, img in (("x", source[0], image[0]), ("y", source[1], image[1])):
        low = src / (printed + _SCALE_ROUNDING)  # the true src·s lies in [low, high] …
        high = src / (printed - _SCALE_ROUNDING) if printed > _SCALE_ROUNDING else math.inf
        if not (low - 1 - _FLOAT_SLACK < img <= high + _FLOAT_SLACK):  # … and int() drops < 1 px
            warns.append(
                f"printed coordinate scale {printed} does not explain {axis}: "
                f"{src} px → {img} px (exact scale {src / img:.6f})"
            )


def _wh(size: Size) -> str:
    return f"{size[0]}x{size[1]}"


def image_to_screen(mapping: Mapping, x: float, y: float) -> tuple[float, float]:
    """Map an image pixel to a screen point (virtual-desktop pixels), unrounded.

    Args:
        mapping: from `build_mapping`.
        x: image pixel column (0 = left edge of the image the model saw).
        y: image pixel row.

    Returns:
        `(origin_x + x·scale_x, origin_y + y·scale_y)`; round with `to_loc` for a `loc=`.
    """
    return mapping.origin[0] + x * mapping.scale[0], mapping.origin[1] + y * mapping.scale[1]


def screen_to_image(mapping: Mapping, x: float, y: float) -> tuple[float, float]:
    """Map a screen point to an image pixel, the inverse of `image_to_screen`.

    Args:
        mapping: from `build_mapping`.
        x: screen x (virtual-desktop pixels, may be negative).
        y: screen y.

    Returns:
        The unrounded image coordinates; they may lie outside the image (see `in_image`).
    """
    return (x - mapping.origin[0]) / mapping.scale[0], (y - mapping.origin[1]) / mapping.scale[1]


def round_half_away(value: float) -> int:
    """Round to the nearest integer, halves away from zero (-1453.5 → -1454, 2.5 → 3).

    Python's `round` rounds halves to even, which makes `loc` depend on parity; the
    gateway states one rule for both signs instead (S-MAP-05).

    Raises:
        ValueError: for NaN; OverflowError for infinities.
    """
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def to_loc(x: float, y: float) -> tuple[int, int]:
    """Round a screen point to the integer `loc=[X, Y]` upstream accepts (half away from zero)."""
    return round_half_away(x), round_half_away(y)


def on_displays(capture: Capture, x: float, y: float) -> bool:
    """True when the screen point lies on some visible display (right/bottom exclusive).

    Args:
        capture: supplies `Visible Displays`.
        x: screen x.
        y: screen y.

    Returns:
        False when the point is outside every display — or when no display is known, since
        then nothing vouches for it (S-MAP-07).
    """
    return any(d.rect[0] <= x < d.rect[2] and d.rect[1] <= y < d.rect[3] for d in capture.displays)


def in_image(mapping: Mapping, x: float, y: float) -> bool:
    """True when the image coordinates lie inside the image (`0 ≤ x < width`, `0 ≤ y < height`)."""
    return 0 <= x < mapping.image_size[0] and 0 <= y < mapping.image_size[1]
