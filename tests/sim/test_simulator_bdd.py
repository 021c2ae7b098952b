"""Step definitions binding features/simulator.feature (S-SIM-*); steps call gateway.sim's public API.

The steps use `build_server`, `scenario_names`, `read_events`, `send_control`, an MCP client
(in process, or over stdio to a `python -m gateway.sim` child) and compare with the vendored
upstream truth (samples, tools_list.json, tool_outputs.json).
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import StdioServerParameters
from mcp.server.lowlevel.server import Server
from PIL import Image
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.sim import build_server, read_events, scenario_names, send_control
from gateway.sim.scenarios.files import ScenarioError
from tests._requirements import REPO, SAMPLES
from tests.sim._sim import TIMEOUT, call, connect, text, upstream_json

scenarios("simulator.feature")


class World:
    """What the steps share: the server (or the child's parameters), its files and the last result."""

    def __init__(self, server: Server[Any] | StdioServerParameters, events: Path, control: Path) -> None:
        self.server, self.events, self.control = server, events, control
        self.result: dict[str, Any] = {}
        self.tools: list[dict[str, Any]] = []
        self.server_name: tuple[str, str] = ("", "")
        self.marker: Path | None = None


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


# --- tools/list, the world, scenarios, entry points, mutations, recorded outputs ---------------
# (S-SIM-01, S-SIM-03, S-SIM-05, S-SIM-07, S-SIM-10, S-SIM-11)

FIELDS = ("name", "title", "description", "inputSchema", "annotations", "outputSchema", "_meta")
RECORDED: list[dict[str, Any]] = upstream_json("tool_outputs.json")
EXAMPLE = REPO / "gateway" / "sim" / "data" / "example_scenario.toml"
WRAPPED_META = {"fastmcp": {"wrap_result": True}}


def _world(tmp_path: Path, scenario: str | Path, **kwargs: Any) -> World:
    events, control = tmp_path / "events.jsonl", tmp_path / "control.jsonl"
    return World(build_server(scenario, event_log=events, control=control, **kwargs), events, control)


def _quoted(text: str) -> list[str]:
    return re.findall(r'"([^"]+)"', text)


@given(
    parsers.parse('the simulator runs scenario "{name}" in a working directory holding only a marker file'),
    target_fixture="sim",
)
def _runs_in_workdir(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    workdir = tmp_path / "work"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    sim = _world(tmp_path, name)
    sim.marker = workdir / "marker.txt"
    sim.marker.write_text("keep", encoding="utf-8")
    return sim


@given(
    parsers.parse(
        'the simulator runs scenario "{name}" with WINDOWS_MCP_SCREENSHOT_SCALE={scale} '
        "and WINDOWS_MCP_MAX_TREE_ELEMENTS={limit:d}"
    ),
    target_fixture="sim",
)
def _runs_with_env(name: str, scale: str, limit: int, tmp_path: Path) -> World:
    environ = {"WINDOWS_MCP_SCREENSHOT_SCALE": scale, "WINDOWS_MCP_MAX_TREE_ELEMENTS": str(limit)}
    return _world(tmp_path, name, environ=environ)


@given(
    parsers.re(r'the simulator runs scenario "(?P<name>[^"]+)" with schema mutations (?P<specs>.+) applied'),
    target_fixture="sim",
)
def _runs_mutated(name: str, specs: str, tmp_path: Path) -> World:
    return _world(tmp_path, name, mutations=tuple(_quoted(specs)))


@given(parsers.re(r'a scenario file "(?P<file>[^"]+)" holding (?P<data>\{.*\})'), target_fixture="scenario_file")
def _scenario_file(file: str, data: str, tmp_path: Path) -> Path:
    path = tmp_path / file
    path.write_text(data, encoding="utf-8")
    return path


@given("the simulator runs that scenario file", target_fixture="sim")
def _runs_file(scenario_file: Path, tmp_path: Path) -> World:
    return _world(tmp_path, scenario_file)


@given("the simulator runs the example scenario shipped in gateway/sim/data", target_fixture="sim")
def _runs_example(tmp_path: Path) -> World:
    return _world(tmp_path, EXAMPLE)


@given(parsers.parse('a simulator child process "python -m gateway.sim {options}"'), target_fixture="sim")
def _child(options: str, tmp_path: Path) -> World:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "gateway.sim", *options.split()], env={}, cwd=REPO
    )
    return World(params, tmp_path / "events.jsonl", tmp_path / "control.jsonl")


