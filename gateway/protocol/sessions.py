"""Which client session a request belongs to (S-HTTP-08).

Every session has its own observation history, so this key decides whose Snapshot an
input action may cite. The rules, in order:

    1. A 2025-11-25 streamable-HTTP session: its `Mcp-Session-Id`. The key holds a hash of
       the id, never the id itself — the key lands in the audit log, and the id is a
       bearer-like credential for that session.
    2. A 2026-07-28 HTTP request: that era has no session, so there is nothing per client
       to key on except what the request declares. The key is the client's declared name
       (`clientInfo.name`, else "anonymous"): two instances of one client program share
       one history. The bearer token authenticates the principal, not the instance; run
       several agents in the 2025-11-25 era (or one gateway each) to keep them apart.
    3. Anything else is the stdio session: one process, one client.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

STDIO_SESSION = "stdio"


def _short_hash(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


def session_of(ctx: Any) -> str:
    """The gateway session key of a request context (see the module docstring for the rules)."""
    connection = getattr(ctx.session, "_connection", None)
    session_id = getattr(connection, "session_id", None)
    if session_id:
        return f"http:{_short_hash(str(session_id))}"
    if getattr(ctx, "request", None) is not None:
        params = getattr(ctx.session, "client_params", None)
        name = getattr(getattr(params, "client_info", None), "name", None) or "anonymous"
        # Declared by the client: keep it printable and short, it lands in the audit log.
        return f"http-modern:{re.sub(r'[^A-Za-z0-9._-]', '_', str(name))[:64]}"
    return STDIO_SESSION
