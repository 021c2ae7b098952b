"""Binds features/tool_pinning.feature (S-PIN-01..10) to the pin store, the policy check, the CLI,
the doctor's check, the simulator's variants and the list_changed path, in this process.

The end-to-end proofs with a real MCP client and the simulator's event log are in
tests/e2e/test_tool_pinning_e2e.py; these steps call the same functions the unit tests call.
"""

from __future__ import annotations

import hashlib
import json
import stat
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.cli.commands import main as cli
from gateway.config.load import load_config, weakened_settings
from gateway.doctor.pins import check_pins
from gateway.sim.server import build_simulator
from gateway.sim.variants import ENV_VARIANT, RUG_PULL_TEXT
from gateway.state.pins import OFFERED_FILE, PIN_FILE, PinGuard, PinStore
from gateway.tools import OWN_TOOL_NAMES
from gateway.transport.server import router_for
from policy import is_visible
from policy.context import PolicyConfig
from policy.decision import Code
from policy.pins import PinGate, PinStatus, check_pin
from tests.gateway._pin_world import edited, stub_app, upstream_list

scenarios("tool_pinning.feature")


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    return {"state": tmp_path / "state", "tmp": tmp_path}


def _canonical_digest(tool: dict[str, Any]) -> str:
    # Spelled out here, not taken from policy/pins.py: the five fields, sorted keys, no spaces.
    view = {k: tool.get(k) for k in ("name", "description", "inputSchema", "outputSchema", "annotations")}
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _record(world: dict[str, Any], tools: list[dict[str, Any]]) -> None:
    guard = PinGuard(world["state"])
    world["gate"], world["recorded"] = guard.record(tools)
    world["tools"] = tools


@given("a fresh state dir")
def _fresh(world: dict[str, Any]) -> None:
    assert not world["state"].exists()


@given("a state dir whose pins were made from upstream's tool list")
def _pinned(world: dict[str, Any]) -> None:
    PinStore(world["state"]).record(upstream_list())


@given(parsers.parse('the gateway recorded the "{variant}" variant'))
def _recorded_variant(world: dict[str, Any], variant: str) -> None:
    _record(world, upstream_list(variant))


@given(parsers.parse('the pin file is replaced by "{text}"'))
def _bad_file(world: dict[str, Any], text: str) -> None:
    (world["state"] / PIN_FILE).write_text(text, encoding="utf-8")


@when("the gateway records upstream's tool list")
def _record_list(world: dict[str, Any]) -> None:
    _record(world, upstream_list())


@then(parsers.parse('every offered tool is pinned "{by}" with the sha256 of its canonical pinned fields'))
def _all_pinned(world: dict[str, Any], by: str) -> None:
    data = json.loads((world["state"] / PIN_FILE).read_text(encoding="utf-8"))
    assert set(data["tools"]) == {t["name"] for t in world["tools"]} and len(data["tools"]) == 21
    for tool in world["tools"]:
        pin = data["tools"][tool["name"]]
        assert pin["by"] == by and pin["digest"] == _canonical_digest(tool)
    assert world["recorded"].first


@then("a change to the title or _meta of a tool leaves its digest as it was")
def _title_free(world: dict[str, Any]) -> None:
    def retitle(t: dict[str, Any]) -> None:
        t["title"], t["_meta"] = "Another title", {"x": 1}

    changed = edited(world["tools"], "Click", retitle)
    assert PinStore(world["state"]).record(changed).report.changed == ()  # type: ignore[union-attr]


@when(
    parsers.parse(
        'the gateway records a list where Click\'s description changed, "{new}" was added and "{gone}" is gone'
    )
)
def _mixed(world: dict[str, Any], new: str, gone: str) -> None:
    tools = [t for t in upstream_list("click-reworded") if t["name"] != gone]
    tools.append({"name": new, "description": "d", "inputSchema": {"type": "object", "properties": {}}})
    _record(world, tools)


