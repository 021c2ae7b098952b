"""The HTML report's screen geometry: one inline SVG per observation (S-AREP-05).

The displays an observation line's ``screen`` names (the primary darker, negative origins as they
are), the captured region (dashed), the cursor, and the clicks citing the observation: allowed
ones (their ``allow`` intent line) green, refused ones a red ×. Upstream prints the focused
window's size, never its place, so it is named in the caption rather than drawn. Every value is
untrusted: numbers are checked before they become coordinates and text goes through `esc`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from html import escape
from typing import Any

_SVG_W, _SVG_H_MAX, _PAD = 440.0, 300.0, 8.0


@dataclasses.dataclass(slots=True, kw_only=True)
class Figure:
    """One observation line and the input lines that cite it (drawn on it)."""

    record: dict[str, Any]
    allowed: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    refused: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def esc(value: Any) -> str:
    """Untrusted text as HTML text or a quoted attribute value (`&`, `<`, `>`, `\"`, `'` escaped; S-AREP-09)."""
    return escape("" if value is None else str(value), quote=True)


def point_of(value: Any) -> tuple[float, float] | None:
    """``[x, y]`` of numbers as a point; anything else (from an untrusted line) is None."""
    if isinstance(value, list) and len(value) == 2 and all(_is_num(v) for v in value):
        return float(value[0]), float(value[1])
    return None


def _is_num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def rect_of(value: Any) -> tuple[float, float, float, float] | None:
    """``[l, t, r, b]`` of numbers with a positive area as a rectangle; anything else is None."""
    if isinstance(value, list) and len(value) == 4 and all(_is_num(v) for v in value):
        left, top, right, bottom = (float(v) for v in value)
        if right > left and bottom > top:
            return left, top, right, bottom
    return None


def render_figures(figures: Mapping[str, Figure]) -> str:
    """The "Screen geometry" section: one figure per observation, the newest first (S-AREP-05)."""
    drawn = [_figure(obs, f) for obs, f in reversed(list(figures.items()))]
    legend = (
        '<p class="legend">Per observation: the displays it printed (blue; the primary darker), the captured '
        "region (dashed), the cursor (black dot), allowed clicks citing it (green) and refused ones (red ×, "
        "never forwarded). No screenshot is stored; upstream prints the focused window's size, not its place.</p>"
    )
    body = "".join(f for f in drawn if f) or '<p class="muted">No observation with screen geometry.</p>'
    return f'<h2>Screen geometry</h2>{legend}<div class="geo" id="geometry">{body}</div>'


def _figure(obs: str, fig: Figure) -> str:
    screen = fig.record.get("screen")
    assert isinstance(screen, Mapping)
    displays = [r for r in (rect_of(d) for d in screen.get("displays") or []) if r is not None]
    region = rect_of(screen.get("region"))
    points = [p for p in (point_of(r.get("point")) for r in fig.allowed + fig.refused) if p is not None]
    cursor = point_of(screen.get("cursor"))
    boxes = displays + ([region] if region else [])
    xs = [b[0] for b in boxes] + [b[2] for b in boxes] + [p[0] for p in points]
    ys = [b[1] for b in boxes] + [b[3] for b in boxes] + [p[1] for p in points]
    if not xs:
        return ""
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    k = min((_SVG_W - 2 * _PAD) / max(max_x - min_x, 1.0), (_SVG_H_MAX - 2 * _PAD) / max(max_y - min_y, 1.0))
    height = (max_y - min_y) * k + 2 * _PAD

    def sx(x: float) -> float:
        return round((x - min_x) * k + _PAD, 2)

    def sy(y: float) -> float:
        return round((y - min_y) * k + _PAD, 2)

    shapes = []
    primary = screen.get("primary")
    for i, (left, top, right, bottom) in enumerate(displays):
        cls = "display primary" if i == primary else "display"
        label = f"{i}: ({left:g},{top:g})–({right:g},{bottom:g})"
        shapes.append(
            f'<rect class="{cls}" x="{sx(left)}" y="{sy(top)}" width="{round((right - left) * k, 2)}"'
            f' height="{round((bottom - top) * k, 2)}"><title>{esc("display " + label)}</title></rect>'
            f'<text class="label" x="{sx(left) + 4}" y="{sy(top) + 13}">{esc(label)}</text>'
        )
    if region:
        left, top, right, bottom = region
        shapes.append(
            f'<rect class="region" x="{sx(left)}" y="{sy(top)}" width="{round((right - left) * k, 2)}"'
            f' height="{round((bottom - top) * k, 2)}"><title>captured region</title></rect>'
        )
    if cursor:
        shapes.append(
            f'<circle class="cursor" cx="{sx(cursor[0])}" cy="{sy(cursor[1])}" r="3"><title>cursor</title></circle>'
        )
    for rec in fig.allowed:
        p = point_of(rec.get("point"))
        if p:
            tip = f"#{rec.get('seq')} {rec.get('tool')} allowed at ({p[0]:g}, {p[1]:g})"
            shapes.append(
                f'<circle class="allowed" cx="{sx(p[0])}" cy="{sy(p[1])}" r="5"><title>{esc(tip)}</title></circle>'
            )
    for rec in fig.refused:
        p = point_of(rec.get("point"))
        if p:
            x, y = sx(p[0]), sy(p[1])
            tip = f"#{rec.get('seq')} {rec.get('tool')} refused {rec.get('code')} at ({p[0]:g}, {p[1]:g})"
            shapes.append(
                f'<g class="refused"><title>{esc(tip)}</title>'
                f'<line x1="{x - 5}" y1="{y - 5}" x2="{x + 5}" y2="{y + 5}"/>'
                f'<line x1="{x - 5}" y1="{y + 5}" x2="{x + 5}" y2="{y - 5}"/></g>'
            )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_SVG_W:g}" height="{round(height, 2)}"'
        f' viewBox="0 0 {_SVG_W:g} {round(height, 2)}" role="img">{"".join(shapes)}</svg>'
    )
    return f'<figure id="geo-{esc(obs)}">{svg}<figcaption>{esc(_caption(obs, fig, screen))}</figcaption></figure>'


def _caption(obs: str, fig: Figure, screen: Mapping[str, Any]) -> str:
    rec = fig.record
    bits = [f"{obs} · {rec.get('tool')} · {rec.get('ts')} · session {rec.get('session')}"]
    focused = screen.get("focused")
    if isinstance(focused, Mapping):
        size = focused.get("size")
        dims = f"{size[0]}×{size[1]}" if isinstance(size, list) and len(size) == 2 else "size unknown"
        bits.append(f"focused: {focused.get('name')} ({dims}, {focused.get('status', '?')})")
    else:
        bits.append("focused: none reported")
    if screen.get("origin") is not None:
        bits.append(f"origin {screen.get('origin')} scale {screen.get('scale')} image {screen.get('image')}")
    bits.append(f"{len(fig.allowed)} allowed, {len(fig.refused)} refused")
    return " · ".join(bits)
