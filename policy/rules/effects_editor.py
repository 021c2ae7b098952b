"""An editor's task file that runs a command when its folder is opened (S-RULE-195, S-RULE-197).

VS Code and its forks (Cursor, Windsurf) read `.vscode\\tasks.json`; a task with
`"runOptions": {"runOn": "folderOpen"}` runs by itself the next time anyone opens the folder (the
technique of 2025's "Contagious Interview" repositories). A write of that file is a `PERSISTENCE` effect
when its content holds such a task, or when the gateway did not read the content (a copy, a move, a
value it cannot fold, text piped in): it cannot tell such a file from a harmless one. A write with
constant content and no such task (a build task run by hand) is ordinary, whichever tool wrote it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from policy.rules.effects_common import Effects, effect
from policy.rules.shell.dispatch import written_with_content
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

__all__ = ["editor_task", "editor_tasks_written", "is_task_file", "runs_on_open"]

K = EffectKind
_TASKS_FILE = re.compile(r"(?:^[\"']?|[\\/])\.vscode[\\/]+tasks\.json[\s.]*[\"']?$", re.IGNORECASE)
_RUNS_ON_OPEN = re.compile(r"[\"']?runOn[\"']?\s*:\s*[\"']folderOpen[\"']", re.IGNORECASE)
_JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
_RUN = "an editor task run when the folder is opened (runOn folderOpen)"
_UNREAD = "an editor's task file written with content the gateway did not read (a task may run when the folder opens)"


def is_task_file(path: Value) -> bool:
    """Whether `path` names a workspace's task file (`…\\.vscode\\tasks.json`, any case, `/` or `\\`)."""
    return path is not None and _TASKS_FILE.search(path) is not None


def runs_on_open(content: str | None) -> bool:
    """Whether a task file's text holds a task run when the folder opens (JSON's `\\uXXXX` escapes decoded)."""
    text = _JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), content or "")
    return _RUNS_ON_OPEN.search(text) is not None


def editor_task(path: Value, content: Value, *, read: bool = True) -> Effects:
    """The persistence a write of `content` to `path` adds: one effect for a task file whose content runs on
    opening, or was not read (`read=False`, or `content` None where it was); nothing otherwise."""
    if not is_task_file(path):
        return ()
    if read and content is not None:
        return (effect(K.PERSISTENCE, path, _RUN),) if runs_on_open(content) else ()
    return (effect(K.PERSISTENCE, path, _UNREAD),)


def editor_tasks_written(ops: Sequence[Operation], per_op: Sequence[Effects]) -> Effects:
    """For a shell analysis: the persistence of each task file its writes make (`per_op`: each operation's
    effects). A file counts as read only when every write of it is a writer whose constant content the
    analyser holds (`Set-Content`, `>`, `[IO.File]::WriteAllText` …); a copy, move or rename onto it is not."""
    targets = [
        e.target for effects in per_op for e in effects if e.kind is K.WRITE and e.target and is_task_file(e.target)
    ]
    if not targets:
        return ()
    writes = Counter(_key(t) for t in targets)
    contents: dict[str, list[Value]] = {}
    for _, path, content in written_with_content(ops):
        contents.setdefault(_key(path), []).append(content)
    found: list[Effect] = []
    for target in dict.fromkeys(targets):
        read = contents.get(_key(target), [])
        unread = len(read) < writes[_key(target)] or None in read
        found += editor_task(target, None if unread else "\n".join(c or "" for c in read), read=not unread)
    return tuple(found)


def _key(path: str) -> str:
    return path.strip().strip("'\"").replace("/", "\\").lower()
