"""Approval state as values, and its pure transitions (DESIGN.md §5; S-APR-01..05).

Lifecycle (`status`), each step a pure function returning a new value:

    request ─► pending ──grant──► approved ──consume (scope "once")──► used
                  │                  │  └──consume (scope "session")──► approved (uses + 1)
                  └──deny──► denied ◄┘ (a person may revoke a grant)

1. An approval binds to `approval_digest(tool, args)`: SHA-256 over canonical JSON of the
   tool name and the arguments without `approval_id` / `based_on`. Any changed argument —
   even `1` vs `1.0` or `true` vs `"true"` — is a different call and is refused.
2. It binds to the client session that asked; another session cannot use it.
3. A pending request expires `approval_ttl_ms` after it was made; a "once" grant must be
   used within `approval_ttl_ms` of the grant; a "session" grant lasts for the rest of the
   session and, when the shell gives `session_ttl_ms` (it passes `approval_ttl_ms`), no
   longer than that after the grant (S-APR-10). The session ends it by construction: every
   session has a key of its own (S-APR-09), so no later session matches the grant.
4. Ids come from the shell (no randomness here); the shell persists the returned values,
   and does so with compare-and-set so that two processes cannot both consume a
   single-use approval (S-APR-13).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import replace

from policy.decision import Code, Decision, Verdict, allow, refuse
from policy.values import GATEWAY_ARGS, Approval, ApprovalScope, ToolCall


class ApprovalError(ValueError):
    """A transition that is not allowed from the approval's current state (e.g. granting a used one)."""


def approval_digest(tool: str, args: Mapping[str, object]) -> str:
    """SHA-256 (hex) over the canonical JSON of `tool` and `args` minus the gateway's own arguments.

    Args:
        tool: the tool name.
        args: the call's arguments (`approval_id` / `based_on` are ignored if present).

    Returns:
        64 hex characters.

    Raises:
        TypeError, ValueError: an argument is not plain JSON (or is NaN/Infinity).
    """
    body = {"tool": tool, "args": {k: v for k, v in args.items() if k not in GATEWAY_ARGS}}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    # A lone surrogate (a client can send one in JSON as \ud800) is hashed as it came, not a fault.
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def is_expired(a: Approval, now_ms: float) -> bool:
    """Whether `a` can no longer be used at `now_ms` (exactly at `expires_ms` it still can)."""
    return a.expires_ms is not None and (not math.isfinite(now_ms) or now_ms > a.expires_ms)


def request(
    approval_id: str, call: ToolCall, ask: Decision, now_ms: float, ttl_ms: float, *, cli_options: str = ""
) -> tuple[Approval, Decision]:
    """Turn an ASK from `decide` into a pending approval and the refusal that names its id (S-APR-01).

    Args:
        approval_id: a fresh id from the shell (e.g. "apr-7").
        call: the call that needs approval.
        ask: the ASK decision `decide` returned for it.
        now_ms: the clock now.
        ttl_ms: `approval_ttl_ms`.
        cli_options: what the person's command needs after the id, quoted by the shell (e.g.
            ' --state-dir "D:\\agent state"' when the state dir is not the default, S-APR-31).

    Returns:
        The pending approval to store, and the ASK decision whose remedy names the id.

    Raises:
        ValueError: `ask` is not an ASK for this very call, or the id is empty.
    """
    if ask.verdict is not Verdict.ASK or ask.digest != approval_digest(call.tool, call.args):
        raise ValueError("request() needs the ASK decision decide() returned for this call")
    if not isinstance(approval_id, str) or not approval_id.strip():
        raise ValueError("an approval id must be a non-empty string")
    pending = Approval(
        id=approval_id,
        digest=ask.digest,
        tool=call.tool,
        session=call.session,
        created_ms=now_ms,
        expires_ms=now_ms + ttl_ms,
        rule_id=ask.rule_id,
        reason=ask.reason,
    )
    remedy = (
        f"ask a person to run `winmcp-gateway approve {approval_id}{cli_options}` "
        f"(or `deny {approval_id}{cli_options}`), then repeat "
        f'the identical call with approval_id="{approval_id}" within {int(ttl_ms // 1000)} s'
    )
    return pending, replace(ask, remedy=remedy, approval_id=approval_id, approval=pending)


def grant(
    a: Approval, *, scope: ApprovalScope, now_ms: float, ttl_ms: float, session_ttl_ms: float | None = None
) -> Approval:
    """A person approves a pending request (S-APR-05, S-APR-10).

    Args:
        a: the pending approval.
        scope: "once" (one identical call) or "session" (identical calls for the rest of the session).
        now_ms: the clock now.
        ttl_ms: `approval_ttl_ms`: how long a "once" grant stays usable.
        session_ttl_ms: the longest a "session" grant lasts after the grant (the shell passes
            `approval_ttl_ms`); None: until the session ends.

    Returns:
        The approved value.

    Raises:
        ApprovalError: `a` is not pending, or it expired before the person answered.
    """
    if a.status != "pending":
        raise ApprovalError(f"approval {a.id} is {a.status}; only a pending approval can be granted")
    if is_expired(a, now_ms):
        raise ApprovalError(f"approval {a.id} expired before it was granted; the call must be asked again")
    if scope not in ("once", "session"):
        raise ApprovalError(f"scope must be 'once' or 'session', not {scope!r}")
    if scope == "once":
        expires: float | None = now_ms + ttl_ms
    else:
        expires = None if session_ttl_ms is None else now_ms + session_ttl_ms
    return replace(a, status="approved", scope=scope, decided_ms=now_ms, expires_ms=expires)


