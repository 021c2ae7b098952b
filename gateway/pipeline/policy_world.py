"""From the gateway's world to `policy.decide` and back: context, drift probe, approvals.

The probe (DESIGN.md §4): before an input action the focused window is read again from the
upstream with the cheapest Snapshot that still reports it — `use_vision=false` and a tiny
`region` anchored on an element of the observed focused window. Upstream lists the focused
window in region mode only when it intersects the region (FORMATS.md §5.4), so a window that
moved or lost focus reads as a change. Without an anchor the probe is a full Snapshot
without an image. A probe is a capture (it replaces upstream's label table), so it bumps the
generation. A call that cites labels is probed with a full-tree Snapshot taken like its
basis (same displays or region, no image): upstream then resolves the label against the
probe's table, and policy lets the call through only when that table's signature equals the
basis's (`policy.labels`; S-FRESH-05).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from gateway.app import GatewayApp
from gateway.errors import UpstreamError
from gateway.observe.parse import CaptureFailure, parse_result
from gateway.pipeline.argument_checks import aimed_point
from gateway.pipeline.private_capture import patterns_of
from gateway.protocol.elicitation import (
    ask_mid_call,
    input_required,
    is_modern,
    prompt_text,
    retry_answer,
    supports_elicitation,
)
from gateway.state.approvals import ApprovalStore, describe_call, is_approval_id, new_approval_id
from gateway.state.command_line import state_dir_hint
from policy import (
    PROBE_PENDING,
    Context,
    KillState,
    Probe,
    SessionView,
    ToolCall,
    Verdict,
    basis_of,
    decide,
    request_approval,
    uses_labels,
)
from policy.approval import deny as deny_approval
from policy.approval import grant as grant_approval
from policy.decision import Code, Decision, policy_error, refuse
from policy.labels import label_signature
from policy.observation import Element, Observation
from policy.private import private_titles, redact_capture
from policy.values import Approval

log = logging.getLogger(__name__)

# Half the side of the probe region, in screen pixels: small keeps the tree walk cheap.
PROBE_HALF_SIDE = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What the pipeline needs from a decision: the decision and the facts for the audit line."""

    decision: Decision
    basis: Observation | None = None
    point: tuple[int, int] | None = None
    password_field: bool = False
    approval_id: str | None = None
    exempted: tuple[str, ...] = ()
    probe_ms: float | None = None
    input_required: dict[str, Any] | None = None  # 2026-07-28: ask the client to elicit and retry


def target_point(tool: str, args: Mapping[str, Any]) -> tuple[int, int] | None:
    """The screen point an input action aims at (first of several), if it names one."""
    raw: Any = None
    if tool in ("Click", "Type", "Scroll", "Move"):
        raw = args.get("loc")
    elif tool in ("MultiSelect", "MultiEdit"):
        locs = args.get("locs")
        raw = locs[0] if isinstance(locs, list) and locs else None
    if isinstance(raw, str):
        import json

        try:
            raw = json.loads(raw)
        except ValueError:
            return None
    if isinstance(raw, list | tuple) and len(raw) >= 2:
        try:
            return int(float(raw[0])), int(float(raw[1]))
        except (TypeError, ValueError):
            return None
    return None


def _anchor(obs: Observation) -> tuple[int, int] | None:
    """A point inside the observed focused window: one of its own elements."""
    focused = obs.capture.focused
    if focused is None:
        return None
    for element in obs.capture.elements:
        if element.point is not None and element.kind == "element" and element.window == focused.name:
            return element.point
    return None


def password_target(obs: Observation | None, tool: str, args: Mapping[str, Any]) -> bool:
    """Does this input type into a field the observation marks [password]? (its text is never audited)"""
    if tool not in ("Type", "MultiEdit") or obs is None:
        return False
    fields = [e for e in obs.capture.elements if e.is_password]
    if not fields:
        return False
    point = target_point(tool, args)
    if point is None:
        # Typing at the caret: the password field counts when it is the focused element.
        return any("focused" in e.flags for e in fields) or "label" in args or "labels" in args
    return _nearest(obs.capture.elements, point) in fields


def _nearest(elements: tuple[Element, ...], point: tuple[int, int]) -> Element | None:
    best, best_d = None, None
    for e in elements:
        if e.point is None or e.kind != "element":
            continue
        d = (e.point[0] - point[0]) ** 2 + (e.point[1] - point[1]) ** 2
        if best_d is None or d < best_d:
            best, best_d = e, d
    return best


def probe_args(basis: Observation, *, labels: bool) -> dict[str, Any]:
    """The Snapshot arguments of the drift probe: a small region, or the basis's tree for a label call."""
    args: dict[str, Any] = {"use_vision": False}
    capture = basis.capture
    if labels:
        if capture.selected_displays is not None:
            args["display"] = list(capture.selected_displays)
        elif capture.region is not None:
            args["region"] = list(capture.region)
        return args
    anchor = _anchor(basis)
    if anchor is not None:
        x, y = anchor
        args["region"] = [x - PROBE_HALF_SIDE, y - PROBE_HALF_SIDE, x + PROBE_HALF_SIDE, y + PROBE_HALF_SIDE]
    return args


