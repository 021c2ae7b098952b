"""cmd.exe's words (issue 18 item 2): its delimiters, its built-in commands, how a built-in's arguments split.

`cmd.py`'s parser reads the grammar with these; they sit apart from it so each module holds one thing.
"""

from __future__ import annotations

from collections.abc import Mapping

from policy.rules.shell.cmd_expand import UNKNOWN
from policy.rules.shell.ops import Value

BLANKS = " \t\r"
DELIMS = " \t\r,;="  # cmd's token delimiters outside quotes
GLUE = "/\\.:+[]"  # what may follow a built-in's name without a space (`rd/s`, `cd\`, `echo.`)

BUILTINS = frozenset(
    {"assoc", "break", "call", "cd", "chdir", "cls", "color", "copy", "date", "del", "dir", "echo"}
    | {"endlocal", "erase", "exit", "for", "ftype", "goto", "if", "md", "mkdir", "mklink", "move"}
    | {"path", "pause", "popd", "prompt", "pushd", "rd", "rem", "ren", "rename", "rmdir", "set"}
    | {"setlocal", "shift", "start", "time", "title", "type", "ver", "verify", "vol", "xcopy"}
)
# One spelling per built-in, so a rule names `rd` once and catches `rmdir` too.
CANONICAL_BUILTINS: Mapping[str, str] = {
    "erase": "del",
    "rmdir": "rd",
    "rename": "ren",
    "mkdir": "md",
    "chdir": "cd",
}
WHOLE_ARGUMENT_BUILTINS = frozenset({"cd", "pushd", "title", "prompt", "path", "color", "goto"})


def unquote(text: str) -> str:
    """A word without its quotes (cmd joins quoted pieces: `"a"b` is `ab`).

    Args:
        text: the word as written.

    Returns:
        The word without `"`.
    """
    return text.replace('"', "")


def to_value(text: str) -> Value:
    """A word as an operation's value.

    Args:
        text: the word, after expansion.

    Returns:
        The word, or None when it holds `UNKNOWN`.
    """
    return None if UNKNOWN in text else text


def cmd_words(text: str) -> list[str]:
    """Split a built-in's arguments: cmd's delimiters outside quotes; `/` starts a switch.

    Args:
        text: what follows the built-in's name.

    Returns:
        The words, quotes kept.
    """
    words: list[str] = []
    current: list[str] = []
    quoted = False
    for c in text:
        if c == '"':
            quoted = not quoted
        elif not quoted and (c in DELIMS or c == "\n" or c == "/"):
            if current:
                words.append("".join(current))
                current = []
            if c != "/":
                continue
        current.append(c)
    if current:
        words.append("".join(current))
    return words


def parse_switch(word: str) -> tuple[str, Value] | None:
    """A `/x` or `/x:value` switch as a param.

    Args:
        word: the word, starting with `/`.

    Returns:
        `(name lower case, value)`, the value `"true"` when there is none; None for a bare `/`.
    """
    body = word[1:]
    if not body:
        return None
    name, colon, value = body.partition(":")
    return name.lower(), (to_value(value) if colon else "true")


def blank_spans(text: str) -> list[tuple[int, int]]:
    """Where the blank-separated words of `text` are (`start`'s splitting); quoted blanks do not split.

    Args:
        text: the text to split.

    Returns:
        `(start, end)` of each word, in order.
    """
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in BLANKS:
            i += 1
        if i >= n:
            break
        start, quoted = i, False
        while i < n and (quoted or text[i] not in BLANKS):
            if text[i] == '"':
                quoted = not quoted
            i += 1
        spans.append((start, i))
    return spans


def builtin_prefix(word: str) -> str | None:
    """The built-in a word starts with, when glued to what follows (`rd/s`, `cd\\`, `echo.`).

    Args:
        word: the command word, quotes removed, lower case.

    Returns:
        The built-in's name as written, or None when the word names none.
    """
    if word in BUILTINS:
        return word
    cut = next((k for k, c in enumerate(word) if c in GLUE), -1)
    return word[:cut] if cut > 0 and word[:cut] in BUILTINS else None
