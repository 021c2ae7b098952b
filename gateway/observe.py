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
The tree grammar (FORMATS §5.1–§5.2) is the second half of this module.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from gateway._png import png_size_from_base64
from policy.observation import Capture, Display, Element, Point, Rect, Size, TreeState, Window

__all__ = ["CaptureFailure", "FailureKind", "parse_result", "parse_text", "unwrap_text"]

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
        return CaptureFailure(
            message=f"text is not a {tool} result: {prose.strip()[:120]!r}", kind="unrecognized"
        )
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
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in prose.split("\n")]
    fields: dict[str, Any] = {}
    seen: set[str] = set()
    state, kind, block, tree_at = "meta", "", [], -1
    for i, raw in enumerate(lines):
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
            tree_at = i
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
        result = _tree(lines, tree_at, w)
        fields.update(elements=result.elements, tree_truncated=result.truncated, tree_limit=result.limit)
        if "skipped" in seen:
            w.add("text has both the Screenshot 'UI Tree: Skipped' line and a UI Tree section")
        tree = result.state
    elif tree == "absent":
        w.add("no 'UI Tree:' section")
    recognised = bool(seen & {"cursor", "focused", "windows", "tree", "skipped"})
    capture = Capture(tool=tool, tree=tree, warnings=w.result(), **fields)
    return capture, recognised


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


# ---------------------------------------------------------------------------------------------
# The semantic tree (FORMATS §5): prefix, connector, node, meta brackets.

_UNITS = ("│   ", "    ")
_CONNECTORS = {"├── ": False, "└── ": True}  # value: the connector closes its parent's children
_COORDS = re.compile(r"\((-?\d+),(-?\d+)\) ")
_ACTION = '"  [action: '
_NUM = r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[+-]?\d+)?)"
# The brackets of §5.2 in their fixed order. `value` and `shortcut` may contain `]`, `"` and
# two spaces, so they are greedy and the rest of the line decides where they end.
_TAIL = re.compile(
    r"\[action: (?P<action>[^\]]*)\]"
    r"(?P<focused>  \[focused\])?"
    r"(?P<password>  \[password\])?"
    r'(?:  \[value:"(?P<value>.*)"\])?'
    rf"(?:  \[range:(?P<range>{_NUM}-{_NUM})\])?"
    r"(?:  \[toggle:(?P<toggle>[^\]]*)\])?"
    r"(?:  \[state:(?P<state>[^\]]*)\])?"
    r"(?:  \[shortcut:(?P<shortcut>.*)\])?"
    rf"(?:  \[v:(?P<v>{_NUM})%\])?"
    rf"(?:  \[h:(?P<h>{_NUM})%\])?",
    re.DOTALL,
)
_META_KEYS = ("value", "range", "toggle", "state", "shortcut", "v", "h")
_FLAG_SETS = {
    (False, False): frozenset(),
    (True, False): frozenset({"focused"}),
    (False, True): frozenset({"password"}),
    (True, True): frozenset({"focused", "password"}),
}
_NO_FLAGS: frozenset[str] = frozenset()
_TRUNCATED = re.compile(r"reached the (\d+)-element capture limit")
_MAX_JOIN = 8  # a UIA name with line breaks spans a few physical lines at most

_Node = tuple[str, str, str, Point | None, str | None, frozenset[str], tuple[tuple[str, str], ...], bool]


@dataclass(frozen=True, slots=True)
class _TreeResult:
    elements: tuple[Element, ...]
    state: TreeState
    truncated: bool
    limit: int | None


def _tree(lines: list[str], start: int, w: _Warnings) -> _TreeResult:
    """The `UI Tree:` section from `lines[start]` to the end (S-OBS-05…08)."""
    header = lines[start]
    indent = len(header) - len(header.lstrip(" "))
    margin = " " * indent
    body: list[tuple[int, str]] = []
    truncated, limit = False, None
    for i in range(start + 1, len(lines)):
        raw = lines[i]
        if raw.lstrip().startswith("... [truncated:"):
            truncated = True
            m = _TRUNCATED.search(raw)
            limit = int(m[1]) if m else None
            if m is None:
                w.line(i, "truncation note without an element limit", raw)
            for j in range(i + 1, len(lines)):
                if lines[j].strip():
                    w.line(j, "line after the truncation note", lines[j])
            break
        body.append((i, raw[indent:] if raw.startswith(margin) else raw))
    if indent and not truncated:
        w.add("the UI Tree section is indented but carries no truncation note")
    filled = [(i, ln) for i, ln in body if ln.strip()]
    if not filled:
        w.add("the UI Tree section is empty")
        return _TreeResult((), "absent", truncated, limit)
    i0, root = filled[0]
    if root.strip() == "No elements":
        for i, ln in filled[1:]:  # the sentinel ends the tree: nothing after it is an element (S-OBS-07)
            w.line(i, "line after 'No elements' ignored", ln)
        return _TreeResult((), "no_elements", truncated, limit)
    if root.strip() == "desktop":
        filled = filled[1:]
    else:
        w.line(i0, "the UI Tree does not start with 'desktop'", root)
    elements = _tree_lines(filled, w)
    state: TreeState = "present" if any(e.kind != "window" for e in elements) else "empty"
    return _TreeResult(elements, state, truncated, limit)


