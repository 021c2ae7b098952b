"""Step definitions binding features/diagnose.feature (issue 16 items 6, 8, 9, 11).

Each step calls what the e2e tests call: the raw stdio exchange with a real `serve` child
(`test_cli_serve_e2e._exchange`), the in-process rig, the CLI's `main` in this process, the
doctor's misbehaving upstreams (`doctor_upstreams.py`), and bash on the generated script.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

import gateway.doctor.run as doctor_run
from gateway.cli import main as cli_main
from gateway.cli.commands import build_parser
from gateway.cli.completion import completion_script
from tests.e2e.doctor_upstreams import CRASH_LAST_LINE
from tests.e2e.harness import first_text, gateway_rig
from tests.e2e.test_cli_serve_e2e import _exchange
from tests.e2e.test_doctor_diagnose import upstream_cmd

scenarios("diagnose.feature")

KILL = {"mode": "kill", "name": "notepad.exe", "force": True}


@dataclass
class World:
    tmp: Path
    rc: int | None = None
    out: str = ""
    err: str = ""
    lines: list[bytes] = field(default_factory=list)
    refusal: str = ""
    approval_id: str = ""
    offered: str = ""
    before_capture: list[str] = field(default_factory=list)

    @property
    def state(self) -> Path:
        return self.tmp / "state"


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp=tmp_path)


def _run(world: World, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    capsys.readouterr()
    try:
        world.rc = cli_main(argv)
    except SystemExit as done:  # --help
        world.rc = int(done.code or 0)
    world.out, world.err = capsys.readouterr()


# -- serve --------------------------------------------------------------------------------------


@when(parsers.parse('a raw client talks to "winmcp-gateway -v serve --upstream sim" and clicks without a Snapshot'))
def _raw_serve(world: World) -> None:
    world.lines, world.err, _ = anyio.run(_exchange, world.tmp, "-v")


@then(parsers.parse('stderr names the version, upstream, protocol, state dir, config "{config}", audit and mode once'))
def _banner(world: World, config: str) -> None:
    assert world.err.count("serving MCP over stdio") == 1
    for label in ("upstream", "protocol", "state dir", "audit", "mode"):
        assert world.err.count(f"winmcp-gateway:   {label}:") == 1, label
    assert world.err.count(f"config:    {config}") == 1


@then(parsers.parse('stderr has the line "{line}" for the call'))
def _call_line(world: World, line: str) -> None:
    assert any(f"gateway.calls: {line} " in x for x in world.err.splitlines()), world.err


@then("every stdout line is a JSON-RPC message")
def _stdout_protocol(world: World) -> None:
    assert world.lines and all(json.loads(line).get("jsonrpc") == "2.0" for line in world.lines)


# -- approvals ------------------------------------------------------------------------------------


@given("a gateway on a state dir of its own")
def _own_state(world: World) -> None:
    world.tmp.mkdir(parents=True, exist_ok=True)


@when("the model force-kills notepad.exe without an approval")
def _force_kill(world: World) -> None:
    async def go() -> None:
        async with gateway_rig(world.tmp) as rig:
            assert rig.app.config.state_dir == world.state
            world.refusal = first_text(await rig.call("Process", KILL))

    anyio.run(go)
    world.approval_id = "apr-" + world.refusal.split("apr-")[1][:10]


@then("the refusal tells the person to run approve with --state-dir of that state dir")
def _refusal_names_state(world: World) -> None:
    assert world.refusal.startswith("DENIED APPROVAL_REQUIRED")
    assert f"`winmcp-gateway approve {world.approval_id} --state-dir {world.state}`" in world.refusal


@then('"winmcp-gateway approvals" lists the request with its tool and session')
def _listed(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    _run(world, capsys, ["approvals", "--state-dir", str(world.state)])
    [row] = [line for line in world.out.splitlines() if line.startswith(world.approval_id)]
    assert "Process" in row and "stdio:" in row


@when("the person approves it with --yes")
def _approve(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    _run(world, capsys, ["approve", world.approval_id, "--yes", "--state-dir", str(world.state)])
    assert world.rc == 0


@then(parsers.parse('the audit has an approval event by "{by}"'))
def _audited(world: World, by: str) -> None:
    lines = [json.loads(x) for x in (world.state / "audit.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(e["by"], e["approval"]) for e in lines if e["event"] == "approval"] == [(by, world.approval_id)]


# -- doctor ---------------------------------------------------------------------------------------


@when("the person runs the doctor against an upstream that crashes on start")
def _doctor_crash(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    _run(world, capsys, ["doctor", "--upstream-cmd", upstream_cmd("crash"), "--state-dir", str(world.state)])


@then(parsers.parse('the upstream check is SEVERE naming "{cause}" and the traceback\'s last line'))
def _crash_named(world: World, cause: str) -> None:
    assert world.rc == 1
    flat = " ".join(world.out.split())
    assert "SEVERE upstream" in flat and cause in flat and f"its stderr ends: {CRASH_LAST_LINE}" in flat


@then("no exception group appears in what the doctor printed")
def _no_group(world: World) -> None:
    assert "ExceptionGroup" not in world.out + world.err and "TaskGroup" not in world.out + world.err


@when(parsers.parse('the person runs the doctor with "{flags}" against an upstream that never answers'))
def _doctor_silent(world: World, capsys: pytest.CaptureFixture[str], flags: str) -> None:
    argv = ["doctor", "--upstream-cmd", upstream_cmd("silent"), *shlex.split(flags), "--json"]
    _run(world, capsys, [*argv, "--state-dir", str(world.state)])


@then(parsers.parse("the upstream check is SEVERE saying it did not finish starting within {seconds:d} s"))
def _silent_bounded(world: World, seconds: int) -> None:
    upstream = next(c for c in json.loads(world.out)["checks"] if c["id"] == "upstream")
    assert world.rc == 1 and upstream["verdict"] == "SEVERE"
    assert f"did not finish starting (the MCP initialize handshake) within {seconds} s" in upstream["summary"]


@when("the person runs the doctor against the simulator")
def _doctor_sim(world: World, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    capture = doctor_run._capture_check

    async def watched(upstream: Any, tools: list[str] | None) -> Any:
        world.before_capture.append(capsys.readouterr().out)
        return await capture(upstream, tools)

    monkeypatch.setattr(doctor_run, "_capture_check", watched)
    _run(world, capsys, ["doctor", "--upstream", "sim", "--state-dir", str(world.state)])
    world.out = "".join(world.before_capture) + world.out


@then("the upstream, schema and pins lines were printed before the doctor's capture began")
def _streamed(world: World) -> None:
    [before] = world.before_capture
    ids = [line.split()[1] for line in before.splitlines() if line.startswith("  OK")]
    assert ids == ["upstream", "schema.read_args", "schema.unknown_args", "schema.tools", "pins"]


@then(parsers.parse('the upstream check names "{server}"'))
def _server_named(world: World, server: str) -> None:
    assert world.rc == 0 and f"reachable: {server}," in world.out


# -- kill, help, errors ------------------------------------------------------------------------------


@given("an empty state dir")
def _empty_state(world: World) -> None:
    world.state.mkdir(parents=True, exist_ok=True)


@when(parsers.parse('the person runs "{command}"'))
def _person_runs(world: World, capsys: pytest.CaptureFixture[str], command: str) -> None:
    argv = shlex.split(command)
    if argv[0] in ("kill", "approve"):
        argv += ["--state-dir", str(world.state)]
    _run(world, capsys, argv)


@then(parsers.parse('it prints "{text}"'))
def _prints(world: World, text: str) -> None:
    assert world.out.strip() == text


@then(parsers.parse('it prints a line starting "{text}"'))
def _prints_start(world: World, text: str) -> None:
    assert any(line.startswith(text) for line in world.out.splitlines()), world.out


@then("it prints JSON with engaged true")
def _prints_json(world: World) -> None:
    assert json.loads(world.out)["engaged"] is True


@then(parsers.parse('the command exits {code:d} with an error starting "{prefix}"'))
def _error_prefix(world: World, code: int, prefix: str) -> None:
    assert world.rc == code and world.err.startswith(prefix)


# -- completion --------------------------------------------------------------------------------------


@when(parsers.parse('bash completes "{line}" with the script of "completion bash"'))
def _bash_completes(world: World, line: str) -> None:
    script = world.tmp / "winmcp-gateway.bash"
    script.write_text(completion_script("bash", build_parser), encoding="utf-8")
    words = line.split(" ")  # a trailing blank is an empty word being completed
    program = (
        f"source {shlex.quote(str(script))}; COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); "
        f'COMP_CWORD={len(words) - 1}; _shtab_winmcp_gateway; echo "${{COMPREPLY[@]}}"'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30, check=True)
    world.offered = done.stdout.strip()


@then(parsers.parse('it offers "{words}"'))
def _offers(world: World, words: str) -> None:
    assert world.offered == words


# -- the demo ------------------------------------------------------------------------------------------


@when("the person runs the demo")
def _demo(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    _run(world, capsys, ["demo"])
    assert world.rc == 0, world.err


@then(parsers.parse('the command to engage the kill switch is quoted "{shown}"'))
def _quoted(world: World, shown: str) -> None:
    assert f"  $ winmcp-gateway {shown}\n" in world.out
    assert shlex.split(shown)[-1] == "demo: the person pressed stop", "pasted, it is the same words"


@then("the incident headings are numbered 1, 2, 3, 4, each once")
def _headings(world: World) -> None:
    numbers = [line.split()[1] for line in world.out.splitlines() if line.startswith("Incident ")]
    assert numbers == ["1", "2", "3", "4"]
