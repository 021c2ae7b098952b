"""Step definitions for features/argument_validation.feature (S-ARG-01 … S-ARG-06, S-ARG-08).

The async rig (client ⇄ gateway ⇄ simulator) is driven from pytest-bdd's synchronous steps
through an anyio blocking portal, like tests/e2e/test_flow_bdd.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from tests.e2e.harness import Rig, first_text, gateway_rig

scenarios("argument_validation.feature")


class World:
    """One scenario: the portal, the rig and the last result."""

    def __init__(self, portal: anyio.from_thread.BlockingPortal, tmp: Path) -> None:
        self.portal, self.tmp = portal, tmp
        self.rig: Rig | None = None
        self.result: dict[str, Any] = {}
        self._exit: list[Any] = []

    def start(self, config: dict[str, Any] | None = None, scenario: str = "default") -> None:
        cm = self.portal.wrap_async_context_manager(gateway_rig(self.tmp, scenario=scenario, config=config))
        self.rig = cm.__enter__()
        self._exit.append(cm)

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        assert self.rig is not None
        self.result = self.portal.call(self.rig.call, name, args)
        return self.result


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with anyio.from_thread.start_blocking_portal("asyncio") as portal:
        w = World(portal, tmp_path)
        try:
            yield w
        finally:
            for cm in reversed(w._exit):
                cm.__exit__(None, None, None)


def _rig(world: World) -> Rig:
    assert world.rig is not None
    return world.rig


@given(parsers.parse('a gateway in front of the simulated desktop "{scenario}"'))
def _gateway(world: World, scenario: str) -> None:
    world.start(scenario=scenario)


@given(parsers.parse('a gateway with config {config} in front of the simulated desktop "{scenario}"'))
def _gateway_config(world: World, config: str, scenario: str) -> None:
    world.start(config=json.loads(config), scenario=scenario)


@given("the model has taken a Snapshot")
def _snapshot(world: World) -> None:
    assert world.call("Snapshot", {})["isError"] is False


@when(parsers.parse('the model calls "{tool}" with a loc of {count:d} numbers'))
def _long_loc(world: World, tool: str, count: int) -> None:
    world.call(tool, {"loc": list(range(count))})


@when(parsers.re(r'the model calls "(?P<tool>[^"]+)" with (?P<arguments>\{.*\})$'))
def _call(world: World, tool: str, arguments: str) -> None:
    world.call(tool, json.loads(arguments))  # json reads NaN as Python's float('nan')


@then(parsers.parse('the call is refused with BAD_ARGUMENTS naming "{field}"'))
def _refused(world: World, field: str) -> None:
    text = first_text(world.result)
    assert world.result["isError"] is True
    assert text.startswith("DENIED BAD_ARGUMENTS: ") and f" argument {field} " in text, text


@then(parsers.parse('the refusal says "{fragment}"'))
def _says(world: World, fragment: str) -> None:
    text = first_text(world.result)
    assert fragment in text and len(text) < 400, text


@then("the desktop received nothing")
def _nothing(world: World) -> None:
    assert _rig(world).side_effects() == []


@then(parsers.parse('the last audit line is a deny of BAD_ARGUMENTS naming "{field}"'))
def _audited(world: World, field: str) -> None:
    line = _rig(world).audit_lines()[-1]
    assert (line["event"], line["code"], line["field"]) == ("deny", "BAD_ARGUMENTS", field)


@then(parsers.parse("the desktop received one click at {x:d}, {y:d}"))
def _clicked(world: World, x: int, y: int) -> None:
    assert world.result["isError"] is False, first_text(world.result)
    assert [e["screen_point"] for e in _rig(world).side_effects() if e["kind"] == "click"] == [[x, y]]


@then(parsers.parse("the last allow line carries the point {x:d}, {y:d}"))
def _point(world: World, x: int, y: int) -> None:
    allows = [line for line in _rig(world).audit_lines() if line["event"] == "allow"]
    assert allows and allows[-1]["point"] == [x, y]
