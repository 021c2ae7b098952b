"""Step definitions binding features/doctor.feature (S-DOC-02 … S-DOC-06).

The steps call the same public functions the unit tests call: the CLI's `main`
(`winmcp-gateway doctor --json`) against the simulator, and `compare_schema` over the
simulator's own served tool list (`gateway.sim.schema.served_tools`).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

import gateway.config as config_module
from gateway.cli import main
from gateway.doctor_schema import compare_schema
from gateway.sim.schema import served_tools

scenarios("doctor.feature")

SIM = f"{shlex.quote(sys.executable)} -m gateway.sim"


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config_module, "default_config_file", lambda: tmp_path / "absent.toml")


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    return {"tmp": tmp_path}


@given(parsers.parse('the simulator serves "{mutation}"'))
def _mutated(world: dict[str, Any], mutation: str) -> None:
    world["upstream"] = ["--upstream-cmd", f"{SIM} --mutate-schema {mutation}"]


@given("the simulator serves upstream's own tools")
def _faithful(world: dict[str, Any]) -> None:
    world["upstream"] = ["--upstream", "sim"]


@given("an upstream command that does not exist")
def _missing(world: dict[str, Any]) -> None:
    world["upstream"] = ["--upstream-cmd", str(world["tmp"] / "no-such-windows-mcp")]


@when("the doctor runs against it")
def _run(world: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    world["rc"] = main(["doctor", *world["upstream"], "--state-dir", str(world["tmp"] / "state"), "--json"])
    report = json.loads(capsys.readouterr().out)
    world["checks"] = {c["id"]: c for c in report["checks"]}


@given(parsers.parse('upstream\'s tools with "{mutation}"'))
def _tools(world: dict[str, Any], mutation: str) -> None:
    world["tools"] = served_tools([mutation]).tools


@when("the schema is compared")
def _compare(world: dict[str, Any]) -> None:
    world["checks"] = {c.id: c.as_json() for c in compare_schema(world["tools"], None)}


@then(parsers.parse("the doctor exits {rc:d}"))
def _exit(world: dict[str, Any], rc: int) -> None:
    assert world["rc"] == rc


@then(parsers.re(r'"(?P<cid>[\w.]+)" is (?P<verdict>OK|WARNING|UNKNOWN|SEVERE)$'))
def _verdict(world: dict[str, Any], cid: str, verdict: str) -> None:
    assert world["checks"][cid]["verdict"] == verdict


@then(
    parsers.re(
        r'"(?P<cid>[\w.]+)" is (?P<verdict>OK|WARNING|UNKNOWN|SEVERE) '
        r'naming "(?P<tool>\w+)" "(?P<field>[\w-]+)"'
    )
)
def _naming(world: dict[str, Any], cid: str, verdict: str, tool: str, field: str) -> None:
    check = world["checks"][cid]
    assert check["verdict"] == verdict
    (finding,) = check["findings"]
    assert finding["verdict"] == verdict and finding["tool"] == tool
    assert finding["field"] == (None if field == "-" else field)
    world["finding"] = finding


@then(parsers.parse('the finding names the rules "{rules}"'))
def _rules(world: dict[str, Any], rules: str) -> None:
    for rule in rules.split(", "):
        assert rule in world["finding"]["rules"] and rule in world["finding"]["message"]


@then("no check is SEVERE")
def _no_severe(world: dict[str, Any]) -> None:
    assert [c["id"] for c in world["checks"].values() if c["verdict"] == "SEVERE"] == []
