"""One desktop capture, upstream's ``Desktop.get_state()`` (FORMATS §2-§5; S-SIM-04, S-SIM-06).

A capture validates ``display`` / ``region``, picks the capture rectangle, walks the UI tree,
renders the window tables, draws the image when asked, and returns the prose plus the new
label table. The caller installs the table and bumps the generation; a failed capture
(:class:`CaptureError`) changes nothing, as upstream's ``get_state`` raises before assigning.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from gateway.sim.model import Rect
from gateway.sim.render.png import image_size, render_png
from gateway.sim.render.text import Metadata, prose, window_row, windows_table
from gateway.sim.render.tree import build_tree
from gateway.sim.world import LabelEntry, World


class CaptureError(Exception):
    """Why a capture failed; upstream wraps it as ``Error capturing …: {exc}. Please try again.``"""


@dataclass(frozen=True, slots=True, kw_only=True)
class CaptureRequest:
    """The arguments of one Snapshot / Screenshot / WaitFor poll, already coerced to bools."""

    use_vision: bool = False
    use_dom: bool = False
    use_annotation: bool = True
    use_ui_tree: bool = True
    display: list[int] | None = None
    region: object = None
    grid: tuple[int, int] | None = None
    screenshot_tool: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Capture:
    """The prose, the PNG (when an image was taken) and the new label table."""

    text: str
    png: bytes | None
    labels: tuple[LabelEntry, ...]


def parse_region(raw: object) -> list[int] | None:
    """``region`` as upstream accepts it: ``[l,t,r,b]`` ints or the same as a JSON string."""
    if raw is None:
        return None
    value = raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CaptureError(f"region must be a JSON list [left, top, right, bottom]: {exc}") from exc
    if (
        not isinstance(value, list)
        or len(value) != 4
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise CaptureError("region must be a list of exactly 4 integers [left, top, right, bottom]")
    if value[2] <= value[0] or value[3] <= value[1]:
        raise CaptureError(f"region must satisfy right > left and bottom > top, got {value}")
    return value


def parse_displays(raw: list[int] | None, count: int) -> list[int] | None:
    """Validated zero-based display indices (duplicates dropped), or None when not given."""
    if not raw:
        return None
    chosen: list[int] = []
    for index in raw:
        if not 0 <= index < count:
            available = ", ".join(str(i) for i in range(count))
            raise CaptureError(f"Invalid display index {index}. Available displays: {available}")
        if index not in chosen:
            chosen.append(index)
    return chosen


def _tables(world: World, region: Rect | None) -> tuple[str, str]:
    # Region mode reports clipped sizes (samples/03). Windows outside the region are left out of
    # both tables here; the samples do not show what upstream prints for them.
    active = world.focused_window

    def size(rect: Rect) -> tuple[int, int] | None:
        if region is None:
            return rect.width, rect.height
        clipped = rect.intersect(region)
        return None if clipped is None else (clipped.width, clipped.height)

    active_rows = []
    if active is not None and (active_size := size(active.rect)) is not None:
        active_rows.append(window_row(active, active_size))
    others = sorted((w for w in world.windows if w.kind == "app" and w is not active), key=lambda w: w.depth)
    other_rows = []
    for win in others:
        win_size = size(win.reported_rect)
        if win_size is not None:
            other_rows.append(window_row(win, win_size))
    return (
        windows_table(active_rows, "No active window found"),
        windows_table(other_rows, "No windows found"),
    )


def capture(world: World, request: CaptureRequest) -> Capture:
    """Capture the desktop as upstream's ``get_state`` + ``build_snapshot_response`` would.

    Args:
        world: the current desktop (read only here).
        request: the capture arguments.

    Returns:
        The capture; the caller stores ``labels`` as the server-side label table.

    Raises:
        CaptureError: invalid ``display`` / ``region`` / ``use_dom`` combination.
    """
    if request.use_dom and not request.use_ui_tree:
        raise CaptureError("use_dom=True requires use_ui_tree=True")
    selected = parse_displays(request.display, len(world.displays))
    region_value = parse_region(request.region)
    screen = world.virtual_screen
    region: Rect | None = None
    if region_value is not None:
        region = Rect(*region_value).intersect(screen)
        if region is None:
            raise CaptureError(f"region {region_value} does not overlap the virtual screen bounds {screen.xyxy()}")
    if region is not None:
        rect = region
    elif selected is not None:
        rect = Rect.union([world.displays[i].rect for i in selected])
    else:
        rect = screen
    cursor: tuple[int, int] | None = world.cursor
    if region is not None and not region.contains(*world.cursor):
        cursor = None
    # Only ``region`` clips the tree (FORMATS §5.4); a display selection crops the image only.
    tree = build_tree(world, region=region, use_dom=request.use_dom) if request.use_ui_tree else None
    labels = tree.labels if tree is not None else ()
    if request.use_ui_tree:
        active_table, others_table = _tables(world, region)
    else:
        active_table, others_table = "No active window found", "No windows found"
    png: bytes | None = None
    size, scale = (rect.width, rect.height), 1.0
    if request.use_vision:
        size, scale = image_size(rect.width, rect.height, world.screenshot_scale)
        png = render_png(
            world, capture=rect, size=size, labels=labels, annotate=request.use_annotation, grid=request.grid
        )
    meta = Metadata(
        cursor=cursor,
        displays=world.displays,
        source_size=(rect.width, rect.height) if request.use_vision else None,
        image_scale=scale,
        selected=tuple(selected) if selected is not None else None,
        region=rect if (region is not None or selected is not None) else None,
        backend=world.backend if request.use_vision else None,
        screenshot_tool=request.screenshot_tool,
    )
    if request.screenshot_tool:
        tree_text: str | None = None
    else:
        tree_text = tree.text if tree is not None else "No elements"
    text = prose(
        meta,
        active_desktop=world.active_desktop,
        desktops=world.desktops,
        active_window=active_table,
        windows=others_table,
        tree=tree_text,
        truncated_at=world.max_tree_elements if tree is not None and tree.truncated else None,
    )
    return Capture(text=text, png=png, labels=labels)
