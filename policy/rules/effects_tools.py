"""`tool_effects`: what a structured tool call does (FileSystem, Registry, Process, App; issue 18).

Read by upstream's REAL argument names and modes (tools_list.json: `mode`, never `action`;
S-RULE-01): FileSystem `read/write/copy/move/delete/list/search/info` with `path`,
`destination`, `recursive`, `append`; Registry `get/set/delete/list` with `path`, `name`,
`value`, `type` (delete without `name` removes the whole key recursively); Process `kill` with
`name`, `pid`, `force`; App `launch` (`name`) and `launch_executable` (`executable`, `args`).
The same effects as the shell spellings, so one judge serves every tool.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from policy.rules.args import app_arguments, truthy
from policy.rules.effects_common import RECURSIVE, Effects, dedupe, effect, landed, matches_everything
from policy.rules.effects_consoles import CONSOLE, marked, opens_window, start_menu_console
from policy.rules.effects_dispatch import started_program
from policy.rules.effects_editor import editor_settings, editor_task, install_scripts
from policy.rules.effects_network import fetched
from policy.rules.effects_project_sources import project_sources
from policy.rules.effects_scripts import unread_scripts
from policy.rules.effects_values import placed_in
from policy.rules.shell.dispatch import runs_unread
from policy.rules.shell.ops import EffectKind

K = EffectKind
ToolArgs = Mapping[str, object]


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _mode(args: ToolArgs, default: str = "") -> str:
    mode = _text(args.get("mode"))
    return default if mode is None else mode.strip().lower()


# A workspace's task file (`.vscode\tasks.json`, which Cursor and other VS Code forks read too) and a task in it
# that runs on opening the folder; JSON's `\uXXXX` escapes are decoded first (`"\u0066olderOpen"`).
def _filesystem(args: ToolArgs) -> Effects:
    mode = _mode(args)
    path = _text(args.get("path"))
    destination = _text(args.get("destination"))
    if mode == "delete":
        recursive = truthy(args.get("recursive"))
        kind = K.DELETE_RECURSIVE if recursive else K.DELETE
        return (effect(kind, path, "FileSystem delete" + (" recursive" if recursive else "")),)
    if mode in ("move", "copy"):
        first_kind = K.MOVE if mode == "move" else K.READ
        # A folder is copied whole (upstream copies its tree): every file in it is read, a credential store too.
        pair = (
            effect(first_kind, path, f"FileSystem {mode}", extra=RECURSIVE if mode == "copy" else ()),
            effect(K.WRITE, destination, f"FileSystem {mode} destination"),
        )
        # Into a folder that exists, upstream's copy and move put the item inside it under its own name (S-RULE-147).
        into = landed(path, destination, f"FileSystem {mode} into a folder", tree=True)
        # An editor's task file put in place: its content is not read (S-RULE-197).
        task = editor_task(destination, None, read=False)
        task += project_sources(destination, None, read=False)  # a project's package settings, unread (S-RULE-211)
        return pair + into + unread_scripts(pair, f"FileSystem {mode}") + task
    if mode in ("write", "append", "create"):
        appending = mode == "append" or truthy(args.get("append"))
        written: Effects = (effect(K.WRITE, path, "FileSystem write" + (" (append)" if appending else "")),)
        # A task VS Code (or Cursor) runs by itself when the folder is opened (S-RULE-195).
        written += editor_task(path, _text(args.get("content")))
        written += editor_settings(path, _text(args.get("content")))  # an agent's approvals turned off (S-RULE-207)
        written += install_scripts(path, _text(args.get("content")))  # what an install would run (S-RULE-208)
        written += project_sources(path, _text(args.get("content")))  # where the next install fetches (S-RULE-211)
        # A `.vbs`, `.js`, `.hta` … is not read when written (a `.ps1` is: S-RULE-28): it would run unjudged later.
        return written + unread_scripts(written, "FileSystem write") if runs_unread(path) else written
    if mode in ("read", "list", "search", "info"):
        return (effect(K.READ, path, f"FileSystem {mode}"),)
    return ()


def _registry(args: ToolArgs) -> Effects:
    mode = _mode(args)
    path = _text(args.get("path"))
    name = _text(args.get("name"))
    if mode == "set":
        reg_type = _text(args.get("type"))
        typed = (("type", reg_type),) if reg_type else ()
        return (
            effect(K.REGISTRY_SET, path, "Registry set", value_name=name, data=_text(args.get("value")), extra=typed),
        )
    if mode == "delete":
        if name is not None:
            return (effect(K.REGISTRY_DELETE, path, "Registry delete value", value_name=name),)
        # Upstream removes the WHOLE key recursively when `name` is absent (FORMATS.md §8).
        return (effect(K.REGISTRY_DELETE, path, "Registry delete key (recursive)", extra=RECURSIVE),)
    if mode in ("get", "list"):
        return (effect(K.READ, path, f"Registry {mode}", value_name=name),)
    return ()


def _process(args: ToolArgs) -> Effects:
    if _mode(args) != "kill":
        return ()
    forced = truthy(args.get("force"))
    kind = K.KILL_FORCED if forced else K.KILL
    detail = "Process kill" + (" force" if forced else "")
    name = _text(args.get("name"))
    pid = args.get("pid")
    out = []
    if name is not None:
        everything = matches_everything(name)
        out.append(effect(K.KILL_ALL, None, detail + " (every process)") if everything else effect(kind, name, detail))
    if pid is not None and not isinstance(pid, bool):
        out.append(effect(kind, f"pid:{str(pid).strip()}", detail))
    return tuple(out) or (effect(kind, None, detail),)


def _app(args: ToolArgs) -> Effects:
    mode = _mode(args, "launch")
    if mode == "launch":
        name = _text(args.get("name"))
        console = start_menu_console(name)  # the Registry Editor, Windows Security … (S-RULE-154)
        console = console if console and opens_window(console, app_arguments(args.get("args"))) else None
        return (effect(K.EXECUTE, name, "App launch", extra=((CONSOLE, console),) if console else ()),)
    if mode != "launch_executable":
        return ()
    executable = _text(args.get("executable"))
    words = tuple(app_arguments(args.get("args")))
    cwd = _text(args.get("cwd"))
    extra: tuple[tuple[str, str], ...] = (("args", " ".join(words)),) if words else ()
    extra += (("cwd", cwd),) if cwd else ()
    launched = effect(K.EXECUTE, executable, "App launch_executable", extra=extra)
    started = started_program(executable, words, 0)
    # Relative paths in its arguments are read from its working folder (S-RULE-150).
    return marked(dedupe((launched, *started, *(placed_in(cwd, started) if cwd else ()))))


def _scrape(args: ToolArgs) -> Effects:
    # Upstream fetches the URL itself (an SSRF-guarded GET); a file: URL or the cloud's metadata service would
    # still be a read of a file or of the machine's tokens, whoever fetched it (S-RULE-144).
    return fetched(_text(args.get("url")), "Scrape")


_TOOLS: Mapping[str, Callable[[ToolArgs], Effects]] = {
    "Scrape": _scrape,
    "FileSystem": _filesystem,
    "Registry": _registry,
    "Process": _process,
    "App": _app,
}


def tool_effects(tool: str, args: ToolArgs) -> Effects:
    """What a structured tool call does, as effects on targets.

    Args:
        tool: upstream's tool name (`FileSystem`, `Registry`, `Process`, `App`; others have none here).
        args: the call's arguments as sent (any shape: missing, null, numbers are handled).

    Returns:
        Its effects; `()` for a mode that changes and reads nothing (`App` `resize`, `Process` `list`).
    """
    handler = _TOOLS.get(tool)
    return handler(args) if handler is not None and isinstance(args, Mapping) else ()
