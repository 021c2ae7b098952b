"""Configuration: every key, its default and its meaning live once, in `KEYS` (DESIGN.md §8).

Precedence, highest first (S-CFG-01): command-line flags, the environment
(`WINMCP_GATEWAY_<KEY>`, e.g. `WINMCP_GATEWAY_MAX_OBSERVATION_AGE_MS=30000`), the TOML file
(`--config`, else `WINMCP_GATEWAY_CONFIG`, else `config.toml` in the platform's user config
dir if it exists), then the defaults below. The README's configuration table and
`config.example.toml` are generated from `KEYS` and checked by a test
(`gateway/config/docs.py`, S-CFG-05), so a key cannot change in one place only.

Fail closed (S-CFG-03): a value that cannot be used never weakens the gate. It is replaced
by the key's safe value (the default; for a key whose default is not the strictest choice,
the strictest) and a warning names the key, the value received and the value used (the
reading rules are in `_config_values.py`). Only `enforce`, `require_observation`,
`require_coordinate_mapping` and `require_process_match`, explicitly set to the boolean
false, switch a check of the gate off; unknown keys warn and change nothing (S-CFG-04).
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from gateway.config.keys import (
    APP_NAME,
    ENV_CONFIG,
    ENV_NOT_KEYS,
    ENV_PREFIX,
    ENV_STATE_DIR,
    KEYS,
)
from gateway.config.values import coerce, parse_env
from gateway.errors import ConfigError

_BY_NAME = {k.name: k for k in KEYS}
# Not keys of the table: where things live, and what loading said.
_LOCATION_FIELDS = frozenset({"state_dir", "config_file", "warnings"})


@dataclass(frozen=True, slots=True, kw_only=True)
class GatewayConfig:
    """The effective configuration. Build with `load_config`; `warnings` says what was adjusted.

    The field defaults repeat `KEYS` only because a dataclass needs them spelled out;
    tests/gateway/test_config_docs.py fails when the two differ (S-CFG-05).
    """

    enforce: bool = True
    require_observation: bool = True
    require_coordinate_mapping: bool = True
    require_process_match: bool = True
    max_observation_age_ms: int = 60_000
    observation_history: int = 32
    allowed_windows: tuple[str, ...] = ()
    tools_allow: tuple[str, ...] = ()
    tools_deny: tuple[str, ...] = ()
    profile: str = "default"
    unknown_tools: str = "deny"
    require_approval: bool = False
    require_approval_for_input: bool = False
    approval_ttl_ms: int = 120_000
    approval_wait_s: int = 60
    command_rules_enabled: bool = True
    # A tuple of tables; an unreadable value is kept as received so the rules fail to load.
    command_rules: Any = ()
    dynamic_commands: str = "ask"
    allow_rules: tuple[str, ...] = ()
    annotate_results: bool = True
    auto_audit: bool = True
    audit_max_bytes: int = 8 * 1024 * 1024
    audit_keep: int = 3
    audit_fsync: bool = False
    upstream_timeout_s: int = 150
    upstream_ping_timeout_ms: int = 5000
    max_result_bytes: int = 64 * 1024 * 1024
    max_message_bytes: int = 1024 * 1024
    state_dir: Path = field(default_factory=lambda: default_state_dir())
    config_file: Path | None = None
    warnings: tuple[str, ...] = ()


def default_state_dir() -> Path:
    """The platform's per-user state dir (Windows: %LOCALAPPDATA%\\winmcp-gateway)."""
    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def default_config_file() -> Path:
    """The platform's per-user config file (Windows: %APPDATA%\\winmcp-gateway\\config.toml).

    Roaming on Windows: without it platformdirs puts config in %LOCALAPPDATA%, the state dir.
    """
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False, roaming=True)) / "config.toml"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ConfigError(f"config file {path} does not exist (remedy: create it, or drop --config)") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"config file {path} cannot be read: {exc}") from exc


def _unknown(name: str, where: str, value: object) -> str:
    hint = difflib.get_close_matches(name, list(_BY_NAME), n=1)
    if hint:
        why = f"did you mean {hint[0]!r}?"
    elif isinstance(value, dict):
        why = "keys go at the top level of the file, not in a [table]"
    else:
        why = "see config.example.toml for the keys"
    return f"config: unknown key {name!r} in {where} ignored, it changes nothing ({why})"


def load_config(
    *,
    environ: Mapping[str, str],
    config_file: Path | None = None,
    state_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> GatewayConfig:
    """Build the effective configuration (precedence: flags > environment > file > defaults).

    Args:
        environ: the environment to read (passed in, never read globally).
        config_file: an explicit file (a missing one is an error); else `WINMCP_GATEWAY_CONFIG`,
            else the platform default if it exists.
        state_dir: an explicit state dir; else `WINMCP_GATEWAY_STATE_DIR`, else the platform default.
        overrides: values from command-line flags (typed), highest precedence.

    Returns:
        The frozen config; its `warnings` lists every adjustment and unknown key (S-CFG-02).

    Raises:
        ConfigError: the named file is missing, a file is unreadable or not TOML, or a flag
            names an unknown key.
    """
    warnings: list[str] = []
    path = config_file or (Path(environ[ENV_CONFIG]) if environ.get(ENV_CONFIG) else None)
    raw: dict[str, Any] = {}
    if path is not None:
        raw = _read_toml(path)
    elif default_config_file().is_file():
        path = default_config_file()
        raw = _read_toml(path)

    values: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in _BY_NAME:
            warnings.append(_unknown(name, f"file {path}", value))
            continue
        values[name] = coerce(_BY_NAME[name], value, f"file {path}", warnings)
    for env_name in sorted(environ):
        if not env_name.startswith(ENV_PREFIX) or env_name in ENV_NOT_KEYS:
            continue
        name = env_name[len(ENV_PREFIX) :].lower()
        if name not in _BY_NAME:
            warnings.append(_unknown(name, f"env {env_name}", None))
            continue
        key = _BY_NAME[name]
        values[name] = coerce(key, parse_env(key, environ[env_name]), f"env {env_name}", warnings)
    for name, value in (overrides or {}).items():
        if name not in _BY_NAME:
            raise ConfigError(f"unknown config key {name!r} given as a flag")
        values[name] = coerce(_BY_NAME[name], value, "flag", warnings)

    resolved_state = state_dir or (Path(environ[ENV_STATE_DIR]) if environ.get(ENV_STATE_DIR) else None)
    return GatewayConfig(
        **values,
        state_dir=(resolved_state or default_state_dir()).expanduser(),
        config_file=path,
        warnings=tuple(warnings),
    )


def config_field_names() -> tuple[str, ...]:
    """The TOML keys (every `GatewayConfig` field except locations and warnings)."""
    return tuple(f.name for f in fields(GatewayConfig) if f.name not in _LOCATION_FIELDS)


def effective_items(config: GatewayConfig) -> dict[str, Any]:
    """Key → value of the effective config, for `winmcp_state`, the doctor and the policy hash."""
    out: dict[str, Any] = {}
    for name in config_field_names():
        value = getattr(config, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def weakened_checks(config: GatewayConfig) -> tuple[str, ...]:
    """The keys that explicitly switch a gate check off in `config` (for the doctor and the README).

    Returns:
        Names of the weakening keys (S-CFG-03) whose value is not their default, in `KEYS` order.
    """
    return tuple(k.name for k in KEYS if k.weakens and getattr(config, k.name) != k.default)
