"""Every message kind works through the gateway exactly as it works directly (S-PROTO-01, -04, -05, -06, -09).

One transcript — resources, templates, reads (text, blob, template, missing), prompts,
completion, tool calls with progress, logging, sampling, elicitation and roots — is taken
from the protocol upstream directly and through the gateway in process, as a
`winmcp-gateway serve` child over stdio, and over streamable HTTP, by the SDK client in
each protocol era. The transcripts must be identical, and must say what the upstream's
definitions say (not merely agree with each other).
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from tests._requirements import requirement
from tests.e2e import protocol_upstream as upstream
from tests.e2e._proto_rig import (
    ELICITED,
    ROOT_URI,
    SAMPLED_MODEL,
    SAMPLED_TEXT,
    ClientProbe,
    direct,
    http_client,
    http_server,
    in_process,
    proto_gateway,
    stdio_gateway,
    wire,
)

pytestmark = pytest.mark.anyio

ERAS = ["legacy", "auto"]
# "upstream_auto": in process, the gateway talking 2026-07-28 to the upstream (serve --protocol auto).
ROUTES = ["in_process", "stdio", "http", "upstream_auto"]
PROTO_TOOLS = sorted(t["name"] for t in upstream._TOOLS)


async def _error(op: Any) -> tuple[int, str]:
    with pytest.raises(MCPError) as caught:
        await op
    return caught.value.code, caught.value.message


async def exercise(client: Client, probe: ClientProbe) -> dict[str, Any]:
    """Drive every message kind once and return what the client saw."""
    seen: dict[str, Any] = {"protocol": client.protocol_version}
    tools = await client.list_tools()
    seen["tools"] = sorted(t.name for t in tools.tools if not t.name.startswith("winmcp_"))
    seen["resources"] = wire(await client.list_resources())
    seen["templates"] = wire(await client.list_resource_templates())
    for key, uri in (("greeting", "proto://greeting"), ("blob", "proto://blob"), ("item", "proto://items/7")):
        seen[key] = wire(await client.read_resource(uri))
    seen["missing"] = await _error(client.read_resource("proto://missing"))
    seen["prompts"] = wire(await client.list_prompts())
    seen["prompt"] = wire(await client.get_prompt("greet", {"who": "bob"}))
    seen["unknown_prompt"] = await _error(client.get_prompt("nope", {}))
    ref = types.PromptReference(type="ref/prompt", name="greet")
    seen["complete"] = wire(await client.complete(ref, {"name": "who", "value": "al"}))
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    seen["progress"] = wire(await client.call_tool("progress", {"steps": 3}, progress_callback=on_progress))
    seen["progress_seen"] = progress
    for name, args in (
        ("echo", {"text": "x"}),
        ("sample", {"prompt": "describe the page"}),
        ("elicit", {"question": "proceed?"}),
        ("roots", {}),
        ("log", {"level": "warning", "message": "USER_CONTROL: the user took over"}),
    ):
        seen[name] = wire(await client.call_tool(name, args))
    seen["asked"] = probe.asked
    seen["logs"] = probe.logs
    return seen


@contextlib.asynccontextmanager
async def client_via(route: str, era: str, tmp: Path, probe: ClientProbe) -> AsyncIterator[Client]:
    """A client reaching the protocol upstream by `route`."""
    if route == "direct":
        async with direct(era, probe) as client:
            yield client
    elif route == "stdio":
        async with stdio_gateway(tmp, era, probe) as client:
            yield client
    else:
        async with proto_gateway(tmp, upstream_mode="auto" if route == "upstream_auto" else "legacy") as app:
            if route in ("in_process", "upstream_auto"):
                async with in_process(app, era, probe) as client:
                    yield client
            else:
                async with http_server(app) as settings, http_client(settings, era, probe) as client:
                    yield client


async def transcript(route: str, era: str, tmp: Path) -> dict[str, Any]:
    probe = ClientProbe()
    with anyio.fail_after(60):
        async with client_via(route, era, tmp, probe) as client:
            return await exercise(client, probe)


def _text(result: dict[str, Any]) -> str:
    return str(result["content"][0]["text"])


def assert_says_what_the_upstream_defines(seen: dict[str, Any], era: str) -> None:
    """The transcript's values, from protocol_upstream's definitions and ClientProbe's answers."""
    assert seen["protocol"] == ("2025-11-25" if era == "legacy" else "2026-07-28")
    assert seen["tools"] == PROTO_TOOLS
    assert [r["uri"] for r in seen["resources"]["resources"]] == ["proto://greeting", "proto://blob"]
    assert seen["templates"]["resourceTemplates"][0]["uriTemplate"] == "proto://items/{id}"
    assert seen["greeting"]["contents"][0]["text"] == upstream.GREETING
    assert base64.b64decode(seen["blob"]["contents"][0]["blob"]) == upstream.BLOB
    assert seen["item"]["contents"][0]["text"] == "item 7"
    assert seen["missing"] == (upstream.RESOURCE_NOT_FOUND, "Resource not found: proto://missing")
    assert seen["unknown_prompt"] == (types.INVALID_PARAMS, "Unknown prompt: nope")
    assert seen["prompt"]["messages"][0]["content"]["text"] == "Say hello to bob."
    assert seen["complete"]["completion"]["values"] == ["alice", "albert"]
    assert _text(seen["progress"]) == "progress done after 3 steps"
    assert seen["progress_seen"] == [
        (1.0, 3.0, "step 1 of 3"),
        (2.0, 3.0, "step 2 of 3"),
        (3.0, 3.0, "step 3 of 3"),
    ]
    assert _text(seen["echo"]) == "x"
    assert _text(seen["sample"]) == f"sampled by {SAMPLED_MODEL}: {SAMPLED_TEXT}"
    assert _text(seen["elicit"]) == f"elicited accept: {ELICITED['answer']}"
    assert _text(seen["roots"]) == f"roots: {ROOT_URI}"
    asked = [method for method, _ in seen["asked"]]
    assert asked == ["sampling/createMessage", "elicitation/create", "roots/list"]
    assert seen["asked"][0][1]["messages"][0]["content"]["text"] == "describe the page"
    assert seen["asked"][1][1]["message"] == "proceed?"
    assert seen["logs"] == [{"level": "warning", "logger": "proto", "data": "USER_CONTROL: the user took over"}]


@pytest.mark.parametrize("era", ERAS)
@requirement("S-PROTO-01", "S-PROTO-09")
async def test_the_direct_transcript_says_what_the_upstream_defines(tmp_path: Path, era: str) -> None:
    """S-PROTO-01/S-PROTO-09: the reference itself is right (so equality below means something)."""
    assert_says_what_the_upstream_defines(await transcript("direct", era, tmp_path), era)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("era", ERAS)
@requirement("S-PROTO-01", "S-PROTO-02", "S-PROTO-04", "S-PROTO-05", "S-PROTO-06", "S-PROTO-09")
async def test_every_message_kind_works_through_the_gateway_as_it_does_directly(
    tmp_path: Path, era: str, route: str
) -> None:
    """S-PROTO-01/02/04/05/06/09: through the gateway (in process, stdio, HTTP) the transcript equals the
    direct one."""
    reference = await transcript("direct", era, tmp_path / "direct")
    through = await transcript(route, era, tmp_path / route)
    assert_says_what_the_upstream_defines(through, era)
    assert through == reference
