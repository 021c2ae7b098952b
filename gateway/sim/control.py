"""Changing the virtual desktop from outside the process (S-SIM-08).

Tests append JSON lines to a control file (``--control PATH`` / ``WINMCP_SIM_CONTROL``); the
simulator applies the lines added since its last look before it handles each call (and before
each WaitFor poll). Operations::

    {"op": "focus", "window": TITLE}                       focus (and restore) a window
    {"op": "move", "window": TITLE, "rect": [l,t,r,b]}     move/resize; its elements follow
    {"op": "close", "window": TITLE}
    {"op": "open", "window": {window table}, "focus": true}
    {"op": "window", "window": TITLE, "title"|"status"|"depth"|"rect": …}
    {"op": "element", "window": TITLE, "name": NAME, "set": {"value"|"name"|"rect"|"focused"|…: …}}
    {"op": "scenario", "name": NAME_OR_PATH}               replace the whole desktop
    {"op": "user_control", "on": true, "code": "USER_CONTROL", "wait_seconds": 9.98}
    {"op": "set", "cursor": [x,y], "screenshot_scale": …, "max_tree_elements": …,
                  "clipboard": …, "active_desktop": …, "desktops": […], "backend": …}

A line that is not valid (bad JSON, unknown op, unknown window) is logged to stderr and skipped.
"""

from __future__ import annotations

import json
import logging
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from gateway.sim.events import append_line
from gateway.sim.model import ControlState, Element, Rect, Window
from gateway.sim.scenarios.files import ScenarioError, load_scenario, parse_element, parse_window
from gateway.sim.world import World, env_max_tree, env_scale

log = logging.getLogger(__name__)


def send_control(path: str | Path, op: str, **fields: Any) -> None:
    """Append one control operation as a single JSON line (one ``write``; see events.py).

    Args:
        path: the simulator's control file (created when missing).
        op: the operation name (``focus``, ``move``, ``close``, ``open``, ``scenario`` …).
        **fields: the operation's fields, e.g. ``window="notes.txt - Notepad"``.
    """
    append_line(Path(path), {"op": op, **fields})


class ControlReader:
    """Reads the lines appended to a control file since the previous read."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.offset = 0

    def poll(self) -> list[dict[str, Any]]:
        """New complete lines as dicts; an incomplete last line waits for the next poll."""
        if self.path is None or not self.path.exists():
            return []
        with self.path.open("rb") as fh:
            fh.seek(self.offset)
            data = fh.read()
        end = data.rfind(b"\n") + 1
        self.offset += end
        ops: list[dict[str, Any]] = []
        for raw in data[:end].splitlines():
            if not raw.strip():
                continue
            try:
                op = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                log.warning("control: skipping a line that is not JSON (%s): %r", exc, raw[:200])
                continue
            if isinstance(op, dict):
                ops.append(op)
            else:
                log.warning("control: skipping a line that is not an object: %r", raw[:200])
        return ops


def _edit_element(
    elements: tuple[Element, ...], name: str, changes: dict[str, Any]
) -> tuple[tuple[Element, ...], bool]:
    out: list[Element] = []
    done = False
    for el in elements:
        if not done and el.name == name:
            el = replace(el, **changes)
            done = True
        elif not done:
            kids, done = _edit_element(el.children, name, changes)
            if done:
                el = replace(el, children=kids)
        out.append(el)
    return tuple(out), done


def _element_changes(raw: dict[str, Any]) -> dict[str, Any]:
    known = {f.name for f in fields(Element)}
    changes: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "rect":
            changes["rect"] = Rect(*value)
        elif key == "v":
            changes["v_scroll"] = value
        elif key == "h":
            changes["h_scroll"] = value
        elif key == "scroll_point":
            changes["scroll_point"] = tuple(value)
        elif key == "children":
            changes["children"] = tuple(parse_element(c) for c in value)
        elif key in known:
            changes[key] = value
        else:
            raise ValueError(f"unknown element field {key!r}")
    return changes


def apply_op(world: World, op: dict[str, Any]) -> None:
    """Apply one control operation to ``world``.

    Raises:
        ValueError / KeyError / ScenarioError: the operation is malformed or names nothing.
    """
    kind = op.get("op")
    if kind == "focus":
        win = world.require_window(op["window"])
        if not win.visible:
            world.set_status(win.title, "Normal")
        world.focus = win.title
    elif kind == "move":
        win = world.require_window(op["window"])
        world.put_window(win, win.moved_to(Rect(*op["rect"])))
    elif kind == "close":
        world.close_window(op["window"])
    elif kind == "open":
        world.add_window(parse_window(op["window"]), focus=bool(op.get("focus", True)))
    elif kind == "window":
        win = world.require_window(op["window"])
        new: Window = win.moved_to(Rect(*op["rect"])) if "rect" in op else win
        fields_: dict[str, Any] = {k: op[k] for k in ("title", "status", "depth", "kind", "process", "pid") if k in op}
        world.put_window(win, replace(new, **fields_))
    elif kind == "element":
        win = world.require_window(op["window"])
        changes = _element_changes(op.get("set", {}))
        kids, done = _edit_element(win.children, op["name"], changes)
        dom, done_dom = (win.dom, False) if done else _edit_element(win.dom, op["name"], changes)
        if not (done or done_dom):
            raise KeyError(f"window {win.title!r} has no element named {op['name']!r}")
        world.put_window(win, replace(win, children=kids, dom=dom))
    elif kind == "scenario":
        world.load(load_scenario(op["name"]))
    elif kind == "user_control":
        on = bool(op.get("on", True))
        world.user_control = on
        world.control_code = str(op.get("code", "USER_CONTROL"))
        world.control = ControlState(
            state=str(op.get("state", "user" if on else "ai")),
            generation=world.control.generation + 1,
            wait_seconds=float(op.get("wait_seconds", 9.98 if on else 0.0)),
        )
    elif kind == "set":
        _apply_set(world, op)
    else:
        raise ValueError(f"unknown control op {kind!r}")


def _apply_set(world: World, op: dict[str, Any]) -> None:
    for key, value in op.items():
        if key == "op":
            continue
        if key == "cursor":
            world.cursor = (int(value[0]), int(value[1]))
        elif key == "screenshot_scale":
            world.screenshot_scale = env_scale({"WINDOWS_MCP_SCREENSHOT_SCALE": str(value)}, 1.0)
        elif key == "max_tree_elements":
            world.max_tree_elements = env_max_tree({"WINDOWS_MCP_MAX_TREE_ELEMENTS": str(value)}, 500)
        elif key == "desktops":
            world.desktops = tuple(value)
        elif key in ("clipboard", "active_desktop", "backend"):
            setattr(world, key, value)
        else:
            raise ValueError(f"set: unknown field {key!r}")


def apply_pending(world: World, reader: ControlReader) -> int:
    """Apply every new control line; bad lines are logged and skipped. Returns how many applied."""
    applied = 0
    for op in reader.poll():
        try:
            apply_op(world, op)
            applied += 1
        except (KeyError, ValueError, TypeError, ScenarioError) as exc:
            log.warning("control: skipping %r: %s", op, exc)
    return applied
