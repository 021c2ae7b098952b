"""Step definitions for features/protocol.feature and features/http.feature (S-PROTO-*, S-HTTP-*, S-UPS-02).

The async rigs run in an anyio blocking portal; the steps call the same rigs
(`tests.e2e._proto_rig`) and public functions (`gateway.cli.commands.main`) the e2e tests call.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import signal
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import anyio.from_thread
import httpx2
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.app import open_gateway
from gateway.cli import main as cli_main
from gateway.config.load import load_config
from gateway.protocol.sessions import session_of
from gateway.transport.http_guard import TOKEN_FILE, parse_bind, resolve_settings
from gateway.upstream.supervisor import UpstreamSpec
from tests.e2e._proto_rig import (
    TOKEN,
    ClientProbe,
    direct,
    http_client,
    http_server,
    in_process,
    proto_gateway,
    proto_spec,
    wire,
)
from tests.e2e.harness import annotation_of, first_text, sim_spec
from tests.e2e.test_protocol_inspector import OWN_TOOLS, UPSTREAM_TOOLS, run_inspector
from tests.e2e.test_protocol_routing import set_floor, sleeping_call, stats, subscribe
from tests.e2e.test_upstream_lifecycle import SNAPSHOT_SAMPLE

scenarios("protocol.feature", "http.feature")


class World:
    """One scenario: the portal, what it entered, and what it saw."""

    def __init__(self, portal: anyio.from_thread.BlockingPortal, tmp: Path) -> None:
        self.portal, self.tmp = portal, tmp
        self.stack = contextlib.ExitStack()
        self.app: Any = None
        self.settings: Any = None
        self.client: Client | None = None
        self.clients: list[Client] = []
        self.era = "legacy"
        self.probe = ClientProbe()
        self.result: dict[str, Any] = {}
        self.read: dict[str, Any] = {}
        self.status = 0
        self.observation = ""
        self.rc: int | None = None
        self.err = ""
        self.error: MCPError | None = None
        self.progress: list[str | None] = []
        self.tools: set[str] = set()
        self.session_key = ""
        self.bind: tuple[str, int] = ("", 0)
        self.token_runs: list[tuple[str | None, str]] = []

    def enter(self, cm: Any) -> Any:
        return self.stack.enter_context(self.portal.wrap_async_context_manager(cm))

    def call(self, name: str, args: dict[str, Any], client: Client | None = None) -> dict[str, Any]:
        target = client or self.client
        assert target is not None
        self.result = wire(self.portal.call(target.call_tool, name, args))
        return self.result


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with anyio.from_thread.start_blocking_portal("asyncio") as portal:
        w = World(portal, tmp_path)
        with w.stack:
            yield w


# -- protocol.feature -------------------------------------------------------------------------


@given("a gateway in front of the protocol upstream")
def _proto_gateway(world: World) -> None:
    world.app = world.enter(proto_gateway(world.tmp))


@given(parsers.parse("a {era} client of the gateway that answers sampling"))
@given(parsers.parse("a {era} client of the gateway"))
def _client(world: World, era: str) -> None:
    world.era = era
    world.client = world.enter(in_process(world.app, era, world.probe))


@when(parsers.parse('the client reads the resource "{uri}"'))
def _read(world: World, uri: str) -> None:
    assert world.client is not None
    try:
        world.read = wire(world.portal.call(world.client.read_resource, uri))
    except MCPError as exc:
        world.error = exc


@then(parsers.parse('it reads "{text}"'))
def _reads(world: World, text: str) -> None:
    assert world.read["contents"][0]["text"] == text


@then(parsers.parse("the read equals a direct read by a {era} client"))
def _equals_direct(world: World, era: str) -> None:
    reference = world.enter(direct(era))
    uri = world.read["contents"][0]["uri"]
    assert wire(world.portal.call(reference.read_resource, uri)) == world.read


@when(parsers.parse('the client calls "{tool}" with the prompt "{prompt}"'))
def _call_with_prompt(world: World, tool: str, prompt: str) -> None:
    world.call(tool, {"prompt": prompt})


@when(parsers.parse('the client calls "{tool}"'))
def _call(world: World, tool: str) -> None:
    world.call(tool, {})


@then(parsers.parse('the client was asked to sample "{prompt}"'))
def _asked(world: World, prompt: str) -> None:
    assert [(m, p["messages"][0]["content"]["text"]) for m, p in world.probe.asked] == [
        ("sampling/createMessage", prompt)
    ]


@then(parsers.parse('the result text is "{text}"'))
def _result_text(world: World, text: str) -> None:
    assert first_text(world.result) == text


@then(parsers.parse('the result starts with "{prefix}" and quotes the upstream\'s last words "{words}"'))
def _failed(world: World, prefix: str, words: str) -> None:
    assert world.result["isError"] is True and first_text(world.result).startswith(prefix + ": ")
    assert any(words in item.get("text", "") for item in world.result["content"][1:])


@then(parsers.parse('the answer begins "{prefix}"'))
def _answer_begins(world: World, prefix: str) -> None:
    assert first_text(world.result).startswith(prefix + ": "), first_text(world.result)


@then(parsers.parse('a call to "{tool}" answers again'))
def _answers_again(world: World, tool: str) -> None:
    assert first_text(world.call(tool, {"text": "again"})) == "again"


@then("the upstream was restarted once")
def _restarted(world: World) -> None:
    assert world.app.upstream.restarts == 1


# -- http.feature -----------------------------------------------------------------------------


@given("the gateway served over HTTP with a token")
def _http_proto(world: World) -> None:
    world.app = world.enter(proto_gateway(world.tmp))
    world.settings = world.enter(http_server(world.app))


@given("the gateway in front of the simulator served over HTTP")
def _http_sim(world: World) -> None:
    spec, _, _ = sim_spec(world.tmp, "default")
    world.app = world.enter(open_gateway(load_config(environ={}, state_dir=world.tmp / "state"), spec))
    world.settings = world.enter(http_server(world.app))


@given("two clients connected with the token")
def _two_clients(world: World) -> None:
    world.clients = [world.enter(http_client(world.settings, "legacy")) for _ in range(2)]


HOW = {
    "without a token": {},
    "with a wrong token": {"Authorization": "Bearer " + "w" * 32},
    "with the token and a forged Origin": {
        "Authorization": f"Bearer {TOKEN}",
        "Origin": "http://evil.example",
    },
    "with the token and a foreign Host": {"Authorization": f"Bearer {TOKEN}", "Host": "evil.example"},
    "with the token": {"Authorization": f"Bearer {TOKEN}"},
}


@when(parsers.parse("a request arrives {how}"))
def _request(world: World, how: str) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "bdd", "version": "1"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream", **HOW[how]}
    response = httpx2.post(world.settings.url("/mcp"), headers=headers, json=body, timeout=10)
    world.status = response.status_code


@then(parsers.parse("it is answered with status {status:d}"))
def _status(world: World, status: int) -> None:
    assert world.status == status


@when("the first client takes a Snapshot")
def _first_snapshot(world: World) -> None:
    line = annotation_of(world.call("Snapshot", {}, world.clients[0]))
    assert line is not None
    world.observation = line.split("obs=")[1].split()[0]


@when("the second client clicks based on the first client's observation")
def _second_clicks(world: World) -> None:
    world.call("Click", {"loc": [640, 480], "based_on": world.observation}, world.clients[1])


@then(parsers.parse('the second client is refused with "{code}"'))
def _refused(world: World, code: str) -> None:
    assert world.result["isError"] is True and first_text(world.result).startswith(f"DENIED {code}: ")


@when(parsers.parse('the gateway is started with "{flags}"'))
def _started(world: World, flags: str, capsys: pytest.CaptureFixture[str]) -> None:
    world.rc = cli_main(["serve", "--upstream", "sim", "--state-dir", str(world.tmp / "state"), *shlex.split(flags)])
    world.err = capsys.readouterr().err


@then(parsers.parse('it exits with {code:d} saying "{words}"'))
def _exits(world: World, code: int, words: str) -> None:
    assert world.rc == code and words in world.err


# -- protocol.feature: the rest of the message kinds and the lifecycle -------------------------


@given("a gateway whose upstream cannot start")
def _gateway_down(world: World) -> None:
    world.app = world.enter(proto_gateway(world.tmp, spec=UpstreamSpec(argv=("/nonexistent/windows-mcp",))))


@given(parsers.parse("a gateway in front of the protocol upstream with a {seconds:d} second timeout"))
def _gateway_timeout(world: World, seconds: int) -> None:
    world.app = world.enter(proto_gateway(world.tmp, upstream_timeout_s=seconds))


@given("a gateway in front of the protocol upstream that can take Snapshots")
def _gateway_snapshots(world: World) -> None:
    world.app = world.enter(proto_gateway(world.tmp, spec=proto_spec("--snapshot", str(SNAPSHOT_SAMPLE))))


@given(parsers.parse('the gateway\'s environment sets "{name}" to "{value}"'))
def _environment(world: World, name: str, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(name, value)


def _expect_error(world: World, op: Any, *args: Any) -> None:
    try:
        world.portal.call(op, *args)
    except MCPError as exc:
        world.error = exc
    else:
        raise AssertionError("expected a JSON-RPC error")


@when(parsers.parse('the client calls the unknown tool "{tool}"'))
def _unknown_tool(world: World, tool: str) -> None:
    assert world.client is not None
    _expect_error(world, world.client.call_tool, tool, {})


@then(parsers.parse('the client gets the JSON-RPC error {code:d} "{message}"'))
def _rpc_error(world: World, code: int, message: str) -> None:
    assert world.error is not None and (world.error.code, world.error.message) == (code, message)


@then(parsers.parse('the client gets a JSON-RPC error starting "{prefix}"'))
def _rpc_error_prefix(world: World, prefix: str) -> None:
    assert world.error is not None and world.error.message.startswith(prefix)


@then("the client lists only the gateway's own tools")
def _own_only(world: World) -> None:
    assert world.client is not None
    assert {t.name for t in world.portal.call(world.client.list_tools).tools} == OWN_TOOLS


@then(parsers.parse('a call to "{tool}" fails with "{prefix}"'))
def _fails_with(world: World, tool: str, prefix: str) -> None:
    assert first_text(world.call(tool, {})).startswith(prefix + ": ")


@then("the client is offered tools with list changes, prompts, resources, logging and completions")
def _offered(world: World) -> None:
    assert world.client is not None
    caps = world.client.server_capabilities
    assert caps.tools is not None and caps.tools.list_changed is True
    assert caps.prompts is not None and caps.resources is not None and caps.resources.subscribe is True
    assert caps.logging is not None and caps.completions is not None


@then("the client is offered nothing experimental")
def _nothing_experimental(world: World) -> None:
    assert world.client is not None and world.client.server_capabilities.experimental is None


@when(parsers.parse('the client calls "{tool}" with {steps:d} steps, watching progress'))
def _progress(world: World, tool: str, steps: int) -> None:
    assert world.client is not None

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        world.progress.append(message)

    world.result = wire(
        world.portal.call(
            lambda: world.client.call_tool(  # type: ignore[union-attr]
                tool, {"steps": steps}, progress_callback=on_progress
            )
        )
    )


@then(parsers.parse('the client saw the progress messages "{messages}"'))
def _saw_progress(world: World, messages: str) -> None:
    assert world.progress == messages.split(", ")


@when(parsers.parse('the client sets its log level to "{level}"'))
def _set_level(world: World, level: str) -> None:
    assert world.client is not None
    world.portal.call(set_floor, world.client, level)


@when(parsers.parse('the client has the upstream log "{low}" at "{low_level}" and "{high}" at "{high_level}"'))
def _logs(world: World, low: str, low_level: str, high: str, high_level: str) -> None:
    world.call("log", {"level": low_level, "message": low})
    world.call("log", {"level": high_level, "message": high})
    world.portal.call(world.probe.wait_log, high)


@then(parsers.parse('the client received only the log "{data}"'))
def _only_log(world: World, data: str) -> None:
    assert [entry["data"] for entry in world.probe.logs] == [data]


@when(parsers.parse('the client subscribes to "{uri}"'))
def _subscribe(world: World, uri: str) -> None:
    world.portal.call(subscribe, world.client, uri)


@when(parsers.parse('the client unsubscribes from "{uri}"'))
def _unsubscribe(world: World, uri: str) -> None:
    world.portal.call(subscribe, world.client, uri, False)


@when(parsers.parse('the upstream touches "{uri}"'))
def _touch(world: World, uri: str) -> None:
    world.call("touch", {"uri": uri})


@then(parsers.parse('the client is told "{method}"'))
def _told(world: World, method: str) -> None:
    world.portal.call(world.probe.wait_note, method)


@then(parsers.parse('the upstream holds the subscriptions "{uris}"'))
def _holds(world: World, uris: str) -> None:
    assert world.portal.call(stats, world.client)["subscribed"] == uris.split(", ")


@then("the upstream holds no subscriptions")
def _holds_none(world: World) -> None:
    assert world.portal.call(stats, world.client)["subscribed"] == []


@when("the upstream adds a tool")
def _adds_tool(world: World) -> None:
    assert world.client is not None
    world.portal.call(world.client.list_tools)
    world.call("change_tools", {})


@then(parsers.parse('the client\'s tool list includes "{tool}"'))
def _includes(world: World, tool: str) -> None:
    assert world.client is not None
    listed = world.portal.call(lambda: world.client.list_tools(cache_mode="refresh"))  # type: ignore[union-attr]
    assert tool in {t.name for t in listed.tools}


@when("the client cancels a sleeping call")
def _cancel(world: World) -> None:
    async def cancel() -> None:
        started, done = anyio.Event(), list[Any]()
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                tg.start_soon(sleeping_call, world.client, started, done)
                await started.wait()
                tg.cancel_scope.cancel()

    world.portal.call(cancel)


@then(parsers.parse("the upstream counts {count:d} cancellation"))
def _cancellations(world: World, count: int) -> None:
    async def wait() -> None:
        with anyio.fail_after(20):
            while (await stats(world.client))["cancelled"] < count:
                pass

    world.portal.call(wait)


@when(parsers.parse('the MCP Inspector CLI lists the tools of "{command}" over stdio'))
def _inspector(world: World, command: str) -> None:
    argv = [
        sys.executable,
        "-m",
        "gateway",
        *shlex.split(command)[1:],
        "--state-dir",
        str(world.tmp / "state"),
    ]
    answer = world.portal.call(lambda: run_inspector(world.tmp, "--method", "tools/list", "--", *argv))
    world.tools = {t["name"] for t in answer["tools"]}


@then("it sees the 21 upstream tools and the 6 gateway tools")
def _inspector_sees(world: World) -> None:
    assert world.tools == UPSTREAM_TOOLS | OWN_TOOLS and len(world.tools) == 27


@when("the client takes a Snapshot")
def _snapshot(world: World) -> None:
    line = annotation_of(world.call("Snapshot", {}))
    assert line is not None
    world.observation = line.split("obs=")[1].split()[0]


@when("the upstream process is killed while idle")
def _kill_idle(world: World) -> None:
    lost = anyio.Event()
    world.app.upstream.on_lost.append(lost.set)
    os.kill(world.portal.call(stats, world.client)["pid"], signal.SIGTERM)

    async def wait() -> None:
        with anyio.fail_after(20):
            await lost.wait()

    world.portal.call(wait)


@when("the client clicks based on that Snapshot")
def _click_on_snapshot(world: World) -> None:
    world.call("Click", {"loc": [10, 10], "based_on": world.observation})


@then(parsers.parse('the upstream sees "{name}" as "{value}"'))
def _upstream_env(world: World, name: str, value: str) -> None:
    assert name == "PROTO_UPSTREAM_ECHO" and world.portal.call(stats, world.client)["env"] == value


# -- http.feature: binds, tokens, health, session keys ----------------------------------------


@when(parsers.parse('the bind "{bind}" is parsed'))
def _parse_bind(world: World, bind: str) -> None:
    world.bind = parse_bind(bind)


@then(parsers.parse('the gateway listens on host "{host}" port {port:d}'))
def _listens(world: World, host: str, port: int) -> None:
    assert world.bind == (host, port)


@given("an empty state dir")
def _empty_state(world: World) -> None:
    assert not (world.tmp / "state").exists()


@when("the HTTP settings are resolved twice")
def _resolved_twice(world: World) -> None:
    config = load_config(environ={}, state_dir=world.tmp / "state")
    for _ in range(2):
        err = io.StringIO()
        settings = resolve_settings(
            config,
            "127.0.0.1:0",
            token=None,
            no_auth=False,
            allow_hosts=(),
            allow_origins=(),
            environ={},
            stderr=err,
        )
        world.token_runs.append((settings.token, err.getvalue()))


@then(parsers.parse('the token file "{name}" holds the token with mode 0600'))
def _token_file(world: World, name: str) -> None:
    assert name == TOKEN_FILE
    path = world.tmp / "state" / name
    token = world.token_runs[0][0]
    assert token and path.read_text().strip() == token == world.token_runs[1][0]
    if os.name != "nt":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


@then("the token was printed the first time only")
def _printed_once(world: World) -> None:
    (token, first), (_, second) = world.token_runs
    assert token is not None and token in first and token not in second


@when("/healthz is fetched without a token")
def _healthz(world: World) -> None:
    response = httpx2.get(world.settings.url("/healthz"), timeout=10)
    world.status, world.result = response.status_code, response.json()


@then(parsers.parse('the body is exactly status "{status}" and upstream "{upstream}"'))
def _health_body(world: World, status: str, upstream: str) -> None:
    assert world.result == {"status": status, "upstream": upstream}


def _fake_ctx(session_id: str | None, http: bool, name: str | None) -> Any:
    params = SimpleNamespace(client_info=SimpleNamespace(name=name)) if name else None
    return SimpleNamespace(
        session=SimpleNamespace(_connection=SimpleNamespace(session_id=session_id), client_params=params),
        request=object() if http else None,
    )


@when(parsers.parse("the session key is computed for a request {kind}"))
def _session_key(world: World, kind: str) -> None:
    if kind == "over stdio":
        ctx = _fake_ctx(None, False, None)
    elif kind.startswith("over 2025-11-25 HTTP in session "):
        ctx = _fake_ctx(kind.split('"')[1], True, None)
    elif kind == "over 2026-07-28 HTTP from an unnamed client":
        ctx = _fake_ctx(None, True, None)
    else:
        ctx = _fake_ctx(None, True, kind.split('"')[1])
    world.session_key = session_of(ctx)


@then(parsers.parse('its session key is "{key}"'))
def _key_is(world: World, key: str) -> None:
    # `<process>` is this gateway process's random nonce: no other process or later run repeats the key.
    from gateway.protocol.sessions import PROCESS_NONCE

    assert world.session_key == key.replace("<process>", PROCESS_NONCE)


@then(parsers.parse('its session key starts with "{prefix}" and does not contain "{secret}"'))
def _key_hides(world: World, prefix: str, secret: str) -> None:
    assert world.session_key.startswith(prefix) and secret not in world.session_key
