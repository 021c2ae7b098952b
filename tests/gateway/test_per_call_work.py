"""Work done once, not per call (S-PERF-02), and the native stdio wire (S-PERF-03)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest

import policy.rules.self_protection as self_protection
from gateway.transport import stdio
from policy import Context, KillState, PolicyConfig, Probe, SessionView, ToolCall, decide
from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, T0, observation

PROTECTED = (
    "C:\\Users\\me\\AppData\\Local\\winmcp-gateway",
    "C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway\\config.toml",
)


@requirement("S-PERF-02")
def test_the_gateway_paths_are_canonicalised_once_however_many_calls_are_judged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """S-PERF-02: 200 decisions on one rule set canonicalise the protected paths once, not 200 times."""
    rules = load_rules(protected_paths=(*PROTECTED, "D:\\fresh\\state"))
    canonicalised: list[str] = []
    real = self_protection._canonical
    monkeypatch.setattr(self_protection, "_canonical", lambda t: canonicalised.append(t) or real(t))
    obs = observation("obs-1", focused=NOTEPAD)
    view = SessionView(
        session="s1", observations={obs.id: obs}, latest_id=obs.id, retired={}, foreign_ids=frozenset(),
        generation=obs.generation, probe=Probe(status="ok", focused=NOTEPAD),
    )  # fmt: skip
    ctx = Context(config=PolicyConfig(), kill=KillState(), view=view, approvals={}, rules=rules, rules_error=None)
    for i in range(200):
        assert not decide(ToolCall(tool="Click", args={"loc": [i, 10]}, session="s1"), ctx, T0).blocks
    path_forms = [t for t in canonicalised if "winmcp-gateway" in t or "fresh" in t]
    assert len(path_forms) == 3, f"protected paths canonicalised {len(path_forms)} times"


@requirement("S-PERF-02")
def test_a_decision_asks_the_rules_about_a_call_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """S-PERF-02: steps 3, 4 and 7 share one answer: a SYSTEM call is matched once per decide."""
    rules = load_rules()
    asked: list[str] = []

    class Counting:
        def match(self, tool: str, args: object) -> object:
            asked.append(tool)
            return rules.match(tool, args)  # type: ignore[arg-type]

    view = SessionView(
        session="s1", observations={}, latest_id=None, retired={}, foreign_ids=frozenset(), generation=0,
        probe=Probe(status="not_probed", captured=False),
    )  # fmt: skip
    ctx = Context(config=PolicyConfig(), kill=KillState(), view=view, approvals={}, rules=Counting(), rules_error=None)  # type: ignore[arg-type]
    decision = decide(ToolCall(tool="PowerShell", args={"command": "Get-Date"}, session="s1"), ctx, T0)
    assert not decision.blocks and asked == ["PowerShell"]


@pytest.mark.skipif(os.name != "posix", reason="the native wire is the POSIX one; Windows keeps the thread")
@requirement("S-PERF-03")
def test_the_native_wire_reads_and_writes_a_pipe_without_threads_and_restores_blocking() -> None:
    """S-PERF-03: lines written with the native sink come back through the native source, whole,
    even larger than a pipe buffer; the descriptors are blocking again afterwards."""
    r, w = os.pipe()
    reader, writer = os.fdopen(r, "rb"), os.fdopen(w, "wb")
    fds = stdio._native_fds(reader, writer)
    assert fds == (r, w) and not os.get_blocking(r) and not os.get_blocking(w)
    payload = b'{"jsonrpc":"2.0","id":1,"result":"' + b"x" * 300_000 + b'"}\n'
    got = bytearray()

    async def run() -> None:
        source, sink = stdio._native_source(r), stdio._native_sink(w)

        async def read_all() -> None:
            while len(got) < len(payload):
                got.extend(await source())

        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                tg.start_soon(read_all)
                await sink(payload)

    anyio.run(run)
    assert bytes(got) == payload
    stdio._restore_blocking(fds)
    assert os.get_blocking(r) and os.get_blocking(w)
    reader.close()
    writer.close()


@requirement("S-PERF-03")
def test_windows_keeps_the_thread_wire(monkeypatch: pytest.MonkeyPatch) -> None:
    """S-PERF-03: no readiness for anonymous pipes on Windows: `_native_fds` declines there."""
    monkeypatch.setattr(stdio.os, "name", "nt")
    assert stdio._native_fds(sys.stdin, sys.stdout) is None


@requirement("S-PERF-06")
def test_the_server_opens_no_opentelemetry_span_per_message(tmp_path: Path) -> None:
    """S-PERF-06: the SDK's per-message OpenTelemetry middleware is dropped; the gateway's own stays."""
    from mcp.server.lowlevel.server import Server

    from gateway.app import open_gateway
    from gateway.config.load import load_config
    from gateway.transport.server import build_server
    from tests.e2e.harness import sim_spec

    assert "OpenTelemetryMiddleware" in [type(m).__name__ for m in Server("plain").middleware]  # the SDK's default

    async def build() -> list[str]:
        cfg = load_config(environ={}, state_dir=tmp_path / "state")
        spec, _, _ = sim_spec(tmp_path, "default")
        async with open_gateway(cfg, spec) as app:
            return [type(m).__name__ for m in build_server(app).middleware]

    names = anyio.run(build)
    assert "OpenTelemetryMiddleware" not in names
    assert "_SeenMiddleware" in names
