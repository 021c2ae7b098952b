"""An editor setting that turns an AI agent's own approvals off is refused (S-RULE-207).

Before, a FileSystem write of a workspace's `.vscode\\settings.json` with `"chat.tools.autoApprove": true` passed:
the next Copilot agent session in that folder runs every command with nobody asked — the "YOLO mode" of
CVE-2025-53773, which a prompt injection turns on by writing that one file. The user's own settings only asked.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_editor import approvals_turned_off, is_settings_file
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, reason_of, verdict

DENY = ("agent-approvals-off", "deny")
WORKSPACE = r"C:\Users\me\proj\.vscode\settings.json"
USER = r"C:\Users\me\AppData\Roaming\Code\User\settings.json"


@requirement("S-RULE-207")
@pytest.mark.parametrize(
    ("path", "content"),
    [
        (WORKSPACE, '{"chat.tools.autoApprove": true}'),
        (WORKSPACE, '{\n  "chat.tools.global.autoApprove":true\n}'),
        (WORKSPACE, '{"chat.tools.terminal.autoApprove": {"rm": true, "/.*/": true}}'),
        (WORKSPACE, '{"chat.tools.\\u0061utoApprove": true}'),  # a JSON escape
        (WORKSPACE, '{"roo-cline.allowedCommands": ["*"]}'),
        (WORKSPACE, '{"someagent.alwaysAllowExecute": true}'),
        (WORKSPACE, '{"agent.yoloMode": "on"}'),
        (r"C:\Users\me\proj\proj.code-workspace", '{"settings": {"chat.tools.autoApprove": true}}'),
        (USER, '{"chat.tools.autoApprove": true}'),
        (r"C:\Users\me\AppData\Roaming\Cursor\User\settings.json", '{"chat.tools.autoApprove": true}'),
        (r"C:\Users\me\proj\.aider.conf.yml", "model: x\nyes-always: true\n"),
        (r"C:\Users\me\.aider.conf.yaml", "yes-always: yes"),
    ],
)
def test_a_setting_that_turns_an_agents_approvals_off_is_refused(path: str, content: str) -> None:
    """S-RULE-207: a workspace's or the user's editor settings, a workspace file, aider's config."""
    assert verdict("FileSystem", mode="write", path=path, content=content) == DENY


@requirement("S-RULE-207")
@pytest.mark.parametrize(
    "command",
    [
        f"""Set-Content {WORKSPACE} '{{"chat.tools.autoApprove": true}}'""",
        """Add-Content .vscode/settings.json '"chat.tools.terminal.autoApprove": {"rm": true}'""",
        f"""[IO.File]::WriteAllText('{WORKSPACE}', '{{"chat.tools.autoApprove": true}}')""",
        """$k = 'chat.tools.' + 'autoApprove'; Set-Content .vscode\\settings.json ('{"' + $k + '": true}')""",
        """cmd /c "echo {""chat.tools.autoApprove"": true} > .vscode\\settings.json\"""",
    ],
)
def test_written_by_a_shell_it_is_refused_too(command: str) -> None:
    """S-RULE-207: PowerShell, .NET, a value folded from pieces, cmd's echo."""
    assert ps(command) == DENY


@requirement("S-RULE-207")
@pytest.mark.parametrize(
    ("path", "content"),
    [
        (WORKSPACE, '{"editor.fontSize": 14}'),
        (WORKSPACE, '{"chat.tools.autoApprove": false}'),
        (WORKSPACE, '{"chat.tools.autoApprove" :  false}'),
        (WORKSPACE, '{"chat.tools.terminal.autoApprove": {}}'),
        (WORKSPACE, '{"roo-cline.allowedCommands": []}'),
        (WORKSPACE, '{"chat.tools.autoApprove": null}'),
        (r"C:\Users\me\proj\notes.json", '{"chat.tools.autoApprove": true}'),  # not a settings file
        (r"C:\Users\me\proj\.aider.conf.yml", "yes-always: false"),
    ],
)
def test_other_settings_and_a_switch_left_off_stay_ordinary(path: str, content: str) -> None:
    """S-RULE-207: other settings, the switch set to false or empty, another file."""
    assert verdict("FileSystem", mode="write", path=path, content=content) is None


@requirement("S-RULE-207")
@pytest.mark.parametrize(
    ("path", "is_one"),
    [
        (WORKSPACE, True),
        (".vscode/settings.json", True),
        ("C:/p/x.code-workspace", True),
        (USER, True),
        (r"C:\Users\me\AppData\Roaming\Code - Insiders\User\settings.json", True),
        (r"C:\p\.aider.conf.yml", True),
        (r"C:\p\settings.json", False),
        (r"C:\p\my.vscode\settings.json", False),
        (r"C:\Users\me\AppData\Roaming\Code\User\keybindings.json", False),
        (None, False),
    ],
)
def test_which_files_are_an_editors_settings(path: str | None, is_one: bool) -> None:
    """S-RULE-207: a workspace's, a workspace file, the user's of VS Code and its forks, aider's."""
    assert is_settings_file(path) is is_one


@requirement("S-RULE-207")
def test_the_reason_names_the_setting_and_the_file() -> None:
    """S-RULE-207: which switch, in which file."""
    assert approvals_turned_off('{"a": 1, "chat.tools.autoApprove": true}') == "chat.tools.autoApprove"
    reason = reason_of(f"""Set-Content {WORKSPACE} '{{"chat.tools.autoApprove": true}}'""")
    assert "chat.tools.autoApprove" in reason
    assert ".vscode" in reason


@requirement("S-RULE-207")
def test_typed_into_a_console_is_refused() -> None:
    """S-RULE-207: the keyboard is a shell (issue 18 item 4)."""
    text = f"""Set-Content {WORKSPACE} '{{"chat.tools.autoApprove": true}}'"""
    assert typed_in_console(text) == DENY
