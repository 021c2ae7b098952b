"""Malformed client messages get an answer, one stderr line, and the gateway keeps serving
(S-MSG-01 … S-MSG-09).

The stdio tests run `winmcp-gateway serve --upstream sim` as a real child and write raw bytes to
its stdin, the way a broken client would; the HTTP tests post raw bodies to the gateway under
uvicorn; the property suite throws generated messages at the whole gateway in this process.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

from gateway.app import open_gateway
from gateway.config.load import load_config
from tests._requirements import requirement
from tests.e2e._proto_rig import TOKEN, http_server
from tests.e2e.harness import gateway_stdio_params, sim_spec

pytestmark = pytest.mark.anyio

MARK = "refused a client message"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def deep_call(rid: str | int, levels: int) -> bytes:
    """A Click whose `loc` is a list nested `levels` deep (spelled out: json.dumps stops near 1,000)."""
    envelope = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": "Click", "arguments": {}}}
    head = json.dumps(envelope).encode()[: -len(b"}}}")]
    return head + b'"loc": ' + b"[" * levels + b"1" + b"]" * levels + b"}}}"


# (line sent, expected code, expected id): every one must be answered (S-MSG-01..04).
MALFORMED: list[tuple[bytes, int, Any]] = [
    (b"this is not json", -32700, None),
    (b'{"jsonrpc": "2.0", "id": 7, "method": "ping"', -32700, None),  # cut short
    (b"\xff\xfe not utf-8", -32700, None),
    (b'{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":NaN}}', -32700, None),
    (b"42", -32600, None),
    (b'"a string"', -32600, None),
    (b'[{"jsonrpc":"2.0","id":9,"method":"ping"}]', -32600, None),
    (b'{"jsonrpc":"2.0","id":10}', -32600, 10),  # a request without method
    (b'{"jsonrpc":"2.0"}', -32600, None),
    (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, None),
    (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, None),
    (b'{"jsonrpc":"1.0","id":11,"method":"ping"}', -32600, 11),
    (b'{"jsonrpc":"2.0","id":12,"method":5}', -32600, 12),
    (b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":[1,2]}', -32602, 13),
    (deep_call(14, 300), -32602, 14),  # arguments nested 300 levels deep
]
# Never answered (JSON-RPC answers no notification and no response), but logged.
UNANSWERED: list[bytes] = [
    b'{"jsonrpc":"2.0","method":"notifications/x","params":"not an object"}',
    b'{"jsonrpc":"1.0","method":"notifications/x"}',
]


class StdioChild:
    """The gateway as a stdio child, spoken to in raw bytes."""

    def __init__(self, process: Process) -> None:
        self.process = process
        assert process.stdout is not None and process.stdin is not None
        self.stdout = BufferedByteReceiveStream(process.stdout)
        self.stderr = bytearray()

    async def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send(line + b"\n")

    async def receive(self) -> dict[str, Any]:
        line = await self.stdout.receive_until(b"\n", 64 * 1024 * 1024)
        value = json.loads(line)
        assert isinstance(value, dict), line
        return value

    async def initialize(self) -> None:
        await self.send(json.dumps(INITIALIZE).encode())
        answer = await self.receive()
        assert answer["id"] == "init" and "result" in answer, answer
        await self.send(json.dumps(INITIALIZED).encode())

    async def ping(self, rid: str) -> None:
        await self.send(json.dumps({"jsonrpc": "2.0", "id": rid, "method": "ping"}).encode())
        assert await self.receive() == {"jsonrpc": "2.0", "id": rid, "result": {}}

    def refusal_lines(self) -> list[str]:
        return [line for line in self.stderr.decode("utf-8", "replace").splitlines() if MARK in line]


@contextlib.asynccontextmanager
async def stdio_child(tmp: Path, *args: str) -> AsyncIterator[StdioChild]:
    """`winmcp-gateway serve --upstream sim` as a child; on exit stdin is closed and the child must end."""
    params, _, _ = gateway_stdio_params(tmp, *args)
    env = {**os.environ, **(params.env or {})}
    async with await anyio.open_process([params.command, *params.args], env=env) as process:
        child = StdioChild(process)

        async def drain_stderr() -> None:
            assert process.stderr is not None
            async for chunk in process.stderr:
                child.stderr += chunk

        async with anyio.create_task_group() as tg:
            tg.start_soon(drain_stderr)
            yield child
            assert process.stdin is not None
            await process.stdin.aclose()
            with anyio.fail_after(30):
                assert await process.wait() == 0
            # Nothing else on stdout: after the last answer the wire is empty.
            with pytest.raises((anyio.EndOfStream, anyio.IncompleteRead)):
                await child.stdout.receive_until(b"\n", 1024)


@requirement("S-MSG-01", "S-MSG-02", "S-MSG-03", "S-MSG-04", "S-MSG-06", "S-MSG-07")
async def test_each_malformed_line_gets_its_json_rpc_error_and_one_stderr_line(tmp_path: Path) -> None:
    """S-MSG-01..04, 06, 07: over real stdio every malformed line is answered with the right code and id
    (nothing else on stdout), leaves one stderr line, and the next valid request still works."""
    with anyio.fail_after(120):
        async with stdio_child(tmp_path) as child:
            await child.initialize()
            for line, code, rid in MALFORMED:
                await child.send(line)
                answer = await child.receive()
                assert answer["id"] == rid and answer["error"]["code"] == code, (line[:80], answer)
                assert "result" not in answer
                await child.ping(f"after-{code}-{rid}")
            for line in UNANSWERED:
                await child.send(line)
                await child.ping("after-unanswered")  # the next line on stdout is the ping's answer
            await child.send(json.dumps({"jsonrpc": "2.0", "id": "list", "method": "tools/list"}).encode())
            listed = await child.receive()
            assert listed["id"] == "list" and listed["result"]["tools"]
    lines = child.refusal_lines()
    assert len(lines) == len(MALFORMED) + len(UNANSWERED), lines
    assert all(line.count("\n") == 0 and "not json" not in line for line in lines)  # no content is logged


@requirement("S-MSG-04", "S-MSG-05", "S-MSG-06")
async def test_oversize_and_deep_lines_are_refused_in_bounded_time(tmp_path: Path) -> None:
    """S-MSG-04/05/06: a 5 MiB line (the limit is 64 KiB here) and 1,000/20,000-deep nesting are refused
    with an error naming the limit, quickly, and the gateway keeps serving."""
    with anyio.fail_after(120):
        async with stdio_child(tmp_path) as child:
            await child.initialize()
            big = b'{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"Type","arguments":{"text":"'
            started = time.monotonic()
            await child.send(big + b"x" * (5 * 1024 * 1024) + b'"}}}')
            answer = await child.receive()
            assert answer["id"] == "big" and answer["error"]["code"] == -32600, answer
            assert answer["error"]["data"]["max_message_bytes"] == 65536
            await child.ping("after-big")
            for levels in (1_000, 20_000):
                await child.send(deep_call(f"deep-{levels}", levels))
                answer = await child.receive()
                assert answer["id"] == f"deep-{levels}" and answer["error"]["code"] == -32602, answer
                assert answer["error"]["data"]["max_depth"] == 64
            # 64 levels in all is still served: the envelope (message, params, arguments) takes 3 of them.
            await child.send(deep_call("deep-ok", 61))
            answer = await child.receive()
            assert answer["id"] == "deep-ok" and "too-deep" not in json.dumps(answer), answer
            await child.ping("after-deep")
            assert time.monotonic() - started < 30
    assert len(child.refusal_lines()) == 3


@pytest.fixture(autouse=True)
def small_limit(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oversize test runs its child with max_message_bytes = 64 KiB (through the environment)."""
    if request.node.name.startswith("test_oversize"):
        monkeypatch.setenv("WINMCP_GATEWAY_MAX_MESSAGE_BYTES", "65536")


