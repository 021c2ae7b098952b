"""Approval refusals and transitions, field by field (S-APR-02..05); found by mutation testing.

The shell audits a refusal's digest and approval id and shows its reason and remedy to the model;
the person's `approve`/`deny` commands print an ApprovalError's text. Each is pinned here.
"""

from __future__ import annotations

import pytest

from policy import Approval, ApprovalError, Code, Decision, Verdict, approval_digest
from policy.approval import consume, deny, grant, request
from tests._requirements import requirement
from tests.policy._world import OTHER, SESSION, T0, call

TTL = 120_000.0
NEW = "repeat the call without approval_id to ask a person again"
CALL = call("PowerShell", command="Get-Date", approval_id="apr-1")
DIGEST = approval_digest("PowerShell", {"command": "Get-Date"})


def approval(**changes: object) -> Approval:
    fields: dict[str, object] = {
        "id": "apr-1",
        "digest": DIGEST,
        "tool": "PowerShell",
        "session": SESSION,
        "created_ms": T0,
        "expires_ms": T0 + TTL,
    }
    fields.update(changes)
    return Approval(**fields)  # type: ignore[arg-type]


def refusal(a: Approval | None, c: object = CALL, now: float = T0) -> tuple[object, ...]:
    after, d = consume(a, c, now)  # type: ignore[arg-type]
    assert after is a and d.verdict is not Verdict.ALLOW
    return d.code, d.reason, d.remedy, d.spec, d.digest, d.approval_id


@requirement("S-APR-03")
def test_a_granted_approval_allows_the_call_and_carries_its_digest_and_id() -> None:
    """S-APR-03: the ALLOW names the approval it used and the call's digest (the audit records both)."""
    a = approval(status="approved", decided_ms=T0)
    after, d = consume(a, CALL, T0)
    assert d.verdict is Verdict.ALLOW and (d.digest, d.approval_id) == (DIGEST, "apr-1")
    assert after is not None and after.status == "used" and d.approval == after


@requirement("S-APR-03")
@pytest.mark.parametrize(
    ("cited", "shown"),
    [("apr-9", '"apr-9"'), ("a" * 60, '"' + "a" * 40 + '"'), (None, "the cited approval_id")],
    ids=["named", "cut-at-40", "none"],
)
def test_an_unknown_approval_is_refused_naming_what_was_cited(cited: str | None, shown: str) -> None:
    """S-APR-03: the refusal quotes the cited id (at most 40 characters), or says "the cited approval_id"."""
    c = call("PowerShell", command="Get-Date", approval_id=cited)
    assert refusal(None, c) == (
        Code.APPROVAL_DENIED,
        f"{shown} names no approval of this session.",
        NEW,
        "S-APR-03",
        DIGEST,
        None,
    )


@requirement("S-APR-03")
def test_another_sessions_approval_is_refused_like_an_unknown_one() -> None:
    """S-APR-03: an approval of another session is not revealed: the same words as an unknown id."""
    assert refusal(approval(session=OTHER, status="approved")) == (
        Code.APPROVAL_DENIED,
        '"apr-1" names no approval of this session.',
        NEW,
        "S-APR-03",
        DIGEST,
        None,
    )


@requirement("S-APR-02", "S-APR-03")
def test_an_approval_cited_for_a_changed_call_is_refused_and_says_only_the_identical_call_is_covered() -> None:
    """S-APR-02: a changed argument: APPROVAL_DENIED naming the approval, repeat the exact call or ask again."""
    c = call("PowerShell", command="Get-Date -Format o", approval_id="apr-1")
    assert refusal(approval(status="approved"), c) == (
        Code.APPROVAL_DENIED,
        "approval apr-1 was granted for a different call (the tool or an argument changed); "
        "an approval covers only the identical call.",
        "repeat the exact call that was approved, or " + NEW,
        "S-APR-03",
        approval_digest("PowerShell", {"command": "Get-Date -Format o"}),
        "apr-1",
    )


@requirement("S-APR-03")
@pytest.mark.parametrize(
    ("changes", "code", "reason", "remedy"),
    [
        (
            {"status": "denied"},
            Code.APPROVAL_DENIED,
            "a person denied approval apr-1.",
            "do not repeat this call; ask the person what to do instead",
        ),
        (
            {"status": "used", "uses": 1},
            Code.APPROVAL_DENIED,
            "approval apr-1 was already used; it covers one call.",
            NEW,
        ),
        ({"status": "approved", "expires_ms": T0 - 1}, Code.APPROVAL_DENIED, "approval apr-1 expired.", NEW),
        (
            {},
            Code.APPROVAL_REQUIRED,
            "approval apr-1 is still waiting for a person.",
            "wait until a person runs `winmcp-gateway approve apr-1`, then repeat the identical call",
        ),
    ],
    ids=["denied", "used", "expired", "pending"],
)
def test_an_approval_that_cannot_be_used_is_refused_with_its_own_reason_and_remedy(
    changes: dict[str, object], code: Code, reason: str, remedy: str
) -> None:
    """S-APR-03: denied, used, expired or pending: the refusal names apr-1, the digest and what to do."""
    assert refusal(approval(**changes)) == (code, reason, remedy, "S-APR-03", DIGEST, "apr-1")


