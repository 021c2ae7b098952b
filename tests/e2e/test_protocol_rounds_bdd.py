"""Step definitions for features/protocol_rounds.feature (S-PROTO-20..25, S-HTTP-20, S-HTTP-21).

The async rigs run in an anyio blocking portal; the steps use the same rigs and helpers as the
e2e tests (`tests.e2e._proto_rig`, `tests.e2e.test_input_rounds_e2e`, `tests.e2e.test_resumable_http_e2e`).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import anyio.from_thread
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.subscriptions import ToolsListChanged
from mcp.shared.exceptions import MCPError
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.protocol.waiting_call import STATE_PREFIX, run_interactive
from gateway.transport.event_store import MAX_BYTES, MAX_EVENTS, SessionEventStore
from tests._requirements import REPO
from tests.e2e._proto_rig import ClientProbe, http_client, http_server, in_process, proto_gateway
from tests.e2e.rounds_upstream import key
from tests.e2e.test_input_rounds_e2e import (
    capabilities_seen,
    decisions,
    direct_text,
    drive,
    replay_rounds,
    rounds_gateway,
    rounds_spec,
    seeded_call,
    text_of,
)
from tests.e2e.test_resumable_http_e2e import events, open_session, resume

pytestmark = pytest.mark.e2e

scenarios("protocol_rounds.feature")

SCRIPT = REPO / "scripts" / "conformance.py"


class World:
    def __init__(self, portal: anyio.from_thread.BlockingPortal, tmp: Path) -> None:
        self.portal, self.tmp = portal, tmp
        self.stack = contextlib.ExitStack()
        self.app: Any = None
        self.settings: Any = None
        self.client: Client | None = None
        self.era = "auto"
        self.probe = ClientProbe()
        self.result: Any = None
        self.error: MCPError | None = None
        self.run: subprocess.CompletedProcess[str] | None = None
        self.report: dict[str, Any] = {}
        self.rounds: list[tuple[list[str], str]] = []
        self.sub: Any = None
        self.http: httpx2.AsyncClient | None = None
        self.headers: dict[str, str] = {}
        self.priming = ""
        self.replayed: list[Any] = []
        self.store = SessionEventStore()
        self.ids: list[str] = []
        self.ran: list[str] = []

    def enter(self, cm: Any) -> Any:
        return self.stack.enter_context(self.portal.wrap_async_context_manager(cm))

    def stats(self) -> dict[str, Any]:
        assert self.client is not None
        return dict(self.portal.call(self.client.call_tool, "stats", {}).structured_content or {})


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with anyio.from_thread.start_blocking_portal("asyncio") as portal:
        w = World(portal, tmp_path)
        with w.stack:
            yield w


# -- the conformance suite --------------------------------------------------------------------


@given("the pinned conformance suite and everything server")
def _pinned(world: World) -> None:
    assert (REPO / ".tools" / "conformance" / "node_modules" / "@modelcontextprotocol" / "conformance").is_dir()


@when("the suite runs in both eras against both upstreams directly and through the gateway")
def _suite(world: World) -> None:
    out = world.tmp / "report.json"
    world.run = subprocess.run(
        [sys.executable, str(SCRIPT), "--json", str(out)], capture_output=True, text=True, timeout=900, check=False
    )
    assert world.run.returncode in (0, 1), world.run.stderr
    world.report = json.loads(out.read_text(encoding="utf-8"))


@then("no check is worse through the gateway than directly")
def _no_regression(world: World) -> None:
    assert world.run is not None and world.run.returncode == 0, world.run.stdout if world.run else ""
    for measured in world.report["upstreams"].values():
        assert all(f["regressions"] == [] for f in measured["eras"].values())


@then("both eras report P/T for each upstream directly and through the gateway")
def _figures(world: World) -> None:
    assert world.run is not None
    assert set(world.report["upstreams"]) == {"everything", "python"}
    for upstream, measured in world.report["upstreams"].items():
        for era in ("2025-11-25", "2026-07-28"):
            figures = measured["eras"][era]
            assert figures["direct"]["total"] > 0 and figures["gateway"]["total"] > 0
            line = f"{upstream} {era}: direct {figures['direct']['passed']}/{figures['direct']['total']}"
            assert line in world.run.stdout


@when("the conformance script runs without the suite installed")
def _no_suite(world: World) -> None:
    world.run = subprocess.run(
        [sys.executable, str(SCRIPT), "--tools", str(world.tmp / "none")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@then("it exits 2 naming what is not installed")
def _exit_2(world: World) -> None:
    assert world.run is not None and world.run.returncode == 2
    assert "@modelcontextprotocol/conformance is not installed" in world.run.stderr


# -- rounds -----------------------------------------------------------------------------------


@given(parsers.parse("a gateway in front of the rounds upstream for a {era} client without sampling"))
def _rounds_no_sampling(world: World, era: str) -> None:
    world.era, world.probe = era, ClientProbe(sampling=False)
    world.app = world.enter(rounds_gateway(world.tmp, era))
    world.client = world.enter(in_process(world.app, era, world.probe))


@given(parsers.parse("a gateway in front of the rounds upstream for a {era} client"))
def _rounds(world: World, era: str) -> None:
    world.era = era
    world.app = world.enter(rounds_gateway(world.tmp, era))
    world.client = world.enter(in_process(world.app, era, world.probe))


@given("a gateway in front of the rounds upstream that requires approval")
def _rounds_approval(world: World) -> None:
    world.app = world.enter(proto_gateway(world.tmp, spec=rounds_spec(), upstream_mode="auto", require_approval=True))
    world.client = world.enter(in_process(world.app, "auto", world.probe))


@when(parsers.parse('the client calls "{tool}" with {rounds:d} rounds'))
def _call_rounds(world: World, tool: str, rounds: int) -> None:
    assert world.client is not None
    world.result = world.portal.call(world.client.call_tool, tool, {"rounds": rounds})
    world.rounds = [([], str(rounds))]


@when(parsers.parse('the client calls "{tool}" asking only for sampling'))
def _call_sampling(world: World, tool: str) -> None:
    assert world.client is not None
    try:
        world.portal.call(world.client.call_tool, tool, {"rounds": 1, "kinds": ["sampling"]})
    except MCPError as exc:
        world.error = exc


@when(parsers.parse('the client runs "{tool}" answering every round'))
def _drive(world: World, tool: str) -> None:
    assert world.client is not None
    world.rounds, world.result = world.portal.call(drive, world.client.session, tool, {"command": "Get-Date"})


@then(parsers.parse("the result equals the same call made directly by a {era} client"))
def _equals_direct(world: World, era: str) -> None:
    rounds = int(world.rounds[0][1])
    assert text_of(world.result) == world.portal.call(direct_text, era, rounds)


@then(parsers.parse("the client was asked {count:d} questions"))
def _asked(world: World, count: int) -> None:
    assert len(world.probe.asked) == count


@then(parsers.parse("the upstream completed the tool {count:d} times"))
@then("the upstream completed the tool once")
def _completed(world: World, count: int = 1) -> None:
    assert world.stats()["completed"] == count


@then(parsers.parse('the audit holds one decision for "{tool}"'))
def _one_decision(world: World, tool: str) -> None:
    world.stack.close()  # the gateway closes: the audit is complete on disk
    assert len(decisions(world.tmp, tool)) == 1


@then("the rounds were the gateway's approval, then the upstream's question")
def _approval_then_upstream(world: World) -> None:
    assert [keys for keys, _ in world.rounds] == [["winmcp-approval"], [key("elicitation", 1)]]
    assert world.rounds[0][1] != STATE_PREFIX and world.rounds[1][1] == STATE_PREFIX
    assert text_of(world.result) == "elicitation1=accept:fine"


@then(parsers.parse('the audit holds one ask and one allow for "{tool}"'))
def _ask_and_allow(world: World, tool: str) -> None:
    world.stack.close()
    found = [line["event"] for line in decisions(world.tmp, tool)]
    assert found.count("ask") == 1 and found.count("allow") == 1 and "deny" not in found


@then(parsers.parse('the call fails with -32021 naming the "{capability}" capability'))
def _missing_capability(world: World, capability: str) -> None:
    assert world.error is not None and world.error.code == -32021
    assert world.error.error.data == {"requiredCapabilities": {capability: {}}}
    assert world.probe.asked == []


@when("a 2026-07-28 call arrives with inputResponses null")
def _null_responses(world: World) -> None:
    async def work() -> Any:
        world.ran.append("work")
        return {}

    ctx = SimpleNamespace(protocol_version="2026-07-28", params={"name": "t", "inputResponses": None})
    try:
        world.portal.call(
            lambda: run_interactive(
                ctx, "s", binding="b", request_state=None, input_responses=None, work=work, log_floor=lambda _s: None
            )
        )
    except MCPError as exc:
        world.error = exc


@then("it is refused with -32602 and no work ran")
def _refused_32602(world: World) -> None:
    assert world.error is not None and world.error.code == types.INVALID_PARAMS and world.ran == []


# -- list changes and resumable streams -------------------------------------------------------


@when("the client answers 3 rounds, replaying round 1's state once")
def _replay(world: World) -> None:
    assert world.client is not None
    world.ids, refusal, world.result = world.portal.call(replay_rounds, world.client)
    world.ran = [str(code) for code in refusal]


@then("every round carried a fresh gateway state")
def _fresh_states(world: World) -> None:
    assert len(world.ids) == 3 and len(set(world.ids)) == 3
    assert all(state.startswith(STATE_PREFIX) for state in world.ids)


@then("the replayed state was refused without reaching the upstream")
def _replay_refused(world: World) -> None:
    assert world.ran == [str(types.INVALID_PARAMS), "0"]
    assert text_of(world.result) == "elicitation1=accept:r1 elicitation2=accept:r2 elicitation3=accept:r3"


@when("the client's first call carries its answer, an unknown key and the approval key")
def _seeded(world: World) -> None:
    assert world.client is not None
    world.result = world.portal.call(seeded_call, world.client)


@then("the call completed in one upstream round that saw every key but the approval key")
def _seen_keys(world: World) -> None:
    assert isinstance(world.result, types.CallToolResult)
    assert text_of(world.result) == "elicitation1=accept:seeded"
    seen = world.stats()
    assert seen["handled"] == 1 and seen["completed"] == 1
    assert seen["keys"] == [sorted([key("elicitation", 1), "unknown_extra"])]


@when(parsers.parse('the client calls "{tool}" asking for elicitation and roots'))
def _call_narrow(world: World, tool: str) -> None:
    assert world.client is not None and tool == "interview"
    world.result = world.portal.call(capabilities_seen, world.client, ["elicitation", "roots"])


@then("the upstream was told of elicitation and roots only, in every round of the call")
def _told_narrow(world: World) -> None:
    text, caps = world.result
    assert text.startswith("elicitation1=accept:") and "roots1=" in text
    assert caps == [["elicitation", "roots"], ["elicitation", "roots"]]


@given("a gateway in front of the protocol upstream served over HTTP")
def _http_gateway(world: World) -> None:
    world.app = world.enter(proto_gateway(world.tmp))
    world.settings = world.enter(http_server(world.app))


@given("a 2026-07-28 HTTP client listening for tool changes")
def _listening(world: World) -> None:
    world.client = world.enter(http_client(world.settings, "auto"))
    world.sub = world.enter(world.client.listen(tools_list_changed=True))


@when("the upstream changes its tools")
def _change_tools(world: World) -> None:
    assert world.client is not None
    world.portal.call(world.client.call_tool, "change_tools", {})


@then("the listen stream carries tools/list_changed")
def _heard(world: World) -> None:
    async def first() -> Any:
        with anyio.fail_after(10):
            async for event in world.sub:
                return event
        return None

    assert world.portal.call(first) == ToolsListChanged()


@given("a raw 2025-11-25 HTTP session")
def _raw_session(world: World) -> None:
    world.http = world.enter(httpx2.AsyncClient())
    world.headers = world.portal.call(open_session, world.http, world.settings)


@when(parsers.parse('the session calls "{tool}" and reconnects with the priming event\'s id'))
def _call_and_resume(world: World, tool: str) -> None:
    assert world.http is not None
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": {"text": "x"}}}
    answered = world.portal.call(lambda: world.http.post(world.settings.url("/mcp"), headers=world.headers, json=call))  # type: ignore[union-attr]
    world.priming = events(answered.text)[0]["id"]
    world.replayed = world.portal.call(resume, world.http, world.settings, world.headers, world.priming)


@then("the missed result is replayed")
def _replayed(world: World) -> None:
    assert [m["id"] for m in world.replayed] == [2]
    assert world.replayed[0]["result"]["content"][0]["text"] == "x"


@then("another session presenting that id gets nothing")
def _other_session(world: World) -> None:
    assert world.http is not None
    other = world.portal.call(open_session, world.http, world.settings)
    assert world.portal.call(resume, world.http, world.settings, other, world.priming) == []


@given("a session's replay buffer")
def _buffer(world: World) -> None:
    world.store = SessionEventStore()


@when("three times its event bound of messages are stored")
def _fill(world: World) -> None:
    async def fill() -> list[str]:
        note = types.JSONRPCNotification(jsonrpc="2.0", method="notifications/message", params={"n": 1})
        return [await world.store.store_event("1", note) for _ in range(MAX_EVENTS * 3)]

    world.ids = world.portal.call(fill)


@then("it holds at most 512 events and 1 MiB")
def _bounded(world: World) -> None:
    held, size = world.store.held
    assert (MAX_EVENTS, MAX_BYTES) == (512, 1 << 20)
    assert held == MAX_EVENTS and size <= MAX_BYTES


@then("the first event's id replays nothing")
def _dropped(world: World) -> None:
    async def replay() -> Any:
        async def send(_event: Any) -> None:
            raise AssertionError("a dropped id replayed a message")

        return await world.store.replay_events_after(world.ids[0], send)

    assert world.portal.call(replay) is None
