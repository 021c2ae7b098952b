"""No key, value or type error weakens the gate except the four weakening keys (S-CFG-03, S-CFG-04).

Measured on behaviour, not on field values: a corpus of calls that the DEFAULT config
refuses is decided (`policy.decide`) under configs loaded with every key set to every
value of a battery, with the command rules loaded the way the gateway loads them
(`GatewayApp.rules`). Expected refusals come from DESIGN.md §4-§5, not from running the code.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from gateway.app import GatewayApp
from gateway.config.keys import MAX_OBSERVATION_AGE_CEILING_MS, Key
from gateway.config.load import KEYS, GatewayConfig, load_config
from policy import Decision, KillState, PolicyConfig, decide
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, SETTINGS, T0, call, click, context, observation, probe_ok, view

WEAKENING = {"enforce", "require_observation", "require_coordinate_mapping", "require_process_match"}
FRESH = observation("obs-1", taken_at_ms=T0)
NEWER = observation("obs-2", taken_at_ms=T0 + 10, generation=2)

Case = Callable[[PolicyConfig, Any, str | None], Decision]

# name → the call in its world; every one is refused under the default config.
FRESHNESS_CASES: dict[str, Case] = {
    "no observation": lambda c, r, e: decide(click(), context(view(), config=c, rules=r, rules_error=e), T0),
    "unknown observation": lambda c, r, e: decide(
        click(based_on="obs-9"), context(view(FRESH), config=c, rules=r, rules_error=e), T0
    ),
    "superseded observation": lambda c, r, e: decide(
        click(based_on="obs-1"), context(view(FRESH, NEWER), config=c, rules=r, rules_error=e), T0 + 20
    ),
    "older than the ceiling": lambda c, r, e: decide(
        click(),
        context(view(FRESH), config=c, rules=r, rules_error=e),
        T0 + MAX_OBSERVATION_AGE_CEILING_MS + 1,
    ),
    "focused window changed": lambda c, r, e: decide(
        click(), context(view(FRESH, probe=probe_ok(SETTINGS)), config=c, rules=r, rules_error=e), T0 + 5
    ),
}
OTHER_CASES: dict[str, Case] = {
    "recursive delete": lambda c, r, e: decide(
        call("PowerShell", command="Remove-Item -Recurse -Force C:\\data"),
        context(view(), config=c, rules=r, rules_error=e),
        T0,
    ),
    "unknown tool": lambda c, r, e: decide(call("Foo"), context(view(), config=c, rules=r, rules_error=e), T0),
    "kill switch": lambda c, r, e: decide(
        click(),
        context(
            view(FRESH, probe=probe_ok(NOTEPAD)),
            config=c,
            rules=r,
            rules_error=e,
            kill=KillState(engaged=True, by="person", reason="stop"),
        ),
        T0 + 5,
    ),
}

# Values a TOML file, a flag or a parsed environment variable can carry, none of them usable for any key.
GARBAGE: tuple[object, ...] = (
    "false",
    "",
    "0",
    "no",
    0,
    1,
    -1,
    2.5,
    None,
    [],
    [1, 2],
    {"a": 1},
    [{"x": 1}],
    10**12,
    "deny, allow",
)


def _refused(cfg: GatewayConfig, cases: dict[str, Case], tmp: Path) -> dict[str, bool]:
    no_upstream = cast(Any, SimpleNamespace(on_lost=[]))  # rules load without any upstream connection
    rules, error = GatewayApp(cfg, no_upstream).rules()  # the gateway's own loading path
    policy_config = PolicyConfig.from_attrs(cfg)
    return {name: case(policy_config, rules, error).blocks for name, case in cases.items()}


def _load(tmp: Path, **values: object) -> GatewayConfig:
    return load_config(environ={}, state_dir=tmp, overrides=values)


def _unusable(key: Key, value: object) -> bool:
    """Whether `value` is NOT a valid value of `key` (so it must be replaced, never used)."""
    if key.kind == "bool":
        return not isinstance(value, bool)
    if key.kind == "int":
        return (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not ((key.minimum or 0) <= value <= (key.maximum or value))
        )
    if key.kind == "str":
        return value not in key.choices
    if key.kind == "list[str]":
        return not (isinstance(value, list) and all(isinstance(v, str) for v in value))
    return not (isinstance(value, list) and all(isinstance(v, dict) for v in value))


def _valid_values(key: Key) -> list[object]:
    if key.kind == "bool":
        return [True, False]
    if key.kind == "int":
        return [key.minimum, key.maximum, key.default]
    if key.kind == "str":
        return list(key.choices)
    if key.kind == "list[str]":
        return [[], ["*"], ["Click", "Snapshot"], ["force-kill"]]
    return [[], [{"id": "my-rule", "pattern": "curl", "risk": "network", "reason": "no downloads"}]]


@requirement("S-CFG-03")
def test_the_corpus_is_refused_under_the_default_config(tmp_path: Path) -> None:
    """S-CFG-03: the default config refuses every call of the corpus (the baseline of the other tests)."""
    refused = _refused(_load(tmp_path), {**FRESHNESS_CASES, **OTHER_CASES}, tmp_path)
    assert refused == dict.fromkeys(refused, True)


@requirement("S-CFG-03")
@pytest.mark.parametrize("key", KEYS, ids=lambda k: k.name)
def test_no_unusable_value_of_any_key_lets_a_refused_call_through(key: Key, tmp_path: Path) -> None:
    """S-CFG-03: for every key and every unusable value, each call the default refuses stays refused."""
    tried = 0
    for value in GARBAGE:
        if not _unusable(key, value) or value is None:
            continue
        tried += 1
        cfg = _load(tmp_path, **{key.name: value})
        refused = _refused(cfg, {**FRESHNESS_CASES, **OTHER_CASES}, tmp_path)
        assert all(refused.values()), f"{key.name} = {value!r} let through {[n for n, r in refused.items() if not r]}"
        assert cfg.auto_audit and cfg.command_rules_enabled, "an unusable value switched audit or rules off"
    assert tried >= 5


@requirement("S-CFG-03")
@pytest.mark.parametrize("key", [k for k in KEYS if k.name not in WEAKENING], ids=lambda k: k.name)
def test_no_valid_value_of_another_key_switches_a_freshness_check_off(key: Key, tmp_path: Path) -> None:
    """S-CFG-03: only the four weakening keys can let through an input call the freshness gate refuses."""
    for value in _valid_values(key):
        cfg = _load(tmp_path, **{key.name: value})
        refused = _refused(cfg, FRESHNESS_CASES, tmp_path)
        assert all(refused.values()), f"{key.name} = {value!r} let through {[n for n, r in refused.items() if not r]}"


@requirement("S-CFG-04")
@pytest.mark.parametrize(
    ("key", "case"),
    [
        ("require_observation", "no observation"),
        ("require_process_match", "focused window changed"),
        ("enforce", "superseded observation"),
    ],
)
def test_an_explicit_false_of_a_weakening_key_does_weaken(key: str, case: str, tmp_path: Path) -> None:
    """S-CFG-04: the weakening keys work (so the tests above can fail): an explicit false lets it through."""
    refused = _refused(_load(tmp_path, **{key: False}), {case: FRESHNESS_CASES[case]}, tmp_path)
    assert refused == {case: False}


@requirement("S-CFG-04")
@pytest.mark.parametrize("key", sorted(WEAKENING))
@pytest.mark.parametrize("text", ['"false"', '"no"', "0", '""'])
def test_a_weakening_key_is_not_weakened_by_a_type_error(key: str, text: str, tmp_path: Path) -> None:
    """S-CFG-04: only a boolean false weakens: "false", 0 or "" in the file leaves the check on and warns."""
    path = tmp_path / "c.toml"
    path.write_text(f"{key} = {text}\n", encoding="utf-8")
    cfg = load_config(environ={}, config_file=path, state_dir=tmp_path)
    assert getattr(cfg, key) is True
    (warning,) = cfg.warnings
    assert warning.startswith(f"config {key}:") and warning.endswith("using True")


@requirement("S-CFG-03")
def test_unknown_keys_never_change_a_decision(tmp_path: Path) -> None:
    """S-CFG-03: a file full of unknown keys decides exactly like no file."""
    path = tmp_path / "c.toml"
    path.write_text("enforcement = false\nrequire = false\ngate = false\nfresh = false\n", encoding="utf-8")
    cfg = load_config(environ={}, config_file=path, state_dir=tmp_path)
    assert len(cfg.warnings) == 4
    assert _refused(cfg, {**FRESHNESS_CASES, **OTHER_CASES}, tmp_path) == _refused(
        _load(tmp_path), {**FRESHNESS_CASES, **OTHER_CASES}, tmp_path
    )
