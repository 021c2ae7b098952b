"""The stdio transport to an upstream child, with a bounded, linear-time stdout reader (S-UPS-10).

It is the SDK's `mcp.client.stdio.stdio_client` with one part replaced: the SDK decodes
stdout to text and splits `buffer + chunk` again for every chunk, which is quadratic in a
line's length and holds several copies of a long line (a 50 MB answer took ≈40 s and ≈6× its
size). This reader splits bytes once (`gateway.upstream.limits.LineSplitter`), parses each
line straight from its bytes and lets them go, and answers a line over `max_result_bytes` with
a RESULT_TOO_LARGE error for its request instead of holding it. Every byte read is counted in
`activity` (a liveness check must not mistake a long answer for silence, S-UPS-07).

The yielded streams carry the connection's `Lane` (`gateway.upstream.lane`, S-PERF-05): its
requests share the session's write channel as pre-serialised lines, and the reader hands it
its answers before they would be parsed for the session.

Spawning and stopping stay the SDK's (its process-tree and Windows Job Object handling): the
helpers are imported from `mcp.client.stdio`, which `mcp>=2.3,<3` pins.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TextIO

import anyio
import anyio.lowlevel
import mcp_types as types
from mcp import StdioServerParameters
from mcp.client.stdio import (
    _aclose_all,
    _create_platform_compatible_process,
    _drain_stdout,
    _get_executable_command,
    _stop_server_process,
    get_default_environment,
)
from mcp.shared.message import SessionMessage

from gateway.upstream.lane import Lane
from gateway.upstream.limits import LineSplitter, Oversize, WireActivity, too_large_error

log = logging.getLogger(__name__)

# Bytes asked of the pipe per read: large enough that a 50 MB line is a few hundred reads.
READ_CHUNK = 256 * 1024
# Time for the writer to flush accepted messages before stdin closes (the SDK's value).
_WRITER_FLUSH_TIMEOUT = 0.5


class StdioStreams(tuple[Any, Any]):
    """The (read, write) pair a transport yields, with the connection's lane beside it."""

    lane: Lane

    def __new__(cls, read: Any, write: Any, lane: Lane) -> StdioStreams:
        streams = super().__new__(cls, (read, write))
        streams.lane = lane
        return streams


def parse_line(line: bytes | Oversize, limit: int) -> SessionMessage | Exception | None:
    """One stdout line as the session's message: parsed, the oversize stand-in, or None (skip it).

    A line that does not parse is handed over as the exception, as the SDK's reader does.
    """
    if isinstance(line, Oversize):
        request_id = line.request_id()
        if request_id is None:
            log.warning("dropped a %d-byte message from the upstream (over max_result_bytes, no answer id)", line.size)
            return None
        log.warning("the upstream's answer to request %r is %d bytes, over max_result_bytes", request_id, line.size)
        return SessionMessage(too_large_error(request_id, line.size, limit))
    if not line.strip():
        return None
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        log.warning("the upstream wrote a line that is not a JSON-RPC message: %s", exc)
        return exc


@asynccontextmanager
async def bounded_stdio_client(
    server: StdioServerParameters,
    errlog: TextIO,
    *,
    max_result_bytes: int,
    activity: WireActivity | None = None,
) -> AsyncIterator[StdioStreams]:
    """Spawn the upstream child and yield its (read, write) streams, carrying its `Lane`.

    Args:
        server: the command, arguments and environment (merged over the SDK's safe default).
        errlog: where the child's stderr goes.
        max_result_bytes: the longest stdout line held; a longer answer becomes RESULT_TOO_LARGE.
        activity: counts every byte read from stdout.

    Yields:
        The session's read stream (messages or parse exceptions) and write stream (messages,
        or the lane's pre-serialised lines), as a `StdioStreams` pair.

    Raises:
        OSError: the child could not be started.
    """
    command = await _get_executable_command(server.command)
    process = await _create_platform_compatible_process(
        command=command,
        args=server.args,
        env=get_default_environment() | (server.env or {}),
        errlog=errlog,
        cwd=server.cwd,
    )
    # No awaits until the task group is entered, or a cancellation would leak the child (SDK note).
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage | bytes](0)
    lane = Lane(write_stream, encoding=server.encoding, errors=server.encoding_error_handler)
    shutting_down = False
    writer_done = anyio.Event()
    seen = activity or WireActivity()

    async def stdout_reader() -> None:
        assert process.stdout, "the child is spawned with pipes"
        splitter = LineSplitter(limit=max_result_bytes)
        try:
            async with read_writer:
                try:
                    while True:
                        try:
                            chunk = await process.stdout.receive(READ_CHUNK)
                        except anyio.EndOfStream:
                            return
                        seen.touch(len(chunk))
                        for line in splitter.feed(chunk):
                            # A lane answer never reaches the session (its caller is woken instead).
                            taken = lane.pending and lane.take(line, max_result_bytes)
                            message = None if taken else parse_line(line, max_result_bytes)
                            del line  # the line's bytes go before the message travels on (S-UPS-12)
                            if message is None:
                                continue
                            try:
                                await read_writer.send(message)
                            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                                return
                finally:
                    lane.close()  # before the drain: pending lane calls fail at once (S-UPS-02)
                    await _drain_stdout(process)
        except anyio.ClosedResourceError:
            pass  # our own shutdown closed stdout under the read
        except (anyio.BrokenResourceError, ConnectionError):
            if not shutting_down:
                log.exception("reading the upstream's stdout failed mid-session")

    async def stdin_writer() -> None:
        assert process.stdin, "the child is spawned with pipes"
        try:
            async with write_reader:
                async for item in write_reader:
                    await process.stdin.send(item if isinstance(item, bytes) else _encoded(item, server))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            # The child may still live: end the read side so no request waits for ever.
            lane.close()
            await read_writer.aclose()
        finally:
            writer_done.set()

    async def shutdown() -> None:
        lane.close()
        read_stream.close()
        write_stream.close()
        with anyio.move_on_after(_WRITER_FLUSH_TIMEOUT):
            await writer_done.wait()
        await _stop_server_process(process)
        await _aclose_all(read_stream, write_stream, read_writer, write_reader)
        await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stdout_reader)
        tg.start_soon(stdin_writer)
        try:
            yield StdioStreams(read_stream, write_stream, lane)
        finally:
            shutting_down = True
            # Bounded inside, and it must run even when the caller is cancelled (no leaked child).
            with anyio.CancelScope(shield=True):
                await shutdown()
            tg.cancel_scope.cancel()
    await anyio.lowlevel.cancel_shielded_checkpoint()


def _encoded(session_message: SessionMessage, server: StdioServerParameters) -> bytes:
    data = session_message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
    return data.encode(server.encoding, server.encoding_error_handler)
