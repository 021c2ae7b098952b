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
``large``                 no sample: a File Explorer of 5,000 files, for benchmarks (issue 13)
``private``               no sample: a password manager painted with a known pattern (issue 15)
========================  =============================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gateway.sim.model import ControlState, Rect, Scenario, Window
from gateway.sim.scenarios.builders import (
    base_scenario,
    chrome,
    display,
    downloads,
    el,
    notepad,
    program_manager,
    taskbar,
)
from gateway.sim.scenarios.consoles import CONSOLE_SCENARIOS
from gateway.sim.scenarios.private import PRIVATE_SCENARIOS
from gateway.sim.scenarios.settings import settings


def default() -> Scenario:
    return base_scenario(
        "default", (display(1, (0, 0, 1920, 1080), primary=True),),
        (
            downloads(), notepad((200, 100, 1400, 900), scroll_point=(1122, 691)),
            chrome((300, 60, 1700, 1000), depth=4), taskbar(1920, 1080, ("Notepad", "Google Chrome")),
            program_manager(1920, 1080),
        ),
        focus="notes.txt - Notepad", cursor=(640, 480),
    )  # fmt: skip


def hidpi() -> Scenario:
    return base_scenario(
        "hidpi", (display(1, (0, 0, 2560, 1440), primary=True),),
        (notepad((320, 160, 1920, 1200), scroll_point=(1388, 443)), taskbar(2560, 1440, ("Notepad",)),
         program_manager(2560, 1440)),
        focus="notes.txt - Notepad", cursor=(1280, 720),
    )  # fmt: skip


def dual_right() -> Scenario:
    return base_scenario(
        "dual-right", (display(1, (0, 0, 1920, 1080), primary=True), display(2, (1920, 0, 4480, 1440))),
        (notepad((2100, 150, 3300, 950), scroll_point=(2700, 500)), taskbar(1920, 1080, ("Notepad",)),
         program_manager(1920, 1080)),
        focus="notes.txt - Notepad", cursor=(960, 540),
    )  # fmt: skip


def dual_negative() -> Scenario:
    return base_scenario(
        "dual-negative", (display(1, (0, 0, 2560, 1440), primary=True), display(2, (-1920, 0, 0, 1080))),
        (notepad((-1700, 100, -300, 900), scroll_point=(-652, 359)), chrome((200, 100, 2200, 1300), depth=3),
         taskbar(2560, 1440, ("Notepad",)), program_manager(2560, 1440)),
        focus="notes.txt - Notepad", cursor=(-1000, 400),
    )  # fmt: skip


def empty() -> Scenario:
    return base_scenario(
        "empty", (display(1, (0, 0, 1920, 1080), primary=True),),
        (taskbar(1920, 1080, (), empty=True), program_manager(1920, 1080, icons=False)),
        cursor=(100, 100),
    )  # fmt: skip


def browser() -> Scenario:
    return base_scenario(
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
    return base_scenario(
        "truncated", (display(1, (0, 0, 1920, 1080), primary=True),),
        (explorer, taskbar(1920, 1080, ("File Explorer",)), program_manager(1920, 1080)),
        focus="Invoices - File Explorer", cursor=(960, 540), max_tree_elements=12,
    )  # fmt: skip


LARGE_FILES = 5000  # scripts/bench_proxy.py's "5,000-element tree"


def large() -> Scenario:
    """A File Explorer listing 5,000 files in a 100 x 50 grid: a big tree, the same grammar."""
    files = tuple(
        el("List Item", f"report_{i:04d}.xlsx", (20 + 19 * (i % 100), 60 + 19 * (i // 100),
                                                   37 + 19 * (i % 100), 77 + 19 * (i // 100)))
        for i in range(LARGE_FILES)
    )  # fmt: skip
    explorer = Window(
        title="Reports - File Explorer", handle=7281246, rect=Rect(0, 0, 1920, 1032), depth=2,
        process="explorer.exe", pid=1200,
        children=(
            el("Edit", "Address", (100, 4, 1000, 26), value="C:\\Users\\demo\\Documents\\Reports"),
            el("List", "Items View", (10, 50, 1910, 1030), *files, v_scroll=0.0, scroll_point=(960, 540)),
        ),
    )  # fmt: skip
    return base_scenario(
        "large", (display(1, (0, 0, 1920, 1080), primary=True),),
        (explorer, taskbar(1920, 1080, ("File Explorer",)), program_manager(1920, 1080)),
        focus="Reports - File Explorer", cursor=(960, 540), max_tree_elements=LARGE_FILES + 100,
    )  # fmt: skip


def user_control() -> Scenario:
    return replace(
        default(), name="user-control", user_control=True,
        control=ControlState(state="user", generation=1, wait_seconds=9.98),
    )  # fmt: skip


BUILTINS: dict[str, Callable[[], Scenario]] = {
    "default": default,
    "hidpi": hidpi,
    "dual-right": dual_right,
    "dual-negative": dual_negative,
    "settings": settings,
    "empty": empty,
    "truncated": truncated,
    "browser": browser,
    "user-control": user_control,
    **CONSOLE_SCENARIOS,  # issue 18: places where typed text is a command
    "large": large,  # issue 13: a 5,000-element tree for the benchmarks
    **PRIVATE_SCENARIOS,  # issue 15: a password manager that must stay private
}


def scenario_names() -> list[str]:
    """Names of the built-in scenarios, in a stable order.

    Returns:
        The names accepted by ``--scenario`` (a path to a JSON/TOML file is accepted too).
    """
    return list(BUILTINS)
