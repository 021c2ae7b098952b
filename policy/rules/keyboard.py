"""The keyboard is a shell: where typed text lands, and what a call types (issue 18 item 4).

Text typed with Type or MultiEdit, or set with Clipboard and pasted, is a command when it lands
in a place that runs what it is given. `typing_target` names that place from what the model saw
(a parsed Snapshot, `policy.observation.Capture`); `typed_inputs` / `typed_commands` read the
text and whether Enter follows from a call's real arguments (upstream's `tools_list.json`);
`is_paste_chord` / `is_enter_chord` recognise the Shortcut calls that paste or submit it.

How the target is found:

1. With a point (Type `loc`, a MultiEdit item): the element printed exactly at that point, else
   the element printed nearest to it. The Snapshot prints centres, not boxes, and no window
   rectangles, so "nearest" is a guess; the foreground context — the focused window and every
   window holding a focused element (a dialog such as the Run box) — is therefore judged too, and
   the riskiest reading wins (`RISK`). A click at a point that is no element's centre may land in
   the window in front, and the one in front is the one that took the focus.
2. Without a point: the focused elements (`[focused]`), else the focused window.
3. A place is known by its window title (fullmatch, so "powershell notes.txt - Notepad" is a
   Notepad document) or by its UI tree: a console's `document "Text Area"` (conhost) or a
   `terminal` element (Windows Terminal), the Run box's `Open:` edit, Explorer's `Address` edit in
   the `Address Band Root` pane, a browser's `Address and search bar`.
4. Browsers: upstream prints only the page of a browser window (FORMATS §5.5), never its own
   address bar. A point above the page (estimated from the page document's centre and the window
   height), or a browser window with no focused page element, is read as its address bar.

A language prompt (Python, Node, a SQL shell) known by its title is an `INTERPRETER`: what is typed
there is code the command rules cannot read, so it asks (`policy.typed`, S-RULE-103).

Limits (a tripwire, not a sandbox): a custom shell or REPL with a plain title and no console
text area (a Python prompt titled "Calculator", a game console, a browser-based terminal) cannot be
known; a language started inside a Windows Terminal tab keeps the tab's shell title, so it is judged as
that shell; titles are read in English only (a German "Ausführen" box is missed);
a console whose title a program changed to something plain is known only by its `Text Area`; the
Start menu search, which also runs what is typed, is recognised only as a window titled `Search`
or `Start`. Positions are inferred from printed centres, so a point between two windows can be
misplaced; the rule then errs toward the riskier window.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from policy.observation import Capture, Element, Point
from policy.rules.args import truthy
from policy.rules.uia_keys import KeyEvent, key_events, presses, sendkeys_text


class TypingTarget(StrEnum):
    """What kind of place typed text lands in."""

    INTERPRETER = "interpreter"  # a language prompt in a console (Python, Node, SQL): runs text as its own code
    CONSOLE = "console"  # PowerShell, pwsh, cmd, Windows Terminal, WSL, any console text area
    RUN_BOX = "run-box"  # Win+R, Task Manager's "Create new task", the Start menu search
    ADDRESS_BAR = "address-bar"  # Explorer's / a file dialog's / a browser's address bar
    FILE_SAVE = "file-save"  # a Save dialog's "File name:" box: the path typed there is written (S-RULE-149)
    FILE_OPEN = "file-open"  # an Open dialog's "File name:" box: the path typed there is opened and shown
    CREDENTIAL_PROMPT = "credential-prompt"  # UAC, Windows Security: always a person's call
    TEXT = "text"  # an ordinary text field or document
    UNKNOWN = "unknown"  # the observation does not show where the text lands


# Riskiest first: when a point or the focus could mean several places, the first one wins.
RISK = (
    TypingTarget.CREDENTIAL_PROMPT,
    TypingTarget.INTERPRETER,
    TypingTarget.CONSOLE,
    TypingTarget.RUN_BOX,
    TypingTarget.ADDRESS_BAR,
    TypingTarget.FILE_SAVE,
    TypingTarget.FILE_OPEN,
    TypingTarget.UNKNOWN,
    TypingTarget.TEXT,
)
_COMMAND_PLACES = frozenset(
    {TypingTarget.CREDENTIAL_PROMPT, TypingTarget.INTERPRETER, TypingTarget.CONSOLE, TypingTarget.RUN_BOX}
)
# Browser toolbar height bound (tabs + address bar + bookmarks bar): about 115 px at 100 % scale,
# doubled for 200 % displays. Points less than this above the page's estimated top are read as
# the toolbar, so the top of a page may be mistaken for the address bar (the safe direction).
BROWSER_TOOLBAR_MAX_PX = 240

_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")  # Edge titles hold a zero-width space
_PREFIXES = re.compile(r"^(?:(?:select|mark|administrator:)\s+)+")  # conhost selection, elevation
_CONSOLE_TITLES = re.compile(
    r"(?:windows )?powershell(?: \d+(?:\.\d+)*)?(?: \((?:x64|x86|arm64)\))?(?: ise(?: \(x86\))?)?"
    r"|pwsh|windows terminal|terminal|azure cloud shell|git bash|wsl"
    r"|(?:developer (?:command prompt|powershell)|.*native tools command prompt) for vs.*"
    r"|(?:command prompt|cmd|(?:.*\\)?(?:cmd|wsl|bash|conhost|openconsole)(?:\.exe)?)(?: - .*)?"
    r"|(?:.*\\)?(?:powershell|pwsh|powershell_ise)(?:\.exe)?"
    r"|.* - (?:windows )?powershell(?: \d+(?:\.\d+)*)?"
    r"|(?:ubuntu|debian|kali-linux|kali|alpine|fedora(?:linux)?|opensuse(?:-leap|-tumbleweed)?|sles|oraclelinux"
    r"|almalinux|archlinux|arch)(?:[-_ ]?\d+(?:[._]\d+)*)?(?: lts)?(?: \(preview\))?"
    r"|[\w.-]+@[\w.-]+:.*|(?:mingw32|mingw64|ucrt64|clang64|msys):.*"
    # Prompts and terminals of their own (S-RULE-103): conda's, Git's, and third-party terminal programs;
    # an SSH client's window is a shell too (on another machine, but typed commands run all the same).
    r"|(?:anaconda|miniconda3?|miniforge3?|mambaforge)(?: powershell)? prompt(?: \(.*\))?|git cmd|cmder(?: .*)?"
    r"|conemu(?:64)?(?: .*)?|cygwin(?:64)? terminal|mintty|alacritty|wezterm(?: .*)?|tabby|hyper"
    r"|msys2 (?:msys|mingw32|mingw64|ucrt64|clang64|clangarm64)|(?:windows )?terminal (?:preview|canary)"
    r"|(?:.* - )?(?:putty|kitty)|mobaxterm(?: .*)?"
    # S-RULE-108: Node.js's own command prompt, WSL by its name, Nushell, Tera Term (an SSH client).
    r"|node\.js command prompt|windows subsystem for linux|nushell|nu|(?:.* - )?tera term(?: vt)?"
)
# A remote or virtual machine's screen (S-RULE-108): typed text lands in whatever has focus there, a shell
# included, which the observation does not show; it is judged as a console's would be.
_REMOTE_SCREEN_TITLES = re.compile(
    r"(?:.* - )?remote desktop connection|windows sandbox|(?:.* - )?vmware (?:workstation|player|remote console)"
    r"|.* - virtual machine connection|.* \[[^\]]+\] - oracle (?:vm )?virtualbox(?: : \d+)?"
    r"|(?:.* - )?(?:realvnc |tightvnc |tigervnc )?vnc viewer|.* - (?:teamviewer|anydesk)"
)
# A language's own prompt (S-RULE-103): the Start menu's "Python 3.12 (64-bit)", a console titled with the
# interpreter's program (`C:\Python312\python.exe`, `node`), or a Command Prompt running one (`Command
# Prompt - python`). Typed text there is code in that language, which the command rules cannot read.
_INTERPRETER_NAMES = (
    r"(?:python[\d.]*|pythonw|py|ipython[\d.]*|bpython|node|deno|bun|irb|ruby|perl|php|lua[\d.]*|luajit|julia"
    r"|ghci|jshell|rterm|scala|sqlcmd|osql|sqlite3|psql|mysql|mongosh|redis-cli)"
)
# Prompts known by their own titles (S-RULE-108): IPython and Jupyter's console, R, Julia, the database shells.
_PROMPT_TITLES = (
    r"ipython: .*|jupyter qtconsole|rgui(?: \((?:64|32)-bit\))?|r console(?: \((?:64|32)-bit\))?"
    r"|julia(?: [\d.]+)?"
    r"|sql shell \(psql\)|mysql [\d.]+ command line client(?: - unicode)?|mongosh(?: .*)?|erlang"
)
_INTERPRETER_TITLES = re.compile(
    rf"python [\d.]+ \((?:64|32)-bit\)|node\.js|{_PROMPT_TITLES}"
    rf"|{_INTERPRETER_NAMES}(?:\.exe)?|.*\\{_INTERPRETER_NAMES}\.exe(?: .*)?"
    rf"|(?:command prompt|(?:.*\\)?cmd(?:\.exe)?|(?:windows )?powershell|pwsh) - (?:.*\\)?{_INTERPRETER_NAMES}"
    rf"(?:\.exe)?(?: .*)?"
)
# A notebook (S-RULE-204): a cell runs what is typed into it as code (Shift+Enter), with the person's files and
# sign-ins. Jupyter's and Colab's tabs in a browser, a `.ipynb` open in an editor. A browser's undocked developer
# tools (`DevTools - <address>`) run JavaScript in the page, with the person's session on that site.
_NOTEBOOK_PAGE = re.compile(r".*(?:\.ipynb\b|\bjupyterlab\b|\bjupyter notebook\b|\bcolaboratory\b|[-\u2014] colab\b).*")
_EDITOR_TITLE = re.compile(
    r".* [-\u2014] (?:visual studio code|vs code|cursor|windsurf|vscodium|pycharm|dataspell)\b.*"
)
_DEVTOOLS_TITLE = re.compile(r"devtools - .*")
_CREDENTIAL_TITLES = frozenset({"user account control", "windows security", "credential dialog xaml host"})
_RUN_TITLES = {"run": "the Run box", "create new task": "Task Manager's Create new task box"}
_RUN_TITLES["run new task"] = _RUN_TITLES["create new task"]
_SEARCH_TITLES = frozenset({"search", "start"})
_BROWSER_TITLE = re.compile(
    r"(?:.* [-\u2014] )?(?:google chrome|chromium|microsoft edge|mozilla firefox|firefox|brave|opera|vivaldi)"
)
_BROWSER_BARS = re.compile(r"address and search bar|search or enter (?:web )?address|search .*or enter address|url bar")
_SHELL_BARS = re.compile(r"address|address bar|address: .*")
# The common file dialog's name box (S-RULE-149), and the titles of the dialogs that write what it names.
FILE_NAME_BOXES = frozenset({"file name:", "file name", "filename:"})
_SAVE_TITLES = re.compile(r".*\b(?:save|export|download|print to file|keep)\b.*")
_SAVE_BUTTONS = frozenset({"save", "&save", "export", "download"})
_TERMINAL_CTRLS = frozenset({"terminal"})
# An editor's integrated terminal (S-RULE-126): VS Code (and Cursor, Windsurf) name its input "Terminal 1, pwsh",
# xterm.js "Terminal input", JetBrains IDEs and Visual Studio a "Terminal" tool window (its tab too: a click there
# focuses the terminal). The window is the editor's, so the title says nothing.
_TERMINAL_INPUTS = re.compile(r"terminal(?: input| \d+(?:[,:] .*)?|: .*)?")


def _fold(text: str | None) -> str:
    return " ".join(_INVISIBLE.sub("", text or "").split()).casefold()


def _title(text: str | None) -> str:
    return _PREFIXES.sub("", _fold(text))


def shows_credential_prompt(capture: Capture) -> bool:
    """Whether a UAC or Windows Security prompt is among the capture's windows (a cheap test before
    `typing_target` places a click)."""
    titles = [w.name for w in (capture.focused, *capture.windows) if w is not None]
    titles += [e.window for e in capture.elements if e.kind == "window" and e.window is not None]
    return any(_title(t) in _CREDENTIAL_TITLES for t in titles)


def is_console_title(title: str) -> bool:
    """Whether a window title is one a console shows (PowerShell, cmd, Terminal, WSL, Git Bash).

    Args:
        title: the window name as printed.

    Returns:
        True for e.g. "Windows PowerShell", "Administrator: Command Prompt - ping x",
        "C:\\WINDOWS\\system32\\cmd.exe", "Ubuntu-22.04", "demo@host: ~"; False for a document
        titled "powershell notes.txt - Notepad".
    """
    return _CONSOLE_TITLES.fullmatch(_title(title)) is not None


def is_interpreter_title(title: str) -> bool:
    """Whether a window title is a language prompt's (`Python 3.12 (64-bit)`, `C:\\Python312\\python.exe`,
    `Command Prompt - python`); a document named after one (`python notes.txt - Notepad`) is not."""
    return _INTERPRETER_TITLES.fullmatch(_title(title)) is not None


def is_notebook_title(title: str) -> bool:
    """Whether a window is a notebook or a browser's developer tools: `Untitled.ipynb - JupyterLab - Google Chrome`,
    `x.ipynb - Colab - Microsoft Edge`, `analysis.ipynb - proj - Visual Studio Code`, `DevTools - example.com/`. A
    page or document that only mentions one (`Jupyter (moon) - Wikipedia - …`, `jupyter notes.md - …`) is not."""
    folded = _fold(title)
    if _DEVTOOLS_TITLE.fullmatch(folded):
        return True
    if is_browser_title(title):
        return _NOTEBOOK_PAGE.fullmatch(folded) is not None
    return _EDITOR_TITLE.fullmatch(folded) is not None and ".ipynb" in folded


def is_remote_screen_title(title: str) -> bool:
    """Whether a window title is a remote or virtual machine's screen (Remote Desktop, Hyper-V, VMware,
    VirtualBox, Windows Sandbox, a VNC or remote-support viewer): typed text there may reach a shell."""
    return _REMOTE_SCREEN_TITLES.fullmatch(_title(title)) is not None


def is_browser_title(title: str) -> bool:
    """Whether a window title is a browser's ("… - Google Chrome", "… - Microsoft Edge", …)."""
    return _BROWSER_TITLE.fullmatch(_fold(title)) is not None


