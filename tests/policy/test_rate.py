"""The brake for runaway agents, pure (policy/rate.py and its step in policy/decide.py).

Deterministic: the clock is an argument. `Session` plays the shell's part — decide, then apply
`charged` (forwarded) or `refused` (an enforced refusal) — the way gateway/state/rate_state.py does.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from policy import Code, Decision, KillState, PolicyConfig, Verdict, decide
from policy.catalog import ToolClass
from policy.rate import (
    NOT_COUNTED,
    Brake,
    BrakeState,
    Bucket,
    RateLimits,
    brake_refusal,
    charged,
    level_at,
    levels,
    limits_of,
    observed,
    parse_rate,
    read_limits,
    refused,
)
from policy.values import Approval
from tests._requirements import requirement
from tests.policy._world import T0, TableRules, call, click, context, hit, observation, view

PERSON = KillState(engaged=True, by="person", since="2026-01-01T00:00:00.000Z", reason="stop now")


@dataclass
class Session:
    """One session's brake, driven like the shell drives it."""

    limits: RateLimits
    state: BrakeState = field(default_factory=BrakeState)
    config: PolicyConfig = field(default_factory=PolicyConfig)
    kill: KillState = field(default_factory=KillState)

    def decide(self, tool_call: object, now: float, **ctx: object) -> Decision:
        base = context(view(observation("obs-1", taken_at_ms=T0)), config=self.config, kill=self.kill, **ctx)  # type: ignore[arg-type]
        d = decide(tool_call, replace(base, brake=Brake(limits=self.limits, state=self.state)), now)  # type: ignore[arg-type]
        if not d.blocks:
            self.state = charged(self.state, self.limits, tool_call.tool, tool_call.args, now)  # type: ignore[attr-defined]
        elif d.verdict is Verdict.DENY:
            loop = dict(d.detail).get("loop", "")
            self.state = refused(self.state, tool_call.tool, d.code, loop=loop)  # type: ignore[attr-defined]
        return d


def _limits(**kw: object) -> RateLimits:
    return limits_of({"identical_calls": 0, "refusals_in_a_row": 0, **kw})


@requirement("S-RATE-01")
def test_a_burst_beyond_the_bucket_is_rate_limited_with_the_wait_to_retry() -> None:
    """S-RATE-01: 3/s lets three clicks through at once; the fourth is RATE_LIMITED, saying how long to wait."""
    s = Session(_limits(input="3/s"))
    codes = [s.decide(click(10 * i, 20), T0).code for i in range(4)]
    assert codes == [None, None, None, Code.RATE_LIMITED]
    d = s.decide(click(1, 1), T0 + 100)
    assert d.code is Code.RATE_LIMITED and d.blocks and d.spec == "S-RATE-01"
    assert "3/s" in d.reason and "rate_limits.input" in d.reason
    assert "wait at least 234 ms" in d.remedy and "Snapshot" in d.remedy  # (1 - 0.3) × 333.3 ms, rounded up
    assert dict(d.detail)["retry_after_ms"] == "234"


@requirement("S-RATE-01")
def test_each_class_has_its_own_bucket() -> None:
    """S-RATE-01: an empty input bucket does not stop a system call, nor the other way round."""
    s = Session(_limits(input="1/min", system="1/min"))
    assert s.decide(click(), T0).verdict is Verdict.ALLOW
    assert s.decide(click(5, 5), T0).code is Code.RATE_LIMITED
    assert s.decide(call("PowerShell", command="Get-Date"), T0).verdict is Verdict.ALLOW
    assert s.decide(call("PowerShell", command="Get-Date -Format o"), T0).code is Code.RATE_LIMITED


@requirement("S-RATE-01")
def test_an_allowed_unknown_tool_draws_on_the_unknown_bucket() -> None:
    """S-RATE-01: unknown_tools = "allow" lets Teleport through at the `unknown` rate, not the system one."""
    s = Session(_limits(unknown="1/h", system="100/s"), config=PolicyConfig(unknown_tools="allow"))
    assert s.decide(call("Teleport", to="moon"), T0).verdict is Verdict.ALLOW
    d = s.decide(call("Teleport", to="mars"), T0)
    assert d.code is Code.RATE_LIMITED and "unknown calls faster than 1/h" in d.reason
    assert s.decide(call("PowerShell", command="Get-Date"), T0).verdict is Verdict.ALLOW


