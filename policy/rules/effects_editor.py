"""An editor's task file that runs a command when its folder is opened (S-RULE-195, S-RULE-197).

VS Code and its forks (Cursor, Windsurf) read `.vscode\\tasks.json`; a task with
`"runOptions": {"runOn": "folderOpen"}` runs by itself the next time anyone opens the folder (the
technique of 2025's "Contagious Interview" repositories). A write of that file is a `PERSISTENCE` effect
when its content holds such a task, or when the gateway did not read the content (a copy, a move, a
value it cannot fold, text piped in): it cannot tell such a file from a harmless one. A write with
constant content and no such task (a build task run by hand) is ordinary, whichever tool wrote it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence

from policy.rules.effects_common import RUNS_UNASKED, Effects, effect
from policy.rules.effects_project_sources import is_project_sources_file, project_sources
from policy.rules.shell.dispatch import written_with_content
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

__all__ = [
    "AGENT_APPROVALS",
    "approvals_turned_off",
    "editor_files_written",
    "editor_settings",
    "editor_task",
    "install_scripts",
    "is_settings_file",
    "is_task_file",
    "runs_on_open",
]

K = EffectKind
_TASKS_FILE = re.compile(r"(?:^[\"']?|[\\/])\.vscode[\\/]+tasks\.json[\s.]*[\"']?$", re.IGNORECASE)
_RUNS_ON_OPEN = re.compile(r"[\"']?runOn[\"']?\s*:\s*[\"']folderOpen[\"']", re.IGNORECASE)
_JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
# An editor's settings (S-RULE-207): a workspace's `.vscode\settings.json` or `*.code-workspace`, and the user's own
# settings of VS Code and its forks. A setting there can turn an AI agent's own approvals off (VS Code's
# `chat.tools.autoApprove` — the "YOLO mode" of CVE-2025-53773 —, `chat.tools.terminal.autoApprove`, an
# extension's `allowedCommands` or `alwaysAllow…`): its next session then runs commands nobody approves.
_SETTINGS_FILE = re.compile(
    r"(?:(?:^[\"']?|[\\/])(?:\.vscode[\\/]+settings\.json|\.aider\.conf\.ya?ml)|\.code-workspace"
    r"|[\\/](?:code|code - insiders|cursor|windsurf|vscodium)[\\/]+user[\\/]+settings\.json)[\s.]*[\"']?$",
    re.IGNORECASE,
)
# A quoted key (JSON) naming an approval switch, whose value is not `false`, `null`, `0` or empty; or aider's
# `yes-always: true` (YAML). The blanks after the colon are taken whole (`\s*+`), so `: false` cannot match.
_APPROVALS_OFF = re.compile(
    r"[\"']([^\"'\n]*(?:auto[-_]?approv|always[-_]?allow|allowed[-_]?commands|yolo|bypass[-_]?permissions"
    r"|skip[-_]?permissions)[^\"'\n]*)[\"']\s*:\s*+(?!false\b|null\b|0\b|\[\s*\]|\{\s*\}|[\"']\s*[\"'])"
    r"|^\s*(yes-always)\s*:\s*(?:true|yes|on)\b",
    re.IGNORECASE | re.MULTILINE,
)
# A package manifest's install scripts (S-RULE-208): npm, pnpm and yarn run them through cmd.exe at every install
# in that folder (`npm install`, which is ordinary), so what they would run is judged now, as a scheduled task's
# command line is (S-RULE-116).
_MANIFEST_FILE = re.compile(r"(?:^[\"']?|[\\/])package\.json[\s.]*[\"']?$", re.IGNORECASE)
_INSTALL_SCRIPT = re.compile(
    r"[\"'](preinstall|install|postinstall|prepare|preprepare|postprepare|prepublish)[\"']\s*:\s*"
    r"(\"(?:[^\"\\\n]|\\.)*\")",
    re.IGNORECASE,
)
AGENT_APPROVALS = "agent-approvals"  # an `extra` key: the setting that turns an agent's own approvals off
_RUN = "an editor task run when the folder is opened (runOn folderOpen)"
_UNREAD = "an editor's task file written with content the gateway did not read (a task may run when the folder opens)"


def is_task_file(path: Value) -> bool:
    """Whether `path` names a workspace's task file (`…\\.vscode\\tasks.json`, any case, `/` or `\\`)."""
    return path is not None and _TASKS_FILE.search(path) is not None