@when(parsers.parse('the client calls "{tool}" over stdio'))
def _calls_stdio(sim: World, tool: str) -> None:
    async def go() -> dict[str, Any]:
        with anyio.fail_after(TIMEOUT * 3):  # the child's start-up is part of this wait
            async with connect(sim.server) as client:
                return await call(client, tool, {})

    sim.result = anyio.run(go)


@when(parsers.parse('the client lists the tools in the "{era}" protocol era'))
def _lists(sim: World, era: str) -> None:
    async def go() -> tuple[list[dict[str, Any]], tuple[str, str]]:
        async with connect(sim.server, era) as client:
            with anyio.fail_after(TIMEOUT):
                listed = await client.list_tools()
            info = client.server_info
            return listed.model_dump(by_alias=True, exclude_none=True)["tools"], (info.name, info.version)

    sim.tools, sim.server_name = anyio.run(go)


@when(parsers.parse("the client replays call {index:d} of tool_outputs.json"), target_fixture="recorded")
def _replays(sim: World, index: int) -> dict[str, Any]:
    entry = RECORDED[index]
    _calls(sim, entry["tool"], json.dumps(entry["arguments"]))
    return dict(entry["result"])


@when(parsers.re(r"the simulator is started with (?P<source>.+)"), target_fixture="refusal")
def _started(source: str, tmp_path: Path) -> Exception | None:
    try:
        if source.startswith("schema mutation "):
            build_server("default", mutations=(_quoted(source)[0],))
        elif source.startswith("a scenario file holding "):
            path = tmp_path / "bad.json"
            path.write_text(source.removeprefix("a scenario file holding "), encoding="utf-8")
            build_server(path)
        else:
            build_server(_quoted(source)[0])
    except Exception as exc:  # noqa: BLE001 - the Then step says which kind is expected
        return exc
    return None


