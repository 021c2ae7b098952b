"""The PowerShell/cmd analyser and the text normaliser on the shapes a mutation sample found untested.

Each row is a command as the model would send it (or one cmd.exe line), and what the gateway reads
from it: the layers the text rules see, the operations the analyser emits (shell, name, params, args,
depth), its dynamic sentences and its failure. Expectations are what PowerShell and cmd.exe do.
"""

from __future__ import annotations

import base64

import pytest

from policy.rules.normalize import expand, expand_checked, normalise
from policy.rules.shell.argv import reads_piped_commands
from policy.rules.shell.cmd import analyse_cmd
from policy.rules.shell.dispatch import MAX_DEPTH, analyse_program, analyse_tool
from tests._requirements import requirement


def _ops(analysis) -> list[tuple]:
    return [(o.shell, o.name, o.params, o.args, o.depth) for o in analysis.operations]


def _ps(command: str):
    return analyse_tool("PowerShell", {"command": command})


def _encoded(text: str) -> str:
    return base64.b64encode(text.encode("utf-16-le")).decode()


# ---------------------------------------------------------------------------------------
# Normalisation and layers (S-RULE-02, S-RULE-03)


@requirement("S-RULE-02")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(" del x", "remove-item x", id="leading-blank-still-command-position"),
        pytest.param('rd "a b"/s/q', 'remove-item "a b"/s /q', id="switch-run-glued-to-a-string-is-split"),
        pytest.param('remove-item "a b"-r', 'remove-item "a b"-recurse', id="parameter-glued-to-a-string"),
    ],
)
def test_normalise_words(text: str, expected: str) -> None:
    """S-RULE-02: a command word after a leading blank and words glued to a closing quote are rewritten."""
    assert normalise(text) == expected


@requirement("S-RULE-03")
@pytest.mark.parametrize(
    ("text", "layer"),
    [
        pytest.param("cmd /cdel x", "remove-item x", id="cmd-c-glued-to-the-command"),
        pytest.param("powershell /ep bypass del x", "remove-item x", id="powershell-slash-valued-flag-skipped"),
        pytest.param('cmd /c "whoami&del"', "whoami&remove-item", id="cmd-c-outer-quotes-dropped"),
        pytest.param(
            'cmd /c a; cmd /c b; cmd /c c; cmd /c d; cmd /c e; cmd /c f; cmd /c g; cmd /c h; cmd /c i; echo "del x y"',
            "remove-item x y",
            id="strings-read-after-the-interpreter-cap",
        ),
    ],
)
def test_expand_finds_layer(text: str, layer: str) -> None:
    """S-RULE-03: the nested command is one of the layers the rules match."""
    assert layer in expand(text)


@requirement("S-RULE-11")
def test_encoded_payload_counts_towards_the_depth_cap() -> None:
    """S-RULE-11: an -EncodedCommand payload is one level deeper; past the depth cap the view is incomplete."""
    within = expand_checked("powershell -enc " + _encoded("cmd /c " * 7 + "del x"))
    beyond = expand_checked("powershell -enc " + _encoded("cmd /c " * 8 + "del x"))
    assert (within[1], beyond[1]) == (True, False)


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("name", "argv", "expected"),
    [
        pytest.param("cmd", ["/c", "dir"], False, id="cmd-c-runs-its-argument"),
        pytest.param("cmd", ["/k", "dir"], True, id="cmd-k-runs-its-argument-then-reads-input"),  # S-RULE-100
        pytest.param("cmd", ["/q"], True, id="cmd-without-c-reads-stdin"),
        pytest.param("pwsh", ["-"], True, id="pwsh-dash-reads-stdin"),
        pytest.param("pwsh", ["-NoProfile"], True, id="pwsh-bare-switches-read-stdin"),
        pytest.param("pwsh", ["-c", "dir"], False, id="pwsh-command-given"),
    ],
)
def test_reads_piped_commands(name: str, argv: list[str], expected: bool) -> None:
    """S-RULE-15: which shells run the commands piped into them."""
    assert reads_piped_commands(name, argv) is expected