@dataclass(frozen=True, slots=True)
class _Place:
    kind: TypingTarget
    description: str


def _riskiest(places: Iterable[_Place]) -> _Place | None:
    return min(places, key=lambda p: RISK.index(p.kind), default=None)


class _View:
    """The capture's elements grouped by their top-level window."""

    def __init__(self, capture: Capture) -> None:
        self.capture = capture
        self.by_window: dict[str, list[Element]] = {}
        for el in capture.elements:
            if el.kind != "window" and el.window is not None:
                self.by_window.setdefault(el.window, []).append(el)
        self.sizes = {w.name: (w.width, w.height) for w in (*capture.windows, capture.focused) if w is not None}

    def ancestors(self, target: Element) -> list[Element]:
        """Lines enclosing `target`, nearest first (tree order and depth give the nesting)."""
        out: list[Element] = []
        depth = target.depth
        elements = self.capture.elements
        index = next((i for i, el in enumerate(elements) if el is target), -1)
        for el in reversed(elements[:index]):
            if el.depth < depth:
                out.append(el)
                depth = el.depth
                if depth == 0:
                    break
        return out

    def window_place(self, title: str) -> _Place | None:
        """A command place known from the window alone (title or console text area), else None."""
        folded = _title(title)
        elements = self.by_window.get(title, [])
        if folded in _CREDENTIAL_TITLES:
            return _Place(TypingTarget.CREDENTIAL_PROMPT, f"the credential prompt {title!r}")
        if is_interpreter_title(title):
            return _Place(TypingTarget.INTERPRETER, f"the interpreter prompt {title!r}")
        if is_notebook_title(title):
            return _Place(
                TypingTarget.INTERPRETER, f"the notebook or developer tools {title!r}, which run code typed there"
            )
        if is_console_title(title):
            return _Place(TypingTarget.CONSOLE, f"the console window {title!r}")
        if is_remote_screen_title(title):
            return _Place(
                TypingTarget.CONSOLE, f"the remote or virtual machine's screen {title!r}, where a shell may have focus"
            )
        if any(_is_console_area(el) for el in elements):
            return _Place(TypingTarget.CONSOLE, f"the window {title!r}, whose UI tree shows a console")
        if folded in _RUN_TITLES:
            has_open = any(_fold(el.name) == "open:" for el in elements)
            if has_open or not any(el.kind == "element" for el in elements):
                return _Place(TypingTarget.RUN_BOX, _RUN_TITLES[folded])
        return None

    def element_place(self, el: Element) -> _Place:
        """Where text typed into element `el` lands."""
        title = el.window or ""
        found = self.window_place(title)
        if found is not None:
            return found
        name = _fold(el.name)
        if _TERMINAL_INPUTS.fullmatch(name):
            return _Place(TypingTarget.CONSOLE, f"the integrated terminal {el.name!r} in {title!r}")
        if _BROWSER_BARS.fullmatch(name):
            return _Place(TypingTarget.ADDRESS_BAR, f"the address bar {el.name!r} of {title!r}")
        if not is_browser_title(title) and _SHELL_BARS.fullmatch(name) and self._in_address_band(el):
            return _Place(TypingTarget.ADDRESS_BAR, f"the address bar of {title!r}")
        if name in FILE_NAME_BOXES and el.control in ("edit", "combo box"):
            # The path typed here is saved to, or opened and shown (S-RULE-149): judged as FileSystem's would be.
            buttons = (e for e in self.by_window.get(title, []) if e.control in ("button", "split button"))
            saves = _SAVE_TITLES.fullmatch(_fold(title)) is not None or any(
                _fold(e.name) in _SAVE_BUTTONS for e in buttons
            )
            kind = TypingTarget.FILE_SAVE if saves else TypingTarget.FILE_OPEN
            return _Place(kind, f"the {el.name!r} box of the file dialog {title!r}")
        if _fold(title) in _SEARCH_TITLES and el.control == "edit":
            return _Place(TypingTarget.RUN_BOX, f"the {title} search box, which starts what is typed")
        what = "password field" if el.is_password else el.control
        return _Place(TypingTarget.TEXT, f"the {what} {el.name!r} in {title!r}")

    def _in_address_band(self, el: Element) -> bool:
        elements = self.by_window.get(el.window or "", [])
        in_band = any(_fold(a.name) == "address band root" for a in self.ancestors(el))
        explorer = _fold(el.window).endswith("file explorer")
        return in_band or explorer or any(_fold(e.name) == "address band root" for e in elements)

    def browser_toolbar(self, title: str, point: Point) -> bool:
        """Whether `point` may be above the page of browser window `title` (rule 4)."""
        page = next((e for e in self.by_window.get(title, []) if e.control == "document" and e.point), None)
        size = self.sizes.get(title)
        if page is None or page.point is None or size is None:
            return True  # nothing to place the page by: the address bar cannot be excluded
        page_top_at_most = page.point[1] - (size[1] - BROWSER_TOOLBAR_MAX_PX) // 2
        return point[1] < page_top_at_most

    def focus_context(self) -> list[str]:
        """Titles of the focused window and of every window holding a focused element."""
        titles = [el.window for el in self.capture.elements if "focused" in el.flags and el.window is not None]
        if self.capture.focused is not None:
            titles.insert(0, self.capture.focused.name)
        return list(dict.fromkeys(titles))


