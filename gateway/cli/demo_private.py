"""The demo's private-window step (S-PRIV-03..08): a password manager the agent can neither see nor touch.

A second `winmcp-gateway serve` in front of the simulator's `private` scenario: KeePassXC is focused,
its content painted with a checkerboard of two exact colours. The step counts those colours in the
PNG the client received, looks for the window's names in the text and the audit, and reads the
simulated desktop's own event log to show the refused click never arrived.
"""

from __future__ import annotations

import base64
import io
import sys
from collections.abc import Mapping
from typing import Any

from mcp import Client, StdioServerParameters
from PIL import Image

from gateway.cli.demo_steps import DemoSteps
from gateway.sim.events import read_events
from gateway.sim.scenarios.private import PRIVATE_COLORS, PRIVATE_NAMES, PRIVATE_SECRET, PRIVATE_TITLE

INSIDE = [1300, 400]  # inside the password manager
NOTEPAD = [500, 450]  # Notepad, beside it


def _pattern_pixels(result: Mapping[str, Any]) -> int | None:
    images = [c for c in result.get("content", []) if c.get("type") == "image"]
    if len(images) != 1:
        return None
    image = Image.open(io.BytesIO(base64.b64decode(images[0]["data"]))).convert("RGB")
    counts = dict((colour, n) for n, colour in image.getcolors(maxcolors=1 << 24) or [])
    return sum(counts.get(c, 0) for c in PRIVATE_COLORS)


async def show_private(demo: DemoSteps) -> None:
    """Masked pixels, filtered names, a refused click that never reaches the desktop, a clean audit."""
    demo.title("Private windows stay private: a password manager is masked in every image and never touched")
    events_path = demo.root / "private-desktop-events.jsonl"
    control = demo.root / "private-desktop-control.jsonl"  # its own: the main desktop's changes stay there
    control.touch()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway", "serve", "--upstream", "sim", "--scenario", "private"],
        env={**demo.env, "WINMCP_SIM_EVENT_LOG": str(events_path), "WINMCP_SIM_CONTROL": str(control)},
    )

    def clicks() -> int:
        return sum(1 for e in (read_events(events_path) if events_path.exists() else []) if e.get("kind") == "click")

    secrets = (*PRIVATE_NAMES, PRIVATE_TITLE, PRIVATE_SECRET)
    main_client = demo.client
    try:
        async with Client(params, mode="legacy") as client:
            demo.client = client
            demo.say(f'The desktop: "{PRIVATE_TITLE}" focused, its content a checkerboard of {PRIVATE_COLORS}.')
            shot = await demo.call("Screenshot", {})
            demo.check(_pattern_pixels(shot) == 0, "a Screenshot (which lists no windows) is masked too")
            snap = await demo.call("Snapshot", {"use_vision": True})
            texts = "\n".join(c["text"] for c in snap.get("content", []) if c.get("type") == "text")
            demo.check(_pattern_pixels(snap) == 0, "the PNG the client got has 0 pixels of either pattern colour")
            demo.check(
                not [s for s in secrets if s in texts] and "masked=1" in texts,
                "the text has none of its title, element names or password; the annotation says masked=1",
            )
            refused = demo.text(await demo.call("Click", {"loc": INSIDE}))
            demo.check(refused.startswith("DENIED PRIVATE_WINDOW"), "a click into it is refused PRIVATE_WINDOW")
            typed = demo.text(await demo.call("Type", {"text": "exfiltrate", "loc": NOTEPAD}))
            demo.check(typed.startswith("DENIED PRIVATE_WINDOW"), "typing while it is focused is refused too")
            demo.check(clicks() == 0, "the simulated desktop's event log shows no click")
            allowed = demo.text(await demo.call("Click", {"loc": NOTEPAD}))
            demo.check(allowed.startswith("Single left clicked") and clicks() == 1, "a click on Notepad goes through")
    finally:
        demo.client = main_client
    audit = (demo.state / "audit.jsonl").read_text(encoding="utf-8")
    demo.check(not [s for s in secrets if s in audit], "the audit holds neither its title nor its element names")
