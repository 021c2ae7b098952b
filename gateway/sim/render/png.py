"""The screenshot image: a flat drawing of the virtual desktop with Pillow (S-SIM-04).

Pixels are not upstream's (its samples are synthetic too); what matters is the size, which
follows FORMATS §3.1 exactly, and that annotated captures carry label numbers like upstream's
``draw_annotation(i, node)``: interactive nodes only, never scrollables (FORMATS §7).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from gateway.sim.model import Element, Rect, Window
from gateway.sim.world import LabelEntry, World

DESKTOP = (31, 95, 160)
OUTSIDE = (0, 0, 0)
WINDOW_BODY = (240, 240, 240)
TITLE_BAR = (60, 60, 60)
TASKBAR = (24, 24, 32)
ELEMENT = (150, 150, 150)
PALETTE = ((0, 200, 200), (230, 60, 200), (250, 230, 40), (40, 220, 90), (70, 110, 240), (240, 120, 40))
CURSOR = (220, 0, 0)


def image_size(width: int, height: int, env_scale: float) -> tuple[tuple[int, int], float]:
    """Image size and scale for a capture of ``width × height`` (FORMATS §3.1).

    ``scale = min(env_scale, 1920/W if W > 1920 else 1, 1080/H if H > 1080 else 1)`` and the
    image is ``(int(W*scale), int(H*scale))``.
    """
    scale = min(env_scale, 1920 / width if width > 1920 else 1.0, 1080 / height if height > 1080 else 1.0)
    if scale == 1.0:
        return (width, height), 1.0
    return (int(width * scale), int(height * scale)), scale


def _ascii(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


class _Canvas:
    def __init__(self, capture: Rect, size: tuple[int, int]) -> None:
        self.capture = capture
        self.sx = size[0] / capture.width
        self.sy = size[1] / capture.height
        self.image = Image.new("RGB", size, OUTSIDE)
        self.draw = ImageDraw.Draw(self.image)
        self.font = ImageFont.load_default()

    def box(self, r: Rect) -> tuple[float, float, float, float]:
        c = self.capture
        x0, y0 = (r.left - c.left) * self.sx, (r.top - c.top) * self.sy
        x1, y1 = (r.right - c.left) * self.sx - 1, (r.bottom - c.top) * self.sy - 1
        return x0, y0, max(x0, x1), max(y0, y1)

    def point(self, x: int, y: int) -> tuple[float, float]:
        return (x - self.capture.left) * self.sx, (y - self.capture.top) * self.sy

    def label(self, r: Rect, text: str, color: tuple[int, int, int]) -> None:
        x0, y0, _, _ = self.box(r)
        self.draw.text((x0 + 3, y0 + 2), _ascii(text), fill=color, font=self.font)


def _elements(canvas: _Canvas, elements: Sequence[Element], ink: tuple[int, int, int]) -> None:
    for el in elements:
        if el.name.strip():
            canvas.draw.rectangle(canvas.box(el.rect), outline=ELEMENT)
            canvas.label(el.rect, el.name, ink)
        _elements(canvas, el.children, ink)


CHECKER_CELL = 8  # screen pixels per checkerboard square


def _checkerboard(canvas: _Canvas, area: Rect, colors: tuple[tuple[int, int, int], tuple[int, int, int]]) -> None:
    for top in range(area.top, area.bottom, CHECKER_CELL):
        for left in range(area.left, area.right, CHECKER_CELL):
            cell = Rect(left, top, min(left + CHECKER_CELL, area.right), min(top + CHECKER_CELL, area.bottom))
            odd = ((left - area.left) // CHECKER_CELL + (top - area.top) // CHECKER_CELL) % 2
            canvas.draw.rectangle(canvas.box(cell), fill=colors[odd])


def _window(canvas: _Canvas, win: Window) -> None:
    if win.kind == "taskbar":
        canvas.draw.rectangle(canvas.box(win.rect), fill=TASKBAR)
    elif win.kind == "app" or win.kind == "dialog":
        canvas.draw.rectangle(canvas.box(win.rect), fill=WINDOW_BODY, outline=TITLE_BAR)
        bar = Rect(win.rect.left, win.rect.top, win.rect.right, min(win.rect.bottom, win.rect.top + 32))
        canvas.draw.rectangle(canvas.box(bar), fill=TITLE_BAR)
        canvas.label(bar, win.title, (255, 255, 255))
        if win.pattern is not None:
            _checkerboard(canvas, Rect(win.rect.left, bar.bottom, win.rect.right, win.rect.bottom), win.pattern)
    _elements(canvas, win.children + win.dom, (230, 230, 230) if win.kind == "taskbar" else (20, 20, 20))


def render_png(
    world: World,
    *,
    capture: Rect,
    size: tuple[int, int],
    labels: Sequence[LabelEntry],
    annotate: bool,
    grid: tuple[int, int] | None,
) -> bytes:
    """Draw the capture rectangle of the desktop into a PNG of ``size``.

    Args:
        world: the desktop to draw.
        capture: the captured rectangle in virtual-desktop coordinates.
        size: the image size (already downscaled).
        labels: the new label table; interactive rows are numbered when ``annotate``.
        annotate: draw boxes and label numbers.
        grid: ``(width_reference_line, height_reference_line)`` grid line counts, or None.

    Returns:
        PNG bytes (``PIL.Image.save(format="PNG")`` like upstream).
    """
    canvas = _Canvas(capture, size)
    for display in world.displays:
        canvas.draw.rectangle(canvas.box(display.rect), fill=DESKTOP)
    focused = world.focused_window
    visible = [w for w in world.windows if w.visible]
    order = (
        [w for w in visible if w.kind == "desktop"]
        + [w for w in visible if w.kind == "app" and w is not focused]
        + ([focused] if focused is not None else [])
        + [w for w in visible if w.kind == "dialog"]
        + [w for w in visible if w.kind == "taskbar"]
    )
    for win in order:
        _window(canvas, win)
    if annotate:
        for i, entry in enumerate(e for e in labels if e.kind == "interactive"):
            color = PALETTE[i % len(PALETTE)]
            x0, y0, x1, y1 = canvas.box(entry.bbox)
            canvas.draw.rectangle((x0, y0, x1, y1), outline=color, width=2)
            canvas.draw.rectangle((max(x0, x1 - 14), max(0, y0 - 12), x1, y0), fill=color)
            canvas.draw.text((max(x0, x1 - 13), max(0, y0 - 12)), str(i), fill=(0, 0, 0), font=canvas.font)
    if grid is not None and grid[0] > 0 and grid[1] > 0:
        w, h = size
        for i in range(1, grid[0]):
            canvas.draw.line((w * i / grid[0], 0, w * i / grid[0], h), fill=(255, 255, 0))
        for i in range(1, grid[1]):
            canvas.draw.line((0, h * i / grid[1], w, h * i / grid[1]), fill=(255, 255, 0))
    cx, cy = canvas.point(*world.cursor)
    canvas.draw.ellipse((cx - 12, cy - 12, cx + 12, cy + 12), outline=CURSOR, width=2)
    canvas.draw.line((cx - 12, cy, cx + 12, cy), fill=CURSOR)
    canvas.draw.line((cx, cy - 12, cx, cy + 12), fill=CURSOR)
    buffer = io.BytesIO()
    canvas.image.save(buffer, format="PNG")
    return buffer.getvalue()
