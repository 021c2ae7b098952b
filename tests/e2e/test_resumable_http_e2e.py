"""Resumable streamable-HTTP streams: a client reconnecting with Last-Event-ID gets what it missed,
and only its own session's messages (S-HTTP-20).

The gateway runs in this process under uvicorn in front of the protocol upstream; the client is raw
HTTP (httpx2), reading the SSE events itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest

from gateway.transport.http_guard import HttpSettings
from tests._requirements import requirement
from tests.e2e._proto_rig import TOKEN, http_server, proto_gateway

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

HEADERS = {
    "Accept": "application/json, text/event-stream",
    "Content-Type": "application/json",
    "Authorization": f"Bearer {TOKEN}",
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


def events(text: str) -> list[dict[str, Any]]:
    """The SSE events of a body: {"id": …, "data": parsed JSON or ""}."""
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "id" in fields:
            data = fields.get("data", "")
            out.append({"id": fields["id"], "data": json.loads(data) if data else ""})
    return out


async def open_session(http: httpx2.AsyncClient, settings: HttpSettings) -> dict[str, str]:
    opened = await http.post(settings.url("/mcp"), headers=HEADERS, json=INITIALIZE)
    headers = {**HEADERS, "mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    await http.post(
        settings.url("/mcp"), headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"}
    )
    return headers


async def resume(http: httpx2.AsyncClient, settings: HttpSettings, headers: dict[str, str], last: str) -> list[Any]:
    """GET with Last-Event-ID; the messages replayed before the stream ends or goes quiet for 2 s."""
    got: list[Any] = []
    with anyio.move_on_after(2):
        async with http.stream("GET", settings.url("/mcp"), headers={**headers, "last-event-id": last}) as stream:
            async for line in stream.aiter_lines():
                if line.startswith("data: {"):
                    got.append(json.loads(line.removeprefix("data: ")))
    return got


@requirement("S-HTTP-20")
async def test_a_client_that_lost_its_stream_gets_the_missed_result_and_no_one_elses(tmp_path: Path) -> None:
    with anyio.fail_after(60):
        async with proto_gateway(tmp_path) as app, http_server(app) as settings, httpx2.AsyncClient() as http:
            mine = await open_session(http, settings)
            call = {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": "x"}},
            }
            answered = events((await http.post(settings.url("/mcp"), headers=mine, json=call)).text)
            priming, message = answered[0], answered[-1]
            assert priming["data"] == "" and message["data"]["id"] == 2
            # As if the connection dropped right after the priming event: the result is replayed.
            replay = await resume(http, settings, mine, priming["id"])
            assert [m["id"] for m in replay] == [2]
            assert replay[0]["result"]["content"][0]["text"] == "x"
            # Another session presenting this session's event id gets nothing of it.
            other = await open_session(http, settings)
            assert await resume(http, settings, other, priming["id"]) == []
            # An id the buffer never held replays nothing (the client must start over, not miss silently).
            assert await resume(http, settings, mine, "no-such-event") == []