def deny(a: Approval, *, now_ms: float) -> Approval:
    """A person refuses a pending request, or revokes a grant (S-APR-05).

    Args:
        a: a pending or approved approval.
        now_ms: the clock now.

    Returns:
        The denied value (it keeps an expiry so the shell can forget it later).

    Raises:
        ApprovalError: `a` is already denied or used.
    """
    if a.status not in ("pending", "approved"):
        raise ApprovalError(f"approval {a.id} is {a.status}; only a pending or approved one can be denied")
    return replace(a, status="denied", decided_ms=now_ms, expires_ms=a.expires_ms if a.expires_ms else now_ms)


_NEW = "repeat the call without approval_id to ask a person again"


def consume(a: Approval | None, call: ToolCall, now_ms: float) -> tuple[Approval | None, Decision]:
    """Use an approval for `call` (S-APR-02..04).

    Args:
        a: the approval the call cites (None: the cited id names no approval).
        call: the call; its `approval_id` is the id the model cited.
        now_ms: the clock now.

    Returns:
        (new state, ALLOW) when the approval covers this call — the shell persists the new
        state only if it forwards the call; otherwise (unchanged value, refusal):
        APPROVAL_DENIED, or APPROVAL_REQUIRED while a person has not answered yet.
    """
    cited = call.approval_id if isinstance(call.approval_id, str) else None
    shown = f'"{cited[:40]}"' if cited else "the cited approval_id"
    digest = approval_digest(call.tool, call.args)

    def no(why: str, remedy: str = _NEW, code: Code = Code.APPROVAL_DENIED) -> tuple[Approval | None, Decision]:
        return a, refuse(code, why, remedy, spec="S-APR-03", digest=digest, approval_id=a.id if a else None)

    if a is None or a.session != call.session or (call.approval_id is not None and a.id != cited):
        return a, refuse(
            Code.APPROVAL_DENIED,
            f"{shown} names no approval of this session.",
            _NEW,
            spec="S-APR-03",
            digest=digest,
        )
    if a.digest != digest:
        return no(
            f"approval {a.id} was granted for a different call (the tool or an argument changed); "
            "an approval covers only the identical call.",
            "repeat the exact call that was approved, or " + _NEW,
        )
    if a.status == "denied":
        return no(f"a person denied approval {a.id}.", "do not repeat this call; ask the person what to do instead")
    if a.status == "used":
        return no(f"approval {a.id} was already used; it covers one call.")
    if is_expired(a, now_ms):
        return no(f"approval {a.id} expired.")
    if a.status == "pending":
        return no(
            f"approval {a.id} is still waiting for a person.",
            f"wait until a person runs `winmcp-gateway approve {a.id}`, then repeat the identical call",
            Code.APPROVAL_REQUIRED,
        )
    after = replace(a, uses=a.uses + 1, status="used" if a.scope == "once" else "approved")
    return after, allow(approval=after, approval_id=a.id, digest=digest)


def recheck(
    current: Approval | None, approval_id: str, call: ToolCall, now_ms: float
) -> tuple[Approval | None, Decision]:
    """Use an approval again, against the state another process left in it (S-APR-13).

    The shell stores a spent approval by compare-and-set; when the stored value is no longer
    the one `decide` saw (another process spent or a person revoked it meanwhile), the call is
    judged again on what is stored now.

    Args:
        current: the approval as stored now (None: its file is gone).
        approval_id: the id `decide` used.
        call: the call.
        now_ms: the clock now.

    Returns:
        As `consume`: (new state, ALLOW) when the stored approval still covers the call, else a
        refusal (APPROVAL_DENIED for one that was used up, revoked or forgotten meanwhile).
    """
    if current is None:
        return None, refuse(
            Code.APPROVAL_DENIED,
            f"approval {approval_id} was used up, revoked or expired while this call was judged.",
            _NEW,
            spec="S-APR-13",
            digest=approval_digest(call.tool, call.args),
            approval_id=approval_id,
        )
    return consume(current, call, now_ms)


def session_approval(approvals: Mapping[str, Approval], call: ToolCall, now_ms: float) -> Approval | None:
    """A granted session-scoped approval covering this identical call in this session, if any (S-APR-04).

    Args:
        approvals: the approvals the shell holds.
        call: the call.
        now_ms: the clock now.

    Returns:
        The approval with the smallest id that applies, or None.
    """
    digest = approval_digest(call.tool, call.args)
    for key in sorted(approvals):
        a = approvals[key]
        if (
            type(a) is Approval
            and a.scope == "session"
            and a.status == "approved"
            and a.session == call.session
            and a.digest == digest
            and not is_expired(a, now_ms)
        ):
            return a
    return None
