"""The official MCP conformance suite, direct and through the gateway, both eras (S-PROTO-20).

`scripts/conformance.py` runs `@modelcontextprotocol/conformance` (`--suite all`) against two
upstreams, each served directly and through `winmcp-gateway serve --http … --no-auth`: the npm
everything server and `tests/e2e/conformance_upstream.py` (the suite's `test_*` tools, both eras).
This test requires that no check the direct server passes (or warns on) is worse through the
gateway, and that the Python upstream passes the 2026-07-28 input-required scenarios both ways. The
packages are pinned and installed by `scripts/test` into `.tools/conformance`; when they are
missing the test fails, never skips.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests._requirements import REPO, requirement

pytestmark = pytest.mark.e2e

SCRIPT = REPO / "scripts" / "conformance.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("conformance_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@requirement("S-PROTO-20")
def test_the_suite_passes_through_the_gateway_wherever_it_passes_directly(tmp_path: Path) -> None:
    report_file = tmp_path / "report.json"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--json", str(report_file)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    print(run.stdout, run.stderr)  # the P/T figures per era, in the test log
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(report_file.read_text(encoding="utf-8"))
    assert set(report["upstreams"]) == {"everything", "python"}
    for upstream, measured in report["upstreams"].items():
        assert set(measured["eras"]) == {"2025-11-25", "2026-07-28"}
        for era, figures in measured["eras"].items():
            assert figures["regressions"] == [], (upstream, era)
            # The run measured something on both sides (a suite that ran nothing proves nothing).
            assert figures["direct"]["total"] > 10 and figures["gateway"]["total"] > 10, (upstream, era, figures)
            assert figures["gateway"]["passed"] >= figures["direct"]["passed"], (upstream, era, figures)
    # The checks the gateway had to earn itself (issue 14): resumable streams in 2025-11-25.
    assert report["upstreams"]["everything"]["eras"]["2025-11-25"]["gateway"]["warnings"] == 0
    # The upstream's own input rounds (2026-07-28): every input-required scenario passes, directly and through.
    modern = report["upstreams"]["python"]["eras"]["2026-07-28"]
    for target in ("failing_directly", "failing_through_gateway"):
        assert [c for c in modern[target] if c.startswith("input-required-result")] == [], (target, modern[target])


@requirement("S-PROTO-20")
def test_a_missing_or_wrongly_pinned_suite_is_a_failure_not_a_skip(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--tools", str(tmp_path / "nothing")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2 and "is not installed" in run.stderr, run.stderr
    conformance = _script()
    fake = tmp_path / "tools" / "node_modules"
    for package in conformance.PINS:
        (fake / package).mkdir(parents=True)
        (fake / package / "package.json").write_text(json.dumps({"version": "0.0.1"}), encoding="utf-8")
    with pytest.raises(conformance.SetupError, match="pinned version"):
        conformance.installed(tmp_path / "tools")


@requirement("S-PROTO-20")
def test_a_check_is_a_regression_only_when_the_gateway_ranks_it_below_the_direct_server() -> None:
    conformance = _script()
    direct = {
        ("s", "passes", 1): "SUCCESS",
        ("s", "warns", 1): "WARNING",
        ("s", "fails", 1): "FAILURE",
        ("s", "gone", 1): "SUCCESS",
        ("s", "same", 1): "SUCCESS",
    }
    gateway = {
        ("s", "passes", 1): "WARNING",
        ("s", "warns", 1): "FAILURE",
        ("s", "fails", 1): "FAILURE",
        ("s", "same", 1): "SUCCESS",
    }
    worse = {(r["check"], r["gateway"]) for r in conformance.compare(direct, gateway)}
    assert worse == {("passes", "WARNING"), ("warns", "FAILURE"), ("gone", "MISSING")}
    assert conformance.tally(direct) == {"passed": 3, "total": 4, "warnings": 1}