@requirement("S-APR-05")
def test_denying_records_when_and_keeps_the_expiry_a_grant_had() -> None:
    """S-APR-05: a denial records the person's time; it keeps the approval's expiry, or expires now if it had none."""
    once = deny(approval(status="approved", expires_ms=T0 + 5), now_ms=T0 + 1)
    assert (once.status, once.decided_ms, once.expires_ms) == ("denied", T0 + 1, T0 + 5)
    session = deny(approval(status="approved", scope="session", expires_ms=None), now_ms=T0 + 2)
    assert (session.status, session.decided_ms, session.expires_ms) == ("denied", T0 + 2, T0 + 2)


@requirement("S-APR-05")
def test_a_transition_that_is_not_allowed_says_which_and_why() -> None:
    """S-APR-05: the person's command prints why: the current status, an expiry, or a bad scope."""
    with pytest.raises(ApprovalError, match=r"^approval apr-1 is used; only a pending or approved one can be denied$"):
        deny(approval(status="used"), now_ms=T0)
    with pytest.raises(ApprovalError, match=r"^approval apr-1 is denied; only a pending approval can be granted$"):
        grant(approval(status="denied"), scope="once", now_ms=T0, ttl_ms=TTL)
    with pytest.raises(
        ApprovalError, match=r"^approval apr-1 expired before it was granted; the call must be asked again$"
    ):
        grant(approval(), scope="once", now_ms=T0 + TTL + 1, ttl_ms=TTL)
    with pytest.raises(ApprovalError, match=r"^scope must be 'once' or 'session', not 'forever'$"):
        grant(approval(), scope="forever", now_ms=T0, ttl_ms=TTL)  # type: ignore[arg-type]


@requirement("S-APR-01")
def test_the_pending_refusal_tells_the_model_the_exact_commands_and_the_time_left() -> None:
    """S-APR-01: the ASK's remedy names the id, both person commands and the approval_ttl_ms in seconds."""
    c = call("PowerShell", command="Get-Date")
    ask = Decision(
        verdict=Verdict.ASK, code=Code.APPROVAL_REQUIRED, reason="r", remedy="x", spec="S-APR-01", digest=DIGEST
    )
    pending, d = request("apr-7", c, ask, T0, TTL)
    assert d.remedy == (
        "ask a person to run `winmcp-gateway approve apr-7` (or `deny apr-7`), then repeat "
        'the identical call with approval_id="apr-7" within 120 s'
    )
    assert (d.approval_id, d.approval) == ("apr-7", pending) and pending.expires_ms == T0 + TTL


@requirement("S-APR-01")
def test_a_request_needs_the_ask_for_this_very_call_and_a_real_id() -> None:
    """S-APR-01: the shell's mistakes are errors that say what is wrong (another call's ASK, a blank id)."""
    c = call("PowerShell", command="Get-Date")
    ask = Decision(
        verdict=Verdict.ASK, code=Code.APPROVAL_REQUIRED, reason="r", remedy="x", spec="S-APR-01", digest=DIGEST
    )
    other = call("PowerShell", command="Get-Process")
    with pytest.raises(ValueError, match=r"^request\(\) needs the ASK decision decide\(\) returned for this call$"):
        request("apr-7", other, ask, T0, TTL)
    for blank in ("", "   "):
        with pytest.raises(ValueError, match=r"^an approval id must be a non-empty string$"):
            request(blank, c, ask, T0, TTL)


@requirement("S-APR-01")
def test_the_pending_approval_records_when_why_and_which_rule_asked() -> None:
    """S-APR-01: the stored request keeps its time, the rule that asked and the reason shown to the person."""
    c = call("PowerShell", command="Get-Date")
    ask = Decision(
        verdict=Verdict.ASK,
        code=Code.APPROVAL_REQUIRED,
        reason="a rule asks",
        remedy="x",
        spec="S-APR-01",
        digest=DIGEST,
        rule_id="ask-rule",
    )
    pending, _ = request("apr-7", c, ask, T0, 90_500.0)
    assert (pending.created_ms, pending.rule_id, pending.reason, pending.status) == (
        T0,
        "ask-rule",
        "a rule asks",
        "pending",
    )


@requirement("S-APR-02")
def test_the_digest_hashes_non_ascii_text_as_utf8_not_as_escapes() -> None:
    """S-APR-02: canonical JSON keeps "é" as UTF-8 bytes (ensure_ascii off), so the digest is that of the raw text."""
    import hashlib

    canonical = '{"args":{"text":"é"},"tool":"Type"}'
    assert approval_digest("Type", {"text": "é"}) == hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@requirement("S-APR-05")
@pytest.mark.parametrize("scope", ["once", "session"])
def test_a_grant_records_when_the_person_approved(scope: str) -> None:
    """S-APR-05: the approved value carries the time of the grant (the audit and the TTL count from it)."""
    a = grant(approval(), scope=scope, now_ms=T0 + 7, ttl_ms=TTL)  # type: ignore[arg-type]
    assert (a.status, a.scope, a.decided_ms) == ("approved", scope, T0 + 7)
