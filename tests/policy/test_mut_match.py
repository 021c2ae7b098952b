"""Loading and matching command rules, in detail (S-RULE-07, -08, -09, -24); found by mutation testing.

A custom rule or setting that cannot work fails loading with a message that says which and why; a pattern's
escapes are read as the regex reads them when checking its normal form; a rule's prefilter (needles, split
alternatives) never changes a hit; and what the analysis alone finds (`table=False`) still puts the first
deny before any ask, as does what `allow_rules` exempts get reported from the views the rules really read.
"""

from __future__ import annotations

import re

import pytest

from policy.rules.match import Rule, RuleLoadError, load_rules, normal_form_problem
from tests._requirements import requirement

_UPPER_C = "contains upper case 'C' (normalised text is lower case)"


@requirement("S-RULE-08")
@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("a  b", "contains two spaces in a row (normalised text has single spaces)"),
        ("a`b", "contains a backtick (normalise removes PowerShell escapes)"),
        ("Abc", "contains upper case 'A' (normalised text is lower case)"),
        (r"\\", "contains \\\\ (a literal backslash); normalised text uses / as the path separator"),
        (r"\X", "contains the escape \\X, which is not a character class"),
        (r"\dC", _UPPER_C),
        (r"\xabC", _UPPER_C),
        (r"\u00abC", _UPPER_C),
        (r"\U000000abC", _UPPER_C),
        (r"\xAB", None),
        (r"a\xAB", None),
        (r"\u00AB", None),
        (r"\U0001F600", None),
        ("abc\\", None),
    ],
    ids=[
        "two-spaces",
        "backtick",
        "first-char-upper",
        "literal-backslash",
        "escape-not-a-class",
        "upper-after-class",
        "upper-after-x",
        "upper-after-u",
        "upper-after-U",
        "hex-x-digits",
        "hex-x-digits-mid",
        "hex-u-digits",
        "hex-U-digits",
        "trailing-backslash",
    ],
)
def test_normal_form_problem_reads_escapes_as_the_regex_does(pattern: str, problem: str | None) -> None:
    """S-RULE-08: upper-case hex digits of `\\xHH`, `\\uHHHH`, `\\UHHHHHHHH` are no problem, the character after
    them (or after `\\d`) is checked; the first problem is named in the words the loader reports."""
    assert normal_form_problem(pattern) == problem


def _rule(**changes: object) -> dict[str, object]:
    return {"id": "my-rule", "pattern": "danger", "risk": "r", "reason": "why", **changes}


@requirement("S-RULE-08")
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"custom": "not a list"}, "custom rules must be a list of tables"),
        ({"allow_rules": frozenset({"recursive-delete"})}, "allow_rules must be a list of built-in rule ids"),
        ({"protected_paths": ["C:\\gw", 5]}, "protected_paths must be a list of path strings"),
        ({"custom": [5]}, "custom rule #0: must be a table with id, pattern, risk, reason, not int"),
        ({"custom": [_rule(tools=[])]}, "custom rule #0 ('my-rule'): `tools` must be a non-empty list of tool names"),
        ({"custom": [_rule(tools=5)]}, "custom rule #0 ('my-rule'): `tools` must be a non-empty list of tool names"),
        (
            {"custom": [_rule(pattern="^$")]},
            "custom rule #0 ('my-rule'): pattern '^$' matches empty text (it would hit every call)",
        ),
    ],
    ids=[
        "custom-not-a-list",
        "allow-rules-a-set",
        "path-not-text",
        "rule-not-a-table",
        "no-tools",
        "tools-int",
        "empty",
    ],
)
def test_an_unusable_setting_fails_loading_saying_which_and_why(kwargs: dict[str, object], message: str) -> None:
    """S-RULE-08: each unusable custom rule or setting is a RuleLoadError with exactly this message."""
    with pytest.raises(RuleLoadError) as caught:
        load_rules(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == message


@requirement("S-RULE-08")
def test_a_pattern_that_needs_some_text_loads() -> None:
    """S-RULE-08: `.` matches no empty text, so it is a usable custom pattern."""
    rules = load_rules([_rule(pattern=".", action="ask")])
    assert rules.rules[-1].id == "my-rule"


@requirement("S-RULE-08")
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"id": "Bad"}, "rule id 'Bad' must match ^[a-z0-9][a-z0-9._-]{0,63}$"),
        ({"risk": " "}, "rule my-rule: risk and reason must be non-empty"),
        ({"reason": " "}, "rule my-rule: risk and reason must be non-empty"),
    ],
    ids=["id", "blank-risk", "blank-reason"],
)
def test_a_rule_object_refuses_a_bad_id_or_a_blank_risk_or_reason(changes: dict[str, object], message: str) -> None:
    """S-RULE-08: a Rule built by hand is checked like a loaded one, and the ValueError says what is wrong."""
    fields: dict[str, object] = {
        "id": "my-rule",
        "action": "deny",
        "risk": "r",
        "reason": "why",
        "tools": frozenset({"PowerShell"}),
        "pattern": re.compile("danger"),
        **changes,
    }
    with pytest.raises(ValueError) as caught:
        Rule(**fields)  # type: ignore[arg-type]
    assert str(caught.value) == message