def _tree_lines(body: list[tuple[int, str]], w: _Warnings) -> tuple[Element, ...]:
    out: list[Element] = []
    prefixes = [""]  # prefixes[d]: the exact prefix a line at depth d must carry
    top: Element | None = None  # the current depth-0 line, for Element.window
    k = 0
    while k < len(body):
        i, line = body[k]
        split = _split_prefix(line)
        if split is None:
            w.line(i, "tree line not understood", line)
            k += 1
            continue
        depth, last, rest = split
        node, used = _node(rest), 1
        if node is None:
            node, used = _joined(body, k, rest)
            if node is None:
                w.line(i, "tree node not understood", line)
                k += 1
                continue
            w.line(i, f"element name spans {used} lines; joined them", line)
        if node[7]:
            w.line(i, "meta brackets outside the documented grammar", line)
        if depth >= len(prefixes):
            w.line(i, "tree nesting jumps a level", line)
        elif line[: 4 * depth] != prefixes[depth]:
            w.line(i, "tree prefix does not match its parents", line)
        del prefixes[depth + 1 :]
        prefixes.append(line[: 4 * depth] + ("    " if last else "│   "))
        kind, control, name, point, action, flags, meta, _ = node
        window = name if depth == 0 and kind == "window" else None
        if depth > 0 and top is not None and top.kind == "window":
            window = top.name
        element = Element(
            kind=kind,  # type: ignore[arg-type]
            control=control,
            name=name,
            point=point,
            action=action,
            flags=flags,
            meta=meta,
            depth=depth,
            window=window,
        )
        if depth == 0:
            top = element
        out.append(element)
        k += used
    return tuple(out)


def _split_prefix(line: str) -> tuple[int, bool, str] | None:
    pos = 0
    while line[pos : pos + 4] in _UNITS:
        pos += 4
    last = _CONNECTORS.get(line[pos : pos + 4])
    if last is None:
        return None
    return pos // 4, last, line[pos + 4 :]


def _joined(body: list[tuple[int, str]], k: int, rest: str) -> tuple[_Node | None, int]:
    """Retry a failed node with the following non-tree lines: a UIA name may hold line breaks (§5.1)."""
    joined = rest
    for extra in range(1, _MAX_JOIN + 1):
        if k + extra >= len(body) or _split_prefix(body[k + extra][1]) is not None:
            break
        joined += "\n" + body[k + extra][1]
        node = _node(joined)
        if node is not None:
            return node, extra + 1
    return None, 1


def _node(rest: str) -> _Node | None:
    """One node after the connector: element, window, structural or text line (§5.1)."""
    if rest.startswith("("):
        m = _COORDS.match(rest)
        return _element(rest, (int(m[1]), int(m[2])), m.end()) if m else None
    if rest.endswith('"'):
        q = rest.find(' "')
        if q > 0 and len(rest) >= q + 3:
            control = rest[:q]
            kind = "window" if control == "window" else "text" if control == "text" else "structural"
            return kind, control, rest[q + 2 : -1], None, None, _NO_FLAGS, (), False
    return None


def _element(rest: str, point: Point, start: int) -> _Node | None:
    q = rest.find('"', start)  # the first quote after CTRL opens the name
    if q <= start + 1 or rest[q - 1] != " ":
        return None
    control = rest[start : q - 1]
    # The name ends at the last `"  [action: ` whose remainder parses; scanning leftwards
    # only matters when a value itself contains that text.
    end, fallback = len(rest), -1
    while (a := rest.rfind(_ACTION, q + 1, end)) >= 0:
        m = _TAIL.fullmatch(rest, a + 3)
        if m is not None:
            if m.lastgroup == "action":  # the common line without any meta bracket
                return "element", control, rest[q + 1 : a], point, m["action"], _NO_FLAGS, (), False
            flags = _FLAG_SETS[m["focused"] is not None, m["password"] is not None]
            meta = tuple((key, m[key]) for key in _META_KEYS if m[key] is not None)
            return "element", control, rest[q + 1 : a], point, m["action"], flags, meta, False
        fallback = a if fallback < 0 else fallback
        end = a + len(_ACTION) - 1
    if fallback < 0:
        return None
    return _lenient(rest, point, control, rest[q + 1 : fallback], rest[fallback + 3 :])


def _lenient(rest: str, point: Point, control: str, name: str, tail: str) -> _Node | None:
    """Keep an element whose brackets break the documented order; the caller warns (S-OBS-10)."""
    m = re.match(r"\[action: ([^\]]*)\]", tail)
    if m is None:
        return None
    flags: set[str] = set()
    meta: list[tuple[str, str]] = []
    for part in tail[m.end() :].split("  [")[1:]:
        part = part[:-1] if part.endswith("]") else part
        if part in ("focused", "password"):
            flags.add(part)
        elif ":" in part:
            key, val = part.split(":", 1)
            if key == "value" and len(val) >= 2 and val[0] == val[-1] == '"':
                val = val[1:-1]
            meta.append((key, val[:-1] if key in ("v", "h") and val.endswith("%") else val))
    return "element", control, name, point, m[1], frozenset(flags), tuple(meta), True
