"""The decision chain: order, command rules, shadow mode, and failing closed (S-DEC-04..07)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from policy import (
    CHAIN,
    NOT_PROBED,
    Code,
    Context,
    Decision,
    KillState,
    PolicyConfig,
    Verdict,
    decide,
    refusal_text,
)
from policy.decide import (
    allow_call,
    check_allowed_window,
    check_approval,
    check_brake,
    check_command_rules,
    check_input_freshness,
)
from policy.kill import check_kill
from policy.private import check_private_window
from policy.visibility import check_visibility
from tests._requirements import requirement
from tests.policy._world import (
    SETTINGS,
    T0,
    TableRules,
    call,
    click,
    context,
    hit,
    observation,
    probe_ok,
    view,
)

FRESH = view(observation("obs-1"))
KILLED = KillState(engaged=True, by="person")
RM = TableRules(rows=(("PowerShell", "remove-item -recurse", hit("recursive-delete", "deny")),))
RM_CALL = call("PowerShell", command="Remove-Item -Recurse C:/data")


@requirement("S-DEC-04")
def test_the_chain_is_the_designed_table_in_the_designed_order() -> None:
    """S-DEC-04: kill → visibility → brake → command rules → private windows → approval → freshness → window → allow."""
    assert (
        check_kill,
        check_visibility,
        check_brake,
        check_command_rules,
        check_private_window,
        check_approval,
        check_input_freshness,
        check_allowed_window,
        allow_call,
    ) == CHAIN


@requirement("S-DEC-04")
@pytest.mark.parametrize(
    ("tool_call", "ctx", "expected"),
    [
        # each row satisfies two steps' refusal conditions; the earlier step must win
        (click(), context(view(), kill=KILLED, config=PolicyConfig(tools_deny=("Click",))), Code.KILLED),
        (
            RM_CALL,
            context(FRESH, rules=RM, config=PolicyConfig(tools_deny=("PowerShell",))),
            Code.TOOL_NOT_ALLOWED,
        ),
        (RM_CALL, context(FRESH, rules=RM, config=PolicyConfig(require_approval=True)), Code.COMMAND_RULE),
        (
            click(),
            context(view(), config=PolicyConfig(require_approval_for_input=True)),
            Code.APPROVAL_REQUIRED,
        ),
        (
            click(),
            context(
                view(observation("obs-1"), probe=probe_ok(SETTINGS)),
                config=PolicyConfig(allowed_windows=("x",)),
            ),
            Code.PROCESS_CHANGED,
        ),
        (
            click(),
            context(FRESH, config=PolicyConfig(allowed_windows=("Settings",))),
            Code.WINDOW_NOT_ALLOWED,
        ),
        (click(), context(FRESH), None),
    ],
)
def test_the_first_refusal_in_chain_order_wins(tool_call: object, ctx: Context, expected: Code | None) -> None:
    """S-DEC-04: when two steps would refuse, the earlier one decides; ALLOW only when all pass."""
    d = decide(tool_call, ctx, T0)  # type: ignore[arg-type]
    assert d.code is expected
    assert (d.verdict is Verdict.ALLOW) is (expected is None)


@requirement("S-DEC-04")
def test_a_chain_that_decides_nothing_denies() -> None:
    """S-DEC-04: falling off the end of the chain is a denial, not an allow."""
    assert decide(click(), context(FRESH), T0, chain=()).code is Code.POLICY_ERROR
    assert decide(click(), context(FRESH), T0, chain=(lambda c, x, n: None,)).code is Code.POLICY_ERROR


def _raises(c: object, x: object, n: float) -> Decision | None:
    raise RuntimeError("boom in a rule")


@dataclass(frozen=True)
class LookAlikeAllow:
    """Quacks like an enforced ALLOW (verdict, code, blocks) but is not a Decision."""

    verdict: Verdict = Verdict.ALLOW
    code: None = None
    enforced: bool = True
    blocks: bool = False
    warnings: tuple[str, ...] = ()


@dataclass
class RaisingConfig:
    """A config whose `enforce` cannot be read (like a property that raises)."""

    @property
    def enforce(self) -> bool:
        raise KeyError("enforce")

    def __getattr__(self, name: str) -> object:
        return getattr(PolicyConfig(), name)


@dataclass
class OddConfig:
    """A config that says require_observation = "no" (a string, not a bool)."""

    require_observation: object = "no"

    def __getattr__(self, name: str) -> object:
        return getattr(PolicyConfig(), name)


class RaisingRules:
    def match(self, tool: str, args: object) -> object:
        raise ValueError("rules exploded")


class OddRules:
    def match(self, tool: str, args: object) -> object:
        return {"rule_id": "x", "action": "deny"}


@requirement("S-DEC-05")
@pytest.mark.parametrize(
    ("tool_call", "ctx", "now", "chain"),
    [
        pytest.param(click(), context(FRESH), T0, (_raises,) + CHAIN, id="rule-raises"),
        pytest.param(click(), context(FRESH), T0, (lambda c, x, n: {},), id="rule-returns-empty-dict"),
        pytest.param(click(), context(FRESH), T0, (lambda c, x, n: "allow",), id="rule-returns-string"),
        pytest.param(click(), context(FRESH), T0, (lambda c, x, n: {"verdict": "maybe"},), id="unknown-verdict"),
        pytest.param(click(), context(FRESH), T0, (lambda c, x, n: LookAlikeAllow(),), id="look-alike-allow"),
        pytest.param(
            click(),
            Context(config=RaisingConfig(), view=FRESH),
            T0,
            CHAIN,
            id="config-property-raises",  # type: ignore[arg-type]
        ),
        pytest.param(
            click(),
            Context(config=OddConfig(), view=FRESH),
            T0,
            CHAIN,
            id="config-value-of-wrong-type",  # type: ignore[arg-type]
        ),
        pytest.param(RM_CALL, context(FRESH, rules=RaisingRules()), T0, CHAIN, id="rules-match-raises"),
        pytest.param(RM_CALL, context(FRESH, rules=OddRules()), T0, CHAIN, id="rules-match-returns-dict"),
        pytest.param(click(), context(FRESH), math.nan, CHAIN, id="clock-nan"),
        pytest.param(click(), context(FRESH), math.inf, CHAIN, id="clock-inf"),
        pytest.param(click(), context(FRESH), "1000", CHAIN, id="clock-string"),
        pytest.param(click(), context(FRESH), True, CHAIN, id="clock-bool"),
        pytest.param({"tool": "Click"}, context(FRESH), T0, CHAIN, id="call-is-a-dict"),
        pytest.param(click(), None, T0, CHAIN, id="context-is-None"),
        pytest.param(
            click(),
            Context(config=PolicyConfig(), view=FRESH, kill={"engaged": False}),
            T0,
            CHAIN,  # type: ignore[arg-type]
            id="kill-is-a-dict",
        ),
        pytest.param(click(), Context(config=PolicyConfig(), view="obs-1"), T0, CHAIN, id="view-is-a-string"),  # type: ignore[arg-type]
        pytest.param(
            call("PowerShell", command="x"),
            Context(config=PolicyConfig(require_approval=True), view=FRESH, approvals=None),  # type: ignore[arg-type]
            T0,
            CHAIN,
            id="approvals-is-None",
        ),
    ],
)
def test_any_fault_in_the_policy_is_a_policy_error_denial(
    tool_call: object, ctx: object, now: object, chain: tuple[object, ...]
) -> None:
    """S-DEC-05: exceptions and odd values anywhere become DENY POLICY_ERROR; decide never raises."""
    d = decide(tool_call, ctx, now, chain=chain)  # type: ignore[arg-type]
    assert type(d) is Decision
    assert d.verdict is Verdict.DENY and d.code is Code.POLICY_ERROR and d.enforced
    assert refusal_text(d).startswith("DENIED POLICY_ERROR: ")


@requirement("S-DEC-05")
def test_a_raising_config_is_a_denial_for_observation_too() -> None:
    """S-DEC-05: when the config cannot be read nothing is known, so even Snapshot is refused."""
    d = decide(call("Snapshot"), Context(config=RaisingConfig(), view=FRESH), T0)  # type: ignore[arg-type]
    assert d.code is Code.POLICY_ERROR and "enforce" in d.reason


@requirement("S-DEC-06", "S-DEC-07")
@pytest.mark.parametrize("action", ["deny", "ask"])
@pytest.mark.parametrize("rule_id", ["self-protection", "self-protection-stop-file"])
def test_a_self_protection_hit_is_always_refused(action: str, rule_id: str) -> None:
    """S-DEC-06: a self-protection hit is SELF_PROTECTION, never asked, never shadowed."""
    rules = TableRules(rows=(("FileSystem", "stop", hit(rule_id, action)),))
    c = call("FileSystem", mode="delete", path="C:/Users/demo/AppData/Local/winmcp-gateway/STOP")
    for cfg in (PolicyConfig(), PolicyConfig(enforce=False), PolicyConfig(require_approval=True)):
        d = decide(c, context(FRESH, rules=rules, config=cfg), T0)
        assert d.code is Code.SELF_PROTECTION and d.blocks and d.rule_id == rule_id


@requirement("S-DEC-06")
def test_a_deny_rule_refuses_with_command_rule_naming_the_rule() -> None:
    """S-DEC-06: the refusal carries the rule id, its risk and reason."""
    d = decide(RM_CALL, context(FRESH, rules=RM), T0)
    assert d.code is Code.COMMAND_RULE and d.rule_id == "recursive-delete"
    assert "recursive-delete" in refusal_text(d) and "data loss" in d.reason
    assert decide(call("PowerShell", command="Get-Date"), context(FRESH, rules=RM), T0).verdict is Verdict.ALLOW


@requirement("S-DEC-06")
@pytest.mark.parametrize(
    ("tool_call", "expected"),
    [
        (call("Snapshot"), None),
        (call("Screenshot"), None),
        (call("WaitFor", condition="text", text="x"), None),
        (call("winmcp_state"), None),
        (call("winmcp_kill", action="engage"), None),
        (click(), Code.POLICY_ERROR),
        (call("PowerShell", command="Get-Date"), Code.POLICY_ERROR),
        (call("Notification", title="t", message="m", app_id="a"), Code.POLICY_ERROR),
        (call("Scrape", url="https://example.com"), Code.POLICY_ERROR),
    ],
)
def test_rules_that_failed_to_load_refuse_everything_but_observation(tool_call: object, expected: Code | None) -> None:
    """S-DEC-06: rules_error → POLICY_ERROR naming the error; observation and own tools still work."""
    d = decide(tool_call, context(FRESH, rules_error="custom rule 3: pattern is empty"), T0)  # type: ignore[arg-type]
    assert d.code is expected
    if expected is not None:
        assert "pattern is empty" in d.reason


@requirement("S-DEC-06")
def test_observation_does_not_depend_on_the_rules_object() -> None:
    """S-DEC-06: observation and own tools never consult the rules, so raising rules cannot stop them."""
    for name in ("Snapshot", "Screenshot", "ControlStatus", "winmcp_state"):
        assert decide(call(name), context(FRESH, rules=RaisingRules()), T0).verdict is Verdict.ALLOW
    seen = TableRules()
    decide(call("Snapshot"), context(FRESH, rules=seen), T0)
    decide(click(), context(FRESH, rules=seen), T0)
    assert "Snapshot" not in seen.calls and "Click" in seen.calls


@requirement("S-DEC-07")
@pytest.mark.parametrize(
    ("tool_call", "ctx", "code", "shadowed"),
    [
        (click(), context(view()), Code.NO_OBSERVATION, True),
        (click(based_on="obs-9"), context(FRESH), Code.UNKNOWN_OBSERVATION, True),
        (click(), context(view(observation("obs-1"), probe=probe_ok(SETTINGS))), Code.PROCESS_CHANGED, True),
        (RM_CALL, context(FRESH, rules=RM), Code.COMMAND_RULE, True),
        (click(), context(FRESH, kill=KILLED), Code.KILLED, False),
        (call("Teleport"), context(FRESH), Code.UNKNOWN_TOOL, False),
        (click(), context(view(observation("obs-1"), probe=NOT_PROBED)), Code.POLICY_ERROR, False),
    ],
)
def test_shadow_mode_reports_gate_refusals_without_enforcing_them(
    tool_call: object, ctx: Context, code: Code, shadowed: bool
) -> None:
    """S-DEC-07: enforce=false marks shadowable refusals enforced=False; the rest stay enforced."""
    shadow_ctx = Context(
        config=PolicyConfig(enforce=False),
        kill=ctx.kill,
        view=ctx.view,
        rules=ctx.rules,
        rules_error=ctx.rules_error,
    )
    enforced = decide(tool_call, ctx, T0)  # type: ignore[arg-type]
    shadow = decide(tool_call, shadow_ctx, T0)  # type: ignore[arg-type]
    assert enforced.code is code and enforced.enforced and enforced.blocks
    assert shadow.code is code and shadow.verdict is enforced.verdict
    assert shadow.enforced is (not shadowed) and shadow.blocks is (not shadowed)
