"""scripts/live_probe.py against the simulator standing in for a real Windows-MCP (S-DOC-11)."""

from __future__ import annotations

import importlib.util
import json
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests._requirements import REPO, requirement

SCRIPT = REPO / "scripts" / "live_probe.py"
SIM = f"{shlex.quote(sys.executable)} -m gateway.sim"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("live_probe", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@requirement("S-DOC-11")
def test_probe_of_a_faithful_upstream_prints_the_snapshot_parse(capsys: pytest.CaptureFixture[str]) -> None:
    """S-DOC-11: against the faithful simulator: OK schema checks, the parsed Snapshot, exit 0."""
    rc = _script().main(["--upstream-cmd", f"{SIM} --scenario dual-negative", "--json"])
    found = json.loads(capsys.readouterr().out)
    assert rc == 0 and found["overall"] == "OK"
    assert [c["id"] for c in found["checks"]] == [
        "upstream",
        "schema.read_args",
        "schema.unknown_args",
        "schema.tools",
        "mapping",
    ]
    snap = found["snapshot"]
    assert len(snap["displays"]) == 2 and min(d["rect"][0] for d in snap["displays"]) < 0
    assert snap["focused"] is not None and snap["elements"] > 0 and snap["image_size"] is not None
    assert snap["parse_warnings"] == []


@requirement("S-DOC-11")
def test_probe_of_a_mutated_upstream_exits_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """S-DOC-11: a renamed argument makes the probe print SEVERE with the tool and field, and exit 1."""
    rc = _script().main(["--upstream-cmd", f"{SIM} --mutate-schema rename:Registry.path=key"])
    text = capsys.readouterr().out
    assert rc == 1
    assert "SEVERE" in text and "Registry.path" in text and "key (renamed?)" in text
    assert "snapshot (use_vision=true):" in text and "focused window:" in text


@requirement("S-DOC-11")
def test_probe_runs_as_a_user_would_run_it(tmp_path: Path) -> None:
    """S-DOC-11: `python scripts/live_probe.py --upstream-cmd …` runs from any directory."""
    proc = subprocess.run(  # noqa: S603 - our own script with our own interpreter
        [sys.executable, str(SCRIPT), "--upstream-cmd", SIM],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "display 0" in proc.stdout and "image pixel" in proc.stdout
    assert proc.stdout.rstrip().endswith("overall: OK (exit 0)")
