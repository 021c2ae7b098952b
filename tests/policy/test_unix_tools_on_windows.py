"""Unix tools on Windows (S-RULE-138): Git for Windows, MSYS2, Cygwin and busybox-w32 ship `rm`, `mv`, `cp`, `dd`
and shells that name the Windows drives their own way. Each is judged on the Windows files it touches.

How each names the drive: WSL `/mnt/c/…`, Git for Windows and MSYS2 `/c/…`, Cygwin `/cygdrive/c/…`, and any of
them accepts `C:/…` (or `C:\\…`) when started from Windows.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_linux import unix_tool_effects, wsl_path
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

K = EffectKind
DELETE = ("protected-place-delete", "deny")


@requirement("S-RULE-138")
@pytest.mark.parametrize(
    ("written", "windows"),
    [
        ("/mnt/c/Windows", "c:\\Windows"),
        ("/c/Windows/System32", "c:\\Windows\\System32"),
        ("/cygdrive/d/data", "d:\\data"),
        ("/C/Users", "c:\\Users"),
        ("C:/Users/me", "C:\\Users\\me"),
        ("C:\\Users\\me", "C:\\Users\\me"),
        ("/home/me/x", "\\\\wsl.localhost\\linux\\home\\me\\x"),
        ("/cc/x", "\\\\wsl.localhost\\linux\\cc\\x"),  # a folder with a longer name is no drive
        ("build", "build"),
    ],
)
def test_each_unix_layers_drive_spelling_is_the_drive(written: str, windows: str) -> None:
    """S-RULE-138: `/mnt/c`, `/c`, `/cygdrive/c` and `C:/` are drive C:; other rooted paths stay Linux-side."""
    assert wsl_path(written) == windows


@requirement("S-RULE-138")
@pytest.mark.parametrize(
    "command",
    [
        r"& 'C:\Program Files\Git\bin\bash.exe' -c 'rm /c/Windows/System32/hal.dll'",
        r"& 'C:\msys64\usr\bin\bash.exe' -lc 'rm -rf /c/Windows/System32'",
        r"& 'C:\cygwin64\bin\bash.exe' -c 'rm /cygdrive/c/Windows/System32/hal.dll'",
        "zsh -c 'rm /c/Windows/System32/hal.dll'",
        "rm.exe C:/Windows/System32/hal.dll",
        r"& 'C:\Program Files\Git\usr\bin\rm.exe' -rf /c/Windows/System32",
        "busybox rm C:/Windows/System32/hal.dll",
        "busybox sh -c 'rm /c/Windows/System32/hal.dll'",
        "mv.exe C:/Windows/System32/hal.dll C:/t/",
        r"& 'C:\Program Files\Git\usr\bin\find.exe' /c/Windows/System32 -name '*.dll' -delete",
    ],
)
def test_a_unix_tools_delete_of_a_protected_place_is_refused(command: str) -> None:
    """S-RULE-138: the same delete or move whichever Unix layer runs it."""
    assert ps(command) == DELETE


@requirement("S-RULE-138")
def test_a_unix_tools_write_and_a_raw_disk_are_judged() -> None:
    """S-RULE-138: `cp` onto a system file writes it; `dd` onto a raw disk destroys it; `dd if=` reads."""
    assert ps("cp.exe C:/t/x.dll C:/Windows/System32/hal.dll") == ("protected-place-write", "deny")
    assert ps("dd.exe if=/dev/zero of=//./PhysicalDrive0 bs=1M") == ("format-disk", "deny")
    assert ps(r"dd.exe if=/dev/zero of=\\.\C: bs=1M") == ("format-disk", "deny")
    copied = unix_tool_effects("dd", ("if=C:/t/a.iso", "of=C:/t/b.iso", "bs=4M"))
    assert [(e.kind, e.target) for e in copied] == [(K.READ, "C:\\t\\a.iso"), (K.WRITE, "C:\\t\\b.iso")]
    app = {
        "mode": "launch_executable",
        "executable": r"C:\Program Files\Git\usr\bin\cp.exe",
        "args": ["C:/t/x.dll", "C:/Windows/System32/hal.dll"],
    }
    assert verdict("App", **app) == ("protected-place-write", "deny")


@requirement("S-RULE-138")
@pytest.mark.parametrize(
    "command",
    [
        "cp.exe a.txt b.txt",
        "rm.exe C:/t/old.txt",
        "dd.exe if=C:/t/a.iso of=C:/t/b.iso bs=4M",
        "find /c 'error' C:\\t\\log.txt",  # Windows' find: a count of matching lines
        "find . -name '*.py'",
        "bash -lc 'ls /c/Users'",
        "busybox ls -la",
        "bash --login -i",
    ],
)
def test_ordinary_uses_pass(command: str) -> None:
    """S-RULE-138: copies of the user's files, image files, searches, listings and an interactive shell."""
    assert ps(command) is None
