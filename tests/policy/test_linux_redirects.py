"""A Linux shell's redirections are writes and reads (S-RULE-190).

Every refusal below passed before: a redirection inside `wsl`/`bash -c` was a word of `echo`, so
`wsl sh -c 'echo x > /mnt/c/Windows/System32/x.dll'` wrote into System32 unjudged.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-190")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("wsl -- sh -c 'echo x > /mnt/c/Windows/System32/x.dll'", ("protected-place-write", "deny")),
        ("wsl -- bash -c 'echo x >/mnt/c/Windows/System32/x.dll'", ("protected-place-write", "deny")),
        ("wsl -- bash -c 'echo x 1> /mnt/c/Windows/System32/x.dll'", ("protected-place-write", "deny")),
        ("wsl -- bash -c 'ls 2> /mnt/c/Windows/win.ini'", ("protected-place-write", "deny")),
        ("wsl -- bash -c 'cd /mnt/c/Windows/System32 && echo x > hal.dll'", ("protected-place-write", "deny")),
        ("wsl sh -c 'echo x >> ~/.bashrc'", ("persistence-autostart", "ask")),
        ("bash -c 'echo x >> ~/.bashrc'", ("persistence-autostart", "ask")),
        ("wsl bash -c 'cat < ~/.ssh/id_rsa'", ("credential-access", "deny")),
        ("wsl bash -c 'echo key >>/mnt/c/Users/me/.ssh/authorized_keys'", ("account-change", "deny")),
        ("wsl -- bash -c \"sh -c 'echo x > /mnt/c/Windows/System32/x.dll'\"", ("protected-place-write", "deny")),
    ],
)
def test_a_redirection_writes_or_reads_its_file(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-190: `>`/`>>`/`>|` write, `<` reads, mapped as the command's other paths."""
    assert ps(command) == expected


@requirement("S-RULE-190")
@pytest.mark.parametrize(
    "command",
    [
        "wsl -- bash -c 'echo hi > /tmp/x'",
        "wsl -- bash -c 'ls > /dev/null 2>&1'",
        "wsl -- bash -c 'grep x file.txt 2>/dev/null'",
        "wsl -- bash -c 'cat <<EOF > /tmp/y'",
        "wsl -- bash -c 'wc -l <<< hello'",
        "wsl -- bash -c 'echo x > /mnt/c/Users/me/Documents/notes.txt'",
        "wsl -- bash -c 'sort < /tmp/list.txt'",
    ],
)
def test_copied_streams_here_documents_and_ordinary_files_stay_ordinary(command: str) -> None:
    """S-RULE-190: no file, or a file no place holds."""
    assert ps(command) is None
