"""`winmcp-gateway kill engage|release|status [--reason R] [--json]`: a person's stop (S-CLI-02).

Prose by default, the kill switch's state as JSON with `--json` (S-CLI-43); `release` of a stop
that was not engaged says so rather than "released" (S-CLI-44). Engage and release are audited
as `kill` events by a person; the printed release command names the state dir when it is not the
default one.
"""

from __future__ import annotations

import json
from pathlib import Path

from gateway.audit.writer import AuditLog
from gateway.config.load import GatewayConfig
from gateway.state.command_line import state_dir_hint
from gateway.state.store import KillStatus, KillSwitch


def describe_status(status: KillStatus, state_dir: Path, hint: str = "") -> str:
    """`kill status` in words: engaged (by whom, since when, why) or not, and what follows."""
    if status.engaged:
        since = f" since {status.since}" if status.since else ""
        return (
            f"kill switch ENGAGED by {status.by}{since}: {status.reason}\n"
            f"every gateway using {state_dir} refuses desktop- and system-changing calls; observation keeps "
            f"working. Release: winmcp-gateway kill release{hint}"
        )
    return f"kill switch not engaged: gateways using {state_dir} act normally"


def run_kill(config: GatewayConfig, action: str, *, reason: str = "", as_json: bool = False) -> int:
    """Engage, release or report the kill switch of `config.state_dir`; prints prose or JSON.

    Args:
        config: the effective config (state dir, audit settings).
        action: "engage" | "release" | "status".
        reason: why (engage); recorded, and shown in the model's KILLED refusals.
        as_json: print the state after the action as JSON instead of a sentence.

    Returns:
        0.
    """
    switch = KillSwitch(config.state_dir)
    before = switch.status()
    if action != "status":
        AuditLog.for_config(config).append(
            "kill",
            tool="winmcp-gateway kill",
            by="person",
            reason=f"{action} from the command line" + (f": {reason}" if reason else ""),
            was_engaged=before.engaged,
        )
    hint = state_dir_hint(config.state_dir)
    if action == "engage":
        status = switch.engage(by="person", reason=reason or "engaged from the command line")
        text = (
            f"kill switch ENGAGED by {status.by} at {status.since}: {status.reason}\n"
            f"every gateway using {config.state_dir} now refuses desktop- and system-changing calls;"
            f" observation keeps working. Release: winmcp-gateway kill release{hint}"
        )
    elif action == "release":
        _, status = switch.release(by="person")
        if not before.engaged:
            text = "kill switch was not engaged; nothing to release"
        elif status.engaged:
            text = "kill switch still engaged"
        else:
            text = f"kill switch released (it was engaged by {before.by}: {before.reason})"
    else:
        status = before
        text = describe_status(status, config.state_dir, hint)
    print(json.dumps(status.as_dict()) if as_json else text)
    return 0
