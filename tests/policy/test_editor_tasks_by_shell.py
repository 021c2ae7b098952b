"""An editor task file written by PowerShell or cmd is judged by its content; one put in place unread asks
(S-RULE-197).

Before, only the FileSystem tool's write of `.vscode\\tasks.json` was read (S-RULE-195): `Set-Content` of the same
`folderOpen` task, a copy of a prepared file onto it, or text piped in all passed, and VS Code runs such a task by
itself the next time anyone opens the folder.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_editor import is_task_file, runs_on_open
from policy.rules.shell.ops import EffectKind as K
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, ps_effects, verdict

ASK = ("persistence-autostart", "ask")
TASKS = r"C:\Users\me\proj\.vscode\tasks.json"
ON_OPEN = '{"tasks": [{"command": "x", "runOptions": {"runOn": "folderOpen"}}]}'
BY_HAND = '{"tasks": [{"label": "build", "command": "npm run build"}]}'


@requirement("S-RULE-197")
@pytest.mark.parametrize(
    "command",
    [
        f"Set-Content {TASKS} '{ON_OPEN}'",
        f"Add-Content {TASKS} '{ON_OPEN}'",
        f"Set-Content -Path .vscode/tasks.json -Value '{ON_OPEN}'",
        f"New-Item {TASKS} -Value '{ON_OPEN}' -Force",
        f"[IO.File]::WriteAllText('{TASKS}', '{ON_OPEN}')",
        # folded: the name of the option split over two strings
        '$t = \'{"runOptions": {"runOn": "folder\' + \'Open"}}\'; Set-Content .vscode\\tasks.json $t',
        # JSON's escapes are decoded (`\u0066` is `f`)
        f'Set-Content {TASKS} \'{{"runOn": "\\u0066olderOpen"}}\'',
        'cmd /c "echo {""runOn"":""folderOpen""} > .vscode\\tasks.json"',
    ],
)
def test_a_folder_open_task_written_by_a_shell_asks(command: str) -> None:
    """S-RULE-197: constant content holding a task run on opening."""
    assert ps(command) == ASK


@requirement("S-RULE-197")
@pytest.mark.parametrize(
    "command",
    [
        rf"Copy-Item C:\t\evil.json {TASKS}",
        rf"Move-Item C:\t\evil.json {TASKS}",
        r"Rename-Item C:\Users\me\proj\.vscode\t.json tasks.json",
        r"Get-Content C:\t\evil.json | Set-Content .vscode\tasks.json",
        "@{tasks=@(@{runOptions=@{runOn='folderOpen'}})} | ConvertTo-Json -Depth 5 | Set-Content .vscode\\tasks.json",
        rf"Set-Content {TASKS} $args[0]",
        rf"'x' | New-Item {TASKS}",
        r'cmd /c "copy C:\t\evil.json .vscode\tasks.json"',
        # written twice, once with a harmless constant and once unread: the unread one decides
        rf"Set-Content {TASKS} '{BY_HAND}'; Copy-Item C:\t\evil.json {TASKS}",
    ],
)
def test_a_task_file_written_unread_asks(command: str) -> None:
    """S-RULE-197: a copy, move, rename, piped or computed text: the gateway cannot tell it from a harmless one."""
    assert ps(command) == ASK


@requirement("S-RULE-197")
@pytest.mark.parametrize(
    "command",
    [
        f"Set-Content {TASKS} '{BY_HAND}'",
        f"Set-Content .vscode\\tasks.json '{BY_HAND}'; Add-Content .vscode\\tasks.json ''",
        rf"New-Item {TASKS} -Force",
        rf"New-Item -ItemType File {TASKS}",
        rf"Get-Content {TASKS}",
        rf"Copy-Item {TASKS} C:\backup\tasks.json",  # the task file copied away is not put in place
        r"Copy-Item C:\t\evil.json C:\Users\me\proj\.vscode\settings-tasks.json",
        f"Set-Content C:\\t\\tasks.json '{ON_OPEN}'",  # not in a `.vscode` folder
    ],
)
def test_harmless_task_files_and_others_stay_ordinary(command: str) -> None:
    """S-RULE-197: constant content without such a task, an empty file, a read, another file."""
    assert ps(command) is None


@requirement("S-RULE-197")
def test_the_filesystem_tools_copy_onto_it_asks_and_its_harmless_write_passes() -> None:
    """S-RULE-197: the FileSystem tool is judged the same way (its write was S-RULE-195)."""
    assert verdict("FileSystem", mode="copy", path=r"C:\t\evil.json", destination=TASKS) == ASK
    assert verdict("FileSystem", mode="move", path=r"C:\t\evil.json", destination=TASKS) == ASK
    assert verdict("FileSystem", mode="write", path=TASKS, content=BY_HAND) is None


@requirement("S-RULE-197")
def test_the_effect_says_whether_the_content_was_read() -> None:
    """S-RULE-197: the reason tells a task seen from a file not read."""
    seen = [e for e in ps_effects(f"Set-Content {TASKS} '{ON_OPEN}'") if e.kind is K.PERSISTENCE]
    unread = [e for e in ps_effects(rf"Copy-Item C:\t\x.json {TASKS}") if e.kind is K.PERSISTENCE]
    assert [e.target for e in seen] == [TASKS]
    assert "folderOpen" in seen[0].detail
    assert [e.target for e in unread] == [TASKS]
    assert "did not read" in unread[0].detail


@requirement("S-RULE-197")
@pytest.mark.parametrize(
    ("path", "is_one"),
    [
        (TASKS, True),
        (".vscode\\tasks.json", True),
        ("'.vscode/tasks.json'", True),
        ("C:/p/.VSCode/Tasks.JSON", True),
        ("C:\\p\\.vscode\\tasks.json. ", True),  # Windows drops trailing dots and blanks
        ("C:\\p\\my.vscode\\tasks.json", False),
        ("C:\\p\\.vscode\\tasks.json.bak", False),
        ("C:\\p\\tasks.json", False),
        (None, False),
    ],
)
def test_which_paths_are_a_task_file(path: str | None, is_one: bool) -> None:
    """S-RULE-197: `.vscode\\tasks.json` in any folder, relative or absolute, any case or separator."""
    assert is_task_file(path) is is_one


@requirement("S-RULE-197")
def test_only_a_folder_open_run_counts() -> None:
    """S-RULE-197: `runOn` set to `default` is a task run by hand."""
    assert runs_on_open(ON_OPEN)
    assert not runs_on_open('{"runOptions": {"runOn": "default"}}')
    assert not runs_on_open(None)


@requirement("S-RULE-197")
def test_typed_into_a_console_asks() -> None:
    """S-RULE-197: the keyboard is a shell (issue 18 item 4)."""
    text = rf"Copy-Item C:\t\evil.json {TASKS}"
    assert typed_in_console(text) == ASK


@requirement("S-RULE-13")
@pytest.mark.parametrize("command", ["", "   ", "\n\t\n", "\u00a0"])
def test_an_empty_script_is_no_command(command: str) -> None:
    """S-RULE-13: blank text runs nothing; it is not a syntax error to ask about."""
    assert ps(command) is None
    assert ps(f"Set-Content C:\\t\\x.ps1 '{command}'") is None


@requirement("S-RULE-197")
def test_a_task_split_over_two_writes_of_one_file_is_read_whole() -> None:
    """S-RULE-197: the writes of one file, however its path is spelled (case, `/` or `\\`), are read together:
    `"runOn":` in one and `"folderOpen"` in the next make the task."""
    first = 'Set-Content .vscode\\tasks.json \'{"tasks": [{"runOptions": {"runOn":\''
    second = "Add-Content .VSCode/Tasks.json '\"folderOpen\"}}]}'"
    assert ps(f"{first}; {second}") == ASK


@requirement("S-RULE-197")
def test_a_write_whose_content_was_not_read_is_unread_even_with_text_in_hand() -> None:
    """S-RULE-197: `read=False` (a copy's source) ignores any text: the file cannot be told from a harmless one."""
    from policy.rules.effects_editor import editor_task

    effects = editor_task(TASKS, BY_HAND, read=False)
    assert [e.kind for e in effects] == [K.PERSISTENCE]
    assert "did not read" in effects[0].detail
    assert editor_task(TASKS, BY_HAND) == ()
