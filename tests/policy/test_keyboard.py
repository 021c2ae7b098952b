"""The keyboard is a shell: where typed text lands and what a call types (issue 18 item 4).

Captures come from the simulator's command-place scenarios, rendered and parsed exactly as the
gateway parses upstream's Snapshot text; a few are built by hand for shapes no scenario has.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from gateway.observe.parse import parse_text
from gateway.sim.capture import CaptureRequest, capture
from gateway.sim.scenarios.files import load_scenario
from gateway.sim.world import World
from policy.observation import Capture, Element, Point, Window
from policy.rules.keyboard import (
    TypedInput,
    TypingTarget,
    is_browser_title,
    is_console_title,
    is_enter_chord,
    is_paste_chord,
    typed_commands,
    typed_inputs,
    typing_target,
)
from tests._requirements import requirement

T = TypingTarget
EDGE = "Example Domain - Microsoft\u200b Edge"


@cache
def snap(name: str) -> Capture:
    """The scenario's Snapshot text, parsed by the gateway's parser."""
    text = capture(World(load_scenario(name)), CaptureRequest()).text
    parsed = parse_text("Snapshot", text)
    assert parsed.warnings == (), parsed.warnings
    return parsed


def retitle(cap: Capture, old: str, new: str) -> Capture:
    """The same capture with window `old` renamed `new` (tables, window lines and element windows)."""

    def el(e: Element) -> Element:
        return replace(
            e, window=new if e.window == old else e.window, name=new if e.kind == "window" and e.name == old else e.name
        )

    focused = cap.focused
    if focused is not None and focused.name == old:
        focused = replace(focused, name=new)
    return replace(cap, focused=focused, elements=tuple(el(e) for e in cap.elements))


def kind(cap: Capture, point: Point | None = None) -> TypingTarget:
    return typing_target(cap, point)[0]


@pytest.mark.parametrize(
    ("scenario", "expected", "words"),
    [
        ("console-powershell", T.CONSOLE, "Windows PowerShell"),
        ("console-cmd", T.CONSOLE, "Command Prompt"),
        ("windows-terminal", T.CONSOLE, "Windows PowerShell"),
        ("run-box", T.RUN_BOX, "Run box"),
        ("taskmgr-run", T.RUN_BOX, "Task Manager"),
        ("explorer-address", T.ADDRESS_BAR, "Documents - File Explorer"),
        ("browser-address", T.ADDRESS_BAR, "Microsoft"),
        ("uac-prompt", T.CREDENTIAL_PROMPT, "User Account Control"),
        ("notepad", T.TEXT, "Text editor"),
        ("default", T.TEXT, "notes.txt - Notepad"),
        ("settings", T.TEXT, "Search settings"),
        ("browser", T.ADDRESS_BAR, "Google Chrome"),  # no page element holds the focus
    ],
)
def test_the_focused_place_of_each_scenario_is_classified(scenario: str, expected: TypingTarget, words: str) -> None:
    """Without a point, the focused element (else the focused window) is the target."""
    found, description = typing_target(snap(scenario), None)
    assert found is expected
    assert words in description


@pytest.mark.parametrize(
    ("scenario", "point", "expected"),
    [
        ("console-powershell", (741, 452), T.CONSOLE),  # the Text Area
        ("console-powershell", (1277, 136), T.CONSOLE),  # its Close button: still the console window
        ("console-powershell", (300, 700), T.CONSOLE),  # no element there: the console is in front
        ("console-cmd", (250, 200), T.CONSOLE),
        ("windows-terminal", (810, 490), T.CONSOLE),
        ("windows-terminal", (508, 102), T.CONSOLE),  # the "Ubuntu" tab
        ("run-box", (233, 924), T.RUN_BOX),
        ("run-box", (242, 924), T.RUN_BOX),  # the combo box around the edit
        ("run-box", (600, 500), T.RUN_BOX),  # nowhere in particular: the Run box holds the focus
        ("run-box", (47, 47), T.TEXT),  # exactly a desktop icon
        ("taskmgr-run", (543, 372), T.RUN_BOX),
        ("taskmgr-run", (800, 201), T.TEXT),  # exactly a row of Task Manager's list
        ("explorer-address", (690, 156), T.ADDRESS_BAR),
        ("explorer-address", (700, 150), T.ADDRESS_BAR),  # near the address edit
        ("explorer-address", (1239, 156), T.TEXT),  # the search box
        ("explorer-address", (905, 223), T.TEXT),  # a file in the list
        ("browser-address", (850, 62), T.ADDRESS_BAR),  # where Edge's address bar is, never printed
        ("browser-address", (300, 20), T.ADDRESS_BAR),  # the tab strip
        ("browser-address", (800, 375), T.TEXT),  # the page's search box
        ("browser-address", (805, 378), T.TEXT),  # next to it
        ("browser-address", (960, 700), T.TEXT),  # inside the page
        ("browser", (850, 62), T.ADDRESS_BAR),
        ("browser", (800, 375), T.TEXT),
        ("uac-prompt", (960, 556), T.CREDENTIAL_PROMPT),
        ("uac-prompt", (960, 600), T.CREDENTIAL_PROMPT),
        ("notepad", (800, 520), T.TEXT),
        ("notepad", (250, 850), T.TEXT),
        ("notepad", (24, 1056), T.TEXT),  # the Start button
        ("default", (800, 520), T.TEXT),
        ("settings", (1140, 710), T.TEXT),
        ("settings", (720, 710), T.TEXT),  # a password field of an app is ordinary text
    ],
)
def test_the_place_at_a_point_is_classified(scenario: str, point: Point, expected: TypingTarget) -> None:
    """With a point, the element printed there (or nearest), and the foreground context, decide."""
    assert kind(snap(scenario), point) is expected


@pytest.mark.parametrize(
    "title",
    [
        "Windows PowerShell",
        "Administrator: Windows PowerShell",
        "Select Administrator: Windows PowerShell",
        "PowerShell 7 (x64)",
        "C:\\Program Files\\PowerShell\\7\\pwsh.exe",
        "Windows PowerShell ISE",
        "Command Prompt",
        "Administrator: Command Prompt - ping localhost",
        "C:\\WINDOWS\\system32\\cmd.exe",
        "C:\\WINDOWS\\system32\\cmd.exe - ping 1.1.1.1",  # running python, it is a language prompt (S-RULE-103)
        "Developer PowerShell for VS 2022",
        "x64 Native Tools Command Prompt for VS 2022",
        "build - PowerShell",
        "Ubuntu",
        "Ubuntu-22.04",
        "kali-linux",
        "demo@DESKTOP-42: ~",
        "MINGW64:/c/Users/demo",
    ],
)
def test_console_titles_make_a_console(title: str) -> None:
    """A console is known by its title, however Windows decorates it."""
    assert is_console_title(title)
    assert kind(retitle(snap("notepad"), "powershell notes.txt - Notepad", title), (800, 520)) is T.CONSOLE


@pytest.mark.parametrize(
    "title",
    [
        "powershell notes.txt - Notepad",
        "Command Prompt cheatsheet.txt - Notepad",
        "cmd.txt - Notepad",
        "Ubuntu install guide.docx - Word",
        "Debian notes - Notepad",
        "PowerShell scripts - File Explorer",
        "Run.txt - Notepad",
        "Run",  # titled Run, but no "Open:" edit: not the Run box
        "Terminal velocity.pdf - Adobe Acrobat",
    ],
)
def test_titles_that_only_mention_a_shell_are_ordinary_text(title: str) -> None:
    """A document whose name mentions a shell is typed into as text, not as a command."""
    assert not is_console_title(title)
    assert kind(retitle(snap("notepad"), "powershell notes.txt - Notepad", title), (800, 520)) is T.TEXT


@pytest.mark.parametrize(
    ("scenario", "old", "new", "point", "expected"),
    [
        ("windows-terminal", "Windows PowerShell", "Ubuntu", (810, 490), T.CONSOLE),
        ("windows-terminal", "Windows PowerShell", "my project", (810, 490), T.CONSOLE),  # its terminal element
        ("console-cmd", "Command Prompt", "Build log", (741, 452), T.CONSOLE),  # its Text Area
        ("console-cmd", "Command Prompt", "Build log", None, T.CONSOLE),
        ("uac-prompt", "User Account Control", "Windows Security", (960, 556), T.CREDENTIAL_PROMPT),
        ("explorer-address", "Documents - File Explorer", "Documents", (690, 156), T.ADDRESS_BAR),  # Windows 10
        ("taskmgr-run", "Create new task", "Run new task", None, T.RUN_BOX),
        ("run-box", "Run", "Open a file", None, T.TEXT),  # the same dialog under another title
    ],
)
def test_retitled_windows(scenario: str, old: str, new: str, point: Point | None, expected: TypingTarget) -> None:
    """Title variants and plain titles: the UI tree still shows a console, an address band, a prompt."""
    assert kind(retitle(snap(scenario), old, new), point) is expected


def _window(name: str, height: int = 1032) -> Window:
    return Window(name=name, depth=1, status="Normal", width=1920, height=height, handle=1)


def _el(control: str, name: str, point: Point | None, window: str, *flags: str, depth: int = 1) -> Element:
    return Element(
        kind="element" if point is not None else "structural",
        control=control,
        name=name,
        point=point,
        flags=frozenset(flags),
        depth=depth,
        window=window,
    )


def test_a_page_form_field_named_address_is_text_but_the_browsers_bar_is_not() -> None:
    """A web page's "Address" field is text; a shown "Address and search bar" is the address bar."""
    title = "Checkout - Google Chrome"
    page = (
        _el("document", "Checkout", (960, 561), title),
        _el("edit", "Address", (800, 400), title, "focused"),
    )
    cap = Capture(tool="Snapshot", focused=_window(title), elements=page, tree="present")
    assert kind(cap, None) is T.TEXT
    assert kind(cap, (800, 400)) is T.TEXT
    bar = replace(cap, elements=(*page, _el("edit", "Address and search bar", (850, 62), title)))
    assert kind(bar, (850, 62)) is T.ADDRESS_BAR


