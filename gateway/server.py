"""The client-facing MCP server: Windows-MCP's tools (as filtered by the gateway) plus `winmcp_*`.

Built from a `GatewayApp`, independent of transport: `serve_stdio` runs it on stdin/stdout
(stdout is protocol only — every log line goes to stderr, DESIGN.md §11), and the HTTP
transport mounts the same server. Each handler hands the call to `gateway.pipeline`.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from gateway import __version__
from gateway.app import GatewayApp
from gateway.pipeline import handle_call
from gateway.upstream import UpstreamProtocolError

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "This is winmcp-gateway in front of Windows-MCP. Take a Snapshot before any input action and cite "
    'its id as based_on="obs-N" (the id is in the [gateway] line after every Snapshot/Screenshot). '
    "Tree coordinates are screen coordinates; convert image pixels with winmcp_to_screen. "
    "A refusal starts with DENIED <CODE> and says what to do instead."
)

# Over stdio one process serves exactly one client: that is the session.
STDIO_SESSION = "stdio"


def session_of(ctx: ServerRequestContext[Any, Any]) -> str:
    """The client session a request belongs to: the HTTP session id, else the stdio session."""
    connection = getattr(ctx.session, "_connection", None)
    session_id = getattr(connection, "session_id", None)
    return f"http:{session_id}" if session_id else STDIO_SESSION


def build_server(app: GatewayApp) -> Server[Any]:
    """The MCP server that fronts `app` (tools/list and tools/call go through the pipeline)."""

    async def on_list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        try:
            tools = await app.client_tools()
        except UpstreamProtocolError as exc:
            raise MCPError(exc.rpc_code, str(exc), exc.rpc_data) from exc
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in tools])

    async def on_call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            result = await handle_call(app, session_of(ctx), params.name, dict(params.arguments or {}), ctx)
        except UpstreamProtocolError as exc:
            # A protocol error from the upstream keeps its JSON-RPC code (DESIGN.md §10).
            raise MCPError(exc.rpc_code, str(exc), exc.rpc_data) from exc
        return types.CallToolResult.model_validate(result)

    return Server(
        "winmcp-gateway",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(app: GatewayApp) -> None:
    """Serve `app` over stdin/stdout until the client closes stdin."""
    server = build_server(app)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def run_stdio(app_factory: Any) -> None:
    """Run a gateway built by the async context manager `app_factory()` over stdio."""

    async def main() -> None:
        async with app_factory() as app:
            await serve_stdio(app)

    anyio.run(main)


__all__ = ["INSTRUCTIONS", "STDIO_SESSION", "build_server", "run_stdio", "serve_stdio", "session_of"]
