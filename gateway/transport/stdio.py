"""The stdio wire with every client line checked first (S-MSG-01..S-MSG-06).

The SDK's `stdio_server` reads whole lines of any size and drops one it cannot parse without a
word, so a malformed request went unanswered. This transport keeps its stream claim (fd 0 and
1 are diverted while serving, so nothing else reads the client's input or writes on the wire)
but reads in chunks through `LineFramer` — never more than `max_message_bytes` of one line in
memory — and judges each line with `check_frame`: a refusal is logged as one stderr line and,
when JSON-RPC calls for an answer, answered on stdout; everything else goes to the server.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import BinaryIO, Protocol

import anyio
import anyio.to_thread
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

# The SDK's own claim of fd 0/1 (its private helpers): reused, not copied, so the two stdio
# transports cannot disagree about who owns the standard streams.
from mcp.server.stdio import _claim_fd, _open_stdin_diversion, _open_stdout_diversion
from mcp.shared.message import SessionMessage

from gateway.transport.framing import LineFramer, MessageLimits, Refusal, check_frame

log = logging.getLogger(__name__)

# Bytes asked for per read: one pipe buffer on both platforms.
CHUNK_BYTES = 64 * 1024

ByteSource = Callable[[], Awaitable[bytes]]
"""The next bytes of client input; b"" at end of input."""
LineSink = Callable[[bytes], Awaitable[None]]
"""Writes one complete line (newline included) to the client."""
ServerStreams = tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
"""What `Server.run` reads from and writes to."""


class _Chunked(Protocol):
    def read1(self, size: int = ..., /) -> bytes: ...


def log_refusal(refusal: Refusal) -> None:
    """The one stderr line a refused client message leaves (S-MSG-07)."""
    log.warning("%s", refusal.log_line())


@contextlib.asynccontextmanager
async def checked_streams(source: ByteSource, sink: LineSink, limits: MessageLimits) -> AsyncIterator[ServerStreams]:
    """The (read, write) stream pair `Server.run` takes, over raw client bytes.

    Args:
        source: where client bytes come from (a pipe in production, memory in tests).
        sink: where answer lines go.
        limits: the message bounds (`max_message_bytes`, nesting depth).

    Yields:
        The server's read stream (checked messages only) and its write stream.
    """
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](0)
    refusals = write_send.clone()  # answers to refused lines share the writer: lines never interleave

    async def reader() -> None:
        framer = LineFramer(limits.max_bytes)
        async with read_send, refusals:
            while True:
                chunk = await source()
                for frame in framer.feed(chunk):
                    checked = check_frame(frame, limits)
                    if isinstance(checked, Refusal):
                        log_refusal(checked)
                        if checked.answer:
                            await refusals.send(SessionMessage(checked.reply()))
                    else:
                        await read_send.send(SessionMessage(checked))
                if not chunk:
                    return

    async def writer() -> None:
        async with write_receive:
            async for message in write_receive:
                text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await sink(text.encode("utf-8", "replace") + b"\n")

    async with anyio.create_task_group() as tg:
        reading = anyio.CancelScope()

        async def read_until_done() -> None:
            with reading, contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                await reader()

        tg.start_soon(read_until_done)
        tg.start_soon(writer)
        try:
            yield read_receive, write_send
        finally:
            # The server is done (end of input, or it stopped): stop reading; the writer drains
            # what the server wrote and ends when both senders are closed.
            reading.cancel()
            write_send.close()
            read_receive.close()


def _thread_source(stream: _Chunked) -> ByteSource:
    async def source() -> bytes:
        # abandon_on_cancel: a read blocked on the client's pipe must not hold up shutdown.
        return await anyio.to_thread.run_sync(stream.read1, CHUNK_BYTES, abandon_on_cancel=True)

    return source


def _thread_sink(stream: BinaryIO) -> LineSink:
    def write(line: bytes) -> None:
        stream.write(line)
        stream.flush()

    async def sink(line: bytes) -> None:
        await anyio.to_thread.run_sync(write, line)

    return sink


def _native_source(fd: int) -> ByteSource:
    """POSIX: read the pipe on the event loop (readiness, then a non-blocking read): no thread hop
    per message, which the SDK's transport and `_thread_source` pay (issue 13 item 5)."""

    async def source() -> bytes:
        while True:
            try:
                return os.read(fd, CHUNK_BYTES)
            except BlockingIOError:
                await anyio.wait_readable(fd)

    return source


def _native_sink(fd: int) -> LineSink:
    async def sink(line: bytes) -> None:
        view = memoryview(line)
        while view:
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                await anyio.wait_writable(fd)

    return sink


def _native_fds(reader: object, writer: object) -> tuple[int, int] | None:
    """The descriptors to serve natively, non-blocking from now on; None where threads must do
    (Windows: anonymous pipes have no readiness there; or streams without a descriptor)."""
    if os.name != "posix":
        return None
    try:
        fds = (reader.fileno(), writer.fileno())  # type: ignore[attr-defined]
        for fd in fds:
            os.set_blocking(fd, False)
    except (AttributeError, OSError, ValueError):
        return None
    return fds


def _restore_blocking(fds: tuple[int, int]) -> None:
    # A terminal shares its descriptor with the shell that started us: leave it as we found it.
    for fd in fds:
        with contextlib.suppress(OSError):
            os.set_blocking(fd, True)


@contextlib.asynccontextmanager
async def checked_stdio(limits: MessageLimits) -> AsyncIterator[ServerStreams]:
    """`checked_streams` over this process's stdin and stdout, claimed as the SDK claims them.

    Args:
        limits: the message bounds.

    Yields:
        The server's read and write streams.
    """
    restore: list[Callable[[], None]] = []
    try:
        stdin, release_in = _claim_fd(0, sys.stdin, "rb", _open_stdin_diversion)
        if release_in is not None:
            restore.append(release_in)
        stdout, release_out = _claim_fd(1, sys.stdout, "wb", _open_stdout_diversion)
        if release_out is not None:
            restore.append(release_out)
        reader: _Chunked = stdin  # type: ignore[assignment]  # a BufferedReader: read1 never waits for a full chunk
        native = _native_fds(stdin, stdout)
        if native is not None:
            restore.append(lambda: _restore_blocking(native))
            stdout.flush()  # nothing buffered may come after what is written straight to the descriptor
            source, sink = _native_source(native[0]), _native_sink(native[1])
        else:
            source, sink = _thread_source(reader), _thread_sink(stdout)
        async with checked_streams(source, sink, limits) as streams:
            yield streams
    finally:
        for release in reversed(restore):
            release()
