"""An archiver told to delete what it archived is a recursive delete of each source (S-RULE-183).

Every refusal below passed before: `tar --remove-files` and `7z a -sdel` were read as archives (their sources read),
not as the deletes they also are, so "archive the Documents folder and clean up" removed it unjudged.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-183")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"tar -czf C:\t\d.tgz C:\Users\me\Documents --remove-files", ("protected-place-delete", "deny")),
        (r"tar -czf C:\t\d.tgz -C C:\Users\me Documents --remove-files", ("protected-place-delete", "deny")),
        (r"tar --remove-files -cf C:\t\logs.tar C:\t\logs", ("recursive-delete", "deny")),
        (r"7z a -sdel C:\t\d.7z C:\Users\me\Documents", ("protected-place-delete", "deny")),
        (r"7z a -sdel C:\t\logs.7z C:\t\logs", ("recursive-delete", "deny")),
        ("wsl tar -czf /tmp/d.tgz /mnt/c/Users/me/Documents --remove-files", ("protected-place-delete", "deny")),
        (r"cmd /c tar -cf C:\t\x.tar C:\Users\me\Desktop --remove-files", ("protected-place-delete", "deny")),
    ],
)
def test_an_archiver_deleting_what_it_archived_is_a_recursive_delete(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-183: each source is deleted with everything below it."""
    assert ps(command) == expected


@requirement("S-RULE-183")
@pytest.mark.parametrize(
    "command",
    [
        r"tar -czf C:\t\d.tgz C:\Users\me\Documents",
        r"7z a C:\t\d.7z C:\Users\me\Documents",
        r"tar -xf C:\t\d.tgz -C C:\t\out",
        "wsl tar -czf /tmp/d.tgz /mnt/c/t/logs",
    ],
)
def test_archiving_without_deleting_stays_ordinary(command: str) -> None:
    """S-RULE-183: only the option that deletes the sources is a delete."""
    assert ps(command) is None