def test_an_address_edit_outside_a_shell_address_band_is_text() -> None:
    """An "Address" field in an ordinary form (a contacts app) is not Explorer's address bar."""
    title = "New contact - People"
    cap = Capture(
        tool="Snapshot",
        focused=_window(title, 800),
        elements=(_el("edit", "Name", (400, 200), title), _el("edit", "Address", (400, 260), title, "focused")),
        tree="present",
    )
    assert kind(cap, None) is T.TEXT
    in_band = replace(
        cap,
        elements=(
            _el("pane", "Address Band Root", None, title),
            _el("edit", "Address", (400, 60), title, "focused", depth=2),
        ),
    )
    assert kind(in_band, (400, 60)) is T.ADDRESS_BAR  # a file dialog's address bar runs programs too


@pytest.mark.parametrize(
    ("focused", "tree", "expected"),
    [
        ("Windows PowerShell", "skipped", T.CONSOLE),
        ("Administrator: Command Prompt", "no_elements", T.CONSOLE),
        ("notes.txt - Notepad", "skipped", T.UNKNOWN),
        ("Example Domain - Google Chrome", "skipped", T.ADDRESS_BAR),
        (None, "skipped", T.UNKNOWN),
    ],
)
def test_without_a_tree_only_the_title_speaks(focused: str | None, tree: Any, expected: TypingTarget) -> None:
    """A Screenshot (no UI tree): a console title still counts; an ordinary window is unknown."""
    cap = Capture(tool="Screenshot", focused=_window(focused) if focused else None, tree=tree)
    assert kind(cap, (500, 500)) is expected
    assert kind(cap, None) is expected


