"""A person's side of approvals: `winmcp-gateway approvals`, `approve ID`, `deny ID` (issue 16 item 8).

    approvals        the requests waiting for a person: id, age, tool, summary, session (`--json`)
                     (S-APR-30)
    approve ID       show the request, confirm, grant it once (or `--session`)  (S-CLI-04, S-APR-14)
    deny ID          show the request, confirm, refuse it (or revoke a grant)   (S-APR-15)

An answer is stored by compare-and-set (`ApprovalStore.compare_and_set`) and then written to the
audit as an `approval` event with `by: "cli"` (S-APR-32), as the gateway writes the answers it gets
through elicitation with `by: "elicitation"`. The state dir is read as `serve` reads it
(`--state-dir`, else `WINMCP_GATEWAY_STATE_DIR`, else the user state dir).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gateway.audit.writer import AuditLog
from gateway.config.load import GatewayConfig, load_config
from gateway.state.approvals import ApprovalStore, is_approval_id, prune_at_start
from gateway.state.command_line import state_dir_hint
from policy.approval import ApprovalError, deny, grant
from policy.values import Approval, ApprovalScope

ERROR = "winmcp-gateway: error:"
SUMMARY_CHARS = 72  # one table row stays on a 120-column terminal


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `approvals`, `approve` and `deny` to the command line (`gateway/cli/commands.py`)."""
    listing = sub.add_parser("approvals", help="list the approval requests waiting for a person")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    _add_state(listing)
    listing.set_defaults(handler=run_list)
    for verb in ("approve", "deny"):
        ap = sub.add_parser(verb, help=f"{verb} an approval request (see `winmcp-gateway approvals`)")
        ap.add_argument("approval_id", metavar="ID", help="the request's id, e.g. apr-0123456789")
        if verb == "approve":
            ap.add_argument(
                "--session",
                action="store_true",
                help="also allow identical calls for the rest of that client session",
            )
        ap.add_argument("--yes", action="store_true", help="do not ask for confirmation")
        _add_state(ap)
        ap.set_defaults(handler=run_answer)


def _add_state(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--state-dir", type=Path, help="state dir (default: $WINMCP_GATEWAY_STATE_DIR or the user state dir)"
    )


def _config(args: argparse.Namespace) -> GatewayConfig:
    config = load_config(environ=os.environ, config_file=getattr(args, "config", None), state_dir=args.state_dir)
    for warning in config.warnings:
        print(f"winmcp-gateway: warning: {warning}", file=sys.stderr)
    return config


def run_list(args: argparse.Namespace) -> int:
    """`winmcp-gateway approvals [--json]`; returns the exit code (0, also when none are pending)."""
    config = _config(args)
    print(render_pending(config.state_dir, time.time() * 1000.0, as_json=args.json))
    return 0


def run_answer(args: argparse.Namespace) -> int:
    """`winmcp-gateway approve|deny ID`; returns the exit code."""
    return answer_cli(
        _config(args),
        args.approval_id,
        approve=args.command == "approve",
        session_scope=getattr(args, "session", False),
        assume_yes=args.yes,
    )


# -- the listing ---------------------------------------------------------------------------------


def _age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h"


def summary_of(call: Mapping[str, Any], approval: Approval) -> str:
    """One line about what the request would do: the rule that asked and the redacted arguments."""
    args = call.get("args")
    shown = (
        " ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
        if isinstance(args, Mapping)
        else ""
    )
    rule = call.get("rule") or approval.rule_id
    text = f"{rule}: {shown}" if rule else shown or str(call.get("reason") or approval.reason or "")
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


def pending_items(state_dir: Path, now_ms: float) -> list[dict[str, Any]]:
    """The pending requests of `state_dir` as plain values (the `--json` form), oldest first."""
    items = []
    for approval, call in ApprovalStore(state_dir).pending(now_ms):
        items.append(
            {
                "id": approval.id,
                "tool": call.get("tool", approval.tool),
                "session": approval.session,
                "age_s": round(max(0.0, now_ms - approval.created_ms) / 1000.0, 1),
                "expires_in_s": (
                    None if approval.expires_ms is None else round((approval.expires_ms - now_ms) / 1000.0, 1)
                ),
                "rule": call.get("rule") or approval.rule_id,
                "reason": call.get("reason") or approval.reason,
                "args": call.get("args", {}),
                "summary": summary_of(call, approval),
            }
        )
    return items


def render_pending(state_dir: Path, now_ms: float, *, as_json: bool = False) -> str:
    """What `winmcp-gateway approvals` prints: a table (or JSON) of the pending requests."""
    items = pending_items(state_dir, now_ms)
    if as_json:
        return json.dumps({"state_dir": str(state_dir), "pending": items}, indent=2, ensure_ascii=False)
    if not items:
        return f"no approval request is waiting in {state_dir}"
    rows = [("ID", "AGE", "TOOL", "SESSION", "SUMMARY")] + [
        (i["id"], _age(i["age_s"]), str(i["tool"]), i["session"], i["summary"]) for i in items
    ]
    widths = [max(len(row[col]) for row in rows) for col in range(4)]
    lines = [f"{len(items)} approval request(s) waiting in {state_dir}:", ""]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)) + "  " + row[4] for row in rows]
    hint = state_dir_hint(state_dir)
    lines += ["", f"answer one: winmcp-gateway approve ID{hint} [--session]  |  winmcp-gateway deny ID{hint}"]
    return "\n".join(lines)


