"""Approval lifetimes end to end (issue 12 item 3; S-APR-09..15).

The negative is proved from the simulators' event logs: a grant of one gateway process runs
nothing through another, an expired or revoked grant runs nothing more, and one single-use
approval kills notepad exactly once however many calls cite it at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._requirements import requirement
from tests.e2e import approval_lifetimes_flows as flows
from tests.e2e.harness import first_text

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@requirement("S-APR-09")
async def test_a_session_grant_is_not_honoured_by_the_next_gateway_process(tmp_path: Path, mode: str) -> None:
    """S-APR-09: the issue's repro, with real `serve` children over stdio in each protocol era."""
    facts = await flows.next_process_flow(tmp_path, mode)
    before, after = facts["before"], facts["after"]
    assert before["first"]["isError"] is False and before["second"]["isError"] is False, before
    assert before["asked"] == 1, "the grant covered the repeat in its own session"
    assert before["kills"] == 1
    assert first_text(after["first"]).startswith("DENIED APPROVAL_REQUIRED: "), "a new process asks again"
    assert first_text(after["second"]).startswith("DENIED APPROVAL_REQUIRED: ")
    assert after["kills"] == 0, "nothing reached the second desktop"
    stdio_keys = {s for s in facts["sessions"] if s.startswith("stdio")}
    assert len(stdio_keys) == 2 and all(flows.STDIO_KEY.fullmatch(s) for s in stdio_keys), facts["sessions"]


@requirement("S-APR-09")
async def test_a_session_grant_is_not_honoured_by_a_gateway_running_beside_it(tmp_path: Path) -> None:
    """S-APR-09: two gateways share a state dir at once; only the granting session's calls are covered."""
    facts = await flows.side_by_side_flow(tmp_path)
    assert facts["granted"]["isError"] is False and facts["again"]["isError"] is False
    assert facts["asked"] == 1
    assert first_text(facts["other"]).startswith("DENIED APPROVAL_REQUIRED: ")
    assert (facts["kills_a"], facts["kills_b"]) == (1, 0)
    assert len({s for s in facts["sessions"] if s.startswith("stdio:")}) == 2


@requirement("S-APR-10")
async def test_a_session_grant_through_elicitation_ends_after_the_ttl(tmp_path: Path) -> None:
    """S-APR-10: within approval_ttl_ms of the grant the repeat is not asked; after it, the person is asked again."""
    facts = await flows.ttl_flow_elicitation(tmp_path)
    assert facts["first"]["isError"] is False and facts["within"]["isError"] is False
    assert facts["asked_within"] == 1
    assert facts["asked"] == 2, "past approval_ttl_ms the grant no longer covers the call"


@requirement("S-APR-10")
async def test_a_session_grant_from_the_cli_ends_after_the_ttl(tmp_path: Path) -> None:
    """S-APR-10: `approve --session` covers identical calls for approval_ttl_ms, then the call asks again."""
    facts = await flows.ttl_flow_cli(tmp_path)
    assert facts["rc"] == 0
    assert facts["within"]["isError"] is False, first_text(facts["within"])
    assert first_text(facts["after"]).startswith("DENIED APPROVAL_REQUIRED: ")
    assert facts["kills"] == 1


@requirement("S-APR-11", "S-APR-12")
async def test_stale_files_cost_a_snapshot_nothing_and_the_next_request_prunes_them(tmp_path: Path) -> None:
    """S-APR-12: a Snapshot opens and lists the same approval files with 2,000 stale ones as with none;
    S-APR-11: the next request written sweeps them; the old "stdio" grant of the kill never covers it."""
    clean = await flows.per_call_cost_flow(tmp_path / "clean", 0)
    stale = await flows.per_call_cost_flow(tmp_path / "stale", 2000)
    assert clean["snapshot"]["isError"] is False and stale["snapshot"]["isError"] is False
    assert stale["snapshot_io"] == clean["snapshot_io"], (stale["snapshot_io"], clean["snapshot_io"])
    assert stale["snapshot_io"]["listed"] == 0 and stale["snapshot_io"]["opened"] <= 2
    assert stale["files_before"] == 2000
    assert first_text(stale["kill"]).startswith("DENIED APPROVAL_REQUIRED: "), "no stale grant covers the call"
    assert stale["kills"] == 0
    assert stale["files_after"] == 1, "only the request just written is left"


@requirement("S-APR-13")
async def test_concurrent_calls_citing_one_once_approval_kill_once(tmp_path: Path) -> None:
    """S-APR-13: six identical calls cite one once-approval at the same time: one runs, five are refused."""
    facts = await flows.concurrent_spend_flow(tmp_path)
    ran = [r for r in facts["results"] if r["isError"] is False]
    refused = [r for r in facts["results"] if first_text(r).startswith("DENIED APPROVAL_DENIED: ")]
    assert (len(ran), len(refused)) == (1, 5)
    assert facts["kills"] == 1


@requirement("S-APR-13")
async def test_an_approval_spent_by_another_process_meanwhile_runs_nothing_here(tmp_path: Path) -> None:
    """S-APR-13: the write is compare-and-set: the loser of the race is refused and forwards nothing."""
    facts = await flows.spent_elsewhere_flow(tmp_path)
    assert first_text(facts["result"]).startswith("DENIED APPROVAL_DENIED: "), first_text(facts["result"])
    assert "already used" in first_text(facts["result"])
    assert facts["kills"] == 0
    assert facts["stored"] is not None and (facts["stored"].status, facts["stored"].uses) == ("used", 1)


@requirement("S-APR-15")
async def test_a_revoked_session_grant_stops_covering_calls_at_once(tmp_path: Path) -> None:
    """S-APR-15: `deny ID` on a session grant: the next identical call asks again; citing the id is refused."""
    facts = await flows.revoke_flow(tmp_path)
    assert facts["covered"]["isError"] is False
    assert facts["rc"] == 0
    assert first_text(facts["after"]).startswith("DENIED APPROVAL_REQUIRED: ")
    assert first_text(facts["cited"]).startswith("DENIED APPROVAL_DENIED: ")
    assert facts["kills"] == 1