# ---------------------------------------------------------------------------------------
# cmd.exe lines (S-RULE-15)


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param("7z a x", [("program", "7z", (), ("a", "x"), 0)], id="digit-first-program-is-no-redirection"),
        pytest.param(
            "echo y| del x",
            [("cmd", "echo", (), ("y",), 0), ("cmd", "del", (), ("x",), 0)],
            id="piped-builtin",
        ),
        pytest.param("call :x arg", [], id="call-of-a-label-runs-nothing"),
        # call reads its line again, `&` included: the label is skipped, what follows it runs.
        pytest.param("call :x^&del y", [("cmd", "del", (), ("y",), 1)], id="call-of-a-label-then-a-command"),
        pytest.param('"del.exe" x', [("program", "del", (), ("x",), 0)], id="quoted-name-is-a-program"),
        pytest.param(
            "for /f \"tokens=*\" %a in ('whoami') do echo %a",
            [("program", "whoami", (), (), 1), ("cmd", "echo", (), (None,), 0)],
            id="for-f-options-then-command",
        ),
        pytest.param('for /f %a in ("del x") do echo %a', [("cmd", "echo", (), (None,), 0)], id="for-f-string-not-run"),
        pytest.param("set a=b=c", [("cmd", "set", (), ("a", "b=c"), 0)], id="set-splits-at-first-equals"),
        pytest.param('foo.exe a\\"b"', [("program", "foo", (), ('a"b',), 0)], id="arguments-split-msvc-rules"),
        pytest.param(
            "start /d C:\\x calc",
            [("cmd", "start", (("d", "C:\\x"),), ("calc",), 0), ("program", "calc", (), (), 1)],
            id="start-d-takes-a-value",
        ),
        pytest.param(
            "start /node 1 calc",
            [("cmd", "start", (("node", "1"),), ("calc",), 0), ("program", "calc", (), (), 1)],
            id="start-node-takes-a-value",
        ),
        pytest.param("calc)x", [("program", "calc)x", (), (), 0)], id="paren-outside-block-is-ordinary"),
        pytest.param(
            "whoami & ) & del x",
            [("program", "whoami", (), (), 0), ("cmd", "del", (), ("x",), 0)],
            id="stray-close-paren-skipped",
        ),
        pytest.param(
            "echo %\ndel x%",
            [("cmd", "echo", (), ("%",), 0), ("cmd", "del", (), ("x%",), 0)],
            id="percent-does-not-swallow-a-newline",
        ),
        pytest.param("echo a!!b", [("cmd", "echo", (), ("ab",), 0)], id="empty-delayed-variable"),
        pytest.param("del !windir!\\x", [("cmd", "del", (), ("C:\\Windows\\x",), 0)], id="delayed-variable-then-text"),
        pytest.param(
            "set X=\u0130a& echo %X:a=b%",
            [("cmd", "set", (), ("X", "\u0130a"), 0), ("cmd", "echo", (), ("\u0130b",), 0)],
            id="replace-when-case-folding-changes-length",
        ),
        pytest.param("echo %windir:windows=x%", [("cmd", "echo", (), ("C:\\x",), 0)], id="replace-substring"),
    ],
)
def test_cmd_operations(line: str, expected: list[tuple]) -> None:
    """S-RULE-15: what one cmd.exe line runs."""
    analysis = analyse_cmd(line)
    assert _ops(analysis) == expected
    assert analysis.failed is None


@requirement("S-RULE-15")
def test_cmd_piped_builtin_input() -> None:
    """S-RULE-15: a built-in on the right of a pipe records what feeds it."""
    assert [o.input_from for o in analyse_cmd("echo y| del x").operations] == [None, "echo"]


@requirement("S-RULE-15")
def test_cmd_program_from_a_share() -> None:
    """S-RULE-15: a program run from another machine's share is also a `<run>` of its path."""
    ops = analyse_cmd("\\\\srv\\s\\x.exe a").operations
    assert [(o.shell, o.name, o.args, o.text) for o in ops] == [
        ("program", "<run>", ("\\\\srv\\s\\x.exe",), "\\\\srv\\s\\x.exe a"),
        ("program", "x", ("a",), "\\\\srv\\s\\x.exe a"),
    ]


# ---------------------------------------------------------------------------------------
# Interpreters and starters (S-RULE-16)


