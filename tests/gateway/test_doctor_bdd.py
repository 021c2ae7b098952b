"""Step definitions binding features/doctor.feature (S-DOC-01 … S-DOC-11).

The steps call the same public functions the unit tests call: the CLI's `main`
(`winmcp-gateway doctor [--json]`) against the simulator, `compare_schema` over the
simulator's own served tool list (`gateway.sim.schema.served_tools`), `check_mapping` over
upstream's recorded samples (parsed by `parse_result`, mapped by `derive_mapping`),
`check_audit`, `winmcp_doctor` through a real `mcp` client (driven from these synchronous
steps through an anyio blocking portal), and `scripts/live_probe.py`'s `main`.
"""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import json
import re
import shlex
import sys
from collections.abc import AsyncIterator, Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio.from_thread
import jsonschema  # type: ignore[import-untyped]  # an mcp dependency (it validates outputSchema too)
import pytest
from mcp import Client
from pytest_bdd import given, parsers, scenarios, then, when

import gateway.config.load as config_module
from gateway.app import open_gateway
from gateway.audit.writer import AuditLog
from gateway.cli import main
from gateway.config.load import load_config
from gateway.doctor.checks import check_audit, check_mapping
from gateway.doctor.schema import compare_schema
from gateway.observe.coords import derive_mapping
from gateway.observe.parse import CaptureFailure, parse_result
from gateway.sim.events import read_events
from gateway.sim.schema import served_tools
from gateway.state.store import KillSwitch
from gateway.transport.server import build_server
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import REPO, SAMPLES, UPSTREAM_DATA
from tests.e2e.harness import Rig, annotation_of, first_text

scenarios("doctor.feature")

SIM = f"{shlex.quote(sys.executable)} -m gateway.sim"
# S-DOC-01's order of verdicts, best to worst (written from the spec, not from doctor_model).
RANK = ("OK", "WARNING", "UNKNOWN", "SEVERE")
Portal = tuple[anyio.from_thread.BlockingPortal, contextlib.ExitStack[Any]]


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config_module, "default_config_file", lambda: tmp_path / "absent.toml")


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    return {"tmp": tmp_path, "state": tmp_path / "state", "extra": []}


@pytest.fixture
def portal_stack() -> Iterator[Portal]:
    """A portal for the async gateway, and a stack that closes the gateway before the portal."""
    with anyio.from_thread.start_blocking_portal("asyncio") as portal, contextlib.ExitStack() as stack:
        yield portal, stack


