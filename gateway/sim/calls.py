"""What a tool implementation gets and returns; upstream's small argument helpers (FORMATS §6-§8).

A tool is ``async def tool(call: Call) -> Result``. It raises :class:`ToolFailure` for what
upstream raises (rendered ``Error calling tool '{Tool}': {msg}`` with ``isError``), and returns
:class:`Text`, :class:`Data` (JSON results) or :class:`Listed` (Snapshot/Screenshot's list
return). Side effects go through :meth:`Call.effect` so each lands in the event log (S-SIM-09).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from gateway.sim.capture import Capture, CaptureRequest, capture
from gateway.sim.events import EventLog
from gateway.sim.model import Element, Window
from gateway.sim.world import World


class ToolFailure(Exception):
    """An exception upstream's tool would raise; the message is upstream's."""


@dataclass(frozen=True, slots=True)
class Text:
    """A ``-> str`` result (wrapped into structuredContent when the tool has an outputSchema)."""

    text: str


@dataclass(frozen=True, slots=True)
class Data:
    """A JSON result: DisplayInventory's list, ControlStatus's dict."""

    value: Any


@dataclass(frozen=True, slots=True)
class Listed:
    """Snapshot / Screenshot's ``[text]`` or ``[text, Image]`` return (FORMATS §1)."""

    text: str
    png: bytes | None = None


Result = Text | Data | Listed


@dataclass(slots=True)
class Call:
    """One tool call being served."""

    tool: str
    args: dict[str, Any]  # validated, defaults filled, original argument names
    raw_args: dict[str, Any]  # exactly what the client sent (logged)
    world: World
    events: EventLog
    refresh: Callable[[], None]  # apply pending control-file operations
    sleep: Callable[[float], Awaitable[None]]  # a real wait only with --real-waits

    def effect(self, kind: str, point: tuple[int, int] | None = None, **detail: Any) -> None:
        """Record one side effect on the virtual desktop (S-SIM-09)."""
        self.events.record(
            tool=self.tool, kind=kind, args=self.raw_args, screen_point=point,
            window=self.world.focused_title, generation=self.world.generation, detail=detail,
        )  # fmt: skip

    def capture(self, request: CaptureRequest) -> Capture:
        """Capture, install the new label table, bump the generation, log it (S-SIM-06)."""
        result = capture(self.world, request)
        self.world.labels = result.labels
        self.world.generation += 1
        self.effect("capture", None, labels=len(result.labels))
        return result


def lenient_bool(value: object) -> bool:
    """Snapshot-style booleans: True or the string ``"true"``; anything else is False."""
    return value is True or (isinstance(value, str) and value.lower() == "true")


def strict_bool(value: object, name: str) -> bool:
    """Input-tool booleans: ``true``/``false`` only (``clear must be true or false``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ToolFailure(f"{name} must be true or false")


def as_loc(value: object) -> Any:
    """A JSON-stringified list becomes a list again (clients that strip ``anyOf``)."""
    if value is None or isinstance(value, list):
        return value
    try:
        return json.loads(str(value))
    except json.JSONDecodeError as exc:
        raise ToolFailure(str(exc)) from exc


def point_of(loc: Any, message: str = "Location must be a list of exactly 2 integers [x, y]") -> tuple[int, int]:
    if (
        not isinstance(loc, list)
        or len(loc) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in loc)
    ):
        raise ToolFailure(message)
    return loc[0], loc[1]


def resolve_label(world: World, label: int) -> tuple[int, int]:
    """``label`` → the centre upstream's last capture recorded (FORMATS §7).

    A negative label is out of range here; upstream's exact handling of negatives is unknown.
    """
    if world.labels is None:
        raise ToolFailure("Desktop state is empty. Please call Snapshot first.")
    if not 0 <= label < len(world.labels):
        raise ToolFailure(f"Failed to find element with label {label}: Label {label} out of range")
    return world.labels[label].center


def check_bounds(world: World, point: tuple[int, int]) -> None:
    """Click/Type coordinates must lie on the virtual screen (FORMATS §6)."""
    s = world.virtual_screen
    if not s.contains(*point):
        raise ToolFailure(
            f"Coordinates ({point[0]},{point[1]}) are outside the desktop bounds "
            f"x={s.left}..{s.right - 1}, y={s.top}..{s.bottom - 1}"
        )


def _deepest(elements: tuple[Element, ...], x: int, y: int, want: Callable[[Element], bool]) -> Element | None:
    for el in reversed(elements):
        if el.rect.contains(x, y):
            inner = _deepest(el.children, x, y, want)
            if inner is not None:
                return inner
            if want(el):
                return el
    return None


def _swap(elements: tuple[Element, ...], old: Element, new: Element) -> tuple[Element, ...]:
    return tuple(new if el is old else replace(el, children=_swap(el.children, old, new)) for el in elements)


def element_at(world: World, point: tuple[int, int], want: Callable[[Element], bool]) -> tuple[Window, Element] | None:
    """The deepest wanted element under ``point`` in the frontmost window that has one."""
    focused = world.focused_window
    order = [w for w in world.windows if w.visible and w.kind in ("dialog", "taskbar")]
    order += ([focused] if focused is not None else []) + [w for w in world.windows if w.visible and w.kind == "app"]
    for win in order:
        if win.rect.contains(*point):
            found = _deepest(win.children + win.dom, *point, want)
            if found is not None:
                return win, found
    return None


def update_element(world: World, win: Window, old: Element, new: Element) -> None:
    """Replace one element of a window (value typed, scroll position changed)."""
    world.put_window(win, replace(win, children=_swap(win.children, old, new), dom=_swap(win.dom, old, new)))
