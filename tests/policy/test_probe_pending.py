"""Probe last, policy side (S-FRESH-10): a pending probe holds an otherwise allowed input call closed."""

from __future__ import annotations

import pytest

from policy import PROBE_PENDING, Code, KillState, PolicyConfig, Verdict, decide
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, T0, click, context, observation, view


@requirement("S-FRESH-10")
@pytest.mark.parametrize("enforce", [True, False], ids=["enforced", "shadow-mode"])
def test_a_pending_probe_is_an_enforced_deny_the_shell_must_resolve(enforce: bool) -> None:
    """S-FRESH-10: everything else allows → DENY PROBE_PENDING, which even shadow mode cannot let through."""
    ctx = context(
        view(observation("obs-1", focused=NOTEPAD), probe=PROBE_PENDING), config=PolicyConfig(enforce=enforce)
    )
    decision = decide(click(), ctx, T0)
    assert (decision.verdict, decision.code, decision.enforced) == (Verdict.DENY, Code.PROBE_PENDING, True)


@requirement("S-FRESH-10")
def test_what_refuses_before_the_drift_check_wins_over_a_pending_probe() -> None:
    """S-FRESH-10: the kill switch, a superseded basis or a stale age answer without any probe."""
    obs = observation("obs-1", focused=NOTEPAD)
    stopped = context(view(obs, probe=PROBE_PENDING), kill=KillState(engaged=True, by="person", reason="stop"))
    assert decide(click(), stopped, T0).code is Code.KILLED
    superseded = context(view(obs, observation("obs-2", focused=NOTEPAD), probe=PROBE_PENDING))
    assert decide(click(based_on="obs-1"), superseded, T0).code is Code.STALE_OBSERVATION
    old = context(view(obs, probe=PROBE_PENDING))
    assert decide(click(), old, T0 + 10 * 60_000).code is Code.STALE_OBSERVATION


@requirement("S-FRESH-10")
def test_without_the_drift_check_a_pending_probe_is_never_asked_for() -> None:
    """S-FRESH-10: require_process_match = false never reaches the drift check: ALLOW, no probe wanted."""
    ctx = context(
        view(observation("obs-1", focused=NOTEPAD), probe=PROBE_PENDING),
        config=PolicyConfig(require_process_match=False),
    )
    assert decide(click(), ctx, T0).verdict is Verdict.ALLOW