# -- answering -------------------------------------------------------------------------------------


def _expiry_text(approval: Approval, now_ms: float) -> str:
    if approval.expires_ms is None:
        return "when the session ends"
    left = (approval.expires_ms - now_ms) / 1000.0
    return f"in {left:.0f} s" if left >= 0 else f"{-left:.0f} s ago"


def _audit_answer(config: GatewayConfig, approval: Approval, answer: str, ttl_ms: float) -> None:
    # S-APR-32: a person's answer from the command line is in the record, like one by elicitation.
    if answer == "deny":
        reason = "denied by a person from the command line"
    elif answer == "session":
        reason = f"approved by a person from the command line for that client session ({ttl_ms / 1000:.0f} s)"
    else:
        reason = "approved by a person from the command line (once)"
    AuditLog.for_config(config).append(
        "approval",
        session=approval.session,
        tool=approval.tool,
        approval=approval.id,
        rule=approval.rule_id,
        answer=answer,
        reason=reason,
        by="cli",
    )


def answer_cli(
    config: GatewayConfig,
    approval_id: str,
    *,
    approve: bool,
    session_scope: bool = False,
    assume_yes: bool = False,
) -> int:
    """`winmcp-gateway approve|deny ID`: show the request, confirm, record the answer.

    The answer is stored by compare-and-set: if the request changed while the person read it
    (another answer, or the model spent a grant), nothing is written and the exit code is 2.
    A stored answer is audited (`approval`, `by: "cli"`).

    Args:
        config: the effective config (state dir, audit settings, the ttl fallback).
        approval_id: the id the person typed.
        approve: grant (True) or deny (False).
        session_scope: grant for the rest of that client session, not one call.
        assume_yes: do not ask for confirmation.

    Returns:
        0 answered; 1 the person said no; 2 a malformed, unknown, expired or changed request,
        or no terminal without `--yes`.
    """
    store = ApprovalStore(config.state_dir)
    if not is_approval_id(approval_id):
        print(f"{ERROR} {approval_id!r} is not an approval id (they look like apr-0123456789)", file=sys.stderr)
        return 2
    record, approval = store.record(approval_id), store.load(approval_id)
    if record is None or approval is None:
        print(
            f"{ERROR} no approval request {approval_id} in {store.dir} (check --state-dir / "
            "WINMCP_GATEWAY_STATE_DIR; `winmcp-gateway approvals` lists the waiting ones; "
            "requests are forgotten once they expire)",
            file=sys.stderr,
        )
        return 2
    call = record.get("call", {})
    print(f"approval {approval.id} — {approval.status}")
    print(f"  tool:    {call.get('tool', approval.tool)}")
    print(f"  args:    {json.dumps(call.get('args', {}), ensure_ascii=False)}")
    if call.get("rule"):
        print(f"  rule:    {call['rule']}")
    print(f"  why:     {call.get('reason') or approval.reason}")
    print(f"  session: {approval.session}")
    print(f"  expires: {_expiry_text(approval, time.time() * 1000.0)}")
    verb = "approve" if approve else "deny"
    if not assume_yes:
        if not sys.stdin.isatty():
            print(f"{ERROR} not a terminal; re-run with --yes to {verb} without a prompt", file=sys.stderr)
            return 2
        if input(f"{verb} this call? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing changed")
            return 1
    now_ms = time.time() * 1000.0
    # The ttl of the gateway that asked travels with its request; this CLI's own config may differ.
    ttl_ms = approval.expires_ms - approval.created_ms if approval.expires_ms is not None else config.approval_ttl_ms
    scope: ApprovalScope = "session" if session_scope else "once"
    try:
        if approve:
            updated = grant(approval, scope=scope, now_ms=now_ms, ttl_ms=ttl_ms, session_ttl_ms=ttl_ms)
        else:
            updated = deny(approval, now_ms=now_ms)
    except ApprovalError as exc:
        print(f"{ERROR} {exc}", file=sys.stderr)
        return 2
    won, current = store.compare_and_set(approval, updated)
    prune_at_start(config.state_dir, now_ms)  # a person's answer is a write: forget what expired
    if not won:
        now = current.status if current is not None else "gone"
        print(
            f"{ERROR} approval {approval.id} changed while you answered (now {now}); nothing changed", file=sys.stderr
        )
        return 2
    _audit_answer(config, approval, scope if approve else "deny", ttl_ms)
    if approve:
        covered = (
            f"identical calls of that client session for {ttl_ms / 1000:.0f} s"
            if session_scope
            else "one identical call"
        )
        print(f'approved for {covered}; the model must repeat the call with approval_id="{approval.id}"')
    else:
        print("denied; the model's repeat of the call will be refused")
    return 0
