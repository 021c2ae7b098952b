"""What cmd.exe does to a line's text around parsing it (issue 18 item 2): its expansion phases.

`cmd.py` parses; this module supplies the text it parses, following the phases of cmd's parser
(StackOverflow 4094699):

1. percent expansion (`%VAR%`, `%VAR:~n,m%`, `%VAR:old=new%`) with the standard environment and
   what `set` assigned earlier on the line; `Reader` hands out a line's characters expanding
   them lazily, so such a `set` reaches later `%VAR%`s;
3. `for` variables in the loop body (`substitute_for`);
4. delayed `!VAR!` expansion (`expand_delayed`).

Phase 2 (carets, quotes, separators, blocks, redirections) and phase 5 (`call` expands once
more, through a new `Reader`) are `cmd.py`'s parser.

A value that cannot be known (`%RANDOM%`, a substring of an undefined variable, `set /p`) is
held as the character `UNKNOWN`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from policy.rules.shell.winenv import MACHINE_DEFINED

UNKNOWN = "\ue000"  # a private-use character: "some value we cannot know" inside parsed text
# Bound (issue 18: a huge or hostile command is judged in bounded time): what percent
# expansion may add to one line; cmd itself refuses lines over 8191 characters.
MAX_EXPANDED_CHARS = 1 << 17
# Defined on every machine, but their value is not knowable before the command runs.
_DYNAMIC_VARIABLES = frozenset(
    {"CD", "DATE", "TIME", "RANDOM", "ERRORLEVEL", "CMDCMDLINE", "CMDEXTVERSION", "__CD__"} | {"HIGHESTNUMANODENUMBER"}
)
_CMD_VARIABLES: Mapping[str, str] = {"__APPDIR__": "C:\\Windows\\System32\\"}
_FOR_MODIFIERS = "fdpnxsatz"


# ---------------------------------------------------------------------------------------
# Phase 1: percent expansion


def _number(text: str) -> int | None:
    t = text.strip()
    body = t[1:] if t[:1] in "+-" else t
    if not body.isdigit():
        return None
    return int(t)


def substring(value: str, spec: str) -> str:
    """`%VAR:~spec%`: cmd's substring; negative offsets and lengths count from the end.

    Args:
        value: the variable's value.
        spec: what follows `~` (`-7,3`, `0,2`, `5`).

    Returns:
        The substring, or `UNKNOWN` when `spec` is not a number pair cmd would accept.
    """
    start_text, comma, length_text = spec.partition(",")
    start = _number(start_text)
    length = _number(length_text) if comma else None
    if start is None or (comma and length is None):
        return UNKNOWN
    size = len(value)
    begin = max(0, size + start) if start < 0 else min(start, size)
    if length is None:
        return value[begin:]
    end = begin + length if length >= 0 else size + length
    return value[begin:end] if end > begin else ""


def replace(value: str, old: str, new: str) -> str:
    """`%VAR:old=new%` (every occurrence, case-insensitively) and `%VAR:*old=new%` (up to the first).

    Args:
        value: the variable's value.
        old: the text to find; a leading `*` means "everything up to and including it".
        new: the replacement.

    Returns:
        The new value (the old one when `old` is empty or absent).
    """
    star = old.startswith("*")
    if star:
        old = old[1:]
    if not old:
        return value
    folded, needle = value.lower(), old.lower()
    if len(folded) != len(value) or len(needle) != len(old):  # a case fold that changes lengths
        folded, needle = value, old
    found = folded.find(needle)
    if found < 0:
        return value
    if star:
        return new + value[found + len(old) :]
    out: list[str] = []
    last = 0
    while found >= 0:
        out.append(value[last:found])
        out.append(new)
        last = found + len(old)
        found = folded.find(needle, last)
    out.append(value[last:])
    return "".join(out)


# A name `%…%` can stand for: what else sits between two percent signs on a command line (`for %i in (*) do
# type %i`, `%~dp0`) is no variable reference.
_VARIABLE_NAME = re.compile(r"[^\s%=:~0-9][^\s%=:]*")


class Variables:
    """The standard environment plus what `set` assigned earlier on the line."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self.assigned: dict[str, str] = {}
        # `%NAME%` references to a variable neither defines, as written, in order (S-RULE-219): cmd puts a value
        # in before it reads the line, so one set by an earlier command can hold a whole command.
        self.undefined: dict[str, None] = {}

    def value(self, name: str) -> str | None:
        """The value of variable `name` (any case): `UNKNOWN` for a dynamic one, None when undefined."""
        key = name.upper()
        if key in self.assigned:
            return self.assigned[key]
        if key in _DYNAMIC_VARIABLES:
            return UNKNOWN
        found = self.env.get(key)
        return found if found is not None else _CMD_VARIABLES.get(key)

    def expand(self, body: str) -> str | None:
        """The value of one `NAME` / `NAME:~n,m` / `NAME:old=new` reference, None when undefined."""
        name, colon, modifier = body.partition(":")
        if self.value(name) is None and _VARIABLE_NAME.fullmatch(name) and name.upper() not in MACHINE_DEFINED:
            self.undefined[f"%{body}%"] = None
        if colon and modifier.startswith("~"):
            value = self.value(name)
            return UNKNOWN if value is None else substring(value, modifier[1:])
        if colon and "=" in modifier:
            value = self.value(name)
            old, _, new = modifier.partition("=")
            return UNKNOWN if value is None else replace(value, old, new)
        return self.value(body)


