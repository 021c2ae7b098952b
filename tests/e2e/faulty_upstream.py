"""A misbehaving MCP upstream for the fault tests (S-UPS-07 … S-UPS-11).

Run it over stdio: ``python tests/e2e/faulty_upstream.py [--snapshot FILE]`` (it imports nothing
from this repository). Each tool is one way an upstream goes wrong:

=========  ==========================================================================
echo       answers its text (the "next call works" probe)
stats      this process's pid and how often each tool was called
freeze     answers, then blocks its own event loop for an hour: the whole upstream stops
           answering, pings included (a frozen Windows-MCP)
hang       never answers this one call; everything else (ping too) still works
huge       answers ``bytes`` bytes of text (or, with ``image``, of base64 image data)
flood      writes ``bytes`` bytes to stderr, then answers
Snapshot   with ``--snapshot FILE`` (a sample's ``*.result.json``): that recorded result
=========  ==========================================================================
"""

from __future__ import annotations

import base64
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server

FREEZE_MESSAGE = "faulty upstream: frozen (the event loop is blocked)"
FLOOD_LINE = b"faulty upstream: stderr flood " + b"#" * 97 + b"\n"  # 128 bytes a line

_OBJECT: dict[str, Any] = {"type": "object"}
_TOOLS: list[dict[str, Any]] = [
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "stats", "inputSchema": _OBJECT},
    {"name": "freeze", "inputSchema": _OBJECT},
    {"name": "hang", "inputSchema": _OBJECT},
    {
        "name": "huge",
        "inputSchema": {
            "type": "object",
            "properties": {"bytes": {"type": "integer"}, "image": {"type": "boolean"}},
        },
    },
    {"name": "flood", "inputSchema": {"type": "object", "properties": {"bytes": {"type": "integer"}}}},
]


def _text(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


async def _freeze_soon() -> None:
    # Once the answer is out (the loop runs on for a moment), the loop blocks: nothing, not even
    # a ping, is read again.
    await anyio.sleep(0.3)
    print(FREEZE_MESSAGE, file=sys.stderr, flush=True)
    time.sleep(3600)


def _flood(size: int) -> None:
    out = sys.stderr.buffer
    lines, rest = divmod(size, len(FLOOD_LINE))
    block = FLOOD_LINE * 512
    full, part = divmod(lines, 512)
    for _ in range(full):
        out.write(block)
    out.write(FLOOD_LINE * part + b"#" * rest)
    out.flush()


def build(snapshot: dict[str, Any] | None, background: Callable[..., Any]) -> Server[Any]:
    """The server (one per process); `background` starts a task beside the server."""
    calls: dict[str, int] = {}

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        tools = _TOOLS + ([{"name": "Snapshot", "inputSchema": _OBJECT}] if snapshot is not None else [])
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in tools])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        args = params.arguments or {}
        name = params.name
        calls[name] = calls.get(name, 0) + 1
        if name == "Snapshot" and snapshot is not None:
            return types.CallToolResult.model_validate(snapshot)
        if name == "echo":
            return _text(str(args.get("text", "")))
        if name == "stats":
            return types.CallToolResult(
                content=[types.TextContent(type="text", text="stats")],
                structured_content={"pid": os.getpid(), "calls": dict(calls)},
            )
        if name == "freeze":
            background(_freeze_soon)
            return _text("freezing")
        if name == "hang":
            await anyio.sleep_forever()
        if name == "huge":
            size = int(args.get("bytes", 0))
            if args.get("image"):
                data = base64.b64encode(b"\x00" * (size * 3 // 4)).decode("ascii")
                return types.CallToolResult(
                    content=[types.ImageContent(type="image", data=data, mime_type="image/png")]
                )
            return _text("x" * size)
        if name == "flood":
            _flood(int(args.get("bytes", 0)))
            return _text("flooded")
        raise ValueError(f"unknown tool {name}")

    return Server("faulty-upstream", on_list_tools=list_tools, on_call_tool=call_tool)


def snapshot_from(argv: list[str]) -> dict[str, Any] | None:
    """The recorded Snapshot result named by ``--snapshot FILE``, if any."""
    if "--snapshot" not in argv:
        return None
    with open(argv[argv.index("--snapshot") + 1], encoding="utf-8") as fh:
        result: dict[str, Any] = json.load(fh)["result"]
    return result


async def serve() -> None:
    """Serve one client over stdin/stdout."""
    async with anyio.create_task_group() as tg:
        server = build(snapshot_from(sys.argv[1:]), tg.start_soon)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
        tg.cancel_scope.cancel()


if __name__ == "__main__":
    anyio.run(serve)
