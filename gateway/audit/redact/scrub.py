"""Typed text and echoes: what ordinary redaction cannot see (S-RED-04, S-RED-08).

Text typed into a password field has no secret shape, and upstream echoes arguments in
its results (``Typed hunter2 at (10,20).``, a Clipboard value cut to 100 characters). So
the audit writer masks Type/MultiEdit texts in the arguments (`mask_typed`), then scrubs
their literals (`scrub_literals`) and the 16+ character pieces of every argument value
that redaction masked (`masked_tokens`, `scrub_echoes`) from the rest of the record.
These functions work on already redacted, JSON-friendly structures.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gateway.audit.redact.patterns import mask

TYPED_TEXT_TOOLS = frozenset({"Type", "MultiEdit"})


def map_strings(value: Any, change: Callable[[str], str]) -> Any:
    """A copy of a JSON-friendly structure with `change` applied to every string value.

    Args:
        value: strings, dicts and lists are walked (dict keys are kept); anything else is
            returned as it is.
        change: what to do with one string.
    Returns:
        The new structure.
    """
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {k: map_strings(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [map_strings(v, change) for v in value]
    return value


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


def mask_typed(tool: str, args: Mapping[str, Any]) -> dict[str, Any]:
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

    def scrub(text: str) -> str:
        for lit in lits:
            text = text.replace(lit, "[REDACTED password field]")
        return text

    return map_strings(value, scrub)


# Echo scrubbing (S-RED-08): upstream often repeats an argument in its result, sometimes cut
# short (Clipboard keeps 100 chars). A token of an argument that redaction masked is a secret;
# any run of 16+ of its characters found elsewhere in the record is masked too.
_ECHO_MIN = 16
_TOKEN_CHAR = r"[^\s'\"`,;(){}\[\]<>|&]"
_TOKEN = re.compile(_TOKEN_CHAR + "+")
_RUN = re.compile(_TOKEN_CHAR + f"{{{_ECHO_MIN},}}")


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

    def one(m: re.Match[str]) -> str:
        run = m.group(0)
        core = run.rstrip(".")  # a cut-short echo ends in "..."
        if len(core) >= _ECHO_MIN and any(core in t or t in core for t in tokens):
            return mask("echo")
        return run

    return map_strings(value, lambda text: _RUN.sub(one, text))
