"""Paint private windows out of a capture result before any byte of it is forwarded (S-PRIV-03, S-PRIV-04).

Images: every screen rectangle `policy.private.privacy_of` returned is mapped to image pixels with
the gateway's one mapping (`gateway/observe/coords.py`: `screen = origin + image_px × scale`, so
scaled captures and negative origins come out right) and filled solid with Pillow, widened to whole
pixels outward (a pixel the window touches is painted). `everywhere`, an unknown mapping, or an
image Pillow cannot read paints the whole image or withholds it: never forward what could not be
masked.

Text: in the `Focused Window` / `Opened Windows` tables a private window's row keeps its depth,
status, size and handle under a placeholder name; in the UI tree its `window "…"` line is renamed
and every line beneath it dropped. Any other occurrence of a private title is replaced too. The
JSON envelope (FORMATS §1) is kept.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw, UnidentifiedImageError

from gateway.observe.coords import screen_to_image
from policy.observation import Mapping, Privacy, Rect
from policy.private import placeholder

MASK_FILL = (32, 32, 32)  # solid dark grey: visibly "nothing here", unlike any simulator colour
WITHHELD = "[gateway] image withheld: it shows a private window the gateway could not mask"
_ROW = re.compile(r"^(?P<name>.*?)(?P<tail>\s+-?\d+\s+(?:Maximized|Minimized|Normal|Hidden)\s+\d+\s+\d+\s+\d+\s*)$")
_TREE_WINDOW = re.compile(r'^(?P<lead>\s*(?:├── |└── ))window "(?P<name>.*)"\s*$')
PixelBox = tuple[int, int, int, int]


def pixel_boxes(mapping: Mapping, rects: Sequence[Rect]) -> list[PixelBox]:
    """Screen rects → image pixel boxes (left, top, right, bottom; right/bottom exclusive), clipped.

    Args:
        mapping: the capture's image→screen mapping.
        rects: screen rectangles (right/bottom exclusive).

    Returns:
        The boxes that intersect the image, widened outward to whole pixels.
    """
    width, height = mapping.image_size
    boxes: list[PixelBox] = []
    for left, top, right, bottom in rects:
        x0, y0 = screen_to_image(mapping, left, top)
        x1, y1 = screen_to_image(mapping, right, bottom)
        box = (
            max(0, math.floor(min(x0, x1))),
            max(0, math.floor(min(y0, y1))),
            min(width, math.ceil(max(x0, x1))),
            min(height, math.ceil(max(y0, y1))),
        )
        if box[0] < box[2] and box[1] < box[3]:
            boxes.append(box)
    return boxes


def paint_png(data: str, boxes: Sequence[PixelBox] | None) -> str | None:
    """Fill pixel boxes of a base64 PNG solid (None: the whole image); None when it cannot be read.

    Args:
        data: the image item's base64 data.
        boxes: pixel boxes to fill, or None for the whole image.

    Returns:
        The new base64 PNG, the same size as before, or None (withhold the image).
    """
    try:
        with Image.open(io.BytesIO(base64.b64decode(data, validate=True))) as source:
            image = source.convert("RGB")
    except (binascii.Error, ValueError, OSError, UnidentifiedImageError, Image.DecompressionBombError):
        return None
    draw = ImageDraw.Draw(image)
    for x0, y0, x1, y1 in [(0, 0, *image.size)] if boxes is None else boxes:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=MASK_FILL)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return base64.b64encode(out.getvalue()).decode("ascii")


def filter_prose(prose: str, titles: Sequence[str]) -> str:
    """Rename private windows' table rows and tree lines, drop their subtrees (module docstring)."""
    names = {t: placeholder(i + 1) for i, t in enumerate(titles)}
    out: list[str] = []
    dropping: str | None = None  # the indent of the private window line whose children are skipped
    for line in prose.split("\n"):
        if dropping is not None:
            if line.startswith(dropping) and line[len(dropping) : len(dropping) + 4] in ("│   ", "    "):
                continue  # a line beneath the private window (its children are indented under it)
            dropping = None
        window = _TREE_WINDOW.match(line)
        if window and window["name"] in names:
            out.append(f'{window["lead"]}window "{names[window["name"]]}"')
            dropping = window["lead"][:-4]
            continue
        row = _ROW.match(line)
        if row and row["name"].strip() in names:
            name = names[row["name"].strip()]
            out.append(name.ljust(len(row["name"])) + row["tail"])
            continue
        out.append(line)
    text = "\n".join(out)
    for title, name in sorted(names.items(), key=lambda kv: -len(kv[0])):
        if len(title.strip()) >= 3:  # a title that short is no secret, and would eat ordinary words
            text = text.replace(title, name)
    return text


def _filter_text(text: str, titles: Sequence[str]) -> str:
    if not text.startswith('["'):
        return filter_prose(text, titles)
    try:
        parts = json.loads(text)
    except (ValueError, RecursionError):
        return filter_prose(text, titles)
    if not isinstance(parts, list):
        return filter_prose(text, titles)
    masked = [filter_prose(p, titles) if isinstance(p, str) else p for p in parts]
    return json.dumps(masked, ensure_ascii=False)


def mask_result(
    result: dict[str, Any], *, titles: Sequence[str], privacy: Privacy, mapping: Mapping | None
) -> dict[str, Any]:
    """The capture result with private windows masked in its text and images (S-PRIV-03, S-PRIV-04).

    Args:
        result: the upstream CallToolResult wire dict.
        titles: the private window titles (`policy.private.private_titles`).
        privacy: what to paint.
        mapping: the capture's mapping; None paints every image whole.

    Returns:
        A new result dict; the input unchanged when nothing is private.
    """
    if not privacy.count and not privacy.everywhere:
        return result
    whole = privacy.everywhere or mapping is None
    boxes = None if whole else pixel_boxes(mapping, privacy.rects) if mapping is not None else None
    content: list[Any] = []
    for item in result.get("content", []):
        if not isinstance(item, dict):
            content.append(item)
        elif item.get("type") == "text" and isinstance(item.get("text"), str):
            content.append({**item, "text": _filter_text(item["text"], titles)})
        elif item.get("type") == "image":
            painted = paint_png(item["data"], boxes) if isinstance(item.get("data"), str) else None
            content.append({**item, "data": painted} if painted else {"type": "text", "text": WITHHELD})
        else:
            content.append(item)
    return {**result, "content": content}


_QUOTED = re.compile(r"'([^'\n]{1,400})'")


def scrub_quoted_titles(result: dict[str, Any], is_private: Callable[[str], bool]) -> dict[str, Any]:
    """WaitFor names windows in its prose (`active window was 'TITLE'`): a private one becomes a placeholder.

    Args:
        result: the upstream result of a tool that prints window titles in single quotes.
        is_private: the effective patterns' `matches`.

    Returns:
        The result with every quoted private title replaced (text items and a string `structuredContent.result`).
    """

    def scrub(text: str) -> str:
        return _QUOTED.sub(lambda m: f"'{placeholder(1)}'" if is_private(m.group(1)) else m.group(0), text)

    content = [
        {**c, "text": scrub(c["text"])} if isinstance(c, dict) and isinstance(c.get("text"), str) else c
        for c in result.get("content", [])
    ]
    out = {**result, "content": content}
    structured = result.get("structuredContent")
    if isinstance(structured, dict) and isinstance(structured.get("result"), str):
        out["structuredContent"] = {**structured, "result": scrub(structured["result"])}
    return out