@requirement("S-RULE-16")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "cmd / del x",
            [("program", "cmd", (), ("/", "del", "x"), 0), ("cmd", "del", (), ("x",), 1)],
            id="cmd-bare-slash-then-command",
        ),
        pytest.param(
            "cmd /s /c '\"C:\\a b\\x.exe\"'",
            [("program", "cmd", (), ("/s", "/c", '"C:\\a b\\x.exe"'), 0), ("program", "a", (), ("b\\x.exe",), 1)],
            id="cmd-s-strips-the-quotes",
        ),
        pytest.param(
            "explorer.exe /select, C:\\x.exe",
            [("program", "explorer", (), ("/select,", "C:\\x.exe"), 0)],
            id="explorer-select-runs-nothing",
        ),
        pytest.param(
            "conhost.exe calc.exe a",
            [("program", "conhost", (), ("calc.exe", "a"), 0), ("program", "calc", (), ("a",), 1)],
            id="conhost-program-keeps-its-arguments",
        ),
        pytest.param(
            "pcalua.exe -a calc.exe -c $x",
            [("program", "pcalua", (), ("-a", "calc.exe", "-c", None), 0), ("program", "calc", (), (None,), 1)],
            id="pcalua-unknown-arguments",
        ),
        pytest.param(
            "cmd /c '\"del x'",
            [("program", "cmd", (), ("/c", '"del x'), 0), ("cmd", "del", (), ("x",), 1)],
            id="cmd-c-one-quote-dropped",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_Process -Name GetOwner; "
            "Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList 'calc'",
            [
                ("powershell", "invoke-wmimethod", (("class", "Win32_Process"), ("name", "GetOwner")), (), 0),
                (
                    "powershell",
                    "invoke-wmimethod",
                    (("class", "Win32_Process"), ("name", "Create"), ("argumentlist", "calc")),
                    (),
                    0,
                ),
                ("program", "calc", (), (), 1),
            ],
            id="wmi-create-after-another-method",
        ),
        pytest.param(
            "Set-Content $p 'x'; Set-Content a.bat 'del y'",
            [
                ("powershell", "set-content", (), (None, "x"), 0),
                ("powershell", "set-content", (), ("a.bat", "del y"), 0),
                ("cmd", "del", (), ("y",), 1),
            ],
            id="script-written-after-an-unknown-write",
        ),
    ],
)
def test_interpreter_operations(command: str, expected: list[tuple]) -> None:
    """S-RULE-16: what a started program runs, read through."""
    analysis = _ps(command)
    assert _ops(analysis) == expected
    assert analysis.failed is None


@requirement("S-RULE-16")
def test_script_written_inside_powershell_is_one_level_deeper() -> None:
    """S-RULE-16: a script written by a nested PowerShell is judged one level below the writer."""
    ops = _ps("powershell -c \"Set-Content x.bat 'del y'\"").operations
    assert [(o.name, o.depth) for o in ops][-2:] == [("set-content", 1), ("del", 2)]


@requirement("S-RULE-16")
def test_written_vbs_then_started_is_dynamic() -> None:
    """S-RULE-16: Start-Process of a script in a language the gateway does not read is dynamic."""
    assert _ps("Set-Content x.vbs 'a'; Start-Process x.vbs").dynamic == (
        "'Start-Process x.vbs' runs the script x.vbs written just before, which the gateway cannot read",
    )


@requirement("S-RULE-16")
def test_add_type_literal_path_is_not_source() -> None:
    """S-RULE-16: Add-Type of an assembly by -LiteralPath compiles nothing."""
    assert _ps("Add-Type -LiteralPath C:\\a.dll b").dynamic == ()


@requirement("S-RULE-16")
def test_app_launch_of_cmd_depth() -> None:
    """S-RULE-16: what App's cmd runs is one level below the launched program."""
    analysis = analyse_tool("App", {"mode": "launch", "name": "cmd", "args": "/c del x"})
    assert [(o.name, o.depth) for o in analysis.operations] == [("cmd", 0), ("del", 1)]


@requirement("S-RULE-11")
def test_analyse_program_at_the_depth_bound() -> None:
    """S-RULE-11: a program at the deepest level is still read; only what it starts is cut off."""
    analysis = analyse_program("cmd", ["/c", "whoami"], MAX_DEPTH)
    assert ([o.name for o in analysis.operations], analysis.failed) == (["whoami"], "too deeply nested")