def _expand_percent(src: str, pos: int, variables: Variables) -> tuple[str, int]:
    # src[pos] == "%". Returns (text, next position). On a command line `%%` is no escape
    # and an undefined `%X%` is left as it is, scanning again from its closing `%`.
    close = src.find("%", pos + 1)
    if close < 0 or close == pos + 1:
        return "%", pos + 1
    body = src[pos + 1 : close]
    if "\n" in body:
        return "%", pos + 1
    value = variables.expand(body)
    if value is None:
        return "%" + body, close
    return value, close + 1


def expand_delayed(text: str, variables: Variables) -> str:
    """Phase 4: every `!VAR!` in `text` replaced; a lone `!` is dropped, as cmd does with delayed expansion on.

    Args:
        text: the text of one command, after phase 1.
        variables: the environment and the line's assignments.

    Returns:
        The expanded text (`UNKNOWN` where a variable is undefined).
    """
    out: list[str] = []
    i = 0
    while True:
        start = text.find("!", i)
        if start < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:start])
        close = text.find("!", start + 1)
        if close < 0:
            out.append(text[start + 1 :])
            return "".join(out)
        body = text[start + 1 : close]
        value = variables.expand(body) if body else ""
        out.append(UNKNOWN if value is None else value)
        i = close + 1


# ---------------------------------------------------------------------------------------
# Phase 3: for-variable substitution


def substitute_for(text: str, letter: str, value: str) -> str:
    """Phase 3: `%i`, `%%i` and `%~dpnxi` replaced by the loop variable's value (case-sensitive, as cmd has it).

    Args:
        text: a `for` loop's body as written.
        letter: the loop variable's letter.
        value: this iteration's value.

    Returns:
        The body for this iteration.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        j = i + 2 if text[i + 1 : i + 2] == "%" else i + 1
        if text[j : j + 1] == "~":
            k, end = j + 1, -1
            while k < n and (text[k] in _FOR_MODIFIERS or text[k] == letter):
                if text[k] == letter:
                    end = k
                k += 1
            if end >= 0:
                out.append(value.replace('"', ""))  # `%~i` drops the quotes
                i = end + 1
                continue
        elif text[j : j + 1] == letter:
            out.append(value)
            i = j + 1
            continue
        out.append("%")
        i += 1
    return "".join(out)


# ---------------------------------------------------------------------------------------
# The reader: characters after percent expansion (for phase 2, the parser)


class Reader:
    """Characters of one line, percent-expanded when (and only when) they are reached.

    Expanding lazily is what lets a `set` earlier on the line reach later `%VAR%`s. A peek
    further ahead than the next character does not expand (it sees a raw `%`).
    """

    def __init__(self, src: str, variables: Variables, *, percent: bool) -> None:
        self.src = src
        self.pos = 0
        self.ready = ""
        self.rpos = 0
        self.variables = variables
        self.percent = percent
        self.consumed = 0
        self.grown = 0
        self.tapes: list[list[str]] = []

    def _fill(self) -> bool:
        while self.rpos >= len(self.ready):
            if self.pos >= len(self.src):
                return False
            src = self.src
            if self.percent and src[self.pos] == "%" and self.grown < MAX_EXPANDED_CHARS:
                text, self.pos = _expand_percent(src, self.pos, self.variables)
                self.grown += len(text)
            else:
                end = src.find("%", self.pos + 1) if self.percent else -1
                end = len(src) if end < 0 else end
                text, self.pos = src[self.pos : end], end
            self.ready, self.rpos = text, 0
        return True

    def peek(self, ahead: int = 0) -> str:
        """The character `ahead` places on, without consuming it; "" at the end."""
        if not ahead and self.rpos < len(self.ready):
            return self.ready[self.rpos]
        if not self._fill():
            return ""
        j = self.rpos + ahead
        if j < len(self.ready):
            return self.ready[j]
        k = self.pos + j - len(self.ready)
        return self.src[k] if k < len(self.src) else ""

    def advance(self) -> str:
        """Consume and return the next character; "" at the end."""
        if not self._fill():
            return ""
        c = self.ready[self.rpos]
        self.rpos += 1
        self.consumed += 1
        for tape in self.tapes:
            tape.append(c)
        return c

    def take(self, run: re.Pattern[str]) -> str:
        """Consume the longest run matching `run` at the current position (within one chunk)."""
        if not self._fill():
            return ""
        m = run.match(self.ready, self.rpos)
        if m is None:
            return ""
        text = m.group()
        self.rpos = m.end()
        self.consumed += len(text)
        for tape in self.tapes:
            tape.append(text)
        return text

    def unread(self, text: str) -> None:
        """Put `text` (just consumed) back in front of the next character."""
        self.ready = text + self.ready[self.rpos :]
        self.rpos = 0
        self.consumed -= len(text)
        for tape in self.tapes:
            remove = len(text)
            while remove and tape:
                last = tape.pop()
                if len(last) > remove:
                    tape.append(last[:-remove])
                    remove = 0
                else:
                    remove -= len(last)