@requirement("S-RATE-02")
def test_the_bucket_refills_with_time_up_to_the_burst() -> None:
    """S-RATE-02: after the wait the remedy named, the call passes; a long idle refills only to the burst."""
    s = Session(_limits(input="2/s"))
    s.decide(click(1, 1), T0)
    s.decide(click(2, 2), T0)
    refusal = s.decide(click(3, 3), T0)
    wait = int(dict(refusal.detail)["retry_after_ms"])
    assert wait == 500
    assert s.decide(click(3, 3), T0 + wait - 1).code is Code.RATE_LIMITED
    assert s.decide(click(3, 3), T0 + wait).verdict is Verdict.ALLOW
    assert level_at(s.state.bucket(ToolClass.INPUT), s.limits.input, T0 + 3_600_000) == 2.0  # type: ignore[arg-type]


@requirement("S-RATE-02")
def test_refusals_and_asks_spend_no_token_and_an_approved_retry_pays_once() -> None:
    """S-RATE-02: a NO_OBSERVATION refusal and an APPROVAL_REQUIRED ask cost nothing; the retry with the
    approval id is forwarded and costs the one token."""
    s = Session(_limits(system="1/h"), config=PolicyConfig(require_approval=True))
    ask = s.decide(call("PowerShell", command="Get-Date"), T0)
    assert ask.verdict is Verdict.ASK
    assert s.state.buckets == ()
    granted = Approval(
        id="apr-1",
        digest=ask.digest or "",
        tool="PowerShell",
        session="s1",
        status="approved",
        scope="once",
        created_ms=T0,
        expires_ms=T0 + 60_000,
    )
    retry = s.decide(call("PowerShell", approval_id="apr-1", command="Get-Date"), T0 + 10, approvals={"apr-1": granted})
    assert retry.verdict is Verdict.ALLOW
    assert dict(s.state.buckets)["system"].level == 0.0
    # The bucket is empty now: the next system call waits an hour's 1/1 — no second charge happened before.
    assert s.decide(call("PowerShell", command="Get-Location"), T0 + 20).code is Code.RATE_LIMITED


@requirement("S-RATE-02")
def test_a_clock_that_went_backwards_refills_nothing_and_the_level_never_goes_below_zero() -> None:
    """S-RATE-02: time running backwards is no refill; an approved call on an empty bucket floors at 0."""
    limits = _limits(input="1/s")
    state = charged(BrakeState(), limits, "Click", {"loc": [1, 1]}, T0)
    assert level_at(state.bucket(ToolClass.INPUT), limits.input, T0 - 50_000) == 0.0  # type: ignore[arg-type]
    again = charged(state, limits, "Click", {"loc": [1, 1]}, T0 - 50_000)
    assert again.bucket(ToolClass.INPUT) == Bucket(level=0.0, at_ms=T0)  # type: ignore[arg-type]


@requirement("S-RATE-03")
def test_identical_calls_in_a_row_trip_the_loop_detector_and_it_latches() -> None:
    """S-RATE-03: 3 identical clicks go through; the 4th is LOOP_DETECTED; then any braked call is, too."""
    s = Session(limits_of({"identical_calls": 3, "refusals_in_a_row": 0}))
    codes = [s.decide(click(5, 5), T0 + i).code for i in range(4)]
    assert codes == [None, None, None, Code.LOOP_DETECTED]
    assert s.decide(click(9, 9), T0 + 5).code is Code.LOOP_DETECTED  # latched: a different call too
    d = s.decide(call("PowerShell", command="Get-Date"), T0 + 6)
    assert d.code is Code.LOOP_DETECTED and d.blocks and "observes" in d.reason and "Snapshot" in d.remedy
    assert "the same call already went through 3 times in a row" in d.reason  # the latch says what it saw
    assert s.decide(call("Snapshot"), T0 + 7).verdict is Verdict.ALLOW  # observation is never braked


