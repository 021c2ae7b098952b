"""Upstream lifecycle: timeouts, deaths mid-call, restarts, staleness, an upstream that cannot start
(S-UPS-01 … S-UPS-06).

The protocol upstream's `die` tool exits its own process mid-call; `stats` reports its pid,
so a test can also kill it while it is idle.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from gateway.transport.server import router_for
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import SAMPLES, requirement
from tests.e2e import protocol_upstream as upstream
from tests.e2e._proto_rig import (
    PROTO_UPSTREAM,
    ClientProbe,
    direct,
    http_client,
    http_server,
    in_process,
    proto_gateway,
    proto_spec,
    wire,
)
from tests.e2e.harness import annotation_of, first_text

pytestmark = pytest.mark.anyio

SNAPSHOT_SAMPLE = SAMPLES / "01_snapshot_full_desktop_scale1.result.json"
LATE_LAUNCHER = """
import os, runpy, sys
if not os.path.exists(sys.argv[1]):
    print("launcher: the upstream is not installed yet", file=sys.stderr)
    sys.exit(1)
sys.argv = [sys.argv[2]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


async def stats(client: Any) -> dict[str, Any]:
    data: dict[str, Any] = (await client.call_tool("stats", {})).structured_content or {}
    return data


@pytest.mark.parametrize("era", ["legacy", "auto"])
@requirement("S-UPS-02")
async def test_an_upstream_killed_mid_call_fails_clearly_and_the_next_call_works(tmp_path: Path, era: str) -> None:
    """S-UPS-02: FAILED UPSTREAM_DIED naming the cause with the stderr tail, well within the timeout; then it
    works."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path, upstream_timeout_s=20) as app, in_process(app, era) as client:
            first_pid = (await stats(client))["pid"]
            with anyio.fail_after(10):
                died = wire(await client.call_tool("die", {}))
            assert died["isError"] is True
            assert first_text(died).startswith("FAILED UPSTREAM_DIED: ")
            assert "process exited" in first_text(died)
            assert any("dying on request (exit 3)" in item.get("text", "") for item in died["content"])
            assert first_text(wire(await client.call_tool("echo", {"text": "back"}))) == "back"
            assert (await stats(client))["pid"] != first_pid
            assert (app.upstream.restarts, app.upstream.connects) == (1, 2)


@requirement("S-UPS-02")
async def test_every_call_in_flight_when_the_upstream_dies_gets_the_clear_error(tmp_path: Path) -> None:
    """S-UPS-02: over HTTP, another client's call waiting on the dead upstream fails with
    UPSTREAM_DIED too."""
    with anyio.fail_after(40):
        async with (
            proto_gateway(tmp_path) as app,
            http_server(app) as settings,
            http_client(settings, "legacy") as a,
            http_client(settings, "legacy") as b,
        ):
            started, results = anyio.Event(), list[Any]()

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                started.set()

            async def sleeper() -> None:
                results.append(wire(await a.call_tool("sleep", {"seconds": 30}, progress_callback=on_progress)))

            async with anyio.create_task_group() as tg:
                tg.start_soon(sleeper)
                await started.wait()
                died = wire(await b.call_tool("die", {}))
            assert first_text(died).startswith("FAILED UPSTREAM_DIED: ")
            assert first_text(results[0]).startswith("FAILED UPSTREAM_DIED: ")
            assert first_text(wire(await a.call_tool("echo", {"text": "again"}))) == "again"


@requirement("S-UPS-01")
async def test_a_call_past_the_timeout_fails_and_the_upstream_is_told_to_stop(tmp_path: Path) -> None:
    """S-UPS-01: upstream_timeout_s bounds a call: FAILED UPSTREAM_TIMEOUT, and the upstream sees the
    cancellation."""
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path, upstream_timeout_s=1) as app, in_process(app, "legacy") as client:
            with anyio.fail_after(8):
                late = wire(await client.call_tool("sleep", {"seconds": 60}))
            assert late["isError"] is True and first_text(late).startswith("FAILED UPSTREAM_TIMEOUT: ")
            while (await stats(client))["cancelled"] < 1:
                pass  # the cancellation reaches the upstream right after the timeout (bounded by fail_after)
            assert app.upstream.restarts == 0


@requirement("S-UPS-03")
async def test_observations_are_stale_the_moment_the_upstream_is_lost(tmp_path: Path) -> None:
    """S-UPS-03: killed while idle, the loss alone (no call yet) makes the session's observation stale."""
    lost = anyio.Event()
    with anyio.fail_after(40):
        async with proto_gateway(tmp_path, spec=proto_spec("--snapshot", str(SNAPSHOT_SAMPLE))) as app:
            app.upstream.on_lost.append(lost.set)
            async with in_process(app, "legacy") as client:
                snap = wire(await client.call_tool("Snapshot", {}))
                line = annotation_of(snap)
                assert line is not None
                obs_id = line.split("obs=")[1].split()[0]
                os.kill((await stats(client))["pid"], signal.SIGTERM)
                await lost.wait()
                refused = wire(await client.call_tool("Click", {"loc": [10, 10], "based_on": obs_id}))
                assert first_text(refused).startswith("DENIED STALE_OBSERVATION: "), first_text(refused)
                assert app.upstream.restarts == 1


@requirement("S-UPS-04", "S-PROTO-02")
async def test_an_upstream_that_cannot_start_leaves_a_gateway_that_explains(tmp_path: Path) -> None:
    """S-UPS-04/S-PROTO-02: own tools listed; upstream tools FAILED UPSTREAM_UNREACHABLE; a read is
    INTERNAL_ERROR."""
    spec = UpstreamSpec(argv=("/nonexistent/windows-mcp",))
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path, spec=spec) as app, in_process(app, "legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == {
                "winmcp_state",
                "winmcp_to_screen",
                "winmcp_screen_to_image",
                "winmcp_kill",
                "winmcp_audit",
                "winmcp_doctor",
            }
            failed = wire(await client.call_tool("Snapshot", {}))
            assert first_text(failed).startswith("FAILED UPSTREAM_UNREACHABLE: ")
            assert "/nonexistent/windows-mcp" in first_text(failed)
            assert app.upstream.alive is False and "/nonexistent/windows-mcp" in (app.upstream.last_error or "")
            with pytest.raises(MCPError) as caught:
                await client.read_resource("proto://greeting")
            assert caught.value.code == -32603 and caught.value.message.startswith("UPSTREAM_UNREACHABLE: ")
            assert (caught.value.data or {}).get("code") == "UPSTREAM_UNREACHABLE"


