"""The checks every client message passes before the MCP SDK sees it (S-MSG-01..S-MSG-06).

A message the SDK cannot use used to vanish: its stdio reader dropped the line and the client
waited for its own timeout. Here each message is judged once, for stdio and HTTP alike, and the
first failing step answers as JSON-RPC 2.0 §5.1 says (code, and `id: null` when no id could be
read):

    1. size    — over `max_message_bytes` → -32600 (the id, when the message starts with it)
    2. text    — not UTF-8 → -32700
    3. depth   — nested deeper than `MAX_NESTING_DEPTH` → -32602 for a request (its id), else -32600
    4. JSON    — not JSON (NaN, Infinity and lone surrogates are not JSON either) → -32700
    5. shape   — a batch or a scalar → -32600 (MCP has no batches since 2025-06-18)
    6. envelope — an id that is not a string or an integer, `jsonrpc` not "2.0", a method that is
                 not a string, no method at all → -32600; params that are not an object → -32602
    7. the SDK's own model of a message; what it refuses → -32600

A notification or a response is never answered (JSON-RPC forbids it); it is logged like the rest.
What passes is a typed `JSONRPCMessage`; the method and its params are the SDK's to judge
(unknown method -32601, params of the wrong shape -32602). Nothing here does I/O.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

import mcp_types as types
import pydantic

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

# The default of `max_message_bytes`: 1 MiB, the bound the pipe protocols the product learned
# from put on one client request (upstream results are bounded separately).
DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024
# Deepest nesting accepted, counting the envelope ({"params": {"arguments": {...}}} is 3). The
# SDK's JSON parser stops at 200 and recursive code further on (audit, policy, the upstream's
# parser) must never meet a depth near Python's recursion limit; no MCP request needs more than
# a dozen levels.
MAX_NESTING_DEPTH = 64
# How much of an oversized line is kept to read its id from (an id comes first or early).
OVERSIZE_PREFIX_BYTES = 4096

# A JSON string, possessive so that an unterminated one cannot make the regex backtrack.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*+"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DELTA = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
# Tokens of the top level of a message, enough to read its scalar members without parsing it whole.
_TOKEN = re.compile(
    rb'\s*+(?:("(?:[^"\\]|\\.)*+")|(-?\d++(?:\.\d++)?+(?:[eE][+-]?+\d++)?+|true|false|null)|([{}\[\]:,]))',
    re.DOTALL,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class MessageLimits:
    """The bounds one client message must keep (S-MSG-05)."""

    max_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    max_depth: int = MAX_NESTING_DEPTH

    def __post_init__(self) -> None:
        if self.max_bytes < 1 or self.max_depth < 2:
            raise ValueError(f"unusable message limits: {self.max_bytes} bytes, depth {self.max_depth}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Refusal:
    """A client message the gateway will not pass on, and the JSON-RPC error it earns.

    `answer` is False for a notification or a response: JSON-RPC never answers those (over
    HTTP the error still goes in the 4xx body, without an id). `reason` is a stable code for
    the log line and the error's data.
    """

    code: int
    message: str
    reason: str
    size: int
    id: types.RequestId | None = None
    answer: bool = True
    data: dict[str, Any] = field(default_factory=dict)

    def reply(self) -> types.JSONRPCError:
        """The JSON-RPC error response (`"id": null` when no id could be read)."""
        return types.JSONRPCError(
            jsonrpc="2.0",
            id=self.id,
            error=types.ErrorData(code=self.code, message=self.message, data={"reason": self.reason, **self.data}),
        )

    def log_line(self) -> str:
        """One line for stderr: what was refused, never the message's content (it may hold secrets)."""
        what = "answered" if self.answer else "not answered (a notification or response)"
        return (
            f"refused a client message ({self.size} bytes, id {json.dumps(self.id)}): {self.reason}, "
            f"{self.code} {self.message}; {what}"
        )


Checked = types.JSONRPCMessage | Refusal


def nesting_depth(raw: bytes) -> int:
    """How deep arrays and objects nest in `raw` (brackets inside strings do not count).

    Args:
        raw: the message's bytes (need not be valid JSON).

    Returns:
        The deepest nesting level; 0 for a scalar.
    """
    if raw.count(b"[") + raw.count(b"{") <= 1:
        return min(1, raw.count(b"[") + raw.count(b"{"))
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(_DELTA[b] for b in brackets), default=0)


