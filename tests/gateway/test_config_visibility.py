"""Config warnings are visible everywhere, and shadow mode says so (S-CFG-06, S-CFG-07).

Through a real client ⇄ gateway ⇄ simulator: stderr at start, `config` audit events,
`winmcp_state`, `winmcp_doctor`; and `enforce = false` forwarding a would-be refusal.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client

import gateway.config.load as config_module
from gateway.app import open_gateway
from gateway.cli import main as cli_main
from gateway.config.load import load_config
from gateway.transport.server import build_server
from tests._requirements import requirement
from tests.e2e.harness import Rig, first_text, gateway_rig, sim_spec

pytestmark = pytest.mark.anyio
BAD = 'max_observation_age_ms = "soon"\nrequire_observaton = false\n'


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config_module, "default_config_file", lambda: tmp_path / "absent.toml")


@contextlib.asynccontextmanager
async def file_rig(tmp: Path, text: str) -> AsyncIterator[Rig]:
    """A gateway whose config comes from a TOML file (the rig in tests/e2e takes flags only)."""
    path = tmp / "config.toml"
    path.write_text(text, encoding="utf-8")
    spec, event_log, control = sim_spec(tmp, "default")
    cfg = load_config(environ={}, config_file=path, state_dir=tmp / "state")
    async with open_gateway(cfg, spec) as app, Client(build_server(app)) as client:
        yield Rig(app=app, client=client, tmp=tmp, event_log=event_log, control=control)


@requirement("S-CFG-06")
async def test_config_warnings_are_audited_and_listed_by_state_and_doctor(tmp_path: Path) -> None:
    """S-CFG-06: each warning is a `config` audit event, in winmcp_state and in the doctor's config check."""
    async with file_rig(tmp_path, BAD) as rig:
        warnings = list(rig.app.config.warnings)
        assert len(warnings) == 2 and "max_observation_age_ms" in warnings[0] and "require_observaton" in warnings[1]
        config_events = [e for e in rig.audit_lines() if e["event"] == "config"]
        assert [e["reason"] for e in config_events] == warnings
        state = await rig.call("winmcp_state")
        assert state["structuredContent"]["config_warnings"] == warnings
        assert all(w in first_text(state) for w in warnings)
        doctor = await rig.call("winmcp_doctor")
        check = next(c for c in doctor["structuredContent"]["checks"] if c["id"] == "config")
        assert check["verdict"] == "WARNING"
        assert [f["message"] for f in check["findings"]] == warnings


@requirement("S-CFG-06")
def test_config_warnings_are_printed_to_stderr_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CFG-06: the CLI prints every config warning to stderr first (stdout stays clean)."""
    path = tmp_path / "config.toml"
    path.write_text(BAD, encoding="utf-8")
    monkeypatch.setenv("WINMCP_GATEWAY_CONFIG", str(path))
    rc = cli_main(["kill", "status", "--json", "--state-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert rc == 0 and json.loads(out)["engaged"] is False
    lines = [x for x in err.splitlines() if x.startswith("winmcp-gateway: warning: config")]
    assert len(lines) == 2 and "max_observation_age_ms" in lines[0] and "'soon'" in lines[0]


@requirement("S-CFG-07")
async def test_shadow_mode_forwards_a_would_be_refusal_and_says_so(tmp_path: Path) -> None:
    """S-CFG-07: with enforce = false a refused click is forwarded; result and audit say would-deny."""
    async with gateway_rig(tmp_path, config={"enforce": False}) as rig:
        result = await rig.call("Click", {"loc": [640, 480]})
        assert result["isError"] is False
        notes = [c["text"] for c in result["content"] if c.get("type") == "text" and "SHADOW MODE" in c["text"]]
        assert len(notes) == 1 and "NO_OBSERVATION" in notes[0]
        assert [e["kind"] for e in rig.side_effects()] == ["click"]
        allowed = [e for e in rig.audit_lines() if e["event"] == "allow" and e.get("tool") == "Click"]
        assert len(allowed) == 1 and allowed[0]["would"] == "deny" and allowed[0]["code"] == "NO_OBSERVATION"
        doctor = await rig.call("winmcp_doctor")
        config_check = next(c for c in doctor["structuredContent"]["checks"] if c["id"] == "config")
        assert any("enforce = false" in f["message"] for f in config_check["findings"])


@requirement("S-CFG-07")
async def test_shadow_mode_never_shadows_the_kill_switch(tmp_path: Path) -> None:
    """S-CFG-07: even with enforce = false an engaged kill switch refuses (KILLED is always enforced)."""
    async with gateway_rig(tmp_path, config={"enforce": False}) as rig:
        rig.app.kill.engage(by="person", reason="test")
        result = await rig.call("Click", {"loc": [640, 480]})
        assert result["isError"] is True and first_text(result).startswith("DENIED KILLED")
        assert rig.side_effects() == []
