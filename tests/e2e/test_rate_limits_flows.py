"""The brake's end-to-end exchanges, shared by tests/e2e/test_rate_limits_e2e.py and the BDD binding.

A real `mcp` client ⇄ the gateway ⇄ the simulator, with the limits read from a config FILE (the
way a person sets them) and the gateway's clock injected, so "after time" is exact: nothing here
sleeps. The simulator's event log says what reached the desktop; the audit file what was refused.
No test functions live here (pytest collects the module and finds none).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import Client

from gateway.app import open_gateway
from gateway.cli import main as cli_main
from gateway.config.load import load_config
from gateway.transport.server import build_server
from tests.e2e.harness import Rig, first_text, in_process_sim, sim_spec

T0_S = 1_800_000_000.0  # the injected clock's start (seconds since the epoch)
POINT = [800, 520]  # inside Notepad's text area in the default scenario


@dataclass
class FakeClock:
    """The gateway's clock (seconds); tests move it forward."""

    now: float = T0_S

    def __call__(self) -> float:
        return self.now

    def advance_ms(self, ms: float) -> None:
        self.now += ms / 1000.0


def write_config(tmp: Path, table: str) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "config.toml"
    path.write_text(f"rate_limits = {table}\n", encoding="utf-8")
    return path


@contextlib.asynccontextmanager
async def rate_rig(tmp: Path, table: str, clock: FakeClock) -> AsyncIterator[Rig]:
    """client ⇄ gateway (config file `rate_limits = table`, injected clock) ⇄ in-process simulator."""
    config_file = write_config(tmp, table)
    cfg = load_config(environ={}, config_file=config_file, state_dir=tmp / "state")
    assert cfg.warnings == (), cfg.warnings
    spec, event_log, control = sim_spec(tmp, "default")
    async with (
        open_gateway(cfg, spec, connector=in_process_sim(spec.argv), clock=clock) as app,
        Client(build_server(app)) as client,
    ):
        yield Rig(app=app, client=client, tmp=tmp, event_log=event_log, control=control)


def code_of(result: dict[str, Any]) -> str:
    """`RATE_LIMITED` for a refusal `DENIED RATE_LIMITED: …`, "ok" for a result that is not an error."""
    text = first_text(result)
    if not result.get("isError"):
        return "ok"
    return text.split(":", 1)[0].removeprefix("DENIED ").strip()


def clicks(rig: Rig) -> list[list[int]]:
    return [list(e.get("screen_point") or []) for e in rig.side_effects() if e.get("kind") == "click"]


async def snapshot(rig: Rig) -> str:
    result = await rig.call("Snapshot", {"use_vision": False})
    assert not result.get("isError"), first_text(result)
    return _obs_id(result)


def _obs_id(result: dict[str, Any]) -> str:
    for item in result.get("content", []):
        text = str(item.get("text", ""))
        if text.startswith("[gateway] obs="):
            return text.split()[1].removeprefix("obs=")
    raise AssertionError("no annotation line")


async def click(rig: Rig, point: list[int], obs: str) -> str:
    return code_of(await rig.call("Click", {"loc": point, "based_on": obs}))


def denials(rig: Rig) -> list[str]:
    return [str(line.get("code")) for line in rig.audit_lines() if line.get("event") == "deny"]


async def burst_flow(tmp: Path) -> dict[str, Any]:
    """input = 3/min: three clicks, the fourth RATE_LIMITED; 20 s later one more passes (S-RATE-01, -02)."""
    clock = FakeClock()
    async with rate_rig(tmp, '{ input = "3/min" }', clock) as rig:
        obs = await snapshot(rig)
        codes = [await click(rig, [POINT[0] + 10 * i, POINT[1]], obs) for i in range(4)]
        refusal = first_text(await rig.call("Click", {"loc": POINT, "based_on": obs}))
        clicks_before = len(clicks(rig))
        state = (await rig.call("winmcp_state", {}))["structuredContent"]["brake"]
        clock.advance_ms(19_999)
        early = await click(rig, POINT, obs)
        clock.advance_ms(1)
        late = await click(rig, POINT, obs)
        return {
            "codes": codes,
            "refusal": refusal,
            "clicks_before": clicks_before,
            "state": state,
            "early": early,
            "late": late,
            "clicks_after": len(clicks(rig)),
            "denials": denials(rig),
        }


