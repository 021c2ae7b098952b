"""Binds features/approval_lifetimes.feature (S-APR-09..15) to the flows the e2e tests run.

The async flows (`tests/e2e/approval_lifetimes_flows.py`) are run from pytest-bdd's
synchronous steps with `anyio.run`; each When step runs one whole flow and keeps its facts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.cli import approvals as approvals_module  # the CLI answer lives there
from gateway.cli import main as cli_main
from gateway.state.approvals import ApprovalStore, new_approval_id
from policy import approval_digest
from policy.approval import grant as real_grant
from policy.values import Approval
from tests.e2e import approval_lifetimes_flows as flows
from tests.e2e.harness import first_text

scenarios("approval_lifetimes.feature")

ERAS = {"legacy": "legacy", "2026-07-28": "auto"}


@dataclass
class World:
    """The scenario's temp dir, what it was given, and the facts the flow returned."""

    tmp: Path
    mode: str = "legacy"
    facts: dict[str, Any] = field(default_factory=dict)
    request: Approval | None = None
    rc: int | None = None
    err: str = ""


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp=tmp_path)


def _refused(result: dict[str, Any], code: str) -> bool:
    return first_text(result).startswith(f"DENIED {code}: ")


# -- S-APR-09 ---------------------------------------------------------------------------------------


@given(parsers.parse('a person approved the force kill "for this session" in one gateway process in the {era} era'))
def _next_process(world: World, era: str) -> None:
    world.mode = ERAS[era]


@when("a new gateway process on the same state dir is asked for the identical call twice")
def _run_next_process(world: World) -> None:
    world.facts = anyio.run(flows.next_process_flow, world.tmp, world.mode)
    before = world.facts["before"]
    assert before["first"]["isError"] is False and before["asked"] == 1 and before["kills"] == 1, before


@then("both calls are refused with APPROVAL_REQUIRED")
def _both_refused(world: World) -> None:
    after = world.facts["after"]
    assert _refused(after["first"], "APPROVAL_REQUIRED") and _refused(after["second"], "APPROVAL_REQUIRED")


@then("the second simulator recorded no kill")
def _second_no_kill(world: World) -> None:
    assert world.facts["after"]["kills"] == 0


@then("the two processes audited two different random stdio session keys")
def _two_keys(world: World) -> None:
    keys = {s for s in world.facts["sessions"] if s.startswith("stdio")}
    assert len(keys) == 2 and all(flows.STDIO_KEY.fullmatch(k) for k in keys), keys


@when("two gateways share a state dir and the first one's client approves the force kill for its session")
def _side_by_side(world: World) -> None:
    world.facts = anyio.run(flows.side_by_side_flow, world.tmp)
    assert world.facts["granted"]["isError"] is False and world.facts["again"]["isError"] is False


@then("the second gateway's identical call is refused with APPROVAL_REQUIRED")
def _other_refused(world: World) -> None:
    assert _refused(world.facts["other"], "APPROVAL_REQUIRED")


@then("the first gateway's simulator recorded 1 kill and the second's none")
def _kills_side_by_side(world: World) -> None:
    assert (world.facts["kills_a"], world.facts["kills_b"]) == (1, 0)


# -- S-APR-10 ---------------------------------------------------------------------------------------


@given(parsers.parse('a gateway with approval_ttl_ms = {ttl:d} and a client that approves "for this session"'))
def _ttl_gateway(world: World, ttl: int) -> None:
    world.facts["ttl"] = ttl


@when("the force kill is called, again 4 s later, and again 6 s after the grant")
def _ttl_calls(world: World) -> None:
    world.facts = anyio.run(flows.ttl_flow_elicitation, world.tmp, world.facts["ttl"])


@then("the person was asked once for the first two calls and again for the third")
def _asked_again(world: World) -> None:
    assert world.facts["within"]["isError"] is False
    assert (world.facts["asked_within"], world.facts["asked"]) == (1, 2)


# -- S-APR-11 / S-APR-12 ----------------------------------------------------------------------------


STALE_STEP = (
    'a state dir holding {count:d} approvals nobody can use, among them a never-ending "stdio" grant of the force kill'
)


@given(parsers.parse(STALE_STEP))
def _stale(world: World, count: int) -> None:
    world.facts["count"] = count


