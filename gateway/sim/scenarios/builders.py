"""Building blocks of the simulated desktops: windows, displays, the shared process list (S-SIM-05)."""

from __future__ import annotations

from gateway.sim.model import Display, Element, Process, Rect, Scenario, StartMenuApp, Window

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


def base_scenario(name: str, displays: tuple[Display, ...], windows: tuple[Window, ...], **kw: object) -> Scenario:
    return Scenario(
        name=name, displays=displays, windows=windows, processes=PROCESSES, start_menu=START_MENU,
        registry=REGISTRY, **kw,  # type: ignore[arg-type]
    )  # fmt: skip