async def identical_flow(tmp: Path) -> dict[str, Any]:
    """identical_calls = 3: the same click three times, the fourth LOOP_DETECTED, latched; a Snapshot lifts it."""
    clock = FakeClock()
    async with rate_rig(tmp, "{ identical_calls = 3 }", clock) as rig:
        obs = await snapshot(rig)
        codes = [await click(rig, POINT, obs) for _ in range(4)]
        other = await click(rig, [POINT[0] + 40, POINT[1]], obs)
        typed = code_of(await rig.call("Type", {"loc": POINT, "text": "hello", "based_on": obs}))
        clicks_latched = len(clicks(rig))
        state = (await rig.call("winmcp_state", {}))["structuredContent"]["brake"]
        fresh = await snapshot(rig)
        after = await click(rig, POINT, fresh)
        return {
            "codes": codes,
            "other": other,
            "typed": typed,
            "clicks_latched": clicks_latched,
            "state": state,
            "after": after,
            "clicks_after": len(clicks(rig)),
            "denials": denials(rig),
        }


async def refusals_flow(tmp: Path) -> dict[str, Any]:
    """refusals_in_a_row = 4: four NO_OBSERVATION clicks, the fifth LOOP_DETECTED; a Snapshot lifts it."""
    clock = FakeClock()
    async with rate_rig(tmp, "{ refusals_in_a_row = 4 }", clock) as rig:
        codes = [code_of(await rig.call("Click", {"loc": POINT})) for _ in range(5)]
        obs = await snapshot(rig)
        after = await click(rig, POINT, obs)
        return {"codes": codes, "after": after, "clicks": len(clicks(rig)), "denials": denials(rig)}


async def kill_flow(tmp: Path) -> dict[str, Any]:
    """An empty bucket, then a person's `winmcp-gateway kill engage`: KILLED wins; after release, RATE_LIMITED."""
    clock = FakeClock()
    async with rate_rig(tmp, '{ input = "1/min", refusals_in_a_row = 2 }', clock) as rig:
        state_dir = str(rig.app.config.state_dir)
        obs = await snapshot(rig)
        first = await click(rig, POINT, obs)
        limited = await click(rig, POINT, obs)
        assert cli_main(["kill", "engage", "--state-dir", state_dir, "--reason", "person says stop"]) == 0
        killed = [await click(rig, POINT, obs) for _ in range(3)]
        assert cli_main(["kill", "release", "--state-dir", state_dir]) == 0
        # Neither RATE_LIMITED nor KILLED counts as a refusal in a row: still a throttle, not a loop.
        after_release = await click(rig, POINT, obs)
        clock.advance_ms(60_000)
        obs = await snapshot(rig)
        later = await click(rig, POINT, obs)
        return {
            "first": first,
            "limited": limited,
            "killed": killed,
            "after_release": after_release,
            "later": later,
            "clicks": len(clicks(rig)),
        }


async def malformed_flow(tmp: Path) -> dict[str, Any]:
    """refusals_in_a_row = 2: three malformed clicks (BAD_ARGUMENTS, refused before the chain) are no loop."""
    clock = FakeClock()
    async with rate_rig(tmp, "{ refusals_in_a_row = 2 }", clock) as rig:
        obs = await snapshot(rig)
        bad = [code_of(await rig.call("Click", {"loc": "nowhere", "based_on": obs})) for _ in range(3)]
        good = await click(rig, POINT, obs)
        return {"bad": bad, "good": good, "clicks": len(clicks(rig))}
