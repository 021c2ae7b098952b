"""End-to-end harness: a real `mcp` client ⇄ the gateway ⇄ the simulated Windows-MCP.

The gateway runs in this process; so does the simulator, unless a test asks for the real thing:
`in_process_sim(spec)` serves the very simulator `spec` would start as a stdio child, through
the same JSON wire (`gateway.upstream.in_process`), a fresh one per connection. Tests where the
process boundary is the point start real children: `gateway_stdio_params` (the gateway as a
stdio child, with its own simulator child), the protocol upstream's lifecycle rigs
(`tests/e2e/_proto_rig.py`), the demo and the Inspector.

The simulator's event log is the ground truth of what reached the desktop: a refused action
must leave no event there, an allowed one must leave exactly one at the intended point.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from gateway.app import GatewayApp, open_gateway
from gateway.config.load import load_config
from gateway.sim.control import send_control
from gateway.sim.events import read_events
from gateway.sim.run import _parser as sim_options  # the child's own option parser, so both read argv alike
from gateway.sim.server import build_server as build_sim_server
from gateway.transport.server import build_server
from gateway.upstream import supervisor
from gateway.upstream.client import as_wire
from gateway.upstream.connection import Connector
from gateway.upstream.in_process import in_process
from gateway.upstream.supervisor import UpstreamSpec

SIDE_EFFECT_KINDS_EXCLUDED = {"capture"}
# A rig's scripted client calls far faster than any agent, and some replay hundreds of refused
# commands in one session (the rule corpus): the brake (S-RATE-01..09) would rightly stop them.
# Rigs get limits no test reaches — not "off", which the doctor would warn about; the brake's own
# tests (tests/e2e/test_rate_limits*.py) pass `rate_limits` and get exactly what they pass.
RIG_RATE_LIMITS = {
    "input": "10000/s",
    "system": "10000/s",
    "unknown": "10000/s",
    "identical_calls": 10000,
    "refusals_in_a_row": 10000,
}


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
        result = wire(await self.client.call_tool(name, dict(args or {})))
        # The audit line is queued (S-AUD-13); tests read the file as of the answer they just got.
        await self.app.audit_flush()
        return result

    def events(self) -> list[dict[str, Any]]:
        return read_events(self.event_log) if self.event_log.exists() else []

    def side_effects(self) -> list[dict[str, Any]]:
        """Events that changed the desktop or system (captures excluded)."""
        return [e for e in self.events() if e.get("kind") not in SIDE_EFFECT_KINDS_EXCLUDED]

    def world(self, op: str, **fields: Any) -> None:
        """Change the simulated world from outside (focus moves, a window drifts …)."""
        send_control(self.control, op, **fields)

    def audit_lines(self) -> list[dict[str, Any]]:
        self.app.audit_written()  # lines are queued to the background writer (S-AUD-13)
        path = self.app.config.state_dir / "audit.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# What `UpstreamSpec.simulator` starts: this Python, `-m gateway.sim`, then the simulator's options.
SIM_COMMAND = (sys.executable, "-m", "gateway.sim")


def is_sim(argv: tuple[str, ...]) -> bool:
    """Whether `argv` starts the bundled simulator with this Python."""
    return tuple(argv[: len(SIM_COMMAND)]) == SIM_COMMAND


def in_process_sim(argv: tuple[str, ...], environ: Mapping[str, str] | None = None) -> Connector:
    """The simulator `argv` would start as a child, served in this process (a fresh one per connection).

    `environ` plays the child's environment (default: this process's at each connection), which the
    simulator reads as `python -m gateway.sim` would (S-SIM-07).
    """
    if not is_sim(argv):
        raise ValueError(f"not a simulator command: {argv!r}")

    def factory() -> Any:
        env = dict(os.environ if environ is None else environ)
        try:
            args = sim_options(env).parse_args(list(argv[len(SIM_COMMAND) :]))
        except SystemExit as exc:  # the child would exit with a usage error: this connection fails
            raise RuntimeError(f"python -m gateway.sim exited {exc.code} (bad options {argv!r})") from None
        return build_sim_server(
            args.scenario,
            event_log=args.event_log,
            control=args.control,
            mutations=tuple(args.mutate_schema),
            environ=env,
            real_waits=args.real_waits,
        )

    return in_process(factory)


def serve_simulators_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make an upstream that would be `python -m gateway.sim …`, started by this process, run in it instead.

    For the autouse fixtures of tests/gateway and tests/e2e. Starting the simulator as a child
    costs ~0.8 s of CPU per connection, and the doctor, config and tool tests that start one are
    about what the gateway does with the answers, not about the process boundary; the stdio wire
    stays (`gateway.upstream.in_process`). A test that needs the real child is marked
    `real_simulator`. Children the gateway under test does not start itself (the gateway as a
    stdio child, the demo, the Inspector) and other upstream commands are untouched.
    """
    if request.node.get_closest_marker("real_simulator") is not None:
        return
    spawn = supervisor.spec_connector

    def connector(*, argv: tuple[str, ...], url: str | None, environ: Mapping[str, str]) -> Connector:
        if url is None and is_sim(argv):
            return in_process_sim(argv, environ)
        return spawn(argv=argv, url=url, environ=environ)

    monkeypatch.setattr(supervisor, "spec_connector", connector)


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
    """client ⇄ gateway ⇄ simulator, all in this process; `state_dir` may be shared by rigs."""
    tmp.mkdir(parents=True, exist_ok=True)
    spec, event_log, control = sim_spec(tmp, scenario)
    overrides = {"rate_limits": RIG_RATE_LIMITS, **(config or {})}
    cfg = load_config(environ={}, state_dir=state_dir or tmp / "state", overrides=overrides)
    async with (
        open_gateway(cfg, spec, mode=upstream_mode, connector=in_process_sim(spec.argv)) as app,
        Client(build_server(app), mode=client_mode, **client_kwargs) as client,
    ):
        yield Rig(app=app, client=client, tmp=tmp, event_log=event_log, control=control)


@contextlib.asynccontextmanager
async def direct_sim(tmp: Path, *, scenario: str = "default", mode: str = "legacy") -> AsyncIterator[Client]:
    """A client talking to the simulator directly, over the same in-process wire (the reference for
    transparency tests)."""
    spec, event_log, control = sim_spec(tmp, scenario)
    connect = in_process_sim(spec.argv)
    async with Client(connect(sys.stderr), mode=mode) as client:
        yield client


def gateway_stdio_params(tmp: Path, *args: str, scenario: str = "default") -> tuple[StdioServerParameters, Path, Path]:
    """`winmcp-gateway serve --upstream sim` as a real stdio subprocess (the way clients run it)."""
    event_log, control = tmp / "sim-events.jsonl", tmp / "sim-control.jsonl"
    control.touch()
    env = {
        "WINMCP_GATEWAY_STATE_DIR": str(tmp / "state"),
        "WINMCP_SIM_EVENT_LOG": str(event_log),
        "WINMCP_SIM_CONTROL": str(control),
        # The SDK passes the child a minimal environment: the test's isolated home goes along (S-CFG-20).
        "WINMCP_GATEWAY_HOME": os.environ["WINMCP_GATEWAY_HOME"],
    }
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway", "serve", "--upstream", "sim", "--scenario", scenario, *args],
        env=env,
    )
    return params, event_log, control
