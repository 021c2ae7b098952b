"""`decide`: the ordered chain every call goes through (DESIGN.md §2; S-DEC-04..07).

The chain is a table — `CHAIN` — of steps with one signature, `Rule`; the first step that
returns a Decision wins:

1. kill switch      `check_kill`          KILLED (all but observation; S-KILL-01)
2. visibility       `check_visibility`    TOOL_NOT_ALLOWED / UNKNOWN_TOOL (S-VIS-01..03)
3. brake            `check_brake`         LOOP_DETECTED / RATE_LIMITED (S-RATE-01..09): after the
                                          person's stop and the tool list, before anything that
                                          costs (rules) or asks a person (approval)
4. command rules    `check_command_rules` COMMAND_RULE / SELF_PROTECTION; rules that failed to
                                          load → POLICY_ERROR (S-DEC-06)
5. private windows  `check_private_window` PRIVATE_WINDOW, INPUT only (policy/private.py, S-PRIV-05)
6. approval         `check_approval`      ASK APPROVAL_REQUIRED / APPROVAL_DENIED (S-APR-01..04)
7. freshness        `check_input_freshness` INPUT only (S-FRESH-01..06, S-FRESH-09)
8. window allowlist `check_allowed_window`  INPUT only (S-FRESH-07)
9. allow            `allow_call`          ALLOW with warnings and the consumed approval

Fail closed: the context is checked member by member before the first step (a config
of another class is copied into a validated `PolicyConfig`, so a value that cannot be
read or is of the wrong type fails up front); every returned value passes
`ensure_decision`; an exception anywhere — a step, a rules object that raises — is DENY
POLICY_ERROR and never propagates (S-DEC-05); falling off the end of the chain is also a
denial. Shadow mode (`enforce = false`) marks shadowable refusals `enforced=False`
(S-DEC-07). The clock reading is an explicit argument of every step: policy never reads one.

An unknown tool that `unknown_tools = "allow"` let through is treated as SYSTEM here
(command rules, `require_approval`, the kill switch): the gateway cannot tell what it does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TypeAlias

from policy.approval import approval_digest, consume, session_approval
from policy.catalog import OBSERVATION_TOOLS, OWN_TOOLS, ToolClass, classify
from policy.context import Context, PolicyConfig, SessionView
from policy.decision import (
    SHADOWABLE,
    Code,
    CommandRules,
    Decision,
    RuleHit,
    Verdict,
    allow,
    ensure_decision,
    policy_error,
    refuse,
)
from policy.freshness import basis_of, check_freshness, check_window, freshness_warnings
from policy.kill import check_kill
from policy.private import check_private_window
from policy.rate import Brake, brake_refusal
from policy.typed import typed_hit
from policy.values import KillState, ToolCall
from policy.visibility import check_visibility

Rule: TypeAlias = Callable[[ToolCall, Context, float], Decision | None]

# A RuleHit with this rule id (or "self-protection-…") is refused as SELF_PROTECTION, which
# shadow mode cannot lift and no approval can cover.
SELF_PROTECTION_RULE = "self-protection"


def effective_class(tool: str) -> ToolClass:
    """The class the chain uses: UNKNOWN (allowed by config) counts as SYSTEM."""
    cls = classify(tool)
    return ToolClass.SYSTEM if cls is ToolClass.UNKNOWN else cls


def _subject_to_rules(tool: str) -> bool:
    # Observation keeps working even when rules are broken; own tools are not proxied.
    return tool not in OBSERVATION_TOOLS and tool not in OWN_TOOLS


def _rule_hit(call: ToolCall, ctx: Context) -> RuleHit | None:
    rules = ctx.rules
    if rules is None or not _subject_to_rules(call.tool):
        return None
    if isinstance(rules, _MatchOnce):  # three steps ask; one decide answers once
        key = id(call)
        if key not in rules.hits_of:
            rules.hits_of[key] = _rule_hit_uncached(call, ctx, rules)
        return rules.hits_of[key]
    return _rule_hit_uncached(call, ctx, rules)


def _rule_hit_uncached(call: ToolCall, ctx: Context, rules: CommandRules) -> RuleHit | None:
    hit = rules.match(call.tool, call.args)
    if hit is not None and type(hit) is not RuleHit:
        raise TypeError(f"command rules returned {type(hit).__name__}, not a RuleHit or None")
    if hit is not None and hit.action == "deny":
        return hit
    typed = typed_hit(call, ctx)  # the keyboard is a shell (policy/typed.py)
    if typed is not None and type(typed) is not RuleHit:
        raise TypeError(f"command rules returned {type(typed).__name__}, not a RuleHit or None")
    if typed is not None and (hit is None or typed.action == "deny"):
        return typed
    return hit


def check_brake(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Step 3: the brake for runaway agents (policy/rate.py; S-RATE-09 for its place in the chain).

    Before the command rules and the approval step: a braked call never costs a rules analysis,
    never asks a person and never spends an approval (the approval stays valid for the retry).

    Args:
        call: the call.
        ctx: `ctx.brake` (None: no brake) is read.
        now_ms: the clock now (buckets refill with time).

    Returns:
        None, LOOP_DETECTED or RATE_LIMITED.
    """
    if ctx.brake is None:
        return None
    return brake_refusal(ctx.brake, call.tool, call.args, now_ms)


