"""Configuration: every key once (`keys`), parsed once into a frozen `GatewayConfig` (`load`).

`docs` regenerates the README table and `config.example.toml` from the keys; `load` also says
where every value came from (`explain_config`) and where the per-user dirs are.
"""

from gateway.config.keys import ENV_HOME, ENV_STATE_DIR, KEYS, Key
from gateway.config.load import (
    ExplainedConfig,
    GatewayConfig,
    Source,
    default_config_file,
    default_state_dir,
    effective_items,
    explain_config,
    load_config,
    weakened_checks,
)

__all__ = [
    "ENV_HOME",
    "ENV_STATE_DIR",
    "KEYS",
    "ExplainedConfig",
    "GatewayConfig",
    "Key",
    "Source",
    "default_config_file",
    "default_state_dir",
    "effective_items",
    "explain_config",
    "load_config",
    "weakened_checks",
]
