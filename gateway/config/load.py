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

Where the per-user dirs are is decided once, in `default_state_dir` / `default_config_file`
(`WINMCP_GATEWAY_HOME` moves both, S-CFG-20); `explain_config` loads exactly what
`load_config` loads and says where each value came from (S-CFG-22, `winmcp-gateway config show`).
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

import platformdirs

from gateway.config.keys import (
    APP_NAME,
    ENV_CONFIG,
    ENV_HOME,
    ENV_NOT_KEYS,
    ENV_PREFIX,
    ENV_STATE_DIR,
    KEYS,
)
from gateway.config.values import coerce, parse_env
from gateway.errors import ConfigError
from policy.rate import DEFAULT_TABLE as DEFAULT_RATE_TABLE

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
    probe_reuse_ms: int = 0
    max_observation_age_ms: int = 60_000
    observation_history: int = 32
    allowed_windows: tuple[str, ...] = ()
    private_windows: tuple[str, ...] = ()
    tools_allow: tuple[str, ...] = ()
    tools_deny: tuple[str, ...] = ()
    profile: str = "default"
    unknown_tools: str = "deny"
    pin_mode: str = "enforce"
    require_approval: bool = False
    require_approval_for_input: bool = False
    approval_ttl_ms: int = 120_000
    approval_wait_s: int = 60
    command_rules_enabled: bool = True
    # A tuple of tables; an unreadable value is kept as received so the rules fail to load.
    command_rules: Any = ()
    dynamic_commands: str = "ask"
    allow_rules: tuple[str, ...] = ()
    # The table as used, every entry present (policy/rate.py reads it; S-RATE-07).
    rate_limits: dict[str, object] = field(default_factory=lambda: dict(DEFAULT_RATE_TABLE))
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


# Where the per-user dirs are, decided in this one place (issue 16 item 4, S-CFG-20).
#
# On Windows platformdirs asks the OS for the known folders (SHGetKnownFolderPath) and ignores
# APPDATA / LOCALAPPDATA, so no environment a test sets can keep a gateway away from the
# developer's real config. `WINMCP_GATEWAY_HOME` can: it puts both dirs under one folder, on
# every platform, without asking the OS. Why a variable and not a module-level override the test
# conftest calls: the suite also starts gateways as children the way a client does
# (`python -m gateway serve`, through the SDK's stdio client, which passes a minimal environment
# plus what the test adds); only the environment or the command line reaches them, and a second,
# in-process mechanism would be a second place. It adds no power an agent lacks today:
# WINMCP_GATEWAY_CONFIG and WINMCP_GATEWAY_STATE_DIR already relocate the same two things, and
# setting any WINMCP_GATEWAY_* variable for the next start is refused (S-SELF-02, S-CFG-21).
# Like platformdirs' own XDG lookups it reads the process environment, not `load_config`'s
# `environ`: it says where this user's dirs are, and a test that loads with `environ={}` must
# still not reach the real ones.
HOME_CONFIG_FILE = "config.toml"
HOME_STATE_DIR = "state"


def gateway_home() -> Path | None:
    """The folder `WINMCP_GATEWAY_HOME` names (absolute), or None when it is unset or empty."""
    value = os.environ.get(ENV_HOME, "")
    return Path(os.path.abspath(os.path.expanduser(value))) if value else None


def default_state_dir() -> Path:
    """The per-user state dir: `<WINMCP_GATEWAY_HOME>/state`, else the platform's
    (Windows: %LOCALAPPDATA%\\winmcp-gateway)."""
    home = gateway_home()
    if home is not None:
        return home / HOME_STATE_DIR
    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def default_config_file() -> Path:
    """The per-user config file: `<WINMCP_GATEWAY_HOME>/config.toml`, else the platform's
    (Windows: %APPDATA%\\winmcp-gateway\\config.toml).

    Roaming on Windows: without it platformdirs puts config in %LOCALAPPDATA%, the state dir.
    """
    home = gateway_home()
    if home is not None:
        return home / HOME_CONFIG_FILE
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False, roaming=True)) / "config.toml"


def packaged_example() -> Path:
    """`config.example.toml` as shipped inside the package (`gateway/config/example.toml`, S-CFG-23)."""
    return Path(__file__).with_name("example.toml")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ConfigError(
            f"config file {path} does not exist (remedy: `winmcp-gateway init --config {path}` writes a "
            "commented one, or drop --config)"
        ) from exc
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
        why = f"the keys are listed in {packaged_example()} and by `winmcp-gateway config show`"
    return f"config: unknown key {name!r} in {where} ignored, it changes nothing ({why})"


