"""Every benchmark script still starts: a layout change must not leave one importing a module that moved."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_bdd import given, scenario, then, when

from tests._requirements import REPO, requirement

SCRIPTS = sorted((REPO / "scripts").glob("bench*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_benchmark_script_imports_and_prints_its_usage(script: Path) -> None:
    """`--help` imports every module the script uses and exits 0 (bench_gate once broke silently)."""
    done = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert done.returncode == 0, done.stderr[-800:]
    assert "usage" in done.stdout.lower()


@pytest.fixture
def bench_run(tmp_path: Path) -> dict[str, object]:
    return {"tmp": tmp_path}


@given("the proxy benchmark without the FastMCP peer")
def _bench_given() -> None:
    """The peer needs its own venv (made on first use); two rounds of the rest prove the harness."""


@when("it runs two rounds")
def _bench_runs(bench_run: dict[str, object]) -> None:
    tmp = bench_run["tmp"]
    assert isinstance(tmp, Path)
    out = tmp / "bench.json"
    scratch = tmp / "tmpdir"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "bench_proxy.py"), "--n", "2", "--warmup", "1", "--no-fastmcp",
         "--json", str(out)],
        capture_output=True, text=True, timeout=600, cwd=REPO,
        env={**os.environ, "WINMCP_BENCH_CACHE": str(tmp), **_temp_env(scratch)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    bench_run["report"] = json.loads(out.read_text(encoding="utf-8"))


@then("every case has direct, gateway, gateway+reuse, sdk and relay rows with ratios to direct")
def _bench_rows(bench_run: dict[str, object]) -> None:
    report = bench_run["report"]
    assert isinstance(report, dict)
    summary = report["summary"]
    assert set(summary) == {"display", "snapshot_text", "snapshot_png", "large_tree", "click", "click_refused"}
    for case in ("display", "snapshot_text", "snapshot_png", "large_tree", "click"):
        assert {"direct", "gateway", "gateway+reuse", "sdk", "relay"} <= set(summary[case]), case
        row = summary[case]["gateway"]
        assert row["median_ms"] > 0 and row["p95_ms"] >= row["median_ms"] and row["ratio"] > 0
    assert summary["click"]["direct probe+click"]["ratio"] == 1.0
    assert len(report["samples"]["display|gateway"]) == 2


@then("the peak RSS of every started process is reported")
def _bench_rss(bench_run: dict[str, object]) -> None:
    report = bench_run["report"]
    assert isinstance(report, dict)
    if sys.platform.startswith("linux"):  # VmHWM is read from /proc
        commands = " ".join(report["rss_mb"])
        assert "gateway serve" in commands and "relay.py" in commands and "gateway.sim" in commands
        assert "sdk_proxy.py" in commands


def _temp_env(folder: Path) -> dict[str, str]:
    """Where `tempfile` in the child makes its folders (TMPDIR on POSIX, TEMP/TMP on Windows)."""
    return {"TMPDIR": str(folder), "TEMP": str(folder), "TMP": str(folder)}


@then("it leaves no scratch folder behind")
def _bench_clean(bench_run: dict[str, object]) -> None:
    """Run by the test suite on every CI, it once left a folder in the temp directory per run."""
    tmp = bench_run["tmp"]
    assert isinstance(tmp, Path)
    assert [p.name for p in (tmp / "tmpdir").iterdir() if p.name.startswith("bench-")] == []


@then("the CPU time per round of each proxy and of its upstream is reported")
def _bench_cpu(bench_run: dict[str, object]) -> None:
    report = bench_run["report"]
    assert isinstance(report, dict)
    if sys.platform.startswith("linux"):  # read from /proc
        cpu = report["cpu_ms_per_round"]
        assert {"direct-default", "gateway-default", "gateway-large", "sdk-default", "relay-default"} <= set(cpu)
        assert set(cpu["sdk-default"]) == {"proxy", "upstream"}
        assert "proxy" not in cpu["direct-default"] and cpu["direct-default"]["upstream"] > 0
        assert set(cpu["gateway-default"]) == {"proxy", "upstream"}
        assert cpu["gateway-default"]["proxy"] >= 0 and cpu["gateway-default"]["upstream"] > 0


@pytest.mark.e2e
@requirement("S-PERF-01")
@scenario("benchmarks.feature", "The proxy benchmark measures every target on every case, interleaved, and writes JSON")
def test_bench_proxy_measures_every_target_interleaved_and_reports_json() -> None:
    """S-PERF-01: the FastMCP peer is left out (it needs its own venv); the rest runs two rounds."""


@pytest.mark.e2e
@requirement("S-PERF-02")
def test_bench_gate_clicks_through_every_gateway_variant_without_a_refusal(tmp_path: Path) -> None:
    """S-PERF-02: the gate benchmark runs end to end and prints the decide budget line. It once stopped at its
    first gateway row: its quick clicks met the input rate limit, a refusal it exits on."""
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "bench_gate.py"), "--n", "12"],
        capture_output=True, text=True, timeout=600, cwd=REPO, env={**os.environ, **_temp_env(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, (done.stdout + done.stderr)[-1500:]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("bench-")] == []  # its scratch folders went
    assert "gateway, full probe" in done.stdout and "policy.decide on a typical Click" in done.stdout
    assert "received" not in done.stderr  # no rate-limit setting fell back to its default
