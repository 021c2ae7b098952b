"""Approvals on disk, so a person's `winmcp-gateway approve ID` reaches the gateway process.

Each request is one JSON file `<state>/approvals/<id>.json`: the `policy.Approval` value plus
a redacted description of the call for the person. Transitions are pure (`policy/approval.py`);
this module only loads, saves and asks. No tool a model can call writes here: the
gateway's own state dir is self-protected (SELF_PROTECTION).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import secrets
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from filelock import FileLock

from gateway.audit.redact.values import redact_args
from gateway.config.load import GatewayConfig
from policy.approval import ApprovalError, deny, grant
from policy.values import Approval

APPROVALS_DIR = "approvals"
# Ids are random (not a counter): a model cannot guess another request's id, and the format
# check below keeps any cited id from naming a path outside the approvals dir.
_ID = re.compile(r"apr-[0-9a-f]{10}")
LOCK_TIMEOUT_S = 10.0


def new_approval_id() -> str:
    return f"apr-{secrets.token_hex(5)}"


def is_approval_id(value: object) -> bool:
    return isinstance(value, str) and bool(_ID.fullmatch(value))


class ApprovalStore:
    """The approvals dir of one state dir (cross-process safe through a file lock)."""

    def __init__(self, state_dir: Path) -> None:
        self.dir = state_dir / APPROVALS_DIR
        self._lock = FileLock(str(state_dir / "approvals.lock"), timeout=LOCK_TIMEOUT_S)

    def _path(self, approval_id: str) -> Path:
        if not is_approval_id(approval_id):
            raise ValueError(f"not an approval id: {approval_id!r}")
        return self.dir / f"{approval_id}.json"

    def save(self, approval: Approval, *, call: Mapping[str, Any] | None = None) -> None:
        """Write `approval` (and, on creation, the redacted call it is about)."""
        path = self._path(approval.id)
        self.dir.mkdir(parents=True, exist_ok=True)
        with self._lock:
            record: dict[str, Any] = {}
            if path.exists():
                record = json.loads(path.read_text(encoding="utf-8"))
            record["approval"] = dataclasses.asdict(approval)
            if call is not None:
                record["call"] = dict(call)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
            os.replace(tmp, path)

    def record(self, approval_id: object) -> dict[str, Any] | None:
        if not is_approval_id(approval_id):
            return None
        assert isinstance(approval_id, str)
        try:
            data: dict[str, Any] = json.loads(self._path(approval_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data

    def load(self, approval_id: object) -> Approval | None:
        """The approval with this id, or None (unknown, malformed id, or unreadable file)."""
        data = self.record(approval_id)
        if data is None:
            return None
        try:
            return Approval(**data["approval"])
        except (KeyError, TypeError, ValueError):
            return None

    def session_grants(self, session: str) -> dict[str, Approval]:
        """This session's granted session-scoped approvals (they cover identical calls)."""
        out: dict[str, Approval] = {}
        if not self.dir.is_dir():
            return out
        for path in self.dir.glob("apr-*.json"):
            approval = self.load(path.stem)
            if (
                approval
                and approval.session == session
                and approval.scope == "session"
                and approval.status == "approved"
            ):
                out[approval.id] = approval
        return out


def describe_call(tool: str, args: Mapping[str, Any], *, rule_id: str | None, reason: str) -> dict[str, Any]:
    """What a person sees about a request: tool, redacted arguments, the rule that asked, why."""
    return {"tool": tool, "args": redact_args(tool, dict(args)), "rule": rule_id, "reason": reason}


def answer_cli(
    config: GatewayConfig,
    approval_id: str,
    *,
    approve: bool,
    session_scope: bool = False,
    assume_yes: bool = False,
) -> int:
    """`winmcp-gateway approve|deny ID`: show the request, confirm, record the answer. Returns the exit code."""
    store = ApprovalStore(config.state_dir)
    if not is_approval_id(approval_id):
        print(f"error: {approval_id!r} is not an approval id (they look like apr-0123456789)", file=sys.stderr)
        return 2
    record, approval = store.record(approval_id), store.load(approval_id)
    if record is None or approval is None:
        print(
            f"error: no approval request {approval_id} in {store.dir} (check --state-dir / WINMCP_GATEWAY_STATE_DIR)",
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
    verb = "approve" if approve else "deny"
    if not assume_yes:
        if not sys.stdin.isatty():
            print(f"error: not a terminal; re-run with --yes to {verb} without a prompt", file=sys.stderr)
            return 2
        if input(f"{verb} this call? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing changed")
            return 1
    now_ms = time.time() * 1000.0
    # The ttl of the gateway that asked travels with its request; this CLI's own config may differ.
    ttl_ms = approval.expires_ms - approval.created_ms if approval.expires_ms is not None else config.approval_ttl_ms
    try:
        if approve:
            updated = grant(approval, scope="session" if session_scope else "once", now_ms=now_ms, ttl_ms=ttl_ms)
        else:
            updated = deny(approval, now_ms=now_ms)
    except ApprovalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    store.save(updated)
    if approve:
        scope = "identical calls for the rest of that client session" if session_scope else "one identical call"
        print(f'approved for {scope}; the model must repeat the call with approval_id="{approval.id}"')
    else:
        print("denied; the model's repeat of the call will be refused")
    return 0
