"""A small MCP server that exercises every message kind a proxy must forward (S-PROTO-*).

Run it over stdio: ``python -m tests.e2e.protocol_upstream`` or ``python tests/e2e/protocol_upstream.py``
(it imports nothing from this repository). It serves both protocol eras the `mcp` SDK
speaks; where the eras differ it behaves the way each era prescribes:

===================  ========================================  ===========================================
what                 2025-11-25 (initialize)                    2026-07-28 (per-request envelope)
===================  ========================================  ===========================================
sample/elicit/roots  server→client request during the call      InputRequiredResult, answered on the retry
log tool             notifications/message, setLevel floor      only if the request opted in (logLevel)
list/resource news   notifications on the connection            subscriptions/listen stream events
===================  ========================================  ===========================================

Tools: echo, progress, log, sample, elicit, roots, sleep, stats, die, change_tools, change_prompts,
touch (resource updated) — and `extra`, listed only after change_tools. With ``--snapshot FILE``
(a sample's ``*.result.json``) it also serves a `Snapshot` tool answering that sample's result,
so the gateway records observations from it.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import warnings
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ResourceUpdated,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

GREETING = "hello from the protocol upstream"
BLOB = b"\x00\x01binary\xff"
NAMES = ("alice", "albert", "bob")
LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
RESOURCE_NOT_FOUND = -32002
ELICIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
}

_TOOLS: list[dict[str, Any]] = [
    {
        "name": "echo",
        "description": "Echo the text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    },
    {
        "name": "progress",
        "description": "Report progress steps, then finish.",
        "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer"}}},
    },
    {
        "name": "log",
        "description": "Send one log message.",
        "inputSchema": {
            "type": "object",
            "properties": {"level": {"type": "string"}, "message": {"type": "string"}},
        },
    },
    {
        "name": "sample",
        "description": "Ask the client's model (sampling).",
        "inputSchema": {"type": "object", "properties": {"prompt": {"type": "string"}}},
    },
    {
        "name": "elicit",
        "description": "Ask the user (elicitation).",
        "inputSchema": {"type": "object", "properties": {"question": {"type": "string"}}},
    },
    {"name": "roots", "description": "Ask for the client's roots.", "inputSchema": {"type": "object"}},
    {
        "name": "sleep",
        "description": "Sleep (for timeouts and cancellation).",
        "inputSchema": {"type": "object", "properties": {"seconds": {"type": "number"}}},
    },
    {"name": "stats", "description": "What this server has seen.", "inputSchema": {"type": "object"}},
    {"name": "meta", "description": "Answer the request's own _meta.", "inputSchema": {"type": "object"}},
    {"name": "die", "description": "Exit the process mid-call.", "inputSchema": {"type": "object"}},
    {
        "name": "change_tools",
        "description": "Toggle the extra tool and announce it.",
        "inputSchema": {"type": "object"},
    },
    {
        "name": "change_prompts",
        "description": "Announce a prompt list change.",
        "inputSchema": {"type": "object"},
    },
    {
        "name": "touch",
        "description": "Announce that a resource changed.",
        "inputSchema": {"type": "object", "properties": {"uri": {"type": "string"}}, "required": ["uri"]},
    },
]
_EXTRA = {"name": "extra", "description": "Listed after change_tools.", "inputSchema": {"type": "object"}}


class State:
    def __init__(self, snapshot: dict[str, Any] | None = None) -> None:
        self.snapshot = snapshot
        self.extra = False
        self.level: str | None = None
        self.subscribed: set[str] = set()
        self.cancelled = 0
        self.calls: dict[str, int] = {}
        self.roots_changed = 0
        self.bus = InMemorySubscriptionBus()


def _text(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


def _modern(ctx: ServerRequestContext[Any, Any]) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


async def _ask(
    ctx: ServerRequestContext[Any, Any],
    params: types.CallToolRequestParams,
    request: Any,
    result_type: type[Any],
) -> Any:
    """One question to the client, the way the connection's era asks it."""
    if _modern(ctx):
        answer = (params.input_responses or {}).get("q")
        if answer is None:
            return types.InputRequiredResult(input_requests={"q": request})
        return answer
    return await ctx.session.send_request(
        request, result_type, metadata=ServerMessageMetadata(related_request_id=ctx.request_id)
    )


