"""policy/rules/shell/cmd.py: cmd.exe lines resolved into the operations they run (S-RULE-02, S-RULE-03, S-RULE-11)."""

from __future__ import annotations

from typing import TypeAlias

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policy.rules.shell.cmd import MAX_DEPTH, Nested, analyse_cmd
from policy.rules.shell.cmd_expand import UNKNOWN, Variables, replace, substring
from policy.rules.shell.ops import Analysis, Operation, Value
from policy.rules.shell.winenv import STANDARD_ENV
from tests._requirements import requirement

Summary: TypeAlias = tuple[str, str, tuple[tuple[str, Value], ...], tuple[Value, ...]]
S = "true"  # a switch that is on


def ops(line: str, **kwargs: object) -> list[Summary]:
    """The operations of `line` as (shell, name, params, args)."""
    analysis = analyse_cmd(line, **kwargs)  # type: ignore[arg-type]
    return [(o.shell, o.name, o.params, o.args) for o in analysis.operations]


def rd(*args: Value, s: bool = True, q: bool = True) -> Summary:
    params = (("s", S),) * s + (("q", S),) * q
    return ("cmd", "rd", params, args)


# Expected operations written from cmd's documented behaviour, not from running the parser.
CONSTRUCTS: list[tuple[str, list[Summary]]] = [
    # built-ins: switches as params, glued switches split, paths as written
    ("rd /s /q C:\\x", [rd("C:\\x")]),
    ("rd/s/q C:\\x", [rd("C:\\x")]),
    ("RD /S/Q C:\\x", [rd("C:\\x")]),
    ("del /s/q C:\\x\\*", [("cmd", "del", (("s", S), ("q", S)), ("C:\\x\\*",))]),
    ("erase /f a.txt", [("cmd", "del", (("f", S),), ("a.txt",))]),
    ("rmdir /s b", [rd("b", q=False)]),
    ('del "C:\\a b\\c.txt"', [("cmd", "del", (), ("C:\\a b\\c.txt",))]),
    ("attrib +h x", [("program", "attrib", (), ("+h", "x"))]),  # attrib is a program
    ("dir /a:h C:\\", [("cmd", "dir", (("a", "h"),), ("C:\\",))]),
    ("move /y a b", [("cmd", "move", (("y", S),), ("a", "b"))]),
    ("ren x y", [("cmd", "ren", (), ("x", "y"))]),
    ("mkdir C:\\n", [("cmd", "md", (), ("C:\\n",))]),
    ("cd /d C:\\Program Files", [("cmd", "cd", (("d", S),), ("C:\\Program Files",))]),
    ("cd..", [("cmd", "cd", (), ("..",))]),
    ("assoc .txt=evil", [("cmd", "assoc", (), (".txt", "evil"))]),
    # carets and quotes
    ("r^d /s /q C:\\x", [rd("C:\\x")]),
    ("d^e^l x", [("cmd", "del", (), ("x",))]),
    ("del ^\nx", [("cmd", "del", (), ("x",))]),  # caret-newline continues the line
    ("echo a ^& rd /s /q x", [("cmd", "echo", (), ("a & rd /s /q x",))]),
    ('echo "a & rd /s /q x"', [("cmd", "echo", (), ('"a & rd /s /q x"',))]),
    ('del "a^b"', [("cmd", "del", (), ("a^b",))]),  # carets are literal inside quotes
    # echoed text is never a command
    ("echo rd /s /q C:\\ ", [("cmd", "echo", (), ("rd /s /q C:\\ ",))]),
    (
        "echo rd /s /q C:\\ > out.txt",
        [("cmd", "echo", (), ("rd /s /q C:\\ ",)), ("cmd", "<redirect>", (), ("out.txt",))],
    ),
    ("@echo off", [("cmd", "echo", (), ("off",))]),
    ("echo.", [("cmd", "echo", (), ("",))]),
    # separators
    ("(del a) && (rd /s b)", [("cmd", "del", (), ("a",)), rd("b", q=False)]),
    ("del a & del b", [("cmd", "del", (), ("a",)), ("cmd", "del", (), ("b",))]),
    ("del a||del b", [("cmd", "del", (), ("a",)), ("cmd", "del", (), ("b",))]),
    ("del a\ndel b", [("cmd", "del", (), ("a",)), ("cmd", "del", (), ("b",))]),
    # redirections
    ("dir >nul", [("cmd", "dir", (), ())]),
    ("dir 2>&1", [("cmd", "dir", (), ())]),
    ("dir < in.txt", [("cmd", "dir", (), ())]),
    ("dir >> log.txt", [("cmd", "dir", (), ()), ("cmd", "<redirect>", (("append", S),), ("log.txt",))]),
    ("dir 2> err.txt", [("cmd", "dir", (), ()), ("cmd", "<redirect>", (), ("err.txt",))]),
    ('>"C:\\a b.txt" echo hi', [("cmd", "echo", (), ("hi",)), ("cmd", "<redirect>", (), ("C:\\a b.txt",))]),
    ("echo hi>C:\\Windows\\x.txt", [("cmd", "echo", (), ("hi",)), ("cmd", "<redirect>", (), ("C:\\Windows\\x.txt",))]),
    ("(echo a) > f.txt", [("cmd", "echo", (), ("a",)), ("cmd", "<redirect>", (), ("f.txt",))]),
    # if / for
    (
        "if exist x (rd /s /q x) else (echo no)",
        [rd("x"), ("cmd", "echo", (), ("no",))],
    ),
    ('if /i not "%x%"=="y" del a', [("cmd", "del", (), ("a",))]),
    ("if 1 EQU 1 rd q", [rd("q", s=False, q=False)]),
    ("if defined x rd/s y", [rd("y", q=False)]),
    ("for %i in (*) do del %i", [("cmd", "del", (), ("*",))]),
    ("for %%i in (a b) do del %%~nxi", [("cmd", "del", (), ("a",)), ("cmd", "del", (), ("b",))]),
    (
        "for %i in (C:\\Windows C:\\x) do (rd /s /q %i)",
        [rd("C:\\Windows"), rd("C:\\x")],
    ),
    # `for /r` walks every folder under the root: its delete is `del /s` (stop 24)
    ("for /r C:\\ %i in (*.log) do del %i", [("cmd", "del", (("s", "true"),), ("C:\\*.log",))]),
    ("for /f %a in (list.txt) do rd /s %a", [rd(None, q=False)]),
    ("for /f %a in ('del x') do echo %a", [("cmd", "del", (), ("x",)), ("cmd", "echo", (), (None,))]),
    ("for /d %i in (C:\\Users\\*) do rd /s /q %i & echo x", [rd("C:\\Users\\*"), ("cmd", "echo", (), ("x",))]),
    # call and start
    ("call rd /s x", [rd("x", q=False)]),
    ("call :label", []),
    (
        'start "" /b notepad x.txt',
        [("cmd", "start", (("title", ""), ("b", S)), ("notepad",)), ("program", "notepad", (), ("x.txt",))],
    ),
    ('start "C:\\Program Files\\x.exe"', [("cmd", "start", (("title", "C:\\Program Files\\x.exe"),), ())]),
    ("start /wait rd /s x", [("cmd", "start", (("wait", S),), ("rd",)), rd("x", q=False)]),
    # programs: name canonical, argv split per the runtime's rules
    ("net user bob /add", [("program", "net", (), ("user", "bob", "/add"))]),
    ('reg save HKLM\\SAM "C:\\a b\\sam.hiv"', [("program", "reg", (), ("save", "HKLM\\SAM", "C:\\a b\\sam.hiv"))]),
    ('"C:\\Windows\\System32\\cipher.EXE" /w:C:\\', [("program", "cipher", (), ("/w:C:\\",))]),
    ("rem rd /s /q C:\\ & del y", [("cmd", "del", (), ("y",))]),
    (":: a comment", []),
]


