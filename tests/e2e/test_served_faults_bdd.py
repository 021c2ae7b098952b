"""Binds features/served_faults.feature: malformed input through a running gateway (S-MSG-06/08/09, S-ARG-07/09).

The steps drive the same servers the end-to-end tests do (tests/e2e/test_malformed_messages.py,
tests/e2e/test_malformed_messages_fuzz.py); the argument scenario uses the validators the
gateway compiles from upstream's tool list (gateway/pipeline/arguments.py).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from jsonschema import validators  # type: ignore[import-untyped]
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.app import open_gateway
from gateway.config.load import load_config
from gateway.pipeline.arguments import argument_problem, compile_schemas
from tests.e2e._proto_rig import TOKEN, http_server
from tests.e2e.harness import sim_spec
from tests.e2e.test_malformed_messages import INITIALIZE, stdio_child
from tests.e2e.test_malformed_messages_fuzz import answer_due, running_gateway

scenarios("served_faults.feature")
pytestmark = pytest.mark.e2e  # a stdio child, an HTTP server, a gateway in process

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
           "Authorization": f"Bearer {TOKEN}"}  # fmt: skip
# Lines a careless or hostile client may send: malformed ones and valid ones, each with its own id slot.
POOL = [
    "not json", "42", "[]", '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    '{"jsonrpc":"2.0","id":{ID},"method":"ping"}', '{"jsonrpc":"2.0","id":{ID},"method":5}',
    '{"jsonrpc":"2.0","id":{ID},"method":"tools/call","params":[1]}', '{"jsonrpc":"2.0","method":"notifications/x"}',
    '{"jsonrpc":"2.0","id":{ID},"result":{}}', '{"jsonrpc":"1.0","id":{ID},"method":"ping"}', "\xff\xfe", "{",
    '{"jsonrpc":"2.0","id":{ID},"method":"tools/list"}',
]  # fmt: skip


@dataclass
class World:
    tmp: Path
    facts: dict[str, Any] = field(default_factory=dict)


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp=tmp_path)


@given("the gateway runs as a stdio child")
def _stdio(world: World) -> None:
    world.facts["transport"] = "stdio"


@when(parsers.parse('the client sends the line "{line}" and then a ping'))
def _send_then_ping(world: World, line: str) -> None:
    async def go() -> None:
        with anyio.fail_after(60):
            await exchange()

    async def exchange() -> None:
        async with stdio_child(world.tmp) as child:
            await child.initialize()
            await child.send(line.encode())
            world.facts["refusal"] = await child.receive()
            await child.send(json.dumps({"jsonrpc": "2.0", "id": "after", "method": "ping"}).encode())
            world.facts["ping"] = await child.receive()

    anyio.run(go)


@then(parsers.parse("the line is answered with code {code:d} and the ping is answered"))
def _answered(world: World, code: int) -> None:
    assert world.facts["refusal"]["error"]["code"] == code and world.facts["refusal"]["id"] is None
    assert world.facts["ping"] == {"jsonrpc": "2.0", "id": "after", "result": {}}


@given("the gateway serves HTTP")
def _http(world: World) -> None:
    world.facts["transport"] = "http"


@when(parsers.parse('the client posts the body "{body}" and then an initialize'))
def _post(world: World, body: str) -> None:
    async def go() -> None:
        with anyio.fail_after(60):
            await posts()

    async def posts() -> None:
        spec, _, _ = sim_spec(world.tmp, "default")
        config = load_config(environ={}, state_dir=world.tmp / "state")
        async with open_gateway(config, spec) as app, http_server(app) as settings, httpx2.AsyncClient() as http:
            world.facts["bad"] = await http.post(settings.url("/mcp"), headers=HEADERS, content=body.encode())
            world.facts["ok"] = await http.post(settings.url("/mcp"), headers=HEADERS, json=INITIALIZE)

    anyio.run(go)


@then(parsers.parse("the body is answered {status:d} with code {code:d} and the initialize is answered 200"))
def _http_answered(world: World, status: int, code: int) -> None:
    bad, ok = world.facts["bad"], world.facts["ok"]
    assert bad.status_code == status and bad.json()["error"]["code"] == code
    assert ok.status_code == 200


@when(parsers.parse("{count:d} generated messages are thrown at a gateway in process"))
def _throw(world: World, count: int) -> None:
    rng = random.Random(20261203)

    async def go() -> None:
        missing: list[str] = []
        async with running_gateway(world.tmp) as (to_gateway, from_gateway):
            for n in range(count):
                line = rng.choice(POOL).replace("{ID}", str(rng.choice([n, f"m{n}"])))
                await to_gateway.send(line.encode("utf-8", "surrogateescape") + b"\n")
                await to_gateway.send(
                    json.dumps({"jsonrpc": "2.0", "id": f"probe{n}", "method": "ping"}).encode() + b"\n"
                )
                due, rid = answer_due(line.encode("utf-8", "surrogateescape"))
                ids: list[Any] = []
                with anyio.fail_after(10):
                    while f"probe{n}" not in ids or (due and rid not in ids):
                        message = json.loads(await from_gateway.receive())
                        if "method" not in message:
                            ids.append(message.get("id"))
                if due and rid not in ids:
                    missing.append(line)
            await to_gateway.send(b'{"jsonrpc":"2.0","id":"last","method":"ping"}\n')
            with anyio.fail_after(10):
                while json.loads(await from_gateway.receive()).get("id") != "last":
                    pass
            world.facts["missing"] = missing
            world.facts["alive"] = True

    anyio.run(go)


@then("every message that is due an answer got one and the gateway still answers a ping")
def _all_answered(world: World) -> None:
    assert world.facts["missing"] == [] and world.facts["alive"] is True


@given(parsers.parse('a gateway whose upstream lists Click with an inputSchema of type "{kind}"'))
def _broken_schema(world: World, kind: str) -> None:
    tools = [{"name": "Click", "inputSchema": {"type": kind, "properties": {"loc": {"type": "array"}}}}]
    world.facts["schemas"] = compile_schemas(tools)
    world.facts["oracle"] = validators.validator_for({})


@when(parsers.parse("the model clicks at {x:d}, {y:d}"))
def _click(world: World, x: int, y: int) -> None:
    world.facts["problem"] = argument_problem(world.facts["schemas"], "Click", {"loc": [x, y]}, None)


@then("the call is refused with BAD_ARGUMENTS and nothing reached the desktop")
def _refused_unchecked(world: World) -> None:
    problem = world.facts["problem"]
    assert problem is not None and "not a valid JSON Schema" in problem.what
    # what an unusable schema cannot vouch for is never forwarded: the screen step refuses before policy
    assert "Click" in world.facts["schemas"].broken and "Click" not in world.facts["schemas"].validators


_HOSTILE: list[Any] = [None, True, -1, 0, 3, 1.5, 1e308, "x", "[1, 2]", "not-a-point", [], [1], [1, 2], [1, 2, 3],
                       [[1, 2]], [1e308, -1e308], {"a": 1}, "a" * 5000, list(range(2000)), ["1", "2"]]  # fmt: skip


@when(parsers.parse("{count:d} random argument sets per upstream tool are checked"))
def _random_arguments(world: World, count: int) -> None:
    from tests._requirements import UPSTREAM_DATA

    tools = json.loads((UPSTREAM_DATA / "tools_list.json").read_text(encoding="utf-8"))["tools"]
    schemas = compile_schemas(tools)
    rng = random.Random(12)
    passed: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for tool in tools:
        names = list(tool["inputSchema"].get("properties", {}))
        for _ in range(count):
            args = {n: rng.choice(_HOSTILE) for n in rng.sample(names, k=rng.randint(0, len(names)))}
            if argument_problem(schemas, tool["name"], args, None) is None:
                passed.append((tool["inputSchema"], args))
    world.facts["passed"] = passed


@then("no check raised, and every set that passed conforms to upstream's own schema")
def _conforms(world: World) -> None:
    for schema, args in world.facts["passed"]:
        assert not list(validators.validator_for(schema)(schema).iter_errors(args)), args
    assert world.facts["passed"], "some random sets must be valid, or the check proves nothing"
