"""Step definitions binding features/simulator.feature (S-SIM-*); steps call gateway.sim's public API."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

import anyio
from mcp.server.lowlevel.server import Server
from PIL import Image
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.sim import build_server, read_events, send_control
from tests._requirements import SAMPLES
from tests.sim._sim import call, connect

scenarios("simulator.feature")


class World:
    """What the steps share: the server, its files and the last result."""

    def __init__(self, server: Server[Any], events: Path, control: Path) -> None:
        self.server, self.events, self.control = server, events, control
        self.result: dict[str, Any] = {}


@given(parsers.parse('the simulator runs scenario "{name}"'), target_fixture="sim")
def _runs(name: str, tmp_path: Path) -> World:
    events, control = tmp_path / "events.jsonl", tmp_path / "control.jsonl"
    return World(build_server(name, event_log=events, control=control), events, control)


@when(parsers.parse('the client calls "{tool}" with {arguments}'))
def _calls(sim: World, tool: str, arguments: str) -> None:
    async def go() -> dict[str, Any]:
        async with connect(sim.server) as client:
            return await call(client, tool, json.loads(arguments))

    sim.result = anyio.run(go)


@when(parsers.parse('the control file focuses window "{title}"'))
def _focuses(sim: World, title: str) -> None:
    send_control(sim.control, "focus", window=title)


@then(parsers.parse('the text item equals sample "{name}"'))
def _text_equals(sim: World, name: str) -> None:
    assert sim.result["content"][0]["text"].encode("utf-8") == (SAMPLES / name).read_bytes()


@then(parsers.parse("the image is {width:d} by {height:d} pixels"))
def _image_size(sim: World, width: int, height: int) -> None:
    data = base64.b64decode(sim.result["content"][1]["data"])
    with Image.open(io.BytesIO(data)) as png:
        assert png.size == (width, height)


@then(parsers.parse('the last event is a "{kind}" at {x:d}, {y:d} in window "{title}"'))
def _last_event(sim: World, kind: str, x: int, y: int, title: str) -> None:
    last = read_events(sim.events)[-1]
    assert (last["kind"], last["screen_point"], last["window"]) == (kind, [x, y], title)


@then(parsers.re(r'the call fails with "(?P<message>.+)"$'))
def _fails_with(sim: World, message: str) -> None:
    assert sim.result["isError"] is True
    assert sim.result["content"][0]["text"] == message


@then(parsers.parse('the call fails starting with "{prefix}"'))
def _fails_starting(sim: World, prefix: str) -> None:
    assert sim.result["isError"] is True
    assert sim.result["content"][0]["text"].startswith(prefix)


@then("the event log is empty")
def _no_events(sim: World) -> None:
    assert read_events(sim.events) == []
