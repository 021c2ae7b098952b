"""Rigs for the upstream-fault tests: the misbehaving upstream (`faulty_upstream.py`) as a real child
of a gateway in this process, or of `winmcp-gateway serve` run as a stdio child itself.

Small config values keep every fault quick: a 1 s call timeout (the key's minimum), a 300 ms
liveness ping, a 100 kB answer bound.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from gateway.app import GatewayApp, open_gateway
from gateway.config.load import load_config
from gateway.transport.server import build_server
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import SAMPLES
from tests.e2e.harness import wire

FAULTY_UPSTREAM = Path(__file__).with_name("faulty_upstream.py")
SNAPSHOT_SAMPLE = SAMPLES / "01_snapshot_full_desktop_scale1.result.json"
TIMEOUT_S, PING_MS, MAX_RESULT = 1, 300, 100_000
FAULT_CONFIG: dict[str, Any] = {
    "unknown_tools": "allow",  # the fixture's tools are not in the catalog
    "upstream_timeout_s": TIMEOUT_S,
    "upstream_ping_timeout_ms": PING_MS,
    "max_result_bytes": MAX_RESULT,
}


def fault_spec(*extra: str) -> UpstreamSpec:
    """The faulty upstream as a stdio child (with a recorded Snapshot, so observations exist)."""
    return UpstreamSpec(argv=(sys.executable, str(FAULTY_UPSTREAM), "--snapshot", str(SNAPSHOT_SAMPLE), *extra))


@contextlib.asynccontextmanager
async def fault_gateway(tmp: Path, **config: Any) -> AsyncIterator[tuple[GatewayApp, Client]]:
    """A gateway in this process in front of the faulty upstream child, and a client of it."""
    cfg = load_config(environ={}, state_dir=tmp / "state", overrides={**FAULT_CONFIG, **config})
    async with open_gateway(cfg, fault_spec()) as app, Client(build_server(app), mode="legacy") as client:
        yield app, client


@contextlib.asynccontextmanager
async def served_gateway(tmp: Path) -> AsyncIterator[Client]:
    """`winmcp-gateway serve --upstream-cmd <faulty upstream>` as a real stdio child, and its client."""
    tmp.mkdir(parents=True, exist_ok=True)
    config = tmp / "gateway.toml"
    config.write_text("".join(f"{k} = {_toml(v)}\n" for k, v in FAULT_CONFIG.items()), encoding="utf-8")
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "gateway",
            "serve",
            "--upstream-cmd",
            shlex.join(fault_spec().argv),
            "--config",
            str(config),
            "--state-dir",
            str(tmp / "state"),
        ],
        env={k: v for k, v in os.environ.items() if not k.startswith("WINMCP_GATEWAY_")},
    )
    async with Client(params, mode="legacy") as client:
        yield client


def _toml(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


async def call(client: Client, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """One tool call through the gateway, as the client received it."""
    return wire(await client.call_tool(name, args or {}))


async def upstream_pid(client: Client) -> int:
    """The pid of the upstream child answering right now."""
    stats = (await client.call_tool("stats", {})).structured_content or {}
    return int(stats["pid"])


async def wait_gone(pid: int, within_s: float = 10.0) -> None:
    """Wait (bounded) until process `pid` no longer exists."""
    with anyio.fail_after(within_s):
        while _exists(pid):
            await anyio.sleep(0.05)


def _exists(pid: int) -> bool:
    if sys.platform == "win32":
        return False  # os.kill(pid, 0) would terminate it there; the restart is checked by its new pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (exited, not yet reaped by its parent) counts as gone: it runs nothing.
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(") ", 1)[1][:1] != "Z"
    except OSError:
        return True


async def wait_frozen(state: Path, within_s: float = 10.0) -> None:
    """Wait (bounded) until the upstream said, in its stderr log, that it froze (its loop is blocked then)."""
    from tests.e2e.faulty_upstream import FREEZE_MESSAGE

    log = state / "upstream.stderr.log"
    with anyio.fail_after(within_s):
        while not (log.exists() and FREEZE_MESSAGE in log.read_text(encoding="utf-8", errors="replace")):
            await anyio.sleep(0.02)