def runs_on_open(content: str | None) -> bool:
    """Whether a task file's text holds a task run when the folder opens (JSON's `\\uXXXX` escapes decoded)."""
    text = _JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), content or "")
    return _RUNS_ON_OPEN.search(text) is not None


def is_settings_file(path: Value) -> bool:
    r"""Whether `path` names an editor's settings (`…\.vscode\settings.json`, `x.code-workspace`, the user's own)."""
    return path is not None and _SETTINGS_FILE.search(path) is not None


def approvals_turned_off(content: str | None) -> str | None:
    """The first setting in an editor's settings text that turns an agent's approvals off (not `false`, `null`,
    `0` or empty), JSON's `\\uXXXX` escapes decoded first; None when there is none."""
    text = _JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), content or "")
    found = _APPROVALS_OFF.search(text)
    return None if found is None else found.group(1) or found.group(2)


def editor_settings(path: Value, content: Value) -> Effects:
    """A write of an editor's settings whose content turns an AI agent's own approvals off (S-RULE-207)."""
    setting = approvals_turned_off(content) if is_settings_file(path) else None
    if setting is None:
        return ()
    return (effect(K.WRITE, path, f"{setting} set in an editor's settings", extra=((AGENT_APPROVALS, setting),)),)


def install_scripts(path: Value, content: Value) -> Effects:
    """A write of a package manifest whose install scripts would run a command later (S-RULE-208): one write
    effect per script, its command line (as npm hands it to cmd.exe) in `RUNS_UNASKED` for the judge to read now."""
    if path is None or content is None or not _MANIFEST_FILE.search(path):
        return ()
    found: list[Effect] = []
    for match in _INSTALL_SCRIPT.finditer(content):
        try:
            line = json.loads(match.group(2))
        except ValueError:
            continue  # not a JSON string after all: nothing is known to run
        if isinstance(line, str) and line.strip():
            detail = f"package.json's {match.group(1)} script (npm runs it at every install)"
            found.append(effect(K.WRITE, path, detail, extra=((RUNS_UNASKED, f"cmd /d /s /c {line}"),)))
    return tuple(found)


def editor_task(path: Value, content: Value, *, read: bool = True) -> Effects:
    """The persistence a write of `content` to `path` adds: one effect for a task file whose content runs on
    opening, or was not read (`read=False`, or `content` None where it was); nothing otherwise."""
    if not is_task_file(path):
        return ()
    if read and content is not None:
        return (effect(K.PERSISTENCE, path, _RUN),) if runs_on_open(content) else ()
    return (effect(K.PERSISTENCE, path, _UNREAD),)


def editor_files_written(ops: Sequence[Operation], per_op: Sequence[Effects]) -> Effects:
    """For a shell analysis: what each file judged by its content adds — a task file, an editor's settings, a package
    manifest, a project's package settings (S-RULE-211) — (`per_op`: each operation's effects). A file counts as
    read only when every write of it is a writer whose constant content the analyser holds (`Set-Content`, `>`,
    `[IO.File]::WriteAllText` …); a copy, move or rename onto it is not."""
    targets = [
        e.target
        for effects in per_op
        for e in effects
        if e.kind is K.WRITE
        and e.target
        and (
            is_task_file(e.target)
            or is_settings_file(e.target)
            or _MANIFEST_FILE.search(e.target)
            or is_project_sources_file(e.target)
        )
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
        text = None if unread else "\n".join(c or "" for c in read)
        found += editor_task(target, text, read=not unread)
        found += editor_settings(target, text)  # a settings file written unread is an ordinary write
        found += install_scripts(target, text)
        found += project_sources(target, text, read=not unread)
    return tuple(found)


def _key(path: str) -> str:
    return path.strip().strip("'\"").replace("/", "\\").lower()
