"""`winmcp-gateway install CLIENT`: point an MCP client at this gateway (issue 16 item 5).

    client          where (S-CLI-23)                                                 servers under
    claude-desktop  Windows (MSIX, the installer since 2026)                           "mcpServers"
                            %LOCALAPPDATA%\\Packages\\Claude_<id>\\LocalCache\\Roaming\\Claude\\…
                    Windows (older installer) %APPDATA%\\Claude\\claude_desktop_config.json
                    macOS   ~/Library/Application Support/Claude/claude_desktop_config.json
                    Linux   ~/.config/Claude/claude_desktop_config.json ($XDG_CONFIG_HOME)
    cursor          ~/.cursor/mcp.json (Windows: %USERPROFILE%\\.cursor\\mcp.json)       "mcpServers"
    vscode          <workspace>/.vscode/mcp.json (--workspace, default: here)        "servers", "type": "stdio"
    claude-code     `claude mcp add --transport stdio --scope user NAME --env K=V -- COMMAND ARGS…`
                    printed; run only with --yes and when `claude` is on PATH (S-CLI-27)
    json            the entry, printed; nothing is written (S-CLI-26)

`--file F` names the client's file instead (a project's `.cursor/mcp.json`, one of several
Claude Desktop packages).

The entry (S-CLI-22) runs the absolute path of this installation's executable, because a venv
install is not on the client's PATH: `Scripts\\winmcp-gateway.exe` (Windows) or
`bin/winmcp-gateway` next to this Python, else the one on PATH, else this Python with
`-m gateway`. Its arguments are `serve` and the upstream (`--upstream-cmd "uvx windows-mcp"` by
default; the flags are `serve`'s own, `commands._add_upstream`, handed in as `UpstreamFlags`);
`--state-dir` and `--config` go into an `env` block as absolute paths, since the client starts
it from another directory.

A file client, step by step (S-CLI-24, S-CLI-25):

    1. read the file (absent: empty); not JSON, or not an object → refused, nothing written
    2. set servers[NAME] to the entry; every other server and key is kept as it was
    3. the same JSON as before → "already up to date", nothing written
    4. show the unified diff; ask (a terminal), --yes skips the question, no terminal and no
       --yes → refused (exit 2) with the remedy
    5. copy the old file to FILE.bak, write a temporary file beside it, fsync, os.replace
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from gateway.cli._client_files import (
    EXECUTABLE,
    FILE_CLIENTS,
    Host,
    client_file,
    direct_upstreams,
    find_executable,
    merge_entry,
    parse_client_file,
    read_client_file,
    scripts_dirs,
    server_entry,
    unified_diff,
    write_atomically,
)
from gateway.config.keys import ENV_CONFIG, ENV_HOME, ENV_STATE_DIR
from gateway.config.load import load_config
from gateway.errors import ConfigError
from gateway.upstream.supervisor import UpstreamSpec

CLIENTS = ("claude-desktop", "cursor", "vscode", "claude-code", "json")
CLIENT_NAMES = {"claude-desktop": "Claude Desktop", "cursor": "Cursor", "vscode": "VS Code (or its MCP server)"}
DEFAULT_NAME = "winmcp-gateway"
# Characters cmd.exe interprets when it runs a .cmd/.bat shim (an npm-installed `claude`); an
# argument holding one is not passed safely, so the command is printed instead of run.
_CMD_META = re.compile(r'[%^&|<>!"\r\n]')
_PS_PLAIN = re.compile(r"[\w./\\:=@+,-]+")


@dataclass(frozen=True, slots=True, kw_only=True)
class UpstreamFlags:
    """`serve`'s upstream flags, handed in by `gateway/cli/commands.py` when it registers `install`
    (that module imports this one, so this one cannot import it back: S-ARCH-02).

    Attributes:
        add: adds the flags to a parser (`commands._add_upstream`).
        spec: the upstream the parsed flags name (`commands.upstream_spec`).
        default: the upstream command when no flag names one.
    """

    add: Callable[[argparse.ArgumentParser], None]
    spec: Callable[[argparse.Namespace], UpstreamSpec]
    default: str


def serve_args(args: argparse.Namespace, flags: UpstreamFlags) -> list[str]:
    """`serve` and the upstream the flags name, as the client must pass them (S-CLI-22).

    `flags.spec` checks the flags exactly as `serve` will; a command given with `--upstream-cmd`
    is passed on as typed, so `serve` splits it the way it splits any `--upstream-cmd`.

    Raises:
        ConfigError: the flags do not name a usable upstream.
    """
    try:
        spec = flags.spec(args)
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    if spec.url:
        return ["serve", "--upstream-url", spec.url]
    if args.upstream == "sim":
        return ["serve", "--upstream", "sim", *(["--scenario", args.scenario] if args.scenario else [])]
    if args.upstream_cmd:
        return ["serve", "--upstream-cmd", args.upstream_cmd]
    if spec.argv == UpstreamSpec.command(flags.default).argv:
        return ["serve", "--upstream-cmd", flags.default]
    return ["serve", "--", *spec.argv]  # the upstream given as separate arguments after `--`


def entry_env(args: argparse.Namespace) -> dict[str, str]:
    """The `env` block: the state dir and config file the flags name, absolute (S-CLI-22)."""
    env: dict[str, str] = {}
    if args.state_dir is not None:
        env[ENV_STATE_DIR] = os.path.abspath(os.path.expanduser(args.state_dir))
    if args.config is not None:
        env[ENV_CONFIG] = os.path.abspath(os.path.expanduser(args.config))
    return env


def confirm(question: str, *, assume_yes: bool, stdin: TextIO, remedy: str) -> bool:
    """Whether to go ahead: --yes, else a person at a terminal says y (S-CLI-25).

    Raises:
        ConfigError: not a terminal and no --yes (nothing done; the message says `remedy`).
    """
    if assume_yes:
        return True
    if not stdin.isatty():
        raise ConfigError(f"not a terminal, so nobody can answer {question!r}; nothing was done ({remedy})")
    return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def install_file(
    client: str, path: Path, name: str, entry: Mapping[str, Any], *, assume_yes: bool, stdin: TextIO
) -> int:
    """Merge `entry` into a file client's config, showing the diff and asking first (S-CLI-24/25).

    Returns:
        0 written or already up to date, 1 the person said no.

    Raises:
        ConfigError: the file cannot be merged or written, or nobody can be asked.
    """
    key = FILE_CLIENTS[client]
    old, bom = read_client_file(path)
    merged, new = merge_entry(str(path), old, key, name, entry)
    for other in direct_upstreams(merged, key, name):
        print(
            f"winmcp-gateway: warning: server {other!r} in {path} starts Windows-MCP itself, around the gateway: "
            "a model can call it unchecked; remove it from the file",
            file=sys.stderr,
        )
    if old is not None and parse_client_file(str(path), old) == merged:
        print(f"{path} already has this {name!r} entry; nothing to change")
        return 0
    print(unified_diff(str(path), old, new), end="")
    if not confirm(
        f"Write {path}?",
        assume_yes=assume_yes,
        stdin=stdin,
        remedy="run again with --yes to write it, or `winmcp-gateway install json` and add the entry by hand",
    ):
        print("nothing written")
        return 1
    backup = write_atomically(path, (codecs.BOM_UTF8 if bom else b"") + new.encode("utf-8"))
    print(f"wrote {path}" + (f" (the previous version is {backup})" if backup else ""))
    print(f"restart {CLIENT_NAMES[client]} to load it")
    return 0


def claude_code_argv(name: str, scope: str, command: str, args: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """`claude mcp add …` for this entry (S-CLI-27).

    The name comes before `--env`: Claude Code's `--env` takes several values and would swallow a
    name that follows it (anthropics/claude-code#62332); `--` ends its options before the command.
    """
    argv = ["claude", "mcp", "add", "--transport", "stdio", "--scope", scope, name]
    for var, value in env.items():
        argv += ["--env", f"{var}={value}"]
    return [*argv, "--", command, *args]


def shown_command(argv: Sequence[str], platform: str) -> str:
    """The command as a person pastes it: PowerShell quoting on Windows, POSIX shell quoting elsewhere.

    PowerShell drops an unquoted `--` before a script (npm's `claude.ps1`), so it is quoted there.
    """
    if platform != "win32":
        return shlex.join(argv)
    return " ".join(a if _PS_PLAIN.fullmatch(a) and a != "--" else "'" + a.replace("'", "''") + "'" for a in argv)


def install_claude_code(
    argv: list[str],
    *,
    host: Host,
    assume_yes: bool,
    which: Callable[[str], str | None],
    run: Callable[..., Any],
    remove_hint: str = "",
) -> int:
    """Print `claude mcp add …`; with --yes, run it when `claude` is on PATH (S-CLI-27).

    Returns:
        0 printed (or run and it succeeded), 1 it could not be run, else `claude`'s own exit code.
    """
    print(shown_command(argv, host.platform))
    found = which("claude")
    if not assume_yes:
        where = "" if found else " (`claude` is not on PATH here: run it where Claude Code is installed)"
        print(f"run the command above to add the gateway to Claude Code, or add --yes to run it now{where}")
        return 0
    if not found:
        print("`claude` is not on PATH, so nothing was run: run the command above where Claude Code is installed")
        return 1
    if found.lower().endswith((".cmd", ".bat")) and any(_CMD_META.search(a) for a in argv[1:]):
        print(
            f"{found} is a batch file and an argument holds a character cmd.exe would interpret; "
            "run the command above yourself"
        )
        return 1
    done = run([found, *argv[1:]], check=False)
    code = int(done.returncode)
    if code == 0:
        print("added to Claude Code; `claude mcp list` shows it")
    else:
        print(f"claude exited {code}" + (f"; if the name is taken: {remove_hint}" if remove_hint else ""))
    return code


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_upstream: Callable[[argparse.ArgumentParser], None],
    upstream_spec: Callable[[argparse.Namespace], UpstreamSpec],
    default_upstream: str,
) -> None:
    """Add `install` to the command line, with `serve`'s own upstream flags (`gateway/cli/commands.py`)."""
    flags = UpstreamFlags(add=add_upstream, spec=upstream_spec, default=default_upstream)
    p = sub.add_parser(
        "install",
        help="connect an MCP client (claude-desktop, cursor, vscode, claude-code) to this gateway, or print the entry",
    )
    p.add_argument("client", choices=CLIENTS)
    flags.add(p)
    p.add_argument("--name", default=DEFAULT_NAME, help=f"the server's name in the client (default: {DEFAULT_NAME})")
    p.add_argument("--workspace", help="vscode: the workspace folder (default: the current directory)")
    p.add_argument(
        "--file",
        type=Path,
        help="the client's config file, when it is not where install looks (a project's .cursor/mcp.json …)",
    )
    p.add_argument(
        "--scope", choices=["local", "project", "user"], default="user", help="claude-code: where (default: user)"
    )
    p.add_argument("--yes", action="store_true", help="write (or run) without asking")
    p.set_defaults(handler=run_install, upstream_flags=flags)


def run_install(args: argparse.Namespace) -> int:
    """`winmcp-gateway install CLIENT [upstream flags] [--config F] [--state-dir D] [--yes]`."""
    host = Host.current()
    serve = serve_args(args, args.upstream_flags)
    if args.config is not None:  # the file must load, or the client's gateway would not start (S-CLI-05)
        for warning in load_config(environ={}, config_file=args.config, state_dir=args.state_dir).warnings:
            print(f"winmcp-gateway: warning: {warning}", file=sys.stderr)
    command, lead = find_executable(
        host, scripts_dirs=scripts_dirs(), which=shutil.which, exists=os.path.isfile, python=sys.executable
    )
    if "archive-v0" in Path(command).parts:
        print(
            f"winmcp-gateway: warning: {command} is in uv's cache (a `uvx` run) and may vanish; install with "
            "`uv tool install winmcp-gateway` or `pipx install winmcp-gateway` and run install again",
            file=sys.stderr,
        )
    elif lead:
        print(
            f"winmcp-gateway: warning: no {EXECUTABLE} executable next to {command} or on PATH; "
            "the entry runs this Python with -m gateway",
            file=sys.stderr,
        )
    env = entry_env(args)
    unnamed = {ENV_STATE_DIR: ENV_STATE_DIR not in env, ENV_CONFIG: ENV_CONFIG not in env}
    unnamed[ENV_HOME] = unnamed[ENV_STATE_DIR] or unnamed[ENV_CONFIG]
    for var, flag in ((ENV_STATE_DIR, "--state-dir"), (ENV_CONFIG, "--config"), (ENV_HOME, "--state-dir and --config")):
        if os.environ.get(var) and unnamed[var]:
            print(
                f"winmcp-gateway: warning: {var} is set here, but the client does not get this shell's "
                f"environment; to use it there, pass {flag}",
                file=sys.stderr,
            )
    arguments = [*lead, *serve]
    if args.client == "json":
        print(json.dumps({"mcpServers": {args.name: server_entry("json", command, arguments, env)}}, indent=2))
        return 0
    if args.client == "claude-code":
        argv = claude_code_argv(args.name, args.scope, command, arguments, env)
        hint = shown_command(["claude", "mcp", "remove", "--scope", args.scope, args.name], host.platform)
        return install_claude_code(
            argv, host=host, assume_yes=args.yes, which=shutil.which, run=subprocess.run, remove_hint=hint
        )
    path = args.file.absolute() if args.file is not None else Path(client_file(args.client, host, args.workspace))
    entry = server_entry(args.client, command, arguments, env)
    return install_file(args.client, path, args.name, entry, assume_yes=args.yes, stdin=sys.stdin)
