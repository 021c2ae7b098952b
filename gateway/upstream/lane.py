"""A lean lane for `tools/call` on the stdio upstream (issue 13, S-PERF-05).

The SDK's request path builds a request model, dumps it to JSON, validates every answer line as
a JSON-RPC union and the result again as a model, which the gateway then dumps back to a dict:
a fifth of the gateway's busy time on a small call. The lane sends the same request as one
pre-serialised line through the SDK session's own write channel (so lines never interleave),
takes its answer off the stdout reader before any pydantic parsing, and validates the result
once, keeping the upstream's dict.

It keeps every guarantee of the SDK path: a cancelled call is forgotten and
`notifications/cancelled` goes upstream (S-UPS-01); the connection's end fails every pending
call with CONNECTION_CLOSED (S-UPS-02); an oversize answer is RESULT_TOO_LARGE (S-UPS-10); an
error answer keeps its code (S-UPS-05); a malformed result raises pydantic's ValidationError
and structured content is checked against the tool's outputSchema by the SDK session itself.
Request ids are strings `gw-N`, a namespace the SDK (integer ids) never uses; any line that
is not an answer to a pending lane request goes on to the SDK's parsing untouched.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import anyio.lowlevel
import mcp_types as types
from anyio.streams.memory import MemoryObjectSendStream
from mcp.client.session import _later_revision_fields
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from gateway.upstream.limits import Oversize, too_large_error

log = logging.getLogger(__name__)

ID_PREFIX = "gw-"
# The cheap pre-check: a lane answer's line holds its id as a JSON string.
_MARK = b'"' + ID_PREFIX.encode()
# How long a courtesy cancel may wait for the write channel (the SDK's `_ABANDON_WRITE_TIMEOUT`).
CANCEL_WRITE_TIMEOUT_S = 5.0

_CLOSED = types.ErrorData(code=types.CONNECTION_CLOSED, message="Connection closed")
_CALL_TOOL_RESULT: TypeAdapter[types.CallToolResult] = TypeAdapter(types.CallToolResult)
_ANY_JSON: TypeAdapter[Any] = TypeAdapter(Any)
# The keys a `CallToolResult` dump can hold: others are dropped, as the model ignores them.
_RESULT_KEYS = frozenset(f.alias or n for n, f in types.CallToolResult.model_fields.items())
_SERVER_INFO = "io.modelcontextprotocol/serverInfo"


class _Slot:
    __slots__ = ("done", "outcome")

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.outcome: dict[str, Any] | types.ErrorData | None = None

    def settle(self, outcome: dict[str, Any] | types.ErrorData) -> None:
        if self.outcome is None:
            self.outcome = outcome
            self.done.set()


class Lane:
    """Requests of one stdio connection that bypass the SDK session (see the module docstring).

    The stdout reader offers it every line while a request is pending (`take`) and closes it
    when the connection ends (`close`).
    """

    def __init__(self, write: MemoryObjectSendStream[Any], *, encoding: str = "utf-8", errors: str = "strict") -> None:
        self._write = write
        self._encoding, self._errors = encoding, errors
        self._pending: dict[str, _Slot] = {}
        self._next = 0
        self._closed = False
        self.sent = 0  # requests written, for tests and diagnostics

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    async def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request and wait for its result.

        Raises:
            MCPError: the upstream's error answer (its code kept), RESULT_TOO_LARGE's stand-in,
                or CONNECTION_CLOSED when the connection ended first.
        """
        if self._closed:
            raise MCPError(code=types.CONNECTION_CLOSED, message="Connection closed")
        self._next += 1
        request_id = f"{ID_PREFIX}{self._next}"
        slot = self._pending[request_id] = _Slot()
        started = False
        try:
            # A cancellation before the write means the request never existed (the SDK's rule).
            await anyio.lowlevel.checkpoint_if_cancelled()
            started = True
            await self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
            self.sent += 1
            await slot.done.wait()
            # What the upstream said before this answer went to the session and is dispatched in
            # tasks started after this one woke: let them run first, so a mid-call log line still
            # finds this call in flight (S-PROTO-05), as on the SDK path.
            await anyio.lowlevel.cancel_shielded_checkpoint()
        except anyio.get_cancelled_exc_class():
            # S-UPS-01: a started write may have reached the upstream; tell it to stop.
            if started and slot.outcome is None:
                await self._cancel(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)
        outcome = slot.outcome
        if isinstance(outcome, types.ErrorData):
            raise MCPError(code=outcome.code, message=outcome.message, data=outcome.data)
        assert outcome is not None, "a slot is only done once settled"
        return outcome

    async def _send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"
        try:
            await self._write.send(line.encode(self._encoding, self._errors))
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            raise MCPError(code=types.CONNECTION_CLOSED, message="Connection closed") from None

    async def _cancel(self, request_id: str) -> None:
        note = {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": request_id, "reason": "caller cancelled"},
        }
        with anyio.move_on_after(CANCEL_WRITE_TIMEOUT_S, shield=True) as scope:
            try:
                await self._send(note)
            except MCPError:
                return  # the connection is gone: nothing to cancel
        if scope.cancelled_caught:
            log.warning("courtesy cancel for request %r gave up: transport write blocked", request_id)

    def take(self, line: bytes | Oversize, limit: int) -> bool:
        """Settle the pending request `line` answers; False when it is not a lane answer.

        Args:
            line: one stdout line, or the stand-in for one over `limit`.
            limit: `max_result_bytes`, for the RESULT_TOO_LARGE stand-in.
        """
        if not self._pending:
            return False
        if isinstance(line, Oversize):
            return self._take_oversize(line, limit)
        if _MARK not in line:
            return False
        try:
            # Straight from the bytes (pydantic's JSON reader, through its public API): `json.loads`
            # would decode the whole line to a str first (a third copy of a long answer, S-UPS-12).
            message = _ANY_JSON.validate_json(line)
        except ValueError:
            return False
        request_id = message.get("id") if isinstance(message, dict) else None
        slot = self._pending.get(request_id) if isinstance(request_id, str) else None
        outcome = _outcome(message) if slot is not None else None
        if slot is None or outcome is None:
            return False  # not ours, or not a well-formed answer: the SDK's parsing judges it
        slot.settle(outcome)
        return True

    def _take_oversize(self, line: Oversize, limit: int) -> bool:
        request_id = line.request_id()
        slot = self._pending.get(request_id) if isinstance(request_id, str) else None
        if slot is None:
            return False
        log.warning("the upstream's answer to request %r is %d bytes, over max_result_bytes", request_id, line.size)
        slot.settle(too_large_error(str(request_id), line.size, limit).error)
        return True

    def close(self) -> None:
        """The connection ended: every pending call fails as the SDK's do (S-UPS-02)."""
        self._closed = True
        for slot in self._pending.values():
            slot.settle(_CLOSED)


