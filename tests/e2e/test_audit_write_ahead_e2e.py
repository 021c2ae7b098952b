"""Write-ahead audit (S-AUD-15): an action is on disk before it reaches the upstream.

The faulty upstream's `hang` never answers, so the intent line can be looked for while the call
is still in flight — the proof that it was written before forwarding, which is what survives a
crash, a kill or a frozen upstream. The outcome (here: the timeout) follows and points back at it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests._requirements import requirement
from tests.e2e._fault_rig import call, fault_gateway
from tests.e2e.harness import gateway_rig

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]


def _lines(state: Path) -> list[dict[str, Any]]:
    path = state / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@requirement("S-AUD-15")
async def test_the_intent_is_on_disk_while_the_call_is_still_at_the_upstream(tmp_path: Path) -> None:
    """S-AUD-15: while `hang` is in flight the file holds its allow/intent line and no outcome; the
    timeout's failure line then names the intent's seq."""
    async with fault_gateway(tmp_path) as (app, client):
        state = app.config.state_dir
        outcome: dict[str, Any] = {}

        async def hang() -> None:
            outcome.update(await call(client, "hang", {}))

        async with anyio.create_task_group() as tg:
            tg.start_soon(hang)
            with anyio.fail_after(5):
                while not [r for r in _lines(state) if r.get("tool") == "hang"]:
                    await anyio.sleep(0.02)
            in_flight = [r for r in _lines(state) if r.get("tool") == "hang"]
            assert not outcome, "the call answered before the intent was checked"
            assert [(r["event"], r.get("phase")) for r in in_flight] == [("allow", "intent")]
        assert outcome["isError"] is True
        await app.audit_flush()
        hang_lines = [r for r in _lines(state) if r.get("tool") == "hang"]
        assert [r["event"] for r in hang_lines] == ["allow", "failure"]
        assert hang_lines[1]["intent"] == hang_lines[0]["seq"]
        assert hang_lines[1]["code"] == "UPSTREAM_TIMEOUT"


@requirement("S-AUD-15")
async def test_an_allowed_click_leaves_intent_then_outcome_and_an_observation_one_line(tmp_path: Path) -> None:
    """S-AUD-15: input and system calls write intent + outcome; a read-only call one queued line."""
    async with gateway_rig(tmp_path) as rig:
        snap = await rig.call("Snapshot", {})
        assert snap["isError"] is False
        click = await rig.call("Click", {"loc": [800, 520]})
        assert click["isError"] is False
        lines = rig.audit_lines()
        shape = [(r["event"], r.get("tool"), r.get("phase")) for r in lines if r["event"] != "config"]
        assert shape == [("observation", "Snapshot", None), ("allow", "Click", "intent"), ("outcome", "Click", None)]
        intent, done = lines[-2], lines[-1]
        assert done["intent"] == intent["seq"] and "upstream_ms" in done and "result" in done
        assert intent["args"] == done["args"] == {"loc": [800, 520]}
