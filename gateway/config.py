"""Configuration: every key, its default and its meaning live once, in `KEYS` (DESIGN.md §8).

Precedence (highest first): command-line flags, environment (`WINMCP_GATEWAY_<KEY>`),
the TOML file (`--config`, `WINMCP_GATEWAY_CONFIG`, else the platform's user config dir),
then the defaults below. The README table and `config.example.toml` are checked against
`KEYS` by tests/gateway/test_config.py, so a key cannot change in one place only.

Fail closed (S-CFG-03): a value that cannot be used never weakens the gate. It is replaced
by the key's *safe* value (usually the default; for keys whose default is not the strictest
choice, the strictest) and a warning names the key, the value received and the value used.
Only `enforce`, `require_observation`, `require_coordinate_mapping` and
`require_process_match`, set explicitly to a boolean, can weaken the gate. Unknown keys
warn and are ignored.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from gateway.errors import ConfigError

APP_NAME = "winmcp-gateway"
ENV_PREFIX = "WINMCP_GATEWAY_"
ENV_STATE_DIR = "WINMCP_GATEWAY_STATE_DIR"
ENV_CONFIG = "WINMCP_GATEWAY_CONFIG"

# Upper bound for max_observation_age_ms: a longer window would make "fresh" meaningless on a
# live desktop (10 minutes; the seed plugin's default was 60 s).
MAX_OBSERVATION_AGE_CEILING_MS = 600_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Key:
    """One config key: its type, default, the value used when input is unusable, and its doc."""

    name: str
    kind: str  # bool | int | str | list[str] | list[table]
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    safe: Any = None  # used instead of an unusable value; None → the default
    weakens: bool = False  # may an explicit value lower protection? (S-CFG-03)

    @property
    def safe_value(self) -> Any:
        return self.default if self.safe is None else self.safe


KEYS: tuple[Key, ...] = (
    Key(name="enforce", kind="bool", default=True, weakens=True,
        doc="false = shadow mode: decisions are audited as would-deny but not enforced; every result says so."),
    Key(name="require_observation", kind="bool", default=True, weakens=True,
        doc="Input actions need a fresh observation of this session."),
    Key(name="require_coordinate_mapping", kind="bool", default=True, weakens=True,
        doc="Warn (MAPPING_INCOMPLETE) when the basis observation has no image mapping. Never blocks."),
    Key(name="require_process_match", kind="bool", default=True, weakens=True,
        doc="Before an input action, probe the focused window and refuse if it changed (PROCESS_CHANGED)."),
    Key(name="max_observation_age_ms", kind="int", default=60_000, minimum=0,
        maximum=MAX_OBSERVATION_AGE_CEILING_MS,
        doc="Oldest observation an input action may rely on, in milliseconds."),
    Key(name="observation_history", kind="int", default=32, minimum=1, maximum=10_000,
        doc="Observations kept per client session (older ones are dropped; ids are never reused)."),
    Key(name="allowed_windows", kind="list[str]", default=(),
        doc="If set, input actions are allowed only when the focused window title matches one of these "
            "case-insensitive glob patterns (WINDOW_NOT_ALLOWED)."),
    Key(name="tools_allow", kind="list[str]", default=(),
        doc="If set, only these upstream tools are listed and callable (TOOL_NOT_ALLOWED)."),
    Key(name="tools_deny", kind="list[str]", default=(),
        doc="These upstream tools are hidden and refused (TOOL_NOT_ALLOWED)."),
    Key(name="profile", kind="str", default="default", choices=("default", "observe-only"), safe="observe-only",
        doc='"observe-only" leaves only observation tools and the gateway\'s read-only tools.'),
    Key(name="unknown_tools", kind="str", default="deny", choices=("deny", "allow"),
        doc="Upstream tools the catalog does not know: refused (UNKNOWN_TOOL) unless \"allow\"."),
    Key(name="require_approval", kind="bool", default=False, safe=True,
        doc="SYSTEM tools (PowerShell, Registry, FileSystem, Process, App, Clipboard, Notification) need a "
            "person's approval."),
    Key(name="require_approval_for_input", kind="bool", default=False, safe=True,
        doc="INPUT tools (Click, Type, Scroll, Move, Shortcut, MultiSelect, MultiEdit) need a person's approval."),
    Key(name="approval_ttl_ms", kind="int", default=120_000, minimum=1_000, maximum=3_600_000,
        doc="How long a granted approval stays usable, in milliseconds."),
    Key(name="approval_wait_s", kind="int", default=60, minimum=1, maximum=600,
        doc="How long an elicitation waits for a person before it ends in a deny (below common client timeouts)."),
    Key(name="command_rules_enabled", kind="bool", default=True, safe=True,
        doc="Match SYSTEM tool content against the built-in and custom command rules."),
    Key(name="command_rules", kind="list[table]", default=(),
        doc="Custom rules: [{id, pattern, risk, reason, action = \"deny\"|\"ask\", tools = [...]}]."),
    Key(name="allow_rules", kind="list[str]", default=(),
        doc="Built-in rule ids to exempt; every exemption that lets a call through is audited."),
    Key(name="annotate_results", kind="bool", default=True,
        doc="Append the one-line `[gateway] obs=…` mapping annotation to Snapshot/Screenshot results."),
    Key(name="auto_audit", kind="bool", default=True, safe=True,
        doc="Write the audit log. false writes nothing at all."),
    Key(name="audit_max_bytes", kind="int", default=8 * 1024 * 1024, minimum=4096, maximum=1 << 34,
        doc="Rotate the audit file at this size (bytes)."),
    Key(name="audit_keep", kind="int", default=3, minimum=1, maximum=1000,
        doc="Rotated audit files to keep."),
    Key(name="audit_fsync", kind="bool", default=False,
        doc="fsync after every audit line (slower, survives power loss)."),
    Key(name="upstream_timeout_s", kind="int", default=150, minimum=1, maximum=3600,
        doc="Per-call upstream timeout in seconds (WaitFor may legitimately take 120 s)."),
)

_BY_NAME = {k.name: k for k in KEYS}


@dataclass(frozen=True, slots=True, kw_only=True)
class GatewayConfig:
    """The effective configuration. Build with `load_config`; `warnings` says what was adjusted."""

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
    command_rules: tuple[Mapping[str, Any], ...] = ()
    allow_rules: tuple[str, ...] = ()
    annotate_results: bool = True
    auto_audit: bool = True
    audit_max_bytes: int = 8 * 1024 * 1024
    audit_keep: int = 3
    audit_fsync: bool = False
    upstream_timeout_s: int = 150
    # Where things live (not TOML keys of the table above; set by flags/env).
    state_dir: Path = field(default_factory=lambda: default_state_dir())
    config_file: Path | None = None
    warnings: tuple[str, ...] = ()


def default_state_dir() -> Path:
    """The platform's per-user state dir (Windows: %LOCALAPPDATA%\\winmcp-gateway)."""
    return Path(platformdirs.user_state_dir(APP_NAME, appauthor=False))


