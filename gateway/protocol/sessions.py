"""Which client session a request belongs to (S-HTTP-08, S-APR-09).

Every session has its own observation history and its own approvals, so this key decides
whose Snapshot an input action may cite and which "for this session" grants cover a call.
Approvals outlive the process in the state dir, and several gateway processes may share
one state dir: a key must therefore never repeat in another process or a later run, or a
grant made there would be honoured here (issue 12 item 3). The rules, in order:

    1. A 2025-11-25 streamable-HTTP session: its `Mcp-Session-Id` (random per session,
       made by the SDK). The key holds a hash of the id, never the id itself — the key
       lands in the audit log, and the id is a bearer-like credential for that session.
    2. A 2026-07-28 HTTP request: that era has no session, so there is nothing per client
       to key on except what the request declares. The key is this process's nonce and
       the client's declared name (`clientInfo.name`, else "anonymous"): two instances of
       one client program share one history in one process, never across processes. The
       bearer token authenticates the principal, not the instance; run several agents in
       the 2025-11-25 era (or one gateway each) to keep them apart.
    3. Anything else is a stdio session: one pipe, one client. In the 2025-11-25 era its
       key is a random nonce made when the connection's first request arrives and kept in
       the connection's own state — unique per gateway process, and per connection where
       one process serves several (as the in-process tests do). The 2026-07-28 era builds
       a connection per request, so there its key is this process's nonce (as in rule 2).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from mcp_types.version import MODERN_PROTOCOL_VERSIONS

STDIO_PREFIX = "stdio:"
# The kind of a stdio key, kept for importers: since S-APR-09 no session's key equals it.
STDIO_SESSION = "stdio"
MODERN_PREFIX = "http-modern:"
# 64 random bits: no two sessions of any process collide in practice, and a key cannot be guessed
# (it is never taken from a client anyway). 16 hex digits, like `http:` keys, stay below the
# audit's 32-digit hex-secret mask, so the audit still tells sessions apart.
NONCE_BYTES = 8
# This process's nonce for 2026-07-28 keys (rules 2, 3). Fixed at import, never reassigned.
PROCESS_NONCE = secrets.token_hex(NONCE_BYTES)
# The key under which a stdio connection remembers its session key (`Connection.state`).
_STATE_KEY = "winmcp_gateway.session"


def _short_hash(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


def new_stdio_session() -> str:
    """A fresh stdio session key: `stdio:` and 16 random hex digits."""
    return STDIO_PREFIX + secrets.token_hex(NONCE_BYTES)


def session_of(ctx: Any) -> str:
    """The gateway session key of a request context (see the module docstring for the rules).

    Args:
        ctx: the SDK's request context (`ctx.session._connection` is the client connection).

    Returns:
        `http:<hash>`, `http-modern:<process nonce>:<name>`, or `stdio:<nonce>` (a
        connection's own, else the process's).
    """
    connection = getattr(ctx.session, "_connection", None)
    session_id = getattr(connection, "session_id", None)
    if session_id:
        return f"http:{_short_hash(str(session_id))}"
    if getattr(ctx, "request", None) is not None:
        params = getattr(ctx.session, "client_params", None)
        name = getattr(getattr(params, "client_info", None), "name", None) or "anonymous"
        # Declared by the client: keep it printable and short, it lands in the audit log.
        return f"{MODERN_PREFIX}{PROCESS_NONCE}:{re.sub(r'[^A-Za-z0-9._-]', '_', str(name))[:64]}"
    state = getattr(connection, "state", None)
    if getattr(ctx, "protocol_version", None) in MODERN_PROTOCOL_VERSIONS or not isinstance(state, dict):
        return STDIO_PREFIX + PROCESS_NONCE
    key = state.get(_STATE_KEY)
    if not isinstance(key, str):
        key = state[_STATE_KEY] = new_stdio_session()
    return key