# ---------------------------------------------------------------------------------------
# PowerShell folding and walking (S-RULE-13, S-RULE-14)


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "Remove-Item -Path ([string[]]('a','b'))",
            [("powershell", "remove-item", (("path", "a"), ("path", "b")), (), 0)],
            id="string-array-cast",
        ),
        pytest.param("$a='notepad','calc'; & $a[1]", [("program", "calc", (), (), 0)], id="array-element"),
        pytest.param('Remove-Item @"\nabc\n"@', [("powershell", "remove-item", (), ("abc",), 0)], id="here-string"),
        pytest.param(
            'Remove-Item @"\r\nabc\r\n"@', [("powershell", "remove-item", (), ("abc",), 0)], id="here-string-crlf"
        ),
        pytest.param("Remove-Item ((1,2,3).Length)", [("powershell", "remove-item", (), ("3",), 0)], id="array-length"),
        pytest.param("Remove-Item (-split 'a b')", [("powershell", "remove-item", (), ("a,b",), 0)], id="unary-split"),
        pytest.param(
            "Remove-Item ${env:A:B}", [("powershell", "remove-item", (), ("$env:A:B",), 0)], id="env-name-with-colon"
        ),
        pytest.param(
            "function f { Remove-Item C:\\x }; f",
            [("powershell", "remove-item", (), ("C:\\x",), 0), ("powershell", "f", (), (), 0)],
            id="function-call-is-no-program",
        ),
        pytest.param(
            "foreach ($f in 'a','b') { Remove-Item $f }",
            [("powershell", "remove-item", (), ("a",), 0), ("powershell", "remove-item", (), ("b",), 0)],
            id="foreach-binds-its-variable",
        ),
        pytest.param(
            "Remove-Item a && Remove-Item b",
            [("powershell", "remove-item", (), ("a",), 0), ("powershell", "remove-item", (), ("b",), 0)],
            id="pipeline-chain",
        ),
        pytest.param(
            "iex 'function f { Remove-Item C:\\x }; f'",
            [
                ("powershell", "invoke-expression", (), ("function f { Remove-Item C:\\x }; f",), 0),
                ("powershell", "remove-item", (), ("C:\\x",), 1),
                ("powershell", "f", (), (), 1),
            ],
            id="function-defined-in-iex-text",
        ),
        pytest.param(
            "Write-Output '\u00e9'; Remove-Item a,b; Remove-Item '\u00fc' c,d; Remove-Item e,f",
            [
                ("powershell", "write-output", (), ("\u00e9",), 0),
                ("powershell", "remove-item", (), ("a,b",), 0),
                ("powershell", "remove-item", (), ("\u00fc", "c,d"), 0),
                ("powershell", "remove-item", (), ("e,f",), 0),
            ],
            id="repaired-commas-after-non-ascii-text",
        ),
        pytest.param(
            "Remove-Item a,b -ReadCount 0x10kb",
            [("powershell", "remove-item", (("readcount", "0x10kb"),), ("a,b",), 0)],
            id="hex-number-with-suffix",
        ),
        pytest.param(
            "Remove-Item ([string]$x)",
            [("powershell", "remove-item", (), (None,), 0)],
            id="string-cast-of-an-unknown-stays-unknown",
        ),
    ],
)
def test_powershell_operations(command: str, expected: list[tuple]) -> None:
    """S-RULE-13: constant folding and walking of PowerShell text."""
    analysis = _ps(command)
    assert _ops(analysis) == expected
    assert analysis.failed is None


@requirement("S-RULE-13")
@pytest.mark.parametrize("length", [300, 900], ids=["long", "very-long"])
def test_operation_text_is_shortened(length: int) -> None:
    """S-RULE-13: an operation's text is cut to 200 characters, ending in an ellipsis."""
    (op,) = _ps("Remove-Item " + "a" * length).operations
    assert op.text == ("Remove-Item " + "a" * length)[:199] + "…"


@requirement("S-RULE-14")
def test_invoke_script_of_an_environment_variable_is_dynamic() -> None:
    """S-RULE-14: script text read from an environment variable is not constant."""
    assert _ps("$ExecutionContext.InvokeCommand.InvokeScript($env:x)").dynamic == (
        "'$ExecutionContext.InvokeCommand.InvokeScript($env:x)' makes a script block from text read from an "
        "environment variable",
    )


@requirement("S-RULE-14")
def test_syntax_error_says_where() -> None:
    """S-RULE-14: a command the grammar cannot read fails naming where."""
    assert _ps("Remove-Item (").failed == "PowerShell syntax error near 'Remove-Item ('"


@requirement("S-RULE-13")
def test_engine_new_script_block_is_followed() -> None:
    """S-RULE-13: a script block made by the engine from constant text is analysed when invoked."""
    analysis = _ps("$s = $ExecutionContext.InvokeCommand.NewScriptBlock('Remove-Item C:\\x'); & $s")
    assert (_ops(analysis), analysis.dynamic) == ([("powershell", "remove-item", (), ("C:\\x",), 1)], ())


@requirement("S-RULE-14")
def test_engine_get_command_of_a_variable_is_dynamic() -> None:
    """S-RULE-14: a command looked up by a name that is not constant is dynamic."""
    assert _ps("$c = $ExecutionContext.InvokeCommand.GetCommand($x, 'Cmdlet'); & $c C:\\x").dynamic == (
        "'& $c C:\\x' runs a command whose name is not constant",
    )
