"""A click on a UAC or Windows Security prompt is a person's call (S-RULE-69)."""

from __future__ import annotations

import pytest

from policy.labels import label_table
from policy.observation import Observation
from tests._requirements import requirement
from tests.policy._world import T0
from tests.policy.test_typed import capture_of
from tests.policy.test_typed_lines import replay

ASK = ("credential-prompt", "ask")


def point_of(name: str) -> list[int]:
    found = [e.point for e in capture_of("uac-prompt").elements if e.name == name and e.point is not None]
    return list(found[0])


@requirement("S-RULE-69")
@pytest.mark.parametrize("button", ["Yes", "Show more details", "Password"])
def test_a_click_on_the_prompt_asks(button: str) -> None:
    """S-RULE-69: Yes raises a program to administrator; any click in the prompt but a decline is the person's."""
    assert replay("uac-prompt", [("Click", {"loc": point_of(button)})]) == [ASK]
    assert replay("uac-prompt", [("Click", {"loc": point_of(button), "clicks": 2})]) == [ASK]


@requirement("S-RULE-69")
def test_a_click_on_yes_by_label_asks_and_declining_passes() -> None:
    """S-RULE-69: by label too; No declines and passes; a click elsewhere is ordinary."""
    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=capture_of("uac-prompt"))
    rows = label_table(obs, use_dom=False).rows
    yes = next(i for i, row in enumerate(rows) if any(c.point == tuple(point_of("Yes")) for c in row.candidates))
    assert replay("uac-prompt", [("Click", {"label": yes})]) == [ASK]
    assert replay("uac-prompt", [("Click", {"loc": point_of("No")})]) == [None]
    assert replay("notepad", [("Click", {"loc": [800, 520]})]) == [None]
