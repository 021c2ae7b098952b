"""`winmcp-gateway doctor` in process, against the simulator as a real stdio upstream (S-DOC-01 … S-DOC-07).

The simulator serves upstream 0.8.8's tools/list verbatim, or mutated with
`--mutate-schema` (gateway/sim/schema.py): the doctor must tell each mutation apart.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

import gateway.config.load as config_module
from gateway.cli import main
from tests._requirements import requirement

SIM = f"{shlex.quote(sys.executable)} -m gateway.sim"


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config_module, "default_config_file", lambda: tmp_path / "absent.toml")


def doctor_json(capsys: pytest.CaptureFixture[str], tmp: Path, *args: str) -> tuple[int, dict[str, Any]]:
    rc = main(["doctor", *args, "--state-dir", str(tmp / "state"), "--json"])
    return rc, json.loads(capsys.readouterr().out)


def by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in report["checks"]}


@requirement("S-DOC-05", "S-DOC-01")
def test_the_faithful_simulator_has_no_severe_and_exits_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-DOC-05: against the faithful simulator nothing is SEVERE (or UNKNOWN): every check OK, exit 0."""
    rc, report = doctor_json(capsys, tmp_path, "--upstream", "sim")
    assert rc == 0 and report["exit_code"] == 0
    assert report["format"] == "winmcp-doctor/1" and report["overall"] == "OK"
    assert {c["id"]: c["verdict"] for c in report["checks"]} == dict.fromkeys(by_id(report), "OK")
    assert by_id(report)["upstream"]["data"]["tools"] == 21
    assert "scale 1.000000" in by_id(report)["mapping"]["summary"]


@requirement("S-DOC-02")
def test_a_renamed_powershell_command_is_severe_and_exits_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-DOC-02: PowerShell.command renamed upstream → SEVERE naming tool, field and dead rules; exit 1."""
    cmd = f"{SIM} --mutate-schema rename:PowerShell.command=cmd"
    rc = main(["doctor", "--upstream-cmd", cmd, "--state-dir", str(tmp_path / "state")])
    text = capsys.readouterr().out
    assert rc == 1
    severe = [line for line in text.splitlines() if line.lstrip().startswith("SEVERE")]
    assert severe and "schema.read_args" in severe[0]
    assert "PowerShell.command" in text and "went dead on PowerShell" in text and "recursive-delete" in text
    assert text.rstrip().splitlines()[-1].startswith("overall: SEVERE")


@requirement("S-DOC-02", "S-DOC-03", "S-DOC-04")
def test_each_mutation_is_reported_for_what_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-DOC-02, S-DOC-03, S-DOC-04: dropped argument SEVERE, extra gated argument and extra tool WARNING."""
    mutations = ["drop:Registry.mode", "add:App.extra", "add:Snapshot.extra", "add-tool:Teleport"]
    cmd = " ".join([SIM, *(f"--mutate-schema {m}" for m in mutations)])
    rc, report = doctor_json(capsys, tmp_path, "--upstream-cmd", cmd)
    checks = by_id(report)
    assert rc == 1 and report["overall"] == "SEVERE"
    assert [(f["verdict"], f["tool"], f["field"]) for f in checks["schema.read_args"]["findings"]] == [
        ("SEVERE", "Registry", "mode")
    ]
    assert "registry-delete-machine-hive" in checks["schema.read_args"]["findings"][0]["rules"]
    assert [(f["verdict"], f["tool"], f["field"]) for f in checks["schema.unknown_args"]["findings"]] == [
        ("WARNING", "App", "extra")
    ]
    assert [(f["verdict"], f["tool"]) for f in checks["schema.tools"]["findings"]] == [("WARNING", "Teleport")]
    assert checks["mapping"]["verdict"] == "OK" and checks["rules"]["verdict"] == "OK"


@requirement("S-DOC-04", "S-DOC-01")
def test_warnings_alone_exit_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-DOC-01: an extra tool is only a WARNING: overall WARNING, exit 0."""
    rc, report = doctor_json(capsys, tmp_path, "--upstream-cmd", f"{SIM} --mutate-schema add-tool:Teleport")
    assert (rc, report["overall"], report["counts"]["WARNING"]) == (0, "WARNING", 1)


@requirement("S-DOC-06")
def test_an_unreachable_upstream_is_severe_and_the_rest_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-DOC-06: upstream SEVERE; schema and mapping UNKNOWN (never OK); local checks still run; exit 1."""
    missing = str(tmp_path / "no-such-windows-mcp")
    rc, report = doctor_json(capsys, tmp_path, "--upstream-cmd", missing)
    verdicts = {c["id"]: c["verdict"] for c in report["checks"]}
    assert rc == 1 and verdicts["upstream"] == "SEVERE"
    assert [verdicts[c] for c in ("schema.read_args", "schema.unknown_args", "schema.tools", "mapping")] == [
        "UNKNOWN"
    ] * 4
    assert [verdicts[c] for c in ("rules", "config", "audit", "kill")] == ["OK"] * 4


@requirement("S-DOC-07")
def test_a_desktop_held_by_a_person_leaves_the_mapping_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-DOC-07: when the capture is refused (USER_CONTROL) the mapping is UNKNOWN and the doctor exits 1."""
    rc, report = doctor_json(capsys, tmp_path, "--upstream", "sim", "--scenario", "user-control")
    mapping = by_id(report)["mapping"]
    assert rc == 1 and mapping["verdict"] == "UNKNOWN" and "control" in mapping["summary"]
    assert by_id(report)["schema.read_args"]["verdict"] == "OK"


@requirement("S-DOC-07", "S-DOC-09")
def test_negative_origin_mapping_and_an_engaged_stop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-DOC-07, S-DOC-09: a negative-origin dual monitor maps OK; an engaged kill switch is a WARNING."""
    assert main(["kill", "engage", "--state-dir", str(tmp_path / "state"), "--reason", "lunch"]) == 0
    capsys.readouterr()
    rc, report = doctor_json(capsys, tmp_path, "--upstream", "sim", "--scenario", "dual-negative")
    checks = by_id(report)
    assert checks["mapping"]["verdict"] == "OK" and checks["mapping"]["data"]["origin"][0] < 0
    assert checks["kill"]["verdict"] == "WARNING" and "lunch" in checks["kill"]["summary"]
    assert rc == 0 and report["overall"] == "WARNING"
