"""End-to-end harness: a real `mcp` client ⇄ the gateway ⇄ the simulated Windows-MCP (stdio child).

The simulator's event log is the ground truth of what reached the desktop: a refused action
must leave no event there, an allowed one must leave exactly one at the intended point.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from gateway.app import GatewayApp, open_gateway
from gateway.config.load import load_config
from gateway.sim.control import send_control
from gateway.sim.events import read_events
from gateway.transport.server import build_server
from gateway.upstream.client import as_wire
from gateway.upstream.supervisor import UpstreamSpec

SIDE_EFFECT_KINDS_EXCLUDED = {"capture"}


def wire(result: Any) -> dict[str, Any]:
    """A result as the client received it, without the answering server's identity stamp."""
    return as_wire(result)


def first_text(result: Mapping[str, Any]) -> str:
    for item in result.get("content", []):
        if item.get("type") == "text":
            return str(item.get("text", ""))
    return ""


def annotation_of(result: Mapping[str, Any]) -> str | None:
    texts = [i.get("text", "") for i in result.get("content", []) if i.get("type") == "text"]
    found = [t for t in texts if t.startswith("[gateway] obs=")]
    return found[-1] if found else None


@dataclass
class Rig:
    """One gateway in front of one simulator, and a client connected to the gateway."""

    app: GatewayApp
    client: Client
    tmp: Path
    event_log: Path
    control: Path

    async def call(self, name: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return wire(await self.client.call_tool(name, dict(args or {})))

    def events(self) -> list[dict[str, Any]]:
        return read_events(self.event_log) if self.event_log.exists() else []

    def side_effects(self) -> list[dict[str, Any]]:
        """Events that changed the desktop or system (captures excluded)."""
        return [e for e in self.events() if e.get("kind") not in SIDE_EFFECT_KINDS_EXCLUDED]

    def world(self, op: str, **fields: Any) -> None:
        """Change the simulated world from outside (focus moves, a window drifts …)."""
        send_control(self.control, op, **fields)

    def audit_lines(self) -> list[dict[str, Any]]:
        path = self.app.config.state_dir / "audit.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def sim_spec(tmp: Path, scenario: str) -> tuple[UpstreamSpec, Path, Path]:
    event_log, control = tmp / "sim-events.jsonl", tmp / "sim-control.jsonl"
    control.touch()
    spec = UpstreamSpec.simulator("--scenario", scenario, "--event-log", str(event_log), "--control", str(control))
    return spec, event_log, control


@contextlib.asynccontextmanager
async def gateway_rig(
    tmp: Path,
    *,
    scenario: str = "default",
    config: Mapping[str, Any] | None = None,
    client_mode: str = "legacy",
    upstream_mode: str = "legacy",
    state_dir: Path | None = None,
    **client_kwargs: Any,
) -> AsyncIterator[Rig]:
    """client ⇄ gateway (in process) ⇄ simulator (stdio child); `state_dir` may be shared by rigs."""
    tmp.mkdir(parents=True, exist_ok=True)
    spec, event_log, control = sim_spec(tmp, scenario)
    cfg = load_config(environ={}, state_dir=state_dir or tmp / "state", overrides=dict(config or {}))
    async with (
        open_gateway(cfg, spec, mode=upstream_mode) as app,
        Client(build_server(app), mode=client_mode, **client_kwargs) as client,
    ):
        yield Rig(app=app, client=client, tmp=tmp, event_log=event_log, control=control)


@contextlib.asynccontextmanager
async def direct_sim(tmp: Path, *, scenario: str = "default", mode: str = "legacy") -> AsyncIterator[Client]:
    """A client talking to the simulator directly (the reference for transparency tests)."""
    spec, event_log, control = sim_spec(tmp, scenario)
    params = StdioServerParameters(command=spec.argv[0], args=list(spec.argv[1:]))
    async with Client(params, mode=mode) as client:
        yield client


def gateway_stdio_params(tmp: Path, *args: str, scenario: str = "default") -> tuple[StdioServerParameters, Path, Path]:
    """`winmcp-gateway serve --upstream sim` as a real stdio subprocess (the way clients run it)."""
    event_log, control = tmp / "sim-events.jsonl", tmp / "sim-control.jsonl"
    control.touch()
    env = {
        "WINMCP_GATEWAY_STATE_DIR": str(tmp / "state"),
        "WINMCP_SIM_EVENT_LOG": str(event_log),
        "WINMCP_SIM_CONTROL": str(control),
    }
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway", "serve", "--upstream", "sim", "--scenario", scenario, *args],
        env=env,
    )
    return params, event_log, control