@requirement("S-RULE-02", "S-RULE-15")
@pytest.mark.parametrize(("line", "expected"), CONSTRUCTS)
def test_each_cmd_construct_resolves_to_its_operations(line: str, expected: list[Summary]) -> None:
    """S-RULE-02: carets, quotes, separators, blocks, if/for, redirections, call/start read as cmd reads them."""
    analysis = analyse_cmd(line)
    assert analysis.failed is None
    assert ops(line) == expected


EXPANSIONS: list[tuple[str, list[Summary]]] = [
    ("set x=rd&& %x% /s /q C:\\x", [("cmd", "set", (), ("x", "rd")), rd("C:\\x")]),
    (
        'set "a=r" & set b=d& %a%%b% /s x',
        [("cmd", "set", (), ("a", "r")), ("cmd", "set", (), ("b", "d")), rd("x", q=False)],
    ),
    ("set x=rd& !x! /s y", [("cmd", "set", (), ("x", "rd")), rd("y", q=False)]),
    ("%COMSPEC:~-7,3% /c dir", [("program", "cmd", (), ("/c", "dir"))]),
    ("echo %ProgramFiles:~0,2%", [("cmd", "echo", (), ("C:",))]),
    ("del %SystemRoot%\\System32\\hal.dll", [("cmd", "del", (), ("C:\\Windows\\System32\\hal.dll",))]),
    ("del %systemroot%\\x", [("cmd", "del", (), ("C:\\Windows\\x",))]),
    ("%SystemRoot:~0,3%Windows\\System32\\cmd.exe /c x", [("program", "cmd", (), ("/c", "x"))]),
    ("echo %windir:WINDOWS=Temp%", [("cmd", "echo", (), ("C:\\Temp",))]),
    ("echo %COMSPEC:*System32\\=%", [("cmd", "echo", (), ("cmd.exe",))]),
    ("echo %NOPE%", [("cmd", "echo", (), ("%NOPE%",))]),  # cmd leaves an undefined variable as text
    ("echo %NOPE:~0,2%", [("cmd", "echo", (), (None,))]),
    ("echo 100%", [("cmd", "echo", (), ("100%",))]),
    ("echo %%PATHEXT%%", [("cmd", "echo", (), ("%.COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC%",))]),
    ("set /p x=Name? & del %x%", [("cmd", "set", (("p", S),), ("x=Name? ",)), ("cmd", "del", (), (None,))]),
]