@requirement("S-RULE-08")
def test_a_rule_never_hits_a_tool_it_does_not_name() -> None:
    """S-RULE-08: `tools` bounds a rule even when its pattern matches the text."""
    rule = Rule(
        id="my-rule", action="deny", risk="r", reason="why", tools=frozenset({"PowerShell"}), pattern=re.compile("x")
    )
    assert rule.hits("PowerShell", {}, lambda: ("x",)) is True
    assert rule.hits("Registry", {}, lambda: ("x",)) is False


@requirement("S-RULE-24")
def test_split_alternatives_keep_the_patterns_flags() -> None:
    """S-RULE-24: alternatives searched one by one keep the pattern's flags (a case-insensitive rule stays so)."""
    rule = Rule(
        id="my-rule",
        action="deny",
        risk="r",
        reason="why",
        tools=frozenset({"PowerShell"}),
        pattern=re.compile("(?:abc)|(?:def)", re.IGNORECASE),
        alternatives=("abc", "def"),
    )
    assert rule.hits("PowerShell", {}, lambda: ("xx ABC",)) is True
    assert rule.hits("PowerShell", {}, lambda: ("xx DEF",)) is True


@requirement("S-RULE-24")
@pytest.mark.parametrize(
    ("pattern", "command"),
    [("(a)(?(1)bc|de)", "abc"), ("(?>xyz)", "xyz")],
    ids=["conditional-group", "atomic-group"],
)
def test_a_custom_rule_with_a_conditional_or_atomic_group_hits(pattern: str, command: str) -> None:
    """S-RULE-24: the needles of a conditional group (`(?(1)…|…)`, neither branch required) or an atomic group never
    make a matching view be skipped."""
    hit = load_rules([_rule(pattern=pattern)]).match("PowerShell", {"command": command})
    assert hit is not None
    assert (hit.rule_id, hit.action) == ("my-rule", "deny")


@requirement("S-RULE-07")
@pytest.mark.parametrize(
    ("command", "dynamic", "expected"),
    [
        ("iex $x", "ask", ("dynamic-command", "ask")),
        ("Remove-Item -Recurse C:\\Windows; iex $x", "ask", ("protected-place-delete", "deny")),
        ("Remove-Item ~\\Documents\\*; iex $x", "deny", ("dynamic-command", "deny")),
        ("Get-Date", "ask", None),
    ],
    ids=["only-an-ask", "deny-before-ask", "deny-after-ask", "none"],
)
def test_without_the_regex_table_the_first_deny_still_wins(
    command: str, dynamic: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-07: `match(table=False)` (what the analysis alone found) gives the first deny, else the first ask."""
    hit = load_rules(dynamic_commands=dynamic).match("PowerShell", {"command": command}, table=False)
    assert (None if hit is None else (hit.rule_id, hit.action)) == expected


@requirement("S-RULE-09")
@pytest.mark.parametrize(
    ("command", "exempted"),
    [("powershell -enc abc", ("encoded-command",)), ('Write-Output "powershell -enc abc"', ())],
    ids=["run", "printed"],
)
def test_exempted_by_reports_the_regex_rules_the_call_would_hit(command: str, exempted: tuple[str, ...]) -> None:
    """S-RULE-09: an exempted built-in regex rule is reported when the command runs what it names, judged on the
    rendered operations like `match` (printed text is not run, so it is not reported)."""
    rules = load_rules(allow_rules=["encoded-command"])
    assert rules.exempted_by("PowerShell", {"command": command}) == exempted