def _is_console_area(el: Element) -> bool:
    name = _fold(el.name)
    return (el.control == "document" and name == "text area") or el.control in _TERMINAL_CTRLS


def typing_target(capture: Capture, point: Point | None) -> tuple[TypingTarget, str]:
    """Where text typed at `point` (or at the keyboard focus) lands, from what the model saw.

    Args:
        capture: the parsed Snapshot/Screenshot the call acts on.
        point: the screen point the text is typed at (Type `loc`, a MultiEdit item), or None
            for the keyboard focus (a paste, a label the gateway could not place).

    Returns:
        `(kind, description)`: the riskiest place the text may land in (module rules 1–4) and a
        plain description of it for reasons ("the console window 'Windows PowerShell'").
    """
    view = _View(capture)
    places = _at_point(view, point) if point is not None else _at_focus(view)
    found = _riskiest(places)
    if found is not None:
        return found.kind, found.description
    return TypingTarget.UNKNOWN, "an unknown place: the observation shows no focused window or element"


# The buttons of a Run box or Create new task box that run what its Open: field holds.
_SUBMIT_BUTTONS = frozenset({"ok", "run"})


def submit_target(capture: Capture, point: Point | None) -> tuple[TypingTarget, str] | None:
    """The Run box whose line a click at `point` runs (its OK button), or None for any other click.

    A click on OK is the Enter of a Run box or Task Manager's Create new task box: what the Open:
    field holds runs (policy/typed.py asks when the gateway has lost that line).

    Args:
        capture: the parsed Snapshot the click acts on.
        point: the click's screen point, or None.

    Returns:
        `(RUN_BOX, description)` for an OK button printed exactly at `point`, else None.
    """
    if point is None:
        return None
    view = _View(capture)
    for el in capture.elements:
        if el.point == point and el.control == "button" and _fold(el.name) in _SUBMIT_BUTTONS:
            place = view.window_place(el.window or "")
            if place is not None and place.kind is TypingTarget.RUN_BOX:
                return place.kind, place.description
    return None


