"""What one upstream Snapshot/Screenshot said, as frozen values (DESIGN.md §3).

These are plain data: `gateway/observe/parse.py` builds a `Capture` from upstream prose,
`gateway/observe/coords.py` derives its `Mapping`, and `gateway/state/store.py` stamps both into an
`Observation` with an id, session, generation and time. `policy/` only reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Point = tuple[int, int]
Size = tuple[int, int]
Rect = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive, as upstream prints)

TreeState = Literal["present", "empty", "no_elements", "skipped", "absent"]
"""`present`: a tree with at least one line besides windows (element, structural or text);
`empty`: only `desktop` / bare windows;
`no_elements`: `UI Tree:\\nNo elements` (use_ui_tree=false); `skipped`: the Screenshot tool's
sentence; `absent`: no `UI Tree:` section at all (unexpected — a warning is recorded)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Display:
    """One `Visible Displays` item: `i:DEVICE (l,t,r,b)[ primary]`."""

    index: int
    device: str
    rect: Rect
    primary: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """One row of the Focused Window / Opened Windows tables."""

    name: str
    depth: int
    status: str
    width: int
    height: int
    handle: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Element:
    """One line of the semantic UI tree.

    `point` is a screen point (virtual-desktop physical pixels; never scaled) or None for
    structural/text lines. `flags` holds bare meta brackets (`focused`, `password`);
    `meta` holds keyed ones in order (`value`, `range`, `toggle`, `state`, `shortcut`, `v`, `h`),
    values as printed without their brackets (`("range", "0.0-100.0")`, `("v", "33.33")` without `%`).
    `depth` is 0 for lines directly under `desktop` (the top-level windows), +1 per level.
    `window` is the name of the depth-0 window line above (its own name for a window line;
    None under a depth-0 line that is not a window).
    """

    kind: Literal["window", "structural", "element", "text"]
    control: str
    name: str
    point: Point | None = None
    action: str | None = None
    flags: frozenset[str] = frozenset()
    meta: tuple[tuple[str, str], ...] = ()
    depth: int = 0
    window: str | None = None  # name of the enclosing top-level window line

    @property
    def value(self) -> str | None:
        for key, val in self.meta:
            if key == "value":
                return val
        return None

    @property
    def is_password(self) -> bool:
        return "password" in self.flags


@dataclass(frozen=True, slots=True, kw_only=True)
class Capture:
    """Everything one Snapshot/Screenshot result said, parsed by the grammar of FORMATS.md."""

    tool: str
    cursor: Point | None = None
    screenshot_size: Size | None = None  # `Screenshot Size: (W,H)` (scale 1.0)
    original_size: Size | None = None  # `Screenshot Original Size: (W,H)` (downscaled)
    coord_scale: float | None = None  # the printed `Screenshot Coordinate Scale`
    displays: tuple[Display, ...] = ()
    selected_displays: tuple[int, ...] | None = None
    region: Rect | None = None
    backend: str | None = None
    active_desktop: str | None = None
    desktops: tuple[str, ...] = ()
    focused: Window | None = None
    windows: tuple[Window, ...] = ()
    elements: tuple[Element, ...] = ()
    tree: TreeState = "absent"
    tree_truncated: bool = False
    tree_limit: int | None = None
    image_size: Size | None = None  # read from the PNG header of the image item
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Mapping:
    """image pixel → screen: `screen = origin + image_px × scale`, per axis (DESIGN.md §3)."""

    origin: tuple[float, float]
    scale: tuple[float, float]
    image_size: Size
    source_size: Size
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Privacy:
    """What `private_windows` masked in one capture (policy/private.py, S-PRIV-03).

    `rects` are screen rectangles that cover every placed private window (a superset: the
    union of every position its size and element points allow); `everywhere` means one could
    not be placed, so the whole capture was masked. `focused`: the focused window is private.
    """

    count: int = 0
    rects: tuple[Rect, ...] = ()
    everywhere: bool = False
    focused: bool = False


NO_PRIVACY = Privacy()


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """A `Capture` stamped by the gateway: one id forever, its session, generation and time."""

    id: str  # "obs-N", one process-wide counter, never reused
    session: str
    generation: int  # upstream capture count when this capture was taken (FORMATS.md §7)
    taken_at_ms: float  # wall clock, epoch milliseconds
    capture: Capture
    mapping: Mapping | None = None  # None when no image was taken or the mapping is unknown
    mapping_warnings: tuple[str, ...] = field(default=())
    use_dom: bool = False  # a Snapshot with use_dom: upstream's label table holds DOM nodes only
    private: Privacy = NO_PRIVACY  # what was masked before the model saw it (S-PRIV-03)

    @property
    def focused(self) -> Window | None:
        return self.capture.focused
