"""`UpstreamConnection`: what the rooms above the upstream use of it (the seam `GatewayApp` holds).

`gateway.upstream.client.Upstream` is the implementation: one supervised MCP connection to
Windows-MCP, opened by a `Connector` (`gateway.upstream.connection`) — a stdio child, an HTTP
URL, or a server object in this process (`gateway.upstream.in_process`). Anything with these
members can stand in for it; every request raises `gateway.errors.UpstreamError` (or its
`UpstreamProtocolError`) on a fault, never a library exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import mcp_types as types

from gateway.upstream.client_side import Caller, UpstreamHooks
from gateway.upstream.supervisor import UpstreamSpec


class UpstreamConnection(Protocol):
    """One connection to the upstream, as the app, the pipeline, the protocol room and the doctor see it."""

    spec: UpstreamSpec
    """Where the upstream is (its description appears in `winmcp_state` and the doctor)."""
    hooks: UpstreamHooks | None
    """Receives what the upstream says first (server→client requests, notifications, reconnects)."""
    on_lost: list[Callable[[], None]]
    """Run synchronously the moment the connection is lost (S-UPS-03)."""
    restarts: int
    last_error: str | None

    @property
    def alive(self) -> bool:
        """A connection is up right now."""
        ...

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version (None while down)."""
        ...

    @property
    def server_info(self) -> types.Implementation | None:
        """The upstream's `serverInfo` (None while down)."""
        ...

    @property
    def capabilities(self) -> types.ServerCapabilities | None:
        """The upstream's capabilities (the last connection's while it is down)."""
        ...

    def in_flight(self) -> tuple[Caller, ...]:
        """The client calls waiting on the upstream right now, oldest first (S-PROTO-05)."""
        ...

    async def list_tools(self) -> list[dict[str, Any]]:
        """All upstream tools as wire dicts."""
        ...

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Call one upstream tool; its result as the wire dict."""
        ...

    async def forward(self, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """Forward one non-tool request; the wire result."""
        ...

    async def set_subscribed(self, uri: str, subscribed: bool) -> None:
        """Hold (or drop) the upstream's subscription to `uri`."""
        ...

    async def set_log_level(self, level: str) -> None:
        """The level the upstream should log at."""
        ...

    async def notify_roots_changed(self) -> None:
        """Tell the upstream that a client's roots changed."""
        ...
