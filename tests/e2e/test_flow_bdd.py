"""Step definitions for features/proxy.feature, features/cli.feature and features/gate_flow.feature.

The async rig (client ⇄ gateway ⇄ simulator) is driven from pytest-bdd's synchronous steps
through an anyio blocking portal; the steps call the same harness the e2e tests use.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import pytest
from mcp import Client
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.app import open_gateway
from gateway.audit.report import audit_files, verify_chain
from gateway.cli import main as cli_main
from gateway.config.load import load_config
from gateway.state.approvals import ApprovalStore
from gateway.transport.server import build_server
from gateway.upstream.supervisor import UpstreamSpec
from tests.e2e.harness import annotation_of, direct_sim, first_text, gateway_rig, gateway_stdio_params, wire
from tests.e2e.test_upstream_failure import DYING_UPSTREAM
from tests.gateway.test_cli import _pending
from tests.gateway.test_redact import SHAPES
from tests.policy.rule_corpus import DANGEROUS

scenarios("proxy.feature", "cli.feature", "gate_flow.feature")

UPSTREAM_COUNT, OWN_COUNT = 21, 6


class World:
    """One scenario's state: the portal, the rigs, the last result, observations and conversions."""

    def __init__(self, portal: anyio.from_thread.BlockingPortal, tmp: Path) -> None:
        self.portal, self.tmp = portal, tmp
        self.stack = contextlib.ExitStack()
        self.rig: Any = None
        self.rigs: list[Any] = []
        self.client: Client | None = None
        self.app: Any = None
        self.result: dict[str, Any] = {}
        self.observations: list[str] = []
        self.converted: list[int] = []
        self.tools: dict[str, dict[str, Any]] = {}
        self.state = tmp / "state"
        self.rc: int | None = None
        self.out = ""
        self.approval_id = ""
        self.corpus_misses: list[Any] = []
        self.asked: list[str] = []
        self.last_call: tuple[str, dict[str, Any]] = ("", {})

    def enter(self, cm: Any) -> Any:
        return self.stack.enter_context(self.portal.wrap_async_context_manager(cm))

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if self.rig is not None:
            self.result = self.portal.call(self.rig.call, name, args)
        else:
            assert self.client is not None
            self.result = wire(self.portal.call(self.client.call_tool, name, args))
        if name in ("Snapshot", "Screenshot") and annotation_of(self.result):
            self.observations.append(annotation_of(self.result).split("obs=")[1].split()[0])  # type: ignore[union-attr]
        return self.result


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with anyio.from_thread.start_blocking_portal("asyncio") as portal:
        w = World(portal, tmp_path)
        with w.stack:
            yield w


# -- Given ------------------------------------------------------------------------------------
@given(parsers.parse('a gateway in front of the simulated desktop "{scenario}"'))
def _gateway(world: World, scenario: str) -> None:
    world.rig = world.enter(gateway_rig(world.tmp, scenario=scenario))


@given(parsers.parse('a gateway with config {config} in front of the simulated desktop "{scenario}"'))
def _gateway_config(world: World, config: str, scenario: str) -> None:
    world.rig = world.enter(gateway_rig(world.tmp, scenario=scenario, config=json.loads(config)))


@given("a gateway in front of an upstream that dies on request")
def _dying(world: World) -> None:
    script = world.tmp / "dying_upstream.py"
    script.write_text(DYING_UPSTREAM)
    cfg = load_config(environ={}, state_dir=world.state)
    world.app = world.enter(open_gateway(cfg, UpstreamSpec(argv=(sys.executable, str(script)))))
    world.client = world.enter(Client(build_server(world.app), mode="legacy"))


@given("two gateways sharing one state dir")
def _two(world: World) -> None:
    world.rigs = [world.enter(gateway_rig(world.tmp / n, state_dir=world.state)) for n in ("a", "b")]


@given("an empty state dir")
def _empty_state(world: World) -> None:
    world.state.mkdir(parents=True, exist_ok=True)


@given("a pending approval request for a forced Process kill")
def _pending_request(world: World) -> None:
    world.approval_id = _pending(world.state)


# -- When -------------------------------------------------------------------------------------
@when("the client lists the tools")
def _list(world: World) -> None:
    tools = world.portal.call(world.rig.client.list_tools).tools
    world.tools = {t.name: t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools}