# A file dialog's buttons that save or open what its name box holds (S-RULE-149).
_FILE_SUBMIT_BUTTONS = frozenset({"save", "&save", "open", "&open", "ok", "export", "download", "upload"})
# A file dialog's folder, when its breadcrumb shows it (`Address: C:\Users\me\Documents`).
_DIALOG_FOLDER = re.compile(r"address: (.+)", re.IGNORECASE)


def file_name_box(capture: Capture, point: Point | None) -> tuple[TypingTarget, str, str, str | None] | None:
    """The file dialog whose Save or Open button is printed exactly at `point`, with the path its name box holds.

    Args:
        capture: the parsed Snapshot the click acts on.
        point: the click's screen point, or None.

    Returns:
        `(FILE_SAVE or FILE_OPEN, description, the box's text, the dialog's folder or None)`, or None when the
        click is on no such button or the box holds nothing.
    """
    if point is None:
        return None
    view = _View(capture)
    for el in capture.elements:
        if (
            el.point != point
            or el.control not in ("button", "split button")
            or _fold(el.name) not in _FILE_SUBMIT_BUTTONS
        ):
            continue
        for box in view.by_window.get(el.window or "", []):
            place = view.element_place(box) if _fold(box.name) in FILE_NAME_BOXES else None
            if place is not None and place.kind in (TypingTarget.FILE_SAVE, TypingTarget.FILE_OPEN) and box.value:
                return place.kind, place.description, box.value, dialog_folder(capture, el.window or "")
    return None


def dialog_folder(capture: Capture, title: str) -> str | None:
    """The folder a file dialog shows in its breadcrumb (`Address: C:\\x`), or None when it shows none."""
    for el in capture.elements:
        found = _DIALOG_FOLDER.fullmatch(el.name.strip()) if el.window == title else None
        if found is not None:
            return found.group(1).strip()
    return None


