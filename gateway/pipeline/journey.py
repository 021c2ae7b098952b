"""One call's journey through the gateway (DESIGN.md §2):

    1. own tool?            → gateway/pipeline/own_tool_handlers.py answers, audited
    2. split arguments      → the gateway's own (`based_on`, `approval_id`) are removed before forwarding
       pinned?              → a changed tool definition no person accepted (gateway/pipeline/pin_check.py);
                              TOOL_CHANGED, audited
       validate             → schema + bounds + shapes (gateway/pipeline/arguments.py); BAD_ARGUMENTS, audited
    3. probe                → for input actions, a read-only look at the focused window (window drift)
    4. decide               → `policy.decide` with the world as values; any fault is DENY POLICY_ERROR
    5. deny / ask           → a refusal result (never a JSON-RPC error), audited; nothing reaches upstream
    6. forward              → upstream call; faults become a clear isError result, audited as failure
    7. observe              → Snapshot/Screenshot parsed into an Observation, private windows masked and
                              redacted (gateway/pipeline/private_capture.py, S-PRIV-03), annotated (S-OBS/S-MAP)
    8. audit                → one line per call (observation | allow | deny | ask | failure), queued to the
                              background writer; an input or system call writes its `allow` intent line
                              before step 6 and waits for it, then an `outcome` line (S-AUD-13..16)

Every step that can go wrong on the gateway's side fails closed and visibly.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import gateway.pipeline.own_tool_handlers as own_handlers
from gateway.app import GatewayApp
from gateway.audit.geometry import screen_geometry
from gateway.errors import UpstreamError
from gateway.observe.annotation import annotation_line
from gateway.observe.coords import derive_mapping
from gateway.observe.mask import scrub_quoted_titles
from gateway.observe.parse import CaptureFailure, parse_result
from gateway.pipeline.arguments import screen_arguments
from gateway.pipeline.pin_check import screen_pins
from gateway.pipeline.policy_world import decide_call
from gateway.pipeline.private_capture import guard_capture, patterns_of, withhold_images
from gateway.tools import OWN_TOOL_NAMES
from gateway.upstream.client import UpstreamProtocolError
from policy import GATEWAY_ARGS, catalog
from policy.catalog import ToolClass, classify
from policy.decision import Decision, Verdict, refusal_text
from policy.observation import Observation
from policy.rules.keyboard import is_paste_chord

log = logging.getLogger(__name__)

CAPTURE_RESULT_TOOLS = frozenset({"Snapshot", "Screenshot"})
# Classes whose allowed calls are audited before they are forwarded (S-AUD-15).
_WRITE_AHEAD = frozenset({ToolClass.INPUT.value, ToolClass.SYSTEM.value, ToolClass.UNKNOWN.value})


def refusal_result(decision: Decision, *, note: str = "") -> dict[str, Any]:
    """A refusal as the model sees it: isError, first text `DENIED <CODE>: <reason> … remedy`."""
    text = refusal_text(decision)
    content = [{"type": "text", "text": text}]
    if note:
        content.append({"type": "text", "text": note})
    return {"content": content, "isError": True}


def failure_result(code: str, reason: str, remedy: str, detail: str = "") -> dict[str, Any]:
    """A gateway-side failure that is not a policy refusal (e.g. the upstream died)."""
    text = f"FAILED {code}: {reason} Remedy: {remedy}"
    content = [{"type": "text", "text": text}]
    if detail:
        content.append({"type": "text", "text": f"upstream stderr (tail):\n{detail}"})
    return {"content": content, "isError": True}


def split_gateway_args(name: str, args: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(arguments for upstream, the gateway's own arguments). Only tools we extended lose them."""
    klass = catalog.classify(name)
    if klass not in (catalog.ToolClass.INPUT, catalog.ToolClass.SYSTEM):
        return dict(args), {}
    forward = {k: v for k, v in args.items() if k not in GATEWAY_ARGS}
    own = {k: args[k] for k in GATEWAY_ARGS if k in args}
    return forward, own