def top_level_scalars(raw: bytes) -> dict[str, Any]:
    """The scalar members of the top-level object in `raw`, as far as `raw` is well formed.

    Reads tokens, not a parse tree, so it works on a truncated prefix and at any depth: this is
    how a message too large or too deep to parse still gets an answer to its own id.

    Args:
        raw: the message's bytes, or its first bytes.

    Returns:
        Member name → value for the members whose value is a string, number, boolean or null.
    """
    found: dict[str, Any] = {}
    depth, pos, key, expecting_value = 0, 0, None, False
    while True:
        token = _TOKEN.match(raw, pos)
        if token is None:
            return found
        pos = token.end()
        string, scalar, punct = token.groups()
        if punct is not None:
            if punct in b"[{":
                depth += 1
            elif punct in b"]}":
                depth -= 1
                if depth <= 0:
                    return found
            if depth != 1 or punct != b":":
                expecting_value = False
            if depth == 1 and punct == b",":
                key = None
            elif depth == 1 and punct == b":":
                expecting_value = key is not None
            continue
        if depth != 1:
            continue
        value = string if string is not None else scalar
        if expecting_value and key is not None:
            with contextlib.suppress(ValueError):  # a number Python will not read (4300+ digits)
                found.setdefault(key, json.loads(value))
            key, expecting_value = None, False
        elif string is not None:
            try:
                key = json.loads(string)
            except ValueError:
                return found


def _usable_id(value: Any) -> types.RequestId | None:
    # JSON-RPC ids are strings or numbers; MCP allows strings and integers only, never null.
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return None


def oversize(prefix: bytes, size: int, limits: MessageLimits) -> Refusal:
    """The refusal of a message larger than `limits.max_bytes` (step 1).

    Args:
        prefix: its first bytes (the id is read from them when it comes before anything nested).
        size: its whole size in bytes.
        limits: the bounds it broke.

    Returns:
        A -32600 refusal naming the limit, always answered (a truncated prefix cannot show that
        the message was a notification).
    """
    return Refusal(
        code=INVALID_REQUEST,
        message=f"Invalid Request: message of {size} bytes exceeds max_message_bytes ({limits.max_bytes})",
        reason="too-large",
        size=size,
        id=_usable_id(top_level_scalars(prefix).get("id")),
        data={"max_message_bytes": limits.max_bytes},
    )


def check_message(raw: bytes, limits: MessageLimits) -> Checked:
    """Judge one client message (steps 1-7 of the module docstring).

    Args:
        raw: one stdio line (without its newline) or one HTTP body.
        limits: the size and depth bounds.

    Returns:
        The typed message to hand to the SDK, or the `Refusal` to answer and log.
    """
    size = len(raw)
    if size > limits.max_bytes:
        return oversize(raw[:OVERSIZE_PREFIX_BYTES], size, limits)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Refusal(code=PARSE_ERROR, message=f"Parse error: not UTF-8 ({exc.reason})", reason="not-utf8", size=size)
    # No message nests deeper than it has brackets: most never need the walk.
    if raw.count(b"[") + raw.count(b"{") > limits.max_depth and nesting_depth(raw) > limits.max_depth:
        return _too_deep(raw, size, limits)
    try:
        value = json.loads(text, parse_constant=_not_json)
    except ValueError as exc:  # (a number of 4,300+ digits too: Python will not read it)
        return Refusal(code=PARSE_ERROR, message=f"Parse error: {_first_line(exc)}", reason="not-json", size=size)
    if not isinstance(value, dict):
        batch = isinstance(value, list)
        return Refusal(
            code=INVALID_REQUEST,
            message="Invalid Request: batches are not supported" if batch else "Invalid Request: not a JSON object",
            reason="batch" if batch else "not-an-object",
            size=size,
        )
    return _check_envelope(value, raw)


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _too_deep(raw: bytes, size: int, limits: MessageLimits) -> Refusal:
    scalars = top_level_scalars(raw)
    rid = _usable_id(scalars.get("id"))
    request = "method" in scalars and rid is not None
    return Refusal(
        code=INVALID_PARAMS if request else INVALID_REQUEST,
        message=f"{'Invalid params' if request else 'Invalid Request'}: nested deeper than {limits.max_depth} levels",
        reason="too-deep",
        size=size,
        id=rid,
        answer="method" not in scalars or "id" in scalars,  # a notification is never answered
        data={"max_depth": limits.max_depth},
    )


