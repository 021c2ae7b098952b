"""Redaction: what may reach the audit file (S-RED-01 … S-RED-07).

Three layers, applied by `redact` to every value the audit stores:

1. **Secret-named keys** at any depth (`Authorization`, `x-api-key`, `db_password` …) lose
   their value entirely: ``"[REDACTED]"`` (S-RED-01). A ``{"name": "Password", "value": …}``
   pair (registry values, HAR headers) counts as a secret-named key too.
2. **Secret-shaped text** inside any string — JWTs, bearer tokens, cloud keys, PEM blocks,
   long base64/hex runs, secrets passed on a command line — is masked in place with a label
   that says what was masked, e.g. ``[REDACTED:jwt]`` (S-RED-02, S-RED-03). The patterns
   are the `TEXT_RULES` table of `_redact_patterns`, in the order they apply: specific
   shapes first (so the label is the most precise one), context rules next, generic
   base64/hex runs last.
3. **Size**: strings over `MAX_STRING_CHARS` are cut with their length noted; result
   summaries never keep image data or any base64 blob (S-RED-05, S-RED-06).

Text typed into password fields and echoes of masked arguments are scrubbed by the helpers
of `_redact_scrub` (S-RED-04, S-RED-08), re-exported here.

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
import functools
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from gateway.audit.redact.patterns import TEXT_RULES, could_hold_secret
from gateway.audit.redact.patterns import Trigger as Trigger  # re-exported: it was defined here
from gateway.audit.redact.scrub import (
    TYPED_TEXT_TOOLS,
    map_strings,
    mask_typed,
    scrub_literals,
)

REDACTED = "[REDACTED]"
REDACTED_ERROR = "[REDACTED:error]"
MAX_STRING_CHARS = 2000  # S-RED-06: long strings are cut, their length noted
# Only the first `limit` characters survive the cut, so masking far beyond them is wasted work.
# The margin keeps any secret that straddles the kept part whole while it is matched.
_SCAN_MARGIN = 4


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


def redact_text(s: str, limit: int = MAX_STRING_CHARS) -> str:
    """Mask secret-shaped values inside a string and cut it if long (S-RED-02, S-RED-03, S-RED-06).

    Args:
        s: any text (a command, a header, a window title, a result line).
        limit: the longest result; only the first ``4 * limit`` characters are scanned, since
            masking beyond what is kept is wasted work (a result summary keeps 500 of a
            Snapshot's many thousands). The margin keeps a secret that straddles the cut whole.
    Returns:
        The text with each secret replaced by ``[REDACTED:<what>]``, at most `limit` long,
        its original length noted when cut; ``[REDACTED:error]`` if masking itself failed.
    """
    try:
        text = s if isinstance(s, str) else str(s)
        scan = _SCAN_MARGIN * limit
        work = text[:scan]
        low = work.lower()
        if could_hold_secret(work, low):
            for trigger, rule in TEXT_RULES:
                if trigger(work, low):
                    work = rule(work)
        if len(work) <= limit and len(text) <= scan:
            return work
        return truncate(work, limit, total=len(text))
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
        return _digest(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return {**_digest(data.encode("utf-8", "replace")), "base64": False}


def _digest(raw: bytes) -> dict[str, Any]:
    return {"bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}


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


def is_secret_key(key: object) -> bool:
    """True when `key` names a secret (case-, ``-``/``_``-insensitive; S-RED-01).

    Args:
        key: a mapping key of any type (only strings can be secret-named).
    Returns:
        Whether the value under this key must be replaced by ``[REDACTED]``.
    """
    if not isinstance(key, str):
        return False
    return _is_secret_name(key)


@functools.lru_cache(maxsize=4096)  # the same few keys come back on every call; bounded for hostile ones
def _is_secret_name(key: str) -> bool:
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
        return _digest(bytes(value))
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
            args = mask_typed(tool, args)
        out = redact(dict(args))
        return out if isinstance(out, dict) else {"args": REDACTED_ERROR}
    except Exception:  # noqa: BLE001 - fail closed (S-RED-06)
        return {"args": REDACTED_ERROR}


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
        return {"text": redact_text(str(item.get("text", "")), RESULT_TEXT_CHARS)}
    if kind in ("image", "audio"):
        return {str(kind): {"mimeType": str(item.get("mimeType", "")), **blob_summary(item.get("data"))}}
    if kind == "resource" and isinstance(item.get("resource"), Mapping):
        res = item["resource"]
        summary: dict[str, Any] = {"uri": redact_text(str(res.get("uri", "")))}
        summary["mimeType"] = redact(res.get("mimeType"))
        if "blob" in res:
            summary["blob"] = blob_summary(res.get("blob"))
        if "text" in res:
            summary["text"] = redact_text(str(res.get("text")), RESULT_TEXT_CHARS)
        return {"resource": summary}
    if kind == "resource_link":
        link = {"uri": redact_text(str(item.get("uri", ""))), "name": redact(item.get("name"))}
        return {"resource_link": link}
    return {"type": redact_text(str(kind))}


def _cut_strings(value: Any) -> Any:
    return map_strings(value, lambda s: truncate(s, RESULT_TEXT_CHARS))
