"""Random JSON-RPC messages thrown at the whole gateway, in this process (S-MSG-09).

One gateway (in front of the in-process simulator) serves the checked stdio streams
(`gateway.transport.stdio.checked_streams`) for the whole module, in a portal thread; each
Hypothesis example writes one generated line followed by a `ping` probe and reads until the
probe is answered and, when JSON-RPC says an answer is due, the answer to the line too. The
gateway must answer every due message with a JSON-RPC response for that id (id null where it
had none) and must never stop serving (the probe is always answered).
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.app import open_gateway
from gateway.config.load import load_config
from gateway.transport.framing import MessageLimits
from gateway.transport.server import build_server
from gateway.transport.stdio import checked_streams
from tests._requirements import requirement
from tests.e2e.harness import in_process_sim, sim_spec

# Each example costs about 7 ms through the whole gateway: 2,000 run in about 15 s (CI budget: well under a minute).
EXAMPLES = 10_000  # issue 12: 10,000 in CI's budget (≈50 s)
ANSWER_WAIT_S = 10

_UNIQUE = itertools.count()


@dataclass
class Wire:
    """The client's end of the checked stdio streams of one running gateway."""

    portal: BlockingPortal
    to_gateway: MemoryObjectSendStream[bytes]
    from_gateway: MemoryObjectReceiveStream[bytes]

    async def _exchange(self, line: bytes, due: tuple[bool, Any]) -> list[dict[str, Any]]:
        probe = f"probe-{next(_UNIQUE)}"
        await self.to_gateway.send(line + b"\n")
        await self.to_gateway.send(json.dumps({"jsonrpc": "2.0", "id": probe, "method": "ping"}).encode() + b"\n")
        answered, expect_id = due
        responses: list[dict[str, Any]] = []
        with anyio.fail_after(ANSWER_WAIT_S):
            while True:
                message = json.loads(await self.from_gateway.receive())
                if "method" in message:  # a notification or request of the gateway's own
                    continue
                responses.append(message)
                ids = [r.get("id") for r in responses]
                if probe in ids and (not answered or expect_id in ids):
                    return responses

    def exchange(self, line: bytes, due: tuple[bool, Any]) -> list[dict[str, Any]]:
        return self.portal.call(self._exchange, line, due)


@contextlib.asynccontextmanager
async def running_gateway(
    tmp: Path,
) -> AsyncIterator[tuple[MemoryObjectSendStream[bytes], MemoryObjectReceiveStream[bytes]]]:
    spec, _, _ = sim_spec(tmp, "default")
    config = load_config(environ={}, state_dir=tmp / "state")
    in_send, in_receive = anyio.create_memory_object_stream[bytes](16)
    out_send, out_receive = anyio.create_memory_object_stream[bytes](1024)

    async def source() -> bytes:
        try:
            return await in_receive.receive()
        except anyio.EndOfStream:
            return b""

    async def sink(line: bytes) -> None:
        await out_send.send(line)

    async with open_gateway(config, spec, connector=in_process_sim(spec.argv)) as app:
        server = build_server(app)
        async with anyio.create_task_group() as tg:

            async def serve() -> None:
                async with checked_streams(source, sink, MessageLimits()) as (read, write):
                    await server.run(read, write, server.create_initialization_options())

            tg.start_soon(serve)
            init = {
                "jsonrpc": "2.0",
                "id": "init",
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "h", "version": "1"},
                },
            }
            await in_send.send(json.dumps(init).encode() + b"\n")
            assert json.loads(await out_receive.receive())["id"] == "init"
            await in_send.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
            try:
                yield in_send, out_receive
            finally:
                in_send.close()  # end of input: the gateway stops serving
    for stream in (in_receive, out_send, out_receive):
        stream.close()


@pytest.fixture(scope="module")
def wire(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wire]:
    with start_blocking_portal("asyncio") as portal:
        manager = portal.wrap_async_context_manager(running_gateway(tmp_path_factory.mktemp("fuzz")))
        with manager as (to_gateway, from_gateway):
            yield Wire(portal, to_gateway, from_gateway)


# -- what is thrown -----------------------------------------------------------------------------

SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
# Methods that answer quickly whatever their params (no tool that waits, no approval asked).
METHODS = st.sampled_from(
    [
        "ping",
        "tools/list",
        "tools/call",
        "initialize",
        "resources/list",
        "prompts/list",
        "completion/complete",
        "logging/setLevel",
        "notifications/initialized",
        "notifications/cancelled",
        "winmcp/unknown",
    ]
) | st.text(max_size=12)
TOOL_CALL_PARAMS = st.fixed_dictionaries(
    {"name": st.sampled_from(["winmcp_state", "Click", "NoSuchTool"]) | st.text(max_size=8)},
    optional={"arguments": VALUES},
)
ID_KINDS = st.sampled_from(["int", "str", "absent", "absent", "null", "float", "bool", "list"])
# Placeholders the test replaces with a fresh value per example (generation must not read a counter).
UNIQUE_INT, UNIQUE_STR = "\x00unique-int", "\x00unique-str"
FIXED_IDS = {"int": UNIQUE_INT, "str": UNIQUE_STR, "null": None, "float": 0.5, "bool": True, "list": [1]}


@st.composite
def objects(draw: st.DrawFn) -> dict[str, Any]:
    """A JSON-RPC-like object: mostly well formed, with any member wrong or missing."""
    message: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        message["jsonrpc"] = "2.0" if draw(st.integers(0, 5)) else draw(VALUES)
    kind = draw(ID_KINDS)
    if kind != "absent":
        message["id"] = FIXED_IDS[kind]
    shape = draw(st.sampled_from(["request", "request", "request", "response", "error", "nothing"]))
    if shape == "request":
        method = draw(METHODS | VALUES) if draw(st.integers(0, 7)) == 0 else draw(METHODS)
        message["method"] = method
        if draw(st.booleans()):
            message["params"] = draw(TOOL_CALL_PARAMS) if method == "tools/call" else draw(VALUES)
    elif shape == "response":
        message["result"] = draw(VALUES)
    elif shape == "error":
        message["error"] = draw(VALUES)
    for key in draw(st.lists(st.text(max_size=6), max_size=2)):
        message.setdefault(key, draw(VALUES))
    return message


def deep_line(levels: int, unique: int) -> bytes:
    return (
        b'{"jsonrpc":"2.0","id":"deep-%d","method":"tools/call","params":{"name":"Click","arguments":{"loc":' % unique
        + b"[" * levels
        + b"]" * levels
        + b"}}}"
    )


# What to throw, as data; `line_of` turns it into bytes with fresh ids.
THROWS = st.one_of(
    st.tuples(st.just("object"), objects(), st.none() | st.integers(1, 99)),
    st.tuples(st.just("value"), VALUES.filter(lambda v: not isinstance(v, dict)), st.none()),
    st.tuples(
        st.just("bytes"), st.binary(min_size=1, max_size=40).filter(lambda b: b"\n" not in b and b.strip()), st.none()
    ),
    st.tuples(st.just("deep"), st.integers(50, 400), st.none()),
)


def line_of(throw: tuple[str, Any, int | None]) -> bytes:
    kind, payload, cut_percent = throw
    unique = next(_UNIQUE)
    if kind == "bytes":
        return bytes(payload)
    if kind == "deep":
        return deep_line(payload, unique)
    if kind == "object" and payload.get("id") in (UNIQUE_INT, UNIQUE_STR):
        payload = {**payload, "id": 10_000_000 + unique if payload["id"] == UNIQUE_INT else f"h-{unique}"}
    line = json.dumps(payload).encode()
    if cut_percent is not None:
        line = line[: max(1, len(line) * cut_percent // 100)]
    return line


def usable(rid: Any) -> bool:
    return isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))


def answer_due(line: bytes) -> tuple[bool, Any]:
    """The oracle, independent of the gateway's code: is an answer due, and for which id?"""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        if line.startswith(b'{"jsonrpc":"2.0","id":"deep-'):
            return True, line.split(b'"')[5].decode()
        return True, None
    if not isinstance(value, dict):
        return True, None
    rid = value.get("id") if usable(value.get("id")) else None
    if "method" in value:
        return "id" in value, rid
    if "result" in value or "error" in value:
        return False, None
    return True, rid


@requirement("S-MSG-09")
@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(throw=THROWS)
def test_the_gateway_answers_every_due_message_and_never_stops_serving(wire: Wire, throw: Any) -> None:
    """S-MSG-09: whatever line arrives, a due answer comes for its id (or id null), as a JSON-RPC
    response, and the probe after it is answered (the gateway is still serving)."""
    line = line_of(throw)
    due, rid = answer_due(line)
    responses = wire.exchange(line, (due, rid))
    for response in responses:
        assert response.get("jsonrpc") == "2.0" and ("result" in response) != ("error" in response), response
    if due:
        mine = [r for r in responses if r.get("id") == rid]
        assert mine, (line[:200], responses)
        if rid is None:
            assert "error" in mine[0], (line[:200], mine)
