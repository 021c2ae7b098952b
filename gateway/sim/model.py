"""Values of the virtual desktop: rectangles, displays, UI elements, windows, processes.

Everything here is a frozen value (S-SIM-03). The mutable state of a running simulator lives in
one :class:`gateway.sim.world.World` object, which swaps these values with ``dataclasses.replace``.

Coordinates are virtual-desktop physical pixels like upstream's (FORMATS §3.1): they may be
negative, rectangles are ``(left, top, right, bottom)`` with right/bottom exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

# UIA control types that are interactive by default (upstream decides by control type and
# patterns; the simulator lets a scenario override it per element with ``role``).
INTERACTIVE_TYPES = frozenset(
    {
        "Button",
        "Menu Item",
        "Edit",
        "Document",
        "List Item",
        "Check Box",
        "Combo Box",
        "Radio Button",
        "Slider",
        "Link",
        "Hyperlink",
        "Tab Item",
        "Tree Item",
        "Split Button",
        "Data Item",
        "Spinner",
    }
)
# Containers that become a nested ``ctrl "name"`` line when they end up with children (FORMATS §5.3).
STRUCTURAL_TYPES = frozenset(
    {"Pane", "Group", "Custom", "Tool Bar", "Tab", "Menu Bar", "Menu", "List", "Tree", "Status Bar", "Table"}
)
BROWSER_PROCESSES = frozenset({"chrome.exe", "msedge.exe", "firefox.exe"})
WINDOW_STATUSES = frozenset({"Normal", "Minimized", "Maximized", "Hidden"})
# Where Windows parks a minimized window; upstream then reports a 160x28 box (FORMATS §4).
MINIMIZED_RECT = (-32000, -32000, -31840, -31972)


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle, right/bottom exclusive."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top

    @property
    def empty(self) -> bool:
        return self.right <= self.left or self.bottom <= self.top

    def intersect(self, other: Rect) -> Rect | None:
        """Return the overlap of two rectangles, or None when they do not overlap."""
        out = Rect(
            max(self.left, other.left),
            max(self.top, other.top),
            min(self.right, other.right),
            min(self.bottom, other.bottom),
        )
        return None if out.empty else out

    def contains(self, x: int, y: int) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def center(self) -> tuple[int, int]:
        """Centre with floor division, as upstream's ``BoundingBox.get_center``."""
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2

    def translate(self, dx: int, dy: int) -> Rect:
        return Rect(self.left + dx, self.top + dy, self.right + dx, self.bottom + dy)

    def xyxy(self) -> str:
        return f"({self.left},{self.top},{self.right},{self.bottom})"

    def as_list(self) -> list[int]:
        return [self.left, self.top, self.right, self.bottom]

    @staticmethod
    def union(rects: list[Rect]) -> Rect:
        """Bounding rectangle of several rectangles (the virtual screen of several displays)."""
        return Rect(
            min(r.left for r in rects),
            min(r.top for r in rects),
            max(r.right for r in rects),
            max(r.bottom for r in rects),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Display:
    """One monitor; ``device`` is e.g. ``\\\\.\\DISPLAY1``."""

    device: str
    rect: Rect
    primary: bool = False
    work_area: Rect | None = None
    effective_dpi: int = 96
    scale: float = 1.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Element:
    """A UI Automation element as the simulator needs it (FORMATS §5.1-§5.2)."""

    control_type: str
    name: str
    rect: Rect
    children: tuple[Element, ...] = ()
    role: str = ""  # "interactive" | "structural" | "plain"; "" = by control type
    localized: str | None = None  # LocalizedControlType; default control_type.lower()
    enabled: bool = True
    focused: bool = False
    password: bool = False
    value: str | None = None
    range: tuple[float, float] | None = None
    toggle: str | None = None
    state: str | None = None
    shortcut: str | None = None
    v_scroll: float | None = None  # a scrollable element has a vertical percentage (FORMATS §5.2)
    h_scroll: float | None = None
    scroll_point: tuple[int, int] | None = None  # upstream prints a random point; fixed here

    def __post_init__(self) -> None:
        if self.role not in ("", "interactive", "structural", "plain"):
            raise ValueError(f"element {self.name!r}: unknown role {self.role!r}")

    @property
    def kind(self) -> str:
        if self.role:
            return self.role
        if self.control_type in INTERACTIVE_TYPES:
            return "interactive"
        if self.control_type in STRUCTURAL_TYPES:
            return "structural"
        return "plain"

    @property
    def ctrl(self) -> str:
        """The CTRL word printed in the tree: ``LocalizedControlType.title().lower()``."""
        return (self.localized or self.control_type).title().lower()

    @property
    def scrollable(self) -> bool:
        return self.v_scroll is not None

    def translate(self, dx: int, dy: int) -> Element:
        """The same element moved by (dx, dy), children and scroll point included."""
        point = self.scroll_point
        return replace(
            self,
            rect=self.rect.translate(dx, dy),
            children=tuple(c.translate(dx, dy) for c in self.children),
            scroll_point=None if point is None else (point[0] + dx, point[1] + dy),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """A top-level window. ``kind`` decides tables and traversal (FORMATS §4, §5.3):

    * ``app`` — listed in Focused/Opened Windows; traversed only when focused (or in region mode);
    * ``taskbar`` / ``dialog`` — never listed, always traversed;
    * ``desktop`` — Program Manager: never listed, traversed only when no window is active.
    """

    title: str
    handle: int
    rect: Rect
    status: str = "Normal"
    kind: str = "app"
    depth: int = 1
    process: str = ""
    pid: int | None = None
    children: tuple[Element, ...] = ()
    dom: tuple[Element, ...] = ()  # browser page elements (FORMATS §5.5)
    dom_text: tuple[str, ...] = ()
    # Two exact RGB values the renderer paints as a checkerboard over the content area, so a test
    # can prove no pixel of this window left the gateway (the `private` scenario, S-PRIV-08).
    pattern: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None

    def __post_init__(self) -> None:
        if self.status not in WINDOW_STATUSES:
            raise ValueError(f"window {self.title!r}: status must be one of {sorted(WINDOW_STATUSES)}")
        if self.kind not in ("app", "taskbar", "dialog", "desktop"):
            raise ValueError(f"window {self.title!r}: unknown kind {self.kind!r}")

    @property
    def is_browser(self) -> bool:
        return self.process.lower() in BROWSER_PROCESSES

    @property
    def visible(self) -> bool:
        return self.status not in ("Minimized", "Hidden")

    @property
    def reported_rect(self) -> Rect:
        """The box upstream reports: a parked 160x28 box while minimized."""
        return Rect(*MINIMIZED_RECT) if self.status == "Minimized" else self.rect

    def moved_to(self, rect: Rect) -> Window:
        """The window with a new rectangle; its elements follow the top-left corner."""
        dx, dy = rect.left - self.rect.left, rect.top - self.rect.top
        return replace(
            self,
            rect=rect,
            children=tuple(c.translate(dx, dy) for c in self.children),
            dom=tuple(c.translate(dx, dy) for c in self.dom),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Process:
    """A row of the fake process table (Process tool)."""

    pid: int
    name: str
    cpu: float = 0.0
    memory_mb: float = 10.0
    protected: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class StartMenuApp:
    """An entry of the fake Start menu used by App launch; ``window`` opens when launched."""

    name: str
    detected: bool = True
    window: Window | None = None
    process: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ControlState:
    """Upstream's desktop-control gate status (ControlStatus, FORMATS §6)."""

    state: str = "ai"
    generation: int = 2
    wait_seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        return {"state": self.state, "generation": self.generation, "wait_seconds": self.wait_seconds}


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """A whole starting world (S-SIM-05); built in or loaded from a JSON/TOML file."""

    name: str
    displays: tuple[Display, ...]
    windows: tuple[Window, ...] = ()
    focus: str | None = None
    cursor: tuple[int, int] = (0, 0)
    active_desktop: str = "Default Desktop"
    desktops: tuple[str, ...] = ("Default Desktop",)
    screenshot_scale: float = 1.0
    max_tree_elements: int = 500
    backend: str = "dxcam"
    clipboard: str | None = None
    processes: tuple[Process, ...] = ()
    start_menu: tuple[StartMenuApp, ...] = ()
    registry: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    home: str = "C:/Users/demo"
    clock: str = "2026-12-02 09:31:30"
    powershell: dict[str, tuple[str, int]] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    control: ControlState = ControlState()
    user_control: bool = False
    next_pid: int = 4242

    def __post_init__(self) -> None:
        if not self.displays:
            raise ValueError(f"scenario {self.name!r}: at least one display is required")
        titles = [w.title for w in self.windows]
        if self.focus is not None and self.focus not in titles:
            raise ValueError(f"scenario {self.name!r}: focus {self.focus!r} names no window")
        if not 0.1 <= self.screenshot_scale <= 1.0:
            raise ValueError(f"scenario {self.name!r}: screenshot_scale must be within 0.1..1.0")
        if self.max_tree_elements < 1:
            raise ValueError(f"scenario {self.name!r}: max_tree_elements must be positive")
