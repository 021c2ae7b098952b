"""Step definitions binding features/rate_limits.feature (S-RATE-01..09).

The exchanges are those of tests/e2e/test_rate_limits_flows.py: a real `mcp` client, the gateway
with its limits from a config file and an injected clock, the simulator's event log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.config.load import GatewayConfig, load_config
from gateway.doctor.checks import check_config
from policy import Code, PolicyConfig, Verdict, decide
from policy.rate import Brake, BrakeState, charged, limits_of
from tests.e2e.test_rate_limits_flows import burst_flow, identical_flow, kill_flow, refusals_flow, write_config
from tests.policy._world import T0, TableRules, call, context

pytestmark = pytest.mark.e2e

scenarios("rate_limits.feature")


@dataclass
class World:
    tmp: Path
    table: str = ""
    out: dict[str, Any] = field(default_factory=dict)
    first: list[str] = field(default_factory=list)
    then: list[str] = field(default_factory=list)
    config: GatewayConfig | None = None


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp=tmp_path)


@given(parsers.parse("a gateway whose config file says rate_limits = {table}"))
def _gateway(world: World, table: str) -> None:
    world.table = table


def _run(world: World, flow: Any) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = await flow(world.tmp)
        return out

    return anyio.run(go)


@when("the model takes a Snapshot and clicks five times at once, then twenty seconds later once more")
def _burst(world: World) -> None:
    assert world.table == '{ input = "3/min" }'  # the table burst_flow writes
    world.out = _run(world, burst_flow)
    fifth = world.out["refusal"].split(":", 1)[0].removeprefix("DENIED ")
    world.first = [*world.out["codes"], fifth]
    world.then = [world.out["late"]]
    world.out["clicks"] = world.out["clicks_after"]


@when("the model clicks the same point four times on one Snapshot, then tries something else, then observes")
def _identical(world: World) -> None:
    assert world.table == "{ identical_calls = 3 }"
    world.out = _run(world, identical_flow)
    assert world.out["other"] == world.out["typed"] == "LOOP_DETECTED"
    world.first, world.then = world.out["codes"], [world.out["after"]]
    world.out["clicks"] = world.out["clicks_after"]


@when("the model clicks five times without an observation, then observes and clicks")
def _refusals(world: World) -> None:
    assert world.table == "{ refusals_in_a_row = 4 }"
    world.out = _run(world, refusals_flow)
    world.first, world.then = world.out["codes"], [world.out["after"]]


@when("the bucket is empty and a person engages the kill switch with winmcp-gateway kill")
def _kill(world: World) -> None:
    assert world.table == '{ input = "1/min", refusals_in_a_row = 2 }'
    world.out = _run(world, kill_flow)
    assert world.out["first"] == "ok" and world.out["limited"] == "RATE_LIMITED" and world.out["later"] == "ok"
    world.first, world.then = world.out["killed"], [world.out["after_release"]]


@then(parsers.parse('the clicks answer "{first}" and then "{then}"'))
def _answers(world: World, first: str, then: str) -> None:
    assert world.first == first.split(", ")
    assert world.then == then.split(", ")


@then(parsers.parse("the simulator recorded {n:d} clicks"))
def _clicks(world: World, n: int) -> None:
    assert world.out["clicks"] == n


@then(parsers.parse('the audit has {n:d} "{code}" denials'))
def _denials(world: World, n: int, code: str) -> None:
    assert world.out["denials"].count(code) == n


@given(parsers.parse("a config file with rate_limits = {table}"))
def _config_file(world: World, table: str) -> None:
    world.table = table


@when("the config is loaded")
def _load(world: World) -> None:
    path = write_config(world.tmp, world.table)
    world.config = load_config(environ={}, config_file=path, state_dir=world.tmp / "state")


@then(parsers.parse('rate_limits.input is "{inp}" and rate_limits.system is "{system}"'))
def _values(world: World, inp: str, system: str) -> None:
    assert world.config is not None
    assert world.config.rate_limits["input"] == inp and world.config.rate_limits["system"] == system


@then(parsers.parse('a warning names rate_limits.input and "{value}"'))
def _warned(world: World, value: str) -> None:
    assert world.config is not None
    assert [w for w in world.config.warnings if w.startswith("config rate_limits.input:") and repr(value) in w]


@then(parsers.parse('the doctor\'s config check says "{text}"'))
def _doctor_says(world: World, text: str) -> None:
    assert world.config is not None
    assert text in check_config(world.config).data["rate_limits"]


@then(parsers.parse('the doctor warns "{text}"'))
def _doctor_warns(world: World, text: str) -> None:
    assert world.config is not None
    assert text in [f.message for f in check_config(world.config).findings]


@given("require_approval is on and this session's system bucket is empty")
def _empty_system(world: World) -> None:
    limits = limits_of({"system": "1/h"})
    world.out["brake"] = Brake(limits=limits, state=charged(BrakeState(), limits, "PowerShell", {"command": "x"}, T0))


@when("the model calls PowerShell")
def _powershell(world: World) -> None:
    rules = TableRules()
    ctx = context(config=PolicyConfig(require_approval=True), rules=rules)
    world.out["decision"] = decide(call("PowerShell", command="Get-Date"), replace(ctx, brake=world.out["brake"]), T0)
    world.out["rules"] = rules


@then(parsers.parse('the decision is "{code}", not an ask, and no command rule was consulted'))
def _braked(world: World, code: str) -> None:
    d = world.out["decision"]
    assert d.code is Code(code) and d.verdict is Verdict.DENY and world.out["rules"].calls == []
    assert re.search(r"rate_limits\.system", d.reason)
