"""The gateway's own checks of a call's arguments, beyond upstream's schema (S-ARG-02 … S-ARG-05).

Pure functions: values in, the first `Problem` (or None) out. Three passes, cheapest first:

1. `bounds_problem` — the whole argument tree: nesting, list and string sizes, finite numbers.
   It runs before the JSON Schema validator so no validator ever walks a hostile tree.
2. (the upstream's own `inputSchema`, in `gateway/pipeline/arguments.py`)
3. `shape_problem` — what the schema cannot say: a `loc` is a point `[x, y]` of two whole
   numbers inside the observed desktop, labels are numbers ≥ 0, target lists are short.

Upstream accepts a JSON *string* wherever a coordinate list may go ("[640, 480]", FORMATS.md
§8) and decodes it with `json.loads`; so do we, and the decoded value is what is checked.

The limits, each with where it came from:

==========================  ===============  ===================================================
limit                       value            why
==========================  ===============  ===================================================
`MAX_DEPTH`                 32               no upstream argument nests deeper than 3 levels
`MAX_ITEMS`                 1000             any list or object; App `args` is the longest list
`MAX_TARGETS`               100              MultiSelect/MultiEdit `locs`/`labels`: one call,
                                             one person-sized batch of clicks or edits
`MAX_STRING_BYTES`          1 MiB (UTF-8)    the client request bound of issue 12 item 5
`MAX_SAFE_INT`              2**53            the integers every JSON reader holds exactly
`COORD_MIN`…`COORD_MAX`     -32768…32767     what a Windows mouse message carries (GET_X_LPARAM
                                             is a signed 16-bit value)
`MAX_CLICKS`                3                upstream words 0 hover, 1 single, 2 double; ≥3 is
                                             printed "None" (FORMATS.md §9): triple at most
`MAX_WHEEL_TIMES`           100              a hundred notches scroll any real document far
`MAX_REFERENCE_LINES`       1000             a denser grid than one line per ~2 px says nothing
`MAX_DISPLAYS`              16               Windows' own limit on active displays is far lower
==========================  ===============  ===================================================
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

MAX_DEPTH = 32
MAX_ITEMS = 1000
MAX_TARGETS = 100
MAX_STRING_BYTES = 1 << 20
MAX_SAFE_INT = 2**53
COORD_MIN, COORD_MAX = -32768, 32767
MAX_CLICKS = 3
MAX_WHEEL_TIMES = 100
MAX_REFERENCE_LINES = 1000
MAX_DISPLAYS = 16

Rect: TypeAlias = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive)
Point: TypeAlias = tuple[int, int]

SCHEMA_REMEDY = "send arguments that match the tool's inputSchema in tools/list, then call again"
POINT_REMEDY = (
    "pass the point as [x, y]: two whole screen pixels, e.g. the (x,y) printed before an element in the "
    "latest Snapshot's UI tree"
)
DESKTOP_REMEDY = "take a Snapshot and pick a point inside the desktop it shows (Visible Displays)"
LABEL_REMEDY = "pass a label number (0 or more) from the latest annotated Snapshot, or a loc instead"
BATCH_REMEDY = f"split the work into calls of at most {MAX_TARGETS} targets each"
BOUNDS_REMEDY = "send smaller arguments: the limits are in the refusal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """Why a call's arguments are refused: the field (`loc`, `locs[3][0]`), what is wrong, what to do."""

    field: str
    what: str
    remedy: str = SCHEMA_REMEDY