def test_the_riskiest_reading_wins_when_several_windows_hold_the_focus() -> None:
    """A focused Notepad document and a focused console text area: the console wins."""
    cap = Capture(
        tool="Snapshot",
        elements=(
            _el("document", "Text editor", (800, 520), "notes.txt - Notepad", "focused"),
            _el("document", "Text Area", (300, 300), "Build", "focused"),
        ),
        tree="present",
    )
    assert typing_target(cap, None) == (T.CONSOLE, "the window 'Build', whose UI tree shows a console")


def test_browser_titles() -> None:
    """Edge's zero-width space and Firefox's em dash are read as browser titles."""
    assert is_browser_title(EDGE) and is_browser_title("Mozilla Firefox")
    assert is_browser_title("Home \u2014 Mozilla Firefox") and is_browser_title("New Tab - Google Chrome")
    assert not is_browser_title("chrome notes.txt - Notepad")


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        (
            "Type",
            {"text": "Remove-Item C:\\Users -Recurse", "loc": [1, 2], "press_enter": True},
            [("Remove-Item C:\\Users -Recurse", True)],
        ),
        ("Type", {"text": "dir", "press_enter": "true"}, [("dir", True)]),
        ("Type", {"text": "dir", "press_enter": "false"}, [("dir", False)]),
        ("Type", {"text": "dir"}, [("dir", False)]),
        ("Type", {"text": "dir\n"}, [("dir\n", True)]),
        ("Type", {"text": "dir\r"}, [("dir\r", True)]),
        ("Type", {"text": "$c='rm'\n& $c x"}, [("$c='rm'\n& $c x", True)]),  # the first line runs
        ("Type", {"text": None}, []),
        ("MultiEdit", {"locs": [[1, 2, "a"], [3, 4, "b\n"]]}, [("a", False), ("b\n", True)]),
        ("MultiEdit", {"locs": '[[1, 2, "calc"]]'}, [("calc", False)]),
        ("MultiEdit", {"labels": [[0, "x"]], "locs": None}, [("x", False)]),
        ("MultiEdit", {"locs": [[1, 2]], "labels": "not json"}, []),
        ("Clipboard", {"mode": "set", "text": "format C:"}, [("format C:", False)]),
        ("Clipboard", {"mode": "set", "text": "shutdown /s\r\n"}, [("shutdown /s\r\n", True)]),
        ("Clipboard", {"mode": "get"}, []),
        ("Shortcut", {"shortcut": "ctrl+v"}, []),
        ("PowerShell", {"command": "dir"}, []),
    ],
)
def test_typed_commands(tool: str, args: dict[str, object], expected: list[tuple[str, bool]]) -> None:
    """The texts a call puts in, with whether Enter follows, under upstream's argument names."""
    assert typed_commands(tool, args) == expected