@requirement("S-RATE-03")
def test_a_different_call_in_between_restarts_the_identical_run() -> None:
    """S-RATE-03: A A B A A — no loop at identical_calls 2 … until the third A in a row."""
    s = Session(limits_of({"identical_calls": 2, "refusals_in_a_row": 0}))
    seq = [click(1, 1), click(1, 1), click(2, 2), click(1, 1), click(1, 1), click(1, 1)]
    assert [s.decide(c, T0 + i).code for i, c in enumerate(seq)] == [None, None, None, None, None, Code.LOOP_DETECTED]


@requirement("S-RATE-03")
def test_the_gateways_own_arguments_do_not_make_a_call_different() -> None:
    """S-RATE-03: the digest ignores based_on / approval_id (the approval digest)."""
    limits = limits_of({"identical_calls": 1, "refusals_in_a_row": 0})
    state = charged(BrakeState(), limits, "Click", {"loc": [1, 1]}, T0)
    d = brake_refusal(Brake(limits=limits, state=state), "Click", {"loc": [1, 1], "based_on": "obs-9"}, T0)
    assert d is not None and d.code is Code.LOOP_DETECTED


@requirement("S-RATE-04")
def test_refusals_in_a_row_trip_the_loop_detector() -> None:
    """S-RATE-04: three NO_OBSERVATION-free refusals (COMMAND_RULE) in a row; the fourth call is LOOP_DETECTED."""
    s = Session(limits_of({"refusals_in_a_row": 3, "identical_calls": 0}))
    rules = TableRules(rows=(("PowerShell", "remove-item", hit()),))
    codes = [
        s.decide(call("PowerShell", command=f"Remove-Item C:/x{i} -Recurse"), T0, rules=rules).code for i in range(3)
    ]
    assert codes == [Code.COMMAND_RULE] * 3
    d = s.decide(call("PowerShell", command="Get-Date"), T0, rules=rules)
    assert d.code is Code.LOOP_DETECTED and "3 calls in a row were refused" in d.reason and d.spec == "S-RATE-04"


@requirement("S-RATE-04")
def test_a_forwarded_call_ends_the_refusal_run() -> None:
    """S-RATE-04: refused, refused, allowed, refused, refused — never three in a row."""
    s = Session(limits_of({"refusals_in_a_row": 3, "identical_calls": 0}))
    rules = TableRules(rows=(("PowerShell", "remove-item", hit()),))
    bad, good = call("PowerShell", command="Remove-Item C:/x -Recurse"), call("PowerShell", command="Get-Date")
    seq = [bad, bad, good, bad, bad, good]
    assert [s.decide(c, T0, rules=rules).code for c in seq] == [Code.COMMAND_RULE] * 2 + [None] + [
        Code.COMMAND_RULE
    ] * 2 + [None]


@requirement("S-RATE-04")
@pytest.mark.parametrize("code", sorted(NOT_COUNTED, key=str), ids=str)
def test_refusals_that_do_not_count(code: Code) -> None:
    """S-RATE-04: KILLED, RATE_LIMITED, LOOP_DETECTED, asks and PROBE_PENDING never grow the refusal run."""
    state = BrakeState()
    for _ in range(5):
        state = refused(state, "Click", code)
    assert state.refusal_run == 0


@requirement("S-RATE-04")
@pytest.mark.parametrize("code", [Code.NO_OBSERVATION, Code.STALE_OBSERVATION, Code.COMMAND_RULE, Code.POLICY_ERROR])
def test_refusals_that_count(code: Code) -> None:
    """S-RATE-04: the gate's refusals of the model's calls do count."""
    assert refused(refused(BrakeState(), "Click", code), "Type", code).refusal_run == 2


@requirement("S-RATE-04")
def test_rate_limited_refusals_do_not_turn_a_throttle_into_a_loop() -> None:
    """S-RATE-04: hammering an empty bucket stays RATE_LIMITED (wait and retry), never LOOP_DETECTED."""
    s = Session(limits_of({"input": "1/s", "refusals_in_a_row": 2, "identical_calls": 0}))
    s.decide(click(1, 1), T0)
    assert [s.decide(click(2, 2), T0 + i).code for i in range(10)] == [Code.RATE_LIMITED] * 10
    assert s.decide(click(2, 2), T0 + 1000).verdict is Verdict.ALLOW


