"""Upstreams that fail the way a first run on a new machine does, for the doctor tests (S-DOC-20 … S-DOC-23).

Run over stdio: ``python tests/e2e/doctor_upstreams.py MODE`` (it imports nothing from this
repository). `faulty_upstream.py` misbehaves once it is up; these misbehave while it comes up:

============  ==========================================================================
crash         prints a Python traceback to stderr and exits 1 before any answer (a
              missing module, the way `uvx windows-mcp` fails without its dependencies)
silent        says one line on stderr, then reads stdin and never answers (a download
              that hangs, a server stuck before its handshake)
hang-list     answers initialize as "hanging-windows-mcp" 9.9.9, never answers tools/list
hang-capture  answers initialize and tools/list (upstream 0.8.8's list, so the schema checks
              pass), never answers a tool call (the doctor's Screenshot)
============  ==========================================================================
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

CRASH_LAST_LINE = "ModuleNotFoundError: No module named 'windows_mcp_backend'"
SILENT_LINE = "doctor upstream: starting (it will never answer)"
NAME, VERSION = "hanging-windows-mcp", "9.9.9"
TOOLS_LIST = Path(__file__).resolve().parents[1] / "upstream_data" / "tools_list.json"


def _crash() -> None:
    print("Traceback (most recent call last):", file=sys.stderr)
    print('  File "windows_mcp/__main__.py", line 3, in <module>', file=sys.stderr)
    print("    import windows_mcp_backend", file=sys.stderr)
    print(CRASH_LAST_LINE, file=sys.stderr, flush=True)
    raise SystemExit(1)


def _silent() -> None:
    print(SILENT_LINE, file=sys.stderr, flush=True)
    for _ in sys.stdin:  # read every request, answer none; end when the doctor closes stdin
        pass
    time.sleep(0.1)


def _serve(mode: str) -> None:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel.server import Server
    from mcp.server.stdio import stdio_server

    tools: list[dict[str, Any]] = json.loads(TOOLS_LIST.read_text(encoding="utf-8"))["tools"]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        if mode == "hang-list":
            await anyio.sleep_forever()
        return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in tools])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> Any:
        await anyio.sleep_forever()

    server: Server[Any] = Server(NAME, version=VERSION, on_list_tools=list_tools, on_call_tool=call_tool)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    MODE = sys.argv[1] if len(sys.argv) > 1 else ""
    if MODE == "crash":
        _crash()
    elif MODE == "silent":
        _silent()
    elif MODE in ("hang-list", "hang-capture"):
        _serve(MODE)
    else:
        raise SystemExit(f"usage: doctor_upstreams.py crash|silent|hang-list|hang-capture (not {MODE!r})")