# Editors and IDEs that run their open document, or the code selected in it, on a key or a toolbar button: text typed
# there was an editor's, never read as a command, and the key runs it (S-RULE-139). By the window title (folded,
# English), with the chords that run (`(key, held modifiers)`, as `uia_keys.presses` names them).
_Chord: TypeAlias = tuple[str, frozenset[str]]
_F5: _Chord = ("F5", frozenset())
_F8: _Chord = ("F8", frozenset())
_RUNNERS: tuple[tuple[re.Pattern[str], str, frozenset[_Chord]], ...] = (
    (
        re.compile(r".*\bvisual studio code(?: - insiders)?"),
        "Visual Studio Code",
        frozenset(
            {_F5, _F8, ("F5", frozenset({"ctrl"})), ("ENTER", frozenset({"shift"})), ("n", frozenset({"ctrl", "alt"}))}
        ),
    ),
    (
        re.compile(r".* - microsoft visual studio(?: preview)?"),
        "Visual Studio",
        frozenset({_F5, ("F5", frozenset({"ctrl"}))}),
    ),
    (re.compile(r"(?:.* - )?windows powershell ise(?: \(x86\))?"), "Windows PowerShell ISE", frozenset({_F5, _F8})),
    (
        re.compile(r".* - (?:microsoft )?sql server management studio|.* - azure data studio"),
        "a SQL editor",
        frozenset({_F5, ("e", frozenset({"ctrl"})), ("x", frozenset({"alt"}))}),
    ),
    (re.compile(r"microsoft visual basic for applications.*"), "the VBA editor", frozenset({_F5, _F8})),
    (
        re.compile(r"(?:.* - )?rstudio"),
        "RStudio",
        frozenset(
            {
                ("ENTER", frozenset({"ctrl"})),
                ("ENTER", frozenset({"ctrl", "shift"})),
                ("s", frozenset({"ctrl", "shift"})),
            }
        ),
    ),
    (re.compile(r"spyder(?: \(.*\))?(?: - .*)?"), "Spyder", frozenset({_F5, ("F9", frozenset())})),
    (re.compile(r".+\.pyw? - .+ \(\d+\.\d+\.\d+\)"), "IDLE's editor", frozenset({_F5})),
)
# The toolbar buttons of those editors that run (VS Code's "Run Python File", ISE's "Run Script (F5)", SSMS "Execute").
_RUN_BUTTONS = re.compile(
    r"(?:run|start debugging|start without debugging|execute|run script|run selection|run python file"
    r"|run cell|run all|run current line|source)(?: \(.*\))?"
)


def _runner_of(title: str) -> tuple[str, frozenset[_Chord]] | None:
    folded = _title(title)
    for pattern, name, chords in _RUNNERS:
        if pattern.fullmatch(folded):
            return name, chords
    return None


def document_run_keys(capture: Capture, shortcut: object) -> str | None:
    """The editor a Shortcut's keys make run its document or selection (F5 in VS Code, F8 in the ISE), or None.

    Args:
        capture: the parsed Snapshot the keys land in (its focused window, and windows holding a focused element).
        shortcut: the Shortcut call's `shortcut` argument.

    Returns:
        A description for a reason ("F5 in Visual Studio Code 'x.ps1 - proj - Visual Studio Code'"), or None.
    """
    pressed = presses(sendkeys_text(shortcut)) if isinstance(shortcut, str) else None
    if not pressed:
        return None
    for title in _View(capture).focus_context():
        runner = _runner_of(title)
        if runner is None:
            continue
        for press in pressed:
            if (press.key, press.held) in runner[1]:
                chord = "+".join((*sorted(press.held), press.key))
                return f"{chord} in {runner[0]} {title!r}"
    return None


# File Explorer's keys that delete the selected items (S-RULE-153): Delete and Ctrl+D to the Recycle Bin,
# Shift+Delete for good.
_DELETE_KEYS = frozenset({"DELETE", "DEL"})
_EXPLORER_TITLE = re.compile(r".* - file explorer")


@dataclass(frozen=True, slots=True)
class ExplorerDelete:
    """What File Explorer's delete keys delete: the items selected in the folder its window shows.

    Attributes:
        description: the window, for a reason.
        paths: the focused item (`<folder>\\<name>`), else `<folder>\\*` standing for whichever is selected.
        permanent: Shift+Delete (no Recycle Bin).
    """

    description: str
    paths: tuple[str, ...]
    permanent: bool
    # What the key does to them, for a reason: "deletes … to the Recycle Bin", "cuts …" (S-RULE-218).
    how: str = "deletes"


def explorer_delete(capture: Capture, shortcut: object) -> ExplorerDelete | None:
    """The items a Shortcut's Delete (or Ctrl+D) deletes in the focused File Explorer window, or None; Ctrl+X
    (cut: the next paste anywhere moves them out of the folder) and F2 (rename: the name typed next replaces
    theirs) take them out of their place as surely, so they count as the delete of them (S-RULE-218).

    The Snapshot prints no selection (FORMATS.md: `is_selected` is not rendered), so the keyboard-focused item
    is taken for it, else any item of the folder; the folder is the window's address (its `Address` box's
    value, or an `Address: …` breadcrumb). With the keyboard in a text box (the address, a search, a rename)
    the key edits that text instead.
    """
    pressed = presses(sendkeys_text(shortcut)) if isinstance(shortcut, str) else None
    deletes = [p for p in pressed or () if p.key in _DELETE_KEYS or (p.key.lower() == "d" and "ctrl" in p.held)]
    cuts = [p for p in pressed or () if p.key.lower() == "x" and "ctrl" in p.held]
    renames = [p for p in pressed or () if p.key == "F2" and not p.held]
    shown = _explorer_folder(capture) if deletes or cuts or renames else None
    if shown is None:
        return None
    title, folder, elements = shown
    items = [e.name for e in elements if e.control == "list item" and "focused" in e.flags]
    paths = tuple(folder.rstrip("\\/") + "\\" + name for name in items or ["*"])
    permanent = any("shift" in p.held for p in deletes)
    if deletes:
        how = "deletes"
    elif cuts:
        how = "cuts (the next paste anywhere moves it out of its folder)"
    else:
        how = "renames (the name typed next replaces its own)"
    return ExplorerDelete(f"File Explorer {title!r} (showing {folder})", paths, permanent, how)


def explorer_paste(capture: Capture, shortcut: object) -> tuple[str, str] | None:
    """The folder a Shortcut's paste (Ctrl+V, Shift+Insert) drops the copied files into in the focused File
    Explorer window, with a description, or None (S-RULE-153): which files is not known."""
    pressed = presses(sendkeys_text(shortcut)) if isinstance(shortcut, str) else None
    pastes = [p for p in pressed or () if (p.key.lower() == "v" and "ctrl" in p.held) or
              (p.key == "INSERT" and "shift" in p.held)]  # fmt: skip
    shown = _explorer_folder(capture) if pastes else None
    if shown is None:
        return None
    return f"File Explorer {shown[0]!r} (showing {shown[1]})", shown[1]


