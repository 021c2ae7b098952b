"""Rigs for the protocol, HTTP and upstream-lifecycle tests: one protocol upstream, reached
directly or through the gateway (in process, as a `winmcp-gateway serve` child over stdio,
or over streamable HTTP), by a real `mcp` client in either era.

`ClientProbe` is the client's side of every server→client exchange: it answers sampling,
elicitation and roots with fixed values and records what it was asked and told.
"""

from __future__ import annotations

import contextlib
import shlex
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from gateway.app import GatewayApp, open_gateway
from gateway.config.load import load_config
from gateway.transport.http import bind_socket, serve_http
from gateway.transport.http_guard import HttpSettings
from gateway.transport.server import build_server
from gateway.upstream.client import as_wire
from gateway.upstream.supervisor import UpstreamSpec

PROTO_UPSTREAM = Path(__file__).with_name("protocol_upstream.py")
TOKEN = "test-token-0123456789abcdefghijkl"
WAIT_S = 10.0
# What ClientProbe answers (tests compare results against these, not against a recorded run).
SAMPLED_MODEL, SAMPLED_TEXT = "m1", "sampled!"
ELICITED = {"answer": "yes"}
ROOT_URI = "file:///work/r1"


def proto_spec(*extra: str) -> UpstreamSpec:
    """The protocol upstream as a stdio child of the gateway."""
    return UpstreamSpec(argv=(sys.executable, str(PROTO_UPSTREAM), *extra))


class ClientProbe:
    """Client callbacks that answer with fixed values and record every exchange."""

    def __init__(self, *, sampling: bool = True, elicitation: bool = True, roots: bool = True) -> None:
        self.asked: list[tuple[str, dict[str, Any]]] = []
        self.logs: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self._changed = anyio.Event()
        self._sampling, self._elicitation, self._roots = sampling, elicitation, roots

    def _signal(self) -> None:
        changed, self._changed = self._changed, anyio.Event()
        changed.set()

    async def _sample(self, ctx: Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        self.asked.append(("sampling/createMessage", params.model_dump(by_alias=True, exclude_none=True)))
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=SAMPLED_TEXT), model=SAMPLED_MODEL
        )

    async def _elicit(self, ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(("elicitation/create", params.model_dump(by_alias=True, exclude_none=True)))
        return types.ElicitResult(action="accept", content=dict(ELICITED))

    async def _list_roots(self, ctx: Any) -> types.ListRootsResult:
        self.asked.append(("roots/list", {}))
        return types.ListRootsResult(roots=[types.Root(uri=ROOT_URI, name="r1")])

    async def _log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params.model_dump(by_alias=True, exclude_none=True))

    async def _message(self, message: Any) -> None:
        if isinstance(message, Exception):
            return
        self.notes.append(message.method)
        self._signal()

    def kwargs(self, log_level: str | None = "debug") -> dict[str, Any]:
        """Client(...) keyword arguments wiring this probe in (`log_level`: the 2026-07-28 log opt-in)."""
        out: dict[str, Any] = {
            "logging_callback": self._log,
            "message_handler": self._message,
            "log_level": log_level,
        }
        if self._sampling:
            out["sampling_callback"] = self._sample
        if self._elicitation:
            out["elicitation_callback"] = self._elicit
        if self._roots:
            out["list_roots_callback"] = self._list_roots
        return out

    async def wait_log(self, data: str) -> None:
        """Wait (bounded) until a log entry with `data` has arrived."""
        with anyio.fail_after(WAIT_S):
            while data not in [entry.get("data") for entry in self.logs]:
                await self._changed.wait()

    async def wait_note(self, method: str, count: int = 1) -> None:
        """Wait (bounded) until `method` has arrived `count` times."""
        with anyio.fail_after(WAIT_S):
            while self.notes.count(method) < count:
                await self._changed.wait()


def gateway_config(tmp: Path, **overrides: Any) -> Any:
    """A config for the protocol upstream: its tools are unknown to the catalog, so allowed explicitly."""
    return load_config(environ={}, state_dir=tmp / "state", overrides={"unknown_tools": "allow", **overrides})


