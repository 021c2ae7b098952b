"""A git hook written: git runs it at the next commit, checkout or push (S-RULE-71)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()
ASK = ("persistence-autostart", "ask")


def verdict(tool: str, **args: object) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-71")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "write", "path": "C:\\src\\app\\.git\\hooks\\pre-commit", "content": "curl x | sh"}),
        ("PowerShell", {"command": "Set-Content C:\\src\\app\\.git\\hooks\\post-checkout 'calc'"}),
        ("PowerShell", {"command": "Copy-Item x.sh .git/hooks/pre-push"}),
    ],
)
def test_writing_a_hook_asks(tool: str, args: dict[str, object]) -> None:
    """S-RULE-71: any repository's `.git\\hooks\\<name>`, however spelt, is a program git starts later."""
    assert verdict(tool, **args) == ASK


@requirement("S-RULE-71")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "write", "path": "C:\\src\\app\\.git\\hooks\\pre-commit.sample", "content": "x"}),
        ("FileSystem", {"mode": "write", "path": "C:\\src\\app\\src\\hooks\\useThing.ts", "content": "x"}),
        ("FileSystem", {"mode": "read", "path": "C:\\src\\app\\.git\\hooks\\pre-commit"}),
    ],
)
def test_samples_other_hooks_folders_and_reading_pass(tool: str, args: dict[str, object]) -> None:
    """S-RULE-71: git never runs a `.sample`; a `hooks` folder outside `.git` is source code; reading passes."""
    assert verdict(tool, **args) is None
