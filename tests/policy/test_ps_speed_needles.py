"""The regex table's prefilter (S-RULE-24): a view is skipped only when the rule cannot match it.

`match.required_literals` reads, from the parsed pattern, groups of strings such that any text
the pattern matches in holds one string of every group; `Rule.hits` searches only the views
that do. These tests prove the negative: no view a pattern matches is ever skipped.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policy.rules.command import judge_call
from policy.rules.match import BUILTIN_RULES, Rule, load_rules, required_literals, tool_views
from tests._requirements import requirement
from tests.policy.rule_corpus import DANGEROUS, ORDINARY

_PATTERNS = [r for r in BUILTIN_RULES if r.pattern is not None]


def _holds(needles: tuple[tuple[str, ...], ...] | None, text: str) -> bool:
    return needles is None or all(any(n in text for n in group) for group in needles)


@requirement("S-RULE-24")
@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"abc", (("abc",),)),
        (r"re(?:move|g\sdelete)x", (("move", "delete"), ("re",), ("x",))),  # best group first
        (r"^(?=.*alpha)(?=.*beta)", (("alpha",), ("beta",))),  # lookaheads: both in the text
        (r"(?<=pre)fix", (("pre",), ("fix",))),  # equal strength: the needles in reverse order
        (r"(?:foo)+bar", (("foo",), ("bar",))),
        (r"ab?c", (("c",), ("a",))),  # the optional b is not required
        (r"(a)\1?", (("a",),)),
        (r"a\wb", (("b",), ("a",))),  # a class ends a run
        (r"one|two|three", (("one", "two", "three"),)),
    ],
)
def test_required_literals_are_read_from_the_pattern(pattern: str, expected: tuple[tuple[str, ...], ...]) -> None:
    """S-RULE-24: runs, groups, repeats of at least one, alternations and positive lookarounds give needles."""
    assert required_literals(re.compile(pattern)) == expected


@requirement("S-RULE-24")
@pytest.mark.parametrize(
    "pattern",
    [
        r"(?:x|)",  # a branch matches the empty string
        r"(?:foo)*",  # zero repeats
        r"x{0,3}",
        r"(?i)abc",  # case-insensitive: a literal may match other cases
        r"(?!abc)\w+",  # a negative lookahead holds nothing
        r"a|\d",  # one branch holds no literal
        r"[ab]c?",
        "(?:x\x00y)",  # the separator `_joined` uses
    ],
)
def test_nothing_is_required_where_a_match_may_hold_no_known_literal(pattern: str) -> None:
    """S-RULE-24: optional parts, case-insensitive parts, negative lookarounds and bare classes give None."""
    assert required_literals(re.compile(pattern)) is None


@requirement("S-RULE-24")
def test_required_literals_ignore_case_insensitive_groups() -> None:
    """S-RULE-24: an inline `(?i:…)` group adds nothing; the literals outside it still count."""
    assert required_literals(re.compile(r"zz(?i:abc)")) == (("zz",),)
    assert required_literals(re.compile(r"(?i:abc)")) is None


def _corpus_views() -> list[str]:
    views: list[str] = []
    calls = [(tool, args) for tool, args, _ in DANGEROUS] + list(ORDINARY)
    for tool, args in calls:
        views.extend(tool_views(tool, args))
        judged = judge_call(tool, args, gateway_paths=(), dynamic_action="ask")
        views.extend(judged.views or ())
    return views


@requirement("S-RULE-24")
def test_no_built_in_pattern_matches_a_corpus_view_its_needles_would_skip() -> None:
    """S-RULE-24: over every view of the rule corpus, a pattern that matches always finds its needles."""
    views = _corpus_views()
    matched = 0
    for rule in _PATTERNS:
        assert rule.pattern is not None
        for view in views:
            if rule.pattern.search(view):
                matched += 1
                assert _holds(rule.needles, view), (rule.id, view)
                assert any(part.search(view) and _holds(needles, view) for part, needles in rule.parts), (rule.id, view)
            else:
                assert not any(part.search(view) for part, _ in rule.parts), (rule.id, view)
    assert matched > 100  # the check ran on real hits
    assert sum(r.needles is not None for r in _PATTERNS) >= len(_PATTERNS) - 3  # and the prefilter is in use


@requirement("S-RULE-24")
def test_hits_with_the_prefilter_equal_hits_without_it() -> None:
    """S-RULE-24: every built-in rule hits exactly the corpus calls it hits when every view is searched."""
    calls = [(tool, args) for tool, args, _ in DANGEROUS] + list(ORDINARY)
    # Each rule as its pattern alone (no predicate), searched whole and by its alternatives.
    variants = [
        (rule, [
            Rule(id=rule.id, action=rule.action, risk=rule.risk, reason=rule.reason, tools=rule.tools,
                 pattern=rule.pattern, alternatives=alternatives)
            for alternatives in ((), rule.alternatives)
        ])
        for rule in _PATTERNS
    ]  # fmt: skip
    seen = 0
    for tool, args in calls:
        views = tool_views(tool, args)
        for rule, pattern_only in variants:
            if tool not in rule.tools or rule.pattern is None:
                continue
            plain = any(rule.pattern.search(v) for v in views)
            for variant in pattern_only:
                assert variant.hits(tool, args, lambda v=views: v) == plain, (rule.id, args)  # type: ignore[misc]
            seen += plain
    assert seen > 50


_FRAGMENTS = sorted({n for r in _PATTERNS for g in (r.needles or ()) for n in g} | {" ", "-", "/", ";", "|", ":"})


@requirement("S-RULE-24")
@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_FRAGMENTS), st.text(alphabet="abcdefghiklmnoprstuvwxyz0123456789-/ .:$'\"", max_size=6)
        ),
        max_size=30,
    ).map("".join)
)
def test_random_text_a_pattern_matches_holds_its_needles(text: str) -> None:
    """S-RULE-24: random text built of needles and command characters never matches a pattern without them."""
    for rule in _PATTERNS:
        assert rule.pattern is not None
        if rule.pattern.search(text):
            assert _holds(rule.needles, text), (rule.id, text)
        for part, needles in rule.parts:
            if part.search(text):
                assert _holds(needles, text), (rule.id, part.pattern, text)


@requirement("S-RULE-24")
def test_a_rule_refuses_alternatives_that_are_not_its_pattern() -> None:
    """S-RULE-24: a rule searched by its alternatives must be their join (no alternative lost or added)."""
    with pytest.raises(ValueError, match="alternatives"):
        Rule(id="x", action="deny", risk="r", reason="r", tools=frozenset({"PowerShell"}),
             pattern=re.compile("(?:a)|(?:b)"), alternatives=("a",))  # fmt: skip
    rule = Rule(id="x", action="deny", risk="r", reason="r", tools=frozenset({"PowerShell"}),
                pattern=re.compile("(?:ab)|(?:cd)"), alternatives=("ab", "cd"))  # fmt: skip
    assert [needles for _, needles in rule.parts] == [(("ab",),), (("cd",),)]
    assert rule.hits("PowerShell", {}, lambda: ("x", "zcdz")) and not rule.hits("PowerShell", {}, lambda: ("ac", "db"))


@requirement("S-RULE-24")
def test_a_custom_rule_is_found_in_one_view_of_many() -> None:
    """S-RULE-24: a custom rule's needles skip the views without them and still find the one with them."""
    rules = load_rules(
        [
            {
                "id": "no-force-push",
                "pattern": r"git\s+push\s.*--force",
                "risk": "history-loss",
                "reason": "no force push",
            }
        ]
    )
    custom = rules.rules[-1]
    assert custom.needles == (("--force",), ("push",), ("git",))
    script = "Get-Date; Write-Output ok\n" * 20 + "git push origin main --force\n" + "Get-Date\n" * 5
    hit = rules.match("PowerShell", {"command": script})
    assert hit is not None and hit.rule_id == "no-force-push"
    assert rules.match("PowerShell", {"command": "Get-Date; git push origin main"}) is None


