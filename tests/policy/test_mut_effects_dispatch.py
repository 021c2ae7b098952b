"""One operation's effects, picked by the world its name lives in (S-RULE-18); found by mutation testing.

Each expectation is written from policy/rules/effects_dispatch.py's docstrings: a redirection writes
its target unless it discards, a program's canonical name drops its folder and a runnable extension,
and a program started by value (`Start-Process`, cmd's `start` and `cmd /c|/k`, `WScript.Shell.Run` and
`.Exec`, `Process::Start`, `ShellExecute`) is looked up as the program it starts, down to a bound.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import effect, program_stem
from policy.rules.effects_dispatch import MAX_STARTED_DEPTH, effects_of, started_program
from policy.rules.shell.ops import RUN_PATH, Effect, EffectKind, Operation, Shell, Value
from tests._requirements import requirement

K = EffectKind
LSASS_KILL = effect(K.KILL, "lsass.exe", "taskkill")
LOGIN_DATA = "C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data"


def _op(shell: Shell, name: str, *args: Value, params: tuple[tuple[str, Value], ...] = ()) -> Operation:
    return Operation(shell=shell, name=name, args=args, params=params)


@requirement("S-RULE-18")
def test_a_redirection_writes_its_target_with_the_phrase_a_reason_quotes() -> None:
    """S-RULE-18: `> C:\\x` is a WRITE of C:\\x described as `redirect >`; `> nul` and `2>&1` write nothing."""
    assert effects_of(_op("powershell", "<redirect>", "C:\\x")) == (effect(K.WRITE, "C:\\x", "redirect >"),)
    for discard in ("$null", "NUL", "nul:", "null", "&1", "2"):
        assert effects_of(_op("cmd", "<redirect>", discard)) == ()


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("written", "stem"),
    [
        ("C:/Windows/System32/TaskKill.EXE", "taskkill"),  # forward slashes are separators too
        ("C:\\Windows\\System32\\FORMAT.COM", "format"),
        ("D:\\scripts\\Cleanup.BAT", "cleanup"),
        ("D:\\scripts\\build.Cmd", "build"),
        ("C:\\tools\\my.tool.exe", "my.tool"),  # only the last extension is the program's
        ("C:\\notes\\readme.txt", "readme.txt"),  # not a runnable extension: the name stays whole
    ],
    ids=["slashes", "com", "bat", "cmd", "two-dots", "txt"],
)
def test_a_program_stem_drops_the_folder_and_a_runnable_extension(written: str, stem: str) -> None:
    """S-RULE-18: `C:\\X\\TaskKill.EXE` is `taskkill`; .exe, .com, .bat and .cmd are dropped, others kept."""
    assert program_stem(written) == stem


def _nested_cmd(levels: int, command: tuple[str, ...]) -> tuple[str, ...]:
    words: tuple[str, ...] = ()
    for _ in range(levels - 1):
        words += ("/c", "cmd")
    return (*words, "/c", *command)


@requirement("S-RULE-16")
def test_a_program_started_by_value_is_followed_down_to_the_depth_bound_and_no_further() -> None:
    """S-RULE-16: MAX_STARTED_DEPTH nested `cmd /c` are read through; one more is not followed."""
    delete = (effect(K.DELETE, "C:\\x", "del"),)
    assert started_program("cmd", _nested_cmd(MAX_STARTED_DEPTH, ("del", "C:\\x")), 0) == delete
    assert started_program("cmd", _nested_cmd(MAX_STARTED_DEPTH + 1, ("del", "C:\\x")), 0) == ()
    assert started_program("taskkill", ("/im", "lsass.exe"), MAX_STARTED_DEPTH - 1) == (LSASS_KILL,)
    assert started_program("taskkill", ("/im", "lsass.exe"), MAX_STARTED_DEPTH) == ()


@requirement("S-RULE-16")
@pytest.mark.parametrize("switch", ["/k", "/K", "/c"])
def test_cmd_started_by_value_runs_what_follows_c_or_k(switch: str) -> None:
    """S-RULE-16: `cmd /k del C:\\x` runs the delete as `cmd /c` does."""
    assert started_program("cmd", (switch, "del", "C:\\x"), 0) == (effect(K.DELETE, "C:\\x", "del"),)


@requirement("S-RULE-15")
def test_cmd_started_by_value_drops_its_carets_and_keeps_unknown_words_unknown() -> None:
    """S-RULE-15: `cmd /c del C:\\Win^dows` deletes C:\\Windows; a word that is not constant stays None."""
    assert started_program("cmd", ("/c", "del", "C:\\Win^dows"), 0) == (effect(K.DELETE, "C:\\Windows", "del"),)
    assert started_program("cmd", ("/c", "del", None), 0) == (effect(K.DELETE, None, "del"),)
    assert started_program("cmd", ("/c", None), 0) == ()  # a command line that is not constant: nothing known


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    "line", ["del C:\\x & echo hi", "del C:\\x | more", "del C:\\x > out.txt"], ids=["and", "pipe", "redirect"]
)
def test_an_operator_in_a_started_cmd_line_is_never_read_as_a_file_name(line: str) -> None:
    """S-RULE-15: `&`, `|`, `<`, `>` are cmd's syntax, not arguments of the program before them."""
    found = started_program("cmd", ("/c", line), 0)
    assert not {e.target for e in found} & {"&", "|", ">", "echo", "hi", "more", "out.txt"}


