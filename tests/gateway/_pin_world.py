"""Shared helpers of the tool-pinning tests: upstream's tool list, its variants, a stub upstream."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import mcp_types as types

from gateway.app import GatewayApp
from gateway.config.load import load_config
from gateway.sim.schema import served_tools
from gateway.sim.variants import ENV_VARIANT, apply_variants
from gateway.upstream.supervisor import UpstreamSpec


def upstream_list(variant: str = "") -> list[dict[str, Any]]:
    """The simulator's served tools/list (upstream 0.8.8's), with a WINMCP_SIM_TOOL_VARIANT applied."""
    return apply_variants(served_tools(), {ENV_VARIANT: variant} if variant else {}).tools


def edited(tools: list[dict[str, Any]], name: str, change: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    """A deep copy of `tools` with `change` applied to the tool `name`."""
    out = copy.deepcopy(tools)
    change(next(t for t in out if t["name"] == name))
    return out


class StubUpstream:
    """An upstream connection whose tool list a test replaces; every call it receives is recorded."""

    def __init__(self, tools: list[dict[str, Any]]) -> None:
        self.tools = tools
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.spec = UpstreamSpec.simulator()
        self.hooks: Any = None
        self.on_lost: list[Callable[[], None]] = []
        self.restarts = 0
        self.last_error: str | None = None
        self.protocol_version = "2025-11-25"
        self.in_flight: tuple[Any, ...] = ()
        self.alive = True
        self.server_info: Any = None
        self.capabilities = types.ServerCapabilities(tools=types.ToolsCapability(list_changed=True))

    async def forward(self, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return {}

    async def set_log_level(self, level: str) -> None:
        return None

    async def list_tools(self) -> list[dict[str, Any]]:
        return copy.deepcopy(self.tools)

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        self.calls.append((name, dict(arguments)))
        return {"content": [{"type": "text", "text": "done"}], "isError": False}


class ListSink:
    """An audit sink that keeps (event, fields) in a list."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def append(self, event: str, **fields: Any) -> None:
        self.events.append((event, fields))

    def stats(self) -> dict[str, Any]:
        return {"written": len(self.events)}


def stub_app(state: Path, tools: list[dict[str, Any]], **config: Any) -> tuple[GatewayApp, StubUpstream, ListSink]:
    """A GatewayApp on `state` in front of a stub upstream offering `tools`, auditing into a list."""
    upstream, sink = StubUpstream(tools), ListSink()
    cfg = load_config(environ={}, state_dir=state, overrides=dict(config))
    return GatewayApp(cfg, upstream, audit=sink), upstream, sink  # type: ignore[arg-type]
