"""`winmcp-gateway -v serve --upstream sim` as a real stdio child, spoken to in raw JSON-RPC lines:
the banner and one line per call go to stderr, stdout carries JSON-RPC messages only
(S-CLI-40, S-CLI-41, S-CLI-01)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

from tests._requirements import requirement

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WINMCP_GATEWAY_")}
    env["WINMCP_GATEWAY_HOME"] = os.environ["WINMCP_GATEWAY_HOME"]  # the test's isolated home (S-CFG-20)
    env["WINMCP_GATEWAY_STATE_DIR"] = str(tmp / "state")
    return env


async def _exchange(tmp: Path, *flags: str) -> tuple[list[bytes], str, dict[int, Any]]:
    """Initialize, click blind, snapshot, close stdin; every stdout line, all of stderr, the answers by id."""
    argv = [sys.executable, "-m", "gateway", *flags, "serve", "--upstream", "sim"]
    lines: list[bytes] = []
    answers: dict[int, Any] = {}
    process: Process = await anyio.open_process(argv, env=_env(tmp))
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    stdout = BufferedByteReceiveStream(process.stdout)

    async def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        await process.stdin.send((json.dumps(message) + "\n").encode("utf-8"))

    async def answer(request_id: int) -> Any:
        while request_id not in answers:
            line = await stdout.receive_until(b"\n", 10_000_000)
            lines.append(line)
            message = json.loads(line)
            if "id" in message and ("result" in message or "error" in message):
                answers[message["id"]] = message
        return answers[request_id]

    with anyio.fail_after(60):
        await send(INIT)
        await answer(1)
        await send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        calls = [("Click", {"loc": [10, 10]}), ("Snapshot", {})]
        for n, (tool, args) in enumerate(calls, start=2):
            await send({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": tool, "arguments": args}})
            await answer(n)
        await process.stdin.aclose()
        async for rest in stdout:  # whatever else came before the child ended
            lines += [x for x in rest.split(b"\n") if x]
        err = b"".join([chunk async for chunk in process.stderr]).decode("utf-8", "replace")
        await process.wait()
    return lines, err, answers


@requirement("S-CLI-40", "S-CLI-41", "S-CLI-01")
def test_serve_says_what_runs_on_stderr_and_stdout_is_protocol_only(tmp_path: Path) -> None:
    """S-CLI-40, S-CLI-41: the banner once and a line per call on stderr; every stdout line is a JSON-RPC message."""
    lines, err, answers = anyio.run(_exchange, tmp_path, "-v")
    assert lines, "the gateway answered"
    for line in lines:
        message = json.loads(line)  # anything else on stdout would break the client
        assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", line
    assert answers[2]["result"]["isError"] is True and answers[3]["result"].get("isError") is not True
    assert err.count("serving MCP over stdio") == 1, err
    for label in ("upstream:", "protocol:", "state dir:", "config:", "audit:", "mode:"):
        assert sum(f"winmcp-gateway:   {label}" in line for line in err.splitlines()) == 1, label
    assert f"state dir: {tmp_path / 'state'}" in err and "config:    none, defaults" in err
    assert "mode:      enforcing" in err and str(tmp_path / "state" / "audit.jsonl") in err
    calls = [line.split("gateway.calls: ", 1)[1] for line in err.splitlines() if "gateway.calls: " in line]
    assert [c.rsplit(" ", 2)[0] for c in calls] == ["Click DENIED NO_OBSERVATION", "Snapshot OK"], err
    assert all(c.endswith(" ms") for c in calls)