def _outcome(message: dict[str, Any]) -> dict[str, Any] | types.ErrorData | None:
    """A response's result or error, or None when it is no well-formed JSON-RPC response."""
    if message.get("jsonrpc") != "2.0":
        return None
    if "error" in message:
        try:
            parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
        except ValueError:
            return None
        return parsed.error if isinstance(parsed, types.JSONRPCError) else None
    result = message.get("result")
    return result if isinstance(result, dict) else None


async def call_tool(
    lane: Lane, session: Any, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None
) -> dict[str, Any]:
    """`tools/call` on the lane, checked as the SDK's `ClientSession.call_tool` checks it.

    Args:
        lane: the connection's lane.
        session: the connection's SDK `ClientSession` (negotiated version, output schemas).
        name, arguments, meta: the call.

    Returns:
        The result as the wire dict `gateway.upstream.client.as_wire` would give.

    Raises:
        MCPError: see `Lane.call`.
        pydantic.ValidationError: the result is not a `CallToolResult` (UPSTREAM_BAD_ANSWER).
        RuntimeError: the structured content does not match the tool's outputSchema (the SDK's).
    """
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if meta:
        params["_meta"] = meta
    raw = await lane.call("tools/call", params)
    version = getattr(session, "protocol_version", None) or "2025-11-25"
    # A later revision's fields are outside the negotiated contract (the SDK drops them too).
    for key in _later_revision_fields("tools/call", version):
        raw.pop(key, None)
    result = _CALL_TOOL_RESULT.validate_python(raw, by_name=False)
    if not result.is_error:
        await session.validate_tool_result(name, result)
    return wire_result(raw)


def wire_result(raw: dict[str, Any]) -> dict[str, Any]:
    """The upstream's validated result dict with what `as_wire` leaves out left out.

    No nulls at the top or in content items, no key the model does not know at the top, no
    upstream identity stamp, and `resultType` as the model's default.
    """
    data = {k: v for k, v in raw.items() if v is not None and k in _RESULT_KEYS}
    content = data.get("content")
    if isinstance(content, list):
        data["content"] = [
            {k: v for k, v in item.items() if v is not None} if isinstance(item, dict) else item for item in content
        ]
    meta = data.get("_meta")
    if isinstance(meta, dict) and _SERVER_INFO in meta:
        meta = {k: v for k, v in meta.items() if k != _SERVER_INFO}
        if meta:
            data["_meta"] = meta
        else:
            del data["_meta"]
    data["resultType"] = "complete"
    return data
