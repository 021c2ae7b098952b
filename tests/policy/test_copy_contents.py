"""A copy or an archive of a folder takes what is inside it (S-RULE-70)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()
CRED = ("credential-access", "deny")


def verdict(command: str) -> tuple[str, str] | None:
    hit = RULES.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-70")
@pytest.mark.parametrize(
    "command",
    [
        "Copy-Item ~\\.ssh C:\\t\\s -Recurse",
        "Copy-Item C:\\Users\\me\\.ssh C:\\t\\s -Recurse",
        "robocopy C:\\Users\\me\\.ssh C:\\t\\s /E",
        "xcopy C:\\Users\\me\\.ssh C:\\t\\s",  # xcopy copies a folder's files even without /E
        "Compress-Archive C:\\Users\\me\\.ssh C:\\t\\s.zip",
        'Compress-Archive "C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data" C:\\t\\c.zip',
        "Copy-Item C:\\Users\\me -Recurse D:\\backup",  # a whole profile holds its browsers' passwords
    ],
)
def test_a_folder_that_holds_a_credential_store_is_not_copied_away(command: str) -> None:
    """S-RULE-70: the credential store inside the copied folder is read with it."""
    assert verdict(command) == CRED


@requirement("S-RULE-70")
@pytest.mark.parametrize(
    "command",
    [
        "Copy-Item C:\\Users\\me\\.ssh C:\\t\\s",  # without -Recurse only the empty folder is made
        "Copy-Item C:\\Users\\me\\Documents C:\\backup -Recurse",
        "robocopy C:\\src D:\\src /E",
        "Compress-Archive C:\\src\\app C:\\t\\app.zip",
    ],
)
def test_folders_without_one_copy_as_before(command: str) -> None:
    """S-RULE-70: a folder with no credential store below it copies as before."""
    assert verdict(command) is None
