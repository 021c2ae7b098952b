"""cmd.exe expansion phases pinned with concrete values (found by mutation testing).

Covers `%VAR:~n,m%`, `%VAR:old=new%`, `for` variable substitution and delayed `!VAR!`
expansion as cmd.exe performs them.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.cmd_expand import Variables, expand_delayed, replace, substitute_for, substring
from tests._requirements import requirement


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("value", "spec", "expected"),
    [
        ("abcdef", "0,2", "ab"),
        ("abcdef", "2", "cdef"),
        ("abcdef", "-2", "ef"),
        ("abcdef", "1,-1", "bcde"),
        ("abcdef", "-3,2", "de"),
        ("abcdef", "+1,2", "bc"),
        ("abcdef", " 1 , 2 ", "bc"),
        ("abcdef", "9", ""),
        ("abcdef", "-9,2", "ab"),
        ("abcdef", "4,-3", ""),
    ],
    ids=["start-len", "from", "neg-from", "neg-len", "neg-start", "plus", "spaces", "past-end", "neg-past", "empty"],
)
def test_substring(value: str, spec: str, expected: str) -> None:
    """S-RULE-15: `%VAR:~n,m%` as cmd.exe cuts it: negative start and length, `+`, blanks, clamped ends."""
    assert substring(value, spec) == expected


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("value", "old", "new", "expected"),
    [
        ("aXbxc", "x", "-", "a-b-c"),
        ("abcabc", "*b", "Z", "Zcabc"),
        ("abc", "", "Z", "abc"),
        ("abc", "q", "Z", "abc"),
        ("abab", "ab", "", ""),
        ("xABy", "*ab", "", "y"),
    ],
    ids=["all-nocase", "star", "empty-old", "absent", "delete", "star-case"],
)
def test_replace(value: str, old: str, new: str, expected: str) -> None:
    """S-RULE-15: `%VAR:old=new%` replaces every match regardless of case; `*old` up to the first match."""
    assert replace(value, old, new) == expected


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("del %i", "a.txt", "del a.txt"),
        ("del %%i", "a.txt", "del a.txt"),
        ("del %~i", '"a b.txt"', "del a b.txt"),
        ("del %j %i", "x", "del %j x"),
        ("del %I", "x", "del %I"),
        ("50% %i", "x", "50% x"),
        ("%~q", "x", "%~q"),
        ("a%", "x", "a%"),
    ],
    ids=["single", "double", "tilde", "other-letter", "case", "lone-percent", "tilde-other", "trailing"],
)
def test_substitute_for(text: str, value: str, expected: str) -> None:
    """S-RULE-15: a `for` variable is its own case-sensitive letter; `~` drops the value's quotes."""
    assert substitute_for(text, "i", value) == expected


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("r!x!d", "rd"),
        ("echo !A!b", "echo 1b"),
        ("a!b", "ab"),
        ("a!!b", "ab"),
        ("!A:~0,1!!A!", "11"),
        ("x!A!y!A!z", "x1y1z"),
    ],
    ids=["undefined", "defined", "lone", "empty", "substr", "two"],
)
def test_expand_delayed(text: str, expected: str) -> None:
    """S-RULE-15: `!VAR!` expands (an undefined one to nothing, marked unknown); a lone `!` is dropped."""
    env = {"A": "1"}
    got = expand_delayed(text, Variables(env)).replace("\ue000", "")
    assert got == expected
