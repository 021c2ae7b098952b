"""The audit's canonical line (S-AUD-01) and its chain hash (S-AUD-02).

`to_json_line` is the one serialiser: sorted keys, compact separators, UTF-8 text, and an
explicit fallback for every value JSON cannot hold, so writing a line never fails and the
same record always gives the same bytes. `chain_hash` hashes exactly that line without its
``hash`` field; the writer (`gateway.audit.writer`) and the verifier both use it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import hashlib
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_MAX_REPR = 200


def to_json_line(record: Mapping[str, Any]) -> str:
    """Serialise one record as canonical JSON, never raising (S-AUD-01).

    Sorted keys, compact separators, UTF-8 text (``ensure_ascii=False``). Values JSON
    cannot hold fall back explicitly: bytes → ``{"bytes": n, "sha256": …}``, sets → sorted
    lists, dataclasses → dicts, enums → their value, datetimes → ISO text, NaN/±inf →
    strings, anything else → its ``repr`` cut to 200 characters.

    Args:
        record: the event fields.
    Returns:
        One line of JSON without the trailing newline.
    """
    try:
        return dumps(jsonable(record, 0))
    except Exception as exc:  # noqa: BLE001 - last resort; the walk above should make this unreachable
        return json.dumps({"unserializable": type(exc).__name__}, sort_keys=True, separators=(",", ":"))


def jsonable(value: Any, depth: int) -> Any:
    """`value` as plain JSON data, with the fallbacks `to_json_line` documents (`depth` from 0)."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return _valid_text(value)
    if depth > 64:
        return "[too deep]"
    if isinstance(value, Mapping):
        return {_key(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        items = [jsonable(v, depth + 1) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value)
        return {"bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
    if isinstance(value, enum.Enum):
        return jsonable(value.value, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable({f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}, depth + 1)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Path):
        return _valid_text(str(value))
    return _safe_repr(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return _valid_text(key)
    if key is None or isinstance(key, bool | int | float):
        return json.dumps(key)
    return _safe_repr(key)


def _valid_text(s: str) -> str:
    # Lone surrogates cannot be written as UTF-8; replace them rather than fail the line.
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return s.encode("utf-8", "replace").decode("utf-8")


def _safe_repr(value: object) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not cost the line
        return f"<unrepresentable {type(value).__name__}>"
    return _valid_text(text if len(text) <= _MAX_REPR else text[: _MAX_REPR - 1] + "…")


def dumps(plain: Any) -> str:
    """Canonical JSON text of data that is plain already (`jsonable` output)."""
    return json.dumps(plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(record: Mapping[str, Any]) -> str:
    """SHA-256 hex of the canonical line of `record` without its ``hash`` field (S-AUD-02).

    Args:
        record: a parsed or about-to-be-written audit record.
    Returns:
        The 64-character lower-case hex digest the record's ``hash`` must equal.
    """
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(to_json_line(body).encode("utf-8")).hexdigest()


def format_ts(epoch_s: float) -> str:
    """UTC ISO-8601 with milliseconds and ``Z``, the only timestamp shape written (S-AUD-01).

    Args:
        epoch_s: seconds since the Unix epoch.
    Returns:
        e.g. ``2026-12-02T10:31:02.123Z`` (milliseconds truncated, never rounded up).
    """
    moment = dt.datetime.fromtimestamp(epoch_s, tz=dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
