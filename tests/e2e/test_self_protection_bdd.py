"""features/self_protection.feature: nothing the agent can reach lifts the guard (issue 12 items 1–2).

The policy scenarios build the protected paths the way the gateway does at start-up
(`gateway.state.protected.resolve_protected_paths`, with Windows facts standing in for the OS)
and ask the same `RuleSet.match` the gateway asks; the last scenario goes through a whole
gateway in front of the simulator.
"""

from __future__ import annotations

import ntpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.app import SELF_COMMANDS, own_processes
from gateway.state.protected import PathFacts, resolve_protected_paths
from policy.decision import RuleHit
from policy.rules.match import RuleSet, load_rules
from tests.e2e.harness import first_text, gateway_rig
from tests.e2e.test_self_protection_e2e import spellings

scenarios("self_protection.feature")

DEFAULT_CONFIG = "C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway\\config.toml"


@dataclass
class World:
    cwd: str = ""
    state_dir: str = ""
    short_names: dict[str, str] = field(default_factory=dict)
    hit: RuleHit | None = None
    texts: list[str] = field(default_factory=list)
    side_effects: list[dict[str, Any]] = field(default_factory=list)
    allowed: int = -1

    def protected(self) -> tuple[str, ...]:
        facts = PathFacts(pathmod=ntpath, cwd=self.cwd, realpath=lambda p: p, short_name=self.short_names.get)
        state = ntpath.join(self.cwd, self.state_dir)
        own = (state, ntpath.join(state, "STOP"), ntpath.dirname(DEFAULT_CONFIG))
        return (*resolve_protected_paths(own, facts), *SELF_COMMANDS)

    def rules(self) -> RuleSet:
        return load_rules(protected_paths=self.protected())

    def call(self, tool: str, args: dict[str, object]) -> None:
        self.hit = self.rules().match(tool, args)


@pytest.fixture
def world() -> World:
    return World()


@given(parsers.parse('the gateway on Windows with its state dir "{name}" in "{cwd}"'))
def gateway_on_windows(world: World, name: str, cwd: str) -> None:
    world.cwd, world.state_dir = cwd, name


@given(parsers.parse('Windows names "{path}" "{short}"'))
def windows_short_name(world: World, path: str, short: str) -> None:
    world.short_names[path] = short


@when(parsers.parse('FileSystem writes "{path}"'))
def filesystem_writes(world: World, path: str) -> None:
    world.call("FileSystem", {"mode": "write", "path": path, "content": "enforce = false"})


@when(parsers.parse('FileSystem deletes "{path}"'))
def filesystem_deletes(world: World, path: str) -> None:
    world.call("FileSystem", {"mode": "delete", "path": path})


@when(parsers.parse('FileSystem reads "{path}"'))
def filesystem_reads(world: World, path: str) -> None:
    world.call("FileSystem", {"mode": "read", "path": path})


@when(parsers.parse('PowerShell runs "{command}"'))
def powershell_runs(world: World, command: str) -> None:
    world.call("PowerShell", {"command": command})


@when(parsers.parse('the Registry tool sets "{name}" in "{key}"'))
def registry_sets(world: World, name: str, key: str) -> None:
    world.call("Registry", {"mode": "set", "path": key, "name": name, "value": "false", "type": "String"})


@then("the call is refused as self-protection")
def refused(world: World) -> None:
    assert world.hit is not None and (world.hit.rule_id, world.hit.action) == ("self-protection", "deny"), world.hit


@then("the call is not a self-protection hit")
def not_refused(world: World) -> None:
    assert world.hit is None or world.hit.rule_id != "self-protection", world.hit


@then(parsers.parse('the protected paths include "{first}" and "{second}"'))
def protected_include(world: World, first: str, second: str) -> None:
    assert {first, second} <= set(world.protected())


@then("no protected path is relative")
def none_relative(world: World) -> None:
    paths = world.protected()[: -len(SELF_COMMANDS)]
    assert paths and all(ntpath.isabs(p) for p in paths)


# -- through the gateway ------------------------------------------------------------------------


@given(parsers.parse('a gateway in front of the simulator with its state dir at the custom name "{name}"'))
def gateway_custom_name(world: World, name: str) -> None:
    world.state_dir = name


@when("the agent tries every spelling of the config, settings, profiles, paths and links")
def tries_every_spelling(world: World, tmp_path: Path) -> None:
    async def run() -> None:
        async with gateway_rig(tmp_path, state_dir=tmp_path / world.state_dir) as rig:
            for tool, args in spellings(tmp_path, world.state_dir):
                world.texts.append(first_text(await rig.call(tool, args)))
            world.side_effects = rig.side_effects()
            world.allowed = rig.app.counters.allowed

    anyio.run(run)


@then("every one is answered DENIED SELF_PROTECTION")
def every_one_denied(world: World) -> None:
    assert len(world.texts) >= 35
    assert [t for t in world.texts if not t.startswith("DENIED SELF_PROTECTION: ")] == []


@then("the simulator's event log is empty")
def event_log_empty(world: World) -> None:
    assert world.side_effects == [] and world.allowed == 0


@given("the command rules as the gateway loads them", target_fixture="own_rules")
def _own_rules() -> RuleSet:
    return load_rules(own_processes=own_processes())


@when(
    "the agent kills the gateway's own pid, or every process named like the interpreter it runs in",
    target_fixture="own_hits",
)
def _kill_own(own_rules: RuleSet) -> list[RuleHit | None]:
    pid, interpreter = own_processes()
    return [
        own_rules.match(tool, args)
        for tool, args in (
            ("Process", {"mode": "kill", "pid": int(pid)}),
            ("PowerShell", {"command": f"Stop-Process -Id {pid} -Force"}),
            ("PowerShell", {"command": f"Get-Process {interpreter} | Stop-Process"}),
            ("Process", {"mode": "kill", "name": f"{interpreter}.exe"}),
        )
    ]


@then("each kill is denied as self-protection")
def _each_denied(own_hits: list[RuleHit | None]) -> None:
    assert [(h.rule_id, h.action) if h else None for h in own_hits] == [("self-protection", "deny")] * 4


@then("killing another process by its own name is judged as before")
def _others_as_before(own_rules: RuleSet) -> None:
    assert own_rules.match("Process", {"mode": "kill", "name": "notepad.exe"}) is None
    hit = own_rules.match("Process", {"mode": "kill", "name": "lsass.exe"})
    assert hit is not None and hit.rule_id == "kill-critical-process"
