"""Every benchmark script still starts: a layout change must not leave one importing a module that moved."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests._requirements import REPO

SCRIPTS = sorted((REPO / "scripts").glob("bench*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_benchmark_script_imports_and_prints_its_usage(script: Path) -> None:
    """`--help` imports every module the script uses and exits 0 (bench_gate once broke silently)."""
    done = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120, cwd=REPO
    )
    assert done.returncode == 0, done.stderr[-800:]
    assert "usage" in done.stdout.lower()
