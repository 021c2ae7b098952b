"""The JSON Schema of one audit line, and checking a log against it (S-AREP-06, S-AREP-07).

`SCHEMA` is the one source; ``spec/audit-line.schema.json`` is its text
(``winmcp-gateway audit-report --schema > spec/audit-line.schema.json``; a test keeps the two equal), so the schema that
``audit-report --verify`` checks is exactly the documented one, also in an installed wheel that
carries no ``spec/``.

Versioning (`SCHEMA_VERSION`, also in ``$id``): the major number changes when a field changes
type or meaning, or a required field goes; the minor number when a field or an event kind is
added. A line does not carry the version (it would cost every line the same bytes):
``audit-report --schema`` prints the schema of the gateway that wrote the file, and a log shipper
stamps its version on what it forwards (README).

``additionalProperties``, decided per level: the top level admits fields this version does not
name (lower-case names only), so a file written by a later minor version still verifies and a
consumer must ignore what it does not know; a test runs the product's flows against the closed
variant (`closed_schema`) so every field the product writes is named here. What the gateway builds
itself — ``screen``, ``torn``, the result summary and its items — is closed: an image item holds
its size and digest and nothing else, so a line carrying image data does not conform (DESIGN §6).
Tool arguments (``args``) are the client's and stay open.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from gateway.audit.reader import iter_events
from gateway.audit.writer import EVENTS

SCHEMA_VERSION = "1.0.0"
SCHEMA_ID = f"urn:winmcp-gateway:audit-line:{SCHEMA_VERSION}"

_HEX64 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_TEXT = {"type": "string"}
_MS = {"type": "number", "minimum": 0}
_POINT = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
_SIZE = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
_RECT = {"type": "array", "items": {"type": "integer"}, "minItems": 4, "maxItems": 4}
_BLOB = {
    "type": "object",
    "properties": {
        "mimeType": _TEXT,
        "bytes": {"type": "integer", "minimum": 0},
        "sha256": {"type": ["string", "null"]},
        "base64": {"const": False},
    },
    "required": ["bytes", "sha256"],
    "additionalProperties": False,
}


def _item(key: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {key: body}, "required": [key], "additionalProperties": False}


_RESULT_ITEM = {
    # anyOf, not oneOf: the forms exclude each other (each requires its one key and admits no other),
    # and anyOf stops at the first that fits.
    "anyOf": [
        _item("text", _TEXT),
        _item("image", _BLOB),
        _item("audio", _BLOB),
        _item(
            "resource",
            {
                "type": "object",
                "properties": {"uri": _TEXT, "mimeType": {}, "blob": _BLOB, "text": _TEXT},
                "required": ["uri"],
                "additionalProperties": False,
            },
        ),
        _item(
            "resource_link",
            {"type": "object", "properties": {"uri": _TEXT, "name": {}}, "additionalProperties": False},
        ),
        _item("type", _TEXT),
    ]
}

_PROPERTIES: dict[str, Any] = {
    "ts": {
        "description": "when it happened: UTC ISO 8601, milliseconds, Z (S-AUD-01)",
        "type": "string",
        "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$",
    },
    "seq": {"description": "one more than the previous line's (S-AUD-02)", "type": "integer", "minimum": 1},
    "prev": {**_HEX64, "description": "the previous line's hash; 64 zeros before the first line"},
    "hash": {**_HEX64, "description": "SHA-256 of the canonical line without hash"},
    "event": {"description": "what kind of line", "enum": list(EVENTS)},
    "policy": {"description": "digest of the effective policy (config and rules)", "type": "string"},
    "session": {"description": "the client session (stdio:… or http:…)", "type": "string"},
    "tool": {"description": "the tool called (or the CLI command that wrote the line)", "type": "string"},
    "class": {
        "description": "the gateway's class of the tool",
        "enum": ["read_only", "input", "system", "control", "unknown"],
    },
    "code": {"description": "refusal, approval or failure code", "type": "string", "pattern": "^[A-Z][A-Z0-9_]*$"},
    "reason": {"description": "why, in words (redacted)", "type": "string"},
    "args": {"description": "the call's arguments, redacted (the client's: open)", "type": "object"},
    "password_field": {"description": "typed text went into a password field and is masked", "const": True},
    "obs": {"description": "the observation this line made or was judged on", "type": "string"},
    "based_on": {"description": "the observation the call cited (as the client sent it)", "type": "string"},
    "generation": {"description": "upstream capture count of the observation", "type": "integer", "minimum": 0},
    "window": {"description": "the focused window's title (from the desktop: untrusted text)", "type": "string"},
    "point": {**_POINT, "description": "the screen point an input call aims at (virtual-desktop pixels)"},
    "duration_ms": {**_MS, "description": "the gateway's time for the call"},
    "upstream_ms": {**_MS, "description": "the upstream's part of it"},
    "rule": {"description": "the command rule that decided", "type": "string"},
    "exempted": {"description": "rules that matched but allow_rules exempts", "type": "array", "items": _TEXT},
    "approval": {"description": "the approval id", "type": "string"},
    "answer": {"description": "a person's answer to an approval", "enum": ["once", "session", "deny"]},
    "channel": {"description": "how the person was asked", "type": "string"},
    "by": {"description": "who: person, model, cli, elicitation", "type": "string"},
    "phase": {"description": "an allow written before the call is forwarded (S-AUD-15)", "const": "intent"},
    "intent": {"description": "the seq of the intent line an outcome belongs to", "type": "integer", "minimum": 1},
    "would": {"description": "shadow mode: what enforcing would have done", "enum": ["deny", "ask"]},
    "field": {"description": "the argument a BAD_ARGUMENTS refusal names", "type": "string"},
    "was_engaged": {"description": "the kill switch's state before a person's command", "type": "boolean"},
    "torn": {
        "description": "the crash fragment this failure line acknowledges (S-AUD-05)",
        "type": "object",
        "properties": {"line": {"type": "integer", "minimum": 1}, "bytes": {"type": "integer"}, "sha256": _HEX64},
        "required": ["line", "bytes", "sha256"],
        "additionalProperties": False,
    },
    "result": {
        "description": "a summary of the tool result: text cut and redacted, images as size and digest only",
        "type": "object",
        "properties": {
            "is_error": {"type": "boolean"},
            "content": {"type": "array", "items": _RESULT_ITEM},
            "structured": {},
            "result": _TEXT,
        },
        "additionalProperties": False,
    },
    "screen": {
        "description": "observation lines: the screen geometry the capture printed (no pixels)",
        "type": "object",
        "properties": {
            "displays": {"type": "array", "items": _RECT},
            "primary": {"type": "integer", "minimum": 0},
            "region": _RECT,
            "origin": _POINT,
            "scale": {**_POINT, "items": {"type": "number", "exclusiveMinimum": 0}},
            "image": _SIZE,
            "cursor": _POINT,
            "focused": {
                "type": "object",
                "properties": {"name": _TEXT, "size": _SIZE, "status": _TEXT},
                "required": ["name"],
                "additionalProperties": False,
            },
        },
        "required": ["displays"],
        "additionalProperties": False,
    },
}

# What each kind of line always carries besides the chain fields.
_REQUIRED_BY_EVENT: dict[str, list[str]] = {
    "observation": ["tool", "session"],
    "allow": ["tool"],
    "outcome": ["tool", "intent"],
    "deny": ["code", "reason"],
    "ask": ["tool", "code"],
    "approval": ["approval"],
    "failure": ["code"],
    "kill": ["reason", "by"],
    "config": ["reason"],
}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": f"winmcp-gateway audit line, version {SCHEMA_VERSION}",
    "description": (
        "One line of audit.jsonl: a canonical JSON object (sorted keys, compact, UTF-8), hash-chained "
        "by seq/prev/hash. Fields this version does not name may appear (a later minor version); "
        "consumers ignore them. Text from the desktop (window titles, results) is untrusted."
    ),
    "x-schema-version": SCHEMA_VERSION,
    "type": "object",
    "properties": _PROPERTIES,
    "required": ["ts", "seq", "prev", "hash", "event"],
    "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
    "additionalProperties": True,
    "allOf": [
        {"if": {"properties": {"event": {"const": event}}}, "then": {"required": fields}}
        for event, fields in _REQUIRED_BY_EVENT.items()
    ],
}


def closed_schema() -> dict[str, Any]:
    """`SCHEMA` with no unnamed top-level field allowed (tests: the product writes only named fields)."""
    closed = copy.deepcopy(SCHEMA)
    closed["additionalProperties"] = False
    return closed


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SchemaProblem:
    """The first line that does not conform: where, and what the validator said."""

    path: Path
    line: int
    message: str
    at: str  # the JSON path inside the line ("$" for the line itself)

    def as_dict(self) -> dict[str, Any]:
        return {"file": str(self.path), "line": self.line, "message": self.message, "at": self.at}


def check_lines(paths: Iterable[Path], schema: dict[str, Any] | None = None) -> tuple[int, SchemaProblem | None]:
    """Validate every parsed line of the audit against the schema (S-AREP-07).

    Unparseable and torn lines are the chain check's business (S-AUD-08) and are skipped here.

    Args:
        paths: audit files in chain order.
        schema: the schema to use (default `SCHEMA`).
    Returns:
        (lines checked, the first line that does not conform or None).
    """
    validators = _validators(schema or SCHEMA)
    checked = 0
    for entry in iter_events(paths):
        if entry.record is None:
            continue
        checked += 1
        event = entry.record.get("event")
        validator = validators.get(event if isinstance(event, str) else "", validators[""])
        if validator.is_valid(entry.record):
            continue
        error = next(iter(sorted(validator.iter_errors(entry.record), key=lambda e: list(e.absolute_path))), None)
        if error is not None:
            at = "$" + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
            return checked, SchemaProblem(path=entry.path, line=entry.line, message=error.message[:300], at=at)
    return checked, None


def _validators(schema: dict[str, Any]) -> dict[str, Any]:
    """One validator per event kind, and the whole schema under "" (any other line).

    For a line whose ``event`` is E, the whole schema means: everything but ``allOf``, plus the
    fields E requires; so that is what E's validator holds. Same verdicts, a third of the work
    (``allOf`` tried every kind's ``if`` on every line).
    """
    out: dict[str, Any] = {"": Draft202012Validator(schema)}
    for rule in schema.get("allOf", []):
        event = rule["if"]["properties"]["event"]["const"]
        own = {k: v for k, v in schema.items() if k != "allOf"}
        own["required"] = [*schema["required"], *rule["then"]["required"]]
        out[event] = Draft202012Validator(own)
    return out


def schema_text() -> str:
    """The schema as the text of ``spec/audit-line.schema.json``."""
    return json.dumps(SCHEMA, indent=2, ensure_ascii=True) + "\n"  # ASCII: the same bytes through any console
