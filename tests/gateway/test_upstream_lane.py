"""The lean tools/call lane of the stdio upstream keeps every guarantee of the SDK path (S-PERF-05).

Each test runs `Upstream` against a scripted child (written to tmp_path) that logs every line it
reads, so a test can see which path a call took: lane requests carry string ids `"gw-N"`, the
SDK's carry integers.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError

from gateway.errors import UpstreamError, UpstreamTimeout
from gateway.upstream.client import Upstream, UpstreamProtocolError
from gateway.upstream.client_side import CURRENT_CALLER, Caller
from gateway.upstream.lane import Lane, wire_result
from gateway.upstream.limits import Oversize
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement

CHILD = r"""
import json, sys

LOG = sys.argv[1]
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
TOOLS = [{"name": n, "inputSchema": {"type": "object"}} for n in
         ("echo", "slow", "hang", "die", "big", "fail", "bad", "progress", "sample", "log")]
TOOLS.append({"name": "typed", "inputSchema": {"type": "object"}, "outputSchema": SCHEMA})
hung = False
asked = {}

def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

def answer(mid, result):
    send({"jsonrpc": "2.0", "id": mid, "result": result})

def text(value):
    return {"content": [{"type": "text", "text": value}]}

def call(mid, params):
    global hung
    name, args = params["name"], params.get("arguments") or {}
    if name == "echo":
        answer(mid, {"content": [{"type": "text", "text": json.dumps(args, sort_keys=True), "annotations": None}],
                     "isError": False, "structuredContent": None, "unknownKey": 1,
                     "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "x"}, "kept": True}})
    elif name == "hang":
        hung = True
    elif name == "die":
        sys.stderr.write("the child dies now\n")
        sys.stderr.flush()
        sys.exit(3)
    elif name == "big":
        answer(mid, text("x" * 50_000))
    elif name == "fail":
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32042, "message": "nope", "data": {"why": 1}}})
    elif name == "bad":
        answer(mid, {"content": "not a list"})
    elif name == "typed":
        answer(mid, {"content": [], "structuredContent": {"n": args.get("n")}})
    elif name == "progress":
        token = (params.get("_meta") or {}).get("progressToken")
        if token is not None:
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": token, "progress": 1, "total": 2}})
        answer(mid, text("done"))
    elif name == "sample":
        asked["s-1"] = mid
        send({"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage",
              "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                         "maxTokens": 5}})
    elif name == "log":
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hello"}})
        answer(mid, text("logged"))

for raw in sys.stdin:
    with open(LOG, "a", encoding="utf-8") as fh:
        fh.write(raw)
    message = json.loads(raw)
    method, mid = message.get("method"), message.get("id")
    if method == "initialize":
        answer(mid, {"protocolVersion": message["params"]["protocolVersion"],
                     "capabilities": {"tools": {}, "logging": {}}, "serverInfo": {"name": "scripted", "version": "1"}})
    elif method == "ping":
        if not hung:
            answer(mid, {})
    elif method == "tools/list":
        answer(mid, {"tools": TOOLS})
    elif method == "tools/call":
        call(mid, message["params"])
    elif method is None and mid in asked:
        answer(asked.pop(mid), text(message["result"]["content"]["text"]))
"""


@dataclass
class _Caller:
    """A client call as `gateway.protocol.waiting_call.CallLink` presents it."""

    wants_progress: bool = False
    session: str = "s1"
    forward_meta: Mapping[str, Any] | None = None
    updates: list[tuple[float, float | None, str | None]] = field(default_factory=list)

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.updates.append((progress, total, message))

    async def ask(self, method: str, params: Mapping[str, Any]) -> dict[str, Any] | types.ErrorData:
        raise AssertionError("routed through the hooks")

    async def notify(self, method: str, params: Mapping[str, Any] | None) -> bool:
        return False


@dataclass
class _Hooks:
    upstream: Upstream
    asked: list[tuple[str, tuple[Caller, ...]]] = field(default_factory=list)
    notes: list[tuple[str, tuple[Caller, ...]]] = field(default_factory=list)

    async def server_request(
        self, method: str, params: Mapping[str, Any], caller: Caller | None
    ) -> dict[str, Any] | types.ErrorData:
        self.asked.append((method, self.upstream.in_flight()))
        return {"role": "assistant", "content": {"type": "text", "text": "sampled"}, "model": "m"}

    async def notification(self, method: str, params: Mapping[str, Any] | None) -> None:
        self.notes.append((method, self.upstream.in_flight()))

    async def connected(self, *, first: bool) -> None:
        pass


@dataclass
class _Rig:
    upstream: Upstream
    hooks: _Hooks
    log: Path

    def lines(self) -> list[dict[str, Any]]:
        text = self.log.read_text(encoding="utf-8") if self.log.exists() else ""
        return [json.loads(line) for line in text.splitlines()]

    def calls(self, tool: str) -> list[dict[str, Any]]:
        return [m for m in self.lines() if m.get("method") == "tools/call" and m["params"]["name"] == tool]

    async def call(self, tool: str, args: dict[str, Any] | None = None, *, progress: bool = False) -> Any:
        caller = _Caller(wants_progress=progress)
        token = CURRENT_CALLER.set(caller)
        try:
            return await self.upstream.call_tool(tool, args or {}), caller
        finally:
            CURRENT_CALLER.reset(token)

    async def seen(self, predicate: Any) -> list[dict[str, Any]]:
        """The lines the child logged, once one satisfies `predicate` (the child logs asynchronously)."""
        with anyio.fail_after(5):
            while not any(predicate(m) for m in self.lines()):
                await anyio.sleep(0.01)
        return self.lines()


@asynccontextmanager
async def _rig(tmp_path: Path, *, timeout_s: float = 5.0) -> AsyncIterator[_Rig]:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    log = tmp_path / "stdin.log"
    upstream = Upstream(
        UpstreamSpec(argv=(sys.executable, str(script), str(log))),
        timeout_s=timeout_s,
        ping_timeout_s=0.5,
        stderr_path=tmp_path / "upstream.stderr.log",
        environ=dict(os.environ),
        max_result_bytes=10_000,
    )
    hooks = _Hooks(upstream)
    upstream.hooks = hooks
    with anyio.fail_after(30):
        async with upstream:
            assert upstream.alive, upstream.last_error
            await upstream.list_tools()  # the gateway lists before it calls
            yield _Rig(upstream, hooks, log)


@pytest.mark.anyio
@requirement("S-PERF-05")
async def test_a_plain_call_takes_the_lane_and_returns_what_the_sdk_path_returns(tmp_path: Path) -> None:
    """S-PERF-05: the request line carries a `gw-` id, compact JSON, and the result equals the SDK path's."""
    async with _rig(tmp_path) as rig:
        lean, _ = await rig.call("echo", {"text": "héllo"})
        sdk, _ = await rig.call("echo", {"text": "héllo"}, progress=True)
        first, second = rig.calls("echo")
    assert first["id"] == "gw-1" and isinstance(second["id"], int)
    assert first["params"] == {"name": "echo", "arguments": {"text": "héllo"}}
    assert lean == sdk
    assert lean["content"] == [{"type": "text", "text": json.dumps({"text": "héllo"})}]
    assert lean["_meta"] == {"kept": True} and "unknownKey" not in lean
    raw = (tmp_path / "stdin.log").read_bytes().splitlines()
    assert any(line.startswith(b'{"jsonrpc":"2.0","id":"gw-1"') and "héllo".encode() in line for line in raw)


@pytest.mark.anyio
@requirement("S-PERF-05", "S-PROTO-04")
async def test_a_client_that_asked_for_progress_keeps_the_sdk_path_and_gets_the_progress(tmp_path: Path) -> None:
    """S-PERF-05: with a progress token the SDK sends the call (integer id, its token) and relays progress."""
    async with _rig(tmp_path) as rig:
        result, caller = await rig.call("progress", progress=True)
        (sent,) = rig.calls("progress")
    assert isinstance(sent["id"], int)
    assert sent["params"]["_meta"]["progressToken"] == sent["id"]
    assert caller.updates == [(1.0, 2.0, None)]
    assert result["content"][0]["text"] == "done"


@pytest.mark.anyio
@requirement("S-PERF-05", "S-UPS-01", "S-UPS-08")
async def test_a_lane_call_that_times_out_is_forgotten_and_cancelled_upstream(tmp_path: Path) -> None:
    """S-UPS-01/08: the timeout cancels the lane request (notifications/cancelled names its id); the process is kept."""
    async with _rig(tmp_path, timeout_s=0.5) as rig:
        with pytest.raises(UpstreamTimeout) as caught:
            await rig.call("slow")
        lane = rig.upstream.lane_for(rig.upstream._client)  # type: ignore[arg-type]
        assert lane is not None and not lane.pending
        lines = await rig.seen(lambda m: m.get("method") == "notifications/cancelled")
        again, _ = await rig.call("echo", {"n": 1})  # the same process answers the next call
        assert rig.upstream.restarts == 0 and rig.upstream.hung_kills == 0
    assert caught.value.code == "UPSTREAM_TIMEOUT"
    (cancel,) = [m for m in lines if m.get("method") == "notifications/cancelled"]
    assert cancel["params"]["requestId"] == rig.calls("slow")[0]["id"] == "gw-1"
    assert again["content"][0]["text"] == '{"n": 1}'


@pytest.mark.anyio
@requirement("S-PERF-05", "S-UPS-07")
async def test_a_lane_call_to_a_hung_upstream_kills_it_as_before(tmp_path: Path) -> None:
    """S-UPS-07: no answer and no ping answer: UPSTREAM_HUNG, the child is killed and restarted."""
    async with _rig(tmp_path, timeout_s=0.5) as rig:
        with pytest.raises(UpstreamError) as caught:
            await rig.call("hang")
        assert rig.upstream.hung_kills == 1
        assert rig.calls("hang")[0]["id"] == "gw-1"
    assert caught.value.code == "UPSTREAM_HUNG"


@pytest.mark.anyio
@requirement("S-PERF-05", "S-UPS-02")
async def test_the_connections_end_fails_a_pending_lane_call_as_upstream_died(tmp_path: Path) -> None:
    """S-UPS-02: the child exits mid-call: UPSTREAM_DIED with its stderr tail, and the upstream restarts."""
    async with _rig(tmp_path) as rig:
        with pytest.raises(UpstreamError) as caught:
            await rig.call("die")
        assert rig.upstream.restarts == 1
        assert rig.calls("die")[0]["id"] == "gw-1"
    assert caught.value.code == "UPSTREAM_DIED"
    assert "the child dies now" in (caught.value.stderr_tail or "")


@pytest.mark.anyio
@requirement("S-PERF-05")
async def test_a_closed_lane_fails_new_and_pending_calls_with_connection_closed() -> None:
    """S-UPS-02: after `close` every call raises the SDK's CONNECTION_CLOSED error (mapped to UPSTREAM_DIED)."""
    send, receive = anyio.create_memory_object_stream[Any](1)
    lane = Lane(send)
    outcome: list[BaseException] = []

    async def pending() -> None:
        try:
            await lane.call("tools/call", {"name": "x"})
        except MCPError as exc:
            outcome.append(exc)

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(pending)
            await receive.receive()
            lane.close()
        with pytest.raises(MCPError) as later:
            await lane.call("tools/call", {"name": "y"})
    send.close()
    receive.close()
    assert [getattr(e, "code", None) for e in (*outcome, later.value)] == [types.CONNECTION_CLOSED] * 2


@pytest.mark.anyio
@requirement("S-PERF-05", "S-UPS-10")
async def test_an_oversize_lane_answer_is_result_too_large_and_the_connection_stays(tmp_path: Path) -> None:
    """S-UPS-10: a lane answer over max_result_bytes becomes RESULT_TOO_LARGE; the next call works."""
    async with _rig(tmp_path) as rig:
        with pytest.raises(UpstreamError) as caught:
            await rig.call("big")
        after, _ = await rig.call("echo")
        assert rig.upstream.restarts == 0
    assert caught.value.code == "RESULT_TOO_LARGE"
    assert after["content"][0]["text"] == "{}"


@pytest.mark.anyio
@requirement("S-PERF-05", "S-UPS-05")
async def test_an_error_answer_on_the_lane_keeps_its_code_and_data(tmp_path: Path) -> None:
    """S-UPS-05: the upstream's JSON-RPC error is passed on with its code, message and data."""
    async with _rig(tmp_path) as rig:
        with pytest.raises(UpstreamProtocolError) as caught:
            await rig.call("fail")
    assert (caught.value.rpc_code, str(caught.value), caught.value.rpc_data) == (-32042, "nope", {"why": 1})


@pytest.mark.anyio
@requirement("S-PERF-05", "S-UPS-05")
async def test_a_malformed_lane_result_is_upstream_bad_answer(tmp_path: Path) -> None:
    """S-UPS-05: a result that is no CallToolResult is UPSTREAM_BAD_ANSWER, as on the SDK path."""
    async with _rig(tmp_path) as rig:
        for progress in (False, True):
            with pytest.raises(UpstreamError) as caught:
                await rig.call("bad", progress=progress)
            assert caught.value.code == "UPSTREAM_BAD_ANSWER"
        assert [type(m["id"]) for m in rig.calls("bad")] == [str, int]


@pytest.mark.anyio
@requirement("S-PERF-05")
async def test_structured_content_is_checked_against_the_output_schema_as_the_sdk_does(tmp_path: Path) -> None:
    """S-PERF-05: content off the tool's outputSchema raises the SDK's own RuntimeError on both paths."""
    async with _rig(tmp_path) as rig:
        messages = []
        for progress in (False, True):
            with pytest.raises(RuntimeError) as caught:
                await rig.call("typed", {"n": "x"}, progress=progress)
            messages.append(str(caught.value))
        good, _ = await rig.call("typed", {"n": 3})
        assert [type(m["id"]) for m in rig.calls("typed")] == [str, int, str]
    assert messages[0] == messages[1] and messages[0].startswith("Invalid structured content returned by tool typed")
    assert good["structuredContent"] == {"n": 3}


@pytest.mark.anyio
@requirement("S-PERF-05", "S-PROTO-05")
async def test_what_the_upstream_asks_or_says_mid_lane_call_reaches_the_calling_client(tmp_path: Path) -> None:
    """S-PROTO-05: a sampling request and a log notification sent mid-call find the call in flight."""
    async with _rig(tmp_path) as rig:
        sampled, caller = await rig.call("sample")
        logged, _ = await rig.call("log")
        assert [type(m["id"]) for m in rig.calls("sample") + rig.calls("log")] == [str, str]
    assert sampled["content"][0]["text"] == "sampled"
    assert logged["content"][0]["text"] == "logged"
    ((method, in_flight),) = rig.hooks.asked
    assert method == "sampling/createMessage" and len(in_flight) == 1 and isinstance(in_flight[0], _Caller)
    assert [(m, len(f)) for m, f in rig.hooks.notes] == [("notifications/message", 1)]


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',  # the SDK's own request
        b'{"jsonrpc":"2.0","id":"gw-1","method":"sampling/createMessage","params":{}}',  # a request, not an answer
        b'{"jsonrpc":"2.0","id":"gw-9","result":{"content":[]}}',  # a lane id no longer pending
        b'{"jsonrpc":"2.0","id":"gw-1","result":"not an object"}',  # malformed: the SDK's parsing judges it
        b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"\\"gw-1"}}',
        b'not json "gw-',
    ],
)
@requirement("S-PERF-05")
def test_a_line_that_is_not_a_pending_lane_answer_goes_on_to_the_session(line: bytes) -> None:
    """S-PERF-05: only a well-formed answer to a pending lane id is taken; every other line is the SDK's."""
    send, receive = anyio.create_memory_object_stream[Any](1)
    lane = Lane(send)
    lane._pending["gw-1"] = _slot()
    assert lane.take(line, 100) is False
    assert lane.take(Oversize(size=200, head=b'{"jsonrpc":"2.0","id":7,"result":{'), 100) is False
    send.close()
    receive.close()


@requirement("S-PERF-05")
def test_the_lane_result_leaves_out_what_as_wire_leaves_out() -> None:
    """S-PERF-05: nulls, unknown top-level keys and the upstream's identity stamp go; resultType is the default."""
    raw = {
        "content": [{"type": "text", "text": "a", "annotations": None}],
        "isError": False,
        "structuredContent": None,
        "resultType": None,
        "other": 1,
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "x"}},
    }
    assert wire_result(raw) == {"content": [{"type": "text", "text": "a"}], "isError": False, "resultType": "complete"}


def _slot() -> Any:
    from gateway.upstream.lane import _Slot

    return _Slot()