@requirement("S-UPS-04", "S-PROTO-08")
async def test_an_upstream_that_comes_up_later_is_announced_as_a_tool_list_change(tmp_path: Path) -> None:
    """S-UPS-04/S-PROTO-08: the supervisor retries on its own; once the upstream is up, clients
    hear of the new tools."""
    flag, launcher = tmp_path / "installed", tmp_path / "launcher.py"
    launcher.write_text(LATE_LAUNCHER)
    spec = UpstreamSpec(argv=(sys.executable, str(launcher), str(flag), str(PROTO_UPSTREAM)))
    probe = ClientProbe()
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path, spec=spec) as app, in_process(app, "legacy", probe) as client:
            assert "echo" not in {t.name for t in (await client.list_tools()).tools}
            assert "not installed yet" in (app.upstream.last_error or "") or not app.upstream.alive
            flag.touch()
            await probe.wait_note("notifications/tools/list_changed")
            assert "echo" in {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
            assert first_text(wire(await client.call_tool("echo", {"text": "up"}))) == "up"
            assert router_for(app).tools_digest is not None


@pytest.mark.parametrize("era", ["legacy", "auto"])
@requirement("S-UPS-05")
async def test_a_protocol_error_on_a_tool_call_keeps_its_code(tmp_path: Path, era: str) -> None:
    """S-UPS-05: an upstream JSON-RPC error on tools/call reaches the client with the same code and
    message."""
    outcomes = []
    with anyio.fail_after(30):
        async with direct(era) as client:
            with pytest.raises(MCPError) as caught:
                await client.call_tool("no_such_tool", {})
            outcomes.append((caught.value.code, caught.value.message))
        async with proto_gateway(tmp_path) as app, in_process(app, era) as client:
            with pytest.raises(MCPError) as caught:
                await client.call_tool("no_such_tool", {})
            outcomes.append((caught.value.code, caught.value.message))
    assert outcomes == [(-32602, "Unknown tool: no_such_tool")] * 2


@requirement("S-UPS-06")
async def test_the_upstream_inherits_the_gateways_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-UPS-06: a variable of the gateway's environment reaches the upstream child (WINDOWS_MCP_* style
    config)."""
    monkeypatch.setenv("PROTO_UPSTREAM_ECHO", "inherited")
    with anyio.fail_after(30):
        async with proto_gateway(tmp_path) as app, in_process(app, "legacy") as client:
            assert (await stats(client))["env"] == "inherited"
    assert upstream.GREETING  # the same module the child runs
