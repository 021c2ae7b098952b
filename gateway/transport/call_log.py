"""`winmcp-gateway -v serve`: one stderr line per tools/call — tool, verdict or code, milliseconds (S-CLI-41).

The line is an INFO record on the named logger `gateway.calls`, so it costs one
`isEnabledFor` check per call when nobody asked for it (the default WARNING level). What the
call came to is read from the result the client gets, the way the client sees it:

    OK                  a result without isError
    DENIED <CODE>       a refusal (`DENIED <CODE>: …`)
    FAILED <CODE>       a gateway-side failure (`FAILED <CODE>: …`, e.g. UPSTREAM_DIED)
    ERROR               the upstream's own error result
    ASK elicitation     a 2026-07-28 input-required round trip (a person is being asked)

Arguments, results and session keys are never logged here: the audit holds them, redacted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

CALL_LOG = logging.getLogger("gateway.calls")
_PREFIXES = ("DENIED ", "FAILED ")


def outcome_of(result: Mapping[str, Any]) -> str:
    """What a tools/call result came to, in a word or two (see the module docstring)."""
    if result.get("resultType") == "input_required":
        return "ASK elicitation"
    if not result.get("isError"):
        return "OK"
    content = result.get("content")
    first = content[0] if isinstance(content, list) and content and isinstance(content[0], Mapping) else {}
    text = first.get("text")
    if isinstance(text, str) and text.startswith(_PREFIXES):
        return text.split(":", 1)[0][:64]
    return "ERROR"


def log_call(tool: str, result: Mapping[str, Any], started: float) -> None:
    """Log one finished call: `<tool> <outcome> <ms> ms` (`started` is a `time.perf_counter()`)."""
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    CALL_LOG.info("%s %s %.1f ms", tool[:80], outcome_of(result), elapsed_ms)
