"""Observation tools: Snapshot, Screenshot, Wait, WaitFor, DisplayInventory, ControlStatus.

Snapshot/Screenshot never raise: a failed capture is a ``[“Error capturing …”]`` text with
``isError`` false (FORMATS §6). Every capture replaces the shared label table (S-SIM-06);
WaitFor captures once per poll. Time is virtual: WaitFor reports the time its polls would have
taken without sleeping, and Wait returns at once unless the server runs with real waits.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from gateway.sim.calls import Call, Data, Listed, Result, Text, ToolFailure, lenient_bool, strict_bool
from gateway.sim.capture import Capture, CaptureError, CaptureRequest
from gateway.sim.model import Display
from gateway.sim.world import World

MAX_POLLS = 500  # a WaitFor never captures more often than this (120 s / 0.25 s default ≈ 481)
WAIT_CONDITIONS = ("text_exists", "active_window", "element_exists", "element_enabled", "focused_element")
WAIT_ALIASES = {
    "text": "text_exists",
    "window": "active_window",
    "element": "element_exists",
    "enabled": "element_enabled",
    "focused": "focused_element",
}


def _grid(call: Call) -> tuple[int, int] | None:
    w, h = call.args["width_reference_line"], call.args["height_reference_line"]
    return (int(w), int(h)) if w and h else None


async def snapshot(call: Call) -> Result:
    a = call.args
    request = CaptureRequest(
        use_vision=lenient_bool(a["use_vision"]), use_dom=lenient_bool(a["use_dom"]),
        use_annotation=lenient_bool(a["use_annotation"]), use_ui_tree=lenient_bool(a["use_ui_tree"]),
        display=a["display"], region=a["region"], grid=_grid(call),
    )  # fmt: skip
    try:
        result = call.capture(request)
    except CaptureError as exc:
        return Listed(f"Error capturing desktop state: {exc}. Please try again.")
    return Listed(result.text, result.png)


async def screenshot(call: Call) -> Result:
    a = call.args
    request = CaptureRequest(
        use_vision=True, use_dom=False, use_annotation=lenient_bool(a["use_annotation"]), use_ui_tree=False,
        display=a["display"], region=a["region"], grid=_grid(call), screenshot_tool=True,
    )  # fmt: skip
    try:
        result = call.capture(request)
    except CaptureError as exc:
        return Listed(f"Error capturing screenshot: {exc}. Please try again.")
    return Listed(result.text, result.png)


async def wait(call: Call) -> Result:
    await call.sleep(call.args["duration"])
    return Text(f"Waited for {call.args['duration']} seconds.")


def _matches(value: object, expected: str | None) -> bool:
    if expected is None:
        return True
    return value is not None and expected.casefold() in str(value).casefold()


def _text_sources(world: World, result: Capture) -> Iterator[object]:
    active = world.focused_window
    if active is not None:
        yield active.title
    for win in world.windows:
        if win.kind == "app":
            yield win.title
    for entry in result.labels:
        yield from (entry.name, entry.control_type, entry.window, entry.value)
    for win in world.windows:
        if win.is_browser and win.visible:
            yield from win.dom_text


def _condition(world: World, result: Capture, condition: str, text: str | None, window: str | None) -> tuple[bool, str]:
    if condition == "text_exists":
        if any(_matches(s, text) for s in _text_sources(world, result)):
            return True, f"text {text!r} appeared"
        return False, f"text {text!r} was absent"
    if condition == "active_window":
        active = world.focused_window
        name = active.title if active is not None else ""
        if _matches(name, window or text):
            return True, f"active window matched {name!r}"
        return False, f"active window was {name!r}"
    focused_only = condition == "focused_element"
    for entry in result.labels:
        if focused_only and not entry.focused:
            continue
        hit = _matches(entry.name, text) or _matches(entry.control_type, text) or _matches(entry.value, text)
        if hit and _matches(entry.window, window):
            prefix = "focused element" if focused_only else "element"
            return True, f"{prefix} matched {entry.name!r}"
    return False, "matching focused element was absent" if focused_only else "matching element was absent"


def _finite(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ToolFailure(f"{name} must be a finite number")
    return float(value)


async def wait_for(call: Call) -> Result:
    a = call.args
    timeout, interval = _finite(a["timeout"], "timeout"), _finite(a["interval"], "interval")
    text, window = a["text"], a["window_name"]
    condition = a["condition"].strip().lower().replace("-", "_")
    condition = WAIT_ALIASES.get(condition, condition)
    if condition not in WAIT_CONDITIONS:
        raise ToolFailure("condition must be one of: " + ", ".join(WAIT_CONDITIONS))
    if timeout <= 0 or timeout > 120:
        raise ToolFailure("timeout must be greater than 0 and at most 120 seconds")
    if interval <= 0 or interval > 5:
        raise ToolFailure("interval must be greater than 0 and at most 5 seconds")
    if condition == "text_exists" and not text:
        raise ToolFailure("text is required when condition is text_exists")
    if condition == "active_window" and not (text or window):
        raise ToolFailure("text or window_name is required when condition is active_window")
    if condition in ("element_exists", "element_enabled") and not (text or window):
        raise ToolFailure("text or window_name is required when condition is element_exists or element_enabled")
    use_dom = strict_bool(a["use_dom"], "use_dom")
    request = CaptureRequest(use_vision=False, use_dom=use_dom, use_annotation=False, use_ui_tree=True)
    elapsed, attempts = 0.0, 0
    while True:
        attempts += 1
        call.refresh()
        result = call.capture(request)
        matched, detail = _condition(call.world, result, condition, text, window)
        if matched:
            after = f"{elapsed:.2f}s and {attempts} attempt(s)"
            return Text(f"WaitFor condition '{condition}' satisfied after {after}: {detail}.")
        remaining = timeout - elapsed
        if remaining <= 0 or attempts >= MAX_POLLS:
            raise ToolFailure(f"Timed out after {timeout:.2f}s waiting for '{condition}': {detail}.")
        step = min(interval, remaining)
        await call.sleep(step)
        elapsed += step


def _rect_dict(display: Display, work: bool) -> dict[str, int]:
    r = (display.work_area or display.rect) if work else display.rect
    return {
        "left": r.left,
        "top": r.top,
        "right": r.right,
        "bottom": r.bottom,
        "width": r.width,
        "height": r.height,
    }


async def display_inventory(call: Call) -> Result:
    items = [
        {
            "index": i, "device": d.device, "primary": d.primary, "bounds": _rect_dict(d, False),
            "work_area": _rect_dict(d, True), "resolution": f"{d.rect.width}x{d.rect.height}",
            "orientation": "landscape" if d.rect.width >= d.rect.height else "portrait",
            "effective_dpi": d.effective_dpi, "scale": d.scale,
        }
        for i, d in enumerate(call.world.displays)
    ]  # fmt: skip
    return Data(items)


async def control_status(call: Call) -> Result:
    return Data(call.world.control.as_dict())