@requirement("S-RULE-15")
def test_a_replacement_ends_its_search_text_at_the_first_equals_sign() -> None:
    """S-RULE-15: in `%X:a=b=c%` cmd replaces `a` with `b=c`; a replacement in a variable nobody set is unknown."""
    assert Variables({"X": "1a2"}).expand("X:a=b=c") == "1b=c2"
    assert Variables({}).expand("NOPE:a=b") == UNKNOWN


@requirement("S-RULE-02", "S-RULE-15")
@pytest.mark.parametrize(("line", "expected"), EXPANSIONS)
def test_variables_expand_with_the_standard_environment_and_earlier_sets(line: str, expected: list[Summary]) -> None:
    """S-RULE-02: %VAR%, substrings, replacements, delayed !VAR! and same-line `set` fold to constants."""
    assert ops(line) == expected


@requirement("S-RULE-02", "S-RULE-15")
@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        ("%NOPE:~0,2% /s /q C:\\", "not constant"),
        ("%RANDOM% x", "not constant"),
        ("r!u!d /s x", "not constant"),
        ("set /p c=? & %c% /s /q x", "not constant"),
        ("for /f %c in (cmds.txt) do %c x", "not constant"),
        ("%X% /s /q C:\\", "does not define"),
    ],
)
def test_a_command_name_that_is_not_constant_is_dynamic(line: str, sentence: str) -> None:
    """S-RULE-02: a name built from what cannot be known is reported, never dropped silently."""
    analysis = analyse_cmd(line)
    assert len(analysis.dynamic) == 1
    assert sentence in analysis.dynamic[0]


@requirement("S-RULE-02", "S-RULE-15")
def test_delayed_expansion_can_be_turned_off() -> None:
    """S-RULE-02: with `cmd /v:off` a `!x!` is plain text (the default assumes it may expand)."""
    assert ops("set x=rd& !x! /s y", delayed=False)[1][:2] == ("program", "!x!")


@requirement("S-RULE-02", "S-RULE-15")
def test_the_environment_table_is_a_parameter() -> None:
    """S-RULE-02: `%VAR%` reads the table it is given, case-insensitively."""
    assert ops("%Foo% /s x", env={**STANDARD_ENV, "FOO": "rd"}) == [rd("x", q=False)]


@requirement("S-RULE-02", "S-RULE-15")
@pytest.mark.parametrize(
    ("value", "spec", "expected"),
    [
        ("C:\\Windows\\System32\\cmd.exe", "-7,3", "cmd"),
        ("C:\\Program Files", "0,2", "C:"),
        ("abcdef", "2", "cdef"),
        ("abcdef", "2,3", "cde"),
        ("abcdef", "-2", "ef"),
        ("abcdef", "0,-2", "abcd"),
        ("abcdef", "-3,-1", "de"),
        ("abcdef", "10", ""),
        ("abcdef", "0,0", ""),
        ("abcdef", "-10,2", "ab"),
        ("abcdef", "1,-10", ""),
    ],
)
def test_substrings_count_like_cmd(value: str, spec: str, expected: str) -> None:
    """S-RULE-02: %VAR:~n,m% with negative offsets and lengths counts from the end."""
    assert substring(value, spec) == expected


@requirement("S-RULE-02", "S-RULE-15")
@pytest.mark.parametrize(
    ("value", "old", "new", "expected"),
    [
        ("C:\\Windows", "windows", "X", "C:\\X"),
        ("aXbxc", "x", "-", "a-b-c"),
        ("k=a;b", "*=", "", "a;b"),
        ("abc", "z", "y", "abc"),
        ("abc", "", "y", "abc"),
    ],
)
def test_replacements_are_case_insensitive(value: str, old: str, new: str, expected: str) -> None:
    """S-RULE-02: %VAR:old=new% replaces every match, %VAR:*old=new% up to the first."""
    assert replace(value, old, new) == expected


