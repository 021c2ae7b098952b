"""Binds features/gate.feature and features/fail_closed.feature to the public policy API.

Steps call the same functions the unit tests call: `decide`, `refusal_text`,
`request_approval`, `grant_approval`, `can_release`. The world is rebuilt as values
from the scenario's state before every call.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pytest_bdd import given, parsers, scenarios, then, when

from policy import (
    CHAIN,
    NOT_PROBED,
    Approval,
    Code,
    Context,
    Decision,
    KillState,
    PolicyConfig,
    Probe,
    Rule,
    Verdict,
    can_release,
    decide,
    grant_approval,
    refusal_text,
    request_approval,
)
from policy.observation import Observation
from tests.policy._world import (
    NOTEPAD,
    OTHER,
    SESSION,
    SETTINGS,
    T0,
    call,
    observation,
    probe_ok,
    view,
    window,
)

scenarios("gate.feature", "fail_closed.feature")

WINDOWS = {NOTEPAD.name: NOTEPAD, SETTINGS.name: SETTINGS}


@dataclass
class World:
    observations: list[Observation] = field(default_factory=list)
    foreign: set[str] = field(default_factory=set)
    generation: int = 0
    probe: Probe = NOT_PROBED
    config: PolicyConfig = field(default_factory=PolicyConfig)
    raw_config: object = None
    kill: KillState = field(default_factory=KillState)
    approvals: dict[str, Approval] = field(default_factory=dict)
    rules: object = None
    rules_error: str | None = None
    chain: tuple[Rule, ...] = CHAIN
    decision: Decision | None = None
    last_call: Any = None

    def context(self) -> Context:
        the_view = view(
            *self.observations,
            generation=self.generation if self.observations else 0,
            probe=self.probe,
            foreign=frozenset(self.foreign),
        )
        return Context(
            config=self.raw_config if self.raw_config is not None else self.config,  # type: ignore[arg-type]
            kill=self.kill,
            view=the_view,
            approvals=dict(self.approvals),
            rules=self.rules,  # type: ignore[arg-type]
            rules_error=self.rules_error,
        )

    def run(self, tool_call: Any) -> None:
        self.last_call = tool_call
        self.decision = decide(tool_call, self.context(), T0 + 10, chain=self.chain)
        if self.decision.verdict is Verdict.ALLOW and self.decision.approval is not None:
            self.approvals[self.decision.approval.id] = self.decision.approval  # the shell persists it


@given("a session with no observation", target_fixture="world")
def _no_observation() -> World:
    return World()


@given(parsers.parse('a session with observations obs-1 and obs-2 of "{title}"'), target_fixture="world")
def _two_observations(title: str) -> World:
    w = WINDOWS[title]
    return World(
        observations=[observation("obs-1", focused=w), observation("obs-2", generation=2, focused=w)],
        generation=2,
        probe=NOT_PROBED,
    )


@given(parsers.parse('the probe sees "{title}" in front'))
def _probe(world: World, title: str) -> None:
    world.probe = probe_ok(WINDOWS[title])


@given(parsers.parse('another session owns obs-7 showing "{title}"'))
def _foreign(world: World, title: str) -> None:
    secret = observation("obs-7", session=OTHER, focused=window(title, 77))
    world.foreign.add(secret.id)


@given("another session has captured the desktop since")
def _captured(world: World) -> None:
    world.generation += 1


@given("a person engaged the kill switch", target_fixture="world")
def _killed(request: Any) -> World:
    try:
        world: World = request.getfixturevalue("world")
    except Exception:  # the scenario has no session yet
        world = World()
    world.kill = KillState(engaged=True, by="person", reason="stop")
    return world


@given("the profile is observe-only")
def _observe_only(world: World) -> None:
    world.config = replace(world.config, profile="observe-only")


@given("system tools need a person's approval", target_fixture="world")
def _approval_needed() -> World:
    return World(config=PolicyConfig(require_approval=True))


@given(parsers.parse("a policy step that returns {kind}"))
def _broken_step(world: World, kind: str) -> None:
    value = {"an empty mapping": {}, "a string": "allow", "an unknown verdict": {"verdict": "maybe"}}[kind]
    world.chain = ((lambda c, x, n: value),) + CHAIN  # type: ignore[assignment,return-value]


@given("a policy chain in which no step decides")
def _silent_chain(world: World) -> None:
    world.chain = (lambda c, x, n: None,)


@given("a policy step that raises")
def _raising_step(world: World) -> None:
    def boom(c: Any, x: Any, n: float) -> Decision | None:
        raise RuntimeError("boom")

    world.chain = (boom,) + CHAIN


class _Unreadable:
    def __getattr__(self, name: str) -> object:
        raise RuntimeError(f"cannot read {name}")


@given("a config whose values cannot be read")
def _unreadable_config(world: World) -> None:
    world.raw_config = _Unreadable()


class _RaisingRules:
    def match(self, tool: str, args: object) -> object:
        raise ValueError("rules exploded")


@given("command rules whose match raises")
def _raising_rules(world: World) -> None:
    world.rules = _RaisingRules()


@given("command rules that failed to load")
def _rules_failed(world: World) -> None:
    world.rules_error = "custom rule 2 has no pattern"


@when(parsers.parse("the model calls Click at {x:d},{y:d}"))
def _click(world: World, x: int, y: int) -> None:
    world.run(call("Click", loc=[x, y]))


@when(parsers.parse('the model calls Click at {x:d},{y:d} based on "{obs_id}"'))
def _click_based_on(world: World, x: int, y: int, obs_id: str) -> None:
    world.run(call("Click", loc=[x, y], based_on=obs_id))


@when(parsers.parse("the model clicks label {label:d}"))
def _click_label(world: World, label: int) -> None:
    world.run(call("Click", label=label))


@when(parsers.parse("the model calls {tool:w}"))
def _bare(world: World, tool: str) -> None:
    world.run(call(tool))


@when(parsers.parse('the model runs PowerShell "{command}"'))
def _powershell(world: World, command: str) -> None:
    world.run(call("PowerShell", command=command))


@when(parsers.parse('the model runs PowerShell "{command}" with approval "{approval_id}"'))
def _powershell_approved(world: World, command: str, approval_id: str) -> None:
    world.run(call("PowerShell", command=command, approval_id=approval_id))


@when(parsers.parse('a person approves "{approval_id}" once'))
def _approve(world: World, approval_id: str) -> None:
    world.approvals[approval_id] = grant_approval(
        world.approvals[approval_id], scope="once", now_ms=T0 + 20, ttl_ms=world.config.approval_ttl_ms
    )


@then("the call is allowed")
def _allowed(world: World) -> None:
    assert world.decision is not None and world.decision.verdict is Verdict.ALLOW, world.decision


@then(parsers.parse("the call is refused with {code:w}"))
def _refused(world: World, code: str) -> None:
    d = world.decision
    assert d is not None and d.blocks and d.code is Code(code), d
    assert refusal_text(d).startswith(f"DENIED {code}: ")


@then("the refusal tells the model to take a Snapshot")
def _remedy_snapshot(world: World) -> None:
    assert world.decision is not None and "Snapshot" in refusal_text(world.decision).split("Remedy:")[1]


@then(parsers.parse('the refusal does not mention "{text}"'))
def _not_mentioned(world: World, text: str) -> None:
    assert world.decision is not None and text not in refusal_text(world.decision)


@then(parsers.parse('the call asks for approval as "{approval_id}"'))
def _asks(world: World, approval_id: str) -> None:
    d = world.decision
    assert d is not None and d.verdict is Verdict.ASK
    pending, named = request_approval(approval_id, world.last_call, d, T0 + 10, world.config.approval_ttl_ms)
    world.approvals[approval_id] = pending
    assert f"winmcp-gateway approve {approval_id}" in refusal_text(named)
    assert pending.session == SESSION


@then("the model may not release the stop")
def _model_cannot(world: World) -> None:
    assert can_release(world.kill, "model") is False


@then("a person may release the stop")
def _person_can(world: World) -> None:
    assert can_release(world.kill, "person") is True
