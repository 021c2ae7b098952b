"""What a Shortcut presses, read as Windows-MCP 0.8.8 presses it: a uiautomation SendKeys string (issue 18).

Windows-MCP does not press a Shortcut as one chord. It builds a string for the `uiautomation`
library's `SendKeys` (desktop/service.py `shortcut`): the value is split at `+`, a one-character
key is kept as it is, any longer name is wrapped in braces after a few aliases (`windows` and
`command` → Win, `option` → Alt, `backspace` → Back). `SendKeys` then reads that string by its own
grammar:

* `{Name}` or `{Name N}` presses a named key (N times); a name it does not know is typed as text;
  `{{}` and `{}}` are braces; an unbalanced or empty `{…}` is an error, and nothing is pressed.
* `{Win}`, `{Ctrl}`, `{Shift}`, `{Alt}` (and their left/right names but `RControl`) are held for
  the next key, or for a `( … )` group right after them.
* Any other character is typed.

So `ctrl+v` is Ctrl+V, but `a+b+c` types "abc", `r+win` types r and presses Win alone,
`S+t+o+p+-+C+o+m+p+u+t+e+r+enter` types a command and presses Enter, and `{+E+n+t+e+r+}` is the
Enter key. `key_events` turns a Shortcut into what that means for a line of text: typed text,
Enter, a paste, a key that edits the line unseen, the Run box. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["KeyEvent", "Press", "key_events", "presses", "sendkeys_text"]

# desktop/service.py `_KEY_ALIASES` (Windows-MCP 0.8.8).
_UPSTREAM_ALIASES = {
    "backspace": "Back",
    "capslock": "Capital",
    "scrolllock": "Scroll",
    "windows": "Win",
    "command": "Win",
    "option": "Alt",
}
# uiautomation's `holdKeys` (note: it lists LCONTROL twice and RCONTROL never).
_HOLD = {
    "WIN": "win",
    "LWIN": "win",
    "RWIN": "win",
    "SHIFT": "shift",
    "LSHIFT": "shift",
    "RSHIFT": "shift",
    "CTRL": "ctrl",
    "CONTROL": "ctrl",
    "LCTRL": "ctrl",
    "RCTRL": "ctrl",
    "LCONTROL": "ctrl",
    "ALT": "alt",
    "LALT": "alt",
    "RALT": "alt",
}
# Named keys that type a character of their own (the numeric keypad, the space bar).
_TYPING_KEYS = {"SPACE": " ", "MULTIPLY": "*", "ADD": "+", "SUBTRACT": "-", "DECIMAL": ".", "DIVIDE": "/"}
_TYPING_KEYS |= {f"NUMPAD{d}": str(d) for d in range(10)}
_ENTER_KEYS = frozenset({"ENTER", "RETURN"})
# Every other name uiautomation knows as a key; a name outside this and the tables above is typed as text.
_OTHER_KEYS = frozenset(
    [
        "LBUTTON",
        "RBUTTON",
        "CANCEL",
        "MBUTTON",
        "XBUTTON1",
        "XBUTTON2",
        "BACK",
        "TAB",
        "CLEAR",
        "PAUSE",
        "CAPITAL",
        "ESC",
        "ESCAPE",
        "PAGEUP",
        "PAGEDOWN",
        "PRIOR",
        "NEXT",
        "END",
        "HOME",
        "LEFT",
        "UP",
        "RIGHT",
        "DOWN",
        "SELECT",
        "PRINT",
        "EXECUTE",
        "SNAPSHOT",
        "PRINTSCREEN",
        "INSERT",
        "INS",
        "DELETE",
        "DEL",
        "HELP",
        "APPS",
        "SLEEP",
        "SEPARATOR",
        "NUMLOCK",
        "SCROLL",
        "RCONTROL",
        "MENU",
        "LMENU",
        "RMENU",
        "KANA",
        "HANGUL",
        "JUNJA",
        "FINAL",
        "HANJA",
        "KANJI",
        "CONVERT",
        "NONCONVERT",
        "ACCEPT",
        "MODECHANGE",
        "PROCESSKEY",
        "PACKET",
        "ATTN",
        "CRSEL",
        "EXSEL",
        "EREOF",
        "PLAY",
        "ZOOM",
        "NONAME",
        "PA1",
        "OEM_CLEAR",
    ]
    + [f"F{n}" for n in range(1, 25)]
    + [
        f"{a}_{b}"
        for a, bs in (
            ("BROWSER", ["BACK", "FORWARD", "REFRESH", "STOP", "SEARCH", "FAVORITES", "HOME"]),
            ("VOLUME", ["MUTE", "DOWN", "UP"]),
            ("MEDIA", ["NEXT_TRACK", "PREV_TRACK", "STOP", "PLAY_PAUSE"]),
            ("LAUNCH", ["MAIL", "MEDIA_SELECT", "APP1", "APP2"]),
            ("OEM", ["1", "PLUS", "COMMA", "MINUS", "PERIOD", "2", "3", "4", "5", "6", "7", "8", "102"]),
        )
        for b in bs
    ]
)


def sendkeys_text(shortcut: str) -> str:
    """The `SendKeys` string Windows-MCP 0.8.8 builds from a Shortcut value."""
    out = []
    for raw in shortcut.split("+"):
        key = raw.strip()
        out.append(key if len(key) == 1 else "{" + _UPSTREAM_ALIASES.get(key.lower(), key) + "}")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Press:
    """One key pressed: a named key (upper case, `ENTER`) or a character, with the modifiers held."""

    key: str
    named: bool
    held: frozenset[str] = frozenset()


# A `{Name N}` is read for at most this many presses (a huge N must not make judging slow); beyond it the
# line is taken as changed in a way the gateway does not follow.
_MAX_REPEAT = 64
_MAX_PRESSES = 4096


def presses(text: str) -> tuple[Press, ...] | None:
    """The keys `SendKeys` presses for `text`, in order; None when it rejects the string (it then presses
    nothing: it reads the whole string before the first key goes out)."""
    out: list[Press] = []
    held: set[str] = set()
    group = False
    i = 0
    while i < len(text):
        if len(out) > _MAX_PRESSES:  # a line of thousands of keys is not followed any further
            out.append(Press("REPEATED", True, frozenset(held)))
            break
        ch = text[i]
        if ch == "{":
            end = text.find("}", i)
            if end == i + 1:  # `{}}`
                end = text.find("}", i + 2)
            if end == -1:
                return None
            words = [w for w in text[i + 1 : end].split(" ") if w]
            if not words or len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
                return None
            counted = words[1] if len(words) == 2 else "1"
            if not (counted.isascii() and counted.isdigit()):
                return None  # `int()` of a non-ASCII digit raises in SendKeys: nothing is pressed
            name, count = words[0], int(counted) if len(counted) <= 6 else _MAX_REPEAT + 1
            upper = name.upper()
            if count > _MAX_REPEAT:  # read no further than that: what so many presses leave is not followed
                out.append(Press("REPEATED", True, frozenset(held)))
            for _ in range(min(count, _MAX_REPEAT)):
                if upper in _HOLD:
                    if not held:
                        out.append(Press(upper, True))  # pressed and released on its own as well
                    held.add(_HOLD[upper])
                    continue
                named = upper in _OTHER_KEYS or upper in _ENTER_KEYS or upper in _TYPING_KEYS
                out.append(Press(upper if named else name, named, frozenset(held)))
                if held and not group:
                    held.clear()
            i = end + 1
        elif ch == "(" and held:
            group = True
            i += 1
        elif ch == ")" and held:
            group, held = False, set()
            i += 1
        else:
            out.append(Press(ch, False, frozenset(held)))
            if held and not group:
                held.clear()
            i += 1
    return tuple(out)


EventKind = Literal["text", "enter", "paste", "unknown-paste", "launcher", "end-line", "edit", "keep"]


@dataclass(frozen=True, slots=True)
class KeyEvent:
    """What one press does to the line being typed: `text` adds `text`; `enter` runs the line;
    `paste` adds the clipboard; `unknown-paste` adds something the gateway never saw;
    `launcher` opens Win+R or Win+X; `end-line` drops the line (Esc); `edit`
    may change it unseen (Tab completion, Backspace, arrows, history, other chords); `keep` changes
    no line (window switching, copy, save, Win+<key>, scrolling, the modifiers pressed alone)."""

    kind: EventKind
    text: str = ""


# Chords that change no line of text anywhere the gateway knows.
_KEEP_CHORDS = frozenset(
    frozenset(c.split("+"))
    for c in (
        "alt+TAB",
        "alt+shift+TAB",
        "alt+F4",
        "ctrl+c",
        "ctrl+s",
        "ctrl+l",
        "ctrl+t",
        "ctrl+n",
        "ctrl+w",
        "ctrl+shift+ESC",
    )
)
_KEEP_KEYS = frozenset({"PAGEUP", "PAGEDOWN", "PRIOR", "NEXT", "F5", "WIN", "LWIN", "RWIN"})
_KEEP_KEYS |= frozenset(_HOLD) | {"MENU", "LMENU", "RMENU", "RCONTROL", "CAPITAL", "NUMLOCK", "SCROLL"}
_PASTES = frozenset(
    frozenset(c) for c in ({"ctrl", "v"}, {"shift", "INSERT"}, {"shift", "INS"}, {"ctrl", "shift", "v"})
)


def _event(p: Press) -> KeyEvent:
    key = p.key if p.named else p.key.lower() if len(p.key) == 1 else p.key
    chord = frozenset({*p.held, key})
    if p.named and p.key in _ENTER_KEYS:
        return KeyEvent("enter")
    if chord in _PASTES:
        return KeyEvent("paste")
    if p.held == {"win"}:
        # Win+V opens the clipboard history: the Enter that picks an item pastes what the gateway never saw.
        return KeyEvent({"v": "edit", "r": "launcher", "x": "launcher"}.get(key, "keep"))  # type: ignore[arg-type]
    if chord in _KEEP_CHORDS or (not p.held and p.named and p.key in _KEEP_KEYS):
        return KeyEvent("keep")
    if not p.held and p.named and p.key in ("ESC", "ESCAPE"):
        return KeyEvent("end-line")
    if not p.named and p.held <= {"shift"}:
        if not p.held:
            return KeyEvent("text", p.key)
        if len(p.key) == 1 and p.key.isalpha():
            return KeyEvent("text", p.key.upper())
        return KeyEvent("edit")  # Shift with a digit or symbol: depends on the keyboard layout
    if p.named and p.key in _TYPING_KEYS and not p.held:
        return KeyEvent("text", _TYPING_KEYS[p.key])
    return KeyEvent("edit")


def key_events(shortcut: object) -> tuple[KeyEvent, ...]:
    """What a Shortcut call does to the line being typed, key by key (module docstring).

    Args:
        shortcut: the call's `shortcut` argument (anything else than a string presses nothing).

    Returns:
        The events in order; empty when Windows-MCP would press nothing.
    """
    if not isinstance(shortcut, str):
        return ()
    pressed = presses(sendkeys_text(shortcut))
    return () if pressed is None else tuple(_event(p) for p in pressed)
