"""The Snapshot / Screenshot prose, byte for byte (FORMATS §2-§4, §5.6; S-SIM-04).

Upstream builds the text from ``textwrap.dedent`` templates whose interpolated blocks start in
column 0, so nothing is dedented and several lines keep a 4-space indent: the first metadata
line and the first line of every table block. The UI-tree block loses its indent normally but
keeps it when the truncation note (column 0) follows it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from gateway.sim.model import Display, Rect, Window
from gateway.sim.render.tables import tabulate_simple, utf16_len

SKIPPED_TREE = (
    "UI Tree: Skipped for fast screenshot-only capture. Call Snapshot when you need interactive or scrollable elements."
)
TRUNCATION_NOTE = (
    "... [truncated: reached the {n}-element capture limit — some elements were not visited. "
    "Narrow the view (filter by window, scroll to the area of interest, use_dom=True for a browser "
    "page) or raise WINDOWS_MCP_MAX_TREE_ELEMENTS for a complete tree.]"
)
WINDOW_HEADERS = ("Name", "Depth", "Status", "Width", "Height", "Handle")


@dataclass(frozen=True, slots=True, kw_only=True)
class Metadata:
    """Everything the top block of the prose may say (FORMATS §3)."""

    cursor: tuple[int, int] | None
    displays: tuple[Display, ...]
    source_size: tuple[int, int] | None = None  # capture size when an image was taken
    image_scale: float = 1.0
    selected: tuple[int, ...] | None = None
    region: Rect | None = None
    backend: str | None = None
    screenshot_tool: bool = False


def coord_scale(scale: float) -> float:
    """The printed ``Screenshot Coordinate Scale``: ``round(1/scale, 6)``."""
    return round(1 / scale, 6)


def metadata_lines(meta: Metadata) -> list[str]:
    """The metadata lines in upstream's order, without indentation."""
    cursor = "None" if meta.cursor is None else str(tuple(meta.cursor))
    lines = [f"Cursor Position: {cursor}"]
    if meta.source_size is not None:
        w, h = meta.source_size
        if meta.image_scale < 1.0:
            c = coord_scale(meta.image_scale)
            lines.append(f"Screenshot Original Size: ({w},{h})")
            lines.append(
                f"Screenshot Coordinate Scale: {c} — image pixels are downscaled; multiply every image "
                f"pixel coordinate by {c} before passing to Click, Move, Scroll, or any loc= argument "
                f"(e.g. image pixel (200, 150) → screen coordinate ({round(200 * c)}, {round(150 * c)}))"
            )
        else:
            lines.append(f"Screenshot Size: ({w},{h})")
    if meta.displays:
        items = [
            f"{i}:{d.device} {d.rect.xyxy()}" + (" primary" if d.primary else "") for i, d in enumerate(meta.displays)
        ]
        lines.append("Visible Displays: " + "; ".join(items))
    if meta.selected is not None:
        lines.append("Selected Displays: " + ",".join(str(i) for i in meta.selected))
    if meta.region is not None:
        lines.append(f"Screenshot Region: {meta.region.xyxy()}")
        lines.append("Coordinate Space: Virtual desktop coordinates")
    if meta.backend is not None:
        lines.append(f"Screenshot Backend: {meta.backend}")
    if meta.screenshot_tool:
        lines.append(SKIPPED_TREE)
    return lines


def desktops_table(names: Sequence[str]) -> str:
    """``Name`` table of virtual desktops (widths in code points: registry names)."""
    return tabulate_simple(["Name"], [[n] for n in names])


def window_row(win: Window, size: tuple[int, int]) -> list[str | int]:
    return [win.title, win.depth, win.status, size[0], size[1], win.handle]


def windows_table(rows: Sequence[Sequence[str | int]], empty: str) -> str:
    """Focused/Opened Windows table; titles are measured in UTF-16 units (FORMATS §4)."""
    if not rows:
        return empty
    return tabulate_simple(WINDOW_HEADERS, rows, widths=[utf16_len, len, len, len, len, len])


def prose(
    meta: Metadata,
    *,
    active_desktop: str,
    desktops: Sequence[str],
    active_window: str,
    windows: str,
    tree: str | None,
    truncated_at: int | None = None,
) -> str:
    """Assemble the whole response text (FORMATS §2 skeleton).

    Args:
        meta: the metadata block.
        active_desktop / desktops: virtual desktop names.
        active_window / windows: rendered tables or their sentinels.
        tree: the UI-tree text (Snapshot) or None (Screenshot: the text ends after the tables).
        truncated_at: the element budget when the tree was truncated.

    Returns:
        The text exactly as upstream emits it (LF only).
    """
    text = (
        "\n    "
        + "".join(line + "\n" for line in metadata_lines(meta))
        + "\n    Active Desktop:\n    "
        + desktops_table([active_desktop])
        + "\n\n    All Desktops:\n    "
        + desktops_table(desktops)
        + "\n\n    Focused Window:\n    "
        + active_window
        + "\n\n    Opened Windows:\n    "
        + windows
        + "\n"
    )
    if tree is None:
        return text
    if truncated_at is None:
        return text + "\n\nUI Tree:\n" + tree
    indented = "\n".join("    " + line if line else "" for line in ("UI Tree:\n" + tree).split("\n"))
    return text + "\n\n" + indented + "\n\n" + TRUNCATION_NOTE.format(n=truncated_at)


def json_list(text: str) -> str:
    """FastMCP's serialisation of a ``[str]`` return without an image (FORMATS §1)."""
    return json.dumps([text], ensure_ascii=False)
