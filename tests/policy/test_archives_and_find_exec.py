"""What `tar -c` archives and what `find -exec` runs on are read whole; inline code inside WSL asks (S-RULE-162).

Every refusal below passed before: `tar` read only the folder it was handed (`.ssh` itself holds no secret, the
key inside does), `find -exec` was not read at all, and `python3 -c` asked on Windows but not inside WSL.
"""

from __future__ import annotations

import shlex

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("credential-access", "deny")
ASK = ("dynamic-command", "ask")


@requirement("S-RULE-162")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("tar -czf C:\\t\\a.tgz -C C:\\Users\\me .ssh", DENY),
        ("tar -czf C:\\t\\a.tgz C:\\Users\\me\\.ssh", DENY),
        ("tar czf C:\\t\\a.tgz C:\\Users\\me\\AppData", DENY),
        ("tar --create --file C:\\t\\a.tar --directory C:\\Users\\me .ssh", DENY),
        ("bash -c 'tar czf - /mnt/c/Users/me/.ssh | base64'", DENY),
        ("wsl -- tar -cf /tmp/x.tar -C /mnt/c/Users/me .ssh", DENY),
        ("tar -czf C:\\t\\a.tgz C:\\src\\proj", None),
        ("tar -cf C:\\t\\a.tar -C C:\\Users\\me notes.txt", None),  # the folder is where, not what
        ("wsl -- tar -cf /tmp/x.tar -C /mnt/c/Users/me notes.txt", None),
        ("wsl -- tar czf /tmp/s.tgz /mnt/c/src/proj", None),
        ("tar -xzf C:\\t\\a.tgz -C C:\\t\\out", None),
    ],
)
def test_what_tar_archives_is_read_whole(command: str, expected: object) -> None:
    """S-RULE-162: each source with everything below it, from the folder `-C` names."""
    assert ps(command) == expected


@requirement("S-RULE-162")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('bash -c "find /mnt/c/Users -name id_rsa -exec cat {} \\;"', DENY),
        ("wsl -- find /mnt/c/Users/me -name id_rsa -exec cat '{}' ';'", DENY),
        ("wsl -- find /mnt/c/Users/me -name 'id_*' -exec cp '{}' /tmp/ '+'", DENY),
        ("wsl -- find /mnt/c/Users/me -iname 'ID_RSA' -execdir cat '{}' ';'", DENY),
        ("wsl -- find /mnt/c/Users/me/Documents -type f -exec shred -u '{}' '+'", ("protected-place-delete", "deny")),
        ("wsl -- find /mnt/c/Windows/System32 -name '*.dll' -exec rm -f '{}' ';'", ("protected-place-delete", "deny")),
        ("wsl -- find /mnt/c/src -name '*.tmp' -exec rm '{}' ';'", ("recursive-delete", "deny")),  # as find -delete
        ("wsl -- find /mnt/c/src -name '*.log' -exec cat '{}' ';'", None),
        ("wsl -- find /mnt/c/Users/me -name notes.txt -exec cat '{}' ';'", None),
        ('find "TODO" C:\\src\\a.txt', None),  # Windows' own find: a text search
        # cmd's `for /r`: the body runs in every folder below the root
        ('cmd /c "for /r C:\\Users\\me %f in (id_rsa) do type %f"', DENY),
        ('cmd /c "for /r C:\\Users\\me %f in (*) do type %f"', DENY),
        ('cmd /c "for /r C:\\Users\\me %f in (*.key) do copy %f C:\\t"', DENY),
        ('cmd /c "for /r C:\\src %f in (*.log) do type %f"', None),
        ('cmd /c "for /r C:\\Users\\me %f in (id_rsa) do echo %f"', None),  # names only
    ],
)
def test_find_exec_runs_its_command_on_the_tree(command: str, expected: object) -> None:
    """S-RULE-162: a read reads the files `-name` picks below the folder, a delete deletes in all of it."""
    assert ps(command) == expected


@requirement("S-RULE-162")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("wsl -- python3 -c \"import os; os.remove('/mnt/c/Windows/System32/hal.dll')\"", ASK),
        ("wsl -- perl -e 'unlink \"/mnt/c/Windows/System32/hal.dll\"'", ASK),
        ("bash -c \"sudo python3 -c 'print(1)'\"", ASK),
        ("ubuntu run node -e 'x'", ASK),
        ("wsl -e sh -c 'ruby -e 1'", ASK),
        ("wsl -- python3 /home/me/app.py", None),
        ("wsl -- ls -la", None),
    ],
)
def test_inline_code_inside_linux_asks(command: str, expected: object) -> None:
    """S-RULE-162: as `python -c` on Windows does."""
    assert ps(command) == expected


def _nested(depth: int) -> str:
    """`wsl -e sh -c '…'` holding `rm -rf /mnt/c/Users` inside `depth` shells, quoted as POSIX shells quote."""
    line = "rm -rf /mnt/c/Users"
    for _ in range(depth):
        line = "sh -c " + shlex.quote(line)
    inner = shlex.split(line)[2]
    return "wsl -e sh -c '" + inner.replace("'", "''") + "'"


@requirement("S-RULE-162")
@pytest.mark.parametrize(
    ("depth", "expected"),
    [(1, ("protected-place-delete", "deny")), (2, ("protected-place-delete", "deny")),
     (3, ("protected-place-delete", "deny")), (4, ASK), (6, ASK)],
)  # fmt: skip
def test_a_linux_line_nested_deeper_than_read_asks(depth: int, expected: object) -> None:
    """S-RULE-162: read through `'"'"'` quoting up to the bound; beyond it, asked — never passed unread."""
    assert ps(_nested(depth)) == expected
