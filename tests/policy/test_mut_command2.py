"""What a `dynamic-command` ask says about a target the gateway cannot name (S-RULE-14); found by mutation testing.

A destructive effect whose target is not constant is named by the analyser's phrase for the act (its kind
when there is none); a kill by process id names the id, since it may be any process. Every such effect of
the call counts, whatever effects come before it.
"""

from __future__ import annotations

import pytest

from policy.rules.command import _unknown_targets, judge_call
from policy.rules.shell.ops import Effect, EffectKind
from tests._requirements import requirement

K = EffectKind
_DYNAMIC = (
    "part of this command is built at run time, so the gateway cannot tell what it runs ({}). "
    "Instead, write the command out with its names and paths spelled as constants."
)


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    ("command", "what"),
    [
        ("Remove-Item $target", "Remove-Item of a target that is not constant"),
        ("Get-Content C:\\notes.txt; Remove-Item $target", "Remove-Item of a target that is not constant"),
        ("Stop-Process -Id 4321", "Stop-Process of process id 4321, which may be any process"),
    ],
    ids=["variable-target", "after-a-read", "kill-by-pid"],
)
def test_an_act_on_a_target_nobody_can_name_asks_and_says_which(command: str, what: str) -> None:
    """S-RULE-14: `Remove-Item $target` and `Stop-Process -Id 4321` ask, naming the cmdlet and the pid; a read
    earlier in the command does not hide the delete after it."""
    hits = judge_call("PowerShell", {"command": command}).hits
    assert [(h.rule_id, h.action, h.risk, h.reason) for h in hits] == [
        ("dynamic-command", "ask", "dynamic-command", _DYNAMIC.format(what))
    ]


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    ("effect", "sentence"),
    [
        (Effect(K.DELETE, None, ""), "delete of a target that is not constant"),
        (Effect(K.KILL, "pid:4321", ""), "a kill of process id 4321, which may be any process"),
    ],
    ids=["no-detail-names-the-kind", "no-detail-kill"],
)
def test_an_effect_without_the_analyser_s_phrase_is_named_by_what_it_does(effect: Effect, sentence: str) -> None:
    """S-RULE-14: every analyser gives a phrase today; an effect without one still reads as a sentence."""
    assert _unknown_targets([effect]) == (sentence,)
