"""The ``settings`` scenario: the rich tree of samples/05 (S-SIM-05).

It shows every meta bracket (focused, password, value, range, toggle, state, shortcut), a
scrollable pane whose children print as siblings before it, a nested scrollable list, a
Private-Use-Area icon stripped from the text but kept in the label table, names with quotes,
emoji and CJK, an emoji window title that shifts the table by one column (FORMATS §4), a
non-default virtual desktop, and a dialog that is traversed but not listed.
"""

from __future__ import annotations

from gateway.sim.model import Rect, Scenario, Window
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


def _settings_window() -> Window:
    sound = el(
        "Group", "Sound", (510, 190, 1200, 510),
        el("Slider", "Volume", (520, 200, 920, 240), value="0.0", range=(0.0, 100.0)),
        el("Slider", "Balance", (520, 250, 920, 290), value="-12.5", range=(-50.0, 50.0)),
        el("Check Box", "Mute", (520, 300, 700, 330), toggle="on"),
        el("Combo Box", "Choose where to play sound", (520, 340, 1100, 380),
           value="Speakers (Realtek(R) Audio)", state="collapsed"),
        el("Button", "🔊 Speaker test", (520, 390, 720, 430)),
        el("Button", 'Rename "Default Speaker"', (740, 390, 1000, 430)),
        el("Button", "Save", (1020, 390, 1120, 430), shortcut="Ctrl+S"),
        el("Link", "Get help", (520, 440, 620, 460)),
        el("Radio Button", "Stereo", (520, 470, 640, 500)),
    )  # fmt: skip
    wifi = el(
        "Group", "Wi-Fi", (510, 680, 1350, 740),
        el("Edit", "Network security key", (520, 690, 920, 730), password=True, value="●●●●●●●●"),
        el("Edit", "Search settings", (940, 690, 1340, 730), focused=True, value="sound"),
    )  # fmt: skip
    themes = el(
        "List", "Themes", (500, 820, 1720, 980),
        el("List Item", "Glow", (510, 830, 700, 970)),
        el("List Item", "Sunrise", (710, 830, 900, 970)),
        v_scroll=33.33, h_scroll=50.0, scroll_point=(741, 837),
    )  # fmt: skip
    content = el(
        "Pane",
        "Settings content",
        (500, 100, 1760, 1000),
        sound,
        wifi,
        themes,
        v_scroll=0.0,
        scroll_point=(1615, 641),
    )
    navigation = el(
        "Pane", "Navigation", (160, 100, 480, 1000),
        el("List Item", "System", (170, 110, 470, 150)),
        el("List Item", "Bluetooth & devices", (170, 150, 470, 190)),
        el("List Item", "日本語 (Japanese) — Time & language", (170, 190, 470, 230)),
        el("List Item", "\ue713 Personalization", (170, 230, 470, 270)),
    )  # fmt: skip
    return Window(
        title="Settings", handle=5049915, rect=Rect(160, 40, 1760, 1000), status="Maximized", depth=5,
        process="SystemSettings.exe", pid=6100,
        children=(
            el("Button", "Back", (160, 40, 200, 72)),
            el("Button", "Minimize Settings", (1622, 40, 1668, 72)),
            el("Button", "Close Settings", (1714, 40, 1760, 72)),
            navigation,
            content,
        ),
    )  # fmt: skip


def _save_as() -> Window:
    return Window(
        title="Save As", handle=5050001, rect=Rect(650, 600, 1250, 800), kind="dialog",
        process="notepad.exe", pid=4321,
        children=(
            el("Edit", "File name:", (700, 650, 1200, 680), value="notes.txt"),
            el("Combo Box", "Save as type:", (700, 690, 1200, 720), value="Text documents (*.txt)",
               state="collapsed"),
            el("Button", "Save", (1000, 740, 1090, 770), shortcut="Alt+S"),
            el("Button", "Cancel", (1100, 740, 1190, 770)),
        ),
    )  # fmt: skip


def settings() -> Scenario:
    """The samples/05 world (Settings focused, cursor (980, 320), desktop ``Work 🛠``)."""
    return base_scenario(
        "settings", (display(1, (0, 0, 1920, 1080), primary=True),),
        (
            downloads(depth=1), _settings_window(),
            notepad((300, 120, 1500, 920), scroll_point=(700, 500), title="Notes 📝 - Notepad", depth=3),
            chrome((300, 60, 1700, 1000), depth=6),
            taskbar(1920, 1080, ("Settings", "Notepad", "Google Chrome")),
            _save_as(), program_manager(1920, 1080),
        ),
        focus="Settings", cursor=(980, 320), active_desktop="Work 🛠", desktops=("Desktop 1", "Work 🛠"),
    )  # fmt: skip
