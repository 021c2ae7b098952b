"""The one mutable object of a running simulator: the current virtual desktop (S-SIM-03).

A :class:`World` starts from a frozen :class:`~gateway.sim.model.Scenario` and is changed by
tool calls (cursor, clipboard, files, windows) and by control-file operations (S-SIM-08). It also
holds upstream's server-side label table and the capture generation (S-SIM-06): both are shared
by every session of the server, exactly like upstream's ``Desktop.desktop_state``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gateway.sim.files import FakeFS, FakeRegistry
from gateway.sim.model import ControlState, Display, Process, Rect, Scenario, StartMenuApp, Window

log = logging.getLogger(__name__)

SCALE_ENV = "WINDOWS_MCP_SCREENSHOT_SCALE"
MAX_TREE_ENV = "WINDOWS_MCP_MAX_TREE_ELEMENTS"


@dataclass(frozen=True, slots=True, kw_only=True)
class LabelEntry:
    """One row of upstream's label table: what ``label=N`` resolves to (FORMATS §7)."""

    kind: str  # "interactive" | "scrollable"
    window: str
    control_type: str
    name: str
    center: tuple[int, int]
    bbox: Rect
    focused: bool = False
    value: str | None = None


def env_scale(environ: Mapping[str, str], default: float) -> float:
    """``WINDOWS_MCP_SCREENSHOT_SCALE`` as upstream reads it: invalid → 1.0, clamped to 0.1..1.0."""
    raw = environ.get(SCALE_ENV)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        log.warning("invalid %s value %r, using 1.0", SCALE_ENV, raw)
        return 1.0
    return max(0.1, min(1.0, value))


def env_max_tree(environ: Mapping[str, str], default: int) -> int:
    """``WINDOWS_MCP_MAX_TREE_ELEMENTS`` (default 500 upstream); invalid values are ignored."""
    raw = environ.get(MAX_TREE_ENV)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        log.warning("invalid %s value %r, keeping %d", MAX_TREE_ENV, raw, default)
        return default
    return max(1, value)


class World:
    """Current state of the virtual desktop plus upstream's label table."""

    def __init__(self, scenario: Scenario, environ: Mapping[str, str] | None = None) -> None:
        self.environ: Mapping[str, str] = dict(environ or {})
        self.generation = 0
        self.labels: tuple[LabelEntry, ...] | None = None
        self.load(scenario)

    def load(self, scenario: Scenario) -> None:
        """Replace the whole desktop by ``scenario``; the generation keeps counting."""
        self.scenario = scenario
        self.displays: tuple[Display, ...] = scenario.displays
        self.windows: list[Window] = list(scenario.windows)
        self.focus: str | None = scenario.focus
        self.cursor: tuple[int, int] = scenario.cursor
        self.active_desktop = scenario.active_desktop
        self.desktops: tuple[str, ...] = scenario.desktops
        self.screenshot_scale = env_scale(self.environ, scenario.screenshot_scale)
        self.max_tree_elements = env_max_tree(self.environ, scenario.max_tree_elements)
        self.backend = scenario.backend
        self.clipboard: str | None = scenario.clipboard
        self.processes: list[Process] = list(scenario.processes)
        self.start_menu: tuple[StartMenuApp, ...] = scenario.start_menu
        self.registry = FakeRegistry(scenario.registry)
        self.fs = FakeFS(scenario.files, home=scenario.home, clock=scenario.clock)
        self.powershell = dict(scenario.powershell)
        self.pages = dict(scenario.pages)
        self.control: ControlState = scenario.control
        self.user_control = scenario.user_control
        self.control_code = "USER_CONTROL"
        self.next_pid = scenario.next_pid
        self.labels = None  # a new desktop: "Desktop state is empty" until the next capture

    # -- geometry -------------------------------------------------------------------------
    @property
    def virtual_screen(self) -> Rect:
        """``GetVirtualScreenRect()``: the bounding box of all displays."""
        return Rect.union([d.rect for d in self.displays])

    # -- windows --------------------------------------------------------------------------
    def window(self, title: str) -> Window | None:
        """The window with exactly this title, if any."""
        return next((w for w in self.windows if w.title == title), None)

    def require_window(self, title: str) -> Window:
        """The window with this title; raises KeyError naming it when absent."""
        found = self.window(title)
        if found is None:
            raise KeyError(f"no window titled {title!r}")
        return found

    @property
    def focused_window(self) -> Window | None:
        """The active (foreground) app window, or None (FORMATS §4 ``No active window found``)."""
        if self.focus is None:
            return None
        win = self.window(self.focus)
        if win is None or win.kind != "app" or not win.visible:
            return None
        return win

    @property
    def focused_title(self) -> str | None:
        win = self.focused_window
        return None if win is None else win.title

    def put_window(self, old: Window, new: Window) -> None:
        """Swap one window value for another in place (keeps enumeration order)."""
        self.windows[self.windows.index(old)] = new
        if self.focus == old.title and new.title != old.title:
            self.focus = new.title

    def add_window(self, win: Window, *, focus: bool) -> None:
        """Open a window (replacing one with the same title) and optionally focus it."""
        existing = self.window(win.title)
        if existing is not None:
            self.windows.remove(existing)
        self.windows.append(win)
        if focus:
            self.focus = win.title

    def close_window(self, title: str) -> None:
        """Remove a window; focus is lost when it was the focused one."""
        self.windows.remove(self.require_window(title))
        if self.focus == title:
            self.focus = None

    def set_status(self, title: str, status: str) -> None:
        win = self.require_window(title)
        self.put_window(win, replace(win, status=status))

    # -- processes ------------------------------------------------------------------------
    def new_pid(self) -> int:
        pid = self.next_pid
        self.next_pid += 1
        return pid

    def kill(self, proc: Process) -> None:
        """End a fake process and close the windows it owned."""
        self.processes.remove(proc)
        for win in [w for w in self.windows if w.pid == proc.pid]:
            self.close_window(win.title)
