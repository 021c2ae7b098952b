"""`winmcp-gateway demo`: the whole product on the simulated Windows-MCP, incident by incident.

A real MCP client (the `mcp` SDK's) talks over stdio to a real `winmcp-gateway serve --upstream
sim` process; the person's side (kill switch, approvals, audit report) runs as real CLI
commands. Every step checks what happened — on the simulated desktop's event log too — and
the demo exits 1 naming the first step that did not behave as shown (S-CLI-03).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from gateway.cli.demo_audit import show_audit_html
from gateway.cli.demo_pin import show_pin
from gateway.cli.demo_private import show_private
from gateway.cli.demo_protocol import show_protocol
from gateway.cli.demo_rate import show_rate
from gateway.sim.control import send_control
from gateway.sim.events import read_events
from gateway.state.command_line import quote_args

WIDTH = 100


class DemoFailure(Exception):
    """A step did not behave as the transcript says it should."""


class Demo:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.state = root / "state"
        self.events_path = root / "desktop-events.jsonl"
        self.control = root / "desktop-control.jsonl"
        self.control.touch()
        self.env = {
            **os.environ,
            "WINMCP_GATEWAY_STATE_DIR": str(self.state),
            "WINMCP_SIM_EVENT_LOG": str(self.events_path),
            "WINMCP_SIM_CONTROL": str(self.control),
        }
        self.client: Client | None = None
        self.seen_events = 0
        self.checks = 0

    # -- printing -------------------------------------------------------------------------
    @staticmethod
    def title(text: str) -> None:
        print(f"\n{'━' * WIDTH}\n{text}\n{'━' * WIDTH}")

    @staticmethod
    def say(text: str) -> None:
        print(f"  {text}")

    def check(self, ok: bool, what: str) -> None:
        self.checks += 1
        if not ok:
            raise DemoFailure(what)
        print(f"  ✓ {what}")

    # -- actions --------------------------------------------------------------------------
    async def call(self, name: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        assert self.client is not None
        shown = json.dumps(dict(args or {}), ensure_ascii=False)
        print(f"  → {name} {shown}")
        result = (await self.client.call_tool(name, dict(args or {}))).model_dump(
            by_alias=True, exclude_none=True, mode="json"
        )
        for item in result.get("content", []):
            if item.get("type") == "text":
                text = item["text"]
                if text.startswith('["'):
                    with contextlib.suppress(ValueError):
                        text = "\n".join(json.loads(text))
                text = text.strip()
                lines = text.splitlines()
                shown_text = "\n      ".join(lines[:3]) + (
                    f"\n      … ({len(lines) - 3} more lines)" if len(lines) > 3 else ""
                )
                print(f"  ← {shown_text}")
            elif item.get("type") == "image":
                print(f"  ← [image {item.get('mimeType')}, {len(item.get('data', '')) * 3 // 4} bytes]")
        return result

    def person(self, *argv: str) -> str:
        """Run a CLI command as the person at the desk would, in another process."""
        # Quoted as the platform's shell reads it, so the line works when pasted (S-CLI-42).
        print(f"  $ {quote_args(['winmcp-gateway', *argv])}")
        done = subprocess.run(
            [sys.executable, "-m", "gateway", *argv],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        for line in (done.stdout + done.stderr).strip().splitlines()[:12]:
            print(f"    {line}")
        if done.returncode not in (0, 1):
            raise DemoFailure(f"`winmcp-gateway {' '.join(argv)}` exited {done.returncode}")
        return done.stdout

    def new_desktop_events(self) -> list[dict[str, Any]]:
        events = read_events(self.events_path) if self.events_path.exists() else []
        fresh, self.seen_events = events[self.seen_events :], len(events)
        return [e for e in fresh if e.get("kind") != "capture"]

    @staticmethod
    def text(result: Mapping[str, Any]) -> str:
        return next((i["text"] for i in result.get("content", []) if i.get("type") == "text"), "")

    @staticmethod
    def obs_id(result: Mapping[str, Any]) -> str:
        for item in result.get("content", []):
            if str(item.get("text", "")).startswith("[gateway] obs="):
                return str(item["text"]).split("obs=")[1].split()[0]
        raise DemoFailure("the Snapshot result has no [gateway] annotation line")

    # -- the story ------------------------------------------------------------------------
    async def run(self) -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "gateway", "serve", "--upstream", "sim", "--scenario", "hidpi"],
            env=self.env,
        )
        self.title("winmcp-gateway demo — client ⇄ winmcp-gateway ⇄ simulated Windows-MCP 0.8.8")
        self.say("A 2560x1440 desktop whose screenshots Windows-MCP downscales to 1920x1080. The client is the")
        self.say("official MCP SDK client; the person's commands run as real `winmcp-gateway` processes.")
        async with Client(params, mode="legacy") as client:
            self.client = client
            tools = [t.name for t in (await client.list_tools()).tools]
            own = [t for t in tools if t.startswith("winmcp_")]
            self.say(
                f"tools/list: {len(tools) - len(own)} Windows-MCP tools + {len(own)} gateway tools ({', '.join(own)})"
            )
            self.check(
                len(tools) - len(own) == 21 and len(own) == 6,
                "the client sees the 21 upstream tools and 6 winmcp_* tools",
            )
            # The four incidents of DESIGN.md §1, each once and in their order (S-CLI-45).
            await self.coordinates()
            await self.stale_view()
            await self.command_rules()
            await self.approval()
            await self.record()
            await self.kill_switch()
        self.afterwards()
        await show_audit_html(self)  # the HTML report of this audit (gateway/cli/demo_audit.py)
        await show_rate(self)  # the brake for runaway agents (gateway/cli/demo_rate.py)
        await show_private(self)  # private windows stay private (gateway/cli/demo_private.py)
        await show_pin(self)  # the rug pull: changed tool definitions (gateway/cli/demo_pin.py)
        await show_protocol(self)  # 2026-07-28 rounds, a broken HTTP stream resumed (gateway/cli/demo_protocol.py)

    async def coordinates(self) -> None:
        self.title("Incident 1 — coordinate mistakes: no click without a view; image pixels multiplied exactly once")
        self.say("The model clicks where it guesses the Close button is, without having looked:")
        result = await self.call("Click", {"loc": [2520, 35]})
        self.check(self.text(result).startswith("DENIED NO_OBSERVATION"), "refused with NO_OBSERVATION and a remedy")
        self.check(self.new_desktop_events() == [], "the simulated desktop received nothing")
        self.say("")
        snap = await self.call("Snapshot", {"use_vision": True})
        obs = self.obs_id(snap)
        self.say("The model sees the Close button at image pixel (1890, 26.25) of the 1920x1080 picture.")
        conv = await self.call("winmcp_to_screen", {"x": 1890, "y": 26.25, "based_on": obs})
        loc = conv["structuredContent"]["loc"]
        self.check(loc == [2520, 35], "image (1890, 26.25) → screen (2520, 35), not 1890 or 2520×1.33")
        await self.call("Click", {"loc": loc, "based_on": obs})
        events = self.new_desktop_events()
        self.check(
            [e.get("screen_point") for e in events] == [[2520, 35]],
            "the desktop received exactly one click, at (2520, 35)",
        )

        self.say("")
        self.say("Two monitors, the second LEFT of the primary (negative origin), full-desktop screenshot:")
        send_control(self.control, "scenario", name="dual-negative")
        snap = await self.call("Snapshot", {"use_vision": True})
        prose = next((ln for ln in self.text(snap).splitlines() if "Coordinate Scale" in ln), "")
        hint = prose.split("→ screen coordinate ")[-1].rstrip(")") + ")" if "→" in prose else "?"
        self.say(f"upstream's own hint: image pixel (200, 150) → screen coordinate {hint}")
        conv = await self.call("winmcp_to_screen", {"x": 200, "y": 150, "based_on": self.obs_id(snap)})
        self.check(
            conv["structuredContent"]["loc"] == [-1453, 350] and "(467, 350)" in prose,
            "the gateway says (-1453, 350): the virtual screen starts at x = -1920, the hint forgot it",
        )

    async def stale_view(self) -> None:
        self.title("Incident 2 — acting on a stale view: superseded observations, focus that moved")
        send_control(self.control, "scenario", name="default")
        first = self.obs_id(await self.call("Snapshot", {}))
        second = self.obs_id(await self.call("Snapshot", {}))
        result = await self.call("Click", {"loc": [640, 480], "based_on": first})
        self.check(
            self.text(result).startswith("DENIED STALE_OBSERVATION"),
            f"{first} was superseded by {second}: STALE",
        )
        self.say("[meanwhile the user clicks Chrome, which takes the focus]")
        send_control(self.control, "focus", window="Example Domain - Google Chrome")
        result = await self.call("Click", {"loc": [640, 480], "based_on": second})
        self.check(
            self.text(result).startswith("DENIED PROCESS_CHANGED"),
            "the focused window changed: PROCESS_CHANGED",
        )
        self.check(self.new_desktop_events() == [], "neither click reached the desktop")
        fresh = self.obs_id(await self.call("Snapshot", {}))
        result = await self.call("Click", {"loc": [650, 330], "based_on": fresh})
        self.check(not result.get("isError"), f"after a fresh Snapshot ({fresh}) the click goes through")
        self.new_desktop_events()

    async def command_rules(self) -> None:
        self.title("Command rules — what a command does to what matters, whatever tool or spelling does it")
        result = await self.call("PowerShell", {"command": "rm -r -fo C:\\Users\\demo\\Projects\\build"})
        self.check(
            self.text(result).startswith("DENIED COMMAND_RULE") and "recursive-delete" in self.text(result),
            "an aliased recursive delete is refused with its rule id",
        )
        built = "$c = 'Remove-' + 'Item'; & $c -Recurse -Force $env:USERPROFILE\\Documents"
        result = await self.call("PowerShell", {"command": built})
        self.check(
            self.text(result).startswith("DENIED COMMAND_RULE") and "protected-place-delete" in self.text(result),
            "a delete built from strings and variables is resolved, and judged by the place it destroys",
        )
        printed = "$cmd = 'Remove-Item -Recurse C:\\'; Write-Output \"would run: $cmd\""
        result = await self.call("PowerShell", {"command": printed})
        self.check(not result.get("isError"), "a script that only prints a dangerous string passes")
        result = await self.call("PowerShell", {"command": "Get-Date"})
        self.check(not result.get("isError"), "an ordinary command passes")
        kinds = [e.get("kind") for e in self.new_desktop_events()]
        self.check(kinds.count("powershell") == 2, "only the printing script and Get-Date reached the system")

    async def approval(self) -> None:
        self.title("Approval — a person decides, out of band; the model cannot approve itself")
        args = {"mode": "kill", "name": "notepad.exe", "force": True}
        result = await self.call("Process", args)
        text = self.text(result)
        self.check(text.startswith("DENIED APPROVAL_REQUIRED") and "apr-" in text, "a force-kill asks for approval")
        approval_id = "apr-" + text.split("apr-")[1][:10]
        self.person("approve", approval_id, "--yes")
        result = await self.call("Process", {**args, "approval_id": approval_id})
        self.check(not result.get("isError"), "the identical call with the approval id runs once")
        result = await self.call("Process", {**args, "approval_id": approval_id})
        self.check(self.text(result).startswith("DENIED APPROVAL_DENIED"), "a replay of the used approval is refused")
        kills = [e for e in self.new_desktop_events() if e.get("kind") == "process_kill"]
        self.check(len(kills) == 1, "exactly one kill reached the (simulated) system")

    async def kill_switch(self) -> None:
        self.title("Incident 4 — no way to stop: the kill switch")
        self.person("kill", "engage", "--reason", "demo: the person pressed stop")
        snap = await self.call("Snapshot", {})
        obs = self.obs_id(snap)
        self.check(
            not snap.get("isError") and "Focused Window" in self.text(snap),
            "observation keeps working while stopped (the agent can still report)",
        )
        result = await self.call("Click", {"loc": [640, 480], "based_on": obs})
        self.check(self.text(result).startswith("DENIED KILLED"), "a click is refused: KILLED")
        result = await self.call("winmcp_kill", {"action": "release"})
        self.check(bool(result.get("isError")), "the model cannot release a person's stop")
        self.check(self.new_desktop_events() == [], "nothing reached the desktop while stopped")
        self.person("kill", "release")

    async def record(self) -> None:
        self.title("Incident 3 — no record: every observation, allow, refusal and answer is in the audit")
        result = await self.call("winmcp_audit", {"view": "summary", "limit": 5})
        summary = result.get("structuredContent", {}).get("summary", {})
        self.check(summary.get("refusals", 0) >= 5, "the refusals so far are recorded, each with its code and reason")
        answers = [a for a in summary.get("approvals", []) if a.get("by") == "cli"]
        self.check(len(answers) == 1, "the person's `approve` from the command line is recorded, by: cli")

    def afterwards(self) -> None:
        self.title("Afterwards — the person reads the record (redacted, hash-chained JSONL)")
        out = self.person("audit-report", "--state-dir", str(self.state), "--verify", "--recent", "5")
        self.check("chain: ok" in out.lower(), "audit-report --verify: the hash chain is intact")
        self.check("kill" in out.lower(), "the person's kill switch use is in the audit too")
        audit = (self.state / "audit.jsonl").read_text(encoding="utf-8")
        self.check("iVBORw0KGgo" not in audit, "no screenshot data in the audit")


def run_demo(*, keep: bool = False) -> int:
    """Run the demo; 0 when every step behaved as shown, 1 otherwise."""
    root = Path(tempfile.mkdtemp(prefix="winmcp-demo-"))
    demo = Demo(root)
    try:
        anyio.run(demo.run)
    except DemoFailure as exc:
        print(f"\n✗ demo step failed: {exc}", file=sys.stderr)
        return 1
    finally:
        if keep:
            print(f"\n(state, audit and desktop event log kept in {root})")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(f"\nAll {demo.checks} checks passed: each incident was prevented, and the audit says so.")
    return 0