def _explorer_folder(capture: Capture) -> tuple[str, str, list[Element]] | None:
    """The focused File Explorer window's title, the folder its address shows and its elements, when the keyboard
    is on its items (not in its address, search or rename box, where keys edit text)."""
    window = capture.focused
    if window is None:
        return None
    elements = _View(capture).by_window.get(window.name, [])
    folder = explorer_folder_of(capture, window.name, elements)
    typing = any("focused" in e.flags and e.control in ("edit", "combo box", "document") for e in elements)
    if folder is None or typing:
        return None
    return window.name, folder, elements


def explorer_folder_of(capture: Capture, title: str, elements: Sequence[Element] | None = None) -> str | None:
    """The folder the File Explorer window titled `title` shows (its `Address` value or breadcrumb), or None when
    that window is not File Explorer's (`… - File Explorer`, or one with an `Address Band Root`) or shows none.
    `elements`: the window's elements, when the caller has them."""
    shown = [e for e in capture.elements if e.window == title] if elements is None else elements
    is_explorer = _EXPLORER_TITLE.fullmatch(_fold(title)) is not None or any(
        _fold(e.name) == "address band root" for e in shown
    )
    if not is_explorer:
        return None
    folder = next((e.value for e in shown if _fold(e.name) == "address" and e.value), None)
    return folder or dialog_folder(capture, title)


def document_run_button(capture: Capture, point: Point | None) -> str | None:
    """The editor whose run button (`Run Python File`, `Run Script (F5)`, `Execute`) is printed exactly at `point`."""
    if point is None:
        return None
    for el in capture.elements:
        if el.point == point and el.control in ("button", "menu item", "split button") and el.window is not None:
            runner = _runner_of(el.window)
            if runner is not None and _RUN_BUTTONS.fullmatch(_fold(el.name)):
                return f"the {el.name!r} button of {runner[0]} {el.window!r}"
    return None


def _at_point(view: _View, point: Point) -> list[_Place]:
    context = [p for t in view.focus_context() if (p := view.window_place(t)) is not None]
    shown = [el for el in view.capture.elements if el.kind == "element" and el.point is not None]
    exact = [el for el in shown if el.point == point]
    if exact:
        return [view.element_place(el) for el in exact]
    places = [p for p in context if p.kind in _COMMAND_PLACES]
    if shown:
        nearest = min(shown, key=lambda el: math.dist(el.point or point, point))
        title = nearest.window or ""
        if is_browser_title(title) and view.browser_toolbar(title, point):
            places.append(_Place(TypingTarget.ADDRESS_BAR, f"the toolbar of {title!r}, where its address bar is"))
        places.append(view.element_place(nearest))
    elif view.capture.focused is not None:
        places.append(_unseen(view.capture.focused.name))
    return places


def _at_focus(view: _View) -> list[_Place]:
    focused = [el for el in view.capture.elements if el.kind == "element" and "focused" in el.flags]
    if focused:
        return [view.element_place(el) for el in focused]
    window = view.capture.focused
    if window is not None:
        known = view.window_place(window.name)
        return [known if known is not None else _unseen(window.name)]
    return [p for t in view.by_window if (p := view.window_place(t)) is not None]


def _unseen(title: str) -> _Place:
    """The focused window with no element known to hold the keyboard."""
    if is_browser_title(title):
        return _Place(TypingTarget.ADDRESS_BAR, f"{title!r} with no focused page element: its address bar may be")
    return _Place(TypingTarget.UNKNOWN, f"somewhere in {title!r}, which shows no focused element")


# ---------------------------------------------------------------------------------------
# What a call types


@dataclass(frozen=True, slots=True)
class TypedInput:
    """One piece of text a call puts in.

    Attributes:
        text: the text as given.
        enter: whether Enter follows (`press_enter`, or a line break in the text: typed into a
            console, a line break submits what precedes it).
        point: where it is typed (`loc` or a MultiEdit `locs` item), when given as coordinates.
        label: the label it is typed at, when given by label.
        paste: True for Clipboard `set`: the text arrives only with a later paste.
    """

    text: str
    enter: bool
    point: Point | None = None
    label: int | None = None
    paste: bool = False


def _has_break(text: str) -> bool:
    return "\n" in text or "\r" in text


def _point(value: object) -> Point | None:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if isinstance(value, list | tuple) and len(value) >= 2:
        x, y = value[0], value[1]
        if isinstance(x, int) and isinstance(y, int) and not isinstance(x, bool) and not isinstance(y, bool):
            return (x, y)
    return None


def _items(value: object) -> list[object]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return []
    return list(value) if isinstance(value, list | tuple) else []


def typed_inputs(tool: str, args: Mapping[str, object]) -> list[TypedInput]:
    """Every text a Type, MultiEdit or Clipboard `set` call puts in, with where and whether Enter follows.

    Args:
        tool: upstream's tool name.
        args: the call's arguments under upstream's names (Type `text`/`loc`/`label`/`press_enter`;
            MultiEdit `locs` `[[x, y, text], …]` / `labels` `[[label, text], …]`, lists or JSON
            strings; Clipboard `mode`/`text`).

    Returns:
        The inputs in order; empty for any other tool, a Clipboard `get`, or a missing text.
    """
    if tool == "Type":
        text = args.get("text")
        if not isinstance(text, str):
            return []
        label = args.get("label")
        return [
            TypedInput(
                text=text,
                enter=truthy(args.get("press_enter", False)) or _has_break(text),
                point=_point(args.get("loc")),
                label=label if isinstance(label, int) and not isinstance(label, bool) else None,
            )
        ]
    if tool == "MultiEdit":  # each item is typed with clear=True and no Enter (upstream tools/multi.py)
        out = [
            TypedInput(text=str(item[2]), enter=_has_break(str(item[2])), point=_point(item[:2]))
            for item in _items(args.get("locs"))
            if isinstance(item, list | tuple) and len(item) == 3
        ]
        out += [
            TypedInput(text=str(item[1]), enter=_has_break(str(item[1])), label=item[0])
            for item in _items(args.get("labels"))
            if isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], int)
        ]
        return out
    if tool == "Clipboard" and str(args.get("mode", "")).strip().lower() == "set":
        text = args.get("text")
        return [TypedInput(text=text, enter=_has_break(text), paste=True)] if isinstance(text, str) else []
    return []


