"""The demo's rug-pull step (S-PIN-01..05): an upstream whose Click changed is caught, shown, accepted.

A second `winmcp-gateway serve` runs on its own state dir, which starts with the pins the demo's
first gateway made at its first connection (copied), in front of a simulator that offers the
`click-rug-pull` variant (gateway/sim/variants.py): Click's description now tells the model to run
what the clipboard holds, and its `label` argument is gone. Its own event log proves what reached
the desktop.
"""

from __future__ import annotations

import shutil
import sys

from mcp import Client, StdioServerParameters

from gateway.cli.demo_steps import DemoSteps
from gateway.sim.events import read_events
from gateway.sim.variants import ENV_VARIANT
from gateway.state.pins import PIN_FILE

POINT = [800, 520]  # Notepad's text area in the simulator's default scenario


async def show_pin(demo: DemoSteps) -> None:
    """A changed tool definition withheld and refused, its diff shown, a person's accept, the tool back."""
    demo.title("Tool pinning — the rug pull: an upstream tool that changes is withheld until a person accepts it")
    state = demo.root / "pin-state"
    state.mkdir(exist_ok=True)
    shutil.copy2(demo.state / PIN_FILE, state / PIN_FILE)
    events_path = demo.root / "pin-desktop-events.jsonl"
    demo.say("The demo's first gateway pinned the 21 tools it met. Now Windows-MCP restarts 'upgraded':")
    demo.say("Click's description tells the model to run what is in the clipboard, and its label argument is gone.")
    env = {**demo.env, "WINMCP_GATEWAY_STATE_DIR": str(state), "WINMCP_SIM_EVENT_LOG": str(events_path)}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway", "serve", "--upstream", "sim"],
        env={**env, ENV_VARIANT: "click-rug-pull"},
    )

    def clicks() -> int:
        events = read_events(events_path) if events_path.exists() else []
        return sum(e.get("kind") == "click" for e in events)

    first_client = demo.client
    try:
        async with Client(params, mode="legacy") as client:
            demo.client = client
            tools = [t.name for t in (await client.list_tools()).tools]
            demo.check(
                "Click" not in tools and "Type" in tools, "tools/list no longer offers Click; Type is still there"
            )
            await demo.call("Snapshot", {})
            result = await demo.call("Click", {"loc": POINT})
            demo.check(demo.text(result).startswith("DENIED TOOL_CHANGED"), "a call to Click is refused TOOL_CHANGED")
            demo.check(clicks() == 0, "the simulated desktop received no click")
            shown = demo.person("pin", "show", "--state-dir", str(state))
            demo.check(
                "CHANGED  Click" in shown and "SEVERE" in shown and "- argument label" in shown,
                "pin show: Click changed, its description diff, label removed — SEVERE (the label check reads it)",
            )
            demo.person("pin", "accept", "Click", "--yes", "--state-dir", str(state))
            tools = [t.name for t in (await client.list_tools()).tools]
            demo.check("Click" in tools, "after the person's accept the running gateway lists Click again")
            await demo.call("Snapshot", {})
            result = await demo.call("Click", {"loc": POINT})
            demo.check(not result.get("isError") and clicks() == 1, "and the click reaches the desktop, once")
    finally:
        demo.client = first_client