def field_name(path: tuple[object, ...] | list[object]) -> str:
    """A path into the arguments as the model would write it: `loc[1]`, `labels[0][0]`, `a.b`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part).isidentifier():
            out += f".{part}" if out else str(part)
        else:  # a key the client made up: quoted and cut, so it cannot dress up the refusal
            out += f"[{_cut(repr(str(part)), 40)}]"
    return out or "(the arguments)"


def shown(value: object, limit: int = 60) -> str:
    """A short, one-line picture of a value for a refusal (never the whole of a huge one)."""
    if isinstance(value, list):
        return f"a list of {len(value)} items" if len(value) > 4 else _cut(repr(value), limit)
    if isinstance(value, dict):
        return "an object" if len(value) <= 1 else f"an object with {len(value)} keys"
    return _cut(repr(value), limit)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------
# 1. Bounds over the whole tree


def bounds_problem(args: Mapping[str, Any]) -> Problem | None:
    """The first place where the argument tree breaks a bound (module table), walking iteratively.

    Args:
        args: the call's arguments as the client sent them.

    Returns:
        The problem, or None when every value is within bounds.
    """
    stack: list[tuple[tuple[object, ...], object, int]] = [((), dict(args), 0)]
    while stack:
        path, value, depth = stack.pop()
        where = field_name(path)
        if depth > MAX_DEPTH:
            return Problem(field=where, what=f"nests deeper than {MAX_DEPTH} levels", remedy=BOUNDS_REMEDY)
        if isinstance(value, dict):
            if len(value) > MAX_ITEMS:
                return Problem(field=where, what=f"has {len(value)} keys (at most {MAX_ITEMS})", remedy=BOUNDS_REMEDY)
            # Reversed onto the stack, so the first bad value in reading order is the one named.
            stack.extend(reversed([((*path, str(k)), v, depth + 1) for k, v in value.items()]))
        elif isinstance(value, list | tuple):
            if len(value) > MAX_ITEMS:
                return Problem(field=where, what=f"has {len(value)} items (at most {MAX_ITEMS})", remedy=BOUNDS_REMEDY)
            stack.extend(reversed([((*path, i), v, depth + 1) for i, v in enumerate(value)]))
        elif isinstance(value, str):
            # Four bytes per character at most: encode only strings that could be too long.
            if len(value) * 4 > MAX_STRING_BYTES and len(value.encode("utf-8", "surrogatepass")) > MAX_STRING_BYTES:
                return Problem(field=where, what=f"is longer than {MAX_STRING_BYTES} bytes", remedy=BOUNDS_REMEDY)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int | float):
            problem = _number_problem(where, value)
            if problem is not None:
                return problem
        else:
            return Problem(field=where, what=f"is not a JSON value ({type(value).__name__})")
    return None


def _number_problem(where: str, value: float) -> Problem | None:
    if isinstance(value, float) and not math.isfinite(value):
        return Problem(field=where, what=f"is {value!r}: numbers must be finite", remedy=BOUNDS_REMEDY)
    if abs(value) > MAX_SAFE_INT:
        return Problem(field=where, what=f"is {shown(value)}, beyond ±2**53", remedy=BOUNDS_REMEDY)
    return None


# ---------------------------------------------------------------------------------------
# 3. Shapes the schema cannot say

Check: TypeAlias = Callable[[Mapping[str, Any], Rect | None], Problem | None]


def decoded(value: object) -> tuple[object, bool]:
    """`value`, or the JSON a string holds (upstream's `json.loads`); False when the string is not JSON."""
    if not isinstance(value, str):
        return value, True
    try:
        return json.loads(value), True
    except (ValueError, RecursionError):
        return None, False


def _coordinate(value: object) -> int | None:
    """A whole number that fits a mouse message, or None (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    number = int(value)
    return number if COORD_MIN <= number <= COORD_MAX else None


def _whole_numbers(value: object, count: int) -> tuple[int, ...] | None:
    if not isinstance(value, list) or len(value) != count:
        return None
    numbers = tuple(_coordinate(v) for v in value)
    return None if any(n is None for n in numbers) else numbers  # type: ignore[return-value]


def point_problem(where: str, raw: object, desktop: Rect | None) -> tuple[Point | None, Problem | None]:
    """Decode and check one point `[x, y]` (or its JSON string) against the desktop.

    Args:
        where: the field name for the refusal.
        raw: the value as sent.
        desktop: the observed virtual desktop, or None when unknown (then only the shape is checked).

    Returns:
        (the point, None) or (None, the problem).
    """
    value, ok = decoded(raw)
    if not ok:
        return None, Problem(field=where, what=f"is a string that is not JSON ({shown(raw)})", remedy=POINT_REMEDY)
    numbers = _whole_numbers(value, 2)
    if numbers is None:
        what = f"must be [x, y], two whole numbers from {COORD_MIN} to {COORD_MAX}; got {shown(value)}"
        return None, Problem(field=where, what=what, remedy=POINT_REMEDY)
    x, y = numbers
    if desktop is not None:
        left, top, right, bottom = desktop
        if not (left <= x < right and top <= y < bottom):
            what = f"({x}, {y}) is outside the observed desktop x={left}..{right - 1}, y={top}..{bottom - 1}"
            return None, Problem(field=where, what=what, remedy=DESKTOP_REMEDY)
    return (x, y), None


def aimed_point(tool: str, args: Mapping[str, Any]) -> Point | None:
    """The screen point a call that passed validation acts on (first of several), for the decision and audit.

    Args:
        tool: the upstream tool name.
        args: arguments that passed `shape_problem` (so `loc` and `label` are not both given).

    Returns:
        The point, or None when the call names none (a label, typing at the caret, scrolling in place).
    """
    raw: object = None
    if tool in ("Click", "Type", "Scroll", "Move"):
        raw = args.get("loc")
    elif tool in ("MultiSelect", "MultiEdit"):
        locs, ok = decoded(args.get("locs"))
        first = locs[0] if ok and isinstance(locs, list) and locs else None
        raw = first[:2] if tool == "MultiEdit" and isinstance(first, list) else first
    if raw is None:
        return None
    return point_problem("loc", raw, None)[0]


def _points(*names: str) -> Check:
    def check(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
        for name in names:
            if args.get(name) is not None:
                _, problem = point_problem(name, args[name], desktop)
                if problem is not None:
                    return problem
        return None

    return check


def _one_target(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
    # Upstream clicks the label and ignores loc (FORMATS.md §8): the audited point would be a lie.
    if args.get("label") is not None and args.get("loc") is not None:
        what = "and loc are both given; upstream would act on the label and ignore loc"
        return Problem(field="label", what=what, remedy="pass either loc or label, not both")
    return None


def _label_number(where: str, value: object) -> Problem | None:
    # Upstream indexes a Python list with the label: -1 would silently be the last element.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return Problem(field=where, what=f"must be a whole number 0 or more; got {shown(value)}", remedy=LABEL_REMEDY)
    return None


def _label(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
    return None if args.get("label") is None else _label_number("label", args["label"])


def _target_list(name: str, item: Callable[[str, object, Rect | None], Problem | None]) -> Check:
    def check(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
        if args.get(name) is None:
            return None
        value, ok = decoded(args[name])
        if not ok or not isinstance(value, list):
            what = f"must be a list (or its JSON string); got {shown(args[name])}"
            return Problem(field=name, what=what)
        if len(value) > MAX_TARGETS:
            return Problem(field=name, what=f"has {len(value)} items (at most {MAX_TARGETS})", remedy=BATCH_REMEDY)
        for i, entry in enumerate(value):
            problem = item(f"{name}[{i}]", entry, desktop)
            if problem is not None:
                return problem
        return None

    return check


def _select_loc(where: str, entry: object, desktop: Rect | None) -> Problem | None:
    return point_problem(where, entry, desktop)[1]


def _edit_loc(where: str, entry: object, desktop: Rect | None) -> Problem | None:
    if not isinstance(entry, list) or len(entry) != 3 or not isinstance(entry[2], str):
        return Problem(field=where, what=f'must be [x, y, "text"]; got {shown(entry)}', remedy=POINT_REMEDY)
    return point_problem(where, entry[:2], desktop)[1]


def _select_label(where: str, entry: object, desktop: Rect | None) -> Problem | None:
    return _label_number(where, entry)


def _edit_label(where: str, entry: object, desktop: Rect | None) -> Problem | None:
    if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], str):
        return Problem(field=where, what=f'must be [label, "text"]; got {shown(entry)}', remedy=LABEL_REMEDY)
    return _label_number(f"{where}[0]", entry[0])


def _int_range(name: str, low: int, high: int) -> Check:
    def check(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
        value = args.get(name)
        if value is None or isinstance(value, bool) or not isinstance(value, int | float):
            return None  # the schema judged the type
        if not low <= value <= high:
            return Problem(field=name, what=f"is {shown(value)}; it must be from {low} to {high}")
        return None

    return check


def _window(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
    if args.get("window_loc") is not None:
        _, problem = point_problem("window_loc", args["window_loc"], desktop)
        if problem is not None:
            return problem
    size = args.get("window_size")
    if size is not None:
        numbers = _whole_numbers(size, 2)
        if numbers is None or min(numbers) < 1:
            what = f"must be [width, height], two whole numbers from 1 to {COORD_MAX}; got {shown(size)}"
            return Problem(field="window_size", what=what)
    return None


def _region(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
    raw = args.get("region")
    if raw is None:
        return None
    value, ok = decoded(raw)
    numbers = _whole_numbers(value, 4) if ok else None
    if numbers is None or numbers[2] <= numbers[0] or numbers[3] <= numbers[1]:
        what = f"must be [left, top, right, bottom] with right > left and bottom > top; got {shown(value)}"
        return Problem(field="region", what=what)
    left, top, right, bottom = numbers
    if desktop is not None and not (
        left < desktop[2] and right > desktop[0] and top < desktop[3] and bottom > desktop[1]
    ):
        return Problem(field="region", what=f"{list(numbers)} does not overlap the observed desktop {list(desktop)}")
    return None


def _displays(args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
    value = args.get("display")
    if not isinstance(value, list):
        return None
    if len(value) > MAX_DISPLAYS:
        return Problem(field="display", what=f"has {len(value)} items (at most {MAX_DISPLAYS})")
    for i, index in enumerate(value):
        if isinstance(index, int | float) and not isinstance(index, bool) and not 0 <= index < MAX_DISPLAYS:
            return Problem(field=f"display[{i}]", what=f"is {shown(index)}; a display index is 0 to {MAX_DISPLAYS - 1}")
    return None


_CAPTURE: tuple[Check, ...] = (
    _region,
    _displays,
    _int_range("width_reference_line", 0, MAX_REFERENCE_LINES),
    _int_range("height_reference_line", 0, MAX_REFERENCE_LINES),
)
_CHECKS: dict[str, tuple[Check, ...]] = {
    "Click": (_one_target, _label, _points("loc"), _int_range("clicks", 0, MAX_CLICKS)),
    "Type": (_one_target, _label, _points("loc")),
    "Scroll": (_one_target, _label, _points("loc"), _int_range("wheel_times", 0, MAX_WHEEL_TIMES)),
    "Move": (_one_target, _label, _points("loc", "from_loc")),
    "MultiSelect": (_target_list("locs", _select_loc), _target_list("labels", _select_label)),
    "MultiEdit": (_target_list("locs", _edit_loc), _target_list("labels", _edit_label)),
    "App": (_window,),
    "Snapshot": _CAPTURE,
    "Screenshot": _CAPTURE,
}


def shape_problem(tool: str, args: Mapping[str, Any], desktop: Rect | None) -> Problem | None:
    """The first semantic problem of a call whose arguments passed the schema (module docstring).

    Args:
        tool: the upstream tool name.
        args: the call's arguments.
        desktop: the session's observed virtual desktop, or None when unknown.

    Returns:
        The problem, or None.
    """
    for check in _CHECKS.get(tool, ()):
        problem = check(args, desktop)
        if problem is not None:
            return problem
    return None
