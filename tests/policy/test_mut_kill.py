"""What the kill-switch refusal tells the model, word for word (S-KILL-01); found by mutation testing.

The refusal is the model's only view of the stop: who engaged it, since when, why, and what it can
still do. Each of those is pinned here exactly.
"""

from __future__ import annotations

import pytest

from policy import Code, KillState, Verdict
from policy.kill import check_kill
from tests._requirements import requirement
from tests.policy._world import T0, call, context

CLICK = call("Click", loc=[1, 2])
PERSON_REMEDY = (
    "only observation tools work now (Snapshot, Screenshot, DisplayInventory, Wait, WaitFor, ControlStatus): "
    "report what you see and wait for the person to release the stop"
)
MODEL_REMEDY = "report what you see with Snapshot/Screenshot; release with winmcp_kill action=release once it is safe"


@requirement("S-KILL-01")
def test_a_person_stop_names_the_person_the_time_and_the_reason_and_says_to_wait() -> None:
    """S-KILL-01: a person's stop: who, since when, why, and that only observation works until they release it."""
    kill = KillState(engaged=True, by="person", since="2025-01-01T00:00:00.000Z", reason="stop now")
    d = check_kill(CLICK, context(kill=kill), T0)
    assert d is not None and d.verdict is Verdict.DENY and d.code is Code.KILLED and d.spec == "S-KILL-01"
    assert d.reason == "the kill switch was engaged by a person since 2025-01-01T00:00:00.000Z (stop now)."
    assert d.remedy == PERSON_REMEDY


@requirement("S-KILL-01")
def test_a_model_stop_without_time_or_reason_says_so_plainly_and_how_the_model_releases_it() -> None:
    """S-KILL-01: a model's own stop: no empty "since"/"()" parts, and the remedy names winmcp_kill release."""
    d = check_kill(CLICK, context(kill=KillState(engaged=True, by="model")), T0)
    assert d is not None and d.code is Code.KILLED and d.spec == "S-KILL-01"
    assert d.reason == "the kill switch was engaged by a model."
    assert d.remedy == MODEL_REMEDY


@requirement("S-KILL-01")
@pytest.mark.parametrize(
    ("reason", "shown"),
    [
        ("  \n\t ", ""),
        ("line one\n\n  line   two", " (line one line two)"),
        ("x" * 119 + " yz", " (" + "x" * 119 + " )"),
        ("y" * 500, " (" + "y" * 120 + ")"),
    ],
    ids=["blank", "folded", "cut-at-120", "long"],
)
def test_the_stop_reason_is_shown_on_one_line_and_at_most_120_characters(reason: str, shown: str) -> None:
    """S-KILL-01: the person's reason is folded to one line and cut at 120 characters; a blank one is left out."""
    d = check_kill(CLICK, context(kill=KillState(engaged=True, by="person", reason=reason)), T0)
    assert d is not None
    assert d.reason == f"the kill switch was engaged by a person{shown}."


@requirement("S-KILL-01")
def test_a_context_without_a_kill_state_is_a_programming_error_naming_what_it_got() -> None:
    """S-KILL-01: the kill step refuses to guess from anything but a KillState, and says what it got instead."""
    ctx = context()
    object.__setattr__(ctx, "kill", {"engaged": True})
    with pytest.raises(TypeError, match=r"^Context\.kill must be a KillState, not dict$"):
        check_kill(CLICK, ctx, T0)
