"""Redaction: what an audit line may hold of a call's arguments and results (S-RED, S-AUD-12).

`values` redacts values, arguments and results; `scrub` finds and removes typed secrets that
echo back in other fields.
"""

from gateway.audit.redact.scrub import masked_tokens, scrub_echoes, scrub_literals, typed_texts
from gateway.audit.redact.values import redact, redact_args, summarize_result

__all__ = [
    "masked_tokens",
    "redact",
    "redact_args",
    "scrub_echoes",
    "scrub_literals",
    "summarize_result",
    "typed_texts",
]
