"""Helpers shared by the simulator tests: connect a client, call a tool, read the texts."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp import Client
from mcp.server.lowlevel.server import Server

from tests._requirements import SAMPLES, UPSTREAM_DATA

TIMEOUT = 20  # seconds; every wait in these tests is bounded by it

# The upstream capture's scenario ids (samples/*.result.json "scenario") → simulator scenarios.
SCENARIO_OF = {
    "s01": "default",
    "s02": "hidpi",
    "s03": "dual-right",
    "s04": "dual-negative",
    "s05": "settings",
    "s07": "empty",
    "s08": "truncated",
    "s10": "browser",
}


def upstream_json(name: str) -> Any:
    """A JSON file of the vendored upstream truth."""
    return json.loads((UPSTREAM_DATA / name).read_text(encoding="utf-8"))


def sample(stem: str, suffix: str) -> Any:
    """``samples/<stem>.<suffix>``: parsed JSON for .json files, text for .txt."""
    path = SAMPLES / f"{stem}.{suffix}"
    if suffix.endswith("json"):
        return json.loads(path.read_text(encoding="utf-8"))
    return path.read_text(encoding="utf-8")


@asynccontextmanager
async def connect(server: Server[Any], mode: str = "legacy") -> AsyncIterator[Client]:
    """An in-process MCP client session on ``server``."""
    async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
        yield client


async def call(client: Client, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    """Call a tool; the result as the JSON dict a client would see."""
    with anyio.fail_after(TIMEOUT):
        result = await client.call_tool(tool, arguments or {})
    dumped: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True)
    return dumped


def text(result: dict[str, Any]) -> str:
    """The first text item, unwrapped from the JSON array envelope when it is one (FORMATS §1)."""
    first: str = result["content"][0]["text"]
    if first.startswith('["'):
        return "\n".join(json.loads(first))
    return first