SourceKind = Literal["default", "file", "environment", "flag"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """Where one effective value came from (S-CFG-22).

    Attributes:
        kind: default, file, environment or flag.
        detail: the file's path, the variable's name or the flag; for a default location, the
            path or variable that made it the default.
        adjusted: the value received could not be used as is (a warning says what was used).
    """

    kind: SourceKind
    detail: str = ""
    adjusted: bool = False

    def describe(self) -> str:
        """One phrase, e.g. "file C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway\\config.toml"."""
        text: str = self.kind
        if self.detail:
            text = f"{self.kind}, {self.detail}" if self.kind == "default" else f"{self.kind} {self.detail}"
        return text + (" (adjusted: see the warning)" if self.adjusted else "")


@dataclass(frozen=True, slots=True, kw_only=True)
class ExplainedConfig:
    """The effective configuration and, per key, where its value came from.

    `sources` has every key of `KEYS` plus "state_dir" and "config_file".
    """

    config: GatewayConfig
    sources: Mapping[str, Source]


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
    return explain_config(environ=environ, config_file=config_file, state_dir=state_dir, overrides=overrides).config


def explain_config(
    *,
    environ: Mapping[str, str],
    config_file: Path | None = None,
    state_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> ExplainedConfig:
    """`load_config`, and where every value came from (for `winmcp-gateway config show`, S-CFG-22).

    Args:
        environ: as for `load_config`.
        config_file: as for `load_config`.
        state_dir: as for `load_config`.
        overrides: as for `load_config`.

    Returns:
        The config `load_config` returns for the same arguments, and each key's `Source`.

    Raises:
        ConfigError: as `load_config`.
    """
    warnings: list[str] = []
    sources: dict[str, Source] = {k.name: Source(kind="default") for k in KEYS}
    path = config_file or (Path(environ[ENV_CONFIG]) if environ.get(ENV_CONFIG) else None)
    if config_file is not None:
        sources["config_file"] = Source(kind="flag", detail="--config")
    elif path is not None:
        sources["config_file"] = Source(kind="environment", detail=ENV_CONFIG)
    raw: dict[str, Any] = {}
    if path is not None:
        raw = _read_toml(path)
    elif default_config_file().is_file():
        path = default_config_file()
        raw = _read_toml(path)
    if "config_file" not in sources:
        where = f"under {ENV_HOME}" if gateway_home() is not None else "the user config file"
        detail = where if path is not None else f"no file at {default_config_file()}"
        sources["config_file"] = Source(kind="default", detail=detail)

    values: dict[str, Any] = {}

    def take(name: str, value: Any, where: str, source: Source) -> None:
        before = len(warnings)
        values[name] = coerce(_BY_NAME[name], value, where, warnings)
        adjusted = len(warnings) > before
        sources[name] = Source(kind=source.kind, detail=source.detail, adjusted=adjusted)

    for name, value in raw.items():
        if name not in _BY_NAME:
            warnings.append(_unknown(name, f"file {path}", value))
            continue
        take(name, value, f"file {path}", Source(kind="file", detail=str(path)))
    for env_name in sorted(environ):
        if not env_name.startswith(ENV_PREFIX) or env_name in ENV_NOT_KEYS:
            continue
        name = env_name[len(ENV_PREFIX) :].lower()
        if name not in _BY_NAME:
            warnings.append(_unknown(name, f"env {env_name}", None))
            continue
        key = _BY_NAME[name]
        take(name, parse_env(key, environ[env_name]), f"env {env_name}", Source(kind="environment", detail=env_name))
    for name, value in (overrides or {}).items():
        if name not in _BY_NAME:
            raise ConfigError(f"unknown config key {name!r} given as a flag")
        take(name, value, "flag", Source(kind="flag"))

    resolved_state = state_dir or (Path(environ[ENV_STATE_DIR]) if environ.get(ENV_STATE_DIR) else None)
    if state_dir is not None:
        sources["state_dir"] = Source(kind="flag", detail="--state-dir")
    elif resolved_state is not None:
        sources["state_dir"] = Source(kind="environment", detail=ENV_STATE_DIR)
    elif gateway_home() is not None:
        sources["state_dir"] = Source(kind="default", detail=f"under {ENV_HOME}")
    else:
        sources["state_dir"] = Source(kind="default", detail="the user state dir")
    config = GatewayConfig(
        **values,
        # Absolute from the start: a relative `--state-dir` means the folder it named when the gateway
        # started, whatever the working directory later (a background thread once wrote into a new cwd).
        state_dir=(resolved_state or default_state_dir()).expanduser().absolute(),
        config_file=path,
        warnings=tuple(warnings),
    )
    return ExplainedConfig(config=config, sources=sources)


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


def weakened_settings(config: GatewayConfig) -> tuple[str, ...]:
    """`weakened_checks` as the person wrote them: `name = value` (TOML spelling: `false`, `250`)."""
    out = []
    for name in weakened_checks(config):
        value = getattr(config, name)
        out.append(f"{name} = {str(value).lower() if isinstance(value, bool) else value}")
    return tuple(out)


def weakened_checks(config: GatewayConfig) -> tuple[str, ...]:
    """The keys that explicitly switch a gate check off in `config` (for the doctor and the README).

    Returns:
        Names of the weakening keys (S-CFG-03) whose value is not their default, in `KEYS` order.
    """
    return tuple(k.name for k in KEYS if k.weakens and getattr(config, k.name) != k.default)
