"""Approvals end to end: out of band (approve CLI) and through elicitation (S-FLOW-11, S-APR-06, S-APR-07).

The force-kill rule asks; `require_approval = true` makes every SYSTEM call ask. The
simulator's event log proves what ran: exactly the approved calls, each once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from gateway.cli import main as cli_main
from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_rig

pytestmark = pytest.mark.anyio

KILL = {"mode": "kill", "name": "notepad.exe", "force": True}


def _approval_id(result: dict[str, Any]) -> str:
    text = first_text(result)
    assert text.startswith("DENIED APPROVAL_REQUIRED: "), text
    return "apr-" + text.split("apr-")[1][:10]


def _kills(rig: Any) -> int:
    return sum(1 for e in rig.side_effects() if e["kind"] == "process_kill")


@requirement("S-FLOW-11")
async def test_out_of_band_approval_runs_the_identical_call_once(tmp_path: Path) -> None:
    """S-FLOW-11: a client without elicitation gets an approval id; approve → once; replay and changes refused."""
    async with gateway_rig(tmp_path) as rig:
        approval_id = _approval_id(await rig.call("Process", KILL))
        assert _kills(rig) == 0
        early = await rig.call("Process", {**KILL, "approval_id": approval_id})
        assert first_text(early).startswith("DENIED APPROVAL_REQUIRED: "), "not approved yet"
        assert cli_main(["approve", approval_id, "--yes", "--state-dir", str(rig.app.config.state_dir)]) == 0
        changed = await rig.call("Process", {**KILL, "name": "explorer.exe", "approval_id": approval_id})
        assert first_text(changed).startswith("DENIED "), "an approval covers only the identical call"
        ran = await rig.call("Process", {**KILL, "approval_id": approval_id})
        assert ran["isError"] is False, first_text(ran)
        replay = await rig.call("Process", {**KILL, "approval_id": approval_id})
        assert first_text(replay).startswith("DENIED APPROVAL_DENIED: ")
        assert _kills(rig) == 1


@requirement("S-FLOW-11")
async def test_an_expired_approval_is_refused(tmp_path: Path) -> None:
    """S-FLOW-11: a request nobody answered in time cannot be granted; a grant unused past its ttl is refused."""
    async with gateway_rig(tmp_path, config={"approval_ttl_ms": 5000}) as rig:
        state = str(rig.app.config.state_dir)
        real = time.time()
        now = [real - 600.0]  # the gateway's clock, anchored to the real one the CLI reads
        rig.app.clock = lambda: now[0]
        stale_request = _approval_id(await rig.call("Process", KILL))
        assert cli_main(["approve", stale_request, "--yes", "--state-dir", state]) == 2, "expired before the answer"

        now[0] = time.time()  # the first part may have taken a while on a loaded machine
        approval_id = _approval_id(await rig.call("Process", KILL))
        assert cli_main(["approve", approval_id, "--yes", "--state-dir", state]) == 0
        now[0] = time.time() + 10.0  # the grant (ttl 5 s) is used too late
        late = await rig.call("Process", {**KILL, "approval_id": approval_id})
        assert first_text(late).startswith("DENIED APPROVAL_DENIED: ")
        assert "expired" in first_text(late)
        assert _kills(rig) == 0


@requirement("S-FLOW-11")
async def test_require_approval_asks_for_every_system_call(tmp_path: Path) -> None:
    """S-FLOW-11: require_approval = true: even Get-Date waits for a person; observation does not."""
    async with gateway_rig(tmp_path, config={"require_approval": True}) as rig:
        assert (await rig.call("Snapshot", {}))["isError"] is False
        _approval_id(await rig.call("PowerShell", {"command": "Get-Date"}))
        assert rig.side_effects() == []


def _elicitor(choice: str | None, asked: list[str]) -> Any:
    async def callback(ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        if choice is None:
            await anyio.sleep_forever()  # the person never answers
        return types.ElicitResult(action="accept", content={"decision": choice})

    return callback


@pytest.mark.parametrize(("choice", "runs"), [("approve_once", 1), ("deny", 0)])
@requirement("S-APR-06")
async def test_a_client_with_elicitation_asks_the_person_mid_call(tmp_path: Path, choice: str, runs: int) -> None:
    """S-APR-06: 2025-11-25 elicitation shows tool, arguments and rule; the answer decides, once."""
    asked: list[str] = []
    async with gateway_rig(tmp_path, elicitation_callback=_elicitor(choice, asked)) as rig:
        result = await rig.call("Process", KILL)
        assert bool(result["isError"]) is (runs == 0)
        if runs == 0:
            assert first_text(result).startswith("DENIED APPROVAL_DENIED: ")
        assert len(asked) == 1
        assert "Tool: Process" in asked[0] and '"force": true' in asked[0] and "force-kill" in asked[0]
        assert _kills(rig) == runs
        events = [line["event"] for line in rig.audit_lines()]
        assert "approval" in events


@requirement("S-APR-06")
async def test_a_session_grant_covers_identical_calls_without_asking_again(tmp_path: Path) -> None:
    """S-APR-06: "approve for this session" covers the identical call again, and only that call."""
    asked: list[str] = []
    async with gateway_rig(tmp_path, elicitation_callback=_elicitor("approve_session", asked)) as rig:
        assert (await rig.call("Process", KILL))["isError"] is False
        assert (await rig.call("Process", KILL))["isError"] is False
        assert len(asked) == 1
        await rig.call("Process", {**KILL, "name": "calc.exe"})
        assert len(asked) == 2, "a different call is asked again"
        forwarded = [line for line in rig.audit_lines() if line["event"] == "allow" and line["tool"] == "Process"]
        assert len(forwarded) == 3  # the simulator kills notepad once; later kills find nothing to log


@requirement("S-APR-07")
async def test_no_answer_from_the_person_ends_in_a_deny(tmp_path: Path) -> None:
    """S-APR-07: waiting ends after approval_wait_s with a deny; nothing runs."""
    asked: list[str] = []
    async with gateway_rig(tmp_path, config={"approval_wait_s": 1}, elicitation_callback=_elicitor(None, asked)) as rig:
        with anyio.fail_after(20):
            result = await rig.call("Process", KILL)
        assert first_text(result).startswith("DENIED APPROVAL_DENIED: ")
        assert "no answer" in first_text(result)
        assert _kills(rig) == 0


@pytest.mark.parametrize(("choice", "runs"), [("approve_once", 1), ("deny", 0)])
@requirement("S-APR-08")
async def test_the_2026_era_asks_through_an_input_required_round_trip(tmp_path: Path, choice: str, runs: int) -> None:
    """S-APR-08: on 2026-07-28 the call answers InputRequiredResult; the client asks and retries the identical call."""
    asked: list[str] = []
    async with gateway_rig(tmp_path, client_mode="auto", elicitation_callback=_elicitor(choice, asked)) as rig:
        assert rig.client.protocol_version == "2026-07-28"
        result = await rig.call("Process", KILL)
        assert bool(result["isError"]) is (runs == 0), first_text(result)
        assert len(asked) == 1 and "force-kill" in asked[0]
        assert _kills(rig) == runs
        asks = [line for line in rig.audit_lines() if line["event"] == "ask"]
        assert asks and asks[0].get("channel") == "elicitation"


@requirement("S-APR-08")
async def test_a_forged_request_state_cannot_resume_someone_elses_approval(tmp_path: Path) -> None:
    """S-APR-08: a retry whose request_state is not the gateway's signature for this call starts over (asks again)."""
    from gateway.state.signer import StateSigner

    signer = StateSigner()
    state = signer.sign("apr-0123456789", "digest-of-another-call")
    assert signer.approval_id(state, "digest-of-another-call") == "apr-0123456789"
    assert signer.approval_id(state, "digest-of-this-call") is None
    assert signer.approval_id("apr-0123456789.forged", "digest-of-another-call") is None
    assert StateSigner().approval_id(state, "digest-of-another-call") is None, "another process's key"