@contextlib.asynccontextmanager
async def proto_gateway(
    tmp: Path, *, upstream_mode: str = "legacy", spec: UpstreamSpec | None = None, **config: Any
) -> AsyncIterator[GatewayApp]:
    """A gateway (in this process) in front of a protocol upstream child."""
    async with open_gateway(gateway_config(tmp, **config), spec or proto_spec(), mode=upstream_mode) as app:
        yield app


@contextlib.asynccontextmanager
async def in_process(app: GatewayApp, mode: str, probe: ClientProbe | None = None, **kw: Any) -> AsyncIterator[Client]:
    """A client of `app`'s server, in process (`kw` overrides the probe's Client arguments)."""
    async with Client(build_server(app), mode=mode, **{**(probe.kwargs() if probe else {}), **kw}) as client:
        yield client


@contextlib.asynccontextmanager
async def direct(mode: str, probe: ClientProbe | None = None) -> AsyncIterator[Client]:
    """A client of the protocol upstream itself (the reference)."""
    params = StdioServerParameters(command=sys.executable, args=[str(PROTO_UPSTREAM)])
    async with Client(params, mode=mode, **(probe.kwargs() if probe else {})) as client:
        yield client


@contextlib.asynccontextmanager
async def stdio_gateway(tmp: Path, mode: str, probe: ClientProbe | None = None) -> AsyncIterator[Client]:
    """`winmcp-gateway serve --upstream-cmd <protocol upstream>` as a real child process over stdio."""
    tmp.mkdir(parents=True, exist_ok=True)
    config = tmp / "gateway.toml"
    config.write_text('unknown_tools = "allow"\n', encoding="utf-8")
    upstream = shlex.join([sys.executable, str(PROTO_UPSTREAM)])
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "gateway",
            "serve",
            "--upstream-cmd",
            upstream,
            "--config",
            str(config),
            "--state-dir",
            str(tmp / "state"),
        ],
    )
    async with Client(params, mode=mode, **(probe.kwargs() if probe else {})) as client:
        yield client


@contextlib.asynccontextmanager
async def http_server(app: GatewayApp, *, token: str | None = TOKEN, **extra: Any) -> AsyncIterator[HttpSettings]:
    """`app` served on streamable HTTP on a free loopback port (stopped on exit)."""
    sock = bind_socket("127.0.0.1", 0)
    settings = HttpSettings(host="127.0.0.1", port=sock.getsockname()[1], token=token, **extra)
    started = anyio.Event()
    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: serve_http(app, settings, sock, started=started.set))
        with anyio.fail_after(WAIT_S):
            await started.wait()
        try:
            yield settings
        finally:
            tg.cancel_scope.cancel()


@contextlib.asynccontextmanager
async def http_client(
    settings: HttpSettings,
    mode: str,
    probe: ClientProbe | None = None,
    *,
    token: str | None = TOKEN,
    headers: Mapping[str, str] | None = None,
    **kw: Any,
) -> AsyncIterator[Client]:
    """A client of the HTTP gateway presenting `token`."""
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    http = create_mcp_http_client(headers=sent)
    async with http:
        transport = streamable_http_client(settings.url("/mcp"), http_client=http)
        async with Client(transport, mode=mode, **(probe.kwargs() if probe else {}), **kw) as client:
            yield client


def wire(result: Any) -> dict[str, Any]:
    """A result as the client received it, without the answering server's identity stamp."""
    return as_wire(result)


__all__ = [
    "ELICITED",
    "PROTO_UPSTREAM",
    "ROOT_URI",
    "SAMPLED_MODEL",
    "SAMPLED_TEXT",
    "TOKEN",
    "WAIT_S",
    "ClientProbe",
    "direct",
    "gateway_config",
    "http_client",
    "http_server",
    "in_process",
    "proto_gateway",
    "proto_spec",
    "stdio_gateway",
    "wire",
]
