"""cmd.exe's word splitting, as its parser reads it (S-RULE-15); found by mutation testing."""

from __future__ import annotations

import pytest

from policy.rules.shell.cmd_words import blank_spans, cmd_words
from tests._requirements import requirement


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("", []),
        ("ab", [(0, 2)]),
        ("a  b", [(0, 1), (3, 4)]),
        (" a", [(1, 2)]),
        ("a \t\r", [(0, 1)]),  # trailing blanks end the words; no empty word after them
        ("   ", []),
        ('"a b" c', [(0, 5), (6, 7)]),  # a quoted blank does not split
    ],
)
def test_start_splits_its_line_at_blanks_outside_quotes(text: str, spans: list[tuple[int, int]]) -> None:
    """S-RULE-15: `start`'s words are the blank-separated runs of its line, quotes kept whole."""
    assert blank_spans(text) == spans


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a\nb", ["a", "b"]),  # a line break separates words like a blank
        ("a,b;c=d", ["a", "b", "c", "d"]),
        ("/s/q x", ["/s", "/q", "x"]),
        ('"a b"/s', ['"a b"', "/s"]),
        ('"a/b" c', ['"a/b"', "c"]),
    ],
)
def test_a_builtins_arguments_split_at_cmds_delimiters_and_before_each_switch(text: str, words: list[str]) -> None:
    """S-RULE-15: blanks, `,;=` and line breaks split outside quotes; `/` starts a new word (a switch)."""
    assert cmd_words(text) == words