@then(parsers.parse('the statuses are "changed" for Click, "new" for {new} and "removed" for {gone}'))
def _statuses(world: dict[str, Any], new: str, gone: str) -> None:
    report = world["recorded"].report
    assert report.changed == ("Click",)
    assert report.named(PinStatus.NEW) == (new,) and report.named(PinStatus.REMOVED) == (gone,)


@then(parsers.parse('{new} is pinned "first-sight" and the catalog still hides it as unknown'))
def _first_sight(world: dict[str, Any], new: str) -> None:
    pins = PinStore(world["state"]).read_pins()
    assert pins is not None and pins[new].by == "first-sight"
    assert not is_visible(new, PolicyConfig()) and not world["gate"].hides(new)


def _run(world: dict[str, Any], command: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    world["rc"] = cli([*command.split(), "--state-dir", str(world["state"])])
    world["out"] = capsys.readouterr()


@when(parsers.parse('a person runs "{command}"'))
def _person(world: dict[str, Any], command: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    _run(world, command, monkeypatch, capsys)


@when(parsers.parse('a person runs "{command}" without a terminal and without --yes'))
def _person_no_tty(world: dict[str, Any], command: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    _run(world, command, monkeypatch, capsys)


@then(parsers.parse('it exits 1 and shows the description word diff, "{line}" and SEVERE'))
def _show_diff(world: dict[str, Any], line: str) -> None:
    out = world["out"].out
    assert world["rc"] == 1 and "CHANGED  Click" in out and line in out and "SEVERE" in out
    assert "{+IMPORTANT:" in " ".join(out.split()), out


@then("it exits 2 and Click is still changed")
def _still_changed(world: dict[str, Any]) -> None:
    assert world["rc"] == 2 and "--yes" in world["out"].err
    assert PinGuard(world["state"]).record(upstream_list("click-rug-pull"))[0].withheld == {"Click"}


@then(parsers.parse('it exits 0, Click is pinned "cli" and the audit has an approval by "cli" for Click'))
def _accepted(world: dict[str, Any]) -> None:
    assert world["rc"] == 0, world["out"]
    pins = PinStore(world["state"]).read_pins()
    assert pins is not None and pins["Click"].by == "cli"
    lines = [json.loads(x) for x in (world["state"] / "audit.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(x["event"], x.get("tool"), x.get("by"), x.get("approval")) for x in lines] == [
        ("approval", "Click", "cli", f"pin-{pins['Click'].digest[:16]}")
    ]


@given("a pin gate that withholds Click")
def _gate(world: dict[str, Any]) -> None:
    world["gate"] = PinGate(withheld=frozenset({"Click"}))


@then(parsers.parse('a call to Click is refused TOOL_CHANGED naming "{show}" and "{accept}"'))
def _refused(world: dict[str, Any], show: str, accept: str) -> None:
    decision = check_pin("Click", world["gate"])
    assert decision is not None and decision.code is Code.TOOL_CHANGED and decision.blocks
    assert show in decision.remedy and accept in decision.remedy and decision.spec == "S-PIN-04"


@then("a call to Snapshot is not refused by the pins")
def _snapshot_ok(world: dict[str, Any]) -> None:
    assert check_pin("Snapshot", world["gate"]) is None


@then("Click is hidden from tools/list but winmcp_state is not")
def _hidden(world: dict[str, Any]) -> None:
    assert world["gate"].hides("Click") and not world["gate"].hides("winmcp_state")


@when(parsers.parse('the doctor\'s pins check sees the "{variant}" variant'))
def _doctor(world: dict[str, Any], variant: str) -> None:
    guard = PinGuard(world["state"])
    gate, recorded = guard.record(upstream_list("" if variant == "none" else variant))
    world["check"] = check_pins(recorded, gate, pin_file=str(guard.store.path))


@then(parsers.parse("the pins check is {verdict}"))
def _verdict(world: dict[str, Any], verdict: str) -> None:
    assert world["check"].verdict.value == verdict, world["check"].summary


@then("every upstream tool is withheld and winmcp_kill is not")
def _all_withheld(world: dict[str, Any]) -> None:
    gate = world["gate"]
    assert gate.error and all(gate.hides(t["name"]) for t in world["tools"]) and not gate.hides("winmcp_kill")
    assert all(check_pin(t["name"], gate) is not None for t in world["tools"])


@then(parsers.parse('the pin file still reads "{text}"'))
def _untouched(world: dict[str, Any], text: str) -> None:
    assert (world["state"] / PIN_FILE).read_text(encoding="utf-8") == text


@then("it exits 0 and the bad file is kept beside a usable pin file")
def _repinned(world: dict[str, Any]) -> None:
    assert world["rc"] == 0, world["out"]
    assert [p.read_text(encoding="utf-8") for p in world["state"].glob(f"{PIN_FILE}.bad-*")] == ["not json"]
    pins = PinStore(world["state"]).read_pins()
    assert pins is not None and len(pins) == 21 and {p.by for p in pins.values()} == {"cli"}


@then("the pin file and the offered file are owner-only")
def _owner_only(world: dict[str, Any]) -> None:
    for name in (PIN_FILE, OFFERED_FILE):
        assert stat.S_IMODE((world["state"] / name).stat().st_mode) == 0o600, name


@then("no temporary file is left beside them")
def _no_tmp(world: dict[str, Any]) -> None:
    assert not [p.name for p in world["state"].iterdir() if p.name.endswith(".tmp")]


@given(parsers.parse('a pin gate in "{mode}" mode that has Click changed'))
def _warn_gate(world: dict[str, Any], mode: str) -> None:
    world["gate"] = PinGate(mode=mode, withheld=frozenset({"Click"}))  # type: ignore[arg-type]


@then("a call to Click is not refused by the pins")
def _click_ok(world: dict[str, Any]) -> None:
    assert check_pin("Click", world["gate"]) is None and not world["gate"].hides("Click")


@then(parsers.parse('"{setting}" is among the weakened settings'))
def _weakened(world: dict[str, Any], setting: str) -> None:
    config = load_config(environ={}, state_dir=world["state"], overrides={"pin_mode": "warn"})
    assert setting in weakened_settings(config) and not config.warnings


@given(parsers.parse('the simulator\'s environment names the variant "{variant}"'))
def _sim_env(world: dict[str, Any], variant: str) -> None:
    world["sim"] = build_simulator(environ={ENV_VARIANT: variant})


@then("the simulator's Click has no label argument and its description tells the model to run a command")
def _sim_click(world: dict[str, Any]) -> None:
    click = world["sim"].tools.get("Click")
    assert "label" not in click["inputSchema"]["properties"] and "loc" in click["inputSchema"]["properties"]
    assert click["description"].endswith(RUG_PULL_TEXT)
    plain = build_simulator(environ={}).tools.get("Click")
    assert plain is not None
    assert "label" in plain["inputSchema"]["properties"] and RUG_PULL_TEXT not in plain["description"]


@then("an unknown variant name is a usage error")
def _unknown_variant(world: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        build_simulator(environ={ENV_VARIANT: "no-such-variant"})


@given("a gateway serving an upstream whose tool list is as pinned")
def _serving(world: dict[str, Any]) -> None:
    app, upstream, _ = stub_app(world["state"], upstream_list())
    world["app"], world["upstream"] = app, upstream
    world["router"] = router_for(app)

    async def first() -> list[str]:
        await world["router"].refresh_tools()
        return [t["name"] for t in await app.client_tools()]

    assert "Click" in anyio.run(first)
    world["digest"] = world["router"].tools_digest


@when("the upstream changes Click's description and says its tool list changed")
def _list_changed(world: dict[str, Any]) -> None:
    world["upstream"].tools = upstream_list("click-reworded")
    anyio.run(world["router"].notification, "notifications/tools/list_changed", None)


@then("the clients' tool list no longer has Click")
def _gone(world: dict[str, Any]) -> None:
    names = [t["name"] for t in anyio.run(world["app"].client_tools)]
    assert "Click" not in names and "Snapshot" in names and set(OWN_TOOL_NAMES) <= set(names)
    assert world["router"].tools_digest != world["digest"]  # so clients were told the list changed
