"""The text a SendKeys string types (issue 18 item 4: the keyboard is a shell, from a script too).

`[System.Windows.Forms.SendKeys]::SendWait('…')` and WScript.Shell's `.SendKeys('…')` type into
whichever window has the focus, so what they type is judged as a command line. Their notation
(Microsoft's SendKeys reference): `~` and `{ENTER}` are Enter; `{TAB}` a tab; `{+}`, `{^}`, `{%}`,
`{~}`, `{(}`, `{)}`, `{[}`, `{]}`, `{{}` and `{}}` the character itself; `{x n}` x typed n times;
`{BACKSPACE}` (`{BS}`, `{BKSP}`) removes the character before it; any other `{KEY}` is a key that
types nothing. `+` is Shift (`+a` types `A`, `+(ab)` types `AB`); `^` (Ctrl) and `%` (Alt) make
chords, which type nothing.

    typed_text("rd /s /q C:{\\}Users~")   → "rd /s /q C:\\Users\\n"   (the braces are not needed for `\\`)
"""

from __future__ import annotations

import re

__all__ = ["typed_text"]

_ENTER = frozenset({"enter"})
_BACKSPACE = frozenset({"backspace", "bs", "bksp"})
_BRACED = re.compile(r"\{(.[^{}]*?|[{}])(?: (\d{1,9}))?\}")
_MAX_REPEAT = 256  # `{x 9999}` types a lot of x; the command it makes is judged, not the count


def _key(name: str) -> str:
    lowered = name.lower()
    if lowered in _ENTER:
        return "\n"
    if lowered == "tab":
        return "\t"
    if len(name) == 1:
        return name
    return ""  # a key that types nothing (F4, ESC, HOME, …)


def typed_text(keys: str) -> str:
    """What `keys`, in SendKeys notation, types: characters, with Enter as a line break.

    Args:
        keys: the string given to SendKeys/SendWait.

    Returns:
        The typed text (a chord with Ctrl or Alt types nothing; Backspace removes a character).
    """
    out: list[str] = []
    i = 0
    shift = False
    while i < len(keys):
        ch = keys[i]
        if ch in "^%":
            i = _skip_chord(keys, i + 1)
            continue
        if ch == "+":
            shift = True
            i += 1
            if i < len(keys) and keys[i] == "(":
                end = keys.find(")", i)
                end = len(keys) if end < 0 else end
                out.append(typed_text(keys[i + 1 : end]).upper())
                i, shift = end + 1, False
            continue
        if ch == "{":
            braced = _BRACED.match(keys, i)
            if braced is None:
                out.append(ch)
                i += 1
                continue
            name, count = braced.group(1), min(int(braced.group(2) or 1), _MAX_REPEAT)
            if name.lower() in _BACKSPACE:
                del out[max(0, len(out) - count) :]
            else:
                typed = _key(name)
                out.append((typed.upper() if shift else typed) * count)
            i, shift = braced.end(), False
            continue
        out.append("\n" if ch == "~" else (ch.upper() if shift else ch))
        i, shift = i + 1, False
    return "".join(out)


def _skip_chord(keys: str, i: int) -> int:
    """The index after the key (or group, or further modifiers) a Ctrl or Alt applies to."""
    while i < len(keys) and keys[i] in "+^%":
        i += 1
    if i >= len(keys):
        return i
    if keys[i] == "(":
        end = keys.find(")", i)
        return len(keys) if end < 0 else end + 1
    if keys[i] == "{":
        braced = _BRACED.match(keys, i)
        return braced.end() if braced is not None else i + 1
    return i + 1