def typed_commands(tool: str, args: Mapping[str, object]) -> list[tuple[str, bool]]:
    """The text(s) a Type / MultiEdit / Clipboard `set` call puts in, with whether Enter follows.

    Args:
        tool: upstream's tool name.
        args: the call's arguments under upstream's names.

    Returns:
        `(text, enter)` pairs in order (see `typed_inputs`); a multi-line text stays one entry,
        so a variable set on one line is followed into the next.
    """
    return [(item.text, item.enter) for item in typed_inputs(tool, args)]


def _events(tool: str, args: Mapping[str, object]) -> tuple[KeyEvent, ...]:
    return key_events(args.get("shortcut")) if tool == "Shortcut" else ()


def is_paste_chord(tool: str, args: Mapping[str, object]) -> bool:
    """Whether a Shortcut call pastes: Ctrl+V, Shift+Insert, Ctrl+Shift+V (Windows Terminal) or Win+V (the
    clipboard history), pressed as Windows-MCP presses its keys (`policy.rules.uia_keys`).

    Args:
        tool: upstream's tool name.
        args: the call's arguments (`shortcut`, keys joined by `+`).

    Returns:
        True when one of the keys the call presses pastes.
    """
    return any(e.kind in ("paste", "unknown-paste") for e in _events(tool, args))


def is_enter_chord(tool: str, args: Mapping[str, object]) -> bool:
    """Whether a Shortcut call presses Enter (alone, with modifiers, or after text it types).

    Args:
        tool: upstream's tool name.
        args: the call's arguments.

    Returns:
        True when one of the keys the call presses is Enter.
    """
    return any(e.kind == "enter" for e in _events(tool, args))


def follow_keys(line: str, known: bool, events: Sequence[KeyEvent], clipboard: str | None) -> tuple[str, bool]:
    """The line being typed, and whether the gateway still knows it, after a Shortcut's keys.

    Args:
        line: the text typed since the last Enter.
        known: whether that line is known.
        events: the keys (`uia_keys.key_events`).
        clipboard: what a paste puts in, None when the gateway does not know it.

    Returns:
        `(line, known)` after the keys.
    """
    for e in events:
        if e.kind == "text":
            line += e.text
        elif e.kind in ("enter", "end-line"):
            line, known = "", True
        elif e.kind == "paste" and clipboard is not None:
            line += clipboard
            if _has_break(clipboard):
                line, known = _BREAKS.split(line)[-1], True
        elif e.kind in ("paste", "unknown-paste", "edit"):
            known = False
    return line[-MAX_UNENTERED:], known


# The most of the line typed since the last Enter that is kept (a console line is rarely longer).
MAX_UNENTERED = 4096
_BREAKS = re.compile(r"[\r\n]")


def unentered_after(line: str, tool: str, args: Mapping[str, object], pasted: str | None = None) -> str:
    """The text typed since the last Enter, after a call that reached the desktop.

    A console runs a line when Enter comes, whatever number of calls typed it, so the pieces are
    kept and judged together with the next text (policy/typed.py). Kept across clicks and other
    calls (too long a line errs towards judging); ended by Enter (`press_enter`, a line break, the
    `enter` chord) or Esc; not by a Type with `clear` (Ctrl+A, Backspace: a Command Prompt keeps its line).
    MultiEdit types each item with `clear` into form fields.

    Args:
        line: the text typed since the last Enter, before this call.
        tool: upstream's tool name.
        args: the call's arguments.
        pasted: the text a paste chord put in (the known clipboard), None when unknown or no paste.

    Returns:
        The text typed since the last Enter after this call (at most `MAX_UNENTERED` characters).
    """
    if tool == "Type" and isinstance(args.get("text"), str):
        if truthy(args.get("press_enter", False)):
            entered = _with_typed(line, args)
            return _continued(entered + "\n")
        # `clear` is Ctrl+A then Backspace (Windows-MCP): an edit field and PSReadLine empty the line, but in a
        # Command Prompt Ctrl+A selects the screen and the line stays; the line is kept (judged longer).
        line = _with_typed(line, args)
    elif tool == "MultiEdit":
        items = typed_inputs(tool, args)
        if items:
            line = items[-1].text
    elif tool == "Shortcut":
        return follow_keys(line, True, _events(tool, args), pasted)[0]
    elif pasted is not None:
        line += pasted
    return _continued(line)


# A line a shell does not run yet when Enter comes: it waits for the rest (PowerShell's `>>`, cmd's `More?`, a
# Linux shell's `>`): a trailing backtick, caret, backslash or pipe, a here-string or a block left open (S-RULE-146).
_CONTINUES = re.compile(r"[`^\\|]\s*$")
_HERE_OPEN = re.compile(r"@(['\"])\s*$", re.MULTILINE)
_OPENERS = {"(": ")", "{": "}"}


def continues(text: str) -> bool:
    """Whether a console waits for more after the lines `text` are entered, in any shell it may hold (PowerShell, cmd,
    a Linux shell): a continuation mark at the end, a here-string or a bracketed block left open. Errs towards yes:
    what follows is then judged together with `text`, never instead of it. A quote left open is no sign (cmd runs
    `echo don't`)."""
    if _CONTINUES.search(text):
        return True
    here = _HERE_OPEN.search(text)
    if here is not None and not re.search(rf"^{here.group(1)}@", text[here.end() :], re.MULTILINE):
        return True
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in _OPENERS:
            depth += 1
        elif ch in _OPENERS.values():
            depth = max(0, depth - 1)
    return depth > 0


def _continued(text: str) -> str:
    """What a console still holds after `text` was typed: the line since the last break and, when the lines entered
    before it are not complete (`continues`), those lines too (S-RULE-146); at most `MAX_UNENTERED` characters."""
    *ran, last = _BREAKS.split(text)
    if ran and continues("\n".join(ran)):
        return ("\n".join(ran) + "\n" + last)[-MAX_UNENTERED:]
    return last[-MAX_UNENTERED:]


def _with_typed(line: str, args: Mapping[str, object]) -> str:
    """The line with a Type call's text in it: in front with `caret_position` start, else after it."""
    text = str(args["text"])
    return text + line if caret_position(args) == "start" else line + text