@when(parsers.parse('"python -m gateway.sim {options}" runs with stdin closed'), target_fixture="child")
def _child_run(options: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WINMCP_", "WINDOWS_MCP_"))}
    return subprocess.run(
        [sys.executable, "-m", "gateway.sim", *options.split()],
        capture_output=True,
        text=True,
        timeout=TIMEOUT * 3,
        check=False,
        stdin=subprocess.DEVNULL,
        cwd=REPO,
        env=env,
    )


@then("the tools listed equal upstream's tools_list.json field by field, in upstream's order")
def _tools_equal(sim: World) -> None:
    expected = upstream_json("tools_list.json")["tools"]
    assert [t["name"] for t in sim.tools] == [t["name"] for t in expected]
    for got, want in zip(sim.tools, expected, strict=True):
        for name in FIELDS:
            assert got.get(name) == want.get(name), f"{want['name']}.{name}"


@then("every listed inputSchema forbids additional properties")
def _closed_schemas(sim: World) -> None:
    assert sim.tools and all(t["inputSchema"]["additionalProperties"] is False for t in sim.tools)


@then(parsers.parse('the server names itself as upstream\'s sample 07 says: "{name}" version "{version}"'))
def _names_itself(sim: World, name: str, version: str) -> None:
    sample = upstream_json("samples/07_snapshot_empty_ui_tree.result.json")["result"]["_meta"]
    assert sample["io.modelcontextprotocol/serverInfo"] == {"name": name, "version": version}
    assert sim.server_name == (name, version)


@then(parsers.parse('the marker file still holds "{content}" and nothing else was written to the working directory'))
def _host_untouched(sim: World, content: str) -> None:
    assert sim.marker is not None and sim.marker.read_text(encoding="utf-8") == content
    assert [p.name for p in sim.marker.parent.iterdir()] == [sim.marker.name]


@then(parsers.parse('the text item is "{expected}"'))
def _text_is(sim: World, expected: str) -> None:
    assert sim.result["isError"] is False
    assert text(sim.result) == json.loads(f'"{expected}"')  # the feature writes \n for a newline


@then(parsers.parse('the text item says "{fragment}"'))
def _text_says(sim: World, fragment: str) -> None:
    assert fragment in text(sim.result)


@then(parsers.parse('the text item starts with the Cursor Position line "{line}"'))
def _cursor_line(sim: World, line: str) -> None:
    assert text(sim.result).startswith(f"\n    {line}\n"), text(sim.result)[:80]


@then("a display's bounds start left of zero")
def _negative_display(sim: World) -> None:
    displays = json.loads(sim.result["content"][0]["text"])
    assert any(d["bounds"]["left"] < 0 for d in displays), displays


@then(parsers.parse("the built-in scenarios are {names}"))
def _builtins(names: str) -> None:
    assert scenario_names() == [n.strip() for n in names.replace(" and ", ", ").split(",")]


@then("every built-in scenario but user-control answers Snapshot with upstream's Cursor Position line")
def _every_builtin_snapshots() -> None:
    async def go(name: str) -> dict[str, Any]:
        async with connect(build_server(name)) as client:
            return await call(client, "Snapshot")

    for name in scenario_names():
        if name != "user-control":
            result = anyio.run(go, name)
            assert result["isError"] is False and text(result).startswith("\n    Cursor Position: ("), name


@then(parsers.parse('it refuses with a ScenarioError saying "{problem}"'))
def _scenario_error(refusal: Exception | None, problem: str) -> None:
    assert isinstance(refusal, ScenarioError) and problem in str(refusal), refusal


@then("it refuses with a ValueError")
def _value_error(refusal: Exception | None) -> None:
    assert isinstance(refusal, ValueError) and str(refusal), refusal


@then(parsers.re(r"it exits (?P<code>\d) with nothing on stdout(?: and \"(?P<reason>[^\"]+)\" on stderr)?"))
def _exits(child: subprocess.CompletedProcess[str], code: str, reason: str | None) -> None:
    assert child.returncode == int(code), child.stderr
    assert child.stdout == ""
    if reason is not None:
        assert reason in child.stderr


def _tool(sim: World, name: str) -> dict[str, Any] | None:
    return next((t for t in sim.tools if t["name"] == name), None)


@then(parsers.parse('"{tool}" requires "{new}" and has no "{old}"'))
def _renamed(sim: World, tool: str, new: str, old: str) -> None:
    schema = (_tool(sim, tool) or {})["inputSchema"]
    assert new in schema["required"] and new in schema["properties"] and old not in schema["properties"]


@then(parsers.parse('"{tool}" accepts an integer "{arg}"'))
def _added(sim: World, tool: str, arg: str) -> None:
    prop = (_tool(sim, tool) or {})["inputSchema"]["properties"][arg]
    assert "integer" in [prop.get("type"), *(a.get("type") for a in prop.get("anyOf", []))]


@then(parsers.parse('"{tool}" is not listed'))
def _dropped(sim: World, tool: str) -> None:
    assert sim.tools and _tool(sim, tool) is None


@then("the call succeeds")
def _succeeds(sim: World) -> None:
    assert sim.result["isError"] is False, sim.result


@then("the whole result equals the recorded one")
def _whole(sim: World, recorded: dict[str, Any]) -> None:
    assert sim.result == recorded


@then(parsers.parse("the result {shape}"))
def _shape(sim: World, shape: str) -> None:
    r, first = sim.result, sim.result["content"][0]["text"]
    if shape == "wraps its text as structuredContent result with _meta":
        assert r["structuredContent"] == {"result": first} and r["_meta"] == WRAPPED_META
    elif shape == "has no structuredContent and no _meta":
        assert "structuredContent" not in r and "_meta" not in r and r["isError"] is False
    elif shape == "carries its JSON list as structuredContent result with _meta":
        assert isinstance(json.loads(first), list)
        assert r["structuredContent"] == {"result": json.loads(first)} and r["_meta"] == WRAPPED_META
    elif shape == "carries its JSON object as structuredContent without _meta":
        assert r["structuredContent"] == json.loads(first) and "_meta" not in r
    else:
        prefix = _quoted(shape)[0]
        assert shape.startswith("is an error saying") and r["isError"] is True and first.startswith(prefix)


@then("the call fails with upstream's USER_CONTROL JSON")
def _user_control(sim: World) -> None:
    assert sim.result["isError"] is True
    body = json.loads(sim.result["content"][0]["text"])
    assert body["code"] == "USER_CONTROL" and body["status"]["state"] == "user"
    assert set(sim.result) == {"content", "isError", "resultType"}  # upstream's raw gate, not FastMCP's


@then(parsers.parse('the call succeeds with state "{state}"'))
def _control_status(sim: World, state: str) -> None:
    assert sim.result["isError"] is False and json.loads(sim.result["content"][0]["text"])["state"] == state


@then(parsers.parse('the failure names "{first}" and "{second}"'))
def _failure_names(sim: World, first: str, second: str) -> None:
    message = sim.result["content"][0]["text"]
    assert sim.result["isError"] is True and first in message and second in message
