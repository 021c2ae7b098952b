"""Scenarios where typed text is a command: consoles, the Run box, address bars, a UAC prompt (issue 18 item 4).

Each world focuses one place the keyboard reaches, so a test can type into it and prove from the
event log (S-SIM-09) that nothing arrived. Window titles are the ones Windows shows; the UI trees
follow what UI Automation reports for each kind of window:

* a console (conhost, ``ConsoleWindowClass``): the screen buffer is a ``Document`` named
  ``Text Area`` that holds the keyboard focus and has no Value pattern (microsoft/terminal
  ``ScreenInfoUiaProviderBase``), under the caption buttons;
* Windows Terminal: the title is the active tab's title; the terminal control is a ``Text``
  element with the localized type ``terminal``, named after the profile (``TermControlAutomationPeer``).
  Whether upstream lists a ``Text`` element as interactive is not known from the samples; the
  simulator shows it (``role="interactive"``), and the gateway must not depend on it alone;
* the Run box and Task Manager's "Create new task": dialogs (never in the window tables, always in
  the tree, FORMATS §5.3) with a combo box ``Open:`` holding the focused edit ``Open:``;
* Explorer: the edit ``Address`` inside the pane ``Address Band Root``;
* a browser: its own address bar ``Address and search bar`` exists (label table) but the text shows
  only the page (FORMATS §5.5);
* a UAC prompt (``consent.exe``) asking for an administrator's user name and password.

========================  ================================================================
``console-powershell``    "Windows PowerShell" focused; "Administrator: Windows PowerShell" behind
``console-cmd``           "Command Prompt" focused; "C:\\WINDOWS\\system32\\cmd.exe" behind
``windows-terminal``      Windows Terminal, tab "Windows PowerShell" focused, an "Ubuntu" tab
``run-box``               the Run dialog, its "Open:" edit focused; no app window active
``taskmgr-run``           Task Manager focused with its "Create new task" dialog on top
``explorer-address``      "Documents - File Explorer" with its address edit focused
``explorer-system32``     "System32 - File Explorer" with the item ``hal.dll`` focused in its list
``browser-address``       Microsoft Edge on example.com, the keyboard in its address bar
``uac-prompt``            "User Account Control" asking for credentials; no app window active
``notepad``               "powershell notes.txt - Notepad": an ordinary text target
``python-repl``           "Python 3.12 (64-bit)": the Start menu's Python prompt in a console
``remote-desktop``        "10.0.0.5 - Remote Desktop Connection": another machine's screen, keyboard captured
``vscode-terminal``       Visual Studio Code with its integrated terminal "Terminal 1, pwsh" focused below the
                          editor: the window title names a file, only the element names a shell
``jupyter-notebook``      JupyterLab in Microsoft Edge, a code cell focused: what is typed there runs as Python
========================  ================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gateway.sim.model import Element, Process, Rect, Scenario, Window
from gateway.sim.scenarios.builders import PROCESSES, base_scenario, display, el, notepad, program_manager, taskbar

SCREEN = (0, 0, 1920, 1080)
EDGE = "Microsoft\u200b Edge"  # Edge puts a zero-width space in its window titles
PROCS = PROCESSES + (
    Process(pid=6012, name="powershell.exe", memory_mb=72.0),
    Process(pid=6013, name="conhost.exe", memory_mb=8.0),
    Process(pid=6020, name="cmd.exe", memory_mb=4.1),
    Process(pid=6030, name="WindowsTerminal.exe", memory_mb=95.0),
    Process(pid=6040, name="Taskmgr.exe", memory_mb=40.0),
    Process(pid=6050, name="msedge.exe", memory_mb=280.0),
    Process(pid=6060, name="consent.exe", memory_mb=12.0, protected=True),
    Process(pid=6070, name="python.exe", memory_mb=14.0),
    Process(pid=6080, name="mstsc.exe", memory_mb=60.0),
    Process(pid=6090, name="Code.exe", memory_mb=310.0),
)


def _caption(rect: tuple[int, int, int, int]) -> tuple[Element, ...]:
    _, t, r, _ = rect
    return (
        el("Button", "Minimize", (r - 138, t, r - 92, t + 32)),
        el("Button", "Maximize", (r - 92, t, r - 46, t + 32)),
        el("Button", "Close", (r - 46, t, r, t + 32)),
    )


def conhost(title: str, rect: tuple[int, int, int, int], *, handle: int, process: str, pid: int) -> Window:
    """A classic console window: caption buttons and the focused ``Text Area`` document."""
    x0, t, r, b = rect
    return Window(
        title=title, handle=handle, rect=Rect(*rect), depth=2, process=process, pid=pid,
        children=(*_caption(rect), el("Document", "Text Area", (x0 + 8, t + 32, r - 25, b - 8), focused=True)),
    )  # fmt: skip


def _world(name: str, windows: tuple[Window, ...], running: tuple[str, ...], **kw: object) -> Scenario:
    world = base_scenario(
        name, (display(1, SCREEN, primary=True),),
        (*windows, taskbar(1920, 1080, running), program_manager(1920, 1080)), **kw,
    )  # fmt: skip
    return replace(world, processes=PROCS)


def console_powershell() -> Scenario:
    front = conhost("Windows PowerShell", (200, 120, 1300, 760), handle=4457510, process="powershell.exe", pid=6012)
    admin = conhost(
        "Administrator: Windows PowerShell", (260, 180, 1360, 820), handle=4457522, process="powershell.exe", pid=6012
    )
    return _world("console-powershell", (front, admin), ("Windows PowerShell",), focus=front.title, cursor=(640, 400))


def console_cmd() -> Scenario:
    front = conhost("Command Prompt", (200, 120, 1300, 760), handle=4522048, process="cmd.exe", pid=6020)
    other = conhost(
        "C:\\WINDOWS\\system32\\cmd.exe", (260, 180, 1360, 820), handle=4522060, process="cmd.exe", pid=6020
    )
    return _world("console-cmd", (front, other), ("Command Prompt",), focus=front.title, cursor=(640, 400))


def windows_terminal() -> Scenario:
    rect = (160, 80, 1460, 860)
    x0, t, r, b = rect
    tabs = el(
        "Tab", "Tab view", (x0, t, x0 + 520, t + 40),
        el("Tab Item", "Windows PowerShell", (x0 + 8, t + 4, x0 + 248, t + 40)),
        el("Tab Item", "Ubuntu", (x0 + 248, t + 4, x0 + 448, t + 40)),
    )  # fmt: skip
    terminal = el(
        "Text", "Windows PowerShell", (x0 + 1, t + 41, r - 1, b - 1), role="interactive", localized="terminal",
        focused=True,
    )  # fmt: skip
    win = Window(
        title="Windows PowerShell", handle=5901302, rect=Rect(*rect), depth=3, process="WindowsTerminal.exe",
        pid=6030,
        children=(tabs, el("Button", "New Tab", (x0 + 452, t + 4, x0 + 492, t + 40)), *_caption(rect), terminal),
    )  # fmt: skip
    return _world("windows-terminal", (win,), ("Terminal",), focus=win.title, cursor=(800, 500))


def _open_box(title: str, rect: tuple[int, int, int, int], *, handle: int, process: str, pid: int,
              extra: tuple[Element, ...] = ()) -> Window:  # fmt: skip
    """The shell's RunFileDlg: the Run box and Task Manager's "Create new task" share it."""
    x0, t, r, b = rect
    return Window(
        title=title, handle=handle, rect=Rect(*rect), kind="dialog", process=process, pid=pid,
        children=(
            el("Button", "Close", (r - 46, t, r, t + 30)),
            el("Text", "Type the name of a program, folder, document, or Internet resource, and Windows will open "
               "it for you.", (x0 + 60, t + 50, r - 20, t + 90)),
            el("Combo Box", "Open:", (x0 + 70, t + 100, r - 20, t + 124),
               el("Edit", "Open:", (x0 + 72, t + 102, r - 40, t + 122), focused=True), state="collapsed"),
            *extra,
            el("Button", "OK", (r - 250, b - 44, r - 170, b - 16)),
            el("Button", "Cancel", (r - 165, b - 44, r - 85, b - 16)),
            el("Button", "Browse...", (r - 80, b - 44, r - 8, b - 16)),
        ),
    )  # fmt: skip


def run_box() -> Scenario:
    box = _open_box("Run", (12, 812, 422, 1020), handle=2884710, process="explorer.exe", pid=1200)
    return _world("run-box", (box,), (), cursor=(200, 900))


def taskmgr_run() -> Scenario:
    rect = (300, 100, 1300, 900)
    x0, t, r, b = rect
    manager = Window(
        title="Task Manager", handle=3277386, rect=Rect(*rect), depth=2, process="Taskmgr.exe", pid=6040,
        children=(
            *_caption(rect),
            el("Button", "Run new task", (r - 300, t + 40, r - 160, t + 72)),
            el("Button", "End task", (r - 150, t + 40, r - 20, t + 72)),
            el("List", "Processes", (x0 + 8, t + 80, r - 8, b - 8),
               el("List Item", "Notepad", (x0 + 8, t + 90, r - 8, t + 112)),
               v_scroll=0.0, scroll_point=(800, 500)),
        ),
    )  # fmt: skip
    admin = el("Check Box", "Create this task with administrative privileges.", (372, 430, 760, 454), toggle="off")
    dialog = _open_box(
        "Create new task", (302, 260, 752, 520), handle=3277410, process="Taskmgr.exe", pid=6040, extra=(admin,)
    )
    return _world("taskmgr-run", (manager, dialog), ("Task Manager",), focus=manager.title, cursor=(500, 372))


def _explorer(folder: str, items: tuple[str, str], *, address_focused: bool) -> Window:
    """A File Explorer window showing `folder`: the keyboard in its address edit, or on its first item."""
    rect = (200, 100, 1400, 900)
    x0, t, r, b = rect
    name = folder.rsplit("\\", 1)[-1]
    return Window(
        title=f"{name} - File Explorer", handle=3935530, rect=Rect(*rect), depth=2, process="explorer.exe",
        pid=1200,
        children=(
            *_caption(rect),
            el("Pane", "Address Band Root", (x0 + 100, t + 40, r - 320, t + 72),
               el("Edit", "Address", (x0 + 104, t + 44, r - 324, t + 68), focused=address_focused, value=folder)),
            el("Edit", f"Search {name}", (r - 310, t + 44, r - 12, t + 68)),
            el("List", "Items View", (x0 + 220, t + 80, r - 8, b - 30),
               el("List Item", items[0], (x0 + 230, t + 90, r - 20, t + 112), focused=not address_focused),
               el("List Item", items[1], (x0 + 230, t + 112, r - 20, t + 134)),
               v_scroll=0.0, scroll_point=(900, 500)),
        ),
    )  # fmt: skip


def explorer_address() -> Scenario:
    win = _explorer("C:\\Users\\demo\\Documents", ("report.docx", "budget.xlsx"), address_focused=True)
    return _world("explorer-address", (win,), ("File Explorer",), focus=win.title, cursor=(700, 156))


def explorer_system32() -> Scenario:
    """File Explorer in System32 with `hal.dll` focused: its Delete key would delete a system file (S-RULE-153)."""
    win = _explorer("C:\\Windows\\System32", ("hal.dll", "kernel32.dll"), address_focused=False)
    return _world("explorer-system32", (win,), ("File Explorer",), focus=win.title, cursor=(700, 201))


def browser_address() -> Scenario:
    rect = (0, 0, 1920, 1032)
    x0, t, r, b = rect
    win = Window(
        title=f"Example Domain - {EDGE}", handle=2821170, rect=Rect(*rect), status="Maximized", depth=2,
        process="msedge.exe", pid=6050,
        children=(
            el("Tab Item", "Example Domain", (x0 + 10, t, x0 + 250, t + 40)),
            el("Button", "Refresh", (x0 + 90, t + 44, x0 + 126, t + 80)),
            el("Edit", "Address and search bar", (x0 + 200, t + 44, x0 + 1500, t + 80), focused=True,
               value="https://example.com/"),
        ),
        dom=(
            el("Document", "Example Domain", (x0, t + 90, r, b), value="https://example.com/", v_scroll=0.0,
               scroll_point=(960, 600)),
            el("Link", "Learn more", (x0 + 600, t + 320, x0 + 700, t + 340)),
            el("Edit", "Search", (x0 + 600, t + 360, x0 + 1000, t + 390)),
        ),
        dom_text=("Example Domain", "This domain is for use in documentation examples."),
    )  # fmt: skip
    return _world("browser-address", (win,), ("Microsoft Edge",), focus=win.title, cursor=(850, 62))


def uac_prompt() -> Scenario:
    rect = (620, 240, 1300, 840)
    x0, t, r, b = rect
    prompt = Window(
        title="User Account Control", handle=1312044, rect=Rect(*rect), kind="dialog", process="consent.exe",
        pid=6060,
        children=(
            el("Text", "Do you want to allow this app to make changes to your device?",
               (x0 + 24, t + 40, r - 24, t + 90)),
            el("Text", "Windows Command Processor", (x0 + 90, t + 110, r - 24, t + 140)),
            el("Button", "Show more details", (x0 + 24, t + 220, x0 + 200, t + 244)),
            el("Edit", "User name", (x0 + 24, t + 300, r - 24, t + 332)),
            el("Edit", "Password", (x0 + 24, t + 344, r - 24, t + 376), password=True, focused=True),
            el("Button", "Yes", (x0 + 24, b - 60, x0 + 320, b - 24)),
            el("Button", "No", (x0 + 336, b - 60, r - 24, b - 24)),
        ),
    )  # fmt: skip
    return _world("uac-prompt", (prompt,), (), cursor=(960, 600))


def notepad_world() -> Scenario:
    pad = notepad((200, 100, 1400, 900), scroll_point=(800, 500), title="powershell notes.txt - Notepad")
    return _world("notepad", (pad,), ("Notepad",), focus=pad.title, cursor=(640, 480))


def python_repl() -> Scenario:
    """A language prompt (S-RULE-103): what is typed there is Python, not a shell command."""
    repl = conhost("Python 3.12 (64-bit)", (200, 120, 1300, 760), handle=4588001, process="python.exe", pid=6070)
    return _world("python-repl", (repl,), ("Python 3.12 (64-bit)",), focus=repl.title, cursor=(640, 400))


def remote_desktop() -> Scenario:
    """A Remote Desktop session (S-RULE-108): typed text lands in whatever has focus on the other machine,
    a shell included; UI Automation shows only the client's input-capture pane."""
    rect = (120, 60, 1560, 980)
    x0, t, r, b = rect
    capture = el("Pane", "Input Capture Window", (x0 + 8, t + 32, r - 8, b - 8), focused=True)
    session = Window(
        title="10.0.0.5 - Remote Desktop Connection", handle=4601002, rect=Rect(*rect), depth=2, process="mstsc.exe",
        pid=6080, children=(*_caption(rect), capture),
    )  # fmt: skip
    return _world("remote-desktop", (session,), ("Remote Desktop Connection",), focus=session.title, cursor=(800, 500))