def test_typed_inputs_say_where_and_how() -> None:
    """Type and MultiEdit carry their points or labels; a Clipboard set is a later paste."""
    assert typed_inputs("Type", {"text": "a", "loc": "[10, 20]"}) == [TypedInput(text="a", enter=False, point=(10, 20))]
    assert typed_inputs("Type", {"text": "a", "label": 3}) == [TypedInput(text="a", enter=False, label=3)]
    assert typed_inputs("MultiEdit", {"locs": [[5, 6, 7]], "labels": [[2, "y"]]}) == [
        TypedInput(text="7", enter=False, point=(5, 6)),
        TypedInput(text="y", enter=False, label=2),
    ]
    assert typed_inputs("Clipboard", {"mode": "set", "text": "z"}) == [TypedInput(text="z", enter=False, paste=True)]


@pytest.mark.parametrize(
    ("shortcut", "paste"),
    [
        ("ctrl+v", True),
        ("Ctrl+V", True),
        ("ctrl + v", True),
        ("control+v", True),
        ("shift+insert", True),
        ("shift+ins", True),
        ("ctrl+shift+v", True),
        ("ctrl+c", False),
        ("v", False),
        ("win+v", False),  # the clipboard history opens; nothing is pasted yet
        ("ctrl+alt+v", False),
    ],
)
def test_paste_chords(shortcut: str, paste: bool) -> None:
    """Ctrl+V, Shift+Insert and Terminal's Ctrl+Shift+V paste; other chords do not."""
    assert is_paste_chord("Shortcut", {"shortcut": shortcut}) is paste
    assert not is_paste_chord("Type", {"shortcut": shortcut})


@pytest.mark.parametrize(("shortcut", "enter"), [("enter", True), ("Return", True), ("ctrl+enter", True), ("e", False)])
def test_enter_chords(shortcut: str, enter: bool) -> None:
    """A Shortcut `enter` runs what was typed before it."""
    assert is_enter_chord("Shortcut", {"shortcut": shortcut}) is enter


@requirement("S-RULE-29")
@pytest.mark.parametrize(
    ("line", "tool", "args", "pasted", "after"),
    [
        ("", "Type", {"text": "r"}, None, "r"),
        ("r", "Type", {"text": "d /s"}, None, "rd /s"),
        ("rd /s", "Type", {"text": " x", "press_enter": True}, None, ""),
        ("ab", "Type", {"text": "c", "clear": True}, None, "abc"),  # a Command Prompt keeps it through Ctrl+A
        ("ab", "Type", {"text": "x\nyz"}, None, "yz"),
        ("ab", "Shortcut", {"shortcut": "esc"}, None, ""),
        ("ab", "Shortcut", {"shortcut": "Return"}, None, ""),
        ("ab", "Shortcut", {"shortcut": "ctrl+v"}, "cd", "abcd"),
        ("ab", "Shortcut", {"shortcut": "ctrl+v"}, None, "ab"),
        ("ab", "Click", {"loc": [1, 2]}, None, "ab"),
        ("ab", "MultiEdit", {"locs": [[1, 2, "one"], [3, 4, "two"]]}, None, "two"),
        ("x" * 5000, "Type", {"text": "y"}, None, ("x" * 5000 + "y")[-4096:]),
    ],
)
def test_the_line_typed_since_the_last_enter(
    line: str, tool: str, args: dict[str, object], pasted: str | None, after: str
) -> None:
    """S-RULE-29: pieces add up until Enter, Esc or `clear`; clicks keep the line (too long errs towards judging)."""
    from policy.rules.keyboard import unentered_after

    assert unentered_after(line, tool, args, pasted) == after
