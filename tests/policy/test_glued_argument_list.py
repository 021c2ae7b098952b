"""`New-Object Type('arg')`: the parenthesised list glued to a word is its own argument (S-RULE-77).

PowerShell reads `New-Object IO.StreamWriter('C:\\x')` in argument mode as two arguments, the type
and `('C:\\x')`; the analyser left the second one not constant, so a write of the hosts file only asked.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.dispatch import analyse_tool
from tests._requirements import requirement
from tests.policy.verdicts import ps

HOSTS = "C:\\Windows\\System32\\drivers\\etc\\hosts"


@requirement("S-RULE-77")
@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("New-Object IO.StreamWriter('C:\\t\\log.txt')", ("IO.StreamWriter", "C:\\t\\log.txt")),
        ("New-Object System.Text.StringBuilder(10)", ("System.Text.StringBuilder", "10")),
        ("New-Object IO.FileStream('C:\\t\\a', 'Create')", ("IO.FileStream", "C:\\t\\a,Create")),
        ("$p = 'C:\\t\\b'; New-Object IO.StreamWriter($p)", ("IO.StreamWriter", "C:\\t\\b")),
    ],
    ids=["one", "number", "two", "variable"],
)
def test_the_glued_list_is_folded_as_an_argument(command: str, args: tuple[str, ...]) -> None:
    """S-RULE-77: one value, or the array of several, as PowerShell passes `ArgumentList`."""
    (op,) = [o for o in analyse_tool("PowerShell", {"command": command}).operations if o.name == "new-object"]
    assert op.args == args


@requirement("S-RULE-77")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (f"New-Object IO.StreamWriter('{HOSTS}')", ("protected-place-write", "deny")),
        (f"New-Object IO.FileStream('{HOSTS}', 'Create')", ("protected-place-write", "deny")),
        (
            "$sw = New-Object IO.StreamWriter('C:\\Users\\me\\.ssh\\authorized_keys'); $sw.WriteLine('ssh-rsa x')",
            ("account-change", "deny"),
        ),
        (
            "New-Object IO.StreamReader("
            "'C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data')",
            ("credential-access", "deny"),
        ),
        ("New-Object IO.StreamWriter('C:\\t\\log.txt')", None),
        ("New-Object Net.Sockets.TcpClient('example.com', 443)", None),
    ],
    ids=["hosts-writer", "hosts-stream", "authorized-keys", "browser-passwords", "own-log", "socket"],
)
def test_what_the_object_opens_is_judged(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-77: the writer, stream or reader is judged on the file it opens, both ways."""
    assert ps(command) == expected
