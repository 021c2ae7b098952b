"""The seams of `GatewayApp` and the upstream: the outbound error mapping, the in-process wire, the
injected clock, audit sink and upstream connection, and a clean close after a restart
(S-UPS-05, S-PROTO-05, S-UPS-03, S-UPS-02)."""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TextIO

import anyio
import anyio.abc
import mcp_types as types
import pytest
from mcp import Client
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError

from gateway.app import GatewayApp
from gateway.config.load import load_config
from gateway.errors import UpstreamError, UpstreamTimeout
from gateway.sim.server import build_server as build_sim_server
from gateway.upstream.client import Upstream, UpstreamProtocolError, client_error
from gateway.upstream.in_process import in_process, serve_in_process
from gateway.upstream.supervisor import CLOSE_WAIT_S, UpstreamSpec
from tests._requirements import requirement

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# -- the one outbound mapping (S-UPS-05) --------------------------------------------------------

# (the fault, the JSON-RPC code, message and data the client gets)
CLIENT_ERRORS: list[tuple[UpstreamError, int, str, Any]] = [
    (UpstreamProtocolError(-32002, "Resource not found", {"uri": "x"}), -32002, "Resource not found", {"uri": "x"}),
    (UpstreamProtocolError(-32601, "Method not found"), -32601, "Method not found", None),
    (
        UpstreamError("the upstream connection closed", stderr_tail="Traceback: boom", code="UPSTREAM_DIED"),
        types.INTERNAL_ERROR,
        "UPSTREAM_DIED: the upstream connection closed",
        {"code": "UPSTREAM_DIED", "stderr_tail": "Traceback: boom"},
    ),
    (
        UpstreamTimeout("the upstream did not answer resources/read in time", code="UPSTREAM_TIMEOUT"),
        types.INTERNAL_ERROR,
        "UPSTREAM_TIMEOUT: the upstream did not answer resources/read in time",
        {"code": "UPSTREAM_TIMEOUT"},
    ),
]  # fmt: skip


@requirement("S-UPS-05")
@pytest.mark.parametrize(("fault", "code", "message", "data"), CLIENT_ERRORS)
def test_an_upstream_fault_becomes_one_defined_client_error(
    fault: UpstreamError, code: int, message: str, data: Any
) -> None:
    """S-UPS-05: the upstream's own error keeps code, message and data; any other fault is INTERNAL_ERROR
    naming the gateway's code, with the stderr tail when there is one."""
    error = client_error(fault)
    assert isinstance(error, MCPError)
    assert (error.error.code, error.error.message, error.error.data) == (code, message, data)


# -- the in-process wire (S-PROTO-05) -----------------------------------------------------------

SEEN: ContextVar[str] = ContextVar("seen", default="not set")


