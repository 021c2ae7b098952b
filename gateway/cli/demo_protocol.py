"""The demo's protocol step (S-PROTO-24, S-HTTP-20): a 2026-07-28 client, rounds and a broken stream.

1. A 2026-07-28 client (no `initialize`, no server→client requests) calls PowerShell on a gateway whose
   config sets `require_approval = true`: the gateway answers with an `InputRequiredResult` round
   (key `winmcp-approval`), the client answers for the person and retries, the command runs once.
2. A raw 2025-11-25 HTTP client whose stream "breaks" after the priming event reconnects with
   `Last-Event-ID` and gets the result it missed — replayed from the gateway's buffer, not re-run:
   the simulated desktop saw the command once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

from gateway.cli.demo_steps import DemoSteps
from gateway.sim.events import read_events


def _shell_runs(path: Path) -> int:
    events = read_events(path) if path.exists() else []
    return sum(1 for e in events if e.get("tool") == "PowerShell")


async def _approval_round(demo: DemoSteps, config: Path, events_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway", "serve", "--upstream", "sim", "--config", str(config)],
        env={**demo.env, "WINMCP_SIM_EVENT_LOG": str(events_path)},
    )
    args = {"command": "Get-Date"}

    async def never_asked(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        return types.ElicitResult(action="decline")  # the rounds below are answered by hand

    # Declaring elicitation is what lets the gateway ask in-band (else: `winmcp-gateway approve ID`).
    async with Client(params, mode="auto", elicitation_callback=never_asked) as client:
        demo.say(f"  → PowerShell {json.dumps(args)}   (a 2026-07-28 client: the era without mid-call requests)")
        first = await client.session.call_tool("PowerShell", args, allow_input_required=True)
        keys = sorted((first.input_requests or {}) if isinstance(first, types.InputRequiredResult) else {})
        if isinstance(first, types.InputRequiredResult):
            demo.say(f"  ← InputRequiredResult asking {keys} with the gateway's signed requestState")
        else:  # say what came instead, so a failed check below explains itself
            shown = " ".join(c.text for c in first.content if isinstance(c, types.TextContent))[:300]
            demo.say(f"  ← {type(first).__name__} instead of a round: {shown}")
        demo.check(keys == ["winmcp-approval"], "the gateway's own approval round, told apart by its key")
        demo.check(_shell_runs(events_path) == 0, "nothing ran on the desktop while the person decides")
        assert isinstance(first, types.InputRequiredResult)
        answer: dict[str, types.InputResponse] = {
            "winmcp-approval": types.ElicitResult(action="accept", content={"decision": "approve_once"})
        }
        demo.say("  → the same call again, with the person's answer (approve once) and the requestState")
        final = await client.session.call_tool(
            "PowerShell", args, input_responses=answer, request_state=first.request_state, allow_input_required=True
        )
        done = isinstance(final, types.CallToolResult) and not final.is_error
        demo.check(done and _shell_runs(events_path) == 1, "the command ran once, after the approval")


def _sse_events(text: str) -> list[dict[str, Any]]:
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.partition(":")[::2] for line in block.splitlines())
        if "id" in fields:
            data = fields.get("data", "").strip()
            out.append({"id": fields["id"].strip(), "data": json.loads(data) if data else ""})
    return out


def _post(url: str, headers: dict[str, str], message: dict[str, Any]) -> tuple[dict[str, str], str]:
    """One JSON-RPC POST: the response headers (lower-case names) and its body."""
    request = urllib.request.Request(url, data=json.dumps(message).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - our own loopback URL
        return {k.lower(): v for k, v in response.headers.items()}, response.read().decode("utf-8")


def _resume(demo: DemoSteps, config: Path, events_path: Path) -> None:
    argv = [sys.executable, "-m", "gateway", "serve", "--upstream", "sim", "--config", str(config)]
    argv += ["--http", "127.0.0.1:0", "--no-auth"]
    env = {**demo.env, "WINMCP_SIM_EVENT_LOG": str(events_path)}
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        url = ""
        deadline = time.monotonic() + 60
        while not url and time.monotonic() < deadline and proc.stderr is not None:
            line = proc.stderr.readline()
            if "serving MCP on " in line:
                url = line.split("serving MCP on ")[1].split()[0]
        demo.check(bool(url), f"serve --http answers on {url or '(nothing)'}")
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "demo", "version": "1"}}
        opened = _post(url, headers, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        headers |= {"mcp-session-id": opened[0]["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
        _post(url, headers, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "PowerShell", "arguments": {"command": "Get-Date"}}
        _, body = _post(url, headers, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        priming = _sse_events(body)[0]["id"]
        demo.say(f"  The stream of call 2 'breaks' after its priming event (id {priming}); the client reconnects:")
        demo.say(f"  → GET /mcp  Last-Event-ID: {priming}")
        replayed: list[Any] = []
        request = urllib.request.Request(url, headers={**headers, "last-event-id": priming}, method="GET")
        with urllib.request.urlopen(request, timeout=30) as stream:  # noqa: S310 - our own loopback URL
            for raw in stream:
                line = raw.decode("utf-8").strip()
                if line.startswith("data: {"):
                    replayed.append(json.loads(line.removeprefix("data: ")))
                    break
        demo.check([m.get("id") for m in replayed] == [2], "the missed result of call 2 is replayed")
        demo.check(_shell_runs(events_path) == 1, "from the buffer: the desktop saw the command once")
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        if proc.stderr is not None:
            proc.stderr.close()


async def show_protocol(demo: DemoSteps) -> None:
    """An approval round in the 2026-07-28 era, and a broken HTTP stream resumed."""
    demo.title("Both protocol eras: an approval as an InputRequiredResult round, a broken stream resumed")
    config = demo.root / "protocol-config.toml"
    config.write_text("require_approval = true\n", encoding="utf-8")
    demo.say("A gateway whose config says: require_approval = true")
    await _approval_round(demo, config, demo.root / "protocol-desktop-events.jsonl")
    plain = demo.root / "protocol-http-config.toml"
    plain.write_text("", encoding="utf-8")
    demo.say("")
    demo.say("A gateway served over streamable HTTP (no token: loopback only, --no-auth):")
    await anyio.to_thread.run_sync(_resume, demo, plain, demo.root / "protocol-http-events.jsonl")
