"""Configuration: every key once (`keys`), parsed once into a frozen `GatewayConfig` (`load`).

`docs` regenerates the README table and `config.example.toml` from the keys.
"""

from gateway.config.keys import ENV_STATE_DIR, KEYS, Key
from gateway.config.load import GatewayConfig, default_state_dir, effective_items, load_config, weakened_checks

__all__ = [
    "ENV_STATE_DIR",
    "KEYS",
    "GatewayConfig",
    "Key",
    "default_state_dir",
    "effective_items",
    "load_config",
    "weakened_checks",
]
