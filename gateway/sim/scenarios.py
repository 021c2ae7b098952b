"""Built-in scenarios: the worlds behind the upstream samples (S-SIM-05).

Each world is laid out so that the upstream sample named beside it is reproduced byte for byte
(``tests/sim/test_samples.py``): element boxes are read from the samples' ``labels.json``; the
window geometry follows from them (a Notepad at (l,t,r,b) has File at (l+8, t+40), its editor at
(l+8, t+70, r-8, b-30), Close at (r-46, t)). Scrollable points are the ones printed in the sample.

========================  =============================================================
``default``               samples/01, 09, 11, 12 and tool_outputs.json: 1920x1080, Notepad
                          focused, Explorer minimized, Chrome behind, taskbar
``hidpi``                 samples/02: one 2560x1440 display (image downscaled 1.333333)
``dual-right``            samples/03: DISPLAY2 right of the primary, Notepad on it
``dual-negative``         samples/04a/04b: DISPLAY2 at (-1920,0), Notepad on it
``settings``              samples/05: Settings with a rich tree, a Save As dialog
``empty``                 samples/07: no app window at all
``truncated``             samples/08: 40 invoices, element budget 12
``browser``               samples/10/10b: Chrome maximized on example.com
``user-control``          ``default`` while the person at the desk holds control
========================  =============================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gateway.sim.model import ControlState, Display, Element, Process, Rect, Scenario, StartMenuApp, Window

HANDLES = {"notepad": 1706796, "explorer": 3935530, "chrome": 2821150, "taskbar": 65552, "progman": 65556}


def el(control_type: str, name: str, rect: tuple[int, int, int, int], *children: Element, **kw: object) -> Element:
    """Shorthand element constructor used by the built-in worlds."""
    return Element(control_type=control_type, name=name, rect=Rect(*rect), children=children, **kw)  # type: ignore[arg-type]


def display(index: int, rect: tuple[int, int, int, int], *, primary: bool = False) -> Display:
    work = (rect[0], rect[1], rect[2], rect[3] - 48) if primary else rect  # taskbar on the primary
    return Display(device=f"\\\\.\\DISPLAY{index}", rect=Rect(*rect), primary=primary, work_area=Rect(*work))


def notepad(
    rect: tuple[int, int, int, int],
    *,
    scroll_point: tuple[int, int],
    title: str = "notes.txt - Notepad",
    depth: int = 2,
) -> Window:
    x0, t, r, b = rect
    return Window(
        title=title, handle=HANDLES["notepad"], rect=Rect(*rect), depth=depth,
        process="notepad.exe", pid=4321,
        children=(
            el("Button", "Minimize", (r - 138, t, r - 92, t + 32)),
            el("Button", "Maximize", (r - 92, t, r - 46, t + 32)),
            el("Button", "Close", (r - 46, t, r, t + 32)),
            el(
                "Menu Bar", "Application", (x0 + 8, t + 40, x0 + 200, t + 64),
                el("Menu Item", "File", (x0 + 8, t + 40, x0 + 48, t + 64)),
                el("Menu Item", "Edit", (x0 + 48, t + 40, x0 + 88, t + 64)),
                el("Menu Item", "View", (x0 + 88, t + 40, x0 + 128, t + 64)),
            ),
            el(
                "Document", "Text editor", (x0 + 8, t + 70, r - 8, b - 30),
                focused=True, value="Hello world", v_scroll=0.0, scroll_point=scroll_point,
            ),
            el("Status Bar", "Status bar", (x0 + 8, b - 28, r - 8, b - 2),
               el("Text", "Ln 1, Col 12", (x0 + 8, b - 26, x0 + 120, b - 4))),
        ),
    )  # fmt: skip


def chrome(rect: tuple[int, int, int, int], *, depth: int, status: str = "Normal") -> Window:
    x0, t, r, b = rect
    return Window(
        title="Example Domain - Google Chrome", handle=HANDLES["chrome"], rect=Rect(*rect), depth=depth,
        status=status, process="chrome.exe", pid=5120,
        children=(
            el("Tab Item", "Example Domain", (x0 + 10, t, x0 + 250, t + 40)),
            el("Button", "Reload", (x0 + 90, t + 44, x0 + 126, t + 80)),
            el("Edit", "Address and search bar", (x0 + 200, t + 44, min(r - 20, x0 + 1500), t + 80)),
        ),
        dom=(
            el("Document", "Example Domain", (x0, t + 90, r, b), value="https://example.com/", v_scroll=0.0,
               scroll_point=(x0 + 1094, t + 303)),
            el("Link", "Learn more", (x0 + 600, t + 320, x0 + 700, t + 340)),
            el("Edit", "Search", (x0 + 600, t + 360, x0 + 1000, t + 390)),
        ),
        dom_text=("Example Domain", "This domain is for use in documentation examples."),
    )  # fmt: skip


def downloads(depth: int = 1) -> Window:
    return Window(
        title="Downloads - File Explorer", handle=HANDLES["explorer"], rect=Rect(400, 200, 1400, 900),
        status="Minimized", depth=depth, process="explorer.exe", pid=1200,
    )  # fmt: skip


def taskbar(width: int, bottom: int, running: tuple[str, ...], *, empty: bool = False) -> Window:
    top = bottom - 48
    apps = tuple(
        el("Button", f"{name} - 1 running window", (144 + 48 * i, top, 192 + 48 * i, bottom))
        for i, name in enumerate(running)
    )
    pane = el(
        "Pane", "Taskbar", (0, top, width, bottom),
        el("Button", "Start", (0, top, 48, bottom)),
        el("Button", "Search", (48, top, 96, bottom)),
        el("Button", "Task View", (96, top, 144, bottom)),
        el("Tool Bar", "Running applications", (144, top, 144 + 48 * max(1, len(running)), bottom), *apps),
        el("Button", "Clock 10:42 AM 5/14/2026", (width - 120, top, width, bottom)),
    )  # fmt: skip
    return Window(
        title="Taskbar", handle=HANDLES["taskbar"], rect=Rect(0, top, width, bottom), kind="taskbar",
        process="explorer.exe", pid=1200, children=() if empty else (pane,),
    )  # fmt: skip


def program_manager(width: int, height: int, *, icons: bool = True) -> Window:
    items = (
        el("List", "Desktop", (0, 0, width, height - 48),
           el("List Item", "Recycle Bin", (10, 10, 84, 84)),
           el("List Item", "report.docx", (10, 90, 84, 164))),
    )  # fmt: skip
    return Window(
        title="Program Manager", handle=HANDLES["progman"], rect=Rect(0, 0, width, height), kind="desktop",
        process="explorer.exe", pid=1200, children=items if icons else (),
    )  # fmt: skip


PROCESSES = (
    Process(pid=4, name="System", cpu=0.1, memory_mb=0.1, protected=True),
    Process(pid=1475, name="bash", memory_mb=4.0),
    Process(pid=2701, name="bash", memory_mb=4.0),
    Process(pid=2909, name="bash", memory_mb=4.4),
    Process(pid=1200, name="explorer.exe", cpu=0.5, memory_mb=96.0),
    Process(pid=4321, name="notepad.exe", cpu=0.3, memory_mb=24.6),
    Process(pid=5120, name="chrome.exe", cpu=1.2, memory_mb=310.5),
)
START_MENU = tuple(
    StartMenuApp(name=n)
    for n in (
        "Notepad",
        "Calculator",
        "Google Chrome",
        "File Explorer",
        "Settings",
        "Paint",
        "Windows PowerShell",
    )
)
REGISTRY = {
    "HKCU:\\Software\\Demo": {"Value1": ("fake-registry-value", "String"), "ExampleValue": ("1", "DWord")},
    "HKCU:\\Software\\Demo\\ChildKey": {},
}


def _base(name: str, displays: tuple[Display, ...], windows: tuple[Window, ...], **kw: object) -> Scenario:
    return Scenario(
        name=name, displays=displays, windows=windows, processes=PROCESSES, start_menu=START_MENU,
        registry=REGISTRY, **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def default() -> Scenario:
    return _base(
        "default", (display(1, (0, 0, 1920, 1080), primary=True),),
        (
            downloads(), notepad((200, 100, 1400, 900), scroll_point=(1122, 691)),
            chrome((300, 60, 1700, 1000), depth=4), taskbar(1920, 1080, ("Notepad", "Google Chrome")),
            program_manager(1920, 1080),
        ),
        focus="notes.txt - Notepad", cursor=(640, 480),
    )  # fmt: skip


def hidpi() -> Scenario:
    return _base(
        "hidpi", (display(1, (0, 0, 2560, 1440), primary=True),),
        (notepad((320, 160, 1920, 1200), scroll_point=(1388, 443)), taskbar(2560, 1440, ("Notepad",)),
         program_manager(2560, 1440)),
        focus="notes.txt - Notepad", cursor=(1280, 720),
    )  # fmt: skip


def dual_right() -> Scenario:
    return _base(
        "dual-right", (display(1, (0, 0, 1920, 1080), primary=True), display(2, (1920, 0, 4480, 1440))),
        (notepad((2100, 150, 3300, 950), scroll_point=(2700, 500)), taskbar(1920, 1080, ("Notepad",)),
         program_manager(1920, 1080)),
        focus="notes.txt - Notepad", cursor=(960, 540),
    )  # fmt: skip


def dual_negative() -> Scenario:
    return _base(
        "dual-negative", (display(1, (0, 0, 2560, 1440), primary=True), display(2, (-1920, 0, 0, 1080))),
        (notepad((-1700, 100, -300, 900), scroll_point=(-652, 359)), chrome((200, 100, 2200, 1300), depth=3),
         taskbar(2560, 1440, ("Notepad",)), program_manager(2560, 1440)),
        focus="notes.txt - Notepad", cursor=(-1000, 400),
    )  # fmt: skip


def empty() -> Scenario:
    return _base(
        "empty", (display(1, (0, 0, 1920, 1080), primary=True),),
        (taskbar(1920, 1080, (), empty=True), program_manager(1920, 1080, icons=False)),
        cursor=(100, 100),
    )  # fmt: skip


def browser() -> Scenario:
    return _base(
        "browser", (display(1, (0, 0, 1920, 1080), primary=True),),
        (chrome((0, 0, 1920, 1032), depth=2, status="Maximized"), taskbar(1920, 1080, ("Google Chrome",)),
         program_manager(1920, 1080)),
        focus="Example Domain - Google Chrome", cursor=(650, 330),
    )  # fmt: skip


def truncated() -> Scenario:
    invoices = tuple(el("List Item", f"invoice_{i:03d}.pdf", (240, 140 + 22 * i, 900, 160 + 22 * i)) for i in range(40))
    explorer = Window(
        title="Invoices - File Explorer", handle=7281245, rect=Rect(200, 100, 1400, 1040), depth=2,
        process="explorer.exe", pid=1200,
        children=(
            el("Edit", "Address", (300, 104, 1000, 126), value="C:\\Users\\demo\\Documents\\Invoices"),
            el("Pane", "Navigation pane", (200, 130, 218, 1030),
               el("Tree Item", "Home", (202, 140, 216, 160))),
            el("List", "Items View", (220, 130, 1380, 1030), *invoices,
               v_scroll=0.0, scroll_point=(1132, 671)),
        ),
    )  # fmt: skip
    return _base(
        "truncated", (display(1, (0, 0, 1920, 1080), primary=True),),
        (explorer, taskbar(1920, 1080, ("File Explorer",)), program_manager(1920, 1080)),
        focus="Invoices - File Explorer", cursor=(960, 540), max_tree_elements=12,
    )  # fmt: skip


def user_control() -> Scenario:
    return replace(
        default(), name="user-control", user_control=True,
        control=ControlState(state="user", generation=1, wait_seconds=9.98),
    )  # fmt: skip


def _settings() -> Scenario:
    from gateway.sim.scenario_settings import settings

    return settings()


BUILTINS: dict[str, Callable[[], Scenario]] = {
    "default": default,
    "hidpi": hidpi,
    "dual-right": dual_right,
    "dual-negative": dual_negative,
    "settings": _settings,
    "empty": empty,
    "truncated": truncated,
    "browser": browser,
    "user-control": user_control,
}


def scenario_names() -> list[str]:
    """Names of the built-in scenarios, in a stable order.

    Returns:
        The names accepted by ``--scenario`` (a path to a JSON/TOML file is accepted too).
    """
    return list(BUILTINS)
