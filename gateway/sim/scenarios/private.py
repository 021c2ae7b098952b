"""Scenarios with a private window: a password manager whose pixels and names must never leave (S-PRIV-08).

The KeePassXC window's content area is a checkerboard of two exact colours (`PRIVATE_COLORS`), which
appear nowhere else on the desktop, and its elements carry names that appear nowhere else
(`PRIVATE_NAMES`), so a test can check every forwarded pixel and every forwarded character.

========================  ================================================================
``private``               "Passwords.kdbx - KeePassXC" focused at (1000,150,1700,750),
                          Notepad behind it on the left
``private-background``    the same two windows, Notepad focused: the password manager is
                          open behind it, not traversed (upstream prints only its size)
``private-dual``          the password manager focused on DISPLAY2 at (-1920,0) beside a
                          2560x1440 primary: a downscaled capture with a negative origin
========================  ================================================================
"""

from __future__ import annotations

from collections.abc import Callable

from gateway.sim.model import Rect, Scenario, Window
from gateway.sim.scenarios.builders import base_scenario, display, el, notepad, program_manager, taskbar

PRIVATE_TITLE = "Passwords.kdbx - KeePassXC"
PRIVATE_RECT = (1000, 150, 1700, 750)
PRIVATE_DUAL_RECT = (-1700, 100, -1000, 700)  # on DISPLAY2, left of the primary
PRIVATE_COLORS = ((13, 171, 97), (201, 17, 143))
PRIVATE_NAMES = ("Bank of Examples login", "Mail account hunter", "Entry password", "Copy secret to clipboard")
PRIVATE_SECRET = "correct-horse-battery-staple"  # the password field's value


def keepass(status: str = "Normal", rect: tuple[int, int, int, int] = PRIVATE_RECT) -> Window:
    x0, t, r, b = rect
    return Window(
        title=PRIVATE_TITLE, handle=9900911, rect=Rect(*rect), depth=3, status=status,
        process="KeePassXC.exe", pid=6060, pattern=PRIVATE_COLORS,
        children=(
            el("Button", "Minimize", (r - 138, t, r - 92, t + 32)),
            el("Button", "Maximize", (r - 92, t, r - 46, t + 32)),
            el("Button", "Close", (r - 46, t, r, t + 32)),
            el("List", "Entries", (x0 + 10, t + 50, x0 + 340, b - 20),
               el("List Item", PRIVATE_NAMES[0], (x0 + 20, t + 60, x0 + 330, t + 90)),
               el("List Item", PRIVATE_NAMES[1], (x0 + 20, t + 100, x0 + 330, t + 130))),
            el("Edit", PRIVATE_NAMES[2], (x0 + 360, t + 60, r - 20, t + 90), password=True, focused=True,
               value=PRIVATE_SECRET),
            el("Button", PRIVATE_NAMES[3], (x0 + 360, b - 60, r - 20, b - 20)),
        ),
    )  # fmt: skip


def _world(name: str, focus: str) -> Scenario:
    return base_scenario(
        name, (display(1, (0, 0, 1920, 1080), primary=True),),
        (notepad((100, 100, 900, 800), scroll_point=(500, 450)), keepass(),
         taskbar(1920, 1080, ("Notepad", "KeePassXC")), program_manager(1920, 1080)),
        focus=focus, cursor=(1200, 400),
    )  # fmt: skip


def private() -> Scenario:
    return _world("private", PRIVATE_TITLE)


def private_background() -> Scenario:
    return _world("private-background", "notes.txt - Notepad")


def private_dual() -> Scenario:
    """A 2560x1440 primary and DISPLAY2 at (-1920,0): a whole-desktop capture is downscaled, origin -1920."""
    return base_scenario(
        "private-dual", (display(1, (0, 0, 2560, 1440), primary=True), display(2, (-1920, 0, 0, 1080))),
        (notepad((200, 100, 1400, 900), scroll_point=(800, 500)), keepass(rect=PRIVATE_DUAL_RECT),
         taskbar(2560, 1440, ("Notepad", "KeePassXC")), program_manager(2560, 1440)),
        focus=PRIVATE_TITLE, cursor=(-1400, 400),
    )  # fmt: skip


PRIVATE_SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "private": private,
    "private-background": private_background,
    "private-dual": private_dual,
}
