"""Turning one received config value into the value used, fail closed (S-CFG-02, S-CFG-03).

`config.py` owns the keys; this module owns the reading rules, stated once:

1. **TOML file and flags** give typed values. A value of the right type and in range is
   used as is. A value of the wrong type, out of range or not one of the choices is never
   guessed at: the key's *safe* value is used (the default; for a key whose default is not
   its strictest choice, the strictest) and a warning names key, value received, source and
   value used. Two coercions exist, both warned: a string where a list of tool names or rule
   ids belongs is split on commas (a window pattern is taken whole), and a list of strings
   with some non-strings keeps its strings when fewer items can only restrict more.
2. **Environment** values are text with a fixed syntax, not coercions: booleans are
   `true`/`false` (any case), integers are decimal, lists are comma-separated or a TOML
   array (`["a, b", "c"]`), `command_rules` is a TOML array of inline tables. Text that
   does not parse is unusable (rule 1's safe value, warned).
3. `command_rules` that cannot be read are passed on unchanged: the rules then fail to
   load and every SYSTEM and INPUT call is refused (S-DEC-06) — never silently dropped.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from gateway.config.keys import NO_WINDOW, Key

_DECIMAL = re.compile(r"-?[0-9]+", re.ASCII)


class _Unusable:
    """Marker for an environment text that does not parse (rule 2)."""

    def __init__(self, text: str, why: str) -> None:
        self.text, self.why = text, why


def _env_list(text: str) -> list[Any] | _Unusable:
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            value = tomllib.loads(f"v = {stripped}")["v"]
        except tomllib.TOMLDecodeError as exc:
            return _Unusable(text, f"not a TOML array ({exc})")
        return list(value)
    return [item.strip() for item in stripped.split(",") if item.strip()]


def parse_env(key: Key, text: str) -> Any:
    """The typed value an environment variable's text stands for (rule 2).

    Args:
        key: the config key.
        text: the variable's value.

    Returns:
        A bool, int, str or list — or an unusable marker that `coerce` replaces by the safe value.
    """
    if key.kind == "bool":
        word = text.strip().lower()
        return word == "true" if word in ("true", "false") else _Unusable(text, "not true or false")
    if key.kind == "int":
        # ASCII digits only: int() would also take "30_000", "+30000" and full-width digits, a guess
        # a security setting should not make silently (S-CFG-08).
        digits = text.strip()
        if not _DECIMAL.fullmatch(digits):
            return _Unusable(text, "not a decimal integer")
        return int(digits)
    if key.kind == "str":
        return text.strip()
    if key.kind == "list[table]":
        try:
            return list(tomllib.loads(f"v = {text.strip()}")["v"])
        except (tomllib.TOMLDecodeError, TypeError) as exc:
            return _Unusable(text, f"not a TOML array of tables ({exc})")
    if key.kind == "table":  # an inline table: { input = "10/s", identical_calls = 5 }
        try:
            return dict(tomllib.loads(f"v = {text.strip()}")["v"])
        except (tomllib.TOMLDecodeError, TypeError, ValueError) as exc:
            return _Unusable(text, f"not a TOML inline table ({exc})")
    return _env_list(text)


def describe(key: Key, value: Any) -> str:
    """A value as a warning shows it; the no-window sentinel is spelled out."""

    if isinstance(value, tuple | list) and NO_WINDOW in value:
        return "[] plus a pattern no window title can match (every input action is refused)"
    return repr(list(value) if isinstance(value, tuple) else value)


def coerce(key: Key, value: Any, source: str, warnings: list[str]) -> Any:
    """The value to use for `key`, appending a warning whenever it is not `value` as received.

    Args:
        key: the config key.
        value: what the file, flag or (parsed) environment variable said.
        source: where it came from, e.g. "file C:/…/config.toml", "env WINMCP_GATEWAY_ENFORCE".
        warnings: the list the warning is appended to.

    Returns:
        The value used (tuples for lists).
    """

    def replaced(why: str, used: Any) -> Any:
        shown = value.text if isinstance(value, _Unusable) else value
        warnings.append(f"config {key.name}: {why}; received {shown!r} from {source}, using {describe(key, used)}")
        return used

    if isinstance(value, _Unusable):
        return replaced(value.why, _safe(key))
    if key.kind == "bool":
        if isinstance(value, bool):
            return value
        return replaced("expected a boolean (true or false, without quotes)", key.safe_value)
    if key.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return replaced("expected an integer", key.safe_value)
        if key.minimum is not None and value < key.minimum:
            return replaced(f"below the minimum {key.minimum}", key.safe_value)
        if key.maximum is not None and value > key.maximum:
            return replaced(f"above the maximum {key.maximum}", key.safe_value)
        return value
    if key.kind == "str":
        if isinstance(value, str) and value in key.choices:
            return value
        return replaced(f"expected one of {list(key.choices)}", key.safe_value)
    if key.kind == "list[str]":
        return _coerce_list(key, value, replaced)
    if key.kind == "table":
        # The key's reader judges each entry: an unusable one takes its safe value, named (rule 1).
        if not isinstance(value, Mapping) or key.read_table is None:
            return replaced("expected a table", dict(key.safe_value))
        used, problems = key.read_table(value)
        for problem in problems:
            warnings.append(f"config {key.name}.{problem} (from {source})")
        return used
    # list[table]: passed on; load_rules refuses what it cannot read, naming the rule (rule 3).
    if isinstance(value, list | tuple):
        return tuple(dict(v) if isinstance(v, Mapping) else v for v in value)
    warnings.append(
        f"config {key.name}: expected a list of tables; received {value!r} from {source}, using it "
        "anyway so that the command rules fail to load: SYSTEM and INPUT calls are refused until it is fixed"
    )
    return value


def _safe(key: Key) -> Any:
    return tuple(key.safe_value) if isinstance(key.safe_value, list | tuple) else key.safe_value


def _coerce_list(key: Key, value: Any, replaced: Any) -> Any:
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",")] if key.split_commas else [value.strip()]
        return tuple(replaced("a string where a list belongs", tuple(i for i in items if i)))
    if isinstance(value, list | tuple):
        strings = tuple(v for v in value if isinstance(v, str))
        if len(strings) == len(value):
            return tuple(value)
        if key.partial == "keep":
            # Fewer patterns / allowed tools / exemptions: only stricter than what was meant.
            kept = strings if strings else _safe(key)
            return replaced("items that are not strings dropped", kept)
        # A deny-list with an unreadable item: deny what it names and everything the safe value does.
        merged = tuple(sorted(set(_safe(key)) | set(strings)))
        return replaced("items that are not strings", merged)
    return replaced("expected a list of strings", _safe(key))
