"""The gateway is a transparent proxy for every allowed call (S-PRX-01, S-PRX-02, S-PRX-03).

The same call sequence goes to a simulator directly and to another simulator behind a real
`winmcp-gateway serve --upstream sim` process over stdio; the client is the `mcp` SDK's own,
in both protocol eras. Apart from the one `[gateway] obs=…` line appended to captures, every
result must be identical — text, images, structuredContent, isError, _meta.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from gateway.sim.events import read_events
from tests._requirements import UPSTREAM_DATA, requirement
from tests.e2e.harness import annotation_of, direct_sim, gateway_stdio_params, wire

UPSTREAM_TOOLS = [t["name"] for t in json.loads((UPSTREAM_DATA / "tools_list.json").read_text())["tools"]]
OWN_TOOLS = {
    "winmcp_state",
    "winmcp_to_screen",
    "winmcp_screen_to_image",
    "winmcp_kill",
    "winmcp_audit",
    "winmcp_doctor",
}

# One call per upstream tool (and a few twice), with the arguments of tool_outputs.json.
# Observation first: input actions through the gateway need one (S-FRESH-01).
SEQUENCE: list[tuple[str, dict[str, Any]]] = [
    ("Snapshot", {}),
    ("Snapshot", {"use_vision": True}),
    ("DisplayInventory", {}),
    ("ControlStatus", {}),
    ("Click", {"loc": [640, 480]}),
    ("Type", {"loc": [800, 520], "text": "hello\nworld", "clear": True}),
    ("Scroll", {"loc": [800, 520], "direction": "down", "wheel_times": 3}),
    ("Move", {"loc": [100, 200]}),
    ("Shortcut", {"shortcut": "ctrl+s"}),
    ("MultiSelect", {"locs": [[228, 152], [268, 152]], "press_ctrl": True}),
    ("MultiEdit", {"locs": [[800, 520, "abc"]]}),
    ("Type", {"loc": [800, 520], "text": "x", "clear": "maybe"}),  # upstream's own error passes through unchanged
    ("Wait", {"duration": 1}),
    ("WaitFor", {"condition": "text", "text": "Notepad", "timeout": 2}),
    ("Clipboard", {"mode": "set", "text": "copied text"}),
    ("Clipboard", {"mode": "get"}),
    ("PowerShell", {"command": "Get-Date"}),
    ("Registry", {"mode": "get", "path": "HKCU:\\Software\\Demo", "name": "Value1"}),
    ("FileSystem", {"mode": "write", "path": "demo.txt", "content": "line1\nline2\n"}),
    ("FileSystem", {"mode": "read", "path": "demo.txt"}),
    ("Process", {"mode": "list", "limit": 3, "sort_by": "name"}),
    ("Scrape", {"url": "https://example.com/", "use_sampling": False}),
    (
        "Notification",
        {"title": "Hi", "message": "Body", "app_id": "Microsoft.WindowsNotepad_8wekyb3d8bbwe!App"},
    ),
    ("Screenshot", {}),
    ("App", {"mode": "launch", "name": "notepad"}),
]


def _without_annotation(result: dict[str, Any]) -> dict[str, Any]:
    out = dict(result)
    out["content"] = [i for i in result.get("content", []) if not str(i.get("text", "")).startswith("[gateway] ")]
    return out


async def _run(client: Client) -> list[dict[str, Any]]:
    results = []
    for name, args in SEQUENCE:
        call_args = dict(args)
        results.append(wire(await client.call_tool(name, call_args)))
    return results


@pytest.mark.parametrize("mode", ["legacy", "auto"])
@requirement("S-PRX-01", "S-PRX-02", "S-PRX-03", "S-CLI-01")
def test_every_upstream_tool_passes_through_unchanged_over_stdio(tmp_path: Path, mode: str) -> None:
    """S-PRX-02: all 21 tools return through the gateway exactly what the simulator returns directly."""
    assert {name for name, _ in SEQUENCE} == set(UPSTREAM_TOOLS), "the sequence must cover every upstream tool"

    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str], Path]:
        with anyio.fail_after(120):
            (tmp_path / "direct").mkdir()
            async with direct_sim(tmp_path / "direct", mode=mode) as client:
                direct = await _run(client)
            params, event_log, _ = gateway_stdio_params(tmp_path)
            async with Client(params, mode=mode) as client:
                listed = [t.name for t in (await client.list_tools()).tools]
                proxied = await _run(client)
            return direct, proxied, listed, event_log

    direct, proxied, listed, event_log = anyio.run(main)
    assert sorted(listed) == sorted(UPSTREAM_TOOLS + list(OWN_TOOLS))
    mismatches = []
    for (name, args), want, got in zip(SEQUENCE, direct, proxied, strict=True):
        if name in ("Snapshot", "Screenshot"):
            assert annotation_of(got) is not None, f"{name} result lacks the [gateway] line"
        if _without_annotation(got) != want:
            mismatches.append((name, args, want, got))
    assert not mismatches, f"results differ through the gateway: {mismatches[:2]}"
    # based_on / approval_id never reach the upstream: the simulator rejects unknown arguments,
    # and its log shows the arguments it received.
    for event in read_events(event_log):
        assert "based_on" not in event.get("args", {}) and "approval_id" not in event.get("args", {})


@requirement("S-PRX-01")
def test_input_tools_gain_based_on_and_gated_tools_gain_approval_id(tmp_path: Path) -> None:
    """S-PRX-01: the client's schemas: input tools accept based_on, gated tools approval_id, the rest as upstream."""
    upstream = {t["name"]: t for t in json.loads((UPSTREAM_DATA / "tools_list.json").read_text())["tools"]}

    async def main() -> dict[str, Any]:
        with anyio.fail_after(60):
            params, _, _ = gateway_stdio_params(tmp_path)
            async with Client(params, mode="legacy") as client:
                return {
                    t.name: t.model_dump(by_alias=True, exclude_none=True, mode="json")
                    for t in (await client.list_tools()).tools
                }

    seen = anyio.run(main)
    input_tools = {"Click", "Type", "Scroll", "Move", "Shortcut", "MultiSelect", "MultiEdit"}
    system_tools = {"PowerShell", "Registry", "FileSystem", "Process", "App", "Clipboard", "Notification"}
    for name, want in upstream.items():
        got = seen[name]
        props = dict(got["inputSchema"]["properties"])
        assert ("based_on" in props) == (name in input_tools), name
        assert ("approval_id" in props) == (name in input_tools | system_tools), name
        props.pop("based_on", None)
        props.pop("approval_id", None)
        assert props == want["inputSchema"]["properties"], name
        assert got["inputSchema"].get("additionalProperties") is False
        assert got.get("annotations") == want.get("annotations"), name
        assert got.get("outputSchema") == want.get("outputSchema"), name
