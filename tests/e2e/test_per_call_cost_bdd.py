"""Step definitions binding features/per_call_cost.feature (S-FRESH-10, S-FRESH-11, S-AUD-13..16, S-OBS-35,
S-PERF-07).

Each `When` runs its whole exchange (client ⇄ gateway ⇄ in-process simulator) and keeps what came
back; the `Then` steps judge what was kept, the simulator's event log and the audit file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.audit.background import BackgroundWriter
from gateway.audit.reader import audit_files, iter_events
from gateway.audit.verify import verify_chain
from gateway.audit.writer import AuditLog
from gateway.cli import main as cli_main
from gateway.pipeline.policy_world import session_view
from gateway.state.store import ObservationStore, SharedCounter
from policy import PROBE_PENDING, ToolCall
from policy.decision import Code
from policy.freshness import basis_of
from policy.observation import Capture
from tests.e2e.harness import annotation_of, first_text, gateway_rig

scenarios("per_call_cost.feature")

CHROME = "Example Domain - Google Chrome"
POINT = [800, 520]


@dataclass
class World:
    tmp: Path
    config: dict[str, Any] = field(default_factory=dict)
    kill_after_snapshot: bool = False
    focus_after_first: bool = False
    clicks: list[dict[str, Any]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    state: Path | None = None
    room: int = 0
    writes: int = 0
    ids: list[int] = field(default_factory=list)
    block: int = 0
    writer: BackgroundWriter | None = None
    store: ObservationStore | None = None
    views: list[tuple[Any, Any]] = field(default_factory=list)
    intent_seq: int | None = None


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp=tmp_path)


@given("a gateway in front of the simulator")
def _gateway() -> None:
    pass


@given(parsers.parse("a gateway in front of the simulator with probe_reuse_ms {ms:d}"))
def _gateway_reuse(world: World, ms: int) -> None:
    world.config["probe_reuse_ms"] = ms


@given("the kill switch is engaged after the Snapshot")
def _kill(world: World) -> None:
    world.kill_after_snapshot = True


@given("the focus moves to Chrome after the first click")
def _focus(world: World) -> None:
    world.focus_after_first = True


def _exchange(world: World, clicks: int) -> None:
    async def run() -> None:
        async with gateway_rig(world.tmp, config=world.config) as rig:
            line = annotation_of(await rig.call("Snapshot", {}))
            assert line is not None
            obs = line.split("obs=")[1].split()[0]
            if world.kill_after_snapshot:
                state = str(rig.app.config.state_dir)
                assert cli_main(["kill", "engage", "--reason", "test", "--state-dir", state]) == 0
            for n in range(clicks):
                world.clicks.append(await rig.call("Click", {"loc": POINT, "based_on": obs}))
                if n == 0 and world.focus_after_first:
                    rig.world("focus", window=CHROME)
            world.events = [e["kind"] for e in rig.events()]
            world.audit = [r for r in rig.audit_lines() if r["event"] != "config"]
            world.state = rig.app.config.state_dir

    anyio.run(run)


@when("the model takes a Snapshot and clicks citing it")
def _snap_click(world: World) -> None:
    _exchange(world, 1)


@when("the model takes a Snapshot and clicks citing it twice")
def _snap_click_twice(world: World) -> None:
    _exchange(world, 2)


@then(parsers.parse('the click is refused "{code}"'))
def _refused(world: World, code: str) -> None:
    assert first_text(world.clicks[-1]).startswith(f"DENIED {code}: ")


@then("the click went through")
def _through(world: World) -> None:
    assert world.clicks[-1]["isError"] is False, first_text(world.clicks[-1])


@then(parsers.parse('the first click went through and the second is refused "{code}"'))
def _first_then_refused(world: World, code: str) -> None:
    assert world.clicks[0]["isError"] is False, first_text(world.clicks[0])
    assert first_text(world.clicks[1]).startswith(f"DENIED {code}: ")


@then(parsers.parse('the simulator recorded "{kinds}"'))
def _recorded(world: World, kinds: str) -> None:
    assert world.events == [k.strip() for k in kinds.split(",")]


@then('the audit reads "observation, allow (intent), outcome" and its chain verifies')
def _audit_shape(world: World) -> None:
    shape = [(r["event"], r.get("phase")) for r in world.audit]
    assert shape == [("observation", None), ("allow", "intent"), ("outcome", None)]
    assert world.audit[2]["intent"] == world.audit[1]["seq"]
    assert world.state is not None and verify_chain(audit_files(world.state)).ok


@given(parsers.parse("an audit writer with room for {room:d} events"))
def _writer(world: World, room: int) -> None:
    world.room = room


@when(parsers.parse("{count:d} events are handed in and the writer is closed"))
def _hand_in(world: World, count: int) -> None:
    writer = BackgroundWriter(AuditLog(world.tmp), max_pending=world.room)

    async def run() -> None:
        for i in range(count):
            await writer.submit("allow", {"tool": "Click", "n": i})

    anyio.run(run)
    writer.close()
    world.writes = writer.batches
    world.state = world.tmp


@then(
    parsers.parse("the audit holds the {count:d} events in order in fewer than {limit:d} writes and its chain verifies")
)
def _holds(world: World, count: int, limit: int) -> None:
    assert world.state is not None
    records = [e.record for e in iter_events(audit_files(world.state)) if e.record is not None]
    assert [r["n"] for r in records] == list(range(count))
    assert 0 < world.writes < limit
    assert verify_chain(audit_files(world.state)).ok


@given("an audit writer that lets a line wait up to an hour for company")
def _lingering_writer(world: World) -> None:
    world.writer = BackgroundWriter(AuditLog(world.tmp), linger_s=3600.0)


@when("10 read-only lines are handed in one call at a time, then an intent is written ahead")
def _lines_then_intent(world: World) -> None:
    writer = world.writer
    assert writer is not None

    async def run() -> int | None:
        for i in range(10):
            await writer.submit("observation", {"tool": "Snapshot", "n": i})
            await anyio.sleep(0.001)
        with anyio.fail_after(10):  # a liveness bound, 360 times shorter than the linger
            return await writer.write_ahead("allow", {"tool": "Click", "phase": "intent"})

    world.intent_seq = anyio.run(run)


@then("the write-ahead returns at once and the audit holds the 11 lines in one write")
def _one_write(world: World) -> None:
    records = [e.record for e in iter_events(audit_files(world.tmp)) if e.record is not None]
    assert [r.get("n") for r in records] == [*range(10), None]
    assert world.writer is not None
    assert world.intent_seq == 11 and world.writer.batches == 1
    world.writer.close()
    assert verify_chain(audit_files(world.tmp)).ok


@given(parsers.parse("two id counters sharing one state dir, blocks of {block:d}"))
def _counters(world: World, block: int) -> None:
    world.block = block


@when(parsers.parse("each takes {count:d} ids in turn"))
def _take(world: World, count: int) -> None:
    a = SharedCounter(world.tmp / "ids", block=world.block)
    b = SharedCounter(world.tmp / "ids", block=world.block)
    world.ids = [c() for _ in range(count) for c in (a, b)]


@then(parsers.parse("the {count:d} ids are distinct"))
def _distinct(world: World, count: int) -> None:
    assert len(world.ids) == len(set(world.ids)) == count


@given("the rules with the gateway's protected paths", target_fixture="perf")
def _rules_with_paths(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    import policy.rules.self_protection as self_protection
    from policy.rules.match import load_rules

    paths = ("C:\\Users\\me\\AppData\\Local\\winmcp-gateway-bdd", "E:\\bdd\\state")
    seen: list[str] = []
    real = self_protection._canonical
    monkeypatch.setattr(self_protection, "_canonical", lambda t: seen.append(t) or real(t))
    return {"rules": load_rules(protected_paths=paths), "seen": seen}


@when(parsers.parse("{count:d} clicks are decided"))
def _decide_clicks(perf: dict[str, Any], count: int) -> None:
    from policy import Context, KillState, PolicyConfig, Probe, SessionView, ToolCall, decide
    from tests.policy._world import NOTEPAD, T0, observation

    obs = observation("obs-1", focused=NOTEPAD)
    view = SessionView(
        session="s1", observations={obs.id: obs}, latest_id=obs.id, retired={}, foreign_ids=frozenset(),
        generation=obs.generation, probe=Probe(status="ok", focused=NOTEPAD),
    )  # fmt: skip
    ctx = Context(
        config=PolicyConfig(), kill=KillState(), view=view, approvals={}, rules=perf["rules"], rules_error=None
    )
    perf["blocked"] = [
        decide(ToolCall(tool="Click", args={"loc": [i, 5]}, session="s1"), ctx, T0).blocks for i in range(count)
    ]


@then("the protected paths were canonicalised once each")
def _once_each(perf: dict[str, Any]) -> None:
    assert not any(perf["blocked"])
    assert len([t for t in perf["seen"] if "bdd" in t]) == 2


@given("a pipe served by the native wire", target_fixture="pipe")
def _pipe() -> dict[str, Any]:
    import os

    from gateway.transport import stdio

    if os.name != "posix":
        pytest.skip("the native wire is the POSIX one")
    r, w = os.pipe()
    reader, writer = os.fdopen(r, "rb"), os.fdopen(w, "wb")
    fds = stdio._native_fds(reader, writer)
    assert fds == (r, w)
    return {"fds": fds, "files": (reader, writer)}


@when("a 300 kB line is written and read back")
def _through_pipe(pipe: dict[str, Any]) -> None:
    from gateway.transport import stdio

    r, w = pipe["fds"]
    payload = b'{"jsonrpc":"2.0","id":1,"result":"' + b"y" * 300_000 + b'"}\n'
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
    pipe["sent"], pipe["got"] = payload, bytes(got)
    stdio._restore_blocking(pipe["fds"])


@then("it arrives whole and the pipe is blocking again")
def _whole(pipe: dict[str, Any]) -> None:
    import os

    assert pipe["got"] == pipe["sent"]
    assert all(os.get_blocking(fd) for fd in pipe["fds"])
    for f in pipe["files"]:
        f.close()


# -- S-PERF-04: a result summary scans what it keeps -------------------------------------------------

_BEARER = "Bearer Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx"
_JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNlY3JldC12YWx1ZQ"


@pytest.fixture
def summary() -> dict[str, Any]:
    return {}


_LONG_RESULT = (
    "a Snapshot result of {size:d} characters with a bearer token at character {at:d} and a JWT at character {jwt:d}"
)


@given(parsers.parse(_LONG_RESULT))
def _long_result(summary: dict[str, Any], size: int, at: int, jwt: int) -> None:
    text = list("Window: Notepad (x) " * (size // 20 + 1))[:size]
    text[at : at + len(_BEARER)] = _BEARER
    text[jwt : jwt + len(_JWT)] = _JWT
    summary["text"] = "".join(text)[:size]
    assert len(summary["text"]) == size


@when("the audit summarises it")
def _summarise(summary: dict[str, Any]) -> None:
    from gateway.audit.redact.values import summarize_result

    result = {"content": [{"type": "text", "text": summary["text"]}], "isError": False}
    summary["out"] = summarize_result(result)["content"][0]["text"]


@then(parsers.parse("the summary is {n:d} characters long and notes the {size:d} characters"))
def _summary_length(summary: dict[str, Any], n: int, size: int) -> None:
    out = summary["out"]
    assert len(out) == n
    assert out.endswith(f"…[truncated, {size} chars]")


@then("the bearer token is masked")
def _bearer_masked(summary: dict[str, Any]) -> None:
    assert "[REDACTED:bearer]" in summary["out"]


@then("no part of either secret is in the summary")
def _no_secret(summary: dict[str, Any]) -> None:
    for secret in (_BEARER.split()[1], _JWT):
        for i in range(0, len(secret) - 12):
            assert secret[i : i + 12] not in summary["out"]


@given("an upstream child that logs every line it reads", target_fixture="lane")
def _lane_child(tmp_path: Path) -> dict[str, Any]:
    return {"tmp": tmp_path}


@when("the gateway calls a tool for a client without a progress token and then for one with a token")
def _lane_calls(lane: dict[str, Any]) -> None:
    from tests.gateway.test_upstream_lane import _rig

    async def run() -> None:
        async with _rig(lane["tmp"]) as rig:
            lane["results"] = [(await rig.call("echo", {"n": 1}, progress=p))[0] for p in (False, True)]
            lane["sent"] = rig.calls("echo")

    anyio.run(run)


@then(parsers.parse("the first request's id is \"{first}\" and the second request's id is a number carrying the token"))
def _lane_ids(lane: dict[str, Any], first: str) -> None:
    lean, sdk = lane["sent"]
    assert lean["id"] == first and "_meta" not in lean["params"]
    assert isinstance(sdk["id"], int) and sdk["params"]["_meta"]["progressToken"] == sdk["id"]


@then("both calls return the same result")
def _lane_same(lane: dict[str, Any]) -> None:
    lean, sdk = lane["results"]
    assert lean == sdk


@given("a gateway server built in front of the simulator", target_fixture="middleware")
def _built_server(tmp_path: Path) -> list[str]:
    from gateway.app import open_gateway
    from gateway.config.load import load_config
    from gateway.transport.server import build_server
    from tests.e2e.harness import sim_spec

    async def build() -> list[str]:
        spec, _, _ = sim_spec(tmp_path, "default")
        async with open_gateway(load_config(environ={}, state_dir=tmp_path / "state"), spec) as app:
            return [type(m).__name__ for m in build_server(app).middleware]

    return anyio.run(build)


@then("its middleware holds no OpenTelemetry span and keeps the gateway's own")
def _no_otel(middleware: list[str]) -> None:
    assert "OpenTelemetryMiddleware" not in middleware and "_SeenMiddleware" in middleware


@given("a store that has dropped 5,000 observations of this session and issued 5,000 to another")
def _long_run(world: World) -> None:
    store = ObservationStore(history=4)
    for _ in range(5004):
        for session in ("a", "b"):  # a: obs-1, obs-3, …; b: obs-2, obs-4, …
            store.record(session=session, capture=Capture(tool="Snapshot"), mapping=None, now_ms=0.0, generation=1)
    world.store = store


@when("a click cites the first dropped id, and another cites the other session's first id")
def _cite_old(world: World) -> None:
    assert world.store is not None
    for cited in ("obs-1", "obs-2"):
        view = session_view(SimpleNamespace(store=world.store), "a", PROBE_PENDING, cited)  # type: ignore[arg-type]
        call = ToolCall(tool="Click", args={"loc": [1, 1]}, session="a", based_on=cited)
        world.views.append((view, basis_of(call, view)[1]))


@then("the first is refused as stale and the second as unknown")
def _stale_then_unknown(world: World) -> None:
    codes = [refusal.code if refusal else None for _, refusal in world.views]
    assert codes == [Code.STALE_OBSERVATION, Code.UNKNOWN_OBSERVATION]


@then("neither call's view listed more than two retired ids or one foreign id")
def _small_views(world: World) -> None:
    assert all(len(view.retired) <= 2 and len(view.foreign_ids) <= 1 for view, _ in world.views)
