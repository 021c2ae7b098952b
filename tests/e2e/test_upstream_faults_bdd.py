"""Step definitions binding features/upstream_faults.feature (S-UPS-07 … S-UPS-12).

The `When` step runs the whole exchange against a real faulty upstream child (`_fault_rig`)
and keeps what every call answered; the `Then` steps judge what was kept. The splitter
scenario calls `LineSplitter` directly.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.cli import main as cli_main
from gateway.config.load import load_config
from gateway.doctor.checks import check_config
from gateway.upstream.limits import LineSplitter, Oversize
from tests._requirements import requirement
from tests.e2e._fault_rig import PING_MS, TIMEOUT_S, call, fault_gateway, upstream_pid, wait_frozen
from tests.e2e.harness import annotation_of, first_text

scenarios("upstream_faults.feature")

pytestmark = pytest.mark.e2e


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    return {"tmp": tmp_path, "config": {}, "snapshot": False}


@given("a gateway in front of the faulty upstream with a 1 s timeout and a 300 ms ping")
def _timeouts(world: dict[str, Any]) -> None:
    world["config"].update(upstream_timeout_s=TIMEOUT_S, upstream_ping_timeout_ms=PING_MS)


@given(parsers.parse("a gateway in front of the faulty upstream with max_result_bytes {limit:d}"))
def _limit(world: dict[str, Any], limit: int) -> None:
    world["config"]["max_result_bytes"] = limit


@given(parsers.parse("a gateway in front of the faulty upstream with audit_max_bytes {size:d} and audit_keep {keep:d}"))
def _rotation(world: dict[str, Any], size: int, keep: int) -> None:
    world["config"].update(audit_max_bytes=size, audit_keep=keep)


@given("a Snapshot was observed")
def _snapshot(world: dict[str, Any]) -> None:
    world["snapshot"] = True


def _run(world: dict[str, Any], script: Any) -> None:
    async def main() -> None:
        with anyio.fail_after(60):
            async with fault_gateway(world["tmp"], **world["config"]) as (app, client):
                world["pid"] = await upstream_pid(client)
                await script(app, client)
                world["next"] = first_text(await call(client, "echo", {"text": "next"}))
                world["next_pid"] = await upstream_pid(client)

    anyio.run(main)


@when("the upstream freezes and the next call is made")
def _freeze(world: dict[str, Any]) -> None:
    async def script(app: Any, client: Any) -> None:
        line = annotation_of(await call(client, "Snapshot"))
        assert line is not None
        old_obs = line.split("obs=")[1].split()[0]
        await call(client, "freeze")
        await wait_frozen(world["tmp"] / "state")
        started = time.monotonic()
        world["result"] = first_text(await call(client, "echo", {"text": "?"}))
        world["elapsed"] = time.monotonic() - started
        world["click"] = first_text(await call(client, "Click", {"loc": [10, 10], "based_on": old_obs}))

    _run(world, script)


@when("a call hangs in the upstream")
def _hang(world: dict[str, Any]) -> None:
    async def script(app: Any, client: Any) -> None:
        world["result"] = first_text(await call(client, "hang"))

    _run(world, script)


@when(parsers.parse("the upstream answers {size:d} bytes"))
def _huge(world: dict[str, Any], size: int) -> None:
    async def script(app: Any, client: Any) -> None:
        world["result"] = first_text(await call(client, "huge", {"bytes": size}))
        world["doctor"] = check_config(app.config)

    _run(world, script)


@when(parsers.parse("the upstream writes {size:d} bytes to stderr"))
def _flood(world: dict[str, Any], size: int) -> None:
    async def script(app: Any, client: Any) -> None:
        world["result"] = first_text(await call(client, "flood", {"bytes": size}))

    _run(world, script)


@then(parsers.parse('that call is "{prefix}" within the timeout and the ping deadline'))
def _hung_in_time(world: dict[str, Any], prefix: str) -> None:
    assert world["result"].startswith(prefix + ": "), world["result"]
    assert world["elapsed"] < TIMEOUT_S + PING_MS / 1000 + 1.5, world["elapsed"]


@then(parsers.parse('that call is "{prefix}"'))
def _failed(world: dict[str, Any], prefix: str) -> None:
    assert world["result"].startswith(prefix + ": "), world["result"]


@then(parsers.parse('a Click citing the old observation is "{prefix}"'))
def _stale(world: dict[str, Any], prefix: str) -> None:
    assert world["click"].startswith(prefix + ": "), world["click"]


@then("the next echo answers from a new upstream process")
def _new_process(world: dict[str, Any]) -> None:
    assert world["next"] == "next" and world["next_pid"] != world["pid"]


@then("the next echo answers from the same upstream process")
def _same_process(world: dict[str, Any]) -> None:
    assert world["next"] == "next" and world["next_pid"] == world["pid"]


@then(parsers.parse("the doctor's config check names the limit {limit:d}"))
def _doctor(world: dict[str, Any], limit: int) -> None:
    check = world["doctor"]
    assert check.data["max_result_bytes"] == limit
    assert check.summary.endswith(f"upstream answers over {limit} bytes fail") or check.findings


@then(parsers.parse('the audit records "{code}" and its chain verifies'))
def _audited(world: dict[str, Any], code: str) -> None:
    state = world["tmp"] / "state"
    lines = [json.loads(x) for x in (state / "audit.jsonl").read_text(encoding="utf-8").splitlines() if x]
    assert [e["code"] for e in lines if e.get("event") == "failure"] == [code]
    assert cli_main(["audit-report", "--state-dir", str(state), "--verify"]) == 0


@then(parsers.parse("the stderr log is {count:d} files of at most {size:d} bytes each"))
def _rotated(world: dict[str, Any], count: int, size: int) -> None:
    assert world["result"] == "flooded" and world["next"] == "next"
    files = [p for p in (world["tmp"] / "state").glob("upstream.stderr.log*") if not p.name.endswith(".lock")]
    assert len(files) == count, sorted(p.name for p in files)
    assert all(0 < p.stat().st_size <= size for p in files)


@given(parsers.parse("a line splitter with a limit of {limit:d} bytes"), target_fixture="splitter")
def _splitter(limit: int) -> LineSplitter:
    return LineSplitter(limit=limit)


@when(
    parsers.parse("messages of {a:d}, {b:d}, {c:d} and {d:d} bytes arrive in {step:d}-byte chunks"),
    target_fixture="split",
)
def _split(splitter: LineSplitter, a: int, b: int, c: int, d: int, step: int) -> tuple[list[bytes], list[Any]]:
    sent = [_message(i, size) for i, size in enumerate((a, b, c, d), start=1)]
    data = b"\n".join(sent) + b"\n"
    out: list[Any] = []
    for i in range(0, len(data), step):
        out.extend(splitter.feed(data[i : i + step]))
    return sent, out


def _message(request_id: int, size: int) -> bytes:
    frame = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {"t": ""}}).encode()
    return frame.replace(b'""', b'"' + b"x" * (size - len(frame)) + b'"')


@then("the first two come out whole and the last two as oversize with their ids and sizes")
def _split_out(split: tuple[list[bytes], list[Any]]) -> None:
    sent, out = split
    assert out[:2] == sent[:2]
    assert [(o.request_id(), o.size) for o in out[2:] if isinstance(o, Oversize)] == [
        (3, len(sent[2])),
        (4, len(sent[3])),
    ]


@requirement("S-UPS-10")
def test_the_new_keys_load_with_their_defaults() -> None:
    """S-UPS-10: max_result_bytes defaults to 64 MiB and upstream_ping_timeout_ms to 5 s."""
    config = load_config(environ={})
    assert (config.max_result_bytes, config.upstream_ping_timeout_ms) == (64 * 1024 * 1024, 5000)
