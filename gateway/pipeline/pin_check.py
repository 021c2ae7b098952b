"""Step 2a of a call's journey: a tool whose definition no person accepted is refused (S-PIN-04).

Before the arguments are checked against upstream's schema — a changed schema is exactly what
is not trusted yet — the call meets `policy.pins.check_pin` with the app's current pin gate
(`gateway/state/pins.py`). The refusal is audited as a `deny` with code TOOL_CHANGED and nothing
reaches the upstream. `pin_mode = "warn"` lets the call through (the change is logged and
audited when the tool list is fetched).
"""

from __future__ import annotations

import time
from typing import Any

from gateway.app import GatewayApp
from gateway.errors import UpstreamError
from gateway.pipeline.arguments import audit_copy
from policy import catalog
from policy.decision import refusal_text
from policy.pins import check_pin


async def screen_pins(
    app: GatewayApp, session: str, name: str, forward: dict[str, Any], *, started: float
) -> dict[str, Any] | None:
    """Refuse (and audit) a call to a withheld tool.

    Args:
        app: the gateway.
        session: the session id.
        name: the upstream tool called.
        forward: the arguments that would be forwarded (for the audit line).
        started: `time.perf_counter()` at the start of the call.

    Returns:
        None when the call may go on; else the refusal result (nothing was forwarded).
    """
    try:
        await app.upstream_tools()  # the list this connection offers is recorded before it is judged
    except UpstreamError:
        return None  # the argument check answers that the tool list is unavailable (S-ARG-07)
    decision = check_pin(name, app.pins.gate())
    if decision is None:
        return None
    app.counters.count_denial(decision.code or "")
    await app.audit_event(
        "deny",
        session=session,
        tool=name,
        code=decision.code,
        reason=decision.reason,
        args=audit_copy(forward),
        duration_ms=round((time.perf_counter() - started) * 1000.0, 3),
        **{"class": catalog.classify(name).value},
    )
    return {"content": [{"type": "text", "text": refusal_text(decision)}], "isError": True}