def default_config_file() -> Path:
    """The platform's per-user config file (Windows: %APPDATA%\\winmcp-gateway\\config.toml)."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "config.toml"


def _coerce(key: Key, value: Any, source: str, warnings: list[str]) -> Any:
    """Return the value to use for `key`; append a warning when it is not `value` as given."""

    def replaced(why: str, used: Any) -> Any:
        warnings.append(f"config {key.name}: {why}; received {value!r} from {source}, using {used!r}")
        return used

    if key.kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return replaced("a string where a boolean belongs", value.strip().lower() == "true")
        return replaced("not a boolean", key.safe_value)
    if key.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int | str):
            return replaced("not an integer", key.safe_value)
        if isinstance(value, str):
            try:
                number = int(value.strip())
            except ValueError:
                return replaced("not an integer", key.safe_value)
            value_used = number
            warnings.append(f"config {key.name}: a string where an integer belongs; received {value!r} "
                            f"from {source}, using {number!r}")
        else:
            value_used = value
        if key.minimum is not None and value_used < key.minimum:
            return replaced(f"below the minimum {key.minimum}", key.minimum)
        if key.maximum is not None and value_used > key.maximum:
            return replaced(f"above the maximum {key.maximum}", key.maximum)
        return value_used
    if key.kind == "str":
        if isinstance(value, str) and value in key.choices:
            return value
        return replaced(f"not one of {list(key.choices)}", key.safe_value)
    if key.kind == "list[str]":
        if isinstance(value, str):
            items = [v.strip() for v in value.split(",") if v.strip()]
            return tuple(replaced("a string where a list belongs", items))
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return tuple(value)
        return tuple(replaced("not a list of strings", list(key.safe_value)))
    if key.kind == "list[table]":
        if isinstance(value, list | tuple) and all(isinstance(v, Mapping) for v in value):
            return tuple(dict(v) for v in value)
        # A custom rule list we cannot read must not be silently dropped: rules fail to load (S-RULE).
        raise ConfigError(f"config {key.name}: expected a list of tables, got {type(value).__name__} from {source}")
    raise AssertionError(f"unhandled kind {key.kind}")  # pragma: no cover - KEYS is static


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


def load_config(
    *,
    environ: Mapping[str, str],
    config_file: Path | None = None,
    state_dir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> GatewayConfig:
    """Build the effective configuration.

    Args:
        environ: the environment to read (passed in, never read globally).
        config_file: an explicit file (a missing one is an error); else `WINMCP_GATEWAY_CONFIG`,
            else the platform default if it exists.
        state_dir: an explicit state dir; else `WINMCP_GATEWAY_STATE_DIR`, else the platform default.
        overrides: values from command-line flags, highest precedence.

    Returns:
        The frozen config; its `warnings` lists every adjustment (S-CFG-02).

    Raises:
        ConfigError: the file is missing (when named explicitly), unreadable or not TOML.
    """
    warnings: list[str] = []
    explicit = config_file or (Path(environ[ENV_CONFIG]) if environ.get(ENV_CONFIG) else None)
    path: Path | None = explicit
    raw: dict[str, Any] = {}
    if explicit is not None:
        raw = _read_toml(explicit)
    elif default_config_file().is_file():
        path = default_config_file()
        raw = _read_toml(path)

    values: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in _BY_NAME:
            warnings.append(f"config: unknown key {name!r} in {path} ignored (it changes nothing)")
            continue
        values[name] = _coerce(_BY_NAME[name], value, f"file {path}", warnings)
    for key in KEYS:
        env_name = ENV_PREFIX + key.name.upper()
        if env_name in environ and key.kind != "list[table]":
            values[key.name] = _coerce(key, environ[env_name], f"env {env_name}", warnings)
    for name, value in (overrides or {}).items():
        if name not in _BY_NAME:
            raise ConfigError(f"unknown config key {name!r} given as a flag")
        values[name] = _coerce(_BY_NAME[name], value, "flag", warnings)

    resolved_state = state_dir or (Path(environ[ENV_STATE_DIR]) if environ.get(ENV_STATE_DIR) else None)
    return GatewayConfig(
        **values,
        state_dir=(resolved_state or default_state_dir()).expanduser(),
        config_file=path,
        warnings=tuple(warnings),
    )


def config_field_names() -> tuple[str, ...]:
    """The TOML keys (every `GatewayConfig` field except locations and warnings)."""
    skip = {"state_dir", "config_file", "warnings"}
    return tuple(f.name for f in fields(GatewayConfig) if f.name not in skip)


def effective_items(config: GatewayConfig) -> dict[str, Any]:
    """Key → value of the effective config, for `winmcp_state`, the doctor and the policy hash."""
    out: dict[str, Any] = {}
    for name in config_field_names():
        value = getattr(config, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


__all__ = [
    "ENV_CONFIG",
    "ENV_STATE_DIR",
    "KEYS",
    "GatewayConfig",
    "Key",
    "config_field_names",
    "default_config_file",
    "default_state_dir",
    "effective_items",
    "load_config",
]
