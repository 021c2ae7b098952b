"""Behaviour an eighth random mutation sample of policy/ (seed 20261210) found unpinned (issue 12).

Each test is a command an agent could send, or a key sequence, and what the gateway reads from it. Most of these
survivors were in this stop's own new readings (S-RULE-133 … S-RULE-146): the tests pin what those readings promise.
"""

from __future__ import annotations

import pytest

from policy.rules.keyboard import follow_keys
from policy.rules.uia_keys import KeyEvent
from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-124")
def test_a_script_run_by_path_with_an_argument_runs_no_command_line() -> None:
    """S-RULE-124: `bash ./clean.sh 'rm -rf …'` runs the script with one argument; only `-c` (alone or in a cluster)
    makes the next word a command line, a `c` inside a script's name does not."""
    assert ps("bash ./clean.sh 'rm -rf /mnt/c/Users'") is None
    assert ps("bash -lc 'rm -rf /mnt/c/Users'") == ("protected-place-delete", "deny")


@requirement("S-RULE-138")
def test_dd_splits_each_operand_at_its_first_equals_sign() -> None:
    """S-RULE-138: `of=C:/…/a=b.dll` names the file `a=b.dll`; dd reads the operand name up to the first `=`."""
    assert ps("dd.exe if=/dev/zero of=C:/Windows/System32/a=b.dll") == ("protected-place-write", "deny")


@requirement("S-RULE-138")
def test_busybox_takes_its_applet_by_the_last_part_of_a_path() -> None:
    """S-RULE-138: `busybox /usr/bin/rm x` runs the `rm` applet, as busybox reads the base name."""
    assert ps("busybox /usr/bin/rm C:/Windows/System32/hal.dll") == ("protected-place-delete", "deny")


@requirement("S-RULE-13")
def test_an_int_cast_folds_to_its_number() -> None:
    """S-RULE-13: `[int]'2'` is 2, so a path built with it is constant."""
    assert ps("$n = [int]'2'; Remove-Item ('C:\\Windows\\System3' + $n)") == ("protected-place-delete", "deny")


@requirement("S-RULE-99")
def test_a_local_write_of_a_value_read_from_a_file_sends_nothing() -> None:
    """S-RULE-99: only an upload method handed a computed value sends it; a .NET write of it to a local file does
    not make the read an upload."""
    assert ps("$d = Get-Content C:\\t\\a.txt; [IO.File]::WriteAllText('C:\\t\\b.txt', $d)") is None


@requirement("S-RULE-12")
def test_a_pasted_clipboard_with_line_breaks_leaves_its_last_line_typed() -> None:
    """S-RULE-12: each break runs the line before it; what follows the last break is the line being typed."""
    line, known = follow_keys("", True, [KeyEvent("paste")], "dir\nrd /s /q C:\\x\nnotepad")
    assert (line, known) == ("notepad", True)


@requirement("S-RULE-142")
@pytest.mark.parametrize(
    "command",
    [
        "[Activator]::CreateInstance([Type]::GetTypeFromProgID('WScript.Shell')).Run('cmd /c rd /s /q C:\\Users')",
        "{ Remove-Item C:\\Windows\\System32 -Recurse -Force }.Invoke()",
    ],
)
def test_objects_and_blocks_reached_indirectly_are_still_judged(command: str) -> None:
    """S-RULE-142: a COM object made from a type looked up by ProgID, a script block invoked directly."""
    assert ps(command) == ("protected-place-delete", "deny")