def entered_lines(line: str, tool: str, args: Mapping[str, object], pasted: str | None = None) -> list[str]:
    """The lines a call enters (each ended by Enter or a line break), with the text typed before it in front.

    Args:
        line: the text typed since the last Enter, before this call.
        tool: upstream's tool name.
        args: the call's arguments.
        pasted: the text a paste chord put in (the known clipboard), None when unknown or no paste.

    Returns:
        The lines in the order they run; [] when the call ends no line.
    """
    if tool == "Type" and isinstance(args.get("text"), str):
        parts = _BREAKS.split(_with_typed(line, args))
        return parts if truthy(args.get("press_enter", False)) else parts[:-1]
    if tool == "Shortcut":
        entered: list[str] = []
        for e in _events(tool, args):
            if e.kind == "text":
                line += e.text
            elif e.kind in ("enter", "end-line"):
                entered.append(line)
                line = ""
            elif e.kind == "paste" and pasted is not None:
                parts = _BREAKS.split(line + pasted)
                entered += parts[:-1]
                line = parts[-1]
        return entered
    if pasted is not None:
        return _BREAKS.split(line + pasted)[:-1]
    return []


# A change of a console's current folder in an entered line (PowerShell's and cmd's spellings, at the start of
# a statement), and a return to an earlier one (`popd`: which one the gateway does not follow).
_MOVES = re.compile(
    r"(?:^|[;&|(]|&&)\s*(?:(?P<pop>popd|pop-location)(?![\w-])"
    r"|(?:cd|chdir|sl|set-location|pushd|push-location)(?:\.exe)?\s+(?:/d\s+)?(?:-(?:literal)?path\s+)?"
    r"(?P<to>[^;&|\r\n]+))",
    re.IGNORECASE,
)
# The most folder changes kept: each is judged in front of the next command typed (relative ones compose).
MAX_MOVES = 8
UNKNOWN_FOLDER = "$__unknown_folder"


def console_moves_after(
    moves: tuple[str, ...], line: str, tool: str, args: Mapping[str, object], pasted: str | None = None
) -> tuple[str, ...]:
    """The folder changes entered in a console since the gateway started (S-RULE-120), after a call.

    A console keeps its current folder between calls: `cd C:\\Windows\\System32` entered by one Type call
    and `del hal.dll` by the next delete a system file, though the second names no protected path. Each
    `cd`/`Set-Location`/`pushd` argument, as written, is kept (the last `MAX_MOVES`), and policy/typed.py
    judges the next typed command with them in front as `Set-Location` statements. `popd` goes back to
    a folder the gateway does not follow: the folder becomes unknown. Desktop-wide like `unentered`
    (a `cd` typed into an editor is kept too: too long rather than too short).
    """
    for entered in entered_lines(line, tool, args, pasted):
        for found in _MOVES.finditer(entered):
            to = UNKNOWN_FOLDER if found.group("pop") else found.group("to").strip()
            if to:
                moves = (*moves, to)[-MAX_MOVES:]
    return moves


def location_statements(moves: Sequence[str]) -> str:
    """The folder changes as PowerShell statements to put in front of a typed command (`Set-Location 'C:\\x'; `).

    A `cd` argument is written for cmd or PowerShell: cmd's `%VAR%` is read as `$env:VAR`, and an unquoted one
    is quoted whole (cmd's `cd C:\\Program Files` needs no quotes; PowerShell would read two words).
    """
    out = []
    for move in moves:
        text = re.sub(r"%(\w+)%", r"$env:\1", move)
        if move != UNKNOWN_FOLDER and text[:1] not in ("'", '"'):
            text = f'"{text}"' if "$" in text else "'" + text.replace("'", "''") + "'"
        out.append(f"Set-Location {text}; ")
    return "".join(out)


def edits_line(text: str) -> bool:
    """Whether typed text holds a key that changes a line in ways the gateway cannot follow: a Tab
    (upstream types it as the Tab key: completion in a console) or any other control character but a
    line break (Backspace, Esc, Delete typed as characters)."""
    return any((c < " " and c not in "\n\r") or c == "\x7f" for c in text)


def caret_position(args: Mapping[str, object]) -> str:
    """Type's `caret_position`: `start` types before the field's text, `end` after it, `idle` where the caret is."""
    return str(args.get("caret_position") or "idle").strip().lower()


def line_known_after(
    known: bool, line: str, tool: str, args: Mapping[str, object], *, paste: bool = False, pasted: str | None = None
) -> bool:
    """Whether the gateway still knows the text of the line being typed, after a call that reached the desktop.

    `unentered_after` follows typing, pasting a known clipboard and single keys that type a letter,
    digit or space. Anything else a key can do to a line it cannot follow — Tab completion, history
    (Up, F7, Ctrl+R), Backspace, Delete, the arrows, undo — nor where a click puts the caret in a
    field that already holds text (a Run box or an address bar moves it; a console does not, but
    the gateway cannot tell the two apart here). After such a call, the next Enter in a place that
    runs its line asks a person (policy/typed.py). Enter, Esc and MultiEdit (each item typed with
    `clear` into a form field) start a line the gateway knows again; `clear` alone does not (a Command
    Prompt keeps its line through Ctrl+A and Backspace).

    Args:
        known: whether the line was known before this call.
        line: the text typed since the last Enter, before this call.
        tool: upstream's tool name.
        args: the call's arguments.
        paste: the call is a paste chord.
        pasted: the clipboard text it pasted, None when the gateway does not know it.

    Returns:
        Whether the line is known after the call.
    """
    if tool == "Type" and isinstance(args.get("text"), str):
        text = str(args["text"])
        if truthy(args.get("press_enter", False)):
            return True
        if edits_line(_BREAKS.split(text)[-1]):  # a Tab (completion) or another control key stays on the line
            return False
        if _has_break(text):
            return True
        caret_moved = (
            bool(line)
            and caret_position(args) == "idle"
            and (args.get("loc") is not None or args.get("label") is not None)
        )
        return known and not caret_moved
    if tool == "MultiEdit":
        return True
    if tool != "Shortcut":
        return known
    return follow_keys(line, known, _events(tool, args), pasted if paste else None)[1]
