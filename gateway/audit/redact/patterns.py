"""The secret-shaped text patterns `redact_text` masks (S-RED-02, S-RED-03, S-RED-05).

`TEXT_RULES` is the table, in the order the rules apply: specific shapes first (so the
label is the most precise one: ``[REDACTED:jwt]``, ``[REDACTED:aws_key_id]`` …), context
rules next (command-line switches, `key=value`, connection strings, cookies, auth schemes),
generic hex/base64 runs and over-long blobs last. Each rule is a `(trigger, mask)` pair:
the regex pass runs only when the cheap trigger fires.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeAlias

MAX_BLOB_CHARS = 256  # S-RED-05: no base64-alphabet run longer than this survives, whatever its shape


def mask(label: str) -> str:
    """The stand-in for a masked value: ``[REDACTED:<label>]``."""
    return f"[REDACTED:{label}]"


_QUOTED = r"'(?:[^']|'')*'|\"(?:[^\"`\\]|`.|\\.)*\"|'[^']*\Z|\"[^\"]*\Z"
_LITERAL = re.compile(_QUOTED, re.S)
_KEY = (
    r"(?:proxy[-_]?)?authorization|(?:set[-_]?)?cookie|session[-_]?(?:id|token)|(?:x[-_]?)?api[-_]?key"
    r"|(?:secret[-_]?)?access[-_]?key(?:[-_]?id)?|(?:access|refresh|id|auth|bearer|csrf|xsrf)[-_]?token"
    r"|token|passw(?:or)?d|pwd|passphrase|(?:client[-_]?)?secret|private[-_]?key|jwt|credentials?"
    r"|signature|account[-_]?key|shared[-_]?access[-_]?key|sig"
)
_SCHEMES = r"bearer|basic|digest|negotiate|token|ntlm"


def _fixed(pattern: str, label: str, flags: int = 0) -> Callable[[str], str]:
    rx = re.compile(pattern, flags)
    return lambda s: rx.sub(mask(label), s)


def _label(key: str) -> str:
    return re.sub(r"[-_\s]", "", key.lower()).lstrip("-") or "secret"


_CLI = re.compile(
    r"(?i)(?<![\w-])(--?(?:[a-z]+[-_]?)??(?:password|passwd|pwd|pass|token|api[-_]?key|secret|credentials?"
    r"|passphrase|access[-_]?key|private[-_]?key))(?![\w-])(\s*[=:]\s*|\s+)(?!\s*\[REDACTED)"
    rf"({_QUOTED}|[^\s'\"]+)"
)


def _cli(s: str) -> str:
    # `-Token x`, `-Password:'x'`, `--api-key=x`, `-Credential x` (S-RED-03)
    return _CLI.sub(lambda m: f"{m.group(1)}{m.group(2)}{mask(_label(m.group(1)))}", s)


_URL_CREDENTIALS = re.compile(r"(?<=://)([^\s:/@'\"]+):(?!\[REDACTED)([^\s@/'\"]+)@")
_CURL_USER = re.compile(r"(?<![\w-])(-u|--user)(\s+|=)(['\"]?)([^\s:'\"]+):(?!\[REDACTED)([^\s'\"]+)\3")
_SECURESTRING = re.compile(r"(?i)convertto-securestring\b(?:" + _QUOTED + r"|[^|;\r\n'\"])*", re.S)
_BARE_FIRST = re.compile(r"(?i)^(\s+(?:-string\s+)?)(?![-$('\"]|\[REDACTED)(\S+)")


def _securestring(s: str) -> str:
    # `ConvertTo-SecureString 'x' -AsPlainText -Force`: every literal in the call is the secret.
    def one(m: re.Match[str]) -> str:
        head, rest = m.group(0)[:22], m.group(0)[22:]
        rest = _LITERAL.sub("'" + mask("password") + "'", rest)
        return head + _BARE_FIRST.sub(lambda b: b.group(1) + mask("password"), rest)

    return _SECURESTRING.sub(one, s)


# Unquoted values that may hold spaces: to the end of the `;` field in a connection string
# (`Password=my secret;`), to the end of the line in a cookie header (every cookie is one).
_CONN_FIELD = re.compile(
    r"(?i)(?<![A-Za-z0-9])((passw(?:or)?d|pwd|account[-_]?key|shared[-_]?access[-_]?key)\s*=\s*)"
    r"(?!\s*\[REDACTED)(?![\"'])([^;'\"\r\n]+)"
)
_COOKIE_LINE = re.compile(r"(?i)(?<![A-Za-z0-9])(((?:set-)?cookie)\s*:\s*)(?!\s*\[REDACTED)(?![\"'])([^'\"\r\n]+)")


def _to_end(s: str) -> str:
    s = _CONN_FIELD.sub(lambda m: m.group(1) + mask(_label(m.group(2))), s)
    return _COOKIE_LINE.sub(lambda m: m.group(1) + mask(_label(m.group(2))), s)


_KV = re.compile(
    r"(?i)(?<![A-Za-z0-9])(" + _KEY + r")(?![A-Za-z0-9])(['\"]?\s*[:=]\s*)"
    r"(?!\s*(?:(?:" + _SCHEMES + r")\s+)?\[REDACTED)"
    r"(?:(" + _QUOTED + r")|((?:(?:" + _SCHEMES + r")\s+)?)([^\s'\",;&}\])]+))",
    re.S,
)
_ALREADY = re.compile(r"\[REDACTED[^\]]*\]|\b(?:" + _SCHEMES + r")\b|\s", re.I)


def _kv(s: str) -> str:
    # `Authorization: Bearer x`, `@{Authorization='Bearer x'}`, `"api_key": "x"`, `?token=x` (S-RED-03)
    def one(m: re.Match[str]) -> str:
        label = mask(_label(m.group(1)))
        if m.group(3) is not None:
            quoted = m.group(3)
            inner = quoted[1:-1] if len(quoted) > 1 and quoted[-1] == quoted[0] else quoted[1:]
            if not _ALREADY.sub("", inner):
                return m.group(0)
            return f"{m.group(1)}{m.group(2)}{quoted[0]}{label}{quoted[0]}"
        return f"{m.group(1)}{m.group(2)}{m.group(4)}{label}"

    return _KV.sub(one, s)


_AUTH_SCHEME = re.compile(r"(?i)(?<![A-Za-z0-9])(bearer|basic)(\s+)(?!\s*\[REDACTED)([A-Za-z0-9._~+/-]{8,}=*)")
_PROSE_WORD = re.compile(r"[A-Z]?[a-z]+")


def _auth_scheme(s: str) -> str:
    # A bare `Bearer x` / `Basic x` anywhere; "basic settings" is prose and stays.
    def one(m: re.Match[str]) -> str:
        if _PROSE_WORD.fullmatch(m.group(3)):
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{mask(m.group(1).lower())}"

    return _AUTH_SCHEME.sub(one, s)


_B64 = re.compile(r"(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{32,}={0,2}")


def _looks_random(run: str) -> bool:
    # Random base64 mixes all three character classes and changes class often; a path
    # (`Users/Alice/AppData/Local`) has many separators, a long identifier few changes.
    if not (re.search(r"\d", run) and re.search(r"[A-Z]", run) and re.search(r"[a-z]", run)):
        return False
    if sum(run.count(c) for c in "/_-") * 8 > len(run):
        return False
    classes = [0 if c.isdigit() else 1 if c.isupper() else 2 if c.islower() else 3 for c in run]
    changes = sum(1 for a, b in zip(classes, classes[1:], strict=False) if a != b)
    return changes >= 0.3 * (len(run) - 1)


def _base64(s: str) -> str:
    def one(m: re.Match[str]) -> str:
        run = m.group(0)
        if len(run) > MAX_BLOB_CHARS:
            return mask(f"blob {len(run)} chars")
        return mask("base64") if _looks_random(run.rstrip("=")) else run

    return _B64.sub(one, s)


_BLOB = re.compile(rf"[A-Za-z0-9+/=_-]{{{MAX_BLOB_CHARS + 1},}}")

# A rule runs only when its cheap trigger (substring tests on the text and its lower-case
# form) fires: most strings hold no secret, and a full regex pass per rule is what costs.
Trigger: TypeAlias = Callable[[str, str], bool]
_LONG_RUN = re.compile(r"[A-Za-z0-9+/=_-]{32}")
_CLI_WORDS = ("pass", "pwd", "token", "key", "secret", "credential")
_CONN_WORDS = ("passw", "pwd", "account", "shared", "cookie")
_KV_WORDS = (
    "auth",
    "cookie",
    "session",
    "key",
    "token",
    "passw",
    "pwd",
    "secret",
    "jwt",
    "credential",
    "sig",
)


# Every word a trigger needs, gathered as the triggers are made: `could_hold_secret` tests them
# all in one pass, so a string no trigger can fire on (most of them: tool names, classes, short
# values, plain result lines) skips the table. The union is built from the triggers' own words,
# so a trigger added with `_has`/`_has_case`/`_needs` is in it without a second list to keep.
_LOWER_WORDS: list[str] = []  # looked for in the lower-cased text
_CASE_WORDS: list[str] = []  # looked for in the text as it is
SCREENED: list[Trigger] = []  # every trigger made through the helpers below (a test holds TEXT_RULES to it)


def _alternation(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in words))


def _has(*words: str) -> Trigger:
    # One compiled alternation of plain substrings: the same test as `any(w in low …)`, in C.
    _LOWER_WORDS.extend(words)
    found = _alternation(words).search
    return _screened(lambda s, low: found(low) is not None)


def _has_case(*words: str) -> Trigger:
    _CASE_WORDS.extend(words)
    found = _alternation(words).search
    return _screened(lambda s, low: found(s) is not None)


def _needs(lower: tuple[str, ...], trigger: Trigger) -> Trigger:
    # A hand-written trigger, with the lower-case words one of which it cannot fire without.
    _LOWER_WORDS.extend(lower)
    return _screened(trigger)


def _long_run() -> Trigger:
    # The generic hex/base64/blob rules: a 32-character base64-alphabet run (the screen's own).
    return _screened(lambda s, low: _LONG_RUN.search(s) is not None)


def _screened(trigger: Trigger) -> Trigger:
    SCREENED.append(trigger)
    return trigger


# The order matters: specific shapes label best, context rules next, generic runs last.
TEXT_RULES: tuple[tuple[Trigger, Callable[[str], str]], ...] = (
    (
        _has("private key"),
        _fixed(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
            r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
            "private_key",
        ),
    ),
    (
        _has(";base64,"),
        _fixed(r"data:[\w.+-]+/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/=]*", "data_uri"),
    ),
    (
        _has_case("eyJ"),
        _fixed(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*", "jwt"),
    ),
    (
        _has_case("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"),
        _fixed(r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Z0-9])", "aws_key_id"),
    ),
    (
        # The token's own prefixes, not "gh": that is in "height" and "right", so nearly every result
        # line ran the rule (a third of a result summary's cost).
        _has_case("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        _fixed(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", "github_token"),
    ),
    (_has_case("xox"), _fixed(r"(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{8,}", "slack_token")),
    (_has_case("sk-"), _fixed(r"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}", "api_key")),
    (_has_case("AIza"), _fixed(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{30,}", "google_api_key")),
    (
        _needs(("://",), lambda s, low: "://" in s and "@" in s),
        lambda s: _URL_CREDENTIALS.sub(r"\1:" + mask("url_password") + "@", s),
    ),
    (
        _has("-u", "--user"),
        lambda s: _CURL_USER.sub(lambda m: f"{m[1]}{m[2]}{m[3]}{m[4]}:{mask('password')}{m[3]}", s),
    ),
    (_needs(_CLI_WORDS, lambda s, low: "-" in s and any(w in low for w in _CLI_WORDS)), _cli),
    (_has("securestring"), _securestring),
    (_has(*_CONN_WORDS), _to_end),
    (_needs(_KV_WORDS, lambda s, low: (":" in s or "=" in s) and any(w in low for w in _KV_WORDS)), _kv),
    (_has("bearer", "basic"), _auth_scheme),
    (
        _long_run(),
        _fixed(r"(?<![0-9A-Fa-f])(?:0x)?[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])", "hex"),
    ),
    (_long_run(), _base64),
    (
        _long_run(),
        lambda s: _BLOB.sub(lambda m: mask(f"blob {len(m.group(0))} chars"), s),
    ),
)

_SCREEN_LOWER = tuple(dict.fromkeys(_LOWER_WORDS))
_SCREEN_CASE = tuple(dict.fromkeys(_CASE_WORDS))


def could_hold_secret(s: str, low: str) -> bool:
    """False only when no trigger of `TEXT_RULES` can fire on `s` (`low` is ``s.lower()``).

    Every trigger needs at least one of the words gathered above (or a long base64-alphabet
    run), so a string with none of them would pass every rule unchanged: skipping the table
    for it changes nothing but the time (S-RED-02; a test checks the equivalence). Plain
    substring tests, not one alternation: CPython's `in` is a fast search in C, where `re`
    tries every alternative at every position (measured 3x slower on a 400-character line).
    """
    for word in _SCREEN_LOWER:
        if word in low:
            return True
    for word in _SCREEN_CASE:
        if word in s:
            return True
    return _LONG_RUN.search(s) is not None