async def handle_call(app: GatewayApp, session: str, name: str, args: dict[str, Any], ctx: Any) -> dict[str, Any]:
    """Run one tools/call through the pipeline and return the result dict for the client."""
    started = time.perf_counter()
    app.counters.calls += 1
    if name in OWN_TOOL_NAMES:
        return await own_handlers.handle(app, session, name, args, ctx)

    forward, own = split_gateway_args(name, args)
    refused = await screen_pins(app, session, name, forward, started=started)  # S-PIN-04
    if refused is not None:
        return refused
    refused = await screen_arguments(app, session, name, args, forward, started=started)  # S-ARG-01
    if refused is not None:
        return refused
    outcome = await decide_call(app, session, name, forward, own, ctx)
    decision, basis = outcome.decision, outcome.basis
    # No await since the final decide: the token is spent (or the refusal counted) before any
    # other call of this session can be decided (gateway/state/rate_state.py, S-RATE-02).
    app.brake.after_decision(session, name, forward, decision, app.now_ms())
    klass = catalog.classify(name).value
    audit_common: dict[str, Any] = {
        "session": session,
        "tool": name,
        "class": klass,
        "args": forward,  # raw: AuditLog.append redacts, and scrubs typed password text everywhere
        "password_field": outcome.password_field or None,
        "based_on": own.get("based_on") if isinstance(own.get("based_on"), str) else None,
        "obs": basis.id if basis else None,
        "window": basis.focused.name if basis and basis.focused else None,
    }
    if outcome.point is not None:
        audit_common["point"] = list(outcome.point)

    if outcome.input_required is not None:
        # 2026-07-28: the client asks the person and retries the identical call (gateway/protocol/elicitation.py).
        await app.audit_event(
            "ask",
            code=decision.code,
            reason=decision.reason,
            rule=decision.rule_id,
            approval=outcome.approval_id,
            channel="elicitation",
            duration_ms=_ms(started),
            **audit_common,
        )
        return outcome.input_required

    if decision.verdict is not Verdict.ALLOW and decision.enforced:
        app.counters.count_denial(decision.code or "")
        event = "ask" if decision.verdict is Verdict.ASK else "deny"
        await app.audit_event(
            event,
            code=decision.code,
            reason=decision.reason,
            rule=decision.rule_id,
            approval=outcome.approval_id,
            duration_ms=_ms(started),
            **audit_common,
        )
        return refusal_result(decision)

    shadow: dict[str, Any] = {}
    if not decision.enforced and decision.verdict is not Verdict.ALLOW:
        # Shadow mode (enforce = false): audited as would-deny, and the result says so (S-CFG-…).
        shadow = {"would": decision.verdict.value, "code": decision.code, "reason": decision.reason}
    intent: int | None = None
    if klass in _WRITE_AHEAD:
        # S-AUD-15: what changes the desktop or the machine is on disk before it is forwarded, so a
        # crash, a kill or a hung upstream mid-call still leaves the record; the outcome follows.
        intent = await app.audit_write_ahead(
            "allow",
            rule=decision.rule_id,
            exempted=list(outcome.exempted) or None,
            phase="intent",
            **{**audit_common, **shadow},
        )
        audit_common["intent"] = intent
    upstream_started = time.perf_counter()
    try:
        result = await app.upstream.call_tool(name, forward)
    except UpstreamProtocolError:
        await app.audit_event("failure", code="UPSTREAM_PROTOCOL_ERROR", duration_ms=_ms(started), **audit_common)
        raise
    except UpstreamError as exc:
        app.counters.upstream_failures += 1
        app.note_upstream_restarts()
        await app.audit_event(
            "failure",
            code=exc.code,
            reason=str(exc),
            duration_ms=_ms(started),
            upstream_ms=_ms(upstream_started),
            **audit_common,
        )
        return failure_result(
            exc.code, str(exc), "retry the call; if it keeps failing run winmcp_doctor", exc.stderr_tail
        )
    upstream_ms = _ms(upstream_started)
    app.note_upstream_restarts()
    app.counters.allowed += 1
    app.store.note_forwarded(
        name, forward, read_only=classify(name) is ToolClass.READ_ONLY, paste=is_paste_chord(name, forward)
    )

    if catalog.replaces_labels(name, forward):
        # Even a failed WaitFor polled (and so replaced the label table) before it timed out.
        app.store.bump_generation()

    extra: dict[str, Any] = {} if intent is not None else dict(shadow)
    if shadow:
        result = _with_note(
            result,
            f"[gateway] SHADOW MODE: would have refused ({decision.code}: "
            f"{decision.reason}); enforce = false let it through.",
        )
    for warning in decision.warnings:
        result = _with_note(result, f"[gateway] warning {warning}")

    if name == "WaitFor":  # it prints the active window's title (S-PRIV-04)
        result = scrub_quoted_titles(result, patterns_of(app).matches)
    if name in CAPTURE_RESULT_TOOLS:
        use_dom = name == "Snapshot" and bool(forward.get("use_dom"))
        result, obs = await _observe(app, session, name, result, use_dom=use_dom)
        if obs is not None:
            extra["obs"] = obs.id
            extra["generation"] = obs.generation
            extra["screen"] = screen_geometry(obs)  # displays, focus, cursor: the HTML report draws them
    if intent is not None:
        event = "outcome"  # the intent line above holds the decision; this one what came of it
    else:
        event = "observation" if name in CAPTURE_RESULT_TOOLS else "allow"
        extra.update(rule=decision.rule_id, exempted=list(outcome.exempted) or None)
    await app.audit_event(
        event,
        duration_ms=_ms(started),
        upstream_ms=upstream_ms,
        result=result,
        **{**audit_common, **extra},
    )
    return result


async def _observe(
    app: GatewayApp, session: str, name: str, result: dict[str, Any], *, use_dom: bool = False
) -> tuple[dict[str, Any], Observation | None]:
    """Parse a capture result into an Observation of `session`, mask private windows, annotate."""
    try:
        parsed = parse_result(name, result)
    except Exception:  # noqa: BLE001 - the parser must never take a result down with it
        log.exception("observation parser failed on a %s result", name)
        return withhold_images(result), None  # unparsed means unmasked: no image leaves (S-PRIV-03)
    if isinstance(parsed, CaptureFailure):
        return withhold_images(result), None
    mapping, mapping_warnings = derive_mapping(parsed)
    result, parsed, privacy = await guard_capture(app, result, parsed, mapping)  # S-PRIV-03, S-PRIV-04
    obs = app.store.record(
        session=session,
        capture=parsed,
        mapping=mapping,
        mapping_warnings=mapping_warnings,
        now_ms=app.now_ms(),
        generation=app.store.generation,
        use_dom=use_dom,
        private=privacy,
    )
    app.brake.observed(session)  # a fresh look resets the loop detector (S-RATE-05); the probe never does
    if app.config.annotate_results:
        result = _with_note(result, annotation_line(obs))
    return result, obs


def _with_note(result: dict[str, Any], text: str) -> dict[str, Any]:
    """The result with one more text item at the end (the rest unchanged)."""
    out = dict(result)
    out["content"] = [*result.get("content", []), {"type": "text", "text": text}]
    return out


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000.0, 3)
