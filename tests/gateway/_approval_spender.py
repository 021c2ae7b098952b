"""One spender of an approval, importable cheaply by a worker process (tests/gateway/test_approval_store.py)."""

from __future__ import annotations

import time
from pathlib import Path

from gateway.state.approvals import ApprovalStore
from policy import Verdict, consume_approval
from policy.values import Approval, ToolCall


def spend_once(state: Path, before: Approval, start: float, args: dict[str, object], now_ms: float) -> bool:
    """Its own store (its own lock handle), a call citing `before`, the shell's spend; True if it won."""
    store = ApprovalStore(state)
    call = ToolCall(tool=before.tool, args=args, session=before.session, approval_id=before.id)
    after, decision = consume_approval(before, call, now_ms)
    assert decision.verdict is Verdict.ALLOW and after is not None
    while time.time() < start:  # all spenders leave the line together
        pass
    return store.spend({before.id: before}, call, decision, now_ms).verdict is Verdict.ALLOW


def ready(_: int) -> bool:
    """A no-op that makes a worker import this module (and the store) before a race starts."""
    return True
