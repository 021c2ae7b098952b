"""Approvals as values: digest, request, grant/deny, consume, session scope (S-APR-01..05)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from policy import (
    Approval,
    ApprovalError,
    Code,
    Decision,
    PolicyConfig,
    Verdict,
    approval_digest,
    consume_approval,
    decide,
    deny_approval,
    grant_approval,
    refusal_text,
    request_approval,
)
from tests._requirements import requirement
from tests.policy._world import OTHER, SESSION, T0, TableRules, call, context, hit, observation, view

TTL = 120_000.0
NEEDS = PolicyConfig(require_approval=True, approval_ttl_ms=TTL)


def ask_for(c: object, config: PolicyConfig = NEEDS) -> Decision:
    d = decide(c, context(view(observation("obs-1")), config=config), T0)  # type: ignore[arg-type]
    assert d.verdict is Verdict.ASK, d
    return d


def pending(approval_id: str = "apr-1", command: str = "Get-Date") -> Approval:
    c = call("PowerShell", command=command)
    a, _ = request_approval(approval_id, c, ask_for(c), T0, TTL)
    return a


def run(c: object, approvals: dict[str, Approval], now: float = T0, config: PolicyConfig = NEEDS) -> Decision:
    return decide(c, context(view(observation("obs-1")), config=config, approvals=approvals), now)  # type: ignore[arg-type]


@requirement("S-APR-02")
def test_the_digest_is_sha256_of_canonical_json_without_gateway_arguments() -> None:
    """S-APR-02: sorted keys, no spaces, UTF-8; approval_id and based_on are not part of the call."""
    expected = hashlib.sha256(b'{"args":{"command":"Get-Date","timeout":5},"tool":"PowerShell"}').hexdigest()
    assert approval_digest("PowerShell", {"timeout": 5, "command": "Get-Date"}) == expected
    assert approval_digest("PowerShell", {"command": "Get-Date", "timeout": 5, "approval_id": "a", "based_on": 1}) == (
        expected
    )


@requirement("S-APR-02")
@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("PowerShell", {"command": "Get-Date"}), ("PowerShell", {"command": "Get-Date "})),
        (("PowerShell", {"command": "x", "timeout": 1}), ("PowerShell", {"command": "x", "timeout": 1.0})),
        (
            ("FileSystem", {"mode": "delete", "recursive": True}),
            ("FileSystem", {"mode": "delete", "recursive": "true"}),
        ),
        (("PowerShell", {"command": "x"}), ("Registry", {"command": "x"})),
        (("Click", {"loc": [1, 2]}), ("Click", {"loc": [2, 1]})),
    ],
)
def test_any_changed_argument_changes_the_digest(
    a: tuple[str, dict[str, object]], b: tuple[str, dict[str, object]]
) -> None:
    """S-APR-02: a different tool or argument value is a different call."""
    assert approval_digest(*a) != approval_digest(*b)


@requirement("S-APR-02")
def test_an_argument_that_is_not_plain_json_cannot_be_digested() -> None:
    """S-APR-02: NaN or objects raise (decide turns that into POLICY_ERROR, never a guess)."""
    with pytest.raises(ValueError):
        approval_digest("PowerShell", {"timeout": float("nan")})
    with pytest.raises(TypeError):
        approval_digest("PowerShell", {"command": object()})


@requirement("S-APR-01")
@pytest.mark.parametrize(
    ("config", "tool_call", "asks"),
    [
        (PolicyConfig(require_approval=True), call("PowerShell", command="Get-Date"), True),
        (PolicyConfig(require_approval=True), call("Notification", title="t", message="m", app_id="a"), True),
        (PolicyConfig(require_approval=True), call("Snapshot"), False),
        (PolicyConfig(require_approval=True), call("Click", loc=[1, 2]), False),
        (PolicyConfig(require_approval_for_input=True), call("Click", loc=[1, 2]), True),
        (PolicyConfig(require_approval_for_input=True), call("PowerShell", command="x"), False),
        (PolicyConfig(), call("PowerShell", command="x"), False),
    ],
)
def test_approval_is_required_by_config_per_class(config: PolicyConfig, tool_call: object, asks: bool) -> None:
    """S-APR-01: require_approval covers SYSTEM tools, require_approval_for_input covers INPUT tools."""
    d = decide(tool_call, context(view(observation("obs-1")), config=config), T0)  # type: ignore[arg-type]
    assert (d.verdict is Verdict.ASK) is asks


@requirement("S-APR-01")
def test_a_rule_that_asks_requires_approval_even_when_config_does_not() -> None:
    """S-APR-01: an `ask` hit makes the call ASK, naming the rule."""
    rules = TableRules(rows=(("PowerShell", "stop-process", hit("force-kill-process", "ask")),))
    c = call("PowerShell", command="Stop-Process -Name notepad")
    d = decide(c, context(view(), rules=rules), T0)
    assert d.verdict is Verdict.ASK and d.rule_id == "force-kill-process"
    assert d.digest == approval_digest(c.tool, c.args)


@requirement("S-APR-01")
def test_a_request_names_its_id_and_how_a_person_approves_it() -> None:
    """S-APR-01: the ASK becomes a pending approval; the refusal names `approve ID` and approval_id."""
    c = call("PowerShell", command="Get-Date")
    a, d = request_approval("apr-7", c, ask_for(c), T0, TTL)
    assert (a.status, a.session, a.tool, a.expires_ms) == ("pending", SESSION, "PowerShell", T0 + TTL)
    text = refusal_text(d)
    assert text.startswith("DENIED APPROVAL_REQUIRED: ")
    assert "winmcp-gateway approve apr-7" in text and 'approval_id="apr-7"' in text
    with pytest.raises(ValueError):
        request_approval("apr-8", call("PowerShell", command="other"), ask_for(c), T0, TTL)


@requirement("S-APR-03")
def test_an_approved_call_runs_once_and_its_replay_is_refused() -> None:
    """S-APR-03: grant once → the identical call with approval_id is allowed once, then refused."""
    store = {"apr-1": grant_approval(pending(), scope="once", now_ms=T0 + 5, ttl_ms=TTL)}
    c = call("PowerShell", command="Get-Date", approval_id="apr-1")
    first = run(c, store, T0 + 10)
    assert first.verdict is Verdict.ALLOW and first.approval is not None
    assert (first.approval.status, first.approval.uses, first.approval_id) == ("used", 1, "apr-1")
    store["apr-1"] = first.approval  # the shell persists the new state when it forwards
    replay = run(c, store, T0 + 20)
    assert replay.code is Code.APPROVAL_DENIED and "already used" in replay.reason


@requirement("S-APR-03")
def test_an_approval_not_persisted_after_a_later_refusal_stays_usable() -> None:
    """S-APR-03: a later step refusing (here NO_OBSERVATION) does not burn the approval."""
    cfg = PolicyConfig(require_approval_for_input=True)
    c = call("Click", loc=[1, 2], approval_id="apr-1")
    click_request = replace(pending(), digest=approval_digest("Click", {"loc": [1, 2]}), tool="Click")
    store = {"apr-1": grant_approval(click_request, scope="once", now_ms=T0, ttl_ms=TTL)}
    d = decide(c, context(view(), config=cfg, approvals=store), T0)
    assert d.code is Code.NO_OBSERVATION and d.approval is None
    d2 = decide(c, context(view(observation("obs-1")), config=cfg, approvals=store), T0)
    assert d2.verdict is Verdict.ALLOW and d2.approval is not None and d2.approval.status == "used"


@requirement("S-APR-02", "S-APR-03")
def test_a_changed_argument_is_refused_even_with_a_granted_approval() -> None:
    """S-APR-02: the approval covers `Get-Date`, not `Get-Date; rm -r C:/`."""
    store = {"apr-1": grant_approval(pending(), scope="once", now_ms=T0, ttl_ms=TTL)}
    d = run(call("PowerShell", command="Get-Date; rm -r C:/", approval_id="apr-1"), store, T0 + 1)
    assert d.code is Code.APPROVAL_DENIED and "different call" in d.reason


@requirement("S-APR-03")
@pytest.mark.parametrize(("offset", "allowed"), [(TTL - 1, True), (TTL, True), (TTL + 1, False)])
def test_a_granted_approval_expires_after_the_ttl(offset: float, allowed: bool) -> None:
    """S-APR-03: a once-grant is usable for approval_ttl_ms after the grant, then refused."""
    store = {"apr-1": grant_approval(pending(), scope="once", now_ms=T0 + 1000, ttl_ms=TTL)}
    d = run(call("PowerShell", command="Get-Date", approval_id="apr-1"), store, T0 + 1000 + offset)
    assert (d.verdict is Verdict.ALLOW) is allowed
    if not allowed:
        assert d.code is Code.APPROVAL_DENIED and "expired" in d.reason


@requirement("S-APR-03")
@pytest.mark.parametrize(
    ("store", "approval_id", "code"),
    [
        ({}, "apr-404", Code.APPROVAL_DENIED),  # unknown id
        ({"apr-1": "placeholder"}, 17, Code.APPROVAL_DENIED),  # non-string id
        ({"apr-1": "pending"}, "apr-1", Code.APPROVAL_REQUIRED),  # nobody answered yet
        ({"apr-1": "denied"}, "apr-1", Code.APPROVAL_DENIED),
        ({"apr-1": "other-session"}, "apr-1", Code.APPROVAL_DENIED),
        ({"apr-1": "expired-pending"}, "apr-1", Code.APPROVAL_DENIED),
    ],
)
def test_unusable_approvals_are_refused(store: dict[str, str], approval_id: object, code: Code) -> None:
    """S-APR-03: unknown, non-string, pending, denied, foreign and expired approvals do not run the call."""
    states = {
        "placeholder": grant_approval(pending(), scope="once", now_ms=T0, ttl_ms=TTL),
        "pending": pending(),
        "denied": deny_approval(pending(), now_ms=T0 + 1),
        "other-session": grant_approval(replace(pending(), session=OTHER), scope="once", now_ms=T0, ttl_ms=TTL),
        "expired-pending": pending(),
    }
    approvals = {k: states[v] for k, v in store.items()}
    now = T0 + TTL + 1 if "expired-pending" in store.values() else T0 + 1
    d = run(call("PowerShell", command="Get-Date", approval_id=approval_id), approvals, now)
    assert d.verdict is Verdict.DENY and d.code is code


@requirement("S-APR-04")
def test_a_session_approval_covers_identical_calls_of_that_session_only() -> None:
    """S-APR-04: identical calls pass repeatedly (with or without approval_id); other sessions/args do not."""
    granted = grant_approval(pending(), scope="session", now_ms=T0, ttl_ms=TTL)
    assert granted.expires_ms is None
    store = {"apr-1": granted}
    later = T0 + 10 * TTL  # a session grant lasts for the session, not the ttl
    for cited in (None, "apr-1", None):
        d = run(call("PowerShell", command="Get-Date", approval_id=cited), store, later)
        assert d.verdict is Verdict.ALLOW and d.approval is not None and d.approval.status == "approved"
        store["apr-1"] = d.approval
    assert store["apr-1"].uses == 3
    assert run(call("PowerShell", command="Get-Date", session=OTHER), store, later).verdict is Verdict.ASK
    other = run(call("PowerShell", command="Get-Date", session=OTHER, approval_id="apr-1"), store, later)
    assert other.code is Code.APPROVAL_DENIED
    assert run(call("PowerShell", command="Get-Process"), store, later).verdict is Verdict.ASK


@requirement("S-APR-05")
def test_transitions_from_the_wrong_state_raise() -> None:
    """S-APR-05: grant needs pending and unexpired; deny needs pending or approved."""
    a = pending()
    once = grant_approval(a, scope="once", now_ms=T0, ttl_ms=TTL)
    used, _ = consume_approval(once, call("PowerShell", command="Get-Date", approval_id="apr-1"), T0)
    assert used is not None and used.status == "used"
    with pytest.raises(ApprovalError):
        grant_approval(once, scope="once", now_ms=T0, ttl_ms=TTL)
    with pytest.raises(ApprovalError):
        grant_approval(a, scope="once", now_ms=T0 + TTL + 1, ttl_ms=TTL)  # answered too late
    with pytest.raises(ApprovalError):
        grant_approval(a, scope="forever", now_ms=T0, ttl_ms=TTL)  # type: ignore[arg-type]
    with pytest.raises(ApprovalError):
        deny_approval(used, now_ms=T0)
    revoked = deny_approval(once, now_ms=T0 + 1)
    assert revoked.status == "denied"
    with pytest.raises(ApprovalError):
        deny_approval(revoked, now_ms=T0 + 2)


@requirement("S-APR-05")
def test_consume_is_pure_and_leaves_the_input_unchanged() -> None:
    """S-APR-05: consuming returns a new value; the old one still says approved."""
    once = grant_approval(pending(), scope="once", now_ms=T0, ttl_ms=TTL)
    after, d = consume_approval(once, call("PowerShell", command="Get-Date", approval_id="apr-1"), T0)
    assert once.status == "approved" and after is not None and after.status == "used"
    assert d.verdict is Verdict.ALLOW


@requirement("S-APR-01", "S-DEC-07")
def test_shadow_mode_marks_an_ask_as_not_enforced() -> None:
    """S-DEC-07: with enforce=false an approval that would be asked for is reported, not enforced."""
    d = decide(
        call("PowerShell", command="x"),
        context(config=PolicyConfig(require_approval=True, enforce=False)),
        T0,
    )
    assert d.verdict is Verdict.ASK and d.enforced is False and not d.blocks
