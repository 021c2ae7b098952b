"""Binds features/approval.feature (S-APR-01, S-APR-02, S-APR-04, S-APR-05) to the policy API.

Steps call what the unit tests call: `decide`, `approval_digest`, `request_approval`,
`grant_approval`, `deny_approval`, `consume_approval`, `refusal_text`. Like the shell, the
world persists the approval state a forwarded call returns (`decision.approval`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from policy import (
    Approval,
    ApprovalError,
    Code,
    Decision,
    PolicyConfig,
    ToolCall,
    Verdict,
    approval_digest,
    consume_approval,
    decide,
    deny_approval,
    grant_approval,
    refusal_text,
    request_approval,
)
from tests.policy._world import OTHER, SESSION, T0, TableRules, call, context, hit, observation, view

scenarios("approval.feature")


@dataclass
class World:
    """The scenario's config, rules, approvals store and clock."""

    config: PolicyConfig = field(default_factory=PolicyConfig)
    rules: TableRules | None = None
    approvals: dict[str, Approval] = field(default_factory=dict)
    now: float = T0 + 10
    decision: Decision | None = None
    last_call: ToolCall | None = None
    refusal: str = ""
    digest: str = ""
    start: Approval | None = None
    snapshot: Approval | None = None  # a copy of `start` taken before the transition
    outcome: object = None

    def run(self, tool_call: ToolCall) -> Decision:
        # Each session sees its own observations; the other session has none.
        the_view = view(observation("obs-1", taken_at_ms=self.now)) if tool_call.session == SESSION else None
        ctx = context(
            the_view if the_view is not None else view(session=tool_call.session),
            config=self.config,
            approvals=self.approvals,
            rules=self.rules,
        )
        self.last_call, self.decision = tool_call, decide(tool_call, ctx, self.now)
        if self.decision.verdict is Verdict.ALLOW and self.decision.approval is not None:
            self.approvals[self.decision.approval.id] = self.decision.approval  # the shell persists it
        return self.decision


def _call(tool: str, arguments: str, *, session: str = SESSION, approval_id: str | None = None) -> ToolCall:
    return call(tool, session=session, approval_id=approval_id, **json.loads(arguments))


@given("a session with a fresh observation", target_fixture="world")
def _fresh() -> World:
    return World()


@given(parsers.re(r"the config sets (?P<key>\w+) = (?P<value>.+)"))
def _config_sets(world: World, key: str, value: str) -> None:
    world.config = replace(world.config, **{key: json.loads(value)})


@given(parsers.parse('a command rule "{rule_id}" asks about PowerShell commands containing "{needle}"'))
def _ask_rule(world: World, rule_id: str, needle: str) -> None:
    world.rules = TableRules(rows=(("PowerShell", needle, hit(rule_id, "ask")),))


@given(
    parsers.re(
        r"a person approved (?P<tool>\w+) (?P<arguments>\{.*\}) "
        r'(?P<scope>once|for the session) as "(?P<aid>[^"]+)"'
    )
)
def _approved(world: World, tool: str, arguments: str, scope: str, aid: str) -> None:
    asked = _call(tool, arguments)
    ask = world.run(asked)
    assert ask.verdict is Verdict.ASK, ask
    pending, _ = request_approval(aid, asked, ask, world.now, world.config.approval_ttl_ms)
    world.approvals[aid] = grant_approval(
        pending,
        scope="once" if scope == "once" else "session",
        now_ms=world.now,
        ttl_ms=world.config.approval_ttl_ms,
    )


@when(parsers.re(r"the model calls (?P<tool>\w+) with (?P<arguments>\{.*\})$"))
def _model_calls(world: World, tool: str, arguments: str) -> None:
    world.run(_call(tool, arguments))


@when(parsers.re(r'the model calls (?P<tool>\w+) with (?P<arguments>\{.*\}) citing "(?P<aid>[^"]+)"'))
def _model_calls_citing(world: World, tool: str, arguments: str, aid: str) -> None:
    world.run(_call(tool, arguments, approval_id=aid))


@when(parsers.re(r"another session calls (?P<tool>\w+) with (?P<arguments>\{.*\})$"))
def _other_calls(world: World, tool: str, arguments: str) -> None:
    world.run(_call(tool, arguments, session=OTHER))


@when(parsers.re(r'another session calls (?P<tool>\w+) with (?P<arguments>\{.*\}) citing "(?P<aid>[^"]+)"'))
def _other_calls_citing(world: World, tool: str, arguments: str, aid: str) -> None:
    world.run(_call(tool, arguments, session=OTHER, approval_id=aid))


@when("ten times approval_ttl_ms pass")
def _time_passes(world: World) -> None:
    world.now += 10 * world.config.approval_ttl_ms


@when(parsers.parse('the shell turns the ASK into pending approval "{aid}"'))
def _request(world: World, aid: str) -> None:
    assert world.decision is not None and world.last_call is not None
    pending, named = request_approval(aid, world.last_call, world.decision, world.now, world.config.approval_ttl_ms)
    world.approvals[aid] = pending
    world.refusal = refusal_text(named)


@then(parsers.re(r"the decision is (?P<verdict>ALLOW|ASK)$"))
def _verdict(world: World, verdict: str) -> None:
    assert world.decision is not None and world.decision.verdict is Verdict[verdict], world.decision


