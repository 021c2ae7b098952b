"""Windows command lines split and joined as programs see them (S-RULE-02); found by mutation testing."""

from __future__ import annotations

import pytest

from policy.rules.shell.argv import join_argv, split_command_line
from tests._requirements import requirement


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("notepad", ["notepad"]),  # the program name runs to the end of the line
        ('"C:\\Program Files\\x.exe"', ["C:\\Program Files\\x.exe"]),
        ("ab  cd", ["ab", "cd"]),
        ("  net", ["net"]),
    ],
)
def test_a_line_that_is_only_a_program_name_is_one_word(line: str, expected: list[str]) -> None:
    """S-RULE-02: argv[0] ends at the first blank outside quotes, or at the end of the line."""
    assert split_command_line(line) == expected


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["X"], "X"),  # nothing to quote: left as it is
        (["a b"], '"a b"'),
        ([""], '""'),
        (['a"b'], '"a\\"b"'),
    ],
)
def test_only_an_argument_that_needs_quotes_is_quoted(args: list[str], line: str) -> None:
    """S-RULE-02: an empty argument or one with a blank or a quote is quoted, any other is written as is."""
    assert join_argv(args) == line


@requirement("S-RULE-02")
def test_a_doubled_quote_at_the_very_end_of_a_quoted_part_is_a_literal_quote() -> None:
    """S-RULE-02: `""` inside quotes is a literal quote even when it ends the line."""
    assert split_command_line('"a""', first_is_program=False) == ['a"']
    assert split_command_line('x "a""', first_is_program=True) == ["x", 'a"']
