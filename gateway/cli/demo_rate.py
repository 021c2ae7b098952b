"""The demo's brake step (S-RATE-01..06): a runaway agent braked, then recovering by looking.

A second client connects to a second `winmcp-gateway serve` whose config file sets tight limits,
so the brake shows in a few calls (the defaults never bother a normal agent, which is the point of
them). It shares the demo's state dir, so the person's `winmcp-gateway kill` reaches it too; its
simulated desktop has its own event log, read here to prove what reached it.
"""

from __future__ import annotations

import sys
from typing import Any

from mcp import Client, StdioServerParameters

from gateway.cli.demo_steps import DemoSteps
from gateway.sim.events import read_events

LIMITS = '{ system = "2/min", identical_calls = 3 }'
POINT = [800, 520]  # Notepad's text area in the simulator's default scenario


def _code(demo: DemoSteps, result: dict[str, Any]) -> str:
    text = demo.text(result)
    return text.split(":", 1)[0].removeprefix("DENIED ") if result.get("isError") else "ok"


async def show_rate(demo: DemoSteps) -> None:
    """Rate limits, the loop detector, recovery by observing, and the person's stop outranking both."""
    demo.title("A brake for runaway agents: rate limits per class and a loop detector, per session")
    config = demo.root / "rate-config.toml"
    config.write_text(f"rate_limits = {LIMITS}\n", encoding="utf-8")
    events_path = demo.root / "rate-desktop-events.jsonl"
    demo.say(f"A second gateway whose config says: rate_limits = {LIMITS}")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway", "serve", "--upstream", "sim", "--config", str(config)],
        env={**demo.env, "WINMCP_SIM_EVENT_LOG": str(events_path)},
    )

    def reached(kind: str) -> int:
        events = read_events(events_path) if events_path.exists() else []
        return sum(1 for e in events if e.get("kind") == kind or e.get("tool") == kind)

    main_client = demo.client
    try:
        async with Client(params, mode="legacy") as client:
            demo.client = client
            demo.say("The agent sets the clipboard three times in a row:")
            codes = [_code(demo, await demo.call("Clipboard", {"mode": "set", "text": f"v{i}"})) for i in range(3)]
            demo.check(codes == ["ok", "ok", "RATE_LIMITED"], "the third system call is RATE_LIMITED (2/min)")
            demo.check(reached("Clipboard") == 2, "only two reached the (simulated) system")
            snap = await demo.call("Snapshot", {"use_vision": False})
            obs = demo.obs_id(snap)
            demo.say("It clicks the same point again and again without looking:")
            codes = [_code(demo, await demo.call("Click", {"loc": POINT, "based_on": obs})) for _ in range(4)]
            demo.check(codes == ["ok", "ok", "ok", "LOOP_DETECTED"], "the fourth identical click is LOOP_DETECTED")
            other = _code(demo, await demo.call("Click", {"loc": [820, 540], "based_on": obs}))
            demo.check(other == "LOOP_DETECTED" and reached("click") == 3, "until it observes, nothing else acts")
            state = (await demo.call("winmcp_state", {}))["structuredContent"]["brake"]
            demo.check(state["system"]["tokens"] < 1 and bool(state["loop"]), "winmcp_state shows the brake")
            obs = demo.obs_id(await demo.call("Snapshot", {"use_vision": False}))
            after = _code(demo, await demo.call("Click", {"loc": [820, 540], "based_on": obs}))
            demo.check(after == "ok" and reached("click") == 4, "a fresh Snapshot lifts the loop detector")
            demo.person("kill", "engage", "--reason", "demo: stop outranks the brake")
            killed = _code(demo, await demo.call("Clipboard", {"mode": "set", "text": "v3"}))
            demo.check(killed == "KILLED", "with the bucket empty, a person's stop still answers first: KILLED")
            demo.person("kill", "release")
            demo.check(reached("Clipboard") == 2, "nothing more reached the system")
    finally:
        demo.client = main_client