async def run_probe(app: GatewayApp, basis: Observation, *, labels: bool = False) -> Probe:
    """Read the focused window now (a capture: the generation moves); for a label call, the tree too."""
    try:
        result = await app.upstream.call_tool("Snapshot", probe_args(basis, labels=labels))
    except UpstreamError as exc:
        return Probe(status="failed", detail=f"the probe Snapshot failed: {exc}")
    finally:
        app.note_upstream_restarts()
    app.store.bump_generation()
    parsed = parse_result("Snapshot", result)
    if isinstance(parsed, CaptureFailure):
        return Probe(status="failed", detail=f"the probe Snapshot gave no usable answer: {parsed.message}")
    # Redacted like every stored capture: a private title never reaches a reason, and the label
    # signature compares like with like (S-PRIV-04).
    parsed = redact_capture(parsed, private_titles(parsed, patterns_of(app)))
    signature = label_signature(parsed) if labels else None
    return Probe(status="ok", focused=parsed.focused, captured=True, labels=signature)


def session_view(app: GatewayApp, session: str, probe: Probe, cited: object = None) -> SessionView:
    """What `session` may rely on for one call that cites `cited` (its `based_on`, if any).

    The held history is small (`history`), but the ids dropped from it and the ids of other
    sessions run to `REMEMBERED_IDS` each: listing them all made every input call's cost grow with
    the length of the run (S-PERF-07). Policy only ever asks about the id a call can name — the one
    it cites, or without one the newest — so only those are looked up, each in one step.
    """
    held, retired = {}, {}
    history = app.store.history(session)
    for obs in history:
        if app.store.is_current_epoch(obs):
            held[obs.id] = obs
        else:
            retired[obs.id] = "the upstream restarted since (the desktop state is unknown)"
    latest = history[-1].id if history else app.store.last_dropped(session)
    named = [i for i in (cited, latest) if isinstance(i, str)]
    for obs_id in named:
        if obs_id not in held and app.store.was_dropped(session, obs_id):
            retired.setdefault(obs_id, "dropped from this session's history (too old)")
    return SessionView(
        session=session,
        observations=held,
        latest_id=latest,
        retired=retired,
        foreign_ids=frozenset(i for i in named if app.store.is_foreign(session, i)),
        generation=app.store.generation,
        probe=probe,
        clipboard=app.store.clipboard,
        unentered=app.store.unentered,
        line_known=app.store.line_known,
        console_moves=app.store.console_moves,
    )


def kill_state(app: GatewayApp) -> KillState:
    status = app.kill.status()
    if not status.engaged:
        return KillState()
    return KillState(
        engaged=True,
        by=status.by if status.by in ("person", "model") else "person",  # type: ignore[arg-type]
        since=status.since,
        reason=status.reason or "",
    )


async def decide_call(
    app: GatewayApp, session: str, name: str, forward: dict[str, Any], own: dict[str, Any], ctx: Any
) -> Outcome:
    """Decide one call (never raises: a fault here is DENY POLICY_ERROR)."""
    try:
        return await _decide_call(app, session, name, forward, own, ctx)
    except Exception as exc:  # noqa: BLE001 - fail closed and say why (S-DEC-05)
        log.exception("deciding %s failed", name)
        return Outcome(decision=policy_error(f"the gateway could not judge this call ({type(exc).__name__}: {exc})"))


def _reused_probe(app: GatewayApp, now_ms: float) -> Probe | None:
    """What the newest capture saw of the focused window, when it still stands for now (S-FRESH-11)."""
    evidence = app.store.reusable_focus(now_ms, app.config.probe_reuse_ms)
    if evidence is None:
        return None
    return Probe(status="ok", focused=evidence.focused, captured=False)