@then(parsers.parse("the decision is DENY {code:w}"))
def _denied(world: World, code: str) -> None:
    d = world.decision
    assert d is not None and d.verdict is Verdict.DENY and d.code is Code(code) and d.blocks, d


@then(parsers.parse('the decision is ASK naming rule "{rule_id}"'))
def _ask_rule_named(world: World, rule_id: str) -> None:
    d = world.decision
    assert d is not None and d.verdict is Verdict.ASK and d.code is Code.APPROVAL_REQUIRED and d.rule_id == rule_id


@then("the decision is bound to the digest of the call")
def _bound(world: World) -> None:
    assert world.decision is not None and world.last_call is not None
    assert world.decision.digest == approval_digest(world.last_call.tool, world.last_call.args)


@then(parsers.parse('the decision is ALLOW using approval "{aid}"'))
def _allow_using(world: World, aid: str) -> None:
    d = world.decision
    assert d is not None and d.verdict is Verdict.ALLOW and d.approval_id == aid, d


@then(parsers.parse('the refusal starts "{prefix}"'))
def _refusal_starts(world: World, prefix: str) -> None:
    assert world.refusal.startswith(prefix), world.refusal


@then(parsers.parse("the refusal names \"{command}\" and '{citation}'"))
def _refusal_names(world: World, command: str, citation: str) -> None:
    assert command in world.refusal and citation in world.refusal, world.refusal


@then(parsers.parse('approval "{aid}" is pending for this session and tool {tool:w}'))
def _pending(world: World, aid: str, tool: str) -> None:
    a = world.approvals[aid]
    assert (a.status, a.session, a.tool) == ("pending", SESSION, tool)
    assert a.expires_ms == world.now + world.config.approval_ttl_ms


@then(parsers.parse('approval "{aid}" has been used {n:d} times'))
def _uses(world: World, aid: str, n: int) -> None:
    assert world.approvals[aid].uses == n and world.approvals[aid].status == "approved"


@when(parsers.re(r"the digest of (?P<tool>\w+) with (?P<arguments>\{.*\}) is computed"))
def _digest(world: World, tool: str, arguments: str) -> None:
    world.digest = approval_digest(tool, json.loads(arguments))


@pytest.fixture
def world() -> World:
    """Scenarios that build nothing (digest-only ones) still get an empty world."""
    return World()


@then(parsers.parse("it is the SHA-256 of the UTF-8 text {text}"))
def _sha(world: World, text: str) -> None:
    assert world.digest == hashlib.sha256(text.encode("utf-8")).hexdigest()


@then(parsers.re(r"the digests of (?P<t1>\w+) (?P<a1>\{.*\}) and (?P<t2>\w+) (?P<a2>\{.*\}) differ"))
def _differ(t1: str, a1: str, t2: str, a2: str) -> None:
    assert approval_digest(t1, json.loads(a1)) != approval_digest(t2, json.loads(a2))


# --- transitions (S-APR-05) -------------------------------------------------------------------

TTL = PolicyConfig().approval_ttl_ms


@given(parsers.re(r'approval "(?P<aid>[^"]+)" for (?P<tool>\w+) (?P<arguments>\{.*\}) that is (?P<state>.+)'))
def _approval_in_state(world: World, aid: str, tool: str, arguments: str, state: str) -> None:
    world.config = PolicyConfig(require_approval=True)
    asked = _call(tool, arguments)
    pending, _ = request_approval(aid, asked, world.run(asked), T0, TTL)
    once = grant_approval(pending, scope="once", now_ms=T0 + 1, ttl_ms=TTL)
    used, _ = consume_approval(once, _call(tool, arguments, approval_id=aid), T0 + 2)
    states = {
        "pending": pending,
        "pending and expired": pending,
        "approved": once,
        "denied": deny_approval(pending, now_ms=T0 + 1),
        "used": used,
    }
    world.start = states[state]
    world.now = T0 + TTL + 1 if state == "pending and expired" else T0 + 3


def _transition(world: World, action: str) -> object:
    assert world.start is not None
    try:
        if action == "deny":
            return deny_approval(world.start, now_ms=world.now)
        scope = "once" if action == "grant once" else "session"
        return grant_approval(world.start, scope=scope, now_ms=world.now, ttl_ms=TTL)
    except ApprovalError as exc:
        return exc


@when(parsers.parse("a person tries to {action} it"))
def _try(world: World, action: str) -> None:
    world.snapshot = replace(world.start) if world.start is not None else None
    world.outcome = _transition(world, action)
    again = _transition(world, action)
    # Pure: the same transition from the same value gives the same answer.
    assert type(again) is type(world.outcome)
    if isinstance(again, Approval):
        assert again == world.outcome


@then(parsers.re(r"the transition gives an? (?P<status>approved|denied) value"))
def _gives(world: World, status: str) -> None:
    assert isinstance(world.outcome, Approval) and world.outcome.status == status, world.outcome
    assert world.outcome is not world.start and world.outcome.id == "apr-1"


@then("the transition raises ApprovalError")
def _raises(world: World) -> None:
    assert isinstance(world.outcome, ApprovalError), world.outcome


@then("the approval it started from is unchanged")
def _unchanged(world: World) -> None:
    assert world.start is not None and world.start == world.snapshot