def check_command_rules(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Step 4: a denying rule refuses the call; rules that failed to load refuse every non-observation call.

    Args:
        call: the call.
        ctx: `ctx.rules` / `ctx.rules_error` are read.
        now_ms: unused.

    Returns:
        None (an "ask" hit is left to the approval step), COMMAND_RULE or POLICY_ERROR.
    """
    if ctx.rules_error is not None and _subject_to_rules(call.tool):
        return policy_error(f"the command rules failed to load: {ctx.rules_error}", spec="S-DEC-06")
    hit = _rule_hit(call, ctx)
    if hit is None:
        return None
    if hit.rule_id == SELF_PROTECTION_RULE or hit.rule_id.startswith(SELF_PROTECTION_RULE + "-"):
        # Never shadowed, never asked: the agent must not lift its own guard (DESIGN.md §5).
        return refuse(
            Code.SELF_PROTECTION,
            f"this call would touch the gateway's own state, config, audit or STOP file (rule {hit.rule_id}): "
            f"{hit.reason}",
            "leave the gateway's files alone; a person manages them with the winmcp-gateway command",
            spec="S-DEC-06",
            rule_id=hit.rule_id,
        )
    if hit.action != "deny":
        return None
    return refuse(
        Code.COMMAND_RULE,
        f"command rule {hit.rule_id} ({hit.risk}): {hit.reason}",
        f"do not retry this command in another spelling; do the task another way, or ask the person (who can "
        f"exempt rule {hit.rule_id} with allow_rules). The rules are a tripwire, not a sandbox",
        spec="S-DEC-06",
        rule_id=hit.rule_id,
    )


def _needs_approval(call: ToolCall, ctx: Context) -> tuple[bool, RuleHit | None]:
    cls = effective_class(call.tool)
    hit = _rule_hit(call, ctx)
    config = ctx.config
    needed = (
        (cls is ToolClass.SYSTEM and config.require_approval is not False)
        or (cls is ToolClass.INPUT and config.require_approval_for_input is not False)
        or (hit is not None and hit.action == "ask")
    )
    return needed, hit


def _approval_outcome(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """None: no approval needed. Else ALLOW (an approval covers the call), a refusal, or ASK."""
    needed, hit = _needs_approval(call, ctx)
    if not needed:
        return None
    if call.approval_id is not None:
        cited = ctx.approvals.get(call.approval_id) if isinstance(call.approval_id, str) else None
        return consume(cited, call, now_ms)[1]
    held = session_approval(ctx.approvals, call, now_ms)
    if held is not None:
        return consume(held, call, now_ms)[1]
    if hit is not None and hit.action == "ask":
        reason = f"command rule {hit.rule_id} ({hit.risk}) asks for a person's approval: {hit.reason}"
    else:
        key = "require_approval" if effective_class(call.tool) is ToolClass.SYSTEM else "require_approval_for_input"
        reason = f"{call.tool[:60]} calls need a person's approval ({key})."
    return Decision(
        verdict=Verdict.ASK,
        code=Code.APPROVAL_REQUIRED,
        reason=reason,
        remedy="a person must approve this exact call; then repeat it unchanged with the approval_id given",
        spec="S-APR-01",
        rule_id=hit.rule_id if hit is not None else None,
        digest=approval_digest(call.tool, call.args),
    )


def check_approval(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Step 6: ask a person (or use the approval the call cites) when config or a rule requires it.

    Args:
        call: the call (`approval_id` is the raw citation).
        ctx: config, approvals and rules are read.
        now_ms: the clock now (approvals expire).

    Returns:
        None when no approval is needed or a valid one covers the call; else ASK or a refusal.
    """
    outcome = _approval_outcome(call, ctx, now_ms)
    return None if outcome is None or outcome.verdict is Verdict.ALLOW else outcome


def check_input_freshness(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Step 7: the freshness gate, INPUT tools only (READ_ONLY tools are never gated)."""
    if classify(call.tool) is not ToolClass.INPUT:
        return None
    return check_freshness(call, ctx.view, ctx.config, now_ms)


def check_allowed_window(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Step 8: `allowed_windows`, INPUT tools only."""
    return check_window(call, ctx.view, ctx.config)


def allow_call(call: ToolCall, ctx: Context, now_ms: float) -> Decision:
    """Step 9: every step passed — ALLOW, with warnings, the basis id and the consumed approval."""
    approved = _approval_outcome(call, ctx, now_ms)
    if approved is not None and approved.verdict is not Verdict.ALLOW:
        raise AssertionError("allow_call reached with an approval that does not cover the call")
    observation = None
    if classify(call.tool) is ToolClass.INPUT:
        obs, _ = basis_of(call, ctx.view)
        observation = obs.id if obs is not None else None
    return allow(
        warnings=freshness_warnings(call, ctx.view, ctx.config),
        observation=observation,
        digest=approved.digest if approved else None,
        approval_id=approved.approval_id if approved else None,
        approval=approved.approval if approved else None,
    )


CHAIN: tuple[Rule, ...] = (
    check_kill,
    check_visibility,
    check_brake,
    check_command_rules,
    check_private_window,  # before approval and the probe: a private target is never asked about (S-PRIV-05)
    check_approval,
    check_input_freshness,
    check_allowed_window,
    allow_call,
)


class _MatchOnce:
    """The context's rules for one `decide` call: steps 4, 6 and 9 all ask, each `match` runs once.

    Typed text is matched as PowerShell (policy/typed.py), so one call may ask about a few
    different contents; each is matched once."""

    __slots__ = ("_rules", "_hits", "hits_of")

    def __init__(self, rules: CommandRules) -> None:
        self._rules = rules
        self._hits: dict[tuple[str, str], RuleHit | None] = {}  # keyed by tool (+ the reading) and args
        self.hits_of: dict[int, RuleHit | None] = {}  # `_rule_hit` per call (by identity, one decide long)

    def match(self, tool: str, args: Mapping[str, object], *, table: bool = True) -> RuleHit | None:
        key = (tool + ("" if table else "\0analysis"), repr(sorted(args.items(), key=lambda kv: str(kv[0]))))
        if key not in self._hits:
            # The plain call keeps the two-argument seam for every rules object; only the second
            # reading of typed text asks for the analysis alone (policy/typed.py).
            self._hits[key] = self._rules.match(tool, args) if table else self._rules.match(tool, args, table=False)
        return self._hits[key]


def _checked(ctx: Context) -> Context:
    """The context with every member of the right type; a config of another class is copied
    field by field into a validated `PolicyConfig`, so a value that cannot be read fails here."""
    if type(ctx) is not Context:
        raise TypeError(f"decide() was given {type(ctx).__name__}, not a Context")
    config = ctx.config if type(ctx.config) is PolicyConfig else PolicyConfig.from_attrs(ctx.config)
    if type(ctx.kill) is not KillState or type(ctx.view) is not SessionView:
        raise TypeError("Context.kill must be a KillState and Context.view a SessionView")
    if not isinstance(ctx.approvals, Mapping):
        raise TypeError(f"Context.approvals must be a mapping, not {type(ctx.approvals).__name__}")
    if ctx.rules is not None and not callable(getattr(ctx.rules, "match", None)):
        raise TypeError("Context.rules has no match() method")
    if ctx.rules_error is not None and not isinstance(ctx.rules_error, str):
        raise TypeError("Context.rules_error must be None or a string")
    if ctx.brake is not None and type(ctx.brake) is not Brake:
        raise TypeError("Context.brake must be None or a Brake")
    rules = None if ctx.rules is None else _MatchOnce(ctx.rules)
    return replace(ctx, config=config, rules=rules)


def _shadow(decision: Decision, ctx: Context) -> Decision:
    if decision.blocks and decision.code in SHADOWABLE and ctx.config.enforce is False:
        return replace(decision, enforced=False)
    return decision


def decide(call: ToolCall, ctx: Context, now_ms: float, *, chain: tuple[Rule, ...] = CHAIN) -> Decision:
    """Decide one call. Never raises (S-DEC-04, S-DEC-05).

    Args:
        call: the call, with the gateway's own arguments split off.
        ctx: the world as values.
        now_ms: the clock now, epoch milliseconds (the same clock as observation times).
        chain: the steps (tests substitute broken ones to prove the chain fails closed).

    Returns:
        The decision. `decision.blocks` says whether to refuse; `enforced=False` marks a
        shadow-mode "would deny" the shell audits and then forwards.
    """
    try:
        if type(call) is not ToolCall:
            return policy_error(f"decide() was given {type(call).__name__}, not a ToolCall")
        if isinstance(now_ms, bool) or not isinstance(now_ms, int | float) or not math.isfinite(now_ms):
            return policy_error(f"the clock reading {now_ms!r} is not a finite number")
        ctx = _checked(ctx)
        for rule in chain:
            outcome = rule(call, ctx, now_ms)
            if outcome is not None:
                return _shadow(ensure_decision(outcome), ctx)
        return policy_error("no step of the policy chain decided (default deny)", spec="S-DEC-04")
    except Exception as exc:  # fail closed: a policy fault is a denial, never a crash (S-DEC-05)
        return policy_error(f"the policy failed: {type(exc).__name__}: {exc}")