@when(parsers.parse('a client starts "winmcp-gateway serve --upstream sim" and lists the tools'))
def _stdio_list(world: World) -> None:
    params, _, _ = gateway_stdio_params(world.tmp)

    async def go() -> dict[str, dict[str, Any]]:
        async with Client(params, mode="legacy") as client:
            return {t.name: {} for t in (await client.list_tools()).tools}

    world.tools = world.portal.call(go)


@when(parsers.parse("the model takes a Snapshot with {args}"))
def _snapshot(world: World, args: str) -> None:
    world.call("Snapshot", json.loads(args))


@when(parsers.parse('the model calls "{tool}" with {args} citing the first observation'))
def _call_first(world: World, tool: str, args: str) -> None:
    world.call(tool, {**json.loads(args), "based_on": world.observations[0]})


@when(parsers.parse('the model calls "{tool}" with {args} citing the observation'))
def _call_cited(world: World, tool: str, args: str) -> None:
    world.call(tool, {**json.loads(args), "based_on": world.observations[-1]})


@when(parsers.parse('the model calls "{tool}" with {args}'))
def _call(world: World, tool: str, args: str) -> None:
    world.call(tool, json.loads(args))


@when(parsers.parse('the model writes into the gateway\'s own "{package}" code with FileSystem'))
def _write_own_code(world: World, package: str) -> None:
    import importlib

    folder = Path(importlib.import_module(package).__file__ or "").resolve().parent
    world.call("FileSystem", {"mode": "write", "path": str(folder / "decide.py"), "content": "ALLOW_ALL = True"})


@when(parsers.parse("the model converts image pixel {x:g}, {y:g} to a screen point"))
def _convert(world: World, x: float, y: float) -> None:
    result = world.call("winmcp_to_screen", {"x": x, "y": y, "based_on": world.observations[-1]})
    world.converted = result["structuredContent"]["loc"]


@when(parsers.parse('the model calls "{tool}" at the converted point citing the observation'))
def _call_converted(world: World, tool: str) -> None:
    world.call(tool, {"loc": world.converted, "based_on": world.observations[-1]})


@when(parsers.parse('the user focuses the window "{title}"'))
def _focus(world: World, title: str) -> None:
    world.rig.world("focus", window=title)


@when("a person engages the kill switch")
def _person_kill(world: World) -> None:
    assert cli_main(["kill", "engage", "--state-dir", str(world.rig.app.config.state_dir)]) == 0


@when("each takes a Snapshot")
def _each_snapshot(world: World) -> None:
    for rig in world.rigs:
        world.observations.append(
            annotation_of(world.portal.call(rig.call, "Snapshot", {})).split("obs=")[1].split()[0]
        )  # type: ignore[union-attr]


@when("the first engages the kill switch")
def _first_kills(world: World) -> None:
    world.portal.call(world.rigs[0].call, "winmcp_kill", {"action": "engage"})


@when("the model replays the dangerous command corpus")
def _replay(world: World) -> None:
    for tool, args, rule_id in DANGEROUS:
        text = first_text(world.call(tool, args))
        # A spelling upstream's own schema rejects (`mode: "Delete"`) is refused before the rules: BAD_ARGUMENTS.
        if not (text.startswith("DENIED") and (rule_id in text or text.startswith("DENIED BAD_ARGUMENTS"))):
            world.corpus_misses.append((tool, args, rule_id))


@when("the model sends every secret of the redaction corpus through PowerShell and Clipboard")
def _secrets(world: World) -> None:
    for _, text, _ in SHAPES:
        world.call("PowerShell", {"command": text})
        world.call("Clipboard", {"mode": "set", "text": text})


