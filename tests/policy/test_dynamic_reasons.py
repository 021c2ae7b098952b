"""What a person is told when a command's target is built at run time (S-RULE-14); found by mutation testing.

The question a dynamic command raises names the act and says why the gateway cannot judge it, and ends
with the remedy; the corpus tests compare only the rule id, so these rows pin the words a person reads.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from tests._requirements import requirement

REMEDY = "Instead, write the command out with its names and paths spelled as constants."
WHY = "part of this command is built at run time, so the gateway cannot tell what it runs"


def _dynamic_reason(command: str) -> str:
    (hit,) = [h for h in judge_call("PowerShell", {"command": command}).hits if h.rule_id == "dynamic-command"]
    assert hit.action == "ask"
    return hit.reason


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    ("command", "act"),
    [
        ('[int]$n = 5; Remove-Item "C:\\t\\$n"', "Remove-Item of a target that is not constant"),
        (
            "function f($p) { Remove-Item $p -Recurse }; f C:\\Users",
            "Remove-Item -Recurse of a target that is not constant",
        ),
        ("$x = Get-Item C:\\Users; $x | Remove-Item -Recurse", "Remove-Item -Recurse of a target that is not constant"),
        ("Stop-Process -Id $id", "Stop-Process of a target that is not constant"),
        ("Stop-Service $svc", "Stop-Service of services that are not constant"),
    ],
    ids=["typed-variable", "function-parameter", "piped-variable", "process-id", "service"],
)
def test_the_question_names_the_act_and_the_remedy(command: str, act: str) -> None:
    """S-RULE-14: `<why> (<act>). <remedy>`, word for word."""
    assert _dynamic_reason(command) == f"{WHY} ({act}). {REMEDY}"


@requirement("S-RULE-14")
@pytest.mark.parametrize("command", ["Get-Item (", "'import shutil' | python -"])
def test_a_command_the_grammar_cannot_read_says_so(command: str) -> None:
    """S-RULE-14: the unparsed question names the grammar's complaint (no command text) and the remedy."""
    judged = judge_call("PowerShell", {"command": command})
    assert judged.unparsed is not None
    assert (judged.unparsed.rule_id, judged.unparsed.action, judged.unparsed.risk) == (
        "unparsed-command",
        "ask",
        "uninspectable",
    )
    assert judged.unparsed.reason == (
        "the gateway could not read this command with the PowerShell grammar (PowerShell syntax error), "
        "so it cannot tell what it does. Instead, write it as plain statements, one per line."
    )


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "target"),
    [
        ("Set-Variable -Name p -Value 'C:\\t\\x'; Remove-Item $p", "C:\\t\\x"),
        ("New-Variable p 'C:\\t\\y'; Remove-Item $p", "C:\\t\\y"),
        ("sv -Name q -Value 'C:\\t\\z'; Remove-Item $q", "C:\\t\\z"),
    ],
    ids=["set-variable-named", "new-variable-positional", "alias"],
)
def test_a_variable_set_by_a_cmdlet_is_followed(command: str, target: str) -> None:
    """S-RULE-13: `Set-Variable`/`New-Variable` assign as `$p = …` does; the delete names the value."""
    deletes = [e.target for e in judge_call("PowerShell", {"command": command}).effects if e.detail == "Remove-Item"]
    assert deletes == [target]
