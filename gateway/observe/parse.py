"""Upstream Snapshot/Screenshot result → `Capture` (DESIGN.md §3; FORMATS.md §1–§5).

The parser follows the grammar of FORMATS.md line by line and never raises: a line it
does not understand becomes a warning on the `Capture` (S-OBS-10), never a guess. Rules
the prior art got wrong, and how this module keeps them (S-OBS-09, S-OBS-06, S-OBS-07):

* elements come only from the `UI Tree:` section, so `Screenshot Region: (0,0,…)` or a
  window title that looks like `(10,20) button` is never an element;
* meta brackets (`[focused]` …) are read from the element's own line only;
* `No elements` is a sentinel, never an element, and nothing after it is parsed as one.

Sections are recognised by their stripped header after a blank line (tables never
contain blank lines, so a desktop called `UI Tree:` stays a table row). Tree lines are
not stripped: the whole tree is indented by four spaces when the truncation note
follows it (FORMATS §5.6), so the header's own indent is removed from each tree line.
The tree grammar (FORMATS §5.1–§5.2) is `gateway/observe/ui_tree.py`.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from gateway.observe.png import png_size_from_base64
from gateway.observe.ui_tree import parse_tree
from policy.observation import Capture, Display, Rect, Size, TreeState, Window

FailureKind = Literal["capture_error", "tool_error", "control", "no_text", "malformed", "unrecognized"]

# Upstream's desktop-control gate answers with raw JSON carrying one of these codes (FORMATS §6).
CONTROL_CODES = frozenset(
    {"USER_CONTROL", "TAKEOVER_PENDING", "CONTROL_UNAVAILABLE", "PHYSICAL_INPUT_HELD", "CONTROL_PREEMPTED"}
)
MAX_WARNINGS = 50  # garbage input must not produce an unbounded warning list (S-OBS-10)
_HEADERS = {
    "Active Desktop:": "active",
    "All Desktops:": "desktops",
    "Focused Window:": "focused",
    "Opened Windows:": "windows",
}
_STATUSES = frozenset({"Maximized", "Minimized", "Normal", "Hidden"})
_SKIPPED = "UI Tree: Skipped"
_INT = r"(-?\d+)"
_CURSOR = re.compile(rf"Cursor Position: (?:None|\({_INT},\s*{_INT}\))")
_SIZE = re.compile(r"Screenshot (Original )?Size: \((\d+),\s*(\d+)\)")
_SCALE = re.compile(r"Screenshot Coordinate Scale: (\S+)(?: .*)?", re.DOTALL)
_DISPLAY = re.compile(rf"(\d+):(.*?) \({_INT},{_INT},{_INT},{_INT}\)( primary)?(?:; |$)")
_SELECTED = re.compile(r"Selected Displays: (\d+(?:,\s*\d+)*)")
_REGION = re.compile(rf"Screenshot Region: \({_INT},\s*{_INT},\s*{_INT},\s*{_INT}\)")
_COORD_SPACE = "Coordinate Space: Virtual desktop coordinates"


@dataclass(frozen=True, slots=True, kw_only=True)
class CaptureFailure:
    """A Snapshot/Screenshot result that carries no observation (S-OBS-12).

    `kind`: `capture_error` (upstream's "Error capturing …"), `tool_error` (isError),
    `control` (the USER_CONTROL family), `no_text`, `malformed` (not a CallToolResult),
    `unrecognized` (text without any Snapshot/Screenshot section).
    """

    message: str
    kind: FailureKind = "tool_error"


class _Warnings:
    def __init__(self) -> None:
        self.items: list[str] = []
        self.dropped = 0

    def add(self, msg: str) -> None:
        if len(self.items) < MAX_WARNINGS:
            self.items.append(msg)
        else:
            self.dropped += 1

    def line(self, index: int, what: str, line: str) -> None:
        self.add(f"line {index + 1}: {what}: {line[:80]!r}")

    def result(self) -> tuple[str, ...]:
        if self.dropped:
            return (*self.items, f"… and {self.dropped} more warnings")
        return tuple(self.items)


def unwrap_text(text: str) -> tuple[str, tuple[str, ...]]:
    """Undo FastMCP's JSON-array serialisation of a list return (FORMATS §1, S-OBS-01).

    Args:
        text: the first text item of the result.

    Returns:
        `(prose, warnings)`. Text not starting with `["` is returned unchanged. A malformed
        envelope (for example cut off in transit) is repaired when closing it suffices,
        otherwise returned raw; either way with a warning.
    """
    if not text.startswith('["'):
        return text, ()
    try:
        return _join(json.loads(text))
    except (ValueError, RecursionError):
        pass
    for cut in range(0, 7):  # a cut-off escape such as `\u12` needs up to 6 characters removed
        try:
            prose, warns = _join(json.loads(text[: len(text) - cut] + '"]'))
        except (ValueError, RecursionError):
            continue
        return prose, (*warns, "JSON envelope was not closed; parsed the part that arrived")
    return text, ("JSON envelope is not valid JSON; parsed the raw text",)


def _join(value: object) -> tuple[str, tuple[str, ...]]:
    if not isinstance(value, list):
        raise ValueError("not a list")
    parts = [v for v in value if isinstance(v, str)]
    warns = ("JSON envelope holds non-string items; ignored them",) if len(parts) != len(value) else ()
    return "\n".join(parts), warns


def parse_text(tool: str, text: str) -> Capture:
    """Parse Snapshot/Screenshot prose (JSON envelope allowed) into a `Capture`; never raises.

    Args:
        tool: the upstream tool name (`Snapshot` or `Screenshot`), recorded on the Capture.
        text: the text item, wrapped or not.

    Returns:
        The Capture; lines not understood are listed in `warnings`. No image size (that
        comes from the image item, see `parse_result`).
    """
    if not isinstance(text, str):
        return Capture(tool=tool, warnings=("text is not a string",))
    return _parse(tool, *unwrap_text(text))[0]


def parse_result(tool: str, result: Any) -> Capture | CaptureFailure:
    """Parse a whole CallToolResult wire dict of Snapshot/Screenshot; never raises.

    Args:
        tool: the upstream tool name.
        result: `{"content": [{"type": "text", …}, {"type": "image", …}], "isError": …}`.

    Returns:
        A `Capture` (image size from the PNG header of the image item, S-OBS-11), or a
        `CaptureFailure` when the result carries no observation (S-OBS-12).
    """
    if not isinstance(result, dict) or not isinstance(result.get("content"), list):
        return CaptureFailure(message="result is not a CallToolResult with a content list", kind="malformed")
    content = [c for c in result["content"] if isinstance(c, dict)]
    texts = [c["text"] for c in content if c.get("type") == "text" and isinstance(c.get("text"), str)]
    images = [c for c in content if c.get("type") == "image"]
    first = texts[0] if texts else ""
    control = _control_code(first)
    if control:  # USER_CONTROL & co. arrive with isError true; refuse them whatever the flag says
        return CaptureFailure(message=f"{control}: a person holds the desktop", kind="control")
    if result.get("isError", result.get("is_error")) is True:
        return CaptureFailure(message=first.strip() or "isError result without text", kind="tool_error")
    if not first.strip():
        return CaptureFailure(message="result has no text item", kind="no_text")
    prose, envelope_warnings = unwrap_text(first)
    if prose.strip().startswith("Error capturing"):
        return CaptureFailure(message=prose.strip(), kind="capture_error")
    capture, recognised = _parse(tool, prose, envelope_warnings)
    if not recognised:
        return CaptureFailure(message=f"text is not a {tool} result: {prose.strip()[:120]!r}", kind="unrecognized")
    warns = list(capture.warnings)
    if len(texts) > 1:
        warns.append(f"result has {len(texts)} text items; parsed the first")
    image_size = _image_size(images, warns)
    printed = capture.screenshot_size or capture.original_size
    if image_size is None and not images and printed is not None:
        warns.append("text describes a screenshot but the result carries no image")
    if images and printed is None:
        warns.append("result carries an image but the text prints no screenshot size")
    return dataclasses.replace(capture, image_size=image_size, warnings=tuple(warns))


def _control_code(text: str) -> str | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    code = data.get("code") if isinstance(data, dict) else None
    return code if isinstance(code, str) and code in CONTROL_CODES else None


def _image_size(images: list[dict[str, Any]], warns: list[str]) -> Size | None:
    if not images:
        return None
    if len(images) > 1:
        warns.append(f"result carries {len(images)} images; measured the first")
    item = images[0]
    if item.get("mimeType") != "image/png":
        warns.append(f"image item is {item.get('mimeType')!r}, not image/png; image size unknown")
        return None
    size = png_size_from_base64(item.get("data"))  # type: ignore[arg-type]
    if size is None:
        warns.append("image item is not a readable PNG; image size unknown")
    return size


def _parse(tool: str, prose: str, envelope_warnings: tuple[str, ...]) -> tuple[Capture, bool]:
    """Walk the unwrapped prose section by section (FORMATS §2); also say whether any section was seen."""
    w = _Warnings()
    for msg in envelope_warnings:
        w.add(msg)
    if "\r" in prose:  # one CR before each LF (and at the very end) is a line end (FORMATS §1); others are content
        prose = prose.replace("\r\n", "\n")
        prose = prose[:-1] if prose.endswith("\r") else prose
    fields: dict[str, Any] = {}
    seen: set[str] = set()
    state, kind, block, tree_at, tree_from, header = "meta", "", [], -1, 0, ""
    for i, raw, after in _lines(prose):
        s = raw.strip()
        if state == "block":
            if s:
                block.append((i, raw))
                continue
            _table(kind, block, fields, w)
            state = "between"
            continue
        if s in _HEADERS:
            state, kind, block = "block", _HEADERS[s], []
            if kind in seen:
                w.line(i, "section repeated; the later one wins", raw)
            seen.add(kind)
        elif s == "UI Tree:":
            tree_at, tree_from, header = i, after, raw
            break
        elif state == "meta" and s:
            _meta(i, s, fields, seen, w)
        elif s:
            w.line(i, "unexpected line between sections", raw)
    if state == "block":
        _table(kind, block, fields, w)
    tree: TreeState = "skipped" if "skipped" in seen else "absent"
    if tree_at >= 0:
        seen.add("tree")
        indent = len(header) - len(header.lstrip(" "))
        result = parse_tree(prose, tree_from, tree_at + 1, indent, w)
        fields.update(elements=result.elements, tree_truncated=result.truncated, tree_limit=result.limit)
        if "skipped" in seen:
            w.add("text has both the Screenshot 'UI Tree: Skipped' line and a UI Tree section")
        tree = result.state
    elif tree == "absent":
        w.add("no 'UI Tree:' section")
    recognised = bool(seen & {"cursor", "focused", "windows", "tree", "skipped"})
    capture = Capture(tool=tool, tree=tree, warnings=w.result(), **fields)
    return capture, recognised


def _lines(prose: str) -> Iterator[tuple[int, str, int]]:
    """`(index, line, offset of the next line)` up to the tree, without splitting the whole prose."""
    pos = 0
    for i in itertools.count():
        nl = prose.find("\n", pos)
        if nl < 0:
            yield i, prose[pos:], len(prose) + 1
            return
        yield i, prose[pos:nl], nl + 1
        pos = nl + 1


def _meta(i: int, s: str, fields: dict[str, Any], seen: set[str], w: _Warnings) -> None:
    """One line of the metadata block (FORMATS §3)."""
    key = s.split(":", 1)[0]
    if key in seen and key != "UI Tree":
        w.line(i, "metadata line repeated; kept the first", s)
        return
    if m := _CURSOR.fullmatch(s):
        fields["cursor"] = (int(m[1]), int(m[2])) if m[1] is not None else None
        seen.add("cursor")
    elif m := _SIZE.fullmatch(s):
        fields["original_size" if m[1] else "screenshot_size"] = (int(m[2]), int(m[3]))
    elif m := _SCALE.fullmatch(s):
        value = _positive_float(m[1].rstrip())
        if value is None:
            w.line(i, "coordinate scale is not a positive number", s)
        fields["coord_scale"] = value
    elif s.startswith("Visible Displays: "):
        fields["displays"] = _displays(i, s[len("Visible Displays: ") :], w)
    elif m := _SELECTED.fullmatch(s):
        fields["selected_displays"] = tuple(int(v) for v in m[1].split(","))
    elif m := _REGION.fullmatch(s):
        region: Rect = (int(m[1]), int(m[2]), int(m[3]), int(m[4]))
        if region[2] <= region[0] or region[3] <= region[1]:
            w.line(i, "screenshot region is empty", s)
        fields["region"] = region
    elif s.startswith("Coordinate Space:"):
        if s != _COORD_SPACE:  # any other space would invalidate the mapping (S-MAP-01)
            w.line(i, "unknown coordinate space", s)
    elif s.startswith("Screenshot Backend: "):
        fields["backend"] = s[len("Screenshot Backend: ") :].strip()
    elif s.startswith(_SKIPPED):
        seen.add("skipped")
    else:
        w.line(i, "metadata line not understood", s)
        return
    seen.add(key)


def _positive_float(token: str) -> float | None:
    try:
        value = float(token)
    except ValueError:
        return None
    return value if 0 < value < float("inf") else None


def _displays(i: int, rest: str, w: _Warnings) -> tuple[Display, ...]:
    out: list[Display] = []
    pos = 0
    while pos < len(rest):
        m = _DISPLAY.match(rest, pos)
        if m is None:
            w.line(i, "display item not understood", rest[pos:])
            break
        rect: Rect = (int(m[3]), int(m[4]), int(m[5]), int(m[6]))
        if rect[2] <= rect[0] or rect[3] <= rect[1]:
            w.line(i, "display rectangle is empty", m[0])
        out.append(Display(index=int(m[1]), device=m[2], rect=rect, primary=bool(m[7])))
        pos = m.end()
    return tuple(out)


def _table(kind: str, block: list[tuple[int, str]], fields: dict[str, Any], w: _Warnings) -> None:
    """One tabulate block (FORMATS §4); window rows are split from the right."""
    sentinel = {"focused": "No active window found", "windows": "No windows found"}.get(kind)
    if sentinel and len(block) == 1 and block[0][1].strip() == sentinel:
        return
    window_table = kind in ("focused", "windows")
    rows = _rows(block, window_table, w)
    if kind == "active":
        if len(rows) != 1:
            w.add(f"Active Desktop table has {len(rows)} rows")
        if rows:
            fields["active_desktop"] = rows[0][1].strip()
    elif kind == "desktops":
        fields["desktops"] = tuple(r.strip() for _, r in rows)
    else:
        windows = tuple(win for i, r in rows if (win := _window_row(i, r, w)) is not None)
        if kind == "windows":
            fields["windows"] = windows
        elif windows:
            if len(windows) > 1:
                w.add(f"Focused Window table has {len(windows)} rows; used the first")
            fields["focused"] = windows[0]


def _rows(block: list[tuple[int, str]], window_table: bool, w: _Warnings) -> list[tuple[int, str]]:
    if not block:
        return []
    i, header = block[0]
    hs = header.strip()
    if not (hs.startswith("Name") and (hs.endswith("Handle") if window_table else hs == "Name")):
        w.line(i, "table header not understood", header)
        return []
    if len(block) < 2 or set(block[1][1].strip()) - {"-", " "} or not block[1][1].strip():
        w.line(block[min(1, len(block) - 1)][0], "table rule line missing", header)
        return []
    return block[2:]


def _window_row(i: int, row: str, w: _Warnings) -> Window | None:
    # From the right: emoji shift the columns left after tabulate (FORMATS §4), names may hold runs of spaces.
    parts = row.rsplit(None, 5)
    if len(parts) == 5:
        parts.insert(0, "")
    try:
        name, depth, status, width, height, handle = parts
        window = Window(
            name=name.strip(),
            depth=int(depth),
            status=status,
            width=int(width),
            height=int(height),
            handle=int(handle),
        )
    except ValueError:
        w.line(i, "window row not understood", row)
        return None
    if status not in _STATUSES:
        w.line(i, f"unknown window status {status!r}", row)
    return window
