"""The seams between the upstream connection and the client-facing side (S-PROTO-05, S-PROTO-06).

The upstream is one shared MCP connection; the clients are many. Two things cross that
boundary and need to know *which* client they belong to:

- a request the upstream sends back during a call (sampling, elicitation, roots), and
- a notification the upstream pushes (progress, logging, list changes, resource updates).

`Caller` is the client-side call that is currently waiting on the upstream. The server
sets it in `CURRENT_CALLER` before a call enters the pipeline; `gateway.upstream.client` reads it
in the same task, registers it as in flight for as long as its upstream request runs, and
passes its progress callback along. `UpstreamHooks` is what the upstream connection calls
when the upstream speaks first; `gateway.protocol.server_requests.Router` implements it.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any, Protocol, runtime_checkable

import mcp_types as types

# The SDK's own answers when a client has no callback for a server→client request
# (mcp.client.session._default_*_callback): a client without the capability gets these
# exact errors through the gateway too, so the proxy is transparent (S-PROTO-05).
NOT_SUPPORTED: dict[str, str] = {
    "sampling/createMessage": "Sampling not supported",
    "elicitation/create": "Elicitation not supported",
    "roots/list": "List roots not supported",
}


def not_supported(method: str) -> types.ErrorData:
    """The error a client without the capability for `method` answers."""
    return types.ErrorData(code=types.INVALID_REQUEST, message=NOT_SUPPORTED.get(method, f"{method} not supported"))


@runtime_checkable
class Caller(Protocol):
    """A client-side call waiting on the upstream: where its progress and questions go."""

    session: str
    """The gateway session key of the client that made the call (see `gateway.transport.server.session_of`)."""

    @property
    def forward_meta(self) -> Mapping[str, Any] | None:
        """The client's own `_meta` keys to pass upstream (never progress tokens or envelope keys)."""
        ...

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Relay one upstream progress update to the client under the client's own token."""
        ...

    async def ask(self, method: str, params: Mapping[str, Any]) -> dict[str, Any] | types.ErrorData:
        """Put a server→client request to this call's client and return its answer."""
        ...

    async def notify(self, method: str, params: Mapping[str, Any] | None) -> bool:
        """Send a notification on this call's own response stream; False when it could not go."""
        ...


CURRENT_CALLER: ContextVar[Caller | None] = ContextVar("winmcp_current_caller", default=None)
# The upstream's own key of the input request being answered, when it came embedded in a 2026-07-28
# InputRequiredResult (None for a 2025-11-25 mid-call request): the client is asked under that key
# too, so the upstream's round reaches the client as the upstream wrote it (S-PROTO-24).
INPUT_KEY: ContextVar[str | None] = ContextVar("winmcp_input_key", default=None)


class UpstreamHooks(Protocol):
    """What the upstream connection calls when the upstream speaks first."""

    async def server_request(
        self, method: str, params: Mapping[str, Any], caller: Caller | None
    ) -> dict[str, Any] | types.ErrorData:
        """Answer a server→client request (`caller`: known when the SDK ran it in the caller's task)."""
        ...

    async def notification(self, method: str, params: Mapping[str, Any] | None) -> None:
        """Deliver an upstream notification (logging, list changes, resource updates …)."""
        ...

    async def connected(self, *, first: bool) -> None:
        """The upstream connection is (again) up: re-announce what may have changed."""
        ...


def strip_reserved_meta(meta: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The `_meta` keys a client set that may travel upstream (S-PROTO-04).

    Progress tokens are the gateway's own business on each side, and the reserved
    `io.modelcontextprotocol/` keys describe the client's envelope, not the gateway's.
    """
    if not meta:
        return None
    kept = {k: v for k, v in meta.items() if k != "progressToken" and not k.startswith("io.modelcontextprotocol/")}
    return kept or None
