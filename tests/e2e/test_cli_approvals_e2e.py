"""Approvals a person can answer, through the whole gateway (in process, the simulator behind it):
the refusal names the state dir, `approvals` lists the request, both kinds of answer are audited
with who gave them (S-APR-30, S-APR-31, S-APR-32); and the `-v` line of each call (S-CLI-41)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest

from gateway.cli import main as cli_main
from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_rig

pytestmark = pytest.mark.anyio

KILL = {"mode": "kill", "name": "notepad.exe", "force": True}


def _approval_id(text: str) -> str:
    assert text.startswith("DENIED APPROVAL_REQUIRED: "), text
    return "apr-" + text.split("apr-")[1][:10]


@requirement("S-APR-30", "S-APR-31", "S-APR-32")
async def test_a_person_finds_answers_and_is_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-APR-31: the remedy carries --state-dir; S-APR-30: `approvals` lists it; S-APR-32: the answer is audited."""
    async with gateway_rig(tmp_path) as rig:
        state = rig.app.config.state_dir
        text = first_text(await rig.call("Process", KILL))
        approval_id = _approval_id(text)
        assert f"`winmcp-gateway approve {approval_id} --state-dir {state}`" in text
        assert f"`deny {approval_id} --state-dir {state}`" in text
        capsys.readouterr()
        assert cli_main(["approvals", "--state-dir", str(state)]) == 0
        [row] = [line for line in capsys.readouterr().out.splitlines() if line.startswith(approval_id)]
        assert "Process" in row and "force-kill" in row and "stdio:" in row
        assert cli_main(["approve", approval_id, "--yes", "--state-dir", str(state)]) == 0
        assert (await rig.call("Process", {**KILL, "approval_id": approval_id}))["isError"] is False
        answers = [e for e in rig.audit_lines() if e["event"] == "approval"]
        assert [(e["by"], e["approval"], e["answer"]) for e in answers] == [("cli", approval_id, "once")]
        capsys.readouterr()
        assert cli_main(["approvals", "--state-dir", str(state)]) == 0
        assert capsys.readouterr().out.startswith("no approval request is waiting")


def _elicitor(choice: str) -> Any:
    async def callback(ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"decision": choice})

    return callback


@pytest.mark.parametrize("choice", ["approve_once", "deny"])
@requirement("S-APR-32")
async def test_an_answer_through_elicitation_is_audited_by_elicitation(tmp_path: Path, choice: str) -> None:
    """S-APR-32: the person's answer in the client is an `approval` event with by "elicitation"."""
    async with gateway_rig(tmp_path, elicitation_callback=_elicitor(choice)) as rig:
        await rig.call("Process", KILL)
        answers = [e for e in rig.audit_lines() if e["event"] == "approval"]
        assert [e["by"] for e in answers] == ["elicitation"]


@requirement("S-CLI-41")
async def test_each_call_through_the_gateway_logs_one_line_when_verbose(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """S-CLI-41: with INFO on `gateway.calls` each tools/call logs tool, outcome and ms; at WARNING nothing."""
    async with gateway_rig(tmp_path) as rig:
        with caplog.at_level(logging.WARNING, logger="gateway.calls"):
            await rig.call("Click", {"loc": [1, 1]})
        assert [r for r in caplog.records if r.name == "gateway.calls"] == []
        with caplog.at_level(logging.INFO, logger="gateway.calls"):
            await rig.call("Click", {"loc": [1, 1]})
            await rig.call("Snapshot", {})
            await rig.call("winmcp_state", {})
        lines = [r.getMessage().rsplit(" ", 2)[0] for r in caplog.records if r.name == "gateway.calls"]
        assert lines == ["Click DENIED NO_OBSERVATION", "Snapshot OK", "winmcp_state OK"]
