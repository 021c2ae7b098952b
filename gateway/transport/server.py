"""The client-facing MCP server: Windows-MCP's tools (as filtered by the gateway) plus `winmcp_*`,
and everything else the upstream offers, forwarded (DESIGN.md §10).

Built from a `GatewayApp`, independent of transport: `serve_stdio` runs it on stdin/stdout
(stdout is protocol only — every log line goes to stderr, DESIGN.md §11), and
`gateway.transport.http` mounts the same server on streamable HTTP. tools/list and tools/call go
through `app.client_tools()` and `gateway.pipeline.journey.handle_call`; the rest goes through
`gateway.protocol.forward`; what the upstream says first goes through `gateway.protocol.server_requests`. Both
protocol eras are served (the SDK picks the client's): 2025-11-25 with `initialize`, and
2026-07-28 with `server/discover` and per-request envelopes (S-PROTO-09).
"""

from __future__ import annotations

import copy
import logging
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server

from gateway import __version__
from gateway.app import GatewayApp
from gateway.errors import UpstreamError
from gateway.pipeline.journey import handle_call
from gateway.protocol.forward import register_forwarding
from gateway.protocol.server_requests import Router, tools_digest
from gateway.protocol.sessions import session_of
from gateway.protocol.waiting_call import binding_of, run_interactive, runtime_lifespan
from gateway.tools import OWN_TOOL_DEFINITIONS
from gateway.transport.call_log import CALL_LOG, log_call
from gateway.transport.framing import MessageLimits
from gateway.transport.stdio import checked_stdio
from gateway.upstream.client import UpstreamProtocolError, client_error

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "This is winmcp-gateway in front of Windows-MCP. Take a Snapshot before any input action and cite "
    'its id as based_on="obs-N" (the id is in the [gateway] line after every Snapshot/Screenshot). '
    "Tree coordinates are screen coordinates; convert image pixels with winmcp_to_screen. "
    "A refusal starts with DENIED <CODE> and says what to do instead."
)


def advertised_capabilities(upstream: types.ServerCapabilities | None) -> types.ServerCapabilities:
    """What the gateway tells clients it can do (S-PROTO-03).

    Tools always (the gateway's own are always there, and it announces list changes itself:
    the list changes when the upstream comes up, restarts or changes its tools). Prompts,
    resources (with subscribe / listChanged), logging and completions only when the upstream
    has them, with the upstream's flags. Experimental capabilities and extensions are hidden:
    the gateway forwards no method it does not know.
    """
    prompts = resources = logging_cap = completions = None
    if upstream is not None:
        if upstream.prompts is not None:
            prompts = types.PromptsCapability(list_changed=bool(upstream.prompts.list_changed))
        if upstream.resources is not None:
            resources = types.ResourcesCapability(
                subscribe=bool(upstream.resources.subscribe),
                list_changed=bool(upstream.resources.list_changed),
            )
        if upstream.logging is not None:
            logging_cap = types.LoggingCapability()
        if upstream.completions is not None:
            completions = types.CompletionsCapability()
    return types.ServerCapabilities(
        tools=types.ToolsCapability(list_changed=True),
        prompts=prompts,
        resources=resources,
        logging=logging_cap,
        completions=completions,
    )


class GatewayServer(Server[Any]):
    """A lowlevel `Server` whose capabilities mirror the upstream's (see `advertised_capabilities`)."""

    def __init__(self, app: GatewayApp, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gateway_app = app

    def get_capabilities(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
        *,
        protocol_version: str | None = None,
    ) -> types.ServerCapabilities:
        return advertised_capabilities(self.gateway_app.upstream.capabilities)


class _SeenMiddleware:
    """Context-tier middleware: remember each 2025-11-25 client's connection for notifications."""

    def __init__(self, router: Router) -> None:
        self._router = router

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        if ctx.method != "initialize":  # the connection is not usable before the handshake
            self._router.seen(ctx)
        return await call_next(ctx)


def router_for(app: GatewayApp) -> Router:
    """The one `Router` of `app` (several servers built for one app share it)."""
    hooks = app.upstream.hooks
    if isinstance(hooks, Router) and hooks.app is app:
        return hooks
    router = Router(app)
    app.upstream.hooks = router
    return router  # (GatewayApp itself marks observations stale on upstream loss, S-UPS-03)


def own_tools_only() -> list[dict[str, Any]]:
    """The gateway's own tools: what a client sees while the upstream is down (S-UPS-04)."""
    return copy.deepcopy(list(OWN_TOOL_DEFINITIONS))


def build_server(app: GatewayApp) -> Server[Any]:
    """The MCP server that fronts `app` (tools/list and tools/call go through the pipeline)."""
    router = router_for(app)

    async def on_list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        try:
            tools = await app.client_tools()
        except UpstreamProtocolError as exc:
            raise client_error(exc) from exc
        except UpstreamError as exc:
            log.warning("tools/list without the upstream's tools: %s", exc)
            tools = own_tools_only()
        router.tools_digest = tools_digest(tools)
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in tools])

    async def call(ctx: ServerRequestContext[Any, Any], session: str, params: types.CallToolRequestParams) -> Any:
        # `-v` only (S-CLI-41): one isEnabledFor per call otherwise, no clock read.
        started = time.perf_counter() if CALL_LOG.isEnabledFor(logging.INFO) else None
        try:
            result = await handle_call(app, session, params.name, dict(params.arguments or {}), ctx)
        except UpstreamProtocolError as exc:
            # A protocol error from the upstream keeps its JSON-RPC code (DESIGN.md §10).
            raise client_error(exc) from exc
        if started is not None:
            log_call(params.name, result, started)
        if result.get("resultType") == "input_required":
            # The pipeline's own 2026-07-28 round trip (an approval asked through elicitation).
            return types.InputRequiredResult.model_validate(result)
        return types.CallToolResult.model_validate(result)

    async def on_call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> Any:
        session = session_of(ctx)
        return await run_interactive(
            ctx,
            session,
            binding=binding_of("tools/call", params.name, params.arguments or {}),
            request_state=params.request_state,
            input_responses=params.input_responses,
            work=lambda: call(ctx, session, params),
            log_floor=router.log_floor,
        )

    server = GatewayServer(
        app,
        "winmcp-gateway",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=runtime_lifespan,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )
    register_forwarding(server, app, router)
    # The SDK opens an OpenTelemetry span around every message; the gateway installs no exporter (its
    # record is the audit) and passes a client's `traceparent` on in `_meta` untouched, so the span
    # would only cost time on every call (issue 13, S-PERF-06).
    server.middleware[:] = [m for m in server.middleware if type(m).__name__ != "OpenTelemetryMiddleware"]
    server.middleware.append(_SeenMiddleware(router))
    return server


def message_limits(app: GatewayApp) -> MessageLimits:
    """The bounds every client message of `app` must keep (`max_message_bytes`, S-MSG-05)."""
    return MessageLimits(max_bytes=app.config.max_message_bytes)


async def serve_stdio(app: GatewayApp) -> None:
    """Serve `app` over stdin/stdout until the client closes stdin.

    Every stdin line is checked before the SDK sees it (`gateway.transport.stdio`): a malformed
    one is answered with its JSON-RPC error and logged, and serving goes on (S-MSG-01..07).
    """
    server = build_server(app)
    async with checked_stdio(message_limits(app)) as (read, write):
        await server.run(read, write, server.create_initialization_options())


def run_stdio(app_factory: Any) -> None:
    """Run a gateway built by the async context manager `app_factory()` over stdio."""

    async def main() -> None:
        async with app_factory() as app:
            await serve_stdio(app)

    anyio.run(main)
