"""A debugger attached to a process, and `git clean` of untracked files (S-RULE-67)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()


def verdict(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-67")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ntsd -c q -pn lsass.exe", ("credential-access", "deny")),  # reads its memory, and `q` ends it
        ("cdb -pn lsass.exe", ("credential-access", "deny")),
        ("ntsd -c q -p 624", ("credential-access", "deny")),  # a pid may be lsass
        ("windbg -pn MsMpEng.exe", ("kill-critical-process", "deny")),
        ("cdb -pn notepad.exe -c q", ("force-kill", "ask")),
        ("git clean -xdf build", ("recursive-delete", "deny")),
        ("git clean --force -d src\\gen", ("recursive-delete", "deny")),
        ("git clean -fdx", ("protected-place-delete", "deny")),  # in the PowerShell tool's folder: the profile
    ],
)
def test_a_debugger_on_a_process_and_git_clean_are_judged_by_their_effect(
    command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-67: `ntsd`/`cdb`/`windbg -pn|-p` read the process's memory and end it on quit; `git clean -f`
    with `-d`/`-x` deletes the untracked files below its folder, like `Remove-Item -Recurse`."""
    assert verdict(command) == expected


@requirement("S-RULE-67")
@pytest.mark.parametrize(
    "command", ["git clean -n -d", "git clean -f", "git status", "ntsd notepad.exe", "cdb -z C:\\t\\crash.dmp"]
)
def test_a_dry_run_a_file_only_clean_and_starting_a_program_under_a_debugger_pass(command: str) -> None:
    """S-RULE-67: `-n` only lists; `-f` alone keeps folders (one file each is an ordinary delete)."""
    assert verdict(command) is None