@requirement("S-RULE-02", "S-RULE-15")
def test_pipes_name_the_command_that_feeds_the_next() -> None:
    """S-RULE-02: `a | b` gives b `input_from` = a; `||` is no pipe."""
    analysis = analyse_cmd("dir /b | findstr x || del y")
    assert [(o.name, o.input_from) for o in analysis.operations] == [("dir", None), ("findstr", "dir"), ("del", None)]


def recorder(calls: list[tuple[str, tuple[Value, ...], int]]) -> Nested:
    """A `nested` callback that records its calls and reports one marker operation."""

    def nested(name: str, argv: tuple[Value, ...], depth: int, env: object = None, expanded: bool = False) -> Analysis:
        calls.append((name, argv, depth))
        return Analysis(operations=(Operation(shell="cmd", name="<inner>", depth=depth),))

    return nested


@requirement("S-RULE-03", "S-RULE-15")
@pytest.mark.parametrize(
    ("line", "call"),
    [
        ('cmd /c "r^d /s /q C:\\x"', ("cmd", ('/c "r^d /s /q C:\\x"',), 1)),  # cmd gets its raw line
        ('start "" /b cmd /c rd /s /q C:\\x', ("cmd", ("/c rd /s /q C:\\x",), 2)),
        ("powershell -enc AAAA", ("powershell", ("-enc", "AAAA"), 1)),
        ('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe -c "rm x"', ("powershell", ("-c", "rm x"), 1)),
        ("call notepad a", ("notepad", ("a",), 2)),
    ],
)
def test_programs_are_handed_to_the_nested_analyser_one_level_deeper(
    line: str, call: tuple[str, tuple[Value, ...], int]
) -> None:
    """S-RULE-03: each external program (also under start/call) goes to `nested`, and its result is merged."""
    calls: list[tuple[str, tuple[Value, ...], int]] = []
    analysis = analyse_cmd(line, nested=recorder(calls))
    assert calls == [call]
    assert "<inner>" in [o.name for o in analysis.operations]


@requirement("S-RULE-11", "S-RULE-15")
@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('"unclosed', "unbalanced quotes"),
        ("(echo a", "unbalanced parentheses"),
        ("for %i in (a do echo", "unbalanced parentheses"),
        ("for x y", "malformed for"),
        ("echo a >", "redirection without a target"),
    ],
)
def test_malformed_input_is_best_effort_with_a_reason(line: str, reason: str) -> None:
    """S-RULE-11: unbalanced quotes or parentheses are reported as a failure, never raised."""
    analysis = analyse_cmd(line)
    assert analysis.failed is not None
    assert reason in analysis.failed


@requirement("S-RULE-11", "S-RULE-15")
def test_an_unclosed_block_still_yields_what_it_holds() -> None:
    """S-RULE-11: best effort: the commands before the missing `)` are still resolved."""
    assert ops("(rd /s /q C:\\x") == [rd("C:\\x")]


@requirement("S-RULE-11", "S-RULE-15")
def test_too_deep_nesting_fails() -> None:
    """S-RULE-11: past MAX_DEPTH levels nothing is read and the reason says why."""
    assert analyse_cmd("rd /s x", depth=MAX_DEPTH + 1).failed == "too deeply nested"
    deep = "call " * (MAX_DEPTH + 2) + "rd /s x"
    assert "too deeply nested" in (analyse_cmd(deep).failed or "")


@requirement("S-RULE-11", "S-RULE-15")
@pytest.mark.parametrize(
    "line",
    [
        "echo a&" * 20000,
        "%" * 50000,
        "for %i in (a b c d e f g h i j k l m n o p) do " * 6 + "del %i",
        "(" * 5000 + "del x" + ")" * 5000,
        "if a==a " * 5000 + "del x",
        "for %i in (a) do " * 3000 + "del %i",
        "^" * 40000,
        "call " * 3000,
    ],
)
def test_huge_or_hostile_lines_are_bounded(line: str) -> None:
    """S-RULE-11: huge or pathological lines are analysed in bounded work and never raise."""
    analysis = analyse_cmd(line)
    assert len(analysis.operations) <= 1024


@requirement("S-RULE-11", "S-RULE-15")
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*'ab %!^"&|<>()=,;/\\:~*\n\t', "rd", "for", "if", "set", "do", "in", "else"])).map(
        "".join
    )
)
def test_random_cmd_text_never_raises(line: str) -> None:
    """S-RULE-11: any text gives an Analysis; faults are reasons, not exceptions."""
    analysis = analyse_cmd(line)
    assert isinstance(analysis, Analysis)
