"""How big one upstream answer may be, and how the wire tells the call it was too big (S-UPS-10).

A message line from the upstream longer than `max_result_bytes` is never held whole: the
stdio reader (`gateway.upstream.stdio_bounded`) keeps its first and last few bytes, counts
the rest, and hands the session a JSON-RPC error in its place, addressed to the request the
line answered. `map_upstream_errors` turns that error into RESULT_TOO_LARGE; the connection
stays up, so the next call works. Transports that give the gateway parsed messages only
(streamable HTTP, a server in this process) are checked after parsing (`oversized`), which
bounds what the call gets but not what was read.

`WireActivity` counts what arrives, so a liveness check can tell an upstream that is busy
sending a long answer from one that says nothing at all (S-UPS-07).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

# A generous default: Windows-MCP's largest answers are screenshots of a few MB as base64
# (a 4K PNG is ~10 MB); 64 MiB leaves room for those and stops a runaway answer (issue 12 item 7).
DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024
# The JSON-RPC code of the stand-in error. -32000..-32019 is implementation-defined; the SDK
# uses -32000/-32001, so the gateway takes the last one. `data.gateway_code` disambiguates it
# from an upstream that happens to answer with the same number.
RESULT_TOO_LARGE_RPC = -32019
RESULT_TOO_LARGE = "RESULT_TOO_LARGE"
# How much of an oversized line is kept to find its id (JSON-RPC writers put it first or last).
HEAD_BYTES = 4096
TAIL_BYTES = 512

_ID_TOKEN = rb'(-?\d+|"(?:[^"\\]|\\.)*")'
_ID_FIRST = re.compile(rb'"id"\s*:\s*' + _ID_TOKEN)
_ID_LAST = re.compile(rb'"id"\s*:\s*' + _ID_TOKEN + rb"\s*\}\s*$")
_BODY = re.compile(rb'"(?:result|error|params)"\s*:')
_METHOD = re.compile(rb'"method"\s*:')


@dataclass(slots=True)
class WireActivity:
    """Bytes and messages received from the upstream so far (all connections of one supervisor)."""

    received: int = 0

    def touch(self, n: int = 1) -> None:
        self.received += n


@dataclass(slots=True)
class Oversize:
    """An upstream line over the limit: its size and the few bytes kept to find its id."""

    size: int
    head: bytes
    tail: bytes = b""

    def add(self, piece: memoryview) -> None:
        self.size += len(piece)
        self.tail = (self.tail + bytes(piece[-TAIL_BYTES:]))[-TAIL_BYTES:]

    def request_id(self) -> int | str | None:
        """The id of the response this line was, or None (a request, a notification, no id found)."""
        body = _BODY.search(self.head)
        envelope = self.head[: body.start()] if body else self.head
        if _METHOD.search(envelope):
            return None  # a request or notification from the upstream, not an answer
        found = _ID_FIRST.search(envelope) if body else None
        found = found or _ID_LAST.search(self.tail)
        if found is None:
            return None
        value = json.loads(found.group(1))
        return value if isinstance(value, int | str) else None


@dataclass(slots=True)
class LineSplitter:
    """Newline-delimited messages out of byte chunks, in linear time and never over `limit` held.

    `feed` yields each complete line (`bytes`, handed over and forgotten) or, for a line longer
    than `limit`, an `Oversize` once the line has ended. A line is kept as its chunks and
    joined once at its end, so it exists twice only for that join (no growing buffer's slack).
    """

    limit: int
    _parts: list[bytes] = field(default_factory=list)
    _size: int = 0
    _over: Oversize | None = None

    def feed(self, chunk: bytes) -> Iterator[bytes | Oversize]:
        view = memoryview(chunk)
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            self._take(chunk, view, start, len(chunk) if nl < 0 else nl)
            if nl < 0:
                return
            start = nl + 1
            yield self._finish()

    def _take(self, chunk: bytes, view: memoryview, start: int, end: int) -> None:
        if start >= end:
            return
        piece = view[start:end]
        if self._over is not None:
            self._over.add(piece)
        elif self._size + len(piece) > self.limit:
            head = _head([*self._parts, bytes(piece[:HEAD_BYTES])], HEAD_BYTES)
            self._over = Oversize(size=self._size, head=head, tail=_tail(self._parts, TAIL_BYTES))
            self._parts, self._size = [], 0  # the only copy of the line so far: let it go at once
            self._over.add(piece)
        else:
            self._parts.append(chunk if (start, end) == (0, len(chunk)) else bytes(piece))
            self._size += len(piece)

    def _finish(self) -> bytes | Oversize:
        if self._over is not None:
            over, self._over = self._over, None
            return over
        parts, self._parts, self._size = self._parts, [], 0
        line = parts[0] if len(parts) == 1 else b"".join(parts)
        parts.clear()
        return line


def _head(parts: list[bytes], n: int) -> bytes:
    out = bytearray()
    for part in parts:
        out += part[: n - len(out)]
        if len(out) >= n:
            break
    return bytes(out)


def _tail(parts: list[bytes], n: int) -> bytes:
    out = b""
    for part in reversed(parts):
        out = part[-(n - len(out)) :] + out
        if len(out) >= n:
            break
    return out


def too_large_error(request_id: int | str, size: int, limit: int) -> types.JSONRPCError:
    """The JSON-RPC error the session gets instead of an answer of `size` bytes over `limit`."""
    return types.JSONRPCError(
        jsonrpc="2.0",
        id=request_id,
        error=types.ErrorData(
            code=RESULT_TOO_LARGE_RPC,
            message=f"the upstream's answer is {size} bytes, over max_result_bytes ({limit})",
            data={"gateway_code": RESULT_TOO_LARGE, "bytes": size, "limit": limit},
        ),
    )


def is_too_large(exc: MCPError) -> bool:
    """Whether `exc` is the gateway's own stand-in for an oversized answer (not an upstream error)."""
    data = exc.data
    return exc.code == RESULT_TOO_LARGE_RPC and isinstance(data, dict) and data.get("gateway_code") == RESULT_TOO_LARGE


def approx_size(value: Any, budget: int) -> int:
    """A lower bound of `value`'s JSON size: its strings' lengths, counted up to just past `budget`.

    Cheap (no copy): the check for transports that hand over parsed messages.
    """
    total, stack = 0, [value]
    while stack and total <= budget:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            total += sum(len(k) for k in item if isinstance(k, str))
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return total


def oversized(message: Any, limit: int) -> types.JSONRPCError | None:
    """For a parsed response over `limit`, the error that replaces it; else None."""
    inner = getattr(message, "message", None)
    if not isinstance(inner, types.JSONRPCResponse):
        return None
    size = approx_size(inner.result, limit)
    return too_large_error(inner.id, size, limit) if size > limit else None