def vscode_terminal() -> Scenario:
    """An editor's integrated terminal (S-RULE-126): VS Code names the terminal's input (xterm.js's text area)
    "Terminal <n>, <shell>"; the window is the editor's, titled after the open file."""
    rect = (0, 0, 1920, 1032)
    x0, t, r, b = rect
    win = Window(
        title="main.py - project - Visual Studio Code", handle=3342402, rect=Rect(*rect), status="Maximized", depth=2,
        process="Code.exe", pid=6090,
        children=(
            *_caption(rect),
            el("Edit", "Editor content;Press Alt+F1 for Accessibility Options.", (x0 + 300, t + 70, r - 20, 640)),
            el("Tab Item", "Terminal", (x0 + 300, 660, x0 + 380, 690)),
            el("Edit", "Terminal 1, pwsh", (x0 + 300, 700, r - 20, b - 30), focused=True),
        ),
    )  # fmt: skip
    return _world("vscode-terminal", (win,), ("Visual Studio Code",), focus=win.title, cursor=(1100, 860))


def jupyter_notebook() -> Scenario:
    """A notebook in a browser (S-RULE-204): a code cell runs what is typed into it (Shift+Enter) as Python."""
    rect = (0, 0, 1920, 1032)
    x0, t, r, b = rect
    win = Window(
        title=f"analysis.ipynb - JupyterLab - {EDGE}", handle=2821190, rect=Rect(*rect), status="Maximized", depth=2,
        process="msedge.exe", pid=6100,
        children=(
            el("Tab Item", "analysis.ipynb - JupyterLab", (x0 + 10, t, x0 + 250, t + 40)),
            el("Edit", "Address and search bar", (x0 + 200, t + 44, x0 + 1500, t + 80),
               value="http://localhost:8888/lab/tree/analysis.ipynb"),
        ),
        dom=(
            el("Document", "analysis.ipynb - JupyterLab", (x0, t + 90, r, b), v_scroll=0.0, scroll_point=(960, 600)),
            el("Button", "Run this cell and advance", (x0 + 400, t + 100, x0 + 430, t + 130)),
            el("Edit", "Code Cell Content", (x0 + 300, t + 200, r - 100, t + 300), focused=True),
        ),
        dom_text=("[1]:", "import pandas as pd"),
    )  # fmt: skip
    return _world("jupyter-notebook", (win,), ("Microsoft Edge",), focus=win.title, cursor=(900, 250))


CONSOLE_SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "console-powershell": console_powershell,
    "console-cmd": console_cmd,
    "windows-terminal": windows_terminal,
    "run-box": run_box,
    "taskmgr-run": taskmgr_run,
    "explorer-address": explorer_address,
    "explorer-system32": explorer_system32,
    "browser-address": browser_address,
    "uac-prompt": uac_prompt,
    "notepad": notepad_world,
    "python-repl": python_repl,
    "remote-desktop": remote_desktop,
    "vscode-terminal": vscode_terminal,
    "jupyter-notebook": jupyter_notebook,
}