@requirement("S-RATE-05")
def test_an_observation_resets_the_loop_detector_but_buys_no_tokens() -> None:
    """S-RATE-05: after LOOP_DETECTED, `observed` lifts the latch; an empty bucket stays empty."""
    s = Session(limits_of({"input": "3/h", "identical_calls": 2, "refusals_in_a_row": 0}))
    codes = [s.decide(click(5, 5), T0).code for _ in range(3)]
    assert codes == [None, None, Code.LOOP_DETECTED]
    s.state = observed(s.state)
    assert s.state.loop == "" and s.state.identical_run == 0 and s.state.refusal_run == 0
    assert s.decide(click(5, 5), T0).verdict is Verdict.ALLOW
    assert s.decide(click(6, 6), T0).code is Code.RATE_LIMITED  # three tokens an hour, all spent


@requirement("S-RATE-06")
@pytest.mark.parametrize(
    "tool", ["Snapshot", "Screenshot", "Wait", "DisplayInventory", "Scrape", "winmcp_kill", "winmcp_state"]
)
def test_observation_read_only_and_own_tools_are_never_braked(tool: str) -> None:
    """S-RATE-06: with every bucket empty and the detector latched, these tools still pass the brake."""
    limits = limits_of(
        {"input": "1/h", "system": "1/h", "unknown": "1/h", "identical_calls": 1, "refusals_in_a_row": 1}
    )
    state = BrakeState(
        buckets=tuple((c, Bucket(level=0.0, at_ms=T0)) for c in ("input", "system", "unknown")),
        refusal_run=99,
        loop="latched",
    )
    assert brake_refusal(Brake(limits=limits, state=state), tool, {}, T0) is None
    assert charged(state, limits, tool, {}, T0) == state and refused(state, tool, Code.COMMAND_RULE) == state


@requirement("S-RATE-06")
def test_a_persons_kill_outranks_the_brake_and_costs_nothing() -> None:
    """S-RATE-06: an empty bucket and a latched loop, then a stop: the answer is KILLED, nothing counted."""
    s = Session(limits_of({"input": "1/h", "identical_calls": 0, "refusals_in_a_row": 2}))
    s.decide(click(1, 1), T0)
    assert s.decide(click(2, 2), T0).code is Code.RATE_LIMITED
    s.kill = PERSON
    before = s.state
    assert [s.decide(click(3, 3), T0).code for _ in range(5)] == [Code.KILLED] * 5
    assert s.state == before


@requirement("S-RATE-07")
@pytest.mark.parametrize(
    ("text", "count", "per_ms"),
    [
        ("10/s", 10, 1000.0),
        ("30/min", 30, 60000.0),
        ("100 per hour", 100, 3600000.0),
        (" 5 / sec ", 5, 1000.0),
        ("2/seconds", 2, 1000.0),
        ("7/h", 7, 3600000.0),
    ],
)
def test_rates_as_written(text: str, count: int, per_ms: float) -> None:
    """S-RATE-07: the accepted spellings of a rate."""
    rate = parse_rate(text)
    assert rate is not None and (rate.count, rate.per_ms) == (count, per_ms)
    assert parse_rate("OFF") is None


@requirement("S-RATE-07")
@pytest.mark.parametrize("bad", ["fast", "0/s", "10/day", "-1/s", "10001/s", "", 10, None, True, "1.5/s", "10/s/s"])
def test_an_unusable_rate_takes_its_default_and_is_named(bad: object) -> None:
    """S-RATE-07: fail closed — an unusable rate is the default (a brake that is on), with a problem naming it."""
    used, problems = read_limits({"input": bad})
    assert used["input"] == "10/s"
    assert len(problems) == 1 and problems[0].startswith("input: ") and repr(bad) in problems[0]


@requirement("S-RATE-07")
@pytest.mark.parametrize("bad", [-1, 10_001, "5", 2.5, True, None])
def test_an_unusable_count_takes_its_default(bad: object) -> None:
    """S-RATE-07: identical_calls / refusals_in_a_row must be integers 0..10000."""
    used, problems = read_limits({"identical_calls": bad, "refusals_in_a_row": bad})
    assert used["identical_calls"] == 10 and used["refusals_in_a_row"] == 10 and len(problems) == 2


