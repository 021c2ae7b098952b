"""Input tools: Click, Type, Scroll, Move, Shortcut, MultiSelect, MultiEdit (FORMATS §8-§9).

Texts, validation order and error messages follow upstream's ``tools/input.py`` and
``tools/multi.py``; every effect on the desktop is recorded (S-SIM-09). The simulated desktop
reacts a little: the cursor moves, typed text lands in the edit field under the point, a scroll
changes the scroll percentage of the container under the point. A click never moves focus or
windows (real Windows would raise the clicked window): tests move focus through the control file.
"""

from __future__ import annotations

import math
from dataclasses import replace

from gateway.sim.calls import (
    Call,
    Result,
    Text,
    ToolFailure,
    as_loc,
    check_bounds,
    element_at,
    point_of,
    resolve_label,
    strict_bool,
    update_element,
)

CLICK_WORDS = {0: "Hover", 1: "Single", 2: "Double"}
EDITABLE = frozenset({"Edit", "Document", "Combo Box"})


def _target(call: Call, loc: object, label: int | None) -> tuple[int, int]:
    loc = as_loc(loc)
    if loc is None and label is None:
        raise ToolFailure("Either loc or label must be provided.")
    if label is not None:
        return resolve_label(call.world, label)
    return point_of(loc)


def type_into(call: Call, point: tuple[int, int], text: str, *, clear: bool, caret: str) -> None:
    """Put typed text into the editable element under ``point`` (if any)."""
    hit = element_at(call.world, point, lambda e: e.control_type in EDITABLE)
    if hit is None:
        return
    win, el = hit
    shown = "" if el.password else (el.value or "")
    new = text if clear else (text + shown if caret == "start" else shown + text)
    value = "●" * len(new) if el.password else new
    update_element(call.world, win, el, replace(el, value=value))


async def click(call: Call) -> Result:
    a = call.args
    point = _target(call, a["loc"], a["label"])
    check_bounds(call.world, point)
    call.world.cursor = point
    call.effect("click" if a["clicks"] else "hover", point, button=a["button"], clicks=a["clicks"])
    return Text(f"{CLICK_WORDS.get(a['clicks'])} {a['button']} clicked at ({point[0]},{point[1]}).")


async def type_(call: Call) -> Result:
    a = call.args
    loc = as_loc(a["loc"])
    clear = strict_bool(a["clear"], "clear")
    press_enter = strict_bool(a["press_enter"], "press_enter")
    point = _target(call, loc, a["label"])
    check_bounds(call.world, point)
    call.world.cursor = point
    type_into(call, point, a["text"], clear=clear, caret=a["caret_position"])
    call.effect("type", point, text=a["text"], clear=clear, press_enter=press_enter)
    return Text(f"Typed {a['text']} at ({point[0]},{point[1]}).")


async def scroll(call: Call) -> Result:
    a = call.args
    loc = as_loc(a["loc"])
    if a["label"] is not None:
        loc = list(resolve_label(call.world, a["label"]))
    if loc and len(loc) != 2:
        raise ToolFailure("Location must be a list of exactly 2 integers [x, y]")
    kind, direction, times = a["type"], a["direction"], a["wheel_times"]
    if kind == "vertical" and direction not in ("up", "down"):
        return Text('Invalid direction. Use "up" or "down".')
    if kind == "horizontal" and direction not in ("left", "right"):
        return Text('Invalid direction. Use "left" or "right".')
    point = point_of(loc) if loc else call.world.cursor
    call.world.cursor = point
    hit = element_at(call.world, point, lambda e: e.scrollable)
    if hit is not None:
        win, el = hit
        sign = 1 if direction in ("down", "right") else -1
        if kind == "vertical":
            new = replace(el, v_scroll=max(0.0, min(100.0, (el.v_scroll or 0.0) + sign * 10.0 * times)))
        else:
            new = replace(el, h_scroll=max(0.0, min(100.0, (el.h_scroll or 0.0) + sign * 10.0 * times)))
        update_element(call.world, win, el, new)
    call.effect("scroll", point, type=kind, direction=direction, wheel_times=times)
    if not loc:
        return Text("")
    return Text(f"Scrolled {kind} {direction} by {times} wheel times at ({point[0]},{point[1]}).")