def build(state: State) -> Server[Any]:
    """The server (one `State` per process)."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        tools = _TOOLS + ([_EXTRA] if state.extra else [])
        if state.snapshot is not None:
            tools = [
                *tools,
                {
                    "name": "Snapshot",
                    "description": "A recorded Snapshot.",
                    "inputSchema": {"type": "object"},
                },
            ]
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in tools])

    async def call_tool(ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams) -> Any:
        args = params.arguments or {}
        name = params.name
        state.calls[name] = state.calls.get(name, 0) + 1
        if name == "Snapshot" and state.snapshot is not None:
            return types.CallToolResult.model_validate(state.snapshot)
        if name == "echo":
            return _text(str(args.get("text", "")))
        if name == "progress":
            steps = int(args.get("steps", 3))
            for i in range(1, steps + 1):
                await ctx.session.report_progress(i, steps, f"step {i} of {steps}")
            return _text(f"progress done after {steps} steps")
        if name == "log":
            level: Any = str(args.get("level", "info"))
            if _modern(ctx) or state.level is None or LEVELS.index(level) >= LEVELS.index(state.level):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", MCPDeprecationWarning)
                    await ctx.session.send_log_message(
                        level,
                        str(args.get("message", "")),
                        logger="proto",
                        related_request_id=ctx.request_id,
                    )
            return _text("logged")
        if name == "sample":
            request = types.CreateMessageRequest(
                params=types.CreateMessageRequestParams(
                    messages=[
                        types.SamplingMessage(
                            role="user",
                            content=types.TextContent(type="text", text=str(args.get("prompt", "hi"))),
                        )
                    ],
                    max_tokens=64,
                )
            )
            answer = await _ask(ctx, params, request, types.CreateMessageResult)
            if isinstance(answer, types.InputRequiredResult):
                return answer
            return _text(f"sampled by {answer.model}: {answer.content.text}")
        if name == "elicit":
            question = types.ElicitRequest(
                params=types.ElicitRequestFormParams(
                    message=str(args.get("question", "?")), requested_schema=ELICIT_SCHEMA
                )
            )
            answer = await _ask(ctx, params, question, types.ElicitResult)
            if isinstance(answer, types.InputRequiredResult):
                return answer
            return _text(f"elicited {answer.action}: {(answer.content or {}).get('answer')}")
        if name == "roots":
            answer = await _ask(ctx, params, types.ListRootsRequest(), types.ListRootsResult)
            if isinstance(answer, types.InputRequiredResult):
                return answer
            return _text("roots: " + ", ".join(str(r.uri) for r in answer.roots))
        if name == "sleep":
            await ctx.session.report_progress(0, None, "sleeping")  # tells a waiting test the call is in flight
            try:
                await anyio.sleep(float(args.get("seconds", 30)))
            except anyio.get_cancelled_exc_class():
                state.cancelled += 1
                raise
            return _text("slept")
        if name == "stats":
            return types.CallToolResult(
                content=[types.TextContent(type="text", text="stats")],
                structured_content={
                    "env": os.environ.get("PROTO_UPSTREAM_ECHO", ""),
                    "cancelled": state.cancelled,
                    "calls": state.calls,
                    "level": state.level,
                    "subscribed": sorted(state.subscribed),
                    "roots_changed": state.roots_changed,
                    "pid": os.getpid(),
                },
            )
        if name == "meta":
            raw = (ctx.params or {}).get("_meta") or {}
            return types.CallToolResult(content=[types.TextContent(type="text", text="meta")], structured_content=raw)
        if name == "die":
            print("protocol_upstream: dying on request (exit 3)", file=sys.stderr, flush=True)
            os._exit(3)
        if name == "change_tools":
            state.extra = not state.extra
            await _announce(ctx, "notifications/tools/list_changed", ToolsListChanged())
            return _text(f"extra tool {'on' if state.extra else 'off'}")
        if name == "change_prompts":
            await _announce(ctx, "notifications/prompts/list_changed", PromptsListChanged())
            return _text("prompts changed")
        if name == "touch":
            uri = str(args["uri"])
            if _modern(ctx):
                await state.bus.publish(ResourceUpdated(uri=uri))
            elif uri in state.subscribed:
                await ctx.session.send_resource_updated(uri)
            return _text(f"touched {uri}")
        if name == "extra" and state.extra:
            return _text("extra")
        raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")

    async def _announce(ctx: ServerRequestContext[Any, Any], method: str, event: Any) -> None:
        if _modern(ctx):
            await state.bus.publish(event)
        else:
            await ctx.session.send_notification(
                types.ToolListChangedNotification() if "tools" in method else types.PromptListChangedNotification()
            )

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(uri="proto://greeting", name="greeting", mime_type="text/plain"),
                types.Resource(uri="proto://blob", name="blob", mime_type="application/octet-stream"),
            ]
        )

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(uri_template="proto://items/{id}", name="item", mime_type="text/plain")
            ]
        )

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == "proto://greeting":
            return types.ReadResourceResult(
                contents=[types.TextResourceContents(uri=uri, mime_type="text/plain", text=GREETING)]
            )
        if uri == "proto://blob":
            return types.ReadResourceResult(
                contents=[
                    types.BlobResourceContents(
                        uri=uri, mime_type="application/octet-stream", blob=base64.b64encode(BLOB).decode()
                    )
                ]
            )
        if uri.startswith("proto://items/"):
            item = uri.rsplit("/", 1)[1]
            return types.ReadResourceResult(
                contents=[types.TextResourceContents(uri=uri, mime_type="text/plain", text=f"item {item}")]
            )
        raise MCPError(RESOURCE_NOT_FOUND, f"Resource not found: {uri}", {"uri": uri})

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        state.subscribed.add(str(params.uri))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        state.subscribed.discard(str(params.uri))
        return types.EmptyResult()

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name="greet",
                    description="Greet someone.",
                    arguments=[types.PromptArgument(name="who", description="whom to greet", required=True)],
                )
            ]
        )

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != "greet":
            raise MCPError(types.INVALID_PARAMS, f"Unknown prompt: {params.name}")
        who = (params.arguments or {}).get("who", "nobody")
        return types.GetPromptResult(
            description="A greeting",
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=f"Say hello to {who}."))
            ],
        )

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> types.CompleteResult:
        prefix = params.argument.value
        values = [n for n in NAMES if n.startswith(prefix)]
        return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        state.level = params.level
        return types.EmptyResult()

    async def roots_changed(ctx: Any, params: Any) -> None:
        state.roots_changed += 1

    server: Server[Any] = Server(
        "protocol-upstream",
        version="1.0",
        instructions="A protocol test upstream.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_subscriptions_listen=ListenHandler(state.bus),
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_completion=complete,
    )
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, roots_changed)
    return server


def snapshot_from(argv: list[str]) -> dict[str, Any] | None:
    """The recorded Snapshot result named by ``--snapshot FILE``, if any."""
    if "--snapshot" not in argv:
        return None
    path = argv[argv.index("--snapshot") + 1]
    with open(path, encoding="utf-8") as fh:
        result: dict[str, Any] = json.load(fh)["result"]
    return result


async def serve() -> None:
    """Serve one client over stdin/stdout."""
    server = build(State(snapshot_from(sys.argv[1:])))
    options = server.create_initialization_options(NotificationOptions(True, True, True))
    async with stdio_server() as (read, write):
        await server.run(read, write, options)


if __name__ == "__main__":
    anyio.run(serve)
