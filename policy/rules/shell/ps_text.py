"""String semantics of PowerShell for the analyser (issue 18): escapes, expansion, `-f`, `-replace`.

Pure functions over text. Anything that cannot be reproduced exactly returns None (the caller
turns that into a non-constant value); nothing here raises.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

# Backtick escapes of Windows PowerShell 5.1 (`e and `u{…} are pwsh 7; `e is read as plain `e`,
# which keeps ``Invok`e-Expression`` meaning Invoke-Expression as 5.1 runs it).
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_UNICODE_ESCAPE = re.compile(r"u\{([0-9a-fA-F]{1,6})\}")
# A variable reference inside expandable text: `$name`, `$scope:name`, `${any text}`.
_VARIABLE = re.compile(r"\$(?:\{(?P<braced>[^}]*)\}|(?P<name>(?:[A-Za-z_][\w]*:)?[\w?^]+))")
# Patterns whose backtracking can explode (a quantified group holding a quantifier, or a
# back-reference): not evaluated, so hostile `-replace` input cannot stall the policy thread.
_RISKY_PATTERN = re.compile(r"\([^)]*[+*}][^)]*\)\s*[+*{]|\\[1-9]|\\k<")
_MAX_REGEX_SUBJECT = 4096
_FORMAT_ITEM = re.compile(r"\{\{|\}\}|\{(\d+)\s*(?:,\s*(-?\d+))?\s*(?::([^}]*))?\}|[{}]")
_REPLACEMENT_REF = re.compile(r"\$(?:\$|&|(\d+)|\{(\w+)\})")

Lookup = Callable[[str], "str | None"]


def unescape(text: str, *, doubled_quote: bool) -> str:
    """Resolve backtick escapes (and `""` inside a double-quoted string) in literal text."""
    if "`" not in text and not (doubled_quote and '""' in text):
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "`" and i + 1 < len(text):
            nxt = text[i + 1]
            unicode = _UNICODE_ESCAPE.match(text, i + 1)
            if unicode is not None:
                out.append(chr(min(int(unicode.group(1), 16), 0x10FFFF)))
                i = unicode.end()
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        if doubled_quote and ch == '"' and text.startswith('""', i):
            out.append('"')
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def verbatim(text: str) -> str:
    """The value of a single-quoted string literal's source (`'it''s'` → `it's`)."""
    if len(text) >= 2 and text[0] == "'" and text[-1] == "'":
        text = text[1:-1]
    return text.replace("''", "'")


def here_body(text: str) -> str:
    """The body of a here-string's source (`@"` newline … newline `"@`)."""
    start = text.find("\n")
    body = text[start + 1 :] if start >= 0 else text[2:]
    end = body.rfind("\n")
    body = body[:end] if end >= 0 else body[:-2]
    return body.removesuffix("\r")


def expand_text(text: str, lookup: Lookup, *, doubled_quote: bool) -> str | None:
    """Expand `$var` references and escapes in text with no sub-expressions (a bareword, a string).

    Args:
        text: the literal text (quotes removed).
        lookup: variable name (as written, without `$`/braces) → its text, or None if not constant.
        doubled_quote: whether `""` means one quote (inside a double-quoted string).

    Returns:
        The expanded text, or None when a variable is not constant or a `$(…)` is present.
    """
    if "$" not in text:
        return unescape(text, doubled_quote=doubled_quote)
    out: list[str] = []
    pos = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "`":
            i += 2
            continue
        if ch != "$":
            i += 1
            continue
        if text.startswith("$(", i):
            return None
        match = _VARIABLE.match(text, i)
        if match is None:
            i += 1
            continue
        name = match.group("braced") if match.group("braced") is not None else match.group("name")
        value = lookup(name)
        if value is None:
            return None
        out.append(unescape(text[pos:i], doubled_quote=doubled_quote))
        out.append(value)
        pos = i = match.end()
    out.append(unescape(text[pos:], doubled_quote=doubled_quote))
    return "".join(out)


