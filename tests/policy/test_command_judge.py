"""The command layer as one piece: dynamic and unreadable commands, remedies, fuzzing (S-RULE-14, S-RULE-19, S-RULE-21).

`load_rules().match` is the analyser, the effect table and the regex table together
(`policy/rules/command.py`); `policy.decide` is what the gateway calls.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from policy import Verdict, decide
from policy.decision import Code, Decision
from policy.rules.builtin import MAX_COMMAND_CHARS
from policy.rules.judge import EFFECT_RULES
from policy.rules.match import BUILTIN_RULES, load_rules
from tests._requirements import requirement
from tests.policy._world import T0, call, context, view

RULES = load_rules()


def verdict(command: str, **kw: object) -> tuple[str, str] | None:
    hit = load_rules(**kw).match("PowerShell", {"command": command})  # type: ignore[arg-type]
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-14")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("iex $payload", ("dynamic-command", "ask")),
        ("& $tool C:\\data", ("dynamic-command", "ask")),
        ("& (Get-Command R?move-I?em) C:\\data -Recurse", ("dynamic-command", "ask")),
        ("Remove-Item $target", ("dynamic-command", "ask")),  # a destructive act on an unknown target
        ("Stop-Process -Id 4321", ("dynamic-command", "ask")),  # a pid may be any process, lsass too
        ("Get-Content $log", None),  # reading an unknown file is fine
        ("$d = 'C:\\data'; Remove-Item $d\\old.txt", None),  # folded: a single file in a user folder
        # the grammar fails: the text rules still judge it, and ask where they are silent
        ('Remove-Item -Recurse C:\\data "unterminated', ("recursive-delete", "deny")),
        ('Get-Date "unterminated', ("unparsed-command", "ask")),
    ],
)
def test_what_cannot_be_known_asks_and_a_parse_failure_is_never_no_match(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-14: dynamic names and targets ask; an unreadable command falls back to the text rules, else asks."""
    assert verdict(command) == expected


@requirement("S-RULE-14")
def test_dynamic_commands_can_be_made_to_deny_and_the_id_can_be_exempted() -> None:
    """S-RULE-14: `dynamic_commands = "deny"` denies; `allow_rules = ["dynamic-command"]` lets it through, audited."""
    assert verdict("iex $payload", dynamic_commands="deny") == ("dynamic-command", "deny")
    assert verdict("iex $payload", allow_rules=["dynamic-command"]) is None
    assert load_rules(allow_rules=["dynamic-command"]).exempted_by("PowerShell", {"command": "iex $y"}) == (
        "dynamic-command",
    )
    with pytest.raises(ValueError, match="dynamic_commands"):
        load_rules(dynamic_commands="maybe")


_BACKTICKED = re.compile(r"`([^`]+)`")


def _suggested_commands() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for rule in EFFECT_RULES:
        found += [(rule.id, c) for c in _BACKTICKED.findall(rule.remedy)]
    for rule in BUILTIN_RULES:
        instead = rule.reason.split("Instead", 1)[-1] if "Instead" in rule.reason else ""
        found += [(rule.id, c) for c in _BACKTICKED.findall(instead)]
    return found


SUGGESTED = _suggested_commands()


@requirement("S-RULE-19")
def test_remedies_suggest_commands() -> None:
    """S-RULE-19: the remedy check below is not vacuous — remedies do name commands to run instead."""
    assert len(SUGGESTED) >= 10


@requirement("S-RULE-19")
@pytest.mark.parametrize(("rule_id", "command"), SUGGESTED, ids=[f"{r}:{c[:30]}" for r, c in SUGGESTED])
def test_every_command_a_remedy_suggests_is_itself_allowed(rule_id: str, command: str) -> None:
    """S-RULE-19: a refusal never points at harm — what it suggests passes the very same rules."""
    if "<" in command or command.startswith("-"):  # a placeholder (`<path>`) or a bare switch (`-WhatIf`)
        command = command.replace("<", "").replace(">", "")
        if command.startswith("-"):
            return
    assert RULES.match("PowerShell", {"command": command}) is None, (rule_id, command)


_PS_WORDS = st.sampled_from(
    ["Remove-Item", "-Recurse", "& $x", "iex", "'a'+'b'", "@p", "cmd /c", "%COMSPEC:~0,3%", "`", '"', "'", "(", ")",
     "{", "}", "[IO.File]::Delete(", "$env:windir", "|", ";", "\n", "-f", "-join", "[char]82", "C:\\Windows", "\ud800"]
)  # fmt: skip


