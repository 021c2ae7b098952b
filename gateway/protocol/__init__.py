"""Everything that is not a tool call: sessions, forwarding, server→client requests, input rounds.

`register_forwarding` adds the non-tool handlers (`forward`); `Router` routes what the upstream
says first to the right client (`server_requests`); `run_interactive` runs a call that may ask
the client mid-way (`waiting_call`); `session_of` names a request's session (`sessions`).
"""

from gateway.protocol.forward import register_forwarding
from gateway.protocol.server_requests import Router, tools_digest
from gateway.protocol.sessions import session_of
from gateway.protocol.waiting_call import binding_of, run_interactive, runtime_lifespan

__all__ = [
    "Router",
    "binding_of",
    "register_forwarding",
    "run_interactive",
    "runtime_lifespan",
    "session_of",
    "tools_digest",
]
