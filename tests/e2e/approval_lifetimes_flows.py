"""The end-to-end flows of approval lifetimes (S-APR-09..15), shared by the e2e tests and the BDD binding.

Each flow runs real MCP clients through the gateway to the simulator and returns the facts
the tests judge: what each client was told, how often a person was asked, and — the proof
of the negative — the kills each simulator's event log recorded.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import anyio
import mcp_types as types
from mcp import Client

from gateway.cli import main as cli_main
from gateway.sim.events import read_events
from gateway.state.approvals import APPROVALS_DIR, ApprovalStore
from policy import approval_digest
from policy.values import Approval
from tests.e2e.harness import first_text, gateway_rig, gateway_stdio_params, wire

KILL = {"mode": "kill", "name": "notepad.exe", "force": True}
STDIO_KEY = re.compile(r"stdio:[0-9a-f]{16}")


def kills(events: list[dict[str, Any]]) -> int:
    return sum(1 for e in events if e.get("kind") == "process_kill")


def approval_id_of(result: dict[str, Any]) -> str:
    text = first_text(result)
    assert text.startswith("DENIED APPROVAL_REQUIRED: "), text
    return "apr-" + text.split("apr-")[1][:10]


def elicitor(choice: str, asked: list[str]) -> Any:
    """A client's elicitation callback that answers `choice` and records each question."""

    async def callback(ctx: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": choice})

    return callback


def audit_sessions(state: Path) -> set[str]:
    path = state / "audit.jsonl"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return {line["session"] for line in lines if isinstance(line.get("session"), str)}


# -- S-APR-09: one process's grant, the next process ------------------------------------------------


async def _stdio_gateway_run(tmp: Path, state: Path, mode: str, elicit: str | None) -> dict[str, Any]:
    """One real `winmcp-gateway serve` child over stdio: the kill call, twice; then it exits."""
    tmp.mkdir(parents=True, exist_ok=True)
    params, event_log, _ = gateway_stdio_params(tmp, "--state-dir", str(state))
    asked: list[str] = []
    kwargs: dict[str, Any] = {"elicitation_callback": elicitor(elicit, asked)} if elicit else {}
    async with Client(params, mode=mode, **kwargs) as client:
        first = wire(await client.call_tool("Process", dict(KILL)))
        second = wire(await client.call_tool("Process", dict(KILL)))
    return {"first": first, "second": second, "asked": len(asked), "kills": kills(read_events(event_log))}


async def next_process_flow(tmp: Path, mode: str) -> dict[str, Any]:
    """A person approves "for this session" in one gateway process; a new process, same state dir, same call."""
    state = tmp / "shared-state"
    before = await _stdio_gateway_run(tmp / "first", state, mode, "approve_session")
    after = await _stdio_gateway_run(tmp / "second", state, mode, None)
    return {"before": before, "after": after, "sessions": audit_sessions(state)}


async def side_by_side_flow(tmp: Path) -> dict[str, Any]:
    """Two gateways running at once on one state dir; the first one's client grants for its session."""
    state = tmp / "shared-state"
    asked: list[str] = []
    async with gateway_rig(tmp / "a", state_dir=state, elicitation_callback=elicitor("approve_session", asked)) as a:
        granted = await a.call("Process", KILL)
        async with gateway_rig(tmp / "b", state_dir=state) as b:
            other = await b.call("Process", KILL)
            again = await a.call("Process", KILL)
            return {
                "granted": granted,
                "other": other,
                "again": again,
                "asked": len(asked),
                "kills_a": kills(a.side_effects()),
                "kills_b": kills(b.side_effects()),
                "sessions": audit_sessions(state),
            }


# -- S-APR-10 / S-APR-15: a session grant's end -----------------------------------------------------


async def ttl_flow_elicitation(tmp: Path, ttl_ms: int = 5000) -> dict[str, Any]:
    """A session grant through elicitation, used within the ttl and again after it."""
    asked: list[str] = []
    async with gateway_rig(
        tmp, config={"approval_ttl_ms": ttl_ms}, elicitation_callback=elicitor("approve_session", asked)
    ) as rig:
        now = [time.time()]
        rig.app.clock = lambda: now[0]
        first = await rig.call("Process", KILL)
        now[0] += ttl_ms / 1000.0 - 1.0
        within = await rig.call("Process", KILL)
        asked_within = len(asked)
        now[0] += 2.0  # past the ttl of the grant
        after = await rig.call("Process", KILL)
        return {"first": first, "within": within, "after": after, "asked_within": asked_within, "asked": len(asked)}


async def ttl_flow_cli(tmp: Path, ttl_ms: int = 5000) -> dict[str, Any]:
    """`approve --session`, then the identical call without approval_id within and after the ttl."""
    async with gateway_rig(tmp, config={"approval_ttl_ms": ttl_ms}) as rig:
        state = str(rig.app.config.state_dir)
        now = [time.time()]  # the CLI reads the real clock; the gateway's starts there
        rig.app.clock = lambda: now[0]
        approval_id = approval_id_of(await rig.call("Process", KILL))
        rc = cli_main(["approve", approval_id, "--session", "--yes", "--state-dir", state])
        now[0] = time.time()
        within = await rig.call("Process", KILL)
        now[0] = time.time() + ttl_ms / 1000.0 + 1.0
        after = await rig.call("Process", KILL)
        return {"rc": rc, "within": within, "after": after, "kills": kills(rig.side_effects())}


async def revoke_flow(tmp: Path) -> dict[str, Any]:
    """`approve --session`, one covered call, `deny` of the same id, the identical call again."""
    async with gateway_rig(tmp) as rig:
        state = str(rig.app.config.state_dir)
        approval_id = approval_id_of(await rig.call("Process", KILL))
        assert cli_main(["approve", approval_id, "--session", "--yes", "--state-dir", state]) == 0
        covered = await rig.call("Process", KILL)
        rc = cli_main(["deny", approval_id, "--yes", "--state-dir", state])
        after = await rig.call("Process", KILL)
        cited = await rig.call("Process", {**KILL, "approval_id": approval_id})
        return {"covered": covered, "rc": rc, "after": after, "cited": cited, "kills": kills(rig.side_effects())}


# -- S-APR-11 / S-APR-12: stale files ---------------------------------------------------------------

LEGACY_SESSION = "stdio"  # every stdio session's key before S-APR-09


def stale_approvals(state: Path, count: int, *, now_ms: float, digest_of_kill: bool = True) -> None:
    """Write `count` approvals nobody can use any more: expired, used, denied, and legacy "stdio" grants."""
    store = ApprovalStore(state)
    digest = approval_digest("Process", KILL) if digest_of_kill else "0" * 64
    for n in range(count):
        kind = n % 4
        base = Approval(
            id=f"apr-{n:010x}",
            digest=digest,
            tool="Process",
            session=f"stdio:{n:016x}",
            created_ms=now_ms - 3_600_000,
            expires_ms=now_ms - 3_000_000,
        )
        if kind == 1:
            base = _with(base, status="used", decided_ms=now_ms - 3_500_000, uses=1)
        elif kind == 2:
            base = _with(base, status="denied", decided_ms=now_ms - 3_500_000)
        elif kind == 3:  # the bug of issue 12 item 3: a never-ending grant of the shared "stdio" session
            base = _with(base, status="approved", scope="session", session=LEGACY_SESSION, expires_ms=None)
        store.save(base, call={"tool": "Process", "args": KILL, "rule": "force-kill", "reason": "old"})


def _with(a: Approval, **changes: Any) -> Approval:
    from dataclasses import replace

    return replace(a, **changes)


def approval_files(state: Path) -> int:
    return sum(1 for p in (state / APPROVALS_DIR).glob("apr-*.json"))


@contextlib.contextmanager
def counting_approval_io(state: Path) -> Iterator[dict[str, int]]:
    """Count every file opened and every directory listed inside the approvals dir (the per-call cost)."""
    root = os.path.normcase(str((state / APPROVALS_DIR).resolve())) + os.sep
    counts = {"opened": 0, "listed": 0}
    real_open, real_scandir, real_listdir = io.open, os.scandir, os.listdir

    def inside(path: Any) -> bool:
        try:
            full = os.path.normcase(os.path.abspath(str(os.fspath(path)))) + os.sep
        except TypeError:
            return False
        return full.startswith(root)

    def counted(kind: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(path: Any = ".", *args: Any, **kwargs: Any) -> Any:
            counts[kind] += inside(path)
            return real(path, *args, **kwargs)

        return wrapper

    with (
        mock.patch.object(io, "open", counted("opened", real_open)),
        mock.patch.object(os, "scandir", counted("listed", real_scandir)),
        mock.patch.object(os, "listdir", counted("listed", real_listdir)),
    ):
        yield counts


async def per_call_cost_flow(tmp: Path, stale: int) -> dict[str, Any]:
    """A Snapshot and an identical kill call with `stale` old approval files in the state dir."""
    async with gateway_rig(tmp) as rig:
        state = rig.app.config.state_dir
        stale_approvals(state, stale, now_ms=time.time() * 1000.0)
        files_before = approval_files(state)
        with counting_approval_io(state) as snapshot_io:
            snapshot = await rig.call("Snapshot", {})
        with counting_approval_io(state) as kill_io:
            kill = await rig.call("Process", KILL)
        return {
            "snapshot": snapshot,
            "snapshot_io": dict(snapshot_io),
            "kill": kill,
            "kill_io": dict(kill_io),
            "files_before": files_before,
            "files_after": approval_files(state),
            "kills": kills(rig.side_effects()),
        }


# -- S-APR-13: one single-use approval, several spenders --------------------------------------------


async def concurrent_spend_flow(tmp: Path, spenders: int = 6) -> dict[str, Any]:
    """Approve once; `spenders` identical calls citing it at once through one gateway."""
    async with gateway_rig(tmp) as rig:
        state = str(rig.app.config.state_dir)
        approval_id = approval_id_of(await rig.call("Process", KILL))
        assert cli_main(["approve", approval_id, "--yes", "--state-dir", state]) == 0
        results: list[dict[str, Any]] = []

        async def spend() -> None:
            results.append(await rig.call("Process", {**KILL, "approval_id": approval_id}))

        async with anyio.create_task_group() as tg:
            for _ in range(spenders):
                tg.start_soon(spend)
        return {"results": results, "kills": kills(rig.side_effects())}


async def spent_elsewhere_flow(tmp: Path) -> dict[str, Any]:
    """Another process spends the once-approval between this gateway's decision and its write."""
    from policy import decide as real_decide

    async with gateway_rig(tmp) as rig:
        state = rig.app.config.state_dir
        approval_id = approval_id_of(await rig.call("Process", KILL))
        assert cli_main(["approve", approval_id, "--yes", "--state-dir", str(state)]) == 0

        def decide_then_lose(call: Any, ctx: Any, now: float) -> Any:
            decision = real_decide(call, ctx, now)
            if decision.approval is not None:  # the other process wins the race right here
                other = ApprovalStore(state)
                before = other.load(decision.approval.id)
                assert before is not None
                assert other.compare_and_set(before, decision.approval)[0]
            return decision

        with mock.patch("gateway.pipeline.policy_world.decide", decide_then_lose):
            result = await rig.call("Process", {**KILL, "approval_id": approval_id})
        stored = ApprovalStore(state).load(approval_id)
        return {"result": result, "kills": kills(rig.side_effects()), "stored": stored}
