"""PowerShell/cmd-aware text normalisation for the command rules (S-RULE-02, S-RULE-03).

A rule is a regex over *normalised* text, so every spelling of one command must collapse
to one form before matching. `normalise` does that for one layer of text; `expand` also
looks INTO nested commands (`cmd /c …`, `powershell -c …`, `start-process … -argumentlist`,
quoted strings, `-EncodedCommand` payloads) and returns every layer.

This is string matching, not a shell parser: variables, concatenation with variables,
wildcard command names and download-then-run in separate calls all get through. It is a
tripwire, not a sandbox (DESIGN.md §5).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from policy.rules.shell_names import (
    ALIASES,
    COMMAND_SEPARATORS,
    KNOWN_PROGRAMS,
    PARAMETERS,
    SC_VERBS,
    canonical_parameter,
)

# The name tables moved to `_shell_names`; they stay importable from here.

# Bounds on `expand` (S-RULE-11). Real commands nest two or three levels and a long script
# holds a few dozen strings; the caps bound what a hostile input costs (every layer is
# matched by every rule). Hitting one makes the command uninspectable, which the rules deny.
MAX_EXPAND_DEPTH = 8
MAX_LAYERS = 256
MAX_EXPANDED_CHARS = 1 << 16  # total characters over all layers
MAX_INTERPRETERS_PER_LAYER = 8

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-"})
_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"'}
)
_INVISIBLE = re.compile("[\x00\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_LINE_CONTINUATION = re.compile(r"`[ \t]*\r?\n")
_NEWLINES = re.compile(r"\r\n|\r|\n")
_SPACE = re.compile(r"\s+")
_SEMICOLONS = re.compile(r"\s*;[\s;]*")
_PIPES = re.compile(r"\s*(\|\||\||&&)\s*")
# 'rem' + 'ove-item'  →  'remove-item' (literal concatenation only; variables are out of reach)
_CONCAT = re.compile(r"(['\"])([^'\"]*)\1\s*\+\s*(['\"])([^'\"]*)\3")
# a quoted bare word ('Remove-Item', "-Recurse", '') loses its quotes; text with spaces keeps them
# (not one that starts like a parameter: '-Recurse' quoted is a string, not a switch)
_BARE_QUOTED = re.compile(r"(['\"])((?![-/])[^\s'\";|&(){},+]*)\1")
_STRING_LITERAL = re.compile(r"'([^']*)'|\"([^\"]*)\"")
_WORD = re.compile(r"[^\s;|&(){}'\"=,]+")
_SWITCH_RUN = re.compile(r"^(?:/[a-z?])+$")
_GLUED_SWITCHES = re.compile(r"^([a-z][\w-]*)((?:/[a-z?])+)$")
_MODULE_QUALIFIED = re.compile(r"^[a-z][\w.]*/([a-z]+-[a-z][\w]*)$")
_PROGRAM_PATH = re.compile(r"^(?:.*/)?([\w.-]+?)(\.exe|\.com)?$")
_COMSPEC = frozenset({"%comspec%", "$env:comspec", "${env:comspec}"})
_PARAMETER = re.compile(r"^-([a-z][\w]*)(:.*)?$")


def _pre(text: str) -> str:
    """Case-preserving clean-up shared by `normalise` and the encoded-payload search."""
    t = _INVISIBLE.sub("", text.translate(_DASHES).translate(_QUOTES))
    t = _LINE_CONTINUATION.sub(" ", t)
    # A backtick escapes the next character in PowerShell (Re`move-It`em); carets do the same
    # in cmd (r^d). Dropping both is harmless for matching and keeps normalise idempotent.
    t = t.replace("`", "").replace("^", "")
    # \" is an escaped quote in a Windows command line (CommandLineToArgvW): cmd /c "… \"x\""
    return _NEWLINES.sub(" ; ", t.replace('\\"', '"'))


def normalise(text: str) -> str:
    """Reduce one command text to the canonical form the rules are written against.

    Steps: backtick and caret escapes dropped (a backtick-newline continuation becomes a
    space), look-alike dashes/quotes mapped to ASCII, lower case, `\\` → `/`, line breaks →
    `; `, literal string concatenation joined, quotes around bare words removed, white space
    folded, `;`/`|` spaced canonically; at command positions aliases are mapped to their
    cmdlet (`rm` → `remove-item`, `iex` → `invoke-expression`, …), paths/`.exe` are dropped
    from known programs (`C:\\Windows\\System32\\cmd.exe` → `cmd`), module qualifiers are
    dropped, and `rd/s/q` is split into `rd /s /q`; parameters are expanded from unambiguous
    prefixes (`-r`, `-rec` → `-recurse`; `-fo` → `-force`; `powershell -e` → `-encodedcommand`).

    Args:
        text: one command as the model sent it.

    Returns:
        The normalised text (idempotent: normalising it again changes nothing).
    """
    t = _pre(str(text)).lower().replace("\\", "/")
    previous = None
    while previous != t:  # joining may expose another pair: 'a'+'b'+'c'
        previous, t = t, _CONCAT.sub(lambda m: f"'{m.group(2)}{m.group(4)}'", t)
    previous = None
    while previous != t:  # unquoting may expose another pair: "''" → "" → (nothing)
        previous, t = t, _BARE_QUOTED.sub(r"\2", t)
    t = _SPACE.sub(" ", t)
    t = _PIPES.sub(r" \1 ", _SEMICOLONS.sub("; ", t))
    t = _rewrite_words(t)
    return _SPACE.sub(" ", t).strip(" ;")


def fold(text: str) -> str:
    """The plain normal form for prose and argument values (no command semantics).

    Look-alike dashes/quotes → ASCII, invisible characters dropped, lower case, `\\` → `/`,
    white space folded to single spaces. Used for structured tools' `key=value` views,
    Notification text and paths, where mapping `type` to `get-content` would be wrong.

    Args:
        text: any text.

    Returns:
        The folded text.
    """
    t = _INVISIBLE.sub("", str(text).translate(_DASHES).translate(_QUOTES))
    return _SPACE.sub(" ", t.lower().replace("\\", "/")).strip()


def _at_command_position(text: str, start: int) -> bool:
    i = start - 1
    if i >= 0 and text[i] == " ":
        i -= 1
    if i < 0:
        return True
    ch = text[i]
    if ch in COMMAND_SEPARATORS:
        return True
    # `. cmd` (dot-source) and `& cmd` (call operator) written with a space
    return ch in ".&" and (i == 0 or text[i - 1] in " ;|({")


def _program(word: str) -> str | None:
    if word in _COMSPEC:
        return "cmd"
    m = _PROGRAM_PATH.match(word)
    if m is None or m.group(1) not in KNOWN_PROGRAMS:
        return None
    if m.group(1) == "sc" and m.group(2):
        return "sc.exe"  # the service-control program, never the Set-Content alias
    return m.group(1)


def _command_word(word: str, next_word: str) -> str:
    glued = _GLUED_SWITCHES.match(word)
    suffix = ""
    if glued and (glued.group(1) in ALIASES or glued.group(1) in KNOWN_PROGRAMS):
        word, suffix = glued.group(1), " " + " ".join("/" + s for s in glued.group(2).split("/") if s)
    program = _program(word)
    if program is not None:
        word = program
    qualified = _MODULE_QUALIFIED.match(word)
    if qualified and ":" not in word:
        word = qualified.group(1)
    if word == "sc":
        word = "sc.exe" if next_word in SC_VERBS else "set-content"
    return ALIASES.get(word, word) + suffix


def _unquoted_words(text: str) -> list[re.Match[str]]:
    spans = [m.span() for m in _STRING_LITERAL.finditer(text)]
    words: list[re.Match[str]] = []
    k = 0
    for m in _WORD.finditer(text):
        while k < len(spans) and spans[k][1] <= m.start():
            k += 1
        if k < len(spans) and spans[k][0] < m.start():
            continue
        words.append(m)
    return words


def _rewrite_words(text: str) -> str:
    out: list[str] = []
    last = 0
    command = ""
    # Words inside quoted strings are left alone here; each string is a layer of its own
    # in `expand`, where its first word is at a command position.
    words = _unquoted_words(text)
    for n, m in enumerate(words):
        word = m.group(0)
        if _at_command_position(text, m.start()):
            following = words[n + 1].group(0) if n + 1 < len(words) else ""
            word = _command_word(word, following)
            command = word.split(" ", 1)[0]
        else:
            param = _PARAMETER.match(word)
            if param:
                word = "-" + canonical_parameter(command, param.group(1)) + (param.group(2) or "")
            elif _SWITCH_RUN.match(word) and len(word) > 2:
                word = " ".join("/" + s for s in word.split("/") if s)
        out.append(text[last : m.start()])
        out.append(word)
        last = m.end()
    out.append(text[last:])
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Layers (S-RULE-03)

_TOKEN = re.compile(r"(?:\"[^\"]*\"|'[^']*'|[^\s;|'\"])+|;|\|")
_INTERPRETER = re.compile(
    r"(?:^|(?<=[\s;|&(){}'\"=/]))(cmd|powershell|pwsh|wsl|bash|sh|start-process)(?:\.exe)?(?=\s|$|['\"])"
)
# -EncodedCommand and every abbreviation powershell.exe / pwsh accept (-e, -ec, -en, -enc, …)
_ENCODED = re.compile(
    r"(?i)(?<![\w-])[-/](e|ec|en[a-z]{0,12})['\"]?[\s,]+['\"]?([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"
)
_PS_NAME = re.compile(r"(?i)(?<![\w-])(?:powershell|pwsh)(?![\w-])")
_PS_VALUE_FLAGS = frozenset(
    {"executionpolicy", "windowstyle", "inputformat", "outputformat", "version", "psconsolefile"}
    | {"configurationname", "workingdirectory", "settingsfile", "custompipename"}
)
_START_PROCESS_VALUE_FLAGS = frozenset(
    {"verb", "windowstyle", "workingdirectory", "credential", "environment"}
    | {"redirectstandarderror", "redirectstandardinput", "redirectstandardoutput"}
)
_WSL_VALUE_FLAGS = frozenset({"-d", "-u", "--distribution", "--user", "--cd"})


def decode_encoded_command(payload: str) -> str | None:
    """Decode a `-EncodedCommand` payload (base64 of UTF-16LE text), or None if it is not one.

    Args:
        payload: the base64 text as it appeared (case matters).

    Returns:
        The decoded command, or None when the payload is not valid base64 UTF-16LE text.
    """
    if len(payload) % 4 == 1:
        return None
    try:
        raw = base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
        decoded = raw.decode("utf-16-le")
    except (binascii.Error, ValueError):
        return None
    if not decoded or any(ord(c) < 32 and c not in "\t\r\n" for c in decoded):
        return None
    return decoded


def encoded_payloads(text: str) -> list[str]:
    """The decoded `-EncodedCommand` payloads found in `text` (after a `powershell`/`pwsh` word).

    Args:
        text: raw command text (its original case: base64 is case-sensitive).

    Returns:
        Each payload that decodes to UTF-16LE text, in order of appearance.
    """
    clean = _pre(text)
    first = _PS_NAME.search(clean)
    if first is None:
        return []
    out: list[str] = []
    for m in _ENCODED.finditer(clean, first.end()):
        flag = m.group(1).lower()
        if flag in ("e", "ec") or "encodedcommand".startswith(flag):
            decoded = decode_encoded_command(m.group(2))
            if decoded is not None:
                out.append(decoded)
    return out


def _statement_tokens(text: str, start: int) -> list[re.Match[str]]:
    tokens: list[re.Match[str]] = []
    for m in _TOKEN.finditer(text, start):
        if m.group(0) in (";", "|"):
            break
        tokens.append(m)
    return tokens


def _rest(text: str, tokens: list[re.Match[str]], index: int) -> str | None:
    if index >= len(tokens):
        return None
    rest = text[tokens[index].start() : tokens[-1].end()]
    # cmd /c "…" and powershell -c "…" drop the outer pair of quotes around the command
    if len(rest) > 1 and rest[0] in "'\"" and rest[-1] == rest[0]:
        rest = rest[1:-1]
    return rest


def _inner_of(name: str, text: str, tokens: list[re.Match[str]]) -> str | None:
    words = [t.group(0) for t in tokens]
    i = 0
    if name == "cmd":
        while i < len(words) and words[i].startswith("/"):
            if words[i][:2] in ("/c", "/k", "/r"):
                glued = words[i][2:]
                return glued + " " + (_rest(text, tokens, i + 1) or "") if glued else _rest(text, tokens, i + 1)
            i += 1
        return None
    if name in ("powershell", "pwsh"):
        while i < len(words) and words[i][:1] in "-/":
            flag = canonical_parameter("powershell", words[i][1:].split(":", 1)[0])
            if flag == "command":
                return _rest(text, tokens, i + 1)
            if flag in ("encodedcommand", "file"):
                return None
            i += 2 if flag in _PS_VALUE_FLAGS else 1
        return _rest(text, tokens, i)
    if name == "wsl":
        while i < len(words) and words[i].startswith("-"):
            i += 2 if words[i] in _WSL_VALUE_FLAGS else 1
        return _rest(text, tokens, i)
    if name in ("bash", "sh"):
        return _rest(text, tokens, words.index("-c") + 1) if "-c" in words else None
    # start-process: the program and its argument list, read as one command line
    kept: list[str] = []
    while i < len(words):
        param = _PARAMETER.match(words[i])
        own = canonical_parameter("start-process", param.group(1)) if param else ""
        if own in _START_PROCESS_VALUE_FLAGS:
            i += 2
            continue
        if own not in PARAMETERS["start-process"]:
            kept.append(re.sub(r"\s*,\s*", " ", words[i]).replace("'", "").replace('"', ""))
        i += 1
    return " ".join(kept) or None


def _inner_layers(normal: str) -> Iterator[str]:
    # A generator, and at most MAX_INTERPRETERS_PER_LAYER interpreters per layer: a text with
    # thousands of `cmd /c` costs a bounded number of tokenisations, not one per match (the
    # first one's inner command already holds all the later ones).
    for n, m in enumerate(_INTERPRETER.finditer(normal)):
        if n >= MAX_INTERPRETERS_PER_LAYER:
            break
        found = _inner_of(m.group(1), normal, _statement_tokens(normal, m.end()))
        if found and found.strip():
            yield found
    for m in _STRING_LITERAL.finditer(normal):
        content = m.group(1) if m.group(1) is not None else m.group(2)
        if " " in content.strip():
            yield content


def expand_checked(text: str) -> tuple[list[str], bool]:
    """`expand`, and whether it saw everything (False when a cap cut a layer off).

    Args:
        text: one command as the model sent it.

    Returns:
        (layers, complete). `complete` is False when a layer was left out because of
        MAX_EXPAND_DEPTH, MAX_LAYERS or MAX_EXPANDED_CHARS; the rules then treat the command
        as uninspectable rather than trusting a partial view (padding or deep nesting would
        otherwise hide the payload).
    """
    out: list[str] = []
    seen: set[str] = set()
    state = {"budget": MAX_EXPANDED_CHARS, "complete": True}

    def room() -> bool:
        if len(out) >= MAX_LAYERS or state["budget"] <= 0:
            state["complete"] = False
            return False
        return True

    def visit(raw: str, depth: int, case_preserved: bool) -> None:
        normal = normalise(raw)
        if normal in seen or not room():
            return
        seen.add(normal)
        out.append(normal)
        state["budget"] -= len(normal)
        # Payloads are searched in text that still has its case (base64 is case-sensitive);
        # layers cut from normalised text are lower case, and their payloads were already
        # found in the case-preserved text they came from.
        decoded = encoded_payloads(raw) if case_preserved else []
        inner = _inner_layers(normal)
        if depth >= MAX_EXPAND_DEPTH:
            if decoded or next(inner, None) is not None:
                state["complete"] = False
            return
        for payload in decoded:
            visit(payload, depth + 1, True)
        for layer in inner:
            if not room():
                return
            visit(layer, depth + 1, False)

    visit(str(text), 0, True)
    return out, bool(state["complete"])


def expand(text: str) -> list[str]:
    """The normalised command plus every nested or decoded layer, outermost first.

    Layers: `cmd /c|/k|/r …`, `powershell|pwsh [-flags] -c …` (or a bare command after the
    flags), `wsl …`, `bash|sh -c …`, `start-process X -argumentlist …` read as `X …`,
    the content of each quoted string that holds more than one word, and each decoded
    `-EncodedCommand` payload; each layer is normalised and expanded again, up to
    `MAX_EXPAND_DEPTH` levels, `MAX_LAYERS` layers and `MAX_EXPANDED_CHARS` characters
    (`expand_checked` says whether a cap was hit). Duplicates are dropped.

    Args:
        text: one command as the model sent it.

    Returns:
        A non-empty list; the first item is `normalise(text)`.
    """
    return expand_checked(text)[0]
