"""An upstream that dies mid-call: a clear FAILED result, a failure event, and the gateway lives on (S-PRX-05)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client

from gateway.app import open_gateway
from gateway.config.load import load_config
from gateway.transport.server import build_server
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement
from tests.e2e.harness import first_text, wire

pytestmark = pytest.mark.anyio

# A tiny upstream: one tool that answers, one that makes the process exit mid-call.
DYING_UPSTREAM = """
import os, sys
import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.server.stdio import stdio_server

async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[types.Tool(name="Snapshot", inputSchema={"type": "object"})])

async def call_tool(ctx, params):
    if (params.arguments or {}).get("die"):
        print("fatal: the desktop went away", file=sys.stderr, flush=True)
        os._exit(3)
    return types.CallToolResult(content=[types.TextContent(type="text", text="alive")])

server = Server("dying", on_list_tools=list_tools, on_call_tool=call_tool)

async def main():
    async with stdio_server() as (r, w):
        await server.run(r, w, server.create_initialization_options())

anyio.run(main)
"""


@requirement("S-PRX-05")
async def test_an_upstream_that_dies_mid_call_gives_a_clear_failure_and_the_next_call_works(
    tmp_path: Path,
) -> None:
    """S-PRX-05: FAILED UPSTREAM_DIED with the stderr tail; audited as failure; the restarted upstream answers."""
    script = tmp_path / "dying_upstream.py"
    script.write_text(DYING_UPSTREAM)
    config = load_config(environ={}, state_dir=tmp_path / "state")
    async with (
        open_gateway(config, UpstreamSpec(argv=(sys.executable, str(script)))) as app,
        Client(build_server(app), mode="legacy") as client,
    ):
        died = wire(await client.call_tool("Snapshot", {"die": True}))
        assert died["isError"] is True
        assert first_text(died).startswith("FAILED UPSTREAM_DIED: ")
        assert "Remedy: " in first_text(died)
        assert any("the desktop went away" in i.get("text", "") for i in died["content"])
        again = wire(await client.call_tool("Snapshot", {}))
        assert first_text(again) == "alive"
        assert app.upstream.restarts == 1
    events = (tmp_path / "state" / "audit.jsonl").read_text()
    assert '"event":"failure"' in events and "UPSTREAM_DIED" in events
