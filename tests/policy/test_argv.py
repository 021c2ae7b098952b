"""policy/rules/shell/argv.py: Windows command lines split as the MSVC runtime splits them (S-RULE-02)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policy.rules.shell.argv import join_argv, program_name, split_command_line
from tests._requirements import requirement

# Microsoft, "Parsing C command-line arguments" (the table of examples), post-2008 runtime;
# each line is prefixed with a program so argv[1:] is what the table lists.
MSDN_TABLE = [
    (r'"abc" d e', ["abc", "d", "e"]),
    (r'a\\b d"e f"g h', [r"a\\b", "de fg", "h"]),
    (r"a\\\"b c d", [r"a\"b", "c", "d"]),
    (r'a\\\\"b c" d e', [r"a\\b c", "d", "e"]),
    (r'a"b"" c d', ['ab" c d']),
]

MORE_ARGUMENTS = [
    ("", []),
    ("   \t ", []),
    ('""', [""]),
    ('a "" b', ["a", "", "b"]),
    ("a\tb  c", ["a", "b", "c"]),
    (r"C:\dir\ x", ["C:\\dir\\", "x"]),  # backslashes not before a quote are literal
    (r'"C:\dir\\" x', ["C:\\dir\\", "x"]),  # 2N backslashes + quote: N and the quote closes
    (r'"a\"b"', ['a"b']),
    (r'\\\\"', ["\\\\"]),
    ('"unclosed text', ["unclosed text"]),
    ('"rd /s /q C:\\x"', ["rd /s /q C:\\x"]),
    ('a"b c"d', ["ab cd"]),
    ('"a""b"', ['a"b']),
]


@requirement("S-RULE-02")
@pytest.mark.parametrize(("arguments", "expected"), MSDN_TABLE + MORE_ARGUMENTS)
def test_arguments_split_like_the_msvc_runtime(arguments: str, expected: list[str]) -> None:
    """S-RULE-02: quotes, backslashes before quotes and `""` follow the documented runtime rules."""
    assert split_command_line("prog " + arguments) == ["prog", *expected]
    assert split_command_line(arguments, first_is_program=False) == expected


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (r'"C:\Program Files\App\x.exe" -a', [r"C:\Program Files\App\x.exe", "-a"]),
        (r"C:\tools\x.exe\ a", ["C:\\tools\\x.exe\\", "a"]),
        (r'C:\a\"b c" d', [r"C:\a\b c", "d"]),  # the program name only groups by quotes
        ("  net user", ["net", "user"]),
    ],
)
def test_the_program_name_only_groups_by_quotes(line: str, expected: list[str]) -> None:
    """S-RULE-02: argv[0] keeps its backslashes literally, unlike the arguments after it."""
    assert split_command_line(line) == expected


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ('"C:\\Windows\\System32\\cmd.EXE"', "cmd"),
        ("cmd", "cmd"),
        ("C:/Windows/System32/Net.exe", "net"),
        ("powershell.exe", "powershell"),
        ("PWSH", "pwsh"),
        ("C:\\x\\setup.bat", "setup"),
        ("run.CMD", "run"),
        ("edit.com", "edit"),
        ("C:\\x\\tool.ps1", "tool.ps1"),  # a script keeps its extension: it is not run by name
        ("notepad.exe. ", "notepad"),  # Windows ignores trailing dots and spaces
        ("\\\\server\\share\\x.exe", "x"),
        ("", ""),
    ],
)
def test_program_name_is_the_lower_case_base_name_without_extension(token: str, expected: str) -> None:
    """S-RULE-02: one spelling per program, whatever path, case or extension named it."""
    assert program_name(token) == expected


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["a", "b"], "a b"),
        (["a b"], '"a b"'),
        ([""], '""'),
        (['c"d'], '"c\\"d"'),
        (["e\\"], "e\\"),
        (["f\\ g"], '"f\\ g"'),
        (["h i\\"], '"h i\\\\"'),
        (['\\"'], '"\\\\\\""'),
    ],
)
def test_join_argv_quotes_like_dotnet(args: list[str], expected: str) -> None:
    """S-RULE-02: the inverse quoting is .NET's (PasteArguments), written out by hand here."""
    assert join_argv(args) == expected


@requirement("S-RULE-02")
@given(st.lists(st.text(alphabet=st.sampled_from("ab \t\"\\\n'^%&|"), max_size=12), max_size=6))
def test_join_then_split_gives_the_arguments_back(args: list[str]) -> None:
    """S-RULE-02: any argument list survives join_argv followed by split_command_line."""
    assert split_command_line(join_argv(args), first_is_program=False) == args


@requirement("S-RULE-25")
@pytest.mark.parametrize(
    ("token", "name"),
    [
        ("$env:ComSpec", "cmd"),
        ("$ENV:COMSPEC", "cmd"),
        ("${env:ComSpec}", "cmd"),
        ('"%ComSpec%"', "cmd"),
        ("$env:NotAStandardVariable", "$env:notastandardvariable"),
        ("$env:windir\\System32\\reg.exe", "reg"),
    ],
)
def test_a_program_named_by_one_standard_variable_is_the_program_it_names(token: str, name: str) -> None:
    """S-RULE-25: `& $env:ComSpec /c …` runs cmd (it once passed as a program called `$env:comspec`)."""
    assert program_name(token) == name