def _drag_point(value: object, name: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ToolFailure(f"{name} must be a list of exactly 2 integers [x, y]")
    out = []
    for item in value:
        if isinstance(item, bool):
            raise ToolFailure(f"{name} must contain integers, not booleans")
        if isinstance(item, str) and item.strip().lstrip("+-").isdigit():
            item = int(item.strip())
        if not isinstance(item, int):
            raise ToolFailure(f"{name} must contain exactly 2 integers")
        out.append(item)
    return out[0], out[1]


async def move(call: Call) -> Result:
    a = call.args
    loc, from_loc = as_loc(a["loc"]), as_loc(a["from_loc"])
    drag = strict_bool(a["drag"], "drag")
    if loc is None and a["label"] is None:
        raise ToolFailure("Either loc or label must be provided.")
    if a["label"] is not None:
        loc = list(resolve_label(call.world, a["label"]))
    if not isinstance(loc, list) or len(loc) != 2:
        raise ToolFailure("loc must be a list of exactly 2 integers [x, y]")
    if from_loc is not None and (not isinstance(from_loc, list) or len(from_loc) != 2):
        raise ToolFailure("from_loc must be a list of exactly 2 integers [x, y]")
    if (from_loc is not None or a["duration"] is not None) and not drag:
        raise ToolFailure("from_loc and duration require drag=True")
    if not drag:
        point = point_of(loc)
        call.world.cursor = point
        call.effect("move", point)
        return Text(f"Moved the mouse pointer to ({point[0]},{point[1]}).")
    point = _drag_point(loc, "loc")
    start = _drag_point(from_loc, "from_loc") if from_loc is not None else call.world.cursor
    duration = a["duration"]
    if duration is not None:
        try:
            duration = float(duration)
        except ValueError as exc:
            raise ToolFailure("duration must be a finite number") from exc
        if not math.isfinite(duration):
            raise ToolFailure("duration must be a finite number")
    call.world.cursor = point
    call.effect("drag", point, start=list(start), duration=duration)
    head = f"Dragged from ({start[0]},{start[1]}) to ({point[0]},{point[1]})"
    return Text(head + "." if duration is None else f"{head} over {duration:.3f} seconds.")


async def shortcut(call: Call) -> Result:
    call.effect("shortcut", None, keys=call.args["shortcut"])
    return Text(f"Pressed {call.args['shortcut']}.")


def _label_list(call: Call, raw: object) -> list[object]:
    value = as_loc(raw)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ToolFailure("labels must be a list")
    return value


async def multi_select(call: Call) -> Result:
    a = call.args
    locs = as_loc(a["locs"]) or []
    press_ctrl = strict_bool(a["press_ctrl"], "press_ctrl")
    points = [point_of(loc) for loc in locs]
    for label in _label_list(call, a["labels"]):
        if not isinstance(label, int):
            raise ToolFailure("labels must contain integers")
        points.append(resolve_label(call.world, label))
    if not points:
        raise ToolFailure("Either locs or labels must be provided.")
    for point in points:
        call.world.cursor = point
        call.effect("multiselect", point, press_ctrl=press_ctrl)
    return Text("Multi-selected elements at:\n" + "\n".join(f"({x},{y})" for x, y in points))


async def multi_edit(call: Call) -> Result:
    a = call.args
    edits: list[tuple[tuple[int, int], str]] = []
    for item in as_loc(a["locs"]) or []:
        if not isinstance(item, list) or len(item) != 3:
            raise ToolFailure("Each loc must be [x, y, text]")
        edits.append((point_of(item[:2]), str(item[2])))
    for item in _label_list(call, a["labels"]):
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int):
            raise ToolFailure("Each label entry must be [label, text]")
        edits.append((resolve_label(call.world, item[0]), str(item[1])))
    if not edits:
        raise ToolFailure("Either locs or labels must be provided.")
    for point, _ in edits:
        check_bounds(call.world, point)
    for point, text in edits:
        call.world.cursor = point
        type_into(call, point, text, clear=True, caret="idle")
        call.effect("multiedit", point, text=text)
    return Text("Multi-edited elements at: " + ", ".join(f"({x},{y}) with text '{t}'" for (x, y), t in edits))
