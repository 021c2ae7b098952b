"""Binds features/gate.feature and features/fail_closed.feature to the public policy API.

Steps call the same functions the unit tests call: `decide`, `refusal_text`,
`request_approval`, `grant_approval`, `can_release`, `is_visible`. The world is rebuilt as
values from the scenario's state before every call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from pytest_bdd import given, parsers, scenarios, then, when

from policy import (
    CHAIN,
    NOT_PROBED,
    OWN_TOOLS,
    UPSTREAM_TOOLS,
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
    ensure_decision,
    grant_approval,
    is_visible,
    refusal_text,
    request_approval,
)
from policy.observation import Mapping as ImageMapping
from policy.observation import Observation
from tests.policy._world import (
    NOTEPAD,
    NOTEPAD_TREE,
    OTHER,
    SESSION,
    SETTINGS,
    T0,
    TableRules,
    call,
    hit,
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
    built: object = None  # a Decision, or the exception its construction raised (S-DEC-01)

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

    def run(self, tool_call: Any, now: float = T0 + 10) -> None:
        self.last_call = tool_call
        self.decision = decide(tool_call, self.context(), now, chain=self.chain)
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


@given("the window probe is off")
def _probe_off(world: World) -> None:
    world.config = PolicyConfig(require_process_match=False)


@given(parsers.parse("the full-tree probe sees the same window moved {dx:d} pixels right"))
def _probe_moved(world: World, dx: int) -> None:
    moved = tuple(replace(e, point=(e.point[0] + dx, e.point[1])) if e.point else e for e in NOTEPAD_TREE)
    world.probe = probe_ok(world.observations[-1].focused, tree=moved)
    world.generation += 1


@given("the full-tree probe sees the desktop unchanged")
def _probe_same(world: World) -> None:
    world.probe = probe_ok(world.observations[-1].focused, tree=NOTEPAD_TREE)
    world.generation += 1


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


# --- config, windows, mapping, shadow mode and visibility (S-FRESH-03..09, S-DEC-03/07, S-VIS-01/03)

MAPPED = ImageMapping(origin=(0.0, 0.0), scale=(1.333333, 1.333333), image_size=(1920, 1080), source_size=(2560, 1440))
ALL_TOOLS = sorted(UPSTREAM_TOOLS) + sorted(OWN_TOOLS) + ["Teleport"]
HIDING = (Code.TOOL_NOT_ALLOWED, Code.UNKNOWN_TOOL)


@given(parsers.re(r"the config sets (?P<key>\w+) = (?P<value>.+)"))
def _config_sets(world: World, key: str, value: str) -> None:
    # The value is written as in config.toml; JSON reads the same spellings (lists become tuples).
    parsed = json.loads(value)
    world.config = replace(world.config, **{key: tuple(parsed) if isinstance(parsed, list) else parsed})


@given("a session whose only observation is a Screenshot, which records no window", target_fixture="world")
def _screenshot_only() -> World:
    shot = observation("obs-1", tool="Screenshot", tree="skipped", focused=None, image_size=(1920, 1080))
    return World(observations=[shot], generation=1)


@given(
    parsers.re(r"a session whose observation obs-1 has a 1920x1080 image (?P<how>but no mapping|and its mapping)"),
    target_fixture="world",
)
def _with_image(how: str) -> World:
    mapping = MAPPED if how == "and its mapping" else None
    return World(observations=[observation("obs-1", image_size=(1920, 1080), mapping=mapping)], generation=1)


@given("a session whose observation obs-1 shows the focused window", target_fixture="world")
def _titled(docstring: str) -> World:
    return World(observations=[observation("obs-1", focused=window(docstring, 41))], generation=1)


@given(parsers.parse('a command rule "{rule_id}" denies PowerShell commands containing "{needle}"'))
def _table_rule(world: World, rule_id: str, needle: str) -> None:
    rules = world.rules if isinstance(world.rules, TableRules) else TableRules()
    rules.rows = (*rules.rows, ("PowerShell", needle, hit(rule_id, "deny")))
    world.rules = rules


@when(parsers.parse("the model calls Click at {x:d},{y:d} when obs-2 is {age:d} ms old"))
def _click_aged(world: World, x: int, y: int, age: int) -> None:
    basis = next(o for o in world.observations if o.id == "obs-2")
    world.run(call("Click", loc=[x, y]), now=basis.taken_at_ms + age)


@then("the refusal says the focused window is unknown")
def _window_unknown(world: World) -> None:
    assert world.decision is not None and "the focused window is unknown" in refusal_text(world.decision)


@then(parsers.parse("the decision warns {code:w}"))
def _warns(world: World, code: str) -> None:
    assert world.decision is not None
    assert [w.split(":")[0] for w in world.decision.warnings] == [code], world.decision.warnings


@then("the decision carries no warning")
def _no_warning(world: World) -> None:
    assert world.decision is not None and world.decision.warnings == ()


@then("the refusal is one line")
def _one_line(world: World) -> None:
    assert world.decision is not None
    text = refusal_text(world.decision)
    assert len(text.splitlines()) == 1 and "\r" not in text and "\n" not in text, text


@then(parsers.parse('the remedy says "{words}"'))
def _remedy_says(world: World, words: str) -> None:
    assert world.decision is not None and words in world.decision.remedy, world.decision


@then("the refusal's remedy is the decision's own remedy")
def _own_remedy(world: World) -> None:
    assert world.decision is not None
    text = refusal_text(world.decision)
    assert text.rsplit(" Remedy: ", 1)[1] == " ".join(world.decision.remedy.split())


@then(parsers.parse("the call would be refused with {code:w}, but it is not enforced"))
def _shadowed(world: World, code: str) -> None:
    d = world.decision
    assert d is not None and d.code is Code(code) and d.verdict is not Verdict.ALLOW, d
    assert d.enforced is False and d.blocks is False
    assert refusal_text(d).startswith(f"DENIED {code}: ")  # what the shell audits as "would deny"


def _listed(world: World) -> set[str]:
    return {name for name in ALL_TOOLS if is_visible(name, world.config)}


@then(parsers.parse("the tools listed are {first}, {second} and the gateway's own tools"))
def _listed_are(world: World, first: str, second: str) -> None:
    assert _listed(world) == {first, second, *OWN_TOOLS}


@then(parsers.parse("the tools listed are all but {first} and {second}"))
def _listed_all_but(world: World, first: str, second: str) -> None:
    assert _listed(world) == {*UPSTREAM_TOOLS, *OWN_TOOLS} - {first, second}


@then(parsers.parse('"{tool}" is listed'))
def _is_listed(world: World, tool: str) -> None:
    assert is_visible(tool, world.config)


@then(parsers.parse('"{tool}" is not listed'))
def _not_listed(world: World, tool: str) -> None:
    assert not is_visible(tool, world.config)


@then("every tool is listed exactly when a call to it is not refused for visibility")
def _list_and_call_agree(world: World) -> None:
    for name in ALL_TOOLS:
        d = decide(call(name), world.context(), T0 + 10, chain=world.chain)
        assert is_visible(name, world.config) is (d.code not in HIDING), (name, d)


# --- building decisions (S-DEC-01) ----------------------------------------------------------


def _attempt(**fields: Any) -> object:
    try:
        return Decision(**fields)
    except (TypeError, ValueError) as exc:
        return exc


def _code_of(text: str) -> object:
    # "none" is no code; a name outside the closed set is passed as the plain string it is.
    return None if text == "none" else Code[text] if text in Code.__members__ else text


@when(
    parsers.re(
        r"a decision is built with verdict (?P<verdict>\w+), code (?P<code>\w+), "
        r'reason "(?P<reason>[^"]*)", remedy "(?P<remedy>[^"]*)" and digest "(?P<digest>[^"]*)"'
    )
)
def _build(world: World, verdict: str, code: str, reason: str, remedy: str, digest: str) -> None:
    world.built = _attempt(
        verdict=Verdict[verdict], code=_code_of(code), reason=reason, remedy=remedy, digest=digest or None
    )


@when(parsers.parse("a DENY {code:w} decision is built with enforced = false"))
def _build_shadowed(world: World, code: str) -> None:
    world.built = _attempt(
        verdict=Verdict.DENY, code=Code[code], reason="the reason.", remedy="the remedy", enforced=False
    )


@then("the decision is built")
def _is_built(world: World) -> None:
    assert type(world.built) is Decision, world.built
    assert ensure_decision(world.built) is world.built  # it also passes the shape contract


@then("the decision cannot be built")
def _not_built(world: World) -> None:
    assert isinstance(world.built, TypeError | ValueError), world.built


@then("it does not block")
def _does_not_block(world: World) -> None:
    assert type(world.built) is Decision and world.built.blocks is False
