"""The brake end to end: a real `mcp` client, the gateway, the simulator (S-RATE-01..09).

In process with an injected clock (tests/e2e/test_rate_limits_flows.py), and once as the real
`winmcp-gateway serve --config F` stdio child a client starts, with real time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client

from gateway.sim.events import read_events
from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_stdio_params, wire
from tests.e2e.test_rate_limits_flows import (
    POINT,
    burst_flow,
    code_of,
    identical_flow,
    kill_flow,
    malformed_flow,
    refusals_flow,
    write_config,
)

pytestmark = [pytest.mark.e2e, pytest.mark.anyio]


@requirement("S-RATE-01", "S-RATE-02", "S-RATE-08")
async def test_a_burst_is_rate_limited_never_reaches_the_desktop_and_recovers_after_time(tmp_path: Path) -> None:
    """S-RATE-01/02: input = 3/min; the 4th and 5th clicks are RATE_LIMITED (audited, no click event);
    one token is back 20 s later, not a millisecond sooner; winmcp_state shows the empty bucket."""
    out = await burst_flow(tmp_path)
    assert out["codes"] == ["ok", "ok", "ok", "RATE_LIMITED"]
    assert "3/min" in out["refusal"] and "wait at least 20000 ms" in out["refusal"]
    assert out["clicks_before"] == 3  # the simulator's event log: the refused clicks never arrived
    assert out["state"]["input"] == {"tokens": 0.0, "rate": "3/min"}
    assert out["early"] == "RATE_LIMITED" and out["late"] == "ok" and out["clicks_after"] == 4
    assert out["denials"] == ["RATE_LIMITED"] * 3


@requirement("S-RATE-03", "S-RATE-05", "S-RATE-08")
async def test_identical_clicks_are_a_loop_until_the_model_observes(tmp_path: Path) -> None:
    """S-RATE-03/05: the 4th identical click is LOOP_DETECTED, then a different click and a Type are too;
    a fresh Snapshot lifts it. The simulator saw three clicks before the Snapshot."""
    out = await identical_flow(tmp_path)
    assert out["codes"] == ["ok", "ok", "ok", "LOOP_DETECTED"]
    assert out["other"] == "LOOP_DETECTED" and out["typed"] == "LOOP_DETECTED"
    assert out["clicks_latched"] == 3
    assert out["state"]["identical_run"] == 3 and out["state"]["loop"]
    assert out["after"] == "ok" and out["clicks_after"] == 4
    assert out["denials"] == ["LOOP_DETECTED"] * 3


@requirement("S-RATE-04", "S-RATE-05")
async def test_refusals_in_a_row_are_a_loop_until_the_model_observes(tmp_path: Path) -> None:
    """S-RATE-04: four NO_OBSERVATION refusals, then LOOP_DETECTED; a Snapshot and a click go through."""
    out = await refusals_flow(tmp_path)
    assert out["codes"] == ["NO_OBSERVATION"] * 4 + ["LOOP_DETECTED"]
    assert out["after"] == "ok" and out["clicks"] == 1
    assert out["denials"] == ["NO_OBSERVATION"] * 4 + ["LOOP_DETECTED"]


@requirement("S-RATE-04")
async def test_malformed_calls_refused_before_the_chain_are_no_loop(tmp_path: Path) -> None:
    """S-RATE-04: BAD_ARGUMENTS never reaches the decision chain, so it does not count as a refusal."""
    out = await malformed_flow(tmp_path)
    assert out["bad"] == ["BAD_ARGUMENTS"] * 3
    assert out["good"] == "ok" and out["clicks"] == 1


@requirement("S-RATE-06")
async def test_a_persons_kill_outranks_the_brake(tmp_path: Path) -> None:
    """S-RATE-06: with the bucket empty, `winmcp-gateway kill engage` makes the answer KILLED; those
    refusals do not count (refusals_in_a_row = 2): after release it is RATE_LIMITED, a minute later ok."""
    out = await kill_flow(tmp_path)
    assert out["first"] == "ok" and out["limited"] == "RATE_LIMITED"
    assert out["killed"] == ["KILLED"] * 3
    assert out["after_release"] == "RATE_LIMITED"
    assert out["later"] == "ok" and out["clicks"] == 2


@requirement("S-RATE-01", "S-RATE-03", "S-RATE-07")
@pytest.mark.real_simulator
async def test_the_served_gateway_reads_the_limits_from_its_config_file(tmp_path: Path) -> None:
    """S-RATE-07: `winmcp-gateway serve --config F` as a stdio child of the SDK client: the file's tight
    limits brake it (RATE_LIMITED for a system call, LOOP_DETECTED for a repeated click), the audit
    file has both codes, and the simulator's event log has only what went through."""
    config = write_config(tmp_path, '{ system = "2/h", identical_calls = 2 }')
    params, event_log, _ = gateway_stdio_params(tmp_path, "--config", str(config))
    async with Client(params) as client:
        state = wire(await client.call_tool("winmcp_state", {}))["structuredContent"]["brake"]
        snap = wire(await client.call_tool("Snapshot", {"use_vision": False}))
        obs = next(t["text"].split()[1][4:] for t in snap["content"] if t.get("text", "").startswith("[gateway] obs="))
        system = [
            code_of(wire(await client.call_tool("Clipboard", {"mode": "set", "text": f"note {i}"}))) for i in range(3)
        ]
        repeated = [code_of(wire(await client.call_tool("Click", {"loc": POINT, "based_on": obs}))) for _ in range(3)]
        refusal = first_text(wire(await client.call_tool("Click", {"loc": POINT, "based_on": obs})))
    assert state["system"] == {"tokens": 2.0, "rate": "2/h"} and state["input"]["rate"] == "10/s"
    assert system == ["ok", "ok", "RATE_LIMITED"]
    assert repeated == ["ok", "ok", "LOOP_DETECTED"] and refusal.startswith("DENIED LOOP_DETECTED:")
    events = [e for e in read_events(event_log) if e.get("kind") != "capture"]
    assert [e["tool"] for e in events] == ["Clipboard", "Clipboard", "Click", "Click"]
    audit = tmp_path / "state" / "audit.jsonl"
    codes = [json.loads(line).get("code") for line in audit.read_text(encoding="utf-8").splitlines()]
    assert codes.count("RATE_LIMITED") == 1 and codes.count("LOOP_DETECTED") == 2
