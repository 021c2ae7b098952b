"""`winmcp_doctor` through a real MCP client ⇄ gateway ⇄ simulator (S-DOC-07, S-DOC-10)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from gateway.app import open_gateway
from gateway.config.load import load_config
from gateway.transport.server import build_server
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement
from tests.e2e.harness import annotation_of, first_text, gateway_rig, wire

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@contextlib.asynccontextmanager
async def mutated_gateway(tmp: Path, *mutations: str) -> AsyncIterator[Client]:
    """A client of a gateway whose simulator serves a mutated tools/list."""
    args = [a for m in mutations for a in ("--mutate-schema", m)]
    spec = UpstreamSpec.simulator("--scenario", "default", *args)
    cfg = load_config(environ={}, state_dir=tmp / "state")
    async with open_gateway(cfg, spec) as app, Client(build_server(app)) as client:
        yield client


def _checks(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in result["structuredContent"]["checks"]}


@requirement("S-DOC-10", "S-DOC-07")
async def test_doctor_tool_reports_unknown_mapping_until_an_observation_exists(tmp_path: Path) -> None:
    """S-DOC-10, S-DOC-07: text + structuredContent; mapping UNKNOWN until a Snapshot, then OK."""
    async with gateway_rig(tmp_path) as rig:
        audit_before = rig.audit_lines()
        first = await rig.call("winmcp_doctor")
        assert first["isError"] is False
        content = first["structuredContent"]
        assert content["format"] == "winmcp-doctor/1" and content["overall"] == "UNKNOWN"
        assert _checks(first)["mapping"]["verdict"] == "UNKNOWN" and "Snapshot" in _checks(first)["mapping"]["summary"]
        assert first_text(first).startswith("winmcp-gateway doctor") and "overall: UNKNOWN" in first_text(first)
        assert rig.audit_lines() == audit_before, "the doctor writes no audit line"

        line = annotation_of(await rig.call("Snapshot", {"use_vision": True}))
        assert line is not None
        obs = line.split("obs=")[1].split()[0]
        second = await rig.call("winmcp_doctor")
        assert _checks(second)["mapping"]["verdict"] == "OK"
        assert _checks(second)["mapping"]["summary"].startswith(f"{obs} (Snapshot)")
        assert second["structuredContent"]["overall"] == "OK", first_text(second)


@requirement("S-DOC-10")
async def test_doctor_tool_is_listed_with_its_schema_and_works_while_killed(tmp_path: Path) -> None:
    """S-DOC-10: winmcp_doctor is listed with an outputSchema and answers while the kill switch is engaged."""
    async with gateway_rig(tmp_path) as rig:
        listed = {t.name: t for t in (await rig.client.list_tools()).tools}
        schema = listed["winmcp_doctor"].output_schema
        assert schema is not None and set(schema["required"]) == {"overall", "checks"}
        engaged = await rig.call("winmcp_kill", {"action": "engage", "reason": "test"})
        assert engaged["isError"] is False
        result = wire(await rig.client.call_tool("winmcp_doctor", {}))
        assert result["isError"] is False and _checks(result)["kill"]["verdict"] == "WARNING"


@requirement("S-DOC-10", "S-DOC-02")
async def test_doctor_tool_sees_a_renamed_argument_of_the_live_upstream(tmp_path: Path) -> None:
    """S-DOC-10, S-DOC-02: through the gateway, a renamed PowerShell.command is SEVERE."""
    async with mutated_gateway(tmp_path, "rename:PowerShell.command=cmd") as client:
        result = wire(await client.call_tool("winmcp_doctor", {}))
        assert result["isError"] is False and result["structuredContent"]["overall"] == "SEVERE"
        (finding,) = _checks(result)["schema.read_args"]["findings"]
        assert (finding["tool"], finding["field"]) == ("PowerShell", "command")
        assert "recursive-delete" in finding["rules"]
