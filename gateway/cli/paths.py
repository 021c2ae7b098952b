"""Where things are: `winmcp-gateway paths`, `config show` and `init` (issue 16 item 7).

    paths        the state dir, the config file (and whether it exists), the audit, the HTTP
                 token, the approvals dir, the STOP file and the upstream's stderr log (S-CLI-20)
    config show  every key's effective value and where it came from: default, file,
                 environment or flag (S-CFG-22)
    init         a commented config, rendered from the key table, at the config path; never
                 over an existing file (S-CLI-21)

Each takes `--config F` and `--state-dir D` as `serve` does, so it answers for the gateway those
flags would start; `paths` and `config show` also take `--json`. They load the configuration
exactly as `serve` does (`explain_config` is `load_config` plus the sources).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from gateway.config.docs import render_init, toml_value
from gateway.config.keys import ENV_CONFIG, KEYS
from gateway.config.load import (
    ExplainedConfig,
    default_config_file,
    explain_config,
    packaged_example,
    weakened_checks,
)
from gateway.errors import ConfigError

UPSTREAM_LOG = "upstream.stderr.log"  # gateway/app.py names it so
_WARN = "winmcp-gateway: warning:"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `paths`, `config show` and `init` to the command line (`gateway/cli/commands.py`)."""
    paths = sub.add_parser("paths", help="where the state dir, config, audit, token, approvals and STOP file are")
    _add_location_flags(paths)
    paths.add_argument("--json", action="store_true", help="machine-readable output")
    paths.set_defaults(handler=run_paths)

    config = sub.add_parser("config", help="the effective configuration")
    actions = config.add_subparsers(dest="config_action", required=True)
    show = actions.add_parser("show", help="every key's effective value and where it came from")
    _add_location_flags(show)
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(handler=run_config_show)

    init = sub.add_parser("init", help="write a commented config file (never over an existing one)")
    init.add_argument(
        "--config", type=Path, help=f"where to write it (default: ${ENV_CONFIG}, else the user config file)"
    )
    init.set_defaults(handler=run_init)


def _add_location_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, help="TOML config file (default: $WINMCP_GATEWAY_CONFIG or the user config)")
    p.add_argument(
        "--state-dir", type=Path, help="state dir (default: $WINMCP_GATEWAY_STATE_DIR or the user state dir)"
    )


def _explain(args: argparse.Namespace) -> ExplainedConfig:
    explained = explain_config(environ=os.environ, config_file=args.config, state_dir=args.state_dir)
    for warning in explained.config.warnings:
        print(f"{_WARN} {warning}", file=sys.stderr)
    return explained


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def path_table(explained: ExplainedConfig) -> list[dict[str, Any]]:
    """The gateway's places for `paths` (S-CLI-20): name, absolute path, whether it exists, a note.

    Args:
        explained: the loaded configuration with its sources.

    Returns:
        One row per place, state dir first.
    """
    # The names live with the code that writes each file; imported here, not at the top, so that
    # building the command line for another command does not load the HTTP stack.
    from gateway.audit.writer import FILE_NAME as AUDIT_FILE
    from gateway.state.approvals import APPROVALS_DIR
    from gateway.state.store import STOP_FILE
    from gateway.transport.http_guard import TOKEN_FILE

    config, sources = explained.config, explained.sources
    state = _absolute(config.state_dir)
    if config.config_file is not None:
        file = _absolute(config.config_file)
        file_note = f"from {sources['config_file'].describe()}"
    else:
        file = _absolute(default_config_file())
        file_note = "not found: the defaults are used (`winmcp-gateway init` writes one here)"
    rows = [
        ("state dir", state, f"from {sources['state_dir'].describe()}"),
        ("config file", file, file_note),
        ("audit", state / AUDIT_FILE, "the hash-chained audit log (rotated as audit.jsonl.1, .2 …)"),
        ("http token", state / TOKEN_FILE, "the HTTP bearer token, made on first `serve --http`"),
        ("approvals", state / APPROVALS_DIR, "pending and answered approval requests"),
        ("STOP file", state / STOP_FILE, "present = the kill switch is engaged"),
        ("upstream log", state / UPSTREAM_LOG, "the upstream's stderr"),
    ]
    return [{"name": n, "path": str(p), "exists": p.exists(), "note": note} for n, p, note in rows]


