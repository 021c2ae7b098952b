"""Step definitions binding features/config.feature (S-CFG-01 … S-CFG-08).

The steps call the same public functions the unit tests call: `load_config`,
`policy.decide` (through `PolicyConfig.from_attrs`), `gateway.config.docs.check_docs`, the
CLI's `main`, and — for what a running gateway shows (S-CFG-06, S-CFG-07) — `open_gateway`
with a real `mcp` client in front of the simulator, driven from these synchronous steps
through an anyio blocking portal.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest
from mcp import Client
from pytest_bdd import given, parsers, scenarios, then, when

import gateway.config.load as config_module
from gateway.app import open_gateway
from gateway.cli import main as cli_main
from gateway.config.docs import EXAMPLE, README, check_docs
from gateway.config.load import KEYS, GatewayConfig, load_config
from gateway.transport.server import build_server
from policy import PolicyConfig, decide
from tests.e2e.harness import Rig, first_text, sim_spec
from tests.policy._world import T0, click, context, view

scenarios("config.feature")


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config_module, "default_config_file", lambda: tmp_path / "absent.toml")


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    return {"tmp": tmp_path, "env": {}, "file": None}


@pytest.fixture
def portal_stack() -> Iterator[tuple[anyio.from_thread.BlockingPortal, contextlib.ExitStack[Any]]]:
    """A portal for the async gateway, and a stack that closes the gateway before the portal."""
    with anyio.from_thread.start_blocking_portal("asyncio") as portal, contextlib.ExitStack() as stack:
        yield portal, stack


@given(parsers.re(r'a config file saying "(?P<line>.*)"$'))
def _file(world: dict[str, Any], line: str) -> None:
    path = world["tmp"] / "config.toml"
    path.write_text(line.replace('\\"', '"') + "\n", encoding="utf-8")
    world["file"] = path


@given(parsers.re(r'the config file also says "(?P<line>.*)"$'))
def _file_more(world: dict[str, Any], line: str) -> None:
    with world["file"].open("a", encoding="utf-8") as f:
        f.write(line.replace('\\"', '"') + "\n")


@given(parsers.parse('the environment variable "{name}" is "{value}"'))
def _env(world: dict[str, Any], name: str, value: str) -> None:
    world["env"][name] = value


def _load(world: dict[str, Any], overrides: dict[str, Any] | None = None) -> None:
    world["config"] = load_config(
        environ=world["env"], config_file=world["file"], state_dir=world["tmp"] / "state", overrides=overrides
    )


@when("the gateway loads its config")
def _loads(world: dict[str, Any]) -> None:
    _load(world)


@when(parsers.parse("the gateway loads its config with the flag {name} = {value:d}"))
def _loads_flag(world: dict[str, Any], name: str, value: int) -> None:
    _load(world, {name: value})


def _tuples(value: Any) -> Any:
    # Lists in the config are tuples (frozen); a JSON list in a step means one.
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


@then(parsers.re(r'"(?P<name>\w+)" is (?P<value>true|false|\d+|\[.*\])$'))
def _value(world: dict[str, Any], name: str, value: str) -> None:
    assert getattr(world["config"], name) == _tuples(json.loads(value))


@then("there is no config warning")
def _no_warning(world: dict[str, Any]) -> None:
    assert world["config"].warnings == ()


@then(parsers.re(r"the only config warning contains (?P<parts>.+)$"))
def _warning(world: dict[str, Any], parts: str) -> None:
    (warning,) = world["config"].warnings
    for part in re.findall(r'"([^"]*)"', parts):
        assert part in warning, (part, warning)


@then(parsers.re(r'the only config warning says it received "(?P<text>.*)" from env "(?P<var>\w+)"$'))
def _env_warning(world: dict[str, Any], text: str, var: str) -> None:
    (warning,) = world["config"].warnings
    assert f"received {text!r} from env {var}" in warning, warning


def _click_blocked(config: GatewayConfig) -> bool:
    return decide(click(), context(view(), config=PolicyConfig.from_attrs(config)), T0).blocks


@then("a click without an observation is still refused")
def _refused(world: dict[str, Any]) -> None:
    assert _click_blocked(world["config"])


@then("a click without an observation is let through")
def _let_through(world: dict[str, Any]) -> None:
    assert not _click_blocked(world["config"])


@given(parsers.parse('the model with the default of "{name}" changed to {value:d}'))
def _redefault(world: dict[str, Any], name: str, value: int) -> None:
    world["keys"] = tuple(dataclasses.replace(k, default=value) if k.name == name else k for k in KEYS)


@when("the README and config.example.toml are checked against it")
def _check(world: dict[str, Any]) -> None:
    world["problems"] = check_docs(
        world["keys"], README.read_text(encoding="utf-8"), EXAMPLE.read_text(encoding="utf-8")
    )


@then(parsers.parse('both documents are reported for "{name}"'))
def _reported(world: dict[str, Any], name: str) -> None:
    for doc in ("README:", "config.example.toml:"):
        assert any(p.startswith(doc) and repr(name) in p for p in world["problems"]), world["problems"]


# -- S-CFG-06: config warnings are visible at every start; S-CFG-07: shadow mode ----------------
@when(parsers.parse('the CLI runs "{command}" with that config file'))
def _cli(
    world: dict[str, Any], command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _load(world)
    monkeypatch.setenv("WINMCP_GATEWAY_CONFIG", str(world["file"]))
    world["rc"] = cli_main([*command.split(), "--state-dir", str(world["tmp"] / "state")])
    world["out"], world["err"] = capsys.readouterr()


@then(parsers.parse('stderr has one "{prefix}" line per config warning'))
def _stderr_lines(world: dict[str, Any], prefix: str) -> None:
    lines = [line for line in world["err"].splitlines() if line.startswith(prefix)]
    assert world["config"].warnings and lines == [f"winmcp-gateway: warning: {w}" for w in world["config"].warnings]
    world["stderr_warnings"] = lines


@then(parsers.parse('the first stderr warning names "{first}" and "{second}"'))
def _stderr_names(world: dict[str, Any], first: str, second: str) -> None:
    assert first in world["stderr_warnings"][0] and second in world["stderr_warnings"][0]


@then("stdout is only the kill switch status")
def _stdout_clean(world: dict[str, Any]) -> None:
    # `kill status` speaks prose (S-CLI-43): one sentence, no warning mixed in.
    assert world["rc"] == 0 and world["out"].splitlines() == [world["out"].strip()]
    assert world["out"].startswith("kill switch not engaged")


@contextlib.asynccontextmanager
async def _gateway(tmp: Path, config: GatewayConfig) -> AsyncIterator[Rig]:
    spec, event_log, control = sim_spec(tmp, "default")
    async with open_gateway(config, spec) as app, Client(build_server(app)) as client:
        yield Rig(app=app, client=client, tmp=tmp, event_log=event_log, control=control)


@when("a gateway starts with that config in front of the simulated desktop")
def _start(
    world: dict[str, Any],
    portal_stack: tuple[anyio.from_thread.BlockingPortal, contextlib.ExitStack[Any]],
) -> None:
    _load(world)
    portal, stack = portal_stack
    world["portal"] = portal
    world["rig"] = stack.enter_context(portal.wrap_async_context_manager(_gateway(world["tmp"], world["config"])))


def _call(world: dict[str, Any], name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    result: dict[str, Any] = world["portal"].call(world["rig"].call, name, args)
    return result


def _doctor_check(world: dict[str, Any], cid: str) -> dict[str, Any]:
    doctor = _call(world, "winmcp_doctor")
    return next(c for c in doctor["structuredContent"]["checks"] if c["id"] == cid)


@then(parsers.parse("there are {count:d} config warnings"))
def _count(world: dict[str, Any], count: int) -> None:
    assert len(world["config"].warnings) == count, world["config"].warnings


@then(parsers.parse('the audit has one "{event}" event per config warning, in order'))
def _audited(world: dict[str, Any], event: str) -> None:
    reasons = [e["reason"] for e in world["rig"].audit_lines() if e["event"] == event]
    assert reasons == list(world["config"].warnings)


@then(parsers.parse('winmcp_state lists the config warnings as "{field}" and in its text'))
def _state_lists(world: dict[str, Any], field: str) -> None:
    state = _call(world, "winmcp_state")
    assert state["structuredContent"][field] == list(world["config"].warnings)
    assert all(w in first_text(state) for w in world["config"].warnings)


@then(parsers.parse('the doctor\'s "{cid}" check is WARNING with exactly the config warnings as findings'))
def _doctor_lists(world: dict[str, Any], cid: str) -> None:
    check = _doctor_check(world, cid)
    assert check["verdict"] == "WARNING"
    assert [(f["verdict"], f["message"]) for f in check["findings"]] == [
        ("WARNING", w) for w in world["config"].warnings
    ]


@when(parsers.parse("the client clicks at {x:d}, {y:d} without an observation"))
def _click(world: dict[str, Any], x: int, y: int) -> None:
    world["result"] = _call(world, "Click", {"loc": [x, y]})


@when("the kill switch is engaged")
def _kill(world: dict[str, Any]) -> None:
    world["rig"].app.kill.engage(by="person", reason="scenario")


@then("the result is not an error")
def _not_error(world: dict[str, Any]) -> None:
    assert world["result"]["isError"] is False, world["result"]


@then(parsers.parse('the result is an error starting "{prefix}"'))
def _error(world: dict[str, Any], prefix: str) -> None:
    assert world["result"]["isError"] is True and first_text(world["result"]).startswith(prefix)


@then("the click reached the simulated desktop")
def _reached(world: dict[str, Any]) -> None:
    assert [e["kind"] for e in world["rig"].side_effects()] == ["click"]


@then("nothing reached the simulated desktop")
def _nothing(world: dict[str, Any]) -> None:
    assert world["rig"].side_effects() == []


@then(parsers.parse('the result carries one note starting "{prefix}"'))
def _note(world: dict[str, Any], prefix: str) -> None:
    texts = [c["text"] for c in world["result"]["content"] if c.get("type") == "text"]
    assert len([t for t in texts if t.startswith(prefix)]) == 1, texts
    assert len([t for t in texts if "SHADOW MODE" in t]) == 1, texts


@then(parsers.parse('the audit\'s "{event}" event for the click records would "{would}" and code "{code}"'))
def _would(world: dict[str, Any], event: str, would: str, code: str) -> None:
    events = [e for e in world["rig"].audit_lines() if e["event"] == event and e.get("tool") == "Click"]
    assert [(e.get("would"), e.get("code")) for e in events] == [(would, code)], events


@then(parsers.parse('the doctor\'s "{cid}" check has a WARNING finding containing "{text}"'))
def _doctor_finding(world: dict[str, Any], cid: str, text: str) -> None:
    check = _doctor_check(world, cid)
    assert any(f["verdict"] == "WARNING" and text in f["message"] for f in check["findings"]), check
