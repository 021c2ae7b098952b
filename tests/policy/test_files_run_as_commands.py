"""Files run as commands whatever their names: a shell's standard input (S-RULE-127), a script host's
engine switch (S-RULE-128).

`Set-Content C:\\t\\notes.txt 'rd /s /q C:\\Users'` passes: a `.txt` is no script, so nothing judges what it says
(S-RULE-114 judges scripts by their extension). `cmd < C:\\t\\notes.txt` in a later call then runs each line as a
command. The shells that read commands from a pipe read them from a `<` file the same way.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import capture_of, focus_point, hit_of
from tests.policy.verdicts import ps, reason_of

ASKED = ("dynamic-command", "ask")


@requirement("S-RULE-127")
@pytest.mark.parametrize(
    "command",
    [
        r'cmd /c "cmd < C:\t\notes.txt"',
        r'cmd /c "< C:\t\notes.txt cmd"',
        r'cmd /c "cmd /q /k echo hi < C:\t\notes.txt"',
        r'cmd /c "powershell < C:\t\notes.txt"',
        r'cmd /c "pwsh -File - < C:\t\notes.txt"',
        r'cmd /c "wsl < C:\t\notes.sh"',
        r'cmd /c "bash -s < C:\t\notes.sh"',
    ],
)
def test_a_shell_reading_its_commands_from_a_file_asks(command: str) -> None:
    """S-RULE-127: cmd without /c, PowerShell with no command or `-`, a Linux shell with no command or `-s`."""
    assert ps(command) == ASKED


@requirement("S-RULE-127")
def test_the_reason_names_the_file() -> None:
    """S-RULE-127: the person asked sees which file would be run."""
    assert "cmd runs the commands in C:\\t\\notes.txt, which the gateway does not read" in reason_of(
        r'cmd /c "cmd < C:\t\notes.txt"'
    )


@requirement("S-RULE-127")
@pytest.mark.parametrize(
    "command",
    [
        r'cmd /c "sort < C:\t\notes.txt"',
        r'cmd /c "cmd /c dir < C:\t\notes.txt"',
        r'cmd /c "powershell -Command Get-Date < C:\t\notes.txt"',
        r'cmd /c "cmd < nul"',
        r'cmd /c "more < C:\t\notes.txt & cmd /c ver"',  # the file was the first command's; the second has none
    ],
)
def test_a_shell_given_a_command_or_another_program_reading_the_file_passes(command: str) -> None:
    """S-RULE-127: the file is only data there."""
    assert ps(command) is None


@requirement("S-RULE-127")
def test_typed_into_a_console_the_same_line_asks() -> None:
    """S-RULE-127: a Command Prompt reads `cmd < file` as cmd does."""
    loc = focus_point(capture_of("console-cmd"))
    assert hit_of("console-cmd", "Type", text="cmd < C:\\t\\notes.txt", loc=loc, press_enter=True) == ASKED


@requirement("S-RULE-128")
@pytest.mark.parametrize(
    "command",
    [r"cscript //E:vbscript C:\t\notes.txt", r"wscript //e:jscript //B C:\t\app.log", r"cscript.exe //E:VBScript"],
)
def test_a_script_host_told_which_engine_to_use_asks(command: str) -> None:
    """S-RULE-128: `//E:` runs a file of any name as a script; a `.txt` was never judged as one."""
    assert ps(command) == ASKED


@requirement("S-RULE-128")
def test_a_script_host_without_an_engine_switch_runs_a_script_judged_when_made() -> None:
    """S-RULE-128: `cscript x.vbs` runs a script the gateway asked about when it was made (S-RULE-114)."""
    assert ps(r"cscript //nologo C:\t\report.vbs") is None
    assert "the script host runs C:\\t\\notes.txt as vbscript" in reason_of(r"cscript //E:vbscript C:\t\notes.txt")
