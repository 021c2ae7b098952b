"""Tool pinning end to end: an `mcp` SDK client ⇄ the gateway ⇄ the simulator (S-PIN-01 … S-PIN-09).

The simulator's event log is the ground truth: a call refused TOOL_CHANGED leaves no event there.
The simulator offers the changed Click when `WINMCP_SIM_TOOL_VARIANT` says so (gateway/sim/variants.py);
it reads its environment at each connection, as a restarted Windows-MCP would after an upgrade.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import pytest

from gateway.cli.banner import serve_banner
from gateway.cli.commands import main as cli
from gateway.config.load import load_config
from gateway.sim.variants import ENV_VARIANT
from gateway.state.pins import PIN_FILE, PinStore
from gateway.tools import OWN_TOOL_NAMES
from gateway.transport.server import router_for
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement
from tests.e2e._proto_rig import ClientProbe, in_process
from tests.e2e.harness import Rig, first_text, gateway_rig, wire
from tests.gateway._pin_world import stub_app, upstream_list

pytestmark = [pytest.mark.e2e, pytest.mark.anyio]


async def names(rig: Rig) -> list[str]:
    return [t.name for t in (await rig.client.list_tools()).tools]


def clicks(rig: Rig) -> list[dict[str, Any]]:
    return [e for e in rig.side_effects() if e.get("kind") == "click"]


def doctor_json(state: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    rc = cli(["doctor", "--upstream", "sim", "--state-dir", str(state), "--json"])
    report = json.loads(capsys.readouterr().out)
    return rc, next(c for c in report["checks"] if c["id"] == "pins")


@requirement("S-PIN-01", "S-PIN-04", "S-PIN-05", "S-PIN-03", "S-PIN-09")
async def test_a_rug_pulled_click_is_withheld_refused_unseen_by_the_desktop_until_a_person_accepts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    async with gateway_rig(tmp_path / "first", state_dir=state) as rig:
        assert "Click" in await names(rig)
    pins = PinStore(state).read_pins()
    assert pins is not None and len(pins) == 21 and pins["Click"].by == "first-connection"

    # The upstream restarts changed: Click's description now instructs the model, `label` is gone.
    monkeypatch.setenv(ENV_VARIANT, "click-rug-pull")
    async with gateway_rig(tmp_path / "second", state_dir=state) as rig:
        listed = await names(rig)
        assert "Click" not in listed and {"Snapshot", "Type", "PowerShell"} <= set(listed)
        assert not first_text(await rig.call("Snapshot", {"use_vision": False})).startswith("DENIED")
        refused = await rig.call("Click", {"loc": [200, 200]})
        assert refused.get("isError") and first_text(refused).startswith("DENIED TOOL_CHANGED: ")
        assert "winmcp-gateway pin accept Click" in first_text(refused)
        assert clicks(rig) == [], "a refused Click reached the simulated desktop"
        audit = [(x["event"], x.get("code"), x.get("tool")) for x in rig.audit_lines()]
        assert ("config", "TOOL_CHANGED", "Click") in audit and ("deny", "TOOL_CHANGED", "Click") in audit

        rc, check = await anyio.to_thread.run_sync(doctor_json, state, capsys)  # the CLI runs its own loop
        assert rc == 1 and check["verdict"] == "SEVERE" and check["data"]["changed"] == ["Click"]
        assert [f["field"] for f in check["findings"]] == ["label"]

        assert cli(["pin", "accept", "Click", "--yes", "--state-dir", str(state)]) == 0
        assert "Click" in await names(rig)  # the running gateway sees the person's accept
        allowed = await rig.call("Click", {"loc": [200, 200]})
        assert not allowed.get("isError"), first_text(allowed)
        assert [e["screen_point"] for e in clicks(rig)] == [[200, 200]], rig.side_effects()
        assert ("approval", "cli", "Click") in [(x["event"], x.get("by"), x.get("tool")) for x in rig.audit_lines()]
    rc, check = await anyio.to_thread.run_sync(doctor_json, state, capsys)
    assert check["verdict"] == "OK", check
    assert cli(["audit-report", "--state-dir", str(state), "--verify"]) == 0  # chain and line schema hold


@requirement("S-PIN-06")
async def test_an_unusable_pin_file_withholds_every_upstream_tool_until_a_person_repins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    async with gateway_rig(tmp_path / "first", state_dir=state) as rig:
        await names(rig)
    (state / PIN_FILE).write_text("{ broken", encoding="utf-8")
    async with gateway_rig(tmp_path / "second", state_dir=state) as rig:
        assert sorted(await names(rig)) == sorted(OWN_TOOL_NAMES)
        for tool, args in (("Snapshot", {"use_vision": False}), ("Click", {"loc": [5, 5]})):
            text = first_text(await rig.call(tool, args))
            assert text.startswith("DENIED TOOL_CHANGED: ") and "cannot be read" in text, text
        assert rig.events() == [], "a call reached the simulator while the pins were unusable"
        assert not (await rig.call("winmcp_state")).get("isError")
        assert (state / PIN_FILE).read_text(encoding="utf-8") == "{ broken"
        assert cli(["pin", "accept", "--yes", "--state-dir", str(state)]) == 0
        assert "Snapshot" in await names(rig)
        assert not first_text(await rig.call("Snapshot", {"use_vision": False})).startswith("DENIED")
    assert [p.read_text(encoding="utf-8") for p in state.glob(f"{PIN_FILE}.bad-*")] == ["{ broken"]


def _win(path: Path) -> str:
    return str(path).replace("/", "\\")


@requirement("S-PIN-07")
async def test_the_model_cannot_write_the_pin_file_or_run_pin_accept(tmp_path: Path) -> None:
    state = tmp_path / "state"
    async with gateway_rig(tmp_path, state_dir=state) as rig:
        await names(rig)
        before = (state / PIN_FILE).read_bytes()
        pin = state / PIN_FILE
        calls: list[tuple[str, dict[str, Any]]] = [
            ("FileSystem", {"mode": "write", "path": str(pin), "content": "{}", "overwrite": True}),
            ("FileSystem", {"mode": "delete", "path": str(pin)}),
            ("PowerShell", {"command": f"Set-Content -Path '{_win(pin)}' -Value '{{}}'"}),
            ("PowerShell", {"command": f"Remove-Item '{_win(state)}\\tool-pins.json'"}),
            ("PowerShell", {"command": "winmcp-gateway pin accept --yes"}),
        ]
        for tool, args in calls:
            text = first_text(await rig.call(tool, args))
            assert text.startswith("DENIED SELF_PROTECTION: "), (tool, args, text)
        assert rig.side_effects() == [] and (state / PIN_FILE).read_bytes() == before
        # The control: the same write elsewhere does reach the simulator.
        text = first_text(await rig.call("FileSystem", {"mode": "write", "path": "notes.txt", "content": "x"}))
        assert text.startswith("Written to") and len(rig.side_effects()) == 1


@requirement("S-PIN-08")
async def test_warn_mode_reports_a_changed_click_and_lets_it_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    async with gateway_rig(tmp_path / "first", state_dir=state) as rig:
        await names(rig)
    monkeypatch.setenv(ENV_VARIANT, "click-reworded")
    async with gateway_rig(tmp_path / "second", state_dir=state, config={"pin_mode": "warn"}) as rig:
        assert "Click" in await names(rig)
        await rig.call("Snapshot", {"use_vision": False})
        result = await rig.call("Click", {"loc": [100, 100]})
        assert not result.get("isError"), first_text(result)
        assert len(clicks(rig)) == 1
        configs = [x for x in rig.audit_lines() if x["event"] == "config" and x.get("code") == "TOOL_CHANGED"]
        assert configs and "reported only" in configs[0]["reason"]
    config = load_config(environ={}, state_dir=state, overrides={"pin_mode": "warn"})
    banner = "\n".join(serve_banner(config, UpstreamSpec.simulator(), http=None, mode="legacy"))
    assert "pin_mode = warn" in banner


@requirement("S-PIN-10")
async def test_a_tool_changed_mid_session_is_withdrawn_announced_and_refused(tmp_path: Path) -> None:
    """The upstream says its tool list changed; the client is told, Click is gone, a call never arrives."""
    app, upstream, _ = stub_app(tmp_path / "state", upstream_list())
    probe = ClientProbe()
    with anyio.fail_after(30):
        async with in_process(app, "legacy", probe) as client:
            assert "Click" in {t.name for t in (await client.list_tools()).tools}
            upstream.tools = upstream_list("click-reworded")
            await router_for(app).notification("notifications/tools/list_changed", None)  # as the upstream sends it
            await probe.wait_note("notifications/tools/list_changed")
            listed = {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
            assert "Click" not in listed and "Type" in listed
            text = first_text(wire(await client.call_tool("Click", {"loc": [1, 1]})))
            assert text.startswith("DENIED TOOL_CHANGED: "), text
    assert upstream.calls == []
