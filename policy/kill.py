"""The kill switch as policy: who may release it, and what it refuses (DESIGN.md §5; S-KILL-01..02).

Engaged, every call is KILLED except observation tools (so the agent can still report what
it sees), the gateway's read-only tools and `winmcp_kill` itself (its status/release go
through `can_release`). The shell reads the STOP file and passes a `KillState`.
"""

from __future__ import annotations

from policy.catalog import KILL_TOOL, OBSERVATION_TOOLS, OWN_READ_ONLY_TOOLS
from policy.context import Context
from policy.decision import Code, Decision, refuse
from policy.values import KillState, ToolCall

# What keeps working while the stop is engaged (S-KILL-01).
KILL_EXEMPT: frozenset[str] = OBSERVATION_TOOLS | OWN_READ_ONLY_TOOLS | {KILL_TOOL}


def can_release(kill: KillState, requester: str) -> bool:
    """Whether `requester` ("person" or "model") may release the stop (S-KILL-02).

    A person may release any stop; a model only one a model engaged. Anyone else: no.

    Args:
        kill: the current state.
        requester: who asks.

    Returns:
        True when the release may proceed (also when nothing is engaged).
    """
    if requester == "person":
        return True
    if requester != "model":
        return False
    return not kill.engaged or kill.by == "model"


def check_kill(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Chain step 1: refuse everything but observation while the stop is engaged (S-KILL-01).

    Args:
        call: the call.
        ctx: the world; `ctx.kill` is read.
        now_ms: unused (the step takes the common rule arguments).

    Returns:
        None, or KILLED.
    """
    kill = ctx.kill
    if type(kill) is not KillState:
        raise TypeError(f"Context.kill must be a KillState, not {type(kill).__name__}")
    if not kill.engaged or call.tool in KILL_EXEMPT:
        return None
    who = kill.by or "person"
    since = f" since {kill.since}" if kill.since else ""
    why = f" ({' '.join(kill.reason.split())[:120]})" if kill.reason.strip() else ""
    if who == "model":
        remedy = "report what you see with Snapshot/Screenshot; release with winmcp_kill action=release once it is safe"
    else:
        remedy = (
            "only observation tools work now "
            "(Snapshot, Screenshot, DisplayInventory, Wait, WaitFor, ControlStatus): "
            "report what you see and wait for the person to release the stop"
        )
    return refuse(Code.KILLED, f"the kill switch was engaged by a {who}{since}{why}.", remedy, spec="S-KILL-01")
