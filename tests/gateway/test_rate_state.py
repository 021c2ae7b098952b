"""The shell's side of the brake: per-session state, the config key, the doctor (S-RATE-02, -07, -08)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.config.load import load_config
from gateway.doctor.checks import brake_summary, check_config
from gateway.doctor.model import Verdict as V
from gateway.state.rate_state import RateStates
from policy import Code, Decision, Verdict
from policy.decision import allow, refuse
from policy.rate import limits_of
from tests._requirements import requirement

T0 = 1_000_000.0
CLICK = {"loc": [1, 2]}


def _deny(code: Code) -> Decision:
    return refuse(code, "why", "what to do", spec="S-RATE-04")


def _ask() -> Decision:
    return Decision(
        verdict=Verdict.ASK, code=Code.APPROVAL_REQUIRED, reason="ask", remedy="approve", spec="S-APR-01", digest="d"
    )


@requirement("S-RATE-01", "S-RATE-02")
def test_sessions_have_their_own_buckets_and_only_forwarded_calls_spend() -> None:
    """S-RATE-01/02: s1 spends its tokens; s2 is untouched; an ask and a refusal spend nothing."""
    states = RateStates(limits_of({"input": "2/min"}))
    states.after_decision("s1", "Click", CLICK, _ask(), T0)
    states.after_decision("s1", "Click", CLICK, _deny(Code.STALE_OBSERVATION), T0)
    assert states.levels("s1", T0)["input"] == {"tokens": 2.0, "rate": "2/min"}
    states.after_decision("s1", "Click", CLICK, allow(), T0)
    states.after_decision("s1", "Click", CLICK, allow(), T0)
    assert states.levels("s1", T0)["input"] == {"tokens": 0.0, "rate": "2/min"}
    assert states.levels("s2", T0)["input"] == {"tokens": 2.0, "rate": "2/min"}
    assert states.brake("s1").state.identical_run == 2 and states.brake("s2").state.identical_run == 0


@requirement("S-RATE-02")
def test_a_shadowed_refusal_is_forwarded_and_so_spends_a_token() -> None:
    """S-RATE-02: enforce = false forwards a would-deny; it costs what a forwarded call costs."""
    states = RateStates(limits_of({"input": "2/min"}))
    shadowed = Decision(
        verdict=Verdict.DENY, code=Code.STALE_OBSERVATION, reason="r", remedy="m", enforced=False, spec="S-FRESH-01"
    )
    states.after_decision("s1", "Click", CLICK, shadowed, T0)
    assert states.levels("s1", T0)["input"] == {"tokens": 1.0, "rate": "2/min"}


@requirement("S-RATE-05")
def test_an_observation_resets_only_its_own_sessions_detector() -> None:
    """S-RATE-05: `observed(s1)` lifts s1's latch and leaves s2's."""
    states = RateStates(limits_of({}))
    for session in ("s1", "s2"):
        states.after_decision(session, "Click", CLICK, _deny(Code.LOOP_DETECTED), T0)
    states.observed("s1")
    assert states.brake("s1").state.loop == "" and states.brake("s2").state.loop


@requirement("S-RATE-06")
@pytest.mark.parametrize("tool", ["Snapshot", "Scrape", "winmcp_kill"])
def test_tools_that_are_never_braked_leave_no_state(tool: str) -> None:
    """S-RATE-06: read-only and own tools neither spend nor count."""
    states = RateStates(limits_of({}))
    states.after_decision("s1", tool, {}, allow(), T0)
    states.after_decision("s1", tool, {}, _deny(Code.BAD_ARGUMENTS), T0)
    assert states.brake("s1").state == states.brake("never-seen").state


@requirement("S-RATE-07")
def test_the_table_from_a_file_with_an_unusable_entry_warns_and_uses_the_default(tmp_path: Path) -> None:
    """S-RATE-07: a file's `rate_limits` table; a bad entry takes its default, an unknown one is ignored,
    each with a warning naming the entry, what was received and what is used."""
    path = tmp_path / "config.toml"
    path.write_text('[rate_limits]\ninput = "lots"\nsystem = "5/min"\nobserve = "1/s"\n', encoding="utf-8")
    cfg = load_config(environ={}, config_file=path, state_dir=tmp_path)
    assert cfg.rate_limits == {
        "input": "10/s",
        "system": "5/min",
        "unknown": "30/min",
        "identical_calls": 10,
        "refusals_in_a_row": 10,
    }
    assert len(cfg.warnings) == 2
    assert cfg.warnings[0].startswith("config rate_limits.input: ") and "'lots'" in cfg.warnings[0]
    assert "using '10/s'" in cfg.warnings[0] and str(path) in cfg.warnings[0]
    assert cfg.warnings[1].startswith("config rate_limits.observe: unknown entry")


@requirement("S-RATE-07")
@pytest.mark.parametrize(
    ("text", "expected", "warned"),
    [
        ('{ input = "5/s", identical_calls = 0 }', {"input": "5/s", "identical_calls": 0}, False),
        ('"10/s"', {}, True),
        ("{ input = ", {}, True),
    ],
)
def test_the_table_from_the_environment(text: str, expected: dict[str, object], warned: bool) -> None:
    """S-RATE-07: WINMCP_GATEWAY_RATE_LIMITS is a TOML inline table; anything else is the defaults, warned."""
    cfg = load_config(environ={"WINMCP_GATEWAY_RATE_LIMITS": text}, state_dir=Path("unused"))
    defaults = load_config(environ={}, state_dir=Path("unused")).rate_limits
    assert cfg.rate_limits == {**defaults, **expected}
    assert bool(cfg.warnings) is warned
    if warned:
        assert cfg.warnings[0].startswith("config rate_limits:")


@requirement("S-RATE-08")
def test_the_doctor_reports_the_effective_limits_and_warns_about_a_brake_that_is_off(tmp_path: Path) -> None:
    """S-RATE-08: the config check's summary and data name the limits; "off" and 0 are WARNINGs."""
    cfg = load_config(environ={}, state_dir=tmp_path)
    check = check_config(cfg)
    assert check.verdict is V.OK
    expected = (
        "input 10/s, system 30/min, unknown 30/min; loop detector: identical calls after 10, refusals in a row "
        "after 10; observation and winmcp_* tools never braked"
    )
    assert brake_summary(cfg) == expected and expected in check.summary and check.data["rate_limits"] == expected
    off = load_config(
        environ={}, state_dir=tmp_path, overrides={"rate_limits": {"system": "off", "identical_calls": 0}}
    )
    messages = [f.message for f in check_config(off).findings]
    assert messages == [
        "rate_limits.system = 'off': this brake is off",
        "rate_limits.identical_calls = 0: this brake is off",
    ]
    assert check_config(off).verdict is V.WARNING
