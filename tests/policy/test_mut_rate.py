"""The brake's edges that policy/rate.py's mutation run found unpinned (issue 12).

What the model is told when braked, what the operator is told when the config is unusable, the
exact bounds of a rate and a count, and how the loop detector's latch and its reset behave.
Pure and deterministic, like tests/policy/test_rate.py: the clock is an argument.
"""

from __future__ import annotations

import math

import pytest

from policy import Code
from policy.catalog import ToolClass
from policy.rate import (
    MAX_COUNT,
    Brake,
    BrakeState,
    Rate,
    RateLimits,
    brake_refusal,
    charged,
    describe_rate,
    levels,
    limits_of,
    observed,
    parse_rate,
    read_limits,
    refused,
)
from tests._requirements import requirement
from tests.policy._world import T0

CLICK = {"loc": [1, 1]}


# --- what the model is told (S-RATE-01, S-RATE-03) ---------------------------------------------


@requirement("S-RATE-01")
def test_a_rate_limited_refusal_names_the_rate_in_its_detail_and_why_to_look() -> None:
    """S-RATE-01: the detail carries the rate actually applied; the remedy says why a burst is suspect."""
    limits = limits_of({"input": "3/s", "identical_calls": 0, "refusals_in_a_row": 0})
    state = BrakeState()
    for _ in range(3):
        state = charged(state, limits, "Click", CLICK, T0)
    d = brake_refusal(Brake(limits=limits, state=state), "Click", CLICK, T0)
    assert d is not None and d.code is Code.RATE_LIMITED
    assert d.detail == (("retry_after_ms", "334"), ("rate", "3/s"))
    assert d.remedy.endswith("a burst of actions without looking is usually a sign that they do not do what you expect")


@requirement("S-RATE-03")
def test_a_loop_refusal_says_every_braked_call_waits_for_an_observation() -> None:
    """S-RATE-03: the reason tells the model the latch holds until it observes."""
    limits = limits_of({"identical_calls": 1, "refusals_in_a_row": 0})
    state = charged(BrakeState(), limits, "Click", CLICK, T0)
    d = brake_refusal(Brake(limits=limits, state=state), "Click", CLICK, T0)
    assert d is not None and d.code is Code.LOOP_DETECTED
    assert d.reason.endswith("Every input and system call of this session is refused until it observes.")


# --- the latch (S-RATE-03) and its reset (S-RATE-05) --------------------------------------------


@requirement("S-RATE-03")
def test_a_latched_detector_keeps_the_reason_it_first_saw() -> None:
    """S-RATE-03: a later LOOP_DETECTED refusal does not overwrite what tripped the latch."""
    first = refused(BrakeState(), "Click", Code.LOOP_DETECTED, loop="the same call went through 10 times")
    again = refused(first, "Type", Code.LOOP_DETECTED, loop="12 calls in a row were refused")
    assert again == first and again.loop == "the same call went through 10 times"


@requirement("S-RATE-03")
def test_a_loop_refusal_without_a_reason_still_latches_with_a_plain_one() -> None:
    """S-RATE-03: with no `loop` text given, the latch says where it came from (and winmcp_state shows it)."""
    state = refused(BrakeState(), "Click", Code.LOOP_DETECTED)
    assert state.loop == "an earlier call was refused LOOP_DETECTED"
    assert levels(state, RateLimits(), T0)["loop"] == "an earlier call was refused LOOP_DETECTED"
    d = brake_refusal(Brake(limits=RateLimits(), state=state), "Click", CLICK, T0)
    assert d is not None and d.code is Code.LOOP_DETECTED and dict(d.detail)["loop"] == state.loop


@requirement("S-RATE-05")
def test_an_observation_restarts_the_refusal_run() -> None:
    """S-RATE-05: refusals before an observation do not add up with refusals after it."""
    limits = limits_of({"identical_calls": 0, "refusals_in_a_row": 2})
    state = refused(refused(BrakeState(), "Click", Code.COMMAND_RULE), "Click", Code.COMMAND_RULE)
    assert brake_refusal(Brake(limits=limits, state=state), "Click", CLICK, T0) is not None  # tripped
    state = refused(observed(state), "Click", Code.COMMAND_RULE)
    assert state.refusal_run == 1
    assert brake_refusal(Brake(limits=limits, state=state), "Click", CLICK, T0) is None


# --- what winmcp_state and the doctor show (S-RATE-08) ------------------------------------------


@requirement("S-RATE-08")
def test_levels_show_tokens_to_three_decimals_and_the_latch() -> None:
    """S-RATE-08: a third of a token shows as 0.333; a latched detector shows what it saw."""
    limits = limits_of({"input": "1/min"})
    state = charged(BrakeState(), limits, "Click", CLICK, T0)
    state = refused(state, "Click", Code.LOOP_DETECTED, loop="latched by the test")
    shown = levels(state, limits, T0 + 20_000)
    assert shown["input"] == {"tokens": 0.333, "rate": "1/min"}
    assert shown["loop"] == "latched by the test"


@requirement("S-RATE-08")
def test_a_rate_is_described_as_written_and_off_as_off() -> None:
    """S-RATE-08: the doctor's summary: "off" for no limit; a period that is no config unit in ms."""
    assert describe_rate(limits_of({"input": "off"}).input) == "off"
    assert describe_rate(parse_rate("30/min")) == "30/min"
    assert describe_rate(Rate(count=5, per_ms=250.0)) == "5/250 ms"


