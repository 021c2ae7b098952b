"""Approval lifetimes as pure values: a session grant's ttl, judging again after a lost race (S-APR-10, S-APR-13)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy import Code, Verdict, approval_digest, consume_approval, grant_approval, session_approval
from policy.approval import recheck
from policy.values import Approval
from tests._requirements import requirement
from tests.policy._world import SESSION, T0, call

TTL = 120_000.0


def _pending() -> Approval:
    return Approval(
        id="apr-1",
        digest=approval_digest("PowerShell", {"command": "Get-Date"}),
        tool="PowerShell",
        session=SESSION,
        created_ms=T0,
        expires_ms=T0 + TTL,
    )


@requirement("S-APR-10")
@pytest.mark.parametrize(("offset", "covered"), [(0, True), (TTL, True), (TTL + 1, False), (10 * TTL, False)])
def test_a_session_grant_with_a_lifetime_ends_after_it(offset: float, covered: bool) -> None:
    """S-APR-10: the grant covers identical calls up to session_ttl_ms after the grant, not after."""
    grant = grant_approval(_pending(), scope="session", now_ms=T0 + 5, ttl_ms=TTL, session_ttl_ms=TTL)
    assert grant.expires_ms == T0 + 5 + TTL
    held = session_approval({"apr-1": grant}, call("PowerShell", command="Get-Date"), T0 + 5 + offset)
    assert (held is not None) is covered
    after, decision = consume_approval(
        grant, call("PowerShell", command="Get-Date", approval_id="apr-1"), T0 + 5 + offset
    )
    assert (decision.verdict is Verdict.ALLOW) is covered
    if not covered:
        assert decision.code is Code.APPROVAL_DENIED and "expired" in decision.reason


@requirement("S-APR-10")
def test_a_once_grant_ignores_the_session_lifetime() -> None:
    """S-APR-10: session_ttl_ms is for session grants; a once grant keeps approval_ttl_ms."""
    once = grant_approval(_pending(), scope="once", now_ms=T0, ttl_ms=TTL, session_ttl_ms=5.0)
    assert once.expires_ms == T0 + TTL


@requirement("S-APR-13")
def test_recheck_refuses_an_approval_used_or_gone_meanwhile() -> None:
    """S-APR-13: the loser of a race is judged on what is stored now."""
    c = call("PowerShell", command="Get-Date", approval_id="apr-1")
    once = grant_approval(_pending(), scope="once", now_ms=T0, ttl_ms=TTL)
    used, _ = consume_approval(once, c, T0 + 1)
    assert used is not None
    state, decision = recheck(used, "apr-1", c, T0 + 2)
    assert state == used and decision.code is Code.APPROVAL_DENIED and "already used" in decision.reason
    gone, decision = recheck(None, "apr-1", c, T0 + 2)
    assert gone is None and decision.code is Code.APPROVAL_DENIED and decision.spec == "S-APR-13"
    assert decision.approval_id == "apr-1" and decision.digest == approval_digest(c.tool, c.args)


@requirement("S-APR-13")
def test_recheck_lets_a_session_grant_count_both_uses() -> None:
    """S-APR-13: two calls of one session racing on its grant both run; the stored uses count both."""
    grant = grant_approval(_pending(), scope="session", now_ms=T0, ttl_ms=TTL, session_ttl_ms=TTL)
    moved = replace(grant, uses=1)
    state, decision = recheck(moved, "apr-1", call("PowerShell", command="Get-Date"), T0 + 1)
    assert decision.verdict is Verdict.ALLOW and state is not None and state.uses == 2
