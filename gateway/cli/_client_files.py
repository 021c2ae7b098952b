"""The client side of `winmcp-gateway install`: where each client keeps its servers, the entry,
and a merge that keeps everything else (S-CLI-22 … S-CLI-24, S-CLI-28).

Paths are strings spelt by the client machine's rules (`Host.pathmod`: `ntpath` for Windows),
so the Windows locations are tested on Linux too. Nothing here asks or prints; `install.py` does.
"""

from __future__ import annotations

import codecs
import contextlib
import difflib
import json
import ntpath
import os
import posixpath
import re
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from gateway.errors import ConfigError

FILE_CLIENTS = {"claude-desktop": "mcpServers", "cursor": "mcpServers", "vscode": "servers"}
EXECUTABLE = "winmcp-gateway"
CLAUDE_DESKTOP_FILE = "claude_desktop_config.json"
# Claude Desktop for Windows has been an MSIX package since 2026 (the Store and the claude.ai
# installer alike): the app reads its config inside the package's virtualised AppData, and a file
# written to %APPDATA%\Claude is never seen (anthropics/claude-code#26073). Package folders are
# `Claude_<publisher id>` under %LOCALAPPDATA%\Packages.
MSIX_PREFIX = "claude_"


def _list_dir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


class ClientFileError(ConfigError):
    """A client's config file that cannot be found or merged safely; nothing was written."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Host:
    """The machine the client runs on (a seam: tests hand in Windows facts on Linux).

    Attributes:
        platform: `sys.platform` ("win32", "darwin", "linux").
        environ: its environment (APPDATA, XDG_CONFIG_HOME).
        home: the user's home folder.
        cwd: the working directory (the default VS Code workspace).
        list_dir: a folder's entries ([] when it cannot be read).
        is_file: whether a file exists.
    """

    platform: str
    environ: Mapping[str, str]
    home: str
    cwd: str
    list_dir: Callable[[str], Sequence[str]] = _list_dir
    is_file: Callable[[str], bool] = os.path.isfile

    @property
    def pathmod(self) -> ModuleType:
        """`ntpath` for Windows, `posixpath` elsewhere."""
        return ntpath if self.platform == "win32" else posixpath

    @classmethod
    def current(cls) -> Host:
        """This machine."""
        return cls(platform=sys.platform, environ=os.environ, home=str(Path.home()), cwd=os.getcwd())


def client_file(client: str, host: Host, workspace: str | None = None) -> str:
    """The config file of a file client on `host` (S-CLI-23).

    Args:
        client: claude-desktop, cursor or vscode.
        host: the machine.
        workspace: the VS Code workspace folder (default: `host.cwd`).

    Returns:
        The absolute path, spelt by the host's rules.
    """
    pm = host.pathmod
    if client == "claude-desktop":
        if host.platform == "win32":
            packaged = _claude_desktop_msix(host)
            if packaged is not None:
                return packaged
            base = host.environ.get("APPDATA") or pm.join(host.home, "AppData", "Roaming")
        elif host.platform == "darwin":
            base = pm.join(host.home, "Library", "Application Support")
        else:
            base = host.environ.get("XDG_CONFIG_HOME") or pm.join(host.home, ".config")
        return str(pm.join(base, "Claude", CLAUDE_DESKTOP_FILE))
    if client == "cursor":
        return str(pm.join(host.home, ".cursor", "mcp.json"))
    if client == "vscode":
        return str(pm.join(pm.join(host.cwd, workspace or ""), ".vscode", "mcp.json"))
    raise ValueError(f"{client} has no config file")


def _claude_desktop_msix(host: Host) -> str | None:
    """The packaged Claude Desktop's file, or None when no package is installed.

    Raises:
        ClientFileError: several packages, and not exactly one of them has a config file yet.
    """
    pm = ntpath
    local = host.environ.get("LOCALAPPDATA") or pm.join(host.home, "AppData", "Local")
    packages = pm.join(local, "Packages")
    names = sorted(n for n in host.list_dir(packages) if n.lower().startswith(MSIX_PREFIX))
    found = [str(pm.join(packages, n, "LocalCache", "Roaming", "Claude", CLAUDE_DESKTOP_FILE)) for n in names]
    if len(found) <= 1:
        return found[0] if found else None
    existing = [f for f in found if host.is_file(f)]
    if len(existing) == 1:
        return existing[0]
    raise ClientFileError(
        f"Claude Desktop is installed as several packages ({', '.join(names)}), so which file it reads is "
        f"unclear; nothing was written (remedy: name it with --file, one of: {'; '.join(found)})"
    )


def find_executable(
    host: Host,
    *,
    scripts_dirs: Sequence[str],
    which: Callable[[str], str | None],
    exists: Callable[[str], bool],
    python: str,
) -> tuple[str, tuple[str, ...]]:
    """The command a client should run to start this installation (S-CLI-22).

    Args:
        host: the machine (its platform decides the executable's name).
        scripts_dirs: where this Python installs scripts (its scheme's, then the user scheme's).
        which: a PATH lookup (`shutil.which`).
        exists: whether a file exists.
        python: this Python (`sys.executable`), the last resort with `-m gateway`.

    Returns:
        The absolute command and the arguments that come before `serve`.
    """
    name = f"{EXECUTABLE}.exe" if host.platform == "win32" else EXECUTABLE
    for folder in scripts_dirs:
        candidate = str(host.pathmod.join(folder, name))
        if exists(candidate):
            return candidate, ()
    found = which(EXECUTABLE)
    if found:
        return (found if host.pathmod.isabs(found) else str(host.pathmod.join(host.cwd, found))), ()
    return python, ("-m", "gateway")


def scripts_dirs() -> list[str]:
    """Where this Python installs scripts: its own scheme's folder, then the user scheme's."""
    dirs = [sysconfig.get_path("scripts")]
    with contextlib.suppress(KeyError, AttributeError, ValueError):
        dirs.append(sysconfig.get_path("scripts", sysconfig.get_preferred_scheme("user")))
    return [d for d in dirs if d]


def server_entry(client: str, command: str, args: Sequence[str], env: Mapping[str, str]) -> dict[str, Any]:
    """One server entry in the client's format (VS Code's carries `"type": "stdio"`)."""
    entry: dict[str, Any] = {"type": "stdio"} if client == "vscode" else {}
    entry["command"] = command
    entry["args"] = list(args)
    if env:
        entry["env"] = dict(env)
    return entry


def _indent(text: str) -> str:
    match = re.search(r"^([ \t]+)\"", text, re.MULTILINE)
    return match.group(1) if match else "  "


def parse_client_file(path: str, text: str | None) -> dict[str, Any]:
    """The JSON object in a client's file (an absent or empty file is `{}`).

    Raises:
        ClientFileError: the text is not JSON or its top level is not an object.
    """
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ClientFileError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); nothing was written "
            "(remedy: fix the file — comments and trailing commas are not JSON — or add the entry by hand: "
            "`winmcp-gateway install json` prints it)"
        ) from exc
    if not isinstance(data, dict):
        raise ClientFileError(f"{path}: the top level is not a JSON object; nothing was written")
    return data


def merge_entry(
    path: str, text: str | None, key: str, name: str, entry: Mapping[str, Any]
) -> tuple[dict[str, Any], str]:
    """The file's data with `data[key][name] = entry`, everything else kept, and its text (S-CLI-24).

    Args:
        path: the file (for messages).
        text: its current text, or None when it does not exist.
        key: "mcpServers" or "servers".
        name: the server's name.
        entry: the server entry.

    Returns:
        The merged data and the text to write (the old file's indentation and line ends kept).

    Raises:
        ClientFileError: the file is not a JSON object, or its `key` is not an object.
    """
    data = parse_client_file(path, text)
    servers = data.get(key, {})
    if not isinstance(servers, dict):
        raise ClientFileError(f'{path}: "{key}" is not a JSON object; nothing was written')
    merged = {**data, key: {**servers, name: dict(entry)}}  # dict order: a replaced entry keeps its place
    out = json.dumps(merged, indent=_indent(text or ""), ensure_ascii=False) + "\n"
    if text and "\r\n" in text:
        out = out.replace("\n", "\r\n")
    return merged, out


def direct_upstreams(data: Mapping[str, Any], key: str, name: str) -> list[str]:
    """Other servers in the file that start Windows-MCP themselves, around the gateway (S-CLI-28)."""
    out = []
    servers = data.get(key)
    for other, entry in servers.items() if isinstance(servers, dict) else ():
        if other == name or not isinstance(entry, dict):
            continue
        words = [str(entry.get("command", "")), *map(str, entry.get("args") or [])]
        text = " ".join(words).lower()
        gateway = EXECUTABLE in text or any(
            a == "-m" and b == "gateway" for a, b in zip(words, words[1:], strict=False)
        )
        if not gateway and re.search(r"windows[-_]mcp", text):
            out.append(other)
    return out


def unified_diff(path: str, old: str | None, new: str) -> str:
    """The change as a unified diff (an absent file shows every line added)."""
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{path} (now)" if old is not None else f"{path} (does not exist yet)",
        tofile=f"{path} (after)",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def write_atomically(path: Path, data: bytes) -> Path | None:
    """Replace `path` with `data` in one step, keeping the old file as `path.bak` (S-CLI-24).

    Returns:
        The backup's path, or None when there was no file before.

    Raises:
        ConfigError: the file could not be written (it is unchanged).
    """
    backup = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            backup = path.with_name(path.name + ".bak")
            shutil.copy2(path, backup)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            if backup is not None:
                shutil.copymode(backup, tmp)  # mkstemp made it owner-only; keep the file's own mode
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc} (it is unchanged; is the client holding it open?)") from exc
    return backup


def read_client_file(path: Path) -> tuple[str | None, bool]:
    """The file's text (None when absent) and whether it starts with a UTF-8 byte-order mark."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, False
    except OSError as exc:
        raise ClientFileError(f"cannot read {path}: {exc}; nothing was written") from exc
    try:
        return raw.decode("utf-8-sig"), raw.startswith(codecs.BOM_UTF8)
    except UnicodeDecodeError as exc:
        raise ClientFileError(f"{path} is not UTF-8 text ({exc}); nothing was written") from exc
