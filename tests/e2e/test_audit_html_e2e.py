"""A real session's audit against the audit-line schema, and its HTML page (S-AREP-05, S-AREP-06, S-AREP-08).

An MCP client drives the gateway on the simulated two-monitor desktop (a display left of the
primary: negative origin) through every kind of line the product writes — observation, allow and
outcome, deny, ask, a person's approval and kill switch from the command line, the model's kill
switch, a config warning and a torn-line failure — and every line must conform to the schema with
no field the schema does not name (`closed_schema`).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from gateway.audit.reader import audit_files
from gateway.audit.report import main as report_main
from gateway.audit.schema import closed_schema
from gateway.audit.writer import AuditLog
from gateway.cli import main as cli_main
from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_rig

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

CLICK = [300, 200]  # on the primary display of dual-negative


async def run_flow(tmp: Path) -> Path:
    """Drive one session through every kind of audit line; returns the state dir."""
    async with gateway_rig(tmp, scenario="dual-negative", config={"max_observation_age_ms": "soon"}) as rig:
        state = rig.app.config.state_dir
        assert first_text(await rig.call("Click", {"loc": CLICK})).startswith("DENIED NO_OBSERVATION")
        snap = await rig.call("Snapshot", {"use_vision": True})
        first = first_text(snap) and _obs_id(snap)
        assert (await rig.call("Click", {"loc": CLICK, "based_on": first}))["isError"] is False
        second = _obs_id(await rig.call("Snapshot", {}))
        stale = await rig.call("Click", {"loc": [-1500, 300], "based_on": first})
        assert first_text(stale).startswith("DENIED STALE_OBSERVATION"), first_text(stale)
        rule = await rig.call("PowerShell", {"command": "Remove-Item -Recurse -Force C:\\Users\\demo\\Documents"})
        assert first_text(rule).startswith("DENIED COMMAND_RULE")
        assert (await rig.call("PowerShell", {"command": "Get-Date"}))["isError"] is False
        ask = first_text(await rig.call("Process", {"mode": "kill", "name": "notepad.exe", "force": True}))
        assert ask.startswith("DENIED APPROVAL_REQUIRED"), ask
        approval = "apr-" + ask.split("apr-")[1][:10]
        assert cli_main(["approve", approval, "--yes", "--state-dir", str(state)]) == 0
        await rig.call("winmcp_kill", {"action": "engage", "reason": "test stop"})
        killed = await rig.call("Click", {"loc": CLICK, "based_on": second})
        assert first_text(killed).startswith("DENIED KILLED")
        await rig.call("winmcp_kill", {"action": "release"})
        assert cli_main(["kill", "engage", "--state-dir", str(state)]) == 0
        assert cli_main(["kill", "release", "--state-dir", str(state)]) == 0
        rig.audit_lines()
    with open(state / "audit.jsonl", "ab") as f:
        f.write(b'{"event":"allow","se')  # a writer killed mid-line; the next one says so (S-AUD-05)
    AuditLog(state).append("config", reason="restarted after a crash")
    return state


def _obs_id(result: dict[str, Any]) -> str:
    for item in result.get("content", []):
        text = str(item.get("text", ""))
        if text.startswith("[gateway] obs="):
            return text.split("obs=")[1].split()[0]
    raise AssertionError("no annotation line")


def lines_of(state: Path) -> list[dict[str, Any]]:
    out = []
    for path in audit_files(state):
        for raw in path.read_text(encoding="utf-8").split("\n"):  # not splitlines: a title may hold U+2028
            try:
                out.append(json.loads(raw))
            except ValueError:
                continue  # the torn fragment (and the end of the file): the chain check's business
    return out


@requirement("S-AREP-06", "S-AREP-08")
async def test_every_line_a_real_session_writes_conforms_and_names_only_schema_fields(tmp_path: Path) -> None:
    """S-AREP-06/08: every event kind the product writes conforms to the closed schema; verify passes."""
    state = await run_flow(tmp_path)
    records = lines_of(state)
    kinds = {r["event"] for r in records}
    assert kinds >= {"observation", "allow", "outcome", "deny", "ask", "approval", "kill", "config", "failure"}
    validator = Draft202012Validator(closed_schema())
    problems = [(r["seq"], e.message) for r in records for e in validator.iter_errors(r)]
    assert problems == []
    observations = [r for r in records if r["event"] == "observation"]
    assert observations and all(r["screen"]["displays"] for r in observations)
    assert observations[0]["screen"]["displays"] == [[0, 0, 2560, 1440], [-1920, 0, 0, 1080]]
    out, err = io.StringIO(), io.StringIO()
    assert report_main(["--state-dir", str(state), "--verify"], stdout=out, stderr=err) == 0, err.getvalue()
    assert f"all {len(records)} lines conform" in out.getvalue()


@requirement("S-AREP-05")
async def test_the_html_page_of_a_real_session_draws_its_displays_and_clicks(tmp_path: Path) -> None:
    """S-AREP-05: the page of a real session has one SVG per observation with both displays and the click."""
    state = await run_flow(tmp_path)
    page = tmp_path / "audit.html"
    err = io.StringIO()
    assert report_main(["--state-dir", str(state), "--html", str(page)], stdout=io.StringIO(), stderr=err) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count("<svg ") == sum(1 for r in lines_of(state) if r["event"] == "observation")
    assert html.count('class="display primary"') >= 1 and "1: (-1920,0)–(0,1080)" in html
    assert 'class="allowed"' in html and "Click allowed at (300, 200)" in html
    assert 'class="refused"' in html and "refused STALE_OBSERVATION at (-1500, 300)" in html
    assert "Chain OK" in html and "wrote" in err.getvalue()
