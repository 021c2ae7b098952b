"""Streamable HTTP downstream: token, Host/Origin, /healthz, sessions with their own observations
(S-HTTP-04 … S-HTTP-08).

The gateway runs in this process under uvicorn on a free loopback port; clients are the
`mcp` SDK's streamable-HTTP client and raw HTTP requests.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import gateway.transport.http
from gateway.app import GatewayApp, open_gateway
from gateway.config.load import load_config
from gateway.transport.http_guard import HttpSettings
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement
from tests.e2e._proto_rig import TOKEN, http_client, http_server, proto_gateway
from tests.e2e.harness import annotation_of, first_text, sim_spec, wire

pytestmark = pytest.mark.anyio

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
JSON_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@contextlib.asynccontextmanager
async def sim_http(tmp: Path, *, token: str | None = TOKEN) -> AsyncIterator[tuple[GatewayApp, HttpSettings]]:
    """The gateway in front of the simulator, served over HTTP."""
    spec, _, _ = sim_spec(tmp, "default")
    config = load_config(environ={}, state_dir=tmp / "state")
    async with open_gateway(config, spec) as app, http_server(app, token=token) as settings:
        yield app, settings


async def post(settings: HttpSettings, headers: dict[str, str], path: str = "/mcp") -> httpx2.Response:
    async with httpx2.AsyncClient() as http:
        return await http.post(settings.url(path), headers={**JSON_HEADERS, **headers}, json=INITIALIZE)


def obs_of(result: dict[str, Any]) -> str:
    line = annotation_of(result)
    assert line is not None, result
    return line.split("obs=")[1].split()[0]


# -- who may talk -------------------------------------------------------------------------------


@requirement("S-HTTP-04", "S-HTTP-05")
async def test_the_guard_answers_401_403_421_before_anything_reaches_mcp(tmp_path: Path) -> None:
    """S-HTTP-04/05: no or wrong token 401 (WWW-Authenticate Bearer); forged Origin 403; bad Host 421, checked
    first."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, http_server(app) as settings:
            good = {"Authorization": f"Bearer {TOKEN}"}
            missing = await post(settings, {})
            assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith("Bearer")
            assert missing.json()["error"] == "invalid_token"
            wrong = await post(settings, {"Authorization": f"Bearer {TOKEN[:-1]}x"})
            assert (wrong.status_code, wrong.json()["detail"]) == (401, "wrong bearer token")
            basic = await post(settings, {"Authorization": f"Basic {TOKEN}"})
            assert basic.status_code == 401
            forged = await post(settings, {**good, "Origin": "http://evil.example"})
            assert forged.status_code == 403 and "Origin" in forged.json()["detail"]
            rebound = await post(settings, {**good, "Host": f"evil.example:{settings.port}"})
            assert rebound.status_code == 421 and "Host" in rebound.json()["detail"]
            assert (await post(settings, {"Host": f"evil.example:{settings.port}"})).status_code == 421
            own_origin = await post(settings, {**good, "Origin": f"http://localhost:{settings.port}"})
            assert own_origin.status_code == 200 and own_origin.headers.get("mcp-session-id")


@requirement("S-HTTP-04")
async def test_the_token_is_compared_in_constant_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-HTTP-04: the presented token goes through hmac.compare_digest (never ==)."""
    compared: list[tuple[bytes, bytes]] = []
    real = gateway.transport.http.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(gateway.transport.http.hmac, "compare_digest", spy)
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, http_server(app) as settings:
            assert (await post(settings, {"Authorization": "Bearer not-the-token-at-all"})).status_code == 401
    assert compared == [(b"not-the-token-at-all", TOKEN.encode())]


@requirement("S-HTTP-04")
async def test_an_mcp_client_with_a_wrong_token_cannot_connect(tmp_path: Path) -> None:
    """S-HTTP-04: the SDK client presenting a wrong token fails to initialize; with the right one it works."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, http_server(app) as settings:
            with pytest.raises(Exception):  # noqa: B017 - the SDK raises its transport's own error type
                async with http_client(settings, "legacy", token="x" * 32) as client:
                    await client.list_tools()
            async with http_client(settings, "legacy") as client:
                assert "echo" in {t.name for t in (await client.list_tools()).tools}


@requirement("S-HTTP-02")
async def test_without_auth_on_loopback_no_token_is_needed(tmp_path: Path) -> None:
    """S-HTTP-02: `--no-auth` (token None) on loopback serves clients that send no token."""
    with anyio.fail_after(30):
        async with (
            proto_gateway(tmp_path) as app,
            http_server(app, token=None) as settings,
            http_client(settings, "auto", token=None) as client,
        ):
            assert first_text(wire(await client.call_tool("echo", {"text": "open"}))) == "open"