def _check_envelope(obj: dict[str, Any], raw: bytes) -> Checked:
    size = len(raw)
    has_id = "id" in obj
    rid = _usable_id(obj.get("id"))

    def refuse(code: int, message: str, reason: str, *, answer: bool = True) -> Refusal:
        return Refusal(code=code, message=message, reason=reason, size=size, id=rid, answer=answer)

    if "method" in obj:
        if has_id and rid is None:
            return refuse(INVALID_REQUEST, "Invalid Request: id must be a string or an integer", "bad-id")
        if obj.get("jsonrpc") != "2.0":
            return refuse(INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"', "bad-version", answer=has_id)
        if not isinstance(obj["method"], str):
            return refuse(INVALID_REQUEST, "Invalid Request: method must be a string", "bad-method", answer=has_id)
        if obj.get("params") is not None and not isinstance(obj["params"], dict):
            return refuse(INVALID_PARAMS, "Invalid params: params must be an object", "bad-params", answer=has_id)
        answer = has_id
    elif "result" in obj or "error" in obj:
        answer = False  # a response to the gateway: never answered, whatever is wrong with it
    else:
        return refuse(INVALID_REQUEST, "Invalid Request: no method", "no-method")
    try:
        # The SDK's own JSON reading of the line, so what passes is exactly what it would accept.
        return types.jsonrpc_message_adapter.validate_json(raw, by_name=False)
    except pydantic.ValidationError as exc:
        if any(error["type"] == "json_invalid" for error in exc.errors()):  # e.g. a lone surrogate
            return Refusal(code=PARSE_ERROR, message=f"Parse error: {_first_error(exc)}", reason="not-json", size=size)
        return refuse(INVALID_REQUEST, f"Invalid Request: {_first_error(exc)}", "bad-envelope", answer=answer)


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _first_error(exc: pydantic.ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "not a JSON-RPC message"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid"))


class LineFramer:
    """Splits a byte stream into newline-delimited messages, never holding more than the limit.

    A line longer than `max_bytes` is not buffered: its first `OVERSIZE_PREFIX_BYTES` are kept
    (to read its id), the rest is counted and dropped until its newline, and it comes out as an
    `Oversize`. Blank lines are no messages and are skipped.
    """

    def __init__(self, max_bytes: int) -> None:
        self._max = max_bytes
        self._buf = bytearray()
        self._scanned = 0  # bytes of _buf known to hold no newline
        self._dropping: Oversize | None = None

    def feed(self, chunk: bytes) -> list[bytes | Oversize]:
        """The messages `chunk` completes, in order (b"" means end of input: the last line ends).

        Args:
            chunk: the next bytes read, or b"" at end of input.

        Returns:
            Complete lines (without the newline) and `Oversize` records.
        """
        out: list[bytes | Oversize] = []
        if not chunk:
            if self._dropping is not None:
                out.append(self._dropping)
            elif self._buf.strip():
                out.append(bytes(self._buf))
            self._buf.clear()
            self._scanned, self._dropping = 0, None
            return out
        view = memoryview(chunk)
        while view:
            if self._dropping is not None:
                end = chunk.find(b"\n", len(chunk) - len(view))
                if end < 0:
                    self._dropping = self._dropping.grown(len(view))
                    break
                taken = end - (len(chunk) - len(view))
                out.append(self._dropping.grown(taken))
                self._dropping = None
                view = view[taken + 1 :]
                continue
            self._buf += view
            view = view[len(view) :]
            while True:
                end = self._buf.find(b"\n", self._scanned)
                if end < 0:
                    break
                line = bytes(self._buf[:end])
                del self._buf[: end + 1]
                self._scanned = 0
                if line.strip():
                    out.append(line)
            self._scanned = len(self._buf)
            if len(self._buf) > self._max:
                self._dropping = Oversize(prefix=bytes(self._buf[:OVERSIZE_PREFIX_BYTES]), size=len(self._buf))
                self._buf.clear()
                self._scanned = 0
        return out


@dataclass(frozen=True, slots=True)
class Oversize:
    """A line that broke `max_bytes`: its first bytes and its whole size."""

    prefix: bytes
    size: int

    def grown(self, more: int) -> Oversize:
        return Oversize(self.prefix, self.size + more)


def check_frame(frame: bytes | Oversize, limits: MessageLimits) -> Checked:
    """`check_message` for what `LineFramer` produced (an `Oversize` is refused at step 1).

    Args:
        frame: a complete line or an oversize record.
        limits: the size and depth bounds.

    Returns:
        The typed message or its `Refusal`.
    """
    if isinstance(frame, Oversize):
        return oversize(frame.prefix, frame.size, limits)
    return check_message(frame, limits)