def run_paths(args: argparse.Namespace) -> int:
    """`winmcp-gateway paths [--config F] [--state-dir D] [--json]`; returns the exit code."""
    rows = path_table(_explain(args))
    if args.json:
        print(json.dumps({r["name"].replace(" ", "_"): r for r in rows}, indent=2))
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        mark = "" if r["exists"] else "  (does not exist yet)"
        print(f"{r['name']:<{width}}  {r['path']}{mark}")
        print(f"{'':<{width}}  {r['note']}")
    return 0


def _shown(value: Any) -> str:
    try:
        return toml_value(list(value) if isinstance(value, tuple) else value)
    except TypeError:  # command_rules: a list of tables
        return json.dumps(value, default=str)


def config_rows(explained: ExplainedConfig) -> list[dict[str, Any]]:
    """Every key of `KEYS`, in order, with its effective value and its source (S-CFG-22).

    Args:
        explained: the loaded configuration with its sources.

    Returns:
        Rows of key, value (JSON-able), source kind, source detail and whether it was adjusted.
    """
    rows = []
    for key in KEYS:
        value = getattr(explained.config, key.name)
        source = explained.sources[key.name]
        rows.append(
            {
                "key": key.name,
                "value": list(value) if isinstance(value, tuple) else value,
                "source": source.kind,
                "detail": source.detail,
                "adjusted": source.adjusted,
            }
        )
    return rows


def run_config_show(args: argparse.Namespace) -> int:
    """`winmcp-gateway config show [--config F] [--state-dir D] [--json]`; returns the exit code."""
    explained = _explain(args)
    config, sources = explained.config, explained.sources
    rows = config_rows(explained)
    where = {
        "config_file": str(_absolute(config.config_file)) if config.config_file else None,
        "config_file_source": sources["config_file"].describe(),
        "state_dir": str(_absolute(config.state_dir)),
        "state_dir_source": sources["state_dir"].describe(),
    }
    if args.json:
        body = {**where, "keys": rows, "weakened": list(weakened_checks(config)), "warnings": list(config.warnings)}
        print(json.dumps(body, indent=2, default=str))
        return 0
    print(f"config file  {where['config_file'] or 'none, the defaults are used'} ({where['config_file_source']})")
    print(f"state dir    {where['state_dir']} ({where['state_dir_source']})")
    print()
    shown = [_shown(getattr(config, key.name)) for key in KEYS]
    width = max(len(k.name) for k in KEYS)
    value_width = min(max(len(v) for v in shown), 24)
    weakened = set(weakened_checks(config))
    for key, value in zip(KEYS, shown, strict=True):
        flag = "  ← switches a check of the gate off" if key.name in weakened else ""
        print(f"{key.name:<{width}}  {value:<{value_width}}  {sources[key.name].describe()}{flag}")
    if config.warnings:
        print(f"\n{len(config.warnings)} warning(s), printed above on stderr.")
    return 0


def init_target(args: argparse.Namespace) -> Path:
    """Where `init` writes: `--config`, else `WINMCP_GATEWAY_CONFIG`, else the user config file."""
    if args.config is not None:
        return _absolute(args.config)
    if os.environ.get(ENV_CONFIG):
        return _absolute(Path(os.environ[ENV_CONFIG]))
    return _absolute(default_config_file())


def run_init(args: argparse.Namespace) -> int:
    """`winmcp-gateway init [--config F]`: write `render_init()` there, never over a file (S-CLI-21).

    Raises:
        ConfigError: the file exists (it is left as it is), or it cannot be written.
    """
    target = init_target(args)
    if target.exists():
        raise ConfigError(
            f"{target} already exists; init never overwrites a config (remedy: edit it, see its effect with "
            f"`winmcp-gateway config show`, or move it away and run init again; every key is listed in "
            f"{packaged_example()})"
        )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # "x": create, or fail if another process made it since the check above.
        with target.open("x", encoding="utf-8", newline="\n") as fh:
            fh.write(render_init())
    except FileExistsError as exc:
        raise ConfigError(f"{target} already exists; init never overwrites a config") from exc
    except OSError as exc:
        raise ConfigError(f"cannot write {target}: {exc}") from exc
    print(f"wrote {target}")
    print("every key is commented out with its default; uncomment and edit the ones to change.")
    print("see the effective values with: winmcp-gateway config show")
    return 0