def net_format(fmt: str, args: list[str | None], values: Sequence[object] = ()) -> str | None:
    """`fmt -f args` with .NET composite formatting (`{0}`, `{0,-5}`, `{0:x}`, `{{`); None if not exact.

    Args:
        fmt: the format string.
        args: each argument as text (None: not constant).
        values: the same arguments as folded, when known: a format specifier (`:x`, `:D3`) applies to a number
            (`'{0:x}' -f 10` is `a`), is ignored for a string, and anything else it cannot reproduce is not exact.
    """
    out: list[str] = []
    pos = 0
    for match in _FORMAT_ITEM.finditer(fmt):
        out.append(fmt[pos : match.start()])
        pos = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            out.append(token[0])
            continue
        if match.group(1) is None:
            return None  # a lone brace: .NET throws FormatException
        index = int(match.group(1))
        if index >= len(args) or args[index] is None:
            return None
        value = args[index] or ""
        if match.group(3):  # a format specifier: what it does depends on the argument's type
            formatted = _formatted(values[index] if index < len(values) else None, value, match.group(3).strip())
            if formatted is None:
                return None
            value = formatted
        width = int(match.group(2)) if match.group(2) else 0
        out.append(value.rjust(width) if width > 0 else value.ljust(-width))
    out.append(fmt[pos:])
    return "".join(out)


_NUMBER_SPEC = re.compile(r"([xXdD])(\d{0,2})")


def _formatted(value: object, text: str, spec: str) -> str | None:
    """One argument (`value`, whose text is `text`) under a format specifier, as .NET formats it: a string as it is
    (.NET ignores the specifier there); None for what is not reproduced exactly (another type or specifier, a
    negative number in hex)."""
    if isinstance(value, str):
        return text
    number = _NUMBER_SPEC.fullmatch(spec)
    if number is None or not isinstance(value, int) or isinstance(value, bool):
        return None
    kind, digits = number.group(1), int(number.group(2) or 0)
    if kind in "xX":
        return None if value < 0 else format(value, f"0{digits}{kind}")
    return ("-" if value < 0 else "") + str(abs(value)).zfill(digits)


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str, case_sensitive: bool) -> re.Pattern[str] | None:
    if _RISKY_PATTERN.search(pattern):
        return None
    try:
        return re.compile(pattern, 0 if case_sensitive else re.IGNORECASE)
    except (re.error, OverflowError, RecursionError):
        return None


def _net_replacement(replacement: str) -> Callable[[re.Match[str]], str]:
    def expand(match: re.Match[str]) -> str:
        def one(ref: re.Match[str]) -> str:
            token = ref.group(0)
            if token == "$$":
                return "$"
            if token == "$&":
                return match.group(0)
            key: str | int = int(ref.group(1)) if ref.group(1) is not None else ref.group(2)
            if isinstance(key, str) and key.isdigit():
                key = int(key)
            try:
                return match.group(key) or ""
            except IndexError:
                return token  # .NET leaves an unknown group reference as written

        return _REPLACEMENT_REF.sub(one, replacement)

    return expand


def ps_replace(subject: str, pattern: str, replacement: str, *, case_sensitive: bool = False) -> str | None:
    """`subject -replace pattern, replacement` (regex, case-insensitive unless `-creplace`; `$1`, `${n}`)."""
    if len(subject) > _MAX_REGEX_SUBJECT:
        return None
    compiled = _compiled(pattern, case_sensitive)
    if compiled is None:
        return None
    try:
        return compiled.sub(_net_replacement(replacement), subject)
    except (re.error, RecursionError):
        return None


def ps_split(subject: str, pattern: str, *, case_sensitive: bool = False) -> tuple[str, ...] | None:
    """`subject -split pattern` (regex, case-insensitive), or None when the pattern is not safe to run."""
    if len(subject) > _MAX_REGEX_SUBJECT:
        return None
    compiled = _compiled(pattern, case_sensitive)
    if compiled is None or compiled.groups:
        return None
    return tuple(compiled.split(subject))


def split_program(command_line: str) -> tuple[str, str]:
    """A Windows command line's program (first token, quotes removed) and the rest as one string."""
    line = command_line.lstrip()
    if line.startswith('"'):
        end = line.find('"', 1)
        end = len(line) if end < 0 else end
        return line[1:end], line[end + 1 :].strip()
    parts = line.split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1].strip() if len(parts) > 1 else ""


def split_words(text: str) -> tuple[str, ...]:
    """Words of verbatim text (after `--%`), split on white space outside double quotes."""
    words: list[str] = []
    current: list[str] = []
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
            current.append(ch)
        elif ch.isspace() and not quoted:
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return tuple(words)