# --- the bounds of the config (S-RATE-07) -------------------------------------------------------


@requirement("S-RATE-07")
def test_the_largest_count_is_accepted_everywhere() -> None:
    """S-RATE-07: 10000 is inside 1..10000 and 0..10000; one more is not."""
    rate = parse_rate(f"{MAX_COUNT}/s")
    assert rate == Rate(count=MAX_COUNT, per_ms=1000.0)
    used, problems = read_limits({"identical_calls": MAX_COUNT, "refusals_in_a_row": MAX_COUNT})
    assert problems == () and used["identical_calls"] == used["refusals_in_a_row"] == MAX_COUNT
    limits = RateLimits(identical_calls=MAX_COUNT, refusals_in_a_row=MAX_COUNT)
    assert limits.identical_calls == MAX_COUNT
    with pytest.raises(ValueError, match="10001"):
        Rate(count=MAX_COUNT + 1, per_ms=1000.0)


@requirement("S-RATE-07")
def test_a_rate_as_written_is_kept_without_its_padding() -> None:
    """S-RATE-07: the table as used shows " 20/min " as "20/min"."""
    used, problems = read_limits({"input": " 20/min "})
    assert problems == () and used["input"] == "20/min"


@requirement("S-RATE-07")
@pytest.mark.parametrize(
    ("entry", "value", "problem"),
    [
        ("input", 10, 'input: expected a string such as "10/s", "30/min" or "off"; received 10, using \'10/s\''),
        (
            "system",
            "fast",
            "system: expected <count>/<s|min|h> (e.g. \"10/s\") or \"off\"; received 'fast', using '30/min'",
        ),
        (
            "unknown",
            "0/s",
            "unknown: the count must be 1..10000 (write \"off\" for no limit); received '0/s', using '30/min'",
        ),
        ("identical_calls", -1, "identical_calls: expected an integer 0..10000 (0 = off); received -1, using 10"),
    ],
)
def test_a_config_problem_says_what_is_expected(entry: str, value: object, problem: str) -> None:
    """S-RATE-07: the config warning names the entry, what it should be, the value received and the one used."""
    assert read_limits({entry: value})[1] == (problem,)


# --- the values themselves refuse what is no brake (S-RATE-07, S-RATE-06, S-RATE-09) -------------


@requirement("S-RATE-07")
@pytest.mark.parametrize(
    ("count", "per_ms", "message"),
    [
        (0, 1000.0, "Rate.count must be an int in 1..10000, not 0"),
        (1, 0.0, "Rate.per_ms must be a positive finite float, not 0.0"),
        (1, -1.0, "Rate.per_ms must be a positive finite float, not -1.0"),
        (1, math.inf, "Rate.per_ms must be a positive finite float, not inf"),
        (1, math.nan, "Rate.per_ms must be a positive finite float, not nan"),
        (1, 1000, "Rate.per_ms must be a positive finite float, not 1000"),
    ],
)
def test_a_rate_that_is_no_brake_cannot_be_made(count: int, per_ms: float, message: str) -> None:
    """S-RATE-07: no zero count, no period that is zero, negative, infinite, NaN or not a float."""
    with pytest.raises(ValueError) as caught:
        Rate(count=count, per_ms=per_ms)
    assert str(caught.value) == message


@requirement("S-RATE-07")
def test_a_period_below_one_millisecond_is_still_a_rate() -> None:
    """S-RATE-07: any positive period is a rate (the bound is > 0, not ≥ 1 ms)."""
    assert Rate(count=2, per_ms=0.5).ms_per_token == 0.25


@requirement("S-RATE-07")
def test_limits_refuse_a_rate_that_is_not_a_rate_and_a_count_out_of_range() -> None:
    """S-RATE-07: RateLimits takes a Rate (not its text) and counts 0..10000, and says which field."""
    with pytest.raises(TypeError) as caught:
        RateLimits(input="10/s")  # type: ignore[arg-type]
    assert str(caught.value) == "RateLimits.input must be a Rate or None"
    with pytest.raises(ValueError) as out_of_range:
        RateLimits(refusals_in_a_row=-1)
    assert str(out_of_range.value) == "RateLimits.refusals_in_a_row must be an int in 0..10000, not -1"


@requirement("S-RATE-06")
@pytest.mark.parametrize("cls", [ToolClass.READ_ONLY, ToolClass.CONTROL])
def test_classes_that_are_never_braked_have_no_rate(cls: ToolClass) -> None:
    """S-RATE-06: observation and the gateway's own tools have no rate, whatever the limits."""
    assert RateLimits().rate_of(cls) is None


@requirement("S-RATE-09")
@pytest.mark.parametrize(
    ("limits", "state"), [(RateLimits(), "full"), ({"input": "1/s"}, BrakeState())], ids=["state", "limits"]
)
def test_a_brake_needs_both_its_limits_and_its_state(limits: object, state: object) -> None:
    """S-RATE-09: one wrong half is enough to refuse building a Brake (decide then fails closed)."""
    with pytest.raises(TypeError) as caught:
        Brake(limits=limits, state=state)  # type: ignore[arg-type]
    assert str(caught.value) == "Brake needs a RateLimits and a BrakeState"