@requirement("S-RULE-24")
def test_alternatives_that_refer_to_groups_are_searched_joined() -> None:
    """S-RULE-24: a back-reference's group number shifts in the join, so such a rule keeps one pattern."""
    joined = re.compile(r"(?:(a)x)|(?:(b)\2)")
    rule = Rule(id="x", action="deny", risk="r", reason="r", tools=frozenset({"PowerShell"}),
                pattern=joined, alternatives=(r"(a)x", r"(b)\2"))  # fmt: skip
    assert [part for part, _ in rule.parts] == [joined]
    assert rule.hits("PowerShell", {}, lambda: ("bb",)) and not rule.hits("PowerShell", {}, lambda: ("ab",))


@requirement("S-RULE-24")
def test_views_given_as_a_changing_list_are_read_afresh() -> None:
    """S-RULE-24: the joined views are kept only for an immutable tuple, never for a list that may change."""
    rule = Rule(id="x", action="deny", risk="r", reason="r", tools=frozenset({"PowerShell"}),
                pattern=re.compile("danger"))  # fmt: skip
    views = ["fine"]
    assert not rule.hits("PowerShell", {}, lambda: views)
    views[0] = "danger here"
    assert rule.hits("PowerShell", {}, lambda: views)


@requirement("S-RULE-24")
def test_without_the_regex_parser_every_view_is_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """S-RULE-24: `re._parser` is private to CPython; without it no needle is known and rules still hit."""
    import policy.rules.match as match

    monkeypatch.setattr(match, "sre", None)
    assert required_literals(re.compile(r"remove-item\s+-recurse")) is None
    rule = Rule(id="x-test", action="deny", risk="r", reason="r", tools=frozenset({"PowerShell"}),
                pattern=re.compile(r"remove-item\s+-recurse"))  # fmt: skip
    assert rule.needles is None
    assert rule.hits("PowerShell", {}, lambda: ("get-date", "remove-item  -recurse c:/x"))