@requirement("S-RATE-07")
def test_defaults_unknown_entries_and_a_table_that_is_not_one() -> None:
    """S-RATE-07: defaults 10/s, 30/min, 30/min, 10, 10; unknown entries named; a non-table uses the defaults."""
    assert limits_of({}) == RateLimits()
    used, problems = read_limits({"observe": "1/s", "system": "5/min"})
    assert used["system"] == "5/min" and problems == (
        "observe: unknown entry (one of input, system, unknown, identical_calls, refusals_in_a_row); ignored",
    )
    used, problems = read_limits("10/s")
    assert used == read_limits({})[0] and "expected a table" in problems[0]
    off = limits_of({"input": "off", "identical_calls": 0})
    assert off.input is None and off.identical_calls == 0


@requirement("S-RATE-08")
def test_levels_show_tokens_rates_and_the_detector() -> None:
    """S-RATE-08: what winmcp_state shows of the brake."""
    limits = limits_of({"input": "4/s", "system": "off"})
    state = charged(BrakeState(), limits, "Click", {"loc": [1, 1]}, T0)
    shown = levels(state, limits, T0 + 125)
    assert shown == {
        "input": {"tokens": 3.5, "rate": "4/s"},
        "system": None,
        "unknown": {"tokens": 30.0, "rate": "30/min"},
        "identical_run": 1,
        "refusal_run": 0,
        "loop": None,
    }


@requirement("S-RATE-09")
def test_a_braked_call_never_asks_a_person_nor_runs_the_rules() -> None:
    """S-RATE-09: step 3 — before the rules and the approval step."""
    s = Session(limits_of({"system": "1/h"}), config=PolicyConfig(require_approval=True))
    s.state = charged(s.state, s.limits, "PowerShell", {"command": "Get-Date"}, T0)
    rules = TableRules()
    d = s.decide(call("PowerShell", command="Get-Location"), T0, rules=rules)
    assert d.code is Code.RATE_LIMITED and d.verdict is Verdict.DENY
    assert rules.calls == []


@requirement("S-RATE-09")
def test_a_granted_approval_is_not_consumed_by_a_braked_call() -> None:
    """S-RATE-09: RATE_LIMITED carries no consumed approval; the same approval works once the bucket refills."""
    s = Session(limits_of({"system": "1/s"}), config=PolicyConfig(require_approval=True))
    s.state = charged(s.state, s.limits, "PowerShell", {"command": "Get-Date"}, T0)
    ask = decide(call("PowerShell", command="dir"), context(config=s.config), T0)
    granted = Approval(
        id="apr-2",
        digest=ask.digest or "",
        tool="PowerShell",
        session="s1",
        status="approved",
        scope="once",
        created_ms=T0,
        expires_ms=T0 + 60_000,
    )
    cited = call("PowerShell", approval_id="apr-2", command="dir")
    first = s.decide(cited, T0 + 1, approvals={"apr-2": granted})
    assert first.code is Code.RATE_LIMITED and first.approval is None
    later = s.decide(cited, T0 + 1001, approvals={"apr-2": granted})
    assert later.verdict is Verdict.ALLOW and later.approval is not None and later.approval.status == "used"


@requirement("S-RATE-09")
def test_shadow_mode_does_not_lift_the_brake() -> None:
    """S-RATE-09: RATE_LIMITED and LOOP_DETECTED are always enforced, even with enforce = false."""
    s = Session(limits_of({"input": "1/h", "identical_calls": 1}), config=PolicyConfig(enforce=False))
    assert s.decide(click(1, 1), T0).verdict is Verdict.ALLOW
    d = s.decide(click(1, 1), T0)
    assert d.code is Code.LOOP_DETECTED and d.enforced and d.blocks
    s.state = observed(s.state)
    d = s.decide(click(2, 2), T0)
    assert d.code is Code.RATE_LIMITED and d.enforced and d.blocks


@requirement("S-RATE-09")
def test_a_brake_of_the_wrong_type_is_a_policy_error() -> None:
    """S-RATE-09 (fail closed, S-DEC-05): a Context.brake that is not a Brake denies, never crashes."""
    d = decide(click(), replace(context(view(observation("obs-1"))), brake="full"), T0)  # type: ignore[arg-type]
    assert d.code is Code.POLICY_ERROR
