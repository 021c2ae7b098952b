"""Redaction: what may reach the audit file (S-RED-01 … S-RED-07).

Three layers, applied by `redact` to every value the audit stores:

1. **Secret-named keys** at any depth (`Authorization`, `x-api-key`, `db_password` …) lose
   their value entirely: ``"[REDACTED]"`` (S-RED-01). A ``{"name": "Password", "value": …}``
   pair (registry values, HAR headers) counts as a secret-named key too.
2. **Secret-shaped text** inside any string — JWTs, bearer tokens, cloud keys, PEM blocks,
   long base64/hex runs, secrets passed on a command line — is masked in place with a label
   that says what was masked, e.g. ``[REDACTED:jwt]`` (S-RED-02, S-RED-03). The patterns
   are the `_TEXT_RULES` table, in the order they apply: specific shapes first (so the label
   is the most precise one), context rules next, generic base64/hex runs last.
3. **Size**: strings over `MAX_STRING_CHARS` are cut with their length noted; result
   summaries never keep image data or any base64 blob (S-RED-05, S-RED-06).

Redaction fails closed: if masking a value raises, the value becomes ``[REDACTED:error]``,
never the raw value (S-RED-06). Every function returns a new structure; inputs are not
modified. This is a best-effort filter for an audit trail, not a data-loss-prevention
system: a secret with no recognisable name or shape can still pass.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import datetime
import enum
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeAlias

REDACTED = "[REDACTED]"
REDACTED_ERROR = "[REDACTED:error]"
MAX_STRING_CHARS = 2000  # S-RED-06: long strings are cut, their length noted
MAX_BLOB_CHARS = 256  # S-RED-05: no base64-alphabet run longer than this survives, whatever its shape
# Only the first MAX_STRING_CHARS survive the cut, so masking far beyond them is wasted work.
# The margin keeps any secret that straddles the kept part whole while it is matched.
_SCAN_CHARS = 4 * MAX_STRING_CHARS


def _mask(label: str) -> str:
    return f"[REDACTED:{label}]"


def truncate(s: str, limit: int = MAX_STRING_CHARS, *, total: int | None = None) -> str:
    """Cut `s` to at most `limit` characters, noting the original length (S-RED-06).

    Args:
        s: the text.
        limit: the maximum length of the result, note included.
        total: the length to report, when `s` is already a prefix of a longer text.
    Returns:
        `s` unchanged when short enough, else a prefix plus ``…[truncated, N chars]``.
    """
    n = len(s) if total is None else total
    if len(s) <= limit and total is None:
        return s
    note = f"…[truncated, {n} chars]"
    return s[: max(0, limit - len(note))] + note


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
    return lambda s: rx.sub(_mask(label), s)


def _label(key: str) -> str:
    return re.sub(r"[-_\s]", "", key.lower()).lstrip("-") or "secret"


_CLI = re.compile(
    r"(?i)(?<![\w-])(--?(?:[a-z]+[-_]?)??(?:password|passwd|pwd|pass|token|api[-_]?key|secret|credentials?"
    r"|passphrase|access[-_]?key|private[-_]?key))(?![\w-])(\s*[=:]\s*|\s+)(?!\s*\[REDACTED)"
    rf"({_QUOTED}|[^\s'\"]+)"
)


def _cli(s: str) -> str:
    # `-Token x`, `-Password:'x'`, `--api-key=x`, `-Credential x` (S-RED-03)
    return _CLI.sub(lambda m: f"{m.group(1)}{m.group(2)}{_mask(_label(m.group(1)))}", s)


_URL_CREDENTIALS = re.compile(r"(?<=://)([^\s:/@'\"]+):(?!\[REDACTED)([^\s@/'\"]+)@")
_CURL_USER = re.compile(r"(?<![\w-])(-u|--user)(\s+|=)(['\"]?)([^\s:'\"]+):(?!\[REDACTED)([^\s'\"]+)\3")
_SECURESTRING = re.compile(r"(?i)convertto-securestring\b(?:" + _QUOTED + r"|[^|;\r\n'\"])*", re.S)
_BARE_FIRST = re.compile(r"(?i)^(\s+(?:-string\s+)?)(?![-$('\"]|\[REDACTED)(\S+)")


def _securestring(s: str) -> str:
    # `ConvertTo-SecureString 'x' -AsPlainText -Force`: every literal in the call is the secret.
    def one(m: re.Match[str]) -> str:
        head, rest = m.group(0)[:22], m.group(0)[22:]
        rest = _LITERAL.sub("'" + _mask("password") + "'", rest)
        return head + _BARE_FIRST.sub(lambda b: b.group(1) + _mask("password"), rest)

    return _SECURESTRING.sub(one, s)


# Unquoted values that may hold spaces: to the end of the `;` field in a connection string
# (`Password=my secret;`), to the end of the line in a cookie header (every cookie is one).
_CONN_FIELD = re.compile(
    r"(?i)(?<![A-Za-z0-9])((passw(?:or)?d|pwd|account[-_]?key|shared[-_]?access[-_]?key)\s*=\s*)"
    r"(?!\s*\[REDACTED)(?![\"'])([^;'\"\r\n]+)"
)
_COOKIE_LINE = re.compile(
    r"(?i)(?<![A-Za-z0-9])(((?:set-)?cookie)\s*:\s*)(?!\s*\[REDACTED)(?![\"'])([^'\"\r\n]+)"
)


def _to_end(s: str) -> str:
    s = _CONN_FIELD.sub(lambda m: m.group(1) + _mask(_label(m.group(2))), s)
    return _COOKIE_LINE.sub(lambda m: m.group(1) + _mask(_label(m.group(2))), s)


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
        label = _mask(_label(m.group(1)))
        if m.group(3) is not None:
            quoted = m.group(3)
            inner = quoted[1:-1] if len(quoted) > 1 and quoted[-1] == quoted[0] else quoted[1:]
            if not _ALREADY.sub("", inner):
                return m.group(0)
            return f"{m.group(1)}{m.group(2)}{quoted[0]}{label}{quoted[0]}"
        return f"{m.group(1)}{m.group(2)}{m.group(4)}{label}"

    return _KV.sub(one, s)


_AUTH_SCHEME = re.compile(
    r"(?i)(?<![A-Za-z0-9])(bearer|basic)(\s+)(?!\s*\[REDACTED)([A-Za-z0-9._~+/-]{8,}=*)"
)
_PROSE_WORD = re.compile(r"[A-Z]?[a-z]+")


def _auth_scheme(s: str) -> str:
    # A bare `Bearer x` / `Basic x` anywhere; "basic settings" is prose and stays.
    def one(m: re.Match[str]) -> str:
        if _PROSE_WORD.fullmatch(m.group(3)):
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{_mask(m.group(1).lower())}"

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
            return _mask(f"blob {len(run)} chars")
        return _mask("base64") if _looks_random(run.rstrip("=")) else run

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


def _has(*words: str) -> Trigger:
    return lambda s, low: any(w in low for w in words)


def _has_case(*words: str) -> Trigger:
    return lambda s, low: any(w in s for w in words)


# The order matters: specific shapes label best, context rules next, generic runs last.
_TEXT_RULES: tuple[tuple[Trigger, Callable[[str], str]], ...] = (
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
        _fixed(
            r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Z0-9])", "aws_key_id"
        ),
    ),
    (
        _has_case("gh", "github_pat_"),
        _fixed(
            r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", "github_token"
        ),
    ),
    (_has_case("xox"), _fixed(r"(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{8,}", "slack_token")),
    (_has_case("sk-"), _fixed(r"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}", "api_key")),
    (_has_case("AIza"), _fixed(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{30,}", "google_api_key")),
    (
        lambda s, low: "://" in s and "@" in s,
        lambda s: _URL_CREDENTIALS.sub(r"\1:" + _mask("url_password") + "@", s),
    ),
    (
        _has("-u", "--user"),
        lambda s: _CURL_USER.sub(lambda m: f"{m[1]}{m[2]}{m[3]}{m[4]}:{_mask('password')}{m[3]}", s),
    ),
    (lambda s, low: "-" in s and any(w in low for w in _CLI_WORDS), _cli),
    (_has("securestring"), _securestring),
    (_has(*_CONN_WORDS), _to_end),
    (lambda s, low: (":" in s or "=" in s) and any(w in low for w in _KV_WORDS), _kv),
    (_has("bearer", "basic"), _auth_scheme),
    (
        lambda s, low: _LONG_RUN.search(s) is not None,
        _fixed(r"(?<![0-9A-Fa-f])(?:0x)?[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])", "hex"),
    ),
    (lambda s, low: _LONG_RUN.search(s) is not None, _base64),
    (
        lambda s, low: _LONG_RUN.search(s) is not None,
        lambda s: _BLOB.sub(lambda m: _mask(f"blob {len(m.group(0))} chars"), s),
    ),
)


def redact_text(s: str) -> str:
    """Mask secret-shaped values inside a string and cut it if long (S-RED-02, S-RED-03, S-RED-06).

    Args:
        s: any text (a command, a header, a window title, a result line).
    Returns:
        The text with each secret replaced by ``[REDACTED:<what>]``, at most
        `MAX_STRING_CHARS` long; ``[REDACTED:error]`` if masking itself failed.
    """
    try:
        text = s if isinstance(s, str) else str(s)
        work = text[:_SCAN_CHARS]
        low = work.lower()
        for trigger, rule in _TEXT_RULES:
            if trigger(work, low):
                work = rule(work)
        if len(work) <= MAX_STRING_CHARS and len(text) <= _SCAN_CHARS:
            return work
        return truncate(work, MAX_STRING_CHARS, total=len(text))
    except Exception:  # noqa: BLE001 - fail closed: the raw text must never leak (S-RED-06)
        return REDACTED_ERROR


def blob_summary(data: object) -> dict[str, Any]:
    """Size and digest of a base64 payload instead of the payload (S-RED-05).

    Args:
        data: the base64 text of an image/audio/blob item.
    Returns:
        ``{"bytes": N, "sha256": hex}`` of the decoded bytes (of the text itself, with
        ``"base64": False``, when it does not decode).
    """
    if not isinstance(data, str):
        return {"bytes": 0, "sha256": None}
    try:
        raw = base64.b64decode(data, validate=True)
        return {"bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
    except (binascii.Error, ValueError):
        raw = data.encode("utf-8", "replace")
        return {"bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest(), "base64": False}


# Keys compared after lower-casing and dropping "-", "_", "." and spaces (S-RED-01).
# fmt: off
SECRET_KEYS = frozenset({
    "authorization", "proxyauthorization", "cookie", "setcookie", "sessionid", "sessiontoken",
    "apikey", "xapikey", "accesskey", "accesskeyid", "secretaccesskey", "secretkey",
    "token", "accesstoken", "refreshtoken", "idtoken", "authtoken",
    "password", "passwd", "pwd", "passphrase", "secret", "clientsecret", "privatekey",
    "jwt", "bearer", "credential", "credentials", "signature", "accountkey", "sharedaccesskey",
})
# A key that merely ends with one of these is secret too (`github_token`, `db_password`).
SECRET_KEY_SUFFIXES = (
    "token", "password", "passwd", "secret", "apikey", "accesskey", "privatekey",
    "sessionid", "credential", "credentials", "cookie", "passphrase",
)
# fmt: on
_NAME_FIELDS = ("name", "key", "header")
_VALUE_FIELDS = ("value", "data")
# A digest we computed ourselves (image summaries) is 64 hex chars by construction, not a secret.
_DIGEST_KEY = "sha256"
_DIGEST = re.compile(r"[0-9a-f]{64}")
MAX_DEPTH = 24  # deeper than any real tool argument; stops cycles and pathological nesting
RESULT_TEXT_CHARS = 500  # a result summary is a reminder of what came back, not a copy
TYPED_TEXT_TOOLS = frozenset({"Type", "MultiEdit"})


def is_secret_key(key: object) -> bool:
    """True when `key` names a secret (case-, ``-``/``_``-insensitive; S-RED-01).

    Args:
        key: a mapping key of any type (only strings can be secret-named).
    Returns:
        Whether the value under this key must be replaced by ``[REDACTED]``.
    """
    if not isinstance(key, str):
        return False
    norm = re.sub(r"[-_\s.]", "", key.lower())
    return norm in SECRET_KEYS or norm.endswith(SECRET_KEY_SUFFIXES) or "password" in norm


def redact(value: Any) -> Any:
    """Deeply redact `value` into a new JSON-friendly structure (S-RED-01, S-RED-02, S-RED-06).

    Args:
        value: anything; mappings, sequences, sets, dataclasses, enums and bytes are walked
            or summarised, strings are masked by `redact_text`, other objects by their repr.
    Returns:
        A new structure of dicts, lists, strings, numbers, bools and None.
    """
    try:
        return _walk(value, 0, ())
    except Exception:  # noqa: BLE001 - fail closed: the raw value must never leak (S-RED-06)
        return REDACTED_ERROR


def _walk(value: Any, depth: int, path: tuple[int, ...]) -> Any:
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return redact_text(value)
    if depth >= MAX_DEPTH or id(value) in path:
        return "[REDACTED:too deep]"
    inner = (*path, id(value))
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value)
        return {"bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
    if isinstance(value, enum.Enum):
        return _walk(value.value, depth + 1, inner)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}
    elif hasattr(value, "model_dump") and callable(value.model_dump):
        value = value.model_dump(mode="json", by_alias=True)
    if isinstance(value, Mapping):
        return _walk_mapping(value, depth, inner)
    if isinstance(value, set | frozenset):
        # Sorted like to_json_line does, so a line does not depend on the hash seed (S-AUD-01).
        items = [_guarded(item, depth + 1, inner) for item in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if isinstance(value, list | tuple):
        return [_guarded(item, depth + 1, inner) for item in value]
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    return redact_text(_safe_repr(value))


def _walk_mapping(value: Mapping[Any, Any], depth: int, path: tuple[int, ...]) -> dict[str, Any]:
    secret_pair = any(is_secret_key(value.get(f)) for f in _NAME_FIELDS if isinstance(value.get(f), str))
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = redact_text(key) if isinstance(key, str) else _safe_repr(key)
        if is_secret_key(key) or (secret_pair and key in _VALUE_FIELDS):
            out[name] = REDACTED
        elif key == _DIGEST_KEY and isinstance(item, str) and _DIGEST.fullmatch(item):
            out[name] = item
        else:
            out[name] = _guarded(item, depth + 1, path)
    return out


def _guarded(value: Any, depth: int, path: tuple[int, ...]) -> Any:
    try:
        return _walk(value, depth, path)
    except Exception:  # noqa: BLE001 - one bad value is masked, its siblings survive (S-RED-06)
        return REDACTED_ERROR


def _safe_repr(value: object) -> str:
    try:
        return truncate(repr(value), 200)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not take the audit down
        return f"<unrepresentable {type(value).__name__}>"


def password_note(text: object) -> str:
    """The stand-in for text typed into a password field (S-RED-04)."""
    n = len(text) if isinstance(text, str) else 0
    return f"[REDACTED password field: {n} chars]"


def typed_texts(tool: str, args: Mapping[str, Any]) -> tuple[str, ...]:
    """The literal texts a Type/MultiEdit call types (to scrub them from echoes; S-RED-04).

    Args:
        tool: the upstream tool name.
        args: the call's raw arguments.
    Returns:
        The typed strings (empty for any other tool). MultiEdit's ``locs`` rows are
        ``[x, y, text]`` and ``labels`` rows ``[label, text]``, as lists or as a JSON string.
    """
    if tool == "Type":
        text = args.get("text")
        return (text,) if isinstance(text, str) else ()
    if tool != "MultiEdit":
        return ()
    found: list[str] = []
    for field, first_text in (("locs", 2), ("labels", 1)):
        rows = _rows(args.get(field))
        for row in rows:
            found.extend(x for x in row[first_text:] if isinstance(x, str))
    return tuple(found)


def _rows(value: Any) -> list[list[Any]]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return []
    if not isinstance(value, list):
        return []
    return [list(r) for r in value if isinstance(r, list | tuple)]


def redact_args(tool: str, args: Mapping[str, Any], *, password_field: bool = False) -> dict[str, Any]:
    """Redact a call's arguments for the audit (S-RED-01 … S-RED-04).

    Args:
        tool: the upstream tool name.
        args: the arguments as the client sent them.
        password_field: True when the call types into a password field; Type's ``text`` and
            MultiEdit's texts are then replaced by ``[REDACTED password field: N chars]``.
    Returns:
        A new dict; never the raw secrets.
    """
    try:
        if password_field and tool in TYPED_TEXT_TOOLS:
            args = _mask_typed(tool, args)
        out = redact(dict(args))
        return out if isinstance(out, dict) else {"args": REDACTED_ERROR}
    except Exception:  # noqa: BLE001 - fail closed (S-RED-06)
        return {"args": REDACTED_ERROR}


def _mask_typed(tool: str, args: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(args)
    if tool == "Type":
        if "text" in out:
            out["text"] = password_note(out["text"])
        return out
    for field, first_text in (("locs", 2), ("labels", 1)):
        if field not in out or out[field] is None:
            continue
        rows = _rows(out[field])
        if not rows and out[field]:
            out[field] = password_note(str(out[field]))
            continue
        out[field] = [
            [*row[:first_text], *(password_note(x) if isinstance(x, str) else x for x in row[first_text:])]
            for row in rows
        ]
    return out


def scrub_literals(value: Any, literals: Iterable[str]) -> Any:
    """Replace every occurrence of the given literal strings inside `value` (S-RED-04).

    Used for echoes of typed passwords (``Typed hunter2 at (10,20).``).

    Args:
        value: an already redacted JSON-friendly structure.
        literals: the exact strings to remove; empty strings are ignored.
    Returns:
        A new structure with each literal replaced by ``[REDACTED password field]``.
    """
    lits = sorted({s for s in literals if isinstance(s, str) and s}, key=len, reverse=True)
    if not lits:
        return value
    if isinstance(value, str):
        for lit in lits:
            value = value.replace(lit, "[REDACTED password field]")
        return value
    if isinstance(value, dict):
        return {k: scrub_literals(v, lits) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_literals(v, lits) for v in value]
    return value


# Echo scrubbing (S-RED-08): upstream often repeats an argument in its result, sometimes cut
# short (Clipboard keeps 100 chars). A token of an argument that redaction masked is a secret;
# any run of 16+ of its characters found elsewhere in the record is masked too.
_ECHO_MIN = 16
_TOKEN = re.compile(r"[^\s'\"`,;(){}\[\]<>|&]+")
_RUN = re.compile(r"[^\s'\"`,;(){}\[\]<>|&]{%d,}" % _ECHO_MIN)


def masked_tokens(raw: Any, redacted: Any) -> tuple[str, ...]:
    """Tokens (16+ chars) of the raw string values that do not survive redaction: the secrets."""
    out: list[str] = []

    def walk(r: Any, d: Any) -> None:
        if isinstance(r, str):
            kept = d if isinstance(d, str) else ""
            out.extend(t for t in _TOKEN.findall(r) if len(t) >= _ECHO_MIN and t not in kept)
        elif isinstance(r, Mapping):
            for key, value in r.items():
                walk(value, d.get(key) if isinstance(d, Mapping) else None)
        elif isinstance(r, list | tuple):
            for i, value in enumerate(r):
                walk(value, d[i] if isinstance(d, list | tuple) and i < len(d) else None)

    walk(raw, redacted)
    return tuple(dict.fromkeys(out))


def scrub_echoes(value: Any, secrets: Iterable[str]) -> Any:
    """Mask runs in `value` that are 16+ character pieces of any of the `secrets` (S-RED-08)."""
    tokens = [t for t in secrets if len(t) >= _ECHO_MIN]
    if not tokens:
        return value
    if isinstance(value, str):

        def one(m: re.Match[str]) -> str:
            run = m.group(0)
            core = run.rstrip(".")  # a cut-short echo ends in "..."
            if len(core) >= _ECHO_MIN and any(core in t or t in core for t in tokens):
                return _mask("echo")
            return run

        return _RUN.sub(one, value)
    if isinstance(value, dict):
        return {k: scrub_echoes(v, tokens) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_echoes(v, tokens) for v in value]
    return value


def summarize_result(result: Any, *, secrets: Iterable[str] = ()) -> dict[str, Any]:
    """A small, redacted summary of a tool result for the audit (S-RED-05).

    Args:
        result: an MCP CallToolResult as a mapping (``content``, ``isError``,
            ``structuredContent``) or a model with ``model_dump``.
        secrets: literal strings to scrub from the summary (e.g. `typed_texts` of a
            password-field call, because upstream echoes typed text).
    Returns:
        ``{"is_error": bool, "content": [...], "structured"?: ...}`` where text items are
        redacted and cut to `RESULT_TEXT_CHARS` and images become
        ``{"image": {"mimeType", "bytes", "sha256"}}``. Image data is never kept.
    """
    try:
        if hasattr(result, "model_dump") and callable(result.model_dump):
            result = result.model_dump(mode="json", by_alias=True)
        if not isinstance(result, Mapping):
            return {"result": redact_text(_safe_repr(result))}
        items = result.get("content")
        content = [_summarize_item(i) for i in items] if isinstance(items, list) else []
        out: dict[str, Any] = {"is_error": bool(result.get("isError", result.get("is_error", False)))}
        out["content"] = content
        structured = result.get("structuredContent", result.get("structured_content"))
        first_text = next((i.get("text") for i in items or [] if isinstance(i, Mapping)), None)
        if structured is not None and structured != {"result": first_text}:
            out["structured"] = _cut_strings(redact(structured))
        return scrub_literals(out, secrets) if secrets else out
    except Exception:  # noqa: BLE001 - fail closed (S-RED-06)
        return {"result": REDACTED_ERROR}


def _summarize_item(item: Any) -> Any:
    if not isinstance(item, Mapping):
        return redact(item)
    kind = item.get("type")
    if kind == "text":
        return {"text": truncate(redact_text(str(item.get("text", ""))), RESULT_TEXT_CHARS)}
    if kind in ("image", "audio"):
        return {str(kind): {"mimeType": str(item.get("mimeType", "")), **blob_summary(item.get("data"))}}
    if kind == "resource" and isinstance(item.get("resource"), Mapping):
        res = item["resource"]
        summary: dict[str, Any] = {"uri": redact_text(str(res.get("uri", "")))}
        summary["mimeType"] = redact(res.get("mimeType"))
        if "blob" in res:
            summary["blob"] = blob_summary(res.get("blob"))
        if "text" in res:
            summary["text"] = truncate(redact_text(str(res.get("text"))), RESULT_TEXT_CHARS)
        return {"resource": summary}
    if kind == "resource_link":
        link = {"uri": redact_text(str(item.get("uri", ""))), "name": redact(item.get("name"))}
        return {"resource_link": link}
    return {"type": redact_text(str(kind))}


def _cut_strings(value: Any) -> Any:
    if isinstance(value, str):
        return truncate(value, RESULT_TEXT_CHARS)
    if isinstance(value, dict):
        return {k: _cut_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v) for v in value]
    return value


__all__ = [
    "MAX_BLOB_CHARS",
    "MAX_STRING_CHARS",
    "REDACTED",
    "REDACTED_ERROR",
    "RESULT_TEXT_CHARS",
    "SECRET_KEYS",
    "blob_summary",
    "masked_tokens",
    "scrub_echoes",
    "is_secret_key",
    "password_note",
    "redact",
    "redact_args",
    "redact_text",
    "scrub_literals",
    "summarize_result",
    "truncate",
    "typed_texts",
]
