"""Asking a person through MCP elicitation, in both protocol eras (DESIGN.md §5, S-APR-06..08).

* 2025-11-25: mid-call `elicitation/create`; the call waits at most `approval_wait_s` for the
  person (then it is a deny, before typical client timeouts).
* 2026-07-28: the call answers `InputRequiredResult` with one elicitation request; the client
  asks the person and retries the identical call with the response and our `request_state`.
  The state is HMAC-signed with a per-process secret, so a retry can only resume the approval
  it was issued for, and only for the identical call (the approval's digest binds it).

A client that does not declare the elicitation capability keeps the out-of-band path
(`winmcp-gateway approve ID`). The model never answers an elicitation: its client asks the person.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any, Literal

import anyio
import mcp_types as types

log = logging.getLogger(__name__)

INPUT_KEY = "winmcp-approval"
MODERN = "2026-07-28"
Answer = Literal["once", "session", "deny", "no_answer"]

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decision": {
            "type": "string",
            "title": "Your decision",
            "enum": ["deny", "approve_once", "approve_session"],
            "enumNames": ["Deny", "Allow this one call", "Allow identical calls for this session"],
            "default": "deny",
        }
    },
    "required": ["decision"],
}


def supports_elicitation(ctx: Any) -> bool:
    """Does the client declare form elicitation (either era)?"""
    session = getattr(ctx, "session", None)
    caps = getattr(session, "client_capabilities", None)
    return bool(caps is not None and getattr(caps, "elicitation", None) is not None)


def is_modern(ctx: Any) -> bool:
    return str(getattr(ctx, "protocol_version", "")) >= MODERN


def prompt_text(tool: str, shown_args: Mapping[str, Any], rule_id: str | None, reason: str) -> str:
    """What the person reads: tool, normalised and redacted arguments, the rule and why."""
    lines = [
        "winmcp-gateway asks you to approve an action of the AI agent on this computer.",
        f"Tool: {tool}",
        f"Arguments: {json.dumps(dict(shown_args), ensure_ascii=False, sort_keys=True)}",
    ]
    if rule_id:
        lines.append(f"Rule: {rule_id}")
    lines.append(f"Why you are asked: {reason}")
    return "\n".join(lines)


def _decision(result: types.ElicitResult | Mapping[str, Any] | None) -> Answer:
    if result is None:
        return "no_answer"
    data = result.model_dump(by_alias=True) if isinstance(result, types.ElicitResult) else dict(result)
    if data.get("action") != "accept":
        return "deny"
    choice = (data.get("content") or {}).get("decision")
    return {"approve_once": "once", "approve_session": "session"}.get(str(choice), "deny")  # type: ignore[return-value]


async def ask_mid_call(ctx: Any, message: str, wait_s: float) -> Answer:
    """2025-11-25: ask now and wait at most `wait_s` (no answer in time is a deny)."""
    with anyio.move_on_after(wait_s):
        try:
            result = await ctx.session.elicit_form(message, SCHEMA, related_request_id=ctx.request_id)
        except Exception as exc:  # noqa: BLE001 - any failure to ask is a deny, never an allow
            log.warning("elicitation failed: %s", exc)
            return "deny"
        return _decision(result)
    return "no_answer"


def input_required(message: str, state: str) -> dict[str, Any]:
    """2026-07-28: the result that asks the client to elicit and retry."""
    request = types.ElicitRequest(params=types.ElicitRequestFormParams(message=message, requested_schema=SCHEMA))
    result = types.InputRequiredResult(input_requests={INPUT_KEY: request}, request_state=state)
    dumped: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    return dumped


def retry_answer(ctx: Any) -> tuple[Answer | None, object]:
    """On a 2026-07-28 retry: (the person's answer, our request_state), or (None, None) if not a retry."""
    params = getattr(ctx, "params", None) or {}
    responses = params.get("inputResponses") if isinstance(params, Mapping) else None
    state = params.get("requestState") if isinstance(params, Mapping) else None
    if not isinstance(responses, Mapping) or INPUT_KEY not in responses:
        return None, state
    return _decision(responses[INPUT_KEY]), state
