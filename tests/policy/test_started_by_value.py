"""A program started by value gets one command line its runtime splits (S-RULE-95).

Found by the stop-30 attacker pass: `conhost cmd /c rd /s /q C:\\Users` typed as a native call was refused,
but `Start-Process conhost -ArgumentList 'cmd /c rd /s /q C:\\Users'`, `[Diagnostics.Process]::Start(…)`,
`WScript.Shell.Run(…)` and `ShellExecute(…)` were forwarded: the wrapper got the whole line as one word and
found no program in it. Only PowerShell and cmd were read through.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.ps_calls import started_argv
from tests._requirements import requirement
from tests.policy.verdicts import ps

USERS_GONE = ("protected-place-delete", "deny")


@requirement("S-RULE-95")
@pytest.mark.parametrize(
    "command",
    [
        "Start-Process conhost -ArgumentList 'cmd /c rd /s /q C:\\Users'",
        "saps conhost 'cmd /c rd /s /q C:\\Users'",
        "Start-Process wt -ArgumentList 'cmd /c rd /s /q C:\\Users'",
        "Start-Process conhost -ArgumentList 'cmd','/c','rd /s /q C:\\Users'",
        "Start-Process runas -ArgumentList '/trustlevel:0x20000 \"cmd /c rd /s /q C:\\Users\"'",
        "Start-Process forfiles -ArgumentList '/p C:\\Users /c \"cmd /c rd /s /q @path\"'",
        "[Diagnostics.Process]::Start('conhost', 'cmd /c rd /s /q C:\\Users')",
        "(New-Object -ComObject WScript.Shell).Run('conhost cmd /c rd /s /q C:\\Users')",
        "(New-Object -ComObject Shell.Application).ShellExecute('conhost', 'cmd /c rd /s /q C:\\Users')",
    ],
    ids=[
        "start-process",
        "alias-positional",
        "windows-terminal",
        "array",
        "runas",
        "forfiles",
        "process-start",
        "wscript-run",
        "shell-execute",
    ],
)
def test_a_wrapper_started_by_value_is_read_through(command: str) -> None:
    """S-RULE-95: the wrapper's command line is split as its runtime splits it, and what it starts judged."""
    assert ps(command) == USERS_GONE


@requirement("S-RULE-95")
@pytest.mark.parametrize(
    ("name", "given", "argv"),
    [
        ("conhost", ("cmd /c rd /s /q C:\\x",), ("cmd", "/c", "rd", "/s", "/q", "C:\\x")),
        ("conhost", ("cmd", "/c dir"), ("cmd", "/c", "dir")),
        ("notepad", ('"C:\\My Files\\a.txt"',), ("C:\\My Files\\a.txt",)),
        ("cmd", ("/c", "dir C:\\"), ("/c", "dir C:\\")),
        ("conhost", ("cmd /c", None), ("cmd /c", None)),
        ("conhost", (), ()),
    ],
    ids=["one-line", "joined-with-blanks", "quoted-path", "cmd-raw", "not-constant", "nothing"],
)
def test_the_argv_a_program_started_by_value_gets(
    name: str, given: tuple[str | None, ...], argv: tuple[str | None, ...]
) -> None:
    """S-RULE-95: items joined with blanks, split by the MSVC rules; cmd keeps its raw line."""
    assert started_argv(name, given) == argv


@requirement("S-RULE-95")
@pytest.mark.parametrize(
    "command",
    [
        "Start-Process notepad -ArgumentList 'C:\\t\\a.txt'",
        "Start-Process conhost -ArgumentList 'cmd /c dir C:\\Users'",
        "(New-Object -ComObject WScript.Shell).Run('notepad C:\\t\\a.txt')",
    ],
)
def test_harmless_programs_started_by_value_pass(command: str) -> None:
    """S-RULE-95: reading the line through refuses nothing it would not refuse typed out."""
    assert ps(command) is None