# -- HTTP ---------------------------------------------------------------------------------------

HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "Authorization": f"Bearer {TOKEN}",
}


@requirement("S-MSG-08", "S-MSG-06", "S-MSG-07")
async def test_http_bodies_get_400_or_413_with_the_json_rpc_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """S-MSG-08: a POST body that is not JSON is 400 with -32700, the other malformed bodies 400 with their
    code, an oversize one 413; each is logged once and a valid initialize afterwards is served."""
    spec, _, _ = sim_spec(tmp_path, "default")
    config = load_config(environ={}, state_dir=tmp_path / "state", overrides={"max_message_bytes": 65536})
    with anyio.fail_after(60):
        async with open_gateway(config, spec) as app, http_server(app) as settings, httpx2.AsyncClient() as http:
            url = settings.url("/mcp")
            for line, code, rid in MALFORMED:
                reply = await http.post(url, headers=HEADERS, content=line)
                assert reply.status_code == 400, (line[:60], reply.status_code, reply.text[:200])
                body = reply.json()
                assert body["error"]["code"] == code and body["id"] == rid, (line[:60], body)
            big = b'{"jsonrpc":"2.0","id":"big","method":"ping","params":{"x":"' + b"x" * 200_000 + b'"}}'
            reply = await http.post(url, headers=HEADERS, content=big)
            assert reply.status_code == 413 and reply.json()["id"] == "big"
            assert reply.json()["error"]["code"] == -32600
            ok = await http.post(url, headers=HEADERS, json=INITIALIZE)
            assert ok.status_code == 200 and ok.headers.get("mcp-session-id")
    refusals = [r for r in caplog.records if MARK in r.getMessage()]
    assert len(refusals) == len(MALFORMED) + 1


@requirement("S-MSG-08")
async def test_http_checks_the_token_before_the_body(tmp_path: Path) -> None:
    """S-MSG-08: the body is looked at only after the token: a malformed body without a token is 401."""
    spec, _, _ = sim_spec(tmp_path, "default")
    config = load_config(environ={}, state_dir=tmp_path / "state")
    with anyio.fail_after(60):
        async with open_gateway(config, spec) as app, http_server(app) as settings, httpx2.AsyncClient() as http:
            headers = {k: v for k, v in HEADERS.items() if k != "Authorization"}
            reply = await http.post(settings.url("/mcp"), headers=headers, content=b"not json")
            assert reply.status_code == 401
