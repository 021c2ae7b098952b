"""An upstream served in this process: an MCP `Server` object behind the same wire as a stdio child.

`in_process(factory)` is a `Connector` (`gateway.upstream.connection`): every connection the
supervisor opens gets a fresh server from `factory` (a restart starts a fresh upstream, as a
new child process would) and streams that carry each message the way stdio does — dumped
to one JSON line and parsed back — so the gateway sees byte for byte what it would see from
a child, without starting one. Plain memory streams, not the SDK's context-carrying ones:
no context variable (the current caller) may cross the upstream boundary, which a process
boundary would not let through either (S-PROTO-05).

The SDK's own in-process client (`mcp.Client(server)`) skips the JSON round trip and, at
2026-07-28, the streams themselves; the supervisor also needs to see the stream end
(`watched`), so the gateway brings its own few lines here.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, TextIO

import anyio
import anyio.abc
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel.server import Server
from mcp.shared.message import SessionMessage

from gateway.upstream.connection import Connector

# How long closing waits for the server to finish on end of input (as a child gets on stdin EOF)
# before it is cancelled; the SDK's in-memory transport uses the same grace.
SHUTDOWN_GRACE_S = 2.0

ServerFactory = Callable[[], Server[Any]]
_Inbox = MemoryObjectSendStream[SessionMessage | Exception]


def in_process(factory: ServerFactory) -> Connector:
    """A connector that serves a fresh `factory()` server in this process for each connection.

    Args:
        factory: builds the MCP server one connection talks to.

    Returns:
        A `Connector` for `gateway.upstream.client.Upstream` / `gateway.app.open_gateway`.
    """

    def connect(errlog: TextIO) -> contextlib.AbstractAsyncContextManager[tuple[Any, Any]]:
        return serve_in_process(factory())

    return connect


async def _carry(source: MemoryObjectReceiveStream[SessionMessage], sink: _Inbox) -> None:
    """Move messages one way, each as the JSON line stdio would carry (the same dump, the same parse)."""
    async with source, sink:
        async for message in source:
            line = message.message.model_dump_json(by_alias=True, exclude_unset=True)
            try:
                parsed: SessionMessage | Exception = SessionMessage(
                    types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                )
            except ValueError as exc:  # what a peer's reader hands its session for a bad line
                parsed = exc
            try:
                await sink.send(parsed)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                return  # the reading side is gone: the line falls on the floor, as on a closed pipe


@contextlib.asynccontextmanager
async def serve_in_process(server: Server[Any]) -> AsyncIterator[tuple[Any, Any]]:
    """Run `server` in a task of this process and yield the client's (read, write) streams.

    Leaving the block ends the server's input (its "stdin" closes) and waits up to
    `SHUTDOWN_GRACE_S` for it to finish, then cancels it.
    """
    client_in, client_read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    client_write, client_out = anyio.create_memory_object_stream[SessionMessage](0)
    server_in, server_read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_write, server_out = anyio.create_memory_object_stream[SessionMessage](0)
    done = anyio.Event()

    async def run_server() -> None:
        try:
            async with server_read, server_write:
                await server.run(server_read, server_write, server.create_initialization_options())
        finally:
            done.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(_carry, client_out, server_in)
        tg.start_soon(_carry, server_out, client_in)
        tg.start_soon(run_server)
        try:
            async with client_read, client_write:
                yield client_read, client_write
        finally:
            with anyio.CancelScope(shield=True), anyio.move_on_after(SHUTDOWN_GRACE_S):
                await done.wait()
            tg.cancel_scope.cancel()