@when("a Snapshot is taken and then the force kill is called")
def _snapshot_then_kill(world: World) -> None:
    world.facts["clean"] = anyio.run(flows.per_call_cost_flow, world.tmp / "clean", 0)
    world.facts["stale"] = anyio.run(flows.per_call_cost_flow, world.tmp / "stale", world.facts["count"])


@then("the Snapshot opened and listed as many approval files as with an empty state dir")
def _same_cost(world: World) -> None:
    stale, clean = world.facts["stale"], world.facts["clean"]
    assert stale["snapshot"]["isError"] is False
    assert stale["files_before"] == world.facts["count"]
    assert stale["snapshot_io"] == clean["snapshot_io"] and stale["snapshot_io"]["listed"] == 0


@then("the force kill is refused with APPROVAL_REQUIRED and the simulator recorded no kill")
def _stale_kill_refused(world: World) -> None:
    assert _refused(world.facts["stale"]["kill"], "APPROVAL_REQUIRED") and world.facts["stale"]["kills"] == 0


@then("only the request just written is left in the approvals dir")
def _pruned(world: World) -> None:
    assert world.facts["stale"]["files_after"] == 1


# -- S-APR-13 ---------------------------------------------------------------------------------------


@given("a person approved the force kill once")
def _approved_once(world: World) -> None:
    pass  # the flow asks, and the person approves through the CLI


@when("six identical calls cite the approval at the same time")
def _six(world: World) -> None:
    world.facts = anyio.run(flows.concurrent_spend_flow, world.tmp, 6)


@then("one call runs and five are refused with APPROVAL_DENIED")
def _one_runs(world: World) -> None:
    results = world.facts["results"]
    assert sum(r["isError"] is False for r in results) == 1
    assert sum(_refused(r, "APPROVAL_DENIED") for r in results) == 5


@then("the simulator recorded exactly 1 kill")
def _one_kill(world: World) -> None:
    assert world.facts["kills"] == 1


# -- S-APR-14 ---------------------------------------------------------------------------------------


@given("a pending approval request")
def _pending(world: World) -> None:
    now = time.time() * 1000.0
    kill = flows.KILL
    world.request = Approval(
        id=new_approval_id(),
        digest=approval_digest("Process", kill),
        tool="Process",
        session="stdio:0011223344556677",
        created_ms=now,
        expires_ms=now + 120_000,
    )
    ApprovalStore(world.tmp).save(world.request, call={"tool": "Process", "args": kill, "rule": "r", "reason": "why"})


@when("a person approves it while another answer denies it")
def _approve_while_denied(world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    store = ApprovalStore(world.tmp)

    def grant_while_someone_denies(a: Approval, **kw: Any) -> Approval:
        store.save(replace(a, status="denied", decided_ms=a.created_ms))
        return real_grant(a, **kw)

    monkeypatch.setattr(approvals_module, "grant", grant_while_someone_denies)
    assert world.request is not None
    world.rc = cli_main(["approve", world.request.id, "--yes", "--state-dir", str(world.tmp)])
    world.err = capsys.readouterr().err


@then("approve exits with 2 saying the request changed")
def _exit_2(world: World) -> None:
    assert world.rc == 2 and "changed while you answered" in world.err


@then("the stored request says denied")
def _denied(world: World) -> None:
    assert world.request is not None
    stored = ApprovalStore(world.tmp).load(world.request.id)
    assert stored is not None and stored.status == "denied"


# -- S-APR-15 ---------------------------------------------------------------------------------------


@given("a person approved the force kill for the session from the command line")
def _session_cli(world: World) -> None:
    pass  # the flow asks, approves with --session and makes one covered call


@when("the person denies the same approval id")
def _revoke(world: World) -> None:
    world.facts = anyio.run(flows.revoke_flow, world.tmp)
    assert world.facts["covered"]["isError"] is False and world.facts["rc"] == 0


@then("the identical call asks again and citing the id is refused with APPROVAL_DENIED")
def _asks_again(world: World) -> None:
    assert _refused(world.facts["after"], "APPROVAL_REQUIRED")
    assert _refused(world.facts["cited"], "APPROVAL_DENIED")