@requirement("S-RULE-21")
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(_PS_WORDS, max_size=60).map(" ".join), st.text(max_size=400)))
def test_fuzzed_commands_never_raise_out_of_decide(command: str) -> None:
    """S-RULE-21: random PowerShell-like text, surrogates included, always gets a Decision."""
    d = decide(call("PowerShell", command=command), context(view(), rules=RULES), T0)
    assert isinstance(d, Decision)
    assert d.code is not Code.POLICY_ERROR, d.reason


@requirement("S-RULE-21")
@pytest.mark.parametrize(
    "command",
    [
        "(" * 5000 + "Remove-Item" + ")" * 5000,
        "iex '" * 300 + "x",
        "x" * (1 << 20),  # 1 MB
        "Get-Date;" * 50_000,
    ],
    ids=["deep-parens", "nested-iex", "1MB", "many-statements"],
)
def test_hostile_commands_are_judged_or_refused_in_bounded_time(command: str) -> None:
    """S-RULE-21: deep nesting, huge inputs: a verdict comes back (refused as uninspectable when too large)."""
    d = decide(call("PowerShell", command=command), context(view(), rules=RULES), T0)
    assert isinstance(d, Decision) and d.code is not Code.POLICY_ERROR
    if len(command) > MAX_COMMAND_CHARS:
        assert d.verdict is Verdict.DENY and d.rule_id == "uninspectable-command"


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("$c='Remove-Item'; & $c -Recurse -Force C:\\data", ("recursive-delete", "deny")),
        ("&(-join('Remove','-Item')) C:\\data -Recurse", ("recursive-delete", "deny")),
        ("Set-Alias zz Remove-Item; zz C:\\data -Recurse", ("recursive-delete", "deny")),
        ("$p=@{Recurse=$true;Path='C:\\data'}; Remove-Item @p", ("recursive-delete", "deny")),
        (
            "$fso=New-Object -ComObject Scripting.FileSystemObject; $fso.DeleteFolder('C:\\Program Files')",
            ("protected-place-delete", "deny"),
        ),
        ("Start-Process cmd -ArgumentList @('/c','rd','/s','/q','C:\\data')", ("recursive-delete", "deny")),
        ("iex 'Remove-Item C:\\data -Recurse'", ("recursive-delete", "deny")),
        ("[IO.File]::Delete('C:\\Windows\\System32\\hal.dll')", ("protected-place-delete", "deny")),
    ],
)
def test_commands_built_at_run_time_are_resolved_before_they_are_judged(
    command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-13: variables, -join, aliases, splatting, COM, Start-Process arrays, iex and .NET calls are followed."""
    assert verdict(command) == expected


@requirement("S-RULE-22")
def test_the_rules_benchmark_reports_ratios_against_the_text_rules_in_one_run() -> None:
    """S-RULE-22: bench_rules.py measures text rules, analyser and match in one run: p50/p95 and ratios."""
    import json
    import subprocess
    import sys

    from tests._requirements import REPO

    out = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "bench_rules.py"), "--rounds", "3", "--corpus-rounds", "1", "--json"],
        capture_output=True, text=True, timeout=300, check=True, cwd=REPO,
    )  # fmt: skip
    report = json.loads(out.stdout)
    cases = {row["case"]: row for row in report["rows"]}
    assert {"2 KB script", "one-liner", "corpus"} <= set(cases)
    for row in cases.values():
        for method in ("text rules", "analyser", "match"):
            assert row[method]["p95_us"] >= row[method]["p50_us"] > 0
        assert row["text rules"]["x_text_rules"] == 1.0


@requirement("S-RULE-22")
def test_the_rules_benchmark_can_leave_the_corpus_out_and_refuses_no_rounds() -> None:
    """S-RULE-22: `--corpus-rounds 0` measures the budget cases alone (it used to crash on an empty median);
    `--rounds 0` is a usage error with the reason, exit 2."""
    import json
    import subprocess
    import sys

    from tests._requirements import REPO

    script = str(REPO / "scripts" / "bench_rules.py")
    out = subprocess.run(
        [sys.executable, script, "--rounds", "2", "--corpus-rounds", "0", "--json"],
        capture_output=True, text=True, timeout=300, check=True, cwd=REPO,
    )  # fmt: skip
    cases = {row["case"] for row in json.loads(out.stdout)["rows"]}
    assert cases == {"2 KB script", "2 KB dense", "one-liner"}
    bad = subprocess.run(
        [sys.executable, script, "--rounds", "0"], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert bad.returncode == 2
    assert "--rounds must be at least 1" in bad.stderr