def _ids(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


# -- the CLI doctor against the simulator (S-DOC-01 … S-DOC-09) --------------------------------
@given(parsers.parse('the simulator serves "{mutation}"'))
def _mutated(world: dict[str, Any], mutation: str) -> None:
    world["upstream"] = ["--upstream-cmd", f"{SIM} --mutate-schema {mutation}"]


@given("the simulator serves upstream's own tools")
def _faithful(world: dict[str, Any]) -> None:
    world["upstream"] = ["--upstream", "sim"]


@given(parsers.re(r'the simulator started with "(?P<args>[^"]*)"(?P<log> and an event log)?$'))
def _started(world: dict[str, Any], args: str, log: str | None) -> None:
    command = f"{SIM} {args}"
    if log:
        world["event_log"] = world["tmp"] / "sim-events.jsonl"
        command += f" --event-log {shlex.quote(str(world['event_log']))}"
    world["upstream"] = ["--upstream-cmd", command]


@given("an upstream command that does not exist")
def _missing(world: dict[str, Any]) -> None:
    world["upstream"] = ["--upstream-cmd", str(world["tmp"] / "no-such-windows-mcp")]


@given(parsers.re(r'the doctor\'s config file says "(?P<line>.*)"$'))
def _doctor_config(world: dict[str, Any], line: str) -> None:
    path = world["tmp"] / "config.toml"
    path.write_text(line + "\n", encoding="utf-8")
    world["extra"] = ["--config", str(path)]


@given(parsers.parse("the state dir holds an audit log of {count:d} records"))
def _audit_log(world: dict[str, Any], count: int) -> None:
    log = AuditLog(world["state"])
    for i in range(count):
        log.append("allow", tool="Snapshot", reason=f"record {i + 1}")


@given(parsers.parse("line {number:d} of the audit log was edited"))
def _edited(world: dict[str, Any], number: int) -> None:
    path = world["state"] / "audit.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    record = json.loads(lines[number - 1])
    record["reason"] = "rewritten after the fact"
    lines[number - 1] = json.dumps(record) + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    world["audit_before"] = path.read_bytes()


@given("the state dir is below a regular file")
def _blocked_state(world: dict[str, Any]) -> None:
    blocker = world["tmp"] / "a-file"
    blocker.write_text("not a directory\n", encoding="utf-8")
    world["state"] = blocker / "state"


@given(parsers.parse('the kill switch was engaged by "{by}" because "{reason}"'))
def _engaged(world: dict[str, Any], by: str, reason: str) -> None:
    KillSwitch(world["state"]).engage(by=by, reason=reason)


def _doctor(world: dict[str, Any], capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    argv = ["doctor", *world["upstream"], *world["extra"], "--state-dir", str(world["state"]), *flags]
    world["rc"] = main(argv)
    return capsys.readouterr().out


@when("the doctor runs against it")
def _run(world: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    world["report"] = json.loads(_doctor(world, capsys, "--json"))
    world["checks"] = {c["id"]: c for c in world["report"]["checks"]}


@when("the doctor runs against it as text")
def _run_text(world: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    world["text"] = _doctor(world, capsys).rstrip("\n").splitlines()


@given(parsers.parse('upstream\'s tools with "{mutation}"'))
def _tools(world: dict[str, Any], mutation: str) -> None:
    world["tools"] = served_tools([mutation]).tools


@when("the schema is compared")
def _compare(world: dict[str, Any]) -> None:
    world["checks"] = {c.id: c.as_json() for c in compare_schema(world["tools"], None)}


@then(parsers.parse("the doctor exits {rc:d}"))
def _exit(world: dict[str, Any], rc: int) -> None:
    assert world["rc"] == rc
    if "report" in world:
        assert world["report"]["exit_code"] == rc


@then(parsers.re(r'"(?P<cid>[\w.]+)" is (?P<verdict>OK|WARNING|UNKNOWN|SEVERE)$'))
def _verdict(world: dict[str, Any], cid: str, verdict: str) -> None:
    assert world["checks"][cid]["verdict"] == verdict


@then(parsers.re(r'"(?P<cid>[\w.]+)" is (?P<verdict>OK|WARNING|UNKNOWN|SEVERE) saying "(?P<says>.*)"$'))
def _saying(world: dict[str, Any], cid: str, verdict: str, says: str) -> None:
    check = world["checks"][cid]
    assert check["verdict"] == verdict, check
    assert any(says in text for text in [check["summary"], *(f["message"] for f in check["findings"])]), check


@then(
    parsers.re(
        r'"(?P<cid>[\w.]+)" is (?P<verdict>OK|WARNING|UNKNOWN|SEVERE) '
        r'naming "(?P<tool>\w+)" "(?P<field>[\w-]+)"'
    )
)
def _naming(world: dict[str, Any], cid: str, verdict: str, tool: str, field: str) -> None:
    check = world["checks"][cid]
    assert check["verdict"] == verdict
    (finding,) = check["findings"]
    assert finding["verdict"] == verdict and finding["tool"] == tool
    assert finding["field"] == (None if field == "-" else field)
    world["finding"] = finding


@then(parsers.parse('the finding names the rules "{rules}"'))
def _rules(world: dict[str, Any], rules: str) -> None:
    for rule in rules.split(", "):
        assert rule in world["finding"]["rules"] and rule in world["finding"]["message"]


@then("no check is SEVERE")
def _no_severe(world: dict[str, Any]) -> None:
    assert [c["id"] for c in world["checks"].values() if c["verdict"] == "SEVERE"] == []


# -- S-DOC-01: the report's shape, order, verdicts and text ------------------------------------
@then(parsers.parse('the report is "{fmt}" with the checks "{ids}" in that order'))
def _shape(world: dict[str, Any], fmt: str, ids: str) -> None:
    report = world["report"]
    assert report["format"] == fmt
    assert set(report) == {"format", "overall", "exit_code", "upstream", "counts", "checks"}
    assert [c["id"] for c in report["checks"]] == _ids(ids)
    assert all(c["verdict"] in RANK for c in report["checks"])


@then("no check is better than its worst finding")
def _not_better(world: dict[str, Any]) -> None:
    for check in world["report"]["checks"]:
        worst = max((RANK.index(f["verdict"]) for f in check["findings"]), default=0)
        assert RANK.index(check["verdict"]) >= worst, check


@then(parsers.parse("the overall verdict is {overall}, the worst of OK < WARNING < UNKNOWN < SEVERE"))
def _overall(world: dict[str, Any], overall: str) -> None:
    report = world["report"]
    assert report["overall"] == overall
    assert max((c["verdict"] for c in report["checks"]), key=RANK.index) == overall


def _check_lines(text: list[str]) -> list[int]:
    return [i for i, line in enumerate(text) if line.startswith("  ") and line.split()[:1] in ([v] for v in RANK)]


@then(parsers.parse('the text has one line per check, in the order "{ids}"'))
def _text_order(world: dict[str, Any], ids: str) -> None:
    assert [world["text"][i].split()[1] for i in _check_lines(world["text"])] == _ids(ids)


@then(parsers.parse('the "{cid}" line is {verdict} with the findings "{first}" and "{second}" under it'))
def _text_findings(world: dict[str, Any], cid: str, verdict: str, first: str, second: str) -> None:
    text, heads = world["text"], _check_lines(world["text"])
    at = next(i for i in heads if text[i].split()[1] == cid)
    assert text[at].split()[0] == verdict
    block = [line.strip() for line in text[at + 1 : heads[heads.index(at) + 1]]]
    for name in (first, second):
        assert any(line.startswith(f"- {verdict}: {name}") for line in block), block


@then(parsers.parse('the last line is "{start}" ending "{end}"'))
def _last_line(world: dict[str, Any], start: str, end: str) -> None:
    assert world["text"][-1].startswith(start) and world["text"][-1].endswith(end), world["text"][-1]


# -- S-DOC-07: the mapping check over upstream's recorded captures ------------------------------
def _png(stem: str) -> dict[str, Any]:
    data = base64.b64encode((SAMPLES / f"{stem}.png").read_bytes()).decode("ascii")
    return {"type": "image", "mimeType": "image/png", "data": data}


@given(parsers.re(r'the "(?P<tool>\w+)" text of sample "(?P<sample>\w+)" with (?P<image>.+)$'))
def _sample(world: dict[str, Any], tool: str, sample: str, image: str) -> None:
    content: list[dict[str, Any]] = [{"type": "text", "text": (SAMPLES / f"{sample}.txt").read_text("utf-8")}]
    if image == "its PNG and a second text item":
        content += [{"type": "text", "text": "a second text item"}, _png(sample)]
    elif image == "its PNG":
        content.append(_png(sample))
    elif image.startswith("the PNG of "):
        content.append(_png(image.removeprefix("the PNG of ")))
    else:
        assert image == "no image", image
    world["capture_of"] = (tool, {"content": content, "isError": False})


def _recorded(file: str, tool: str) -> dict[str, Any]:
    entries = json.loads((UPSTREAM_DATA / file).read_text(encoding="utf-8"))
    result: dict[str, Any] = next(e["result"] for e in entries if e["tool"] == tool)
    return result


@given("upstream's recorded Snapshot while a person holds the desktop")
def _user_control(world: dict[str, Any]) -> None:
    world["capture_of"] = ("Snapshot", _recorded("tool_outputs_user_control.json", "Snapshot"))


@given(parsers.parse('upstream\'s recorded Snapshot of sample "{stem}"'))
def _recorded_sample(world: dict[str, Any], stem: str) -> None:
    recorded = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))
    world["capture_of"] = (recorded["tool"], recorded["result"])


@given("upstream's recorded Click answer, offered as a Snapshot")
def _click_answer(world: dict[str, Any]) -> None:
    world["capture_of"] = ("Snapshot", _recorded("tool_outputs.json", "Click"))


@when("the mapping check reads it")
def _map(world: dict[str, Any]) -> None:
    tool, result = world["capture_of"]
    capture = parse_result(tool, result)
    if isinstance(capture, CaptureFailure):
        check = check_mapping(f"the {tool}", capture, None)
    else:
        mapping, warnings = derive_mapping(capture)
        check = check_mapping(f"the {tool}", capture, mapping, warnings)
    world["checks"] = {"mapping": check.as_json()}


@then("the simulator saw exactly one capture and nothing else")
def _one_capture(world: dict[str, Any]) -> None:
    events = read_events(world["event_log"])
    assert [(e["tool"], e["kind"]) for e in events] == [("Screenshot", "capture")], events


# -- S-DOC-09: the audit and kill checks ---------------------------------------------------------
@then("the audit log is byte for byte what it was before the doctor ran")
def _unchanged(world: dict[str, Any]) -> None:
    assert (world["state"] / "audit.jsonl").read_bytes() == world["audit_before"]


@given(parsers.re(r'the config says "(?P<line>.*)"$'))
def _audit_config(world: dict[str, Any], line: str) -> None:
    path = world["tmp"] / "config.toml"
    path.write_text(line + "\n", encoding="utf-8")
    config = load_config(environ={}, config_file=path, state_dir=world["state"])
    log = AuditLog(config.state_dir, enabled=config.auto_audit)
    log.append("allow", tool="Snapshot", reason="while switched off")
    world["audit"] = (config, log.stats())


@given("an audit log whose lock file cannot be created")
def _lock_blocked(world: dict[str, Any]) -> None:
    config = load_config(environ={}, state_dir=world["state"])
    (config.state_dir / "audit.jsonl.lock").mkdir(parents=True)
    log = AuditLog(config.state_dir)
    log.append("allow", tool="Snapshot", reason="cannot be written")
    world["audit"] = (config, log.stats())


@when("the audit check runs")
def _audit_check(world: dict[str, Any]) -> None:
    world["checks"] = {"audit": check_audit(*world["audit"]).as_json()}


@then(parsers.parse('the "{cid}" summary names when it was engaged and "{reason}"'))
def _kill_when(world: dict[str, Any], cid: str, reason: str) -> None:
    since = KillSwitch(world["state"]).status().since
    summary = world["checks"][cid]["summary"]
    assert since and since in summary and reason in summary, (since, summary)


# -- S-DOC-10: winmcp_doctor through a real client ----------------------------------------------
@contextlib.asynccontextmanager
async def _gateway(tmp: Path, *sim_args: str) -> AsyncIterator[Rig]:
    config = load_config(environ={}, state_dir=tmp / "state")
    async with open_gateway(config, UpstreamSpec.simulator(*sim_args)) as app, Client(build_server(app)) as client:
        yield Rig(app=app, client=client, tmp=tmp, event_log=tmp / "unused", control=tmp / "unused")


@given(parsers.parse('a gateway in front of the simulator "{args}"'))
def _gateway_up(world: dict[str, Any], args: str, portal_stack: Portal) -> None:
    portal, stack = portal_stack
    world["portal"] = portal
    world["rig"] = stack.enter_context(portal.wrap_async_context_manager(_gateway(world["tmp"], *shlex.split(args))))
    world["doctor_audit"] = []


def _call(world: dict[str, Any], name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = world["portal"].call(world["rig"].call, name, args)
    return result


@when("the client calls winmcp_doctor")
def _doctor_tool(world: dict[str, Any]) -> None:
    before = world["rig"].audit_lines()
    world["result"] = _call(world, "winmcp_doctor")
    world["doctor_audit"].append(world["rig"].audit_lines()[len(before) :])
    world["checks"] = {c["id"]: c for c in world["result"]["structuredContent"]["checks"]}


@when("the client takes a Snapshot with use_vision")
def _snapshot(world: dict[str, Any]) -> None:
    line = annotation_of(_call(world, "Snapshot", {"use_vision": True}))
    assert line is not None
    world["obs"] = line.split("obs=")[1].split()[0]


@when("the client engages the kill switch through winmcp_kill")
def _kill_tool(world: dict[str, Any]) -> None:
    assert _call(world, "winmcp_kill", {"action": "engage", "reason": "scenario"})["isError"] is False


@then("the result is not an error and has the report as text and as structuredContent")
def _tool_result(world: dict[str, Any]) -> None:
    result = world["result"]
    content = result["structuredContent"]
    assert result["isError"] is False and content["format"] == "winmcp-doctor/1"
    text = first_text(result)
    assert text.startswith("winmcp-gateway doctor") and f"overall: {content['overall']}" in text
    assert all(c["id"] in text for c in content["checks"])


@then("the structuredContent matches winmcp_doctor's outputSchema")
def _schema(world: dict[str, Any]) -> None:
    listed = world["portal"].call(world["rig"].client.list_tools)
    schema = next(t for t in listed.tools if t.name == "winmcp_doctor").output_schema
    assert schema is not None and {"overall", "checks"} <= set(schema["required"])
    jsonschema.validate(world["result"]["structuredContent"], schema)


@then(parsers.parse('the "{cid}" summary starts with the Snapshot\'s observation id'))
def _from_obs(world: dict[str, Any], cid: str) -> None:
    assert world["checks"][cid]["summary"].startswith(f"{world['obs']} (Snapshot)")


@then("the doctor wrote no audit line")
def _no_audit(world: dict[str, Any]) -> None:
    assert world["doctor_audit"] and all(added == [] for added in world["doctor_audit"])


# -- S-DOC-11: scripts/live_probe.py -------------------------------------------------------------
@cache
def _probe_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("live_probe", REPO / "scripts" / "live_probe.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@when(parsers.re(r"the live probe runs against it(?P<as_json> with --json)?$"))
def _probe(world: dict[str, Any], as_json: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    world["rc"] = _probe_script().main([*world["upstream"], *(["--json"] if as_json else [])])
    out = capsys.readouterr().out
    if as_json:
        world["probe"] = json.loads(out)
        world["checks"] = {c["id"]: c for c in world["probe"]["checks"]}
    world["text"] = out


@then(parsers.parse("the probe exits {rc:d} with overall {overall}"))
def _probe_exit_overall(world: dict[str, Any], rc: int, overall: str) -> None:
    assert (world["rc"], world["probe"]["exit_code"], world["probe"]["overall"]) == (rc, rc, overall)


@then(parsers.parse("the probe exits {rc:d}"))
def _probe_exit(world: dict[str, Any], rc: int) -> None:
    assert world["rc"] == rc


@then(parsers.parse('the probe\'s checks are "{ids}"'))
def _probe_checks(world: dict[str, Any], ids: str) -> None:
    assert [c["id"] for c in world["probe"]["checks"]] == _ids(ids)


@then(
    parsers.parse(
        "the probe's Snapshot has {count:d} displays, one left of the origin, "
        "a focused window, elements and an image size"
    )
)
def _probe_snapshot(world: dict[str, Any], count: int) -> None:
    snap = world["probe"]["snapshot"]
    assert len(snap["displays"]) == count and min(d["rect"][0] for d in snap["displays"]) < 0
    assert snap["focused"] is not None and snap["elements"] > 0 and snap["image_size"] is not None


@then("the probe's Snapshot has no parser warning")
def _probe_clean(world: dict[str, Any]) -> None:
    assert world["probe"]["snapshot"]["parse_warnings"] == []


@then(parsers.re(r"the probe's text has (?P<parts>.+)$"))
def _probe_text(world: dict[str, Any], parts: str) -> None:
    for part in re.findall(r'"([^"]*)"', parts):
        assert part in world["text"], (part, world["text"])


@then(parsers.parse('the probe\'s "{cid}" check is {verdict}'))
def _probe_check(world: dict[str, Any], cid: str, verdict: str) -> None:
    assert world["checks"][cid]["verdict"] == verdict