@requirement("S-RULE-18")
def test_a_program_started_through_cmd_keeps_the_reads_of_its_arguments() -> None:
    """S-RULE-18: `cmd /c certutil … Login Data` reads the browser's password file, as certutil alone does."""
    alone = effects_of(_op("program", "certutil", "-dump", LOGIN_DATA))
    read = effect(K.READ, LOGIN_DATA, "certutil argument")
    assert read in alone
    assert read in started_program("cmd", ("/c", "certutil", "-dump", LOGIN_DATA), 0)


@requirement("S-RULE-13")
def test_start_process_runs_its_file_path_with_its_argument_list() -> None:
    """S-RULE-13: `Start-Process -FilePath taskkill -ArgumentList '/im lsass.exe /f'` is a forced kill of lsass."""
    named = _op("powershell", "start-process", params=(("filepath", "taskkill"), ("argumentlist", "/im lsass.exe /f")))
    assert effect(K.KILL_FORCED, "lsass.exe", "taskkill /f") in effects_of(named)


@requirement("S-RULE-20")
@pytest.mark.parametrize(
    "op",
    [
        _op("powershell", "write-output", "taskkill", "/im lsass.exe"),
        _op("dotnet", "system.console::writeline", "taskkill", "/im lsass.exe"),
        _op("cmd", "echo", "taskkill", "/im", "lsass.exe"),
    ],
)
def test_a_program_name_that_is_only_printed_starts_nothing(op: Operation) -> None:
    """S-RULE-20: `Write-Output taskkill …`, `[Console]::WriteLine`, `echo taskkill …` print; they kill nothing."""
    assert effects_of(op) == ()


@requirement("S-RULE-18")
def test_a_program_that_is_not_cmd_is_not_read_as_cmd_for_a_c_flag() -> None:
    """S-RULE-18: `findstr /c del C:\\Windows` searches for text; it deletes nothing."""
    found = effects_of(_op("program", "findstr", "/c", "del", "C:\\Windows"))
    assert found and all(e.kind is K.READ for e in found)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("com:wscript.shell.run", ("taskkill /im lsass.exe",)),
        ("com:wscript.shell.exec", ("taskkill /im lsass.exe",)),
        ("system.diagnostics.process::start", ("taskkill", "/im lsass.exe")),
        ("com:shell.application.shellexecute", ("taskkill", "/im lsass.exe")),
    ],
    ids=["run", "exec", "process-start", "shellexecute"],
)
def test_every_way_of_starting_a_command_line_by_value_is_read_through(name: str, args: tuple[str, ...]) -> None:
    """S-RULE-18: WScript.Shell `.Run`/`.Exec`, Process::Start and ShellExecute of taskkill kill lsass."""
    assert LSASS_KILL in effects_of(_op("com" if name.startswith("com:") else "dotnet", name, *args))


@requirement("S-RULE-11")
@pytest.mark.parametrize(
    "op",
    [
        _op("cmd", "start"),
        _op("com", "com:wscript.shell.run", ""),
        _op("com", "com:wscript.shell.exec", "   "),
    ],
)
def test_starting_nothing_gives_what_can_be_known_and_never_raises(op: Operation) -> None:
    """S-RULE-11: `start` with no program, `.Run('')`: an EXECUTE at most, no error."""
    found = effects_of(op)
    assert all(isinstance(e, Effect) and e.kind is K.EXECUTE for e in found)


@requirement("S-RULE-18")
def test_process_start_without_arguments_runs_the_program_with_none() -> None:
    """S-RULE-18: `[Diagnostics.Process]::Start('format')` names no volume, so no disk is destroyed."""
    found = effects_of(_op("dotnet", "system.diagnostics.process::start", "format"))
    assert found == (effect(K.EXECUTE, "format", "[Diagnostics.Process]::Start"),)


@requirement("S-RULE-18")
@pytest.mark.parametrize(("shell", "name"), [("powershell", "taskkill.exe"), ("cmd", "taskkill")])
def test_a_program_named_in_powershell_or_cmd_is_looked_up_by_its_stem(shell: Shell, name: str) -> None:
    """S-RULE-18: a program run from PowerShell or cmd has its catalogue effects: `taskkill.exe /im lsass.exe` kills."""
    assert effects_of(_op(shell, name, "/im", "lsass.exe")) == (LSASS_KILL,)


@requirement("S-RULE-18")
def test_a_program_started_from_its_path_is_executed_from_there() -> None:
    """S-RULE-18: the `<run>` operation of `& \\\\host\\share\\x.exe` executes that path, "started from its path"."""
    share = "\\\\host\\share\\x.exe"
    assert effects_of(_op("program", RUN_PATH, share)) == (effect(K.EXECUTE, share, "started from its path"),)
    assert effects_of(_op("program", RUN_PATH)) == (effect(K.EXECUTE, None, "started from its path"),)


@requirement("S-RULE-13")
def test_start_process_binds_its_positional_file_path_and_argument_list() -> None:
    """S-RULE-13: `Start-Process taskkill '/im lsass.exe /f'` (both positional) is a forced kill of lsass."""
    positional = _op("powershell", "start-process", "taskkill", "/im lsass.exe /f")
    assert effect(K.KILL_FORCED, "lsass.exe", "taskkill /f") in effects_of(positional)