def _echo_server() -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="echo", input_schema={"type": "object"})])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        text = f"{SEEN.get()} {(params.arguments or {}).get('n')!r}"
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    return Server("echo", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


@requirement("S-PROTO-05")
async def test_the_in_process_wire_carries_json_and_no_context_of_the_caller() -> None:
    """S-PROTO-05: like a process boundary, the in-process upstream sees the message's JSON and none of the
    caller's context variables (routing must not depend on a value that cannot cross a pipe)."""
    with anyio.fail_after(10):
        async with serve_in_process(_echo_server()) as (read, write), Client(_Transport(read, write)) as client:
            token = SEEN.set("the caller's")
            try:
                result = await client.call_tool("echo", {"n": 1.0})
            finally:
                SEEN.reset(token)
    # 1.0 went over the wire as JSON and came back as the number it parses to; the variable stayed home.
    assert [c.text for c in result.content if isinstance(c, types.TextContent)] == ["not set 1.0"]


class _Transport:
    """Hand already-open streams to a `Client` (it enters and leaves its transport)."""

    def __init__(self, read: Any, write: Any) -> None:
        self._streams = (read, write)

    async def __aenter__(self) -> tuple[Any, Any]:
        return self._streams

    async def __aexit__(self, *exc: object) -> None:
        return None


@requirement("S-PROTO-05")
async def test_each_connection_gets_a_fresh_server() -> None:
    """S-PROTO-05: `in_process` builds one server per connection, as a restart starts a new child."""
    built: list[Server[Any]] = []

    def factory() -> Server[Any]:
        built.append(_echo_server())
        return built[-1]

    connect = in_process(factory)
    for _ in range(2):
        with anyio.fail_after(10):
            async with Client(connect(io.StringIO())) as client:
                assert [t.name for t in (await client.list_tools()).tools] == ["echo"]
    assert len(built) == 2 and built[0] is not built[1]


# -- the app's seams (S-UPS-03) -----------------------------------------------------------------


class _FakeUpstream:
    """The least an `UpstreamConnection` is, for the app alone."""

    def __init__(self) -> None:
        self.spec = UpstreamSpec(argv=("fake-upstream",))
        self.hooks = None
        self.on_lost: list[Callable[[], None]] = []
        self.restarts = 0
        self.last_error: str | None = None
        self.tools: list[dict[str, Any]] = [{"name": "Snapshot", "inputSchema": {"type": "object"}}]

    async def list_tools(self) -> list[dict[str, Any]]:
        return [dict(t) for t in self.tools]

    def lose(self) -> None:
        self.restarts += 1
        for listener in self.on_lost:
            listener()


class _ListSink:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def append(self, event: str, **fields: Any) -> None:
        self.events.append((event, fields))

    def stats(self) -> dict[str, Any]:
        return {"written": len(self.events)}


@requirement("S-UPS-03")
async def test_the_app_reads_its_injected_clock_sink_and_upstream(tmp_path: Path) -> None:
    """S-UPS-03: time comes from the given clock, events go to the given sink, and a loss the upstream
    reports makes every observation stale at once and drops the cached tool list."""
    config = load_config(environ={}, state_dir=tmp_path / "state")
    upstream, sink = _FakeUpstream(), _ListSink()
    app = GatewayApp(config, upstream, clock=lambda: 1_700_000_000.5, audit=sink)  # type: ignore[arg-type]
    assert app.now_ms() == 1_700_000_000_500.0
    await app.audit_event("kill", reason="test")
    assert sink.events == [("kill", {"reason": "test"})]
    assert [t["name"] for t in await app.upstream_tools()] == ["Snapshot"]
    upstream.tools = [{"name": "Click", "inputSchema": {"type": "object"}}]
    assert [t["name"] for t in await app.upstream_tools()] == ["Snapshot"]  # cached per connection
    epoch = app.store.epoch
    upstream.lose()
    assert app.store.epoch == epoch + 1
    assert [t["name"] for t in await app.upstream_tools()] == ["Click"]
    assert not (tmp_path / "state" / "audit.jsonl").exists()  # nothing went around the sink


# -- closing after a restart (S-UPS-02) ---------------------------------------------------------


@contextlib.asynccontextmanager
async def _crashable(
    server: Server[Any], crashes: list[anyio.CancelScope], *, start_s: float = 0.0
) -> AsyncIterator[tuple[Any, Any]]:
    """An in-process server whose "process" a test can end (cancelling it closes its output), and
    which takes `start_s` to start."""
    await anyio.sleep(start_s)
    to_client, client_read = anyio.create_memory_object_stream[Any](0)
    client_write, from_client = anyio.create_memory_object_stream[Any](0)

    async def run() -> None:
        with anyio.CancelScope() as scope:
            crashes.append(scope)
            async with from_client, to_client:
                await server.run(from_client, to_client, server.create_initialization_options())

    async with anyio.create_task_group() as tg:
        tg.start_soon(run)
        async with client_read, client_write:
            yield client_read, client_write


@requirement("S-UPS-02")
async def test_closing_right_after_a_restart_does_not_wait_out_the_close_timeout(tmp_path: Path) -> None:
    """S-UPS-02: a gateway closed while the restart is still connecting closes that connection too,
    instead of waiting out the close timeout for it."""
    crashes: list[anyio.CancelScope] = []
    restarting = anyio.Event()

    def connect(errlog: TextIO) -> contextlib.AbstractAsyncContextManager[tuple[Any, Any]]:
        # The restart takes a moment to come up, as a process would: the close lands in that moment.
        if crashes:
            restarting.set()
        return _crashable(build_sim_server(environ={}), crashes, start_s=0.3 if crashes else 0.0)

    with anyio.fail_after(30):
        upstream = Upstream(UpstreamSpec.simulator(), stderr_path=tmp_path / "stderr.log", connector=connect)
        async with upstream:
            assert [t["name"] for t in await upstream.list_tools()]
            crashes[0].cancel()
            await restarting.wait()
            started = time.monotonic()
        closed_in = time.monotonic() - started
    assert upstream.restarts == 1
    assert closed_in < CLOSE_WAIT_S / 2, f"closing took {closed_in:.1f} s"
