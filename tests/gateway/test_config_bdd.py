"""Step definitions binding features/config.feature (S-CFG-01 … S-CFG-05).

The steps call the same public functions the unit tests call: `load_config`,
`policy.decide` (through `PolicyConfig.from_attrs`) and `gateway.config_docs.check_docs`.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

import gateway.config as config_module
from gateway.config import KEYS, GatewayConfig, load_config
from gateway.config_docs import EXAMPLE, README, check_docs
from policy import PolicyConfig, decide
from tests.policy._world import T0, click, context, view

scenarios("config.feature")


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config_module, "default_config_file", lambda: tmp_path / "absent.toml")


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    return {"tmp": tmp_path, "env": {}, "file": None}


@given(parsers.re(r'a config file saying "(?P<line>.*)"$'))
def _file(world: dict[str, Any], line: str) -> None:
    path = world["tmp"] / "config.toml"
    path.write_text(line.replace('\\"', '"') + "\n", encoding="utf-8")
    world["file"] = path


@given(parsers.parse('the environment variable "{name}" is "{value}"'))
def _env(world: dict[str, Any], name: str, value: str) -> None:
    world["env"][name] = value


def _load(world: dict[str, Any], overrides: dict[str, Any] | None = None) -> None:
    world["config"] = load_config(
        environ=world["env"], config_file=world["file"], state_dir=world["tmp"], overrides=overrides
    )


@when("the gateway loads its config")
def _loads(world: dict[str, Any]) -> None:
    _load(world)


@when(parsers.parse("the gateway loads its config with the flag {name} = {value:d}"))
def _loads_flag(world: dict[str, Any], name: str, value: int) -> None:
    _load(world, {name: value})


@then(parsers.re(r'"(?P<name>\w+)" is (?P<value>true|false|\d+)$'))
def _value(world: dict[str, Any], name: str, value: str) -> None:
    expected: object = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    assert getattr(world["config"], name) == expected


@then("there is no config warning")
def _no_warning(world: dict[str, Any]) -> None:
    assert world["config"].warnings == ()


@then(parsers.re(r"the only config warning contains (?P<parts>.+)$"))
def _warning(world: dict[str, Any], parts: str) -> None:
    (warning,) = world["config"].warnings
    for part in re.findall(r'"([^"]*)"', parts):
        assert part in warning, (part, warning)


def _click_blocked(config: GatewayConfig) -> bool:
    return decide(click(), context(view(), config=PolicyConfig.from_attrs(config)), T0).blocks


@then("a click without an observation is still refused")
def _refused(world: dict[str, Any]) -> None:
    assert _click_blocked(world["config"])


@then("a click without an observation is let through")
def _let_through(world: dict[str, Any]) -> None:
    assert not _click_blocked(world["config"])


@given(parsers.parse('the model with the default of "{name}" changed to {value:d}'))
def _redefault(world: dict[str, Any], name: str, value: int) -> None:
    world["keys"] = tuple(dataclasses.replace(k, default=value) if k.name == name else k for k in KEYS)


@when("the README and config.example.toml are checked against it")
def _check(world: dict[str, Any]) -> None:
    world["problems"] = check_docs(
        world["keys"], README.read_text(encoding="utf-8"), EXAMPLE.read_text(encoding="utf-8")
    )


@then(parsers.parse('both documents are reported for "{name}"'))
def _reported(world: dict[str, Any], name: str) -> None:
    for doc in ("README:", "config.example.toml:"):
        assert any(p.startswith(doc) and repr(name) in p for p in world["problems"]), world["problems"]
