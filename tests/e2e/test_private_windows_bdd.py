"""features/private_windows.feature: private windows stay private (issue 15.1; S-PRIV-01..09).

The pattern scenarios ask `policy.private` and the doctor's check directly; the others run a real
`mcp` client through the gateway to the simulator and check pixels, text, the audit and the
simulator's event log (the same checks as tests/e2e/test_private_windows_e2e.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.config.load import load_config
from gateway.doctor.checks_private import check_private
from gateway.doctor.model import Verdict
from gateway.sim.scenarios.private import PRIVATE_COLORS
from policy.private import private_patterns
from tests.e2e.harness import annotation_of, first_text, gateway_rig
from tests.e2e.test_private_windows_e2e import SECRETS, colours, image_of, texts_of

pytestmark = pytest.mark.e2e

scenarios("private_windows.feature")


@dataclass
class World:
    tmp: Path
    patterns: list[str] = field(default_factory=list)
    scenario: str = "private"
    steps: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    world_ops: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    side_effects: list[dict[str, Any]] = field(default_factory=list)
    audit: str = ""
    ran: bool = False

    def run(self) -> None:
        async def go() -> None:
            async with gateway_rig(self.tmp, scenario=self.scenario) as rig:
                for index, (tool, args) in enumerate(self.steps):
                    for at, op, fields in self.world_ops:
                        if at == index:
                            rig.world(op, **fields)
                    self.results.append(await rig.call(tool, args))
                self.side_effects = rig.side_effects()
                self.audit = (rig.app.config.state_dir / "audit.jsonl").read_text(encoding="utf-8")

        if not self.ran:
            anyio.run(go)
            self.ran = True


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp=tmp_path)


@given(parsers.parse('private_windows is "{first}" and "{second}"'))
def configured(world: World, first: str, second: str) -> None:
    world.patterns = [first, second]


@given(parsers.parse('the gateway in front of the simulator\'s "{scenario}" scenario'))
def in_front_of(world: World, scenario: str) -> None:
    world.scenario = scenario


@when(parsers.parse("the client takes a {tool}"))
def takes(world: World, tool: str) -> None:
    world.steps.append((tool, {"use_vision": True} if tool == "Snapshot" else {}))


@when(parsers.parse("the client clicks at {x:d},{y:d}"))
def clicks(world: World, x: int, y: int) -> None:
    world.steps.append(("Click", {"loc": [x, y]}))


@when(parsers.parse('Notepad is renamed "{title}"'))
def renamed(world: World, title: str) -> None:
    world.world_ops.append((len(world.steps), "window", {"window": "notes.txt - Notepad", "title": title}))


@when(parsers.parse('the client types "{text}" at {x:d},{y:d}'))
def types(world: World, text: str, x: int, y: int) -> None:
    world.steps.append(("Type", {"text": text, "loc": [x, y]}))


@then(parsers.parse('the window "{title}" is private'))
def is_private(world: World, title: str) -> None:
    assert private_patterns(world.patterns).matches(title)


@then(parsers.parse('the doctor\'s private check warns about "{pattern}"'))
def doctor_warns(world: World, pattern: str) -> None:
    check = check_private(load_config(environ={}, overrides={"private_windows": world.patterns}))
    assert check.verdict is Verdict.WARNING and any(repr(pattern) in f.message for f in check.findings)


@then("no forwarded pixel has a colour of the password manager's pattern")
def no_pattern_pixel(world: World) -> None:
    world.run()
    assert not set(PRIVATE_COLORS) & colours(image_of(world.results[0]))


@then("the annotation line says masked=1")
def says_masked(world: World) -> None:
    world.run()
    assert " masked=1 " in (annotation_of(world.results[0]) or "")


@then(parsers.parse("the {what} is refused PRIVATE_WINDOW"))
def refused(world: World, what: str) -> None:
    world.run()
    assert first_text(world.results[-1]).startswith("DENIED PRIVATE_WINDOW: "), first_text(world.results[-1])


@then(parsers.parse("the simulator's event log shows no {kind}"))
def no_event(world: World, kind: str) -> None:
    world.run()
    assert world.side_effects == []


@then("neither the text nor the audit holds the password manager's title or element names")
def nothing_leaks(world: World) -> None:
    world.run()
    text = "\n".join(texts_of(r) for r in world.results)
    assert [s for s in SECRETS if s in text] == [] and [s for s in SECRETS if s in world.audit] == []