@requirement("S-HTTP-06")
async def test_healthz_says_ok_and_nothing_sensitive(tmp_path: Path) -> None:
    """S-HTTP-06: GET /healthz needs no token and answers exactly status and upstream state; Host is still
    checked."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, http_server(app) as settings, httpx2.AsyncClient() as http:
            health = await http.get(settings.url("/healthz"))
            assert health.status_code == 200 and health.json() == {"status": "ok", "upstream": "up"}
            assert TOKEN not in health.text and str(tmp_path) not in health.text
            bad_host = await http.get(settings.url("/healthz"), headers={"Host": "evil.example"})
            assert bad_host.status_code == 421
            assert (await http.post(settings.url("/healthz"))).status_code == 405
        async with (
            open_gateway(
                load_config(environ={}, state_dir=tmp_path / "down"),
                UpstreamSpec(argv=("/nonexistent/upstream",)),
            ) as app,
            http_server(app) as settings,
            httpx2.AsyncClient() as http,
        ):
            assert (await http.get(settings.url("/healthz"))).json() == {
                "status": "ok",
                "upstream": "down",
            }


# -- sessions -----------------------------------------------------------------------------------


@requirement("S-HTTP-07")
async def test_two_http_clients_each_have_their_own_observations(tmp_path: Path) -> None:
    """S-HTTP-07: one upstream, two sessions: B citing A's observation is UNKNOWN_OBSERVATION; A's own
    works."""
    with anyio.fail_after(60):
        async with (
            sim_http(tmp_path) as (_app, settings),
            http_client(settings, "legacy") as a,
            http_client(settings, "legacy") as b,
        ):
            a_obs = obs_of(wire(await a.call_tool("Snapshot", {})))
            b_obs = obs_of(wire(await b.call_tool("Snapshot", {})))
            assert a_obs != b_obs
            refused = wire(await b.call_tool("Click", {"loc": [640, 480], "based_on": a_obs}))
            assert refused["isError"] is True
            assert first_text(refused).startswith("DENIED UNKNOWN_OBSERVATION: ")
            a_obs = obs_of(wire(await a.call_tool("Snapshot", {})))
            allowed = wire(await a.call_tool("Click", {"loc": [640, 480], "based_on": a_obs}))
            assert not first_text(allowed).startswith("DENIED"), first_text(allowed)
    sessions = {
        json.loads(line).get("session", "") for line in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()
    }
    assert len({s for s in sessions if s.startswith("http:")}) == 2


@requirement("S-HTTP-07", "S-HTTP-08")
async def test_2026_clients_are_told_apart_by_their_declared_name(tmp_path: Path) -> None:
    """S-HTTP-07/08: 2026-07-28 has no session: distinct client names are distinct histories, one name
    is one."""
    names = {n: types.Implementation(name=n, version="1") for n in ("agent-a", "agent-b")}
    with anyio.fail_after(60):
        async with (
            sim_http(tmp_path) as (_app, settings),
            http_client(settings, "auto", client_info=names["agent-a"]) as a,
            http_client(settings, "auto", client_info=names["agent-b"]) as b,
            http_client(settings, "auto", client_info=names["agent-a"]) as a_twin,
        ):
            a_obs = obs_of(wire(await a.call_tool("Snapshot", {})))
            refused = wire(await b.call_tool("Click", {"loc": [640, 480], "based_on": a_obs}))
            assert first_text(refused).startswith("DENIED UNKNOWN_OBSERVATION: ")
            shared = wire(await a_twin.call_tool("Click", {"loc": [640, 480], "based_on": a_obs}))
            assert not first_text(shared).startswith("DENIED UNKNOWN_OBSERVATION"), first_text(shared)


@requirement("S-HTTP-08")
async def test_the_session_id_never_appears_in_the_audit(tmp_path: Path) -> None:
    """S-HTTP-08: a 2025-11-25 session is keyed by a hash of its Mcp-Session-Id; the id itself is not
    written."""
    ids: list[str] = []

    async def remember(response: httpx2.Response) -> None:
        if sid := response.headers.get("mcp-session-id"):
            ids.append(sid)

    with anyio.fail_after(60):
        async with sim_http(tmp_path) as (_app, settings):
            headers = {"Authorization": f"Bearer {TOKEN}"}
            async with (
                httpx2.AsyncClient(headers=headers, event_hooks={"response": [remember]}) as http,
                Client(streamable_http_client(settings.url("/mcp"), http_client=http), mode="legacy") as c,
            ):
                await c.call_tool("Snapshot", {})
    audit = (tmp_path / "state" / "audit.jsonl").read_text()
    assert ids and ids[0] not in audit
    assert '"session":"http:' in audit