@when(parsers.parse('the person runs "{command}"'))
def _person_runs(world: World, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = shlex.split(command.replace("<id>", world.approval_id))
    if argv[0] in ("kill", "approve", "deny", "serve"):
        argv += ["--state-dir", str(world.state)]
    if "--config" in argv:
        argv[argv.index("--config") + 1] = str(world.tmp / argv[argv.index("--config") + 1])
    capsys.readouterr()
    world.rc = cli_main(argv)
    world.out = capsys.readouterr().out


# -- Then -------------------------------------------------------------------------------------
@then(parsers.parse("it sees the {upstream:d} upstream tools and the {own:d} winmcp tools"))
def _sees(world: World, upstream: int, own: int) -> None:
    names = set(world.tools)
    assert len({n for n in names if n.startswith("winmcp_")}) == own
    assert len({n for n in names if not n.startswith("winmcp_")}) == upstream


@then(parsers.parse('the schema of "{tool}" accepts "{a}" and "{b}"'))
def _accepts(world: World, tool: str, a: str, b: str) -> None:
    props = world.tools[tool]["inputSchema"]["properties"]
    assert a in props and b in props


@then(parsers.parse('the schema of "{tool}" accepts neither "{a}" nor "{b}"'))
def _accepts_neither(world: World, tool: str, a: str, b: str) -> None:
    props = world.tools[tool]["inputSchema"]["properties"]
    assert a not in props and b not in props


@then(parsers.parse('calling "{tool}" with {args} gives the same result as the simulator directly'))
def _same_as_direct(world: World, tool: str, args: str) -> None:
    through = world.call(tool, json.loads(args))

    async def direct() -> dict[str, Any]:
        async with direct_sim(world.tmp / "direct") as client:
            return wire(await client.call_tool(tool, json.loads(args)))

    (world.tmp / "direct").mkdir(exist_ok=True)
    assert through == world.portal.call(direct)


@then(parsers.parse("the result is refused with {code}"))
def _refused(world: World, code: str) -> None:
    assert world.result["isError"] is True
    assert first_text(world.result).startswith(f"DENIED {code}: "), first_text(world.result)


@then("the refusal names a remedy")
def _remedy(world: World) -> None:
    assert "Remedy: " in first_text(world.result)


@then("the result is not an error")
def _not_error(world: World) -> None:
    assert not world.result.get("isError"), first_text(world.result)


@then(parsers.parse("the result fails with {code} and shows the upstream's last words"))
def _fails(world: World, code: str) -> None:
    assert first_text(world.result).startswith(f"FAILED {code}: ")
    assert any("the desktop went away" in i.get("text", "") for i in world.result["content"])


@then(parsers.parse('the result text is "{text}"'))
def _text(world: World, text: str) -> None:
    assert first_text(world.result) == text


@then("the desktop received nothing")
def _nothing(world: World) -> None:
    assert world.rig.side_effects() == []


@then(parsers.parse("the desktop received one click at {x:d}, {y:d}"))
def _one_click(world: World, x: int, y: int) -> None:
    assert [e["screen_point"] for e in world.rig.side_effects()] == [[x, y]]


@then(parsers.parse('the desktop received only the typed text "{text}"'))
def _only_text(world: World, text: str) -> None:
    assert [e.get("args", {}).get("text") for e in world.rig.side_effects()] == [text.replace("\\\\", "\\")]


@then(parsers.parse('no desktop event carries "{arg}"'))
def _no_arg(world: World, arg: str) -> None:
    assert all(arg not in e.get("args", {}) for e in world.rig.events())


@then(parsers.parse("the converted screen point is {x:d}, {y:d}"))
def _converted(world: World, x: int, y: int) -> None:
    assert world.converted == [x, y]


@then("the second cannot cite the first one's observation")
def _cannot_cite(world: World) -> None:
    result = world.portal.call(world.rigs[1].call, "Click", {"loc": [640, 480], "based_on": world.observations[0]})
    assert first_text(result).startswith("DENIED UNKNOWN_OBSERVATION: ")


@then("the second refuses a click with KILLED")
def _second_killed(world: World) -> None:
    result = world.portal.call(world.rigs[1].call, "Click", {"loc": [640, 480], "based_on": world.observations[1]})
    assert first_text(result).startswith("DENIED KILLED: ")
    assert world.rigs[1].side_effects() == []


@then("every corpus call was refused by its rule")
def _corpus(world: World) -> None:
    assert world.corpus_misses == []


@then("no secret of the corpus appears in the state dir")
def _no_secret(world: World) -> None:
    state = world.rig.app.config.state_dir
    blob = b"".join(p.read_bytes() for p in state.rglob("*") if p.is_file())
    assert [s for _, _, s in SHAPES if s.encode() in blob] == []


@then("the audit chain verifies")
def _verifies(world: World) -> None:
    result = verify_chain(audit_files(world.rig.app.config.state_dir))
    assert result.ok and result.records > 0


@then(parsers.parse('"{command}" reports engaged by a person'))
def _status_engaged(world: World, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli_main([*command.split(), "--json", "--state-dir", str(world.state)]) == 0  # prose by default
    status = json.loads(capsys.readouterr().out)
    assert status["engaged"] is True and status["by"] == "person"


@then(parsers.parse('"{command}" reports not engaged'))
def _status_off(world: World, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli_main([*command.split(), "--json", "--state-dir", str(world.state)]) == 0
    assert json.loads(capsys.readouterr().out)["engaged"] is False


@then(parsers.parse("the command exits {code:d}"))
def _exits(world: World, code: int) -> None:
    assert world.rc == code


@then(parsers.parse('the output shows "{a}", "{b}", "{c}" and "{d}"'))
def _shows(world: World, a: str, b: str, c: str, d: str) -> None:
    for text in (a, b, c, d):
        assert text in world.out


@then("the request is approved for one call")
def _approved(world: World) -> None:
    approval = ApprovalStore(world.state).load(world.approval_id)
    assert approval is not None and approval.status == "approved" and approval.scope == "once"


# -- approvals and self-protection -------------------------------------------------------------
def _elicitor(world: World, choice: str | None) -> Any:
    async def callback(ctx: Any, params: Any) -> Any:
        import mcp_types as types

        world.asked.append(params.message)
        if choice is None:
            await anyio.sleep_forever()
        return types.ElicitResult(action="accept", content={"decision": choice})

    return callback


@given(parsers.parse('a gateway whose client answers approval requests with "{choice}"'))
def _elicit_gateway(world: World, choice: str) -> None:
    world.asked = []
    world.rig = world.enter(gateway_rig(world.tmp, elicitation_callback=_elicitor(world, choice)))


@given(parsers.parse("a gateway whose client never answers approval requests, waiting at most {seconds:d} second"))
def _silent_gateway(world: World, seconds: int) -> None:
    world.asked = []
    world.rig = world.enter(
        gateway_rig(world.tmp, config={"approval_wait_s": seconds}, elicitation_callback=_elicitor(world, None))
    )


@when("the person approves the request with the command line")
def _approve_cli(world: World) -> None:
    text = first_text(world.result)
    world.approval_id = "apr-" + text.split("apr-")[1][:10]
    world.last_call = ("Process", {"mode": "kill", "name": "notepad.exe", "force": True})
    assert cli_main(["approve", world.approval_id, "--yes", "--state-dir", str(world.rig.app.config.state_dir)]) == 0


@when("the model repeats the call with the approval id")
def _repeat(world: World) -> None:
    tool, args = world.last_call
    world.call(tool, {**args, "approval_id": world.approval_id})


@when("the model deletes the STOP file with FileSystem")
def _delete_stop(world: World) -> None:
    world.call("FileSystem", {"mode": "delete", "path": str(world.rig.app.config.state_dir / "STOP")})


@then(parsers.parse('the desktop received exactly one "{kind}"'))
def _exactly_one(world: World, kind: str) -> None:
    assert [e["kind"] for e in world.rig.side_effects()].count(kind) == 1


@then(parsers.parse('no desktop event is a "{kind}"'))
def _none_of(world: World, kind: str) -> None:
    assert [e for e in world.rig.side_effects() if e["kind"] == kind] == []


@then(parsers.parse('the person was asked once about "{tool}" and "{rule}"'))
def _asked_once(world: World, tool: str, rule: str) -> None:
    assert len(world.asked) == 1 and tool in world.asked[0] and rule in world.asked[0]


@given(parsers.parse('a 2026-07-28 gateway whose client answers approval requests with "{choice}"'))
def _modern_elicit_gateway(world: World, choice: str) -> None:
    world.asked = []
    world.rig = world.enter(gateway_rig(world.tmp, client_mode="auto", elicitation_callback=_elicitor(world, choice)))
    assert world.rig.client.protocol_version == "2026-07-28"