async def _decide_call(
    app: GatewayApp,
    session: str,
    name: str,
    forward: dict[str, Any],
    own: dict[str, Any],
    ctx: Any = None,
    *,
    asked: bool = False,
) -> Outcome:
    """The cheap decision first, the probe last (S-FRESH-10), approvals read only when needed.

    1. `decide` with the probe pending: kill switch (one STOP read per call), visibility, rules,
       approval, freshness by age and generation. A refusal or an ask ends here — no probe.
    2. An ask for approval reads this session's grants (an index file) and decides again with them.
    3. PROBE_PENDING — everything else allows: the focused window is read (or, within
       `probe_reuse_ms` of a capture with nothing forwarded since, taken from it) and the call
       is decided again with what was seen.
    """
    call = ToolCall(
        tool=name,
        args=forward,
        session=session,
        based_on=own.get("based_on"),
        approval_id=own.get("approval_id"),
    )
    store = app.approvals
    approvals: dict[str, Approval] = {}
    cited = store.load(call.approval_id) if is_approval_id(call.approval_id) else None
    if cited is not None:
        approvals[cited.id] = cited
    rules, rules_error = app.rules()
    view = session_view(app, session, PROBE_PENDING, call.based_on)
    context = Context(
        config=app.policy_config,
        kill=kill_state(app),
        view=view,
        approvals=approvals,
        rules=rules,
        rules_error=rules_error,
        brake=app.brake.brake(session),
    )
    now = app.now_ms()
    decision = decide(call, context, now)
    if decision.verdict is Verdict.ASK and decision.code == Code.APPROVAL_REQUIRED:
        grants = store.session_grants(session)
        if grants:
            context = replace(context, approvals={**grants, **approvals})
            decision = decide(call, context, now)
    basis, _ = basis_of(call, view)
    probe_ms: float | None = None
    if decision.code == Code.PROBE_PENDING:
        assert basis is not None  # the drift check runs on a basis only
        started = app.now_ms()
        probe = _reused_probe(app, started)
        if probe is None:
            probe = await run_probe(app, basis, labels=uses_labels(call.tool, call.args))
            probe_ms = round(app.now_ms() - started, 3)
        # The brake is read again: another call of this session may have spent tokens during the probe.
        context = replace(
            context, view=session_view(app, session, probe, call.based_on), brake=app.brake.brake(session)
        )
        now = app.now_ms()
        decision = decide(call, context, now)
        if decision.code == Code.PROBE_PENDING:  # cannot happen: the probe above is ok or failed
            decision = policy_error("the focused window could not be read before this input action.")
    facts: dict[str, Any] = {
        "basis": basis,
        "point": aimed_point(name, forward),  # validated before policy ran (S-ARG-08)
        "password_field": password_target(basis or app.store.latest(session), name, forward),
        "probe_ms": probe_ms,
    }
    if decision.verdict is Verdict.ASK and decision.enforced and decision.approval_id is None:
        if ctx is not None and supports_elicitation(ctx) and not asked:
            return await _ask_person(app, session, call, decision, own, ctx, store, facts)
        hint = state_dir_hint(app.config.state_dir)  # S-APR-31: the person's command finds this state dir
        pending, decision = request_approval(
            new_approval_id(), call, decision, now, app.config.approval_ttl_ms, cli_options=hint
        )
        store.save(pending, call=describe_call(name, forward, rule_id=decision.rule_id, reason=decision.reason))
        store.prune_if_due(now)  # S-APR-11: a write sweeps what expired
    elif decision.verdict is Verdict.ALLOW and decision.approval is not None:
        decision = store.spend(context.approvals, call, decision, now)  # compare-and-set (S-APR-13)
    exempted = rules.exempted_by(name, forward) if rules is not None and decision.verdict is Verdict.ALLOW else ()
    return Outcome(decision=decision, approval_id=decision.approval_id, exempted=tuple(exempted), **facts)


async def _ask_person(
    app: GatewayApp,
    session: str,
    call: ToolCall,
    ask: Decision,
    own: dict[str, Any],
    ctx: Any,
    store: ApprovalStore,
    facts: dict[str, Any],
) -> Outcome:
    """Ask through elicitation (S-APR-06..08); a grant re-decides the call with the approval id."""
    forward = dict(call.args)
    shown = describe_call(call.tool, forward, rule_id=ask.rule_id, reason=ask.reason)
    message = prompt_text(call.tool, shown["args"], ask.rule_id, ask.reason)
    ttl = app.config.approval_ttl_ms
    pending: Approval | None = None
    if is_modern(ctx):
        answer, state = retry_answer(ctx)
        resumed = app.signer.approval_id(state, ask.digest or "") if answer is not None else None
        pending = store.load(resumed) if resumed else None
        if pending is None or pending.status != "pending" or pending.session != session:
            pending, asked = request_approval(new_approval_id(), call, ask, app.now_ms(), ttl)
            store.save(pending, call=shown)
            return Outcome(
                decision=asked,
                approval_id=pending.id,
                **facts,
                input_required=input_required(message, app.signer.sign(pending.id, ask.digest or "")),
            )
    else:
        pending, _ = request_approval(new_approval_id(), call, ask, app.now_ms(), ttl)
        store.save(pending, call=shown)
        answer = await ask_mid_call(ctx, message, app.config.approval_wait_s)
    assert pending is not None and answer is not None
    now = app.now_ms()
    if answer in ("once", "session"):
        store.save(grant_approval(pending, scope=answer, now_ms=now, ttl_ms=ttl, session_ttl_ms=ttl))
        await app.audit_event(
            "approval",
            session=session,
            tool=call.tool,
            approval=pending.id,
            reason=f"approved by a person through elicitation ({answer})",
            by="elicitation",
        )
        return await _decide_call(app, session, call.tool, forward, {**own, "approval_id": pending.id}, asked=True)
    store.save(deny_approval(pending, now_ms=now))
    why = (
        "the person denied it" if answer == "deny" else f"no answer from a person within {app.config.approval_wait_s} s"
    )
    await app.audit_event(
        "approval", session=session, tool=call.tool, approval=pending.id, reason=why, by="elicitation"
    )
    refusal = refuse(
        Code.APPROVAL_DENIED,
        f"approval {pending.id}: {why}.",
        "do not repeat this call; ask the person what to do instead",
        spec="S-APR-06",
        rule_id=ask.rule_id,
        approval_id=pending.id,
        digest=ask.digest,
    )
    return Outcome(decision=refusal, approval_id=pending.id, **facts)
