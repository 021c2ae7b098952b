"""More MCP clients' server lists are the gateway's to guard (S-RULE-212).

Before, a write of a project's `.vs\\mcp.json` (Visual Studio), `.roo\\mcp.json`, `.kilocode\\mcp.json`,
`.amazonq\\mcp.json`, `.continue\\mcpServers\\w.yaml`, `opencode.json` or `crush.json`, of GitHub Copilot CLI's or
Amazon Q's user list, or of Claude Code's machine-wide `managed-mcp.json` passed: any of them can start Windows-MCP
with no gateway in front at the client's next start.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import _guarded_rules, guarded

GUARD = ("self-protection", "deny")
LISTS = [
    "C:\\ProgramData\\ClaudeCode\\managed-mcp.json",
    "C:\\ProgramData\\ClaudeCode\\managed-settings.json",
    "C:\\Users\\me\\.copilot\\mcp-config.json",
    "C:\\Users\\me\\.aws\\amazonq\\mcp.json",
    "C:\\src\\repo\\.vs\\mcp.json",
    "C:\\src\\repo\\.roo\\mcp.json",
    "C:\\src\\repo\\.kilocode\\mcp.json",
    "C:\\src\\repo\\.amazonq\\mcp.json",
    "C:\\src\\repo\\.continue\\mcpServers\\windows.yaml",
    "C:\\src\\repo\\opencode.json",
    "C:\\src\\repo\\opencode.jsonc",
    "C:\\src\\repo\\crush.json",
    "C:\\src\\repo\\.crush.json",
    "c:/src/repo/.ROO/MCP.JSON",  # any case, either slash
]
SERVER = '{"mcpServers": {"w": {"command": "uvx", "args": ["windows-mcp"]}}}'


@requirement("S-RULE-212")
@pytest.mark.parametrize("path", LISTS)
@pytest.mark.parametrize("mode", ["write", "delete"])
def test_a_change_of_the_list_is_refused(path: str, mode: str) -> None:
    """S-RULE-212: rewritten, the client's next start may run Windows-MCP with no gateway in front."""
    args = {"mode": mode, "path": path, **({"content": SERVER} if mode == "write" else {})}
    assert guarded("FileSystem", **args) == GUARD


@requirement("S-RULE-212")
@pytest.mark.parametrize("path", LISTS[:3] + LISTS[4:6])
def test_a_copy_or_move_onto_it_is_refused(path: str) -> None:
    """S-RULE-212: put in place from elsewhere is the same change."""
    assert guarded("FileSystem", mode="copy", path="C:\\t\\x.json", destination=path) == GUARD
    assert guarded("FileSystem", mode="move", path="C:\\t\\x.json", destination=path) == GUARD


@requirement("S-RULE-212")
@pytest.mark.parametrize(
    "command",
    [
        "Set-Content C:\\src\\repo\\.roo\\mcp.json '{}'",
        "Remove-Item C:\\src\\repo\\.vs\\mcp.json",
        'cmd /c "echo {} > C:\\src\\repo\\.kilocode\\mcp.json"',
        "Copy-Item C:\\t\\x.json $env:USERPROFILE\\.copilot\\mcp-config.json",
        "Set-Content C:\\src\\repo\\.continue\\mcpServers\\w.yaml 'name: w'",
        "Move-Item C:\\t\\o.json C:\\src\\repo\\opencode.json",
    ],
)
def test_shell_text_naming_it_is_refused(command: str) -> None:
    """S-RULE-212: a script may write it by any means; the name is enough."""
    assert guarded("PowerShell", command=command) == GUARD


@requirement("S-RULE-212")
def test_typed_into_a_console_is_refused() -> None:
    """S-RULE-212: the keyboard is a shell (typed text is judged with the gateway's own files guarded too)."""
    assert typed_in_console("Set-Content C:\\src\\repo\\.roo\\mcp.json '{}'", rules=_guarded_rules()) == GUARD


@requirement("S-RULE-212")
@pytest.mark.parametrize(
    "path",
    ["C:\\src\\repo\\.roo\\mcp.json", "C:\\src\\repo\\opencode.json", "C:\\Users\\me\\.copilot\\mcp-config.json"],
)
def test_reading_it_stays_ordinary(path: str) -> None:
    """S-RULE-212: FileSystem read changes nothing."""
    assert guarded("FileSystem", mode="read", path=path) is None


@requirement("S-RULE-212")
@pytest.mark.parametrize(
    "path",
    [
        "C:\\src\\repo\\my-opencode.json",
        "C:\\src\\repo\\crushed.json",
        "C:\\src\\repo\\roo\\mcp.json.bak",
        "C:\\src\\repo\\.continue\\notes.md",
        "C:\\src\\repo\\vs\\mcp-notes.md",
    ],
)
def test_a_name_that_only_resembles_one_stays_ordinary(path: str) -> None:
    """S-RULE-212: no false alarm on files that merely contain the name."""
    assert guarded("FileSystem", mode="write", path=path, content="{}") is None
