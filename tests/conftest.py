"""Shared test fixtures and the runtime half of the spec coverage gate."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gateway.config.keys import ENV_HOME
from tests._requirements import SPEC_ID

# Environment variables a test must never inherit from the developer's shell.
_OWN_ENV_PREFIXES = ("WINMCP_", "WINDOWS_MCP_")

_PROVEN: set[str] = set()
_CLAIMED_RUN: set[str] = set()


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """The gateway runs on asyncio only. anyio's plugin would also run every async test on trio
    once trio is installed (selenium, a test dependency, pulls it in)."""
    return "asyncio"


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test starts without WINMCP_*/WINDOWS_MCP_* variables and without the developer's
    per-user config or state: the gateway's dirs and the platform dirs point into an empty
    temporary home.

    `WINMCP_GATEWAY_HOME` is what isolates the gateway on Windows too, where platformdirs asks the
    OS for the known folders and ignores APPDATA/LOCALAPPDATA (S-CFG-20; why a variable and not an
    in-process hook: gateway/config/load.py). Children inherit it; a child started through the
    SDK's stdio client gets only the variables its test passes (tests/e2e/harness.py passes it).
    """
    for key in list(os.environ):
        if key.startswith(_OWN_ENV_PREFIXES):
            monkeypatch.delenv(key, raising=False)
    home = tmp_path_factory.mktemp("home")
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "APPDATA", "LOCALAPPDATA"):
        monkeypatch.setenv(var, str(home / var.lower()))
    monkeypatch.setenv(ENV_HOME, str(home / "winmcp-gateway"))
    yield


def pytest_bdd_apply_tag(tag: str, function: Callable[..., Any]) -> bool | None:
    """Scenario tags that are requirement ids become ``requirement`` markers."""
    if SPEC_ID.fullmatch(tag):
        pytest.mark.requirement(tag)(function)
        return True
    return None


def _ids_of(item: pytest.Item) -> set[str]:
    ids: set[str] = set()
    for mark in item.iter_markers("requirement"):
        ids.update(str(a) for a in mark.args)
    return ids


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    ids = _ids_of(item)
    if report.when == "call":
        _CLAIMED_RUN.update(ids)
        if report.passed:
            _PROVEN.update(ids)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Runtime gate: on a full run, every requirement must be proven by a test that passed.

    The static gate (tests/test_coverage_gate.py) checks the claims exist; this half checks
    they actually ran and passed — a claim on a skipped or deleted test does not count.
    """
    if not getattr(session.config, "_winmcp_full_run", False) or exitstatus != 0:
        return
    from tests.test_coverage_gate import spec_ids

    missing = sorted(spec_ids() - _PROVEN)
    if missing:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        msg = f"coverage gate: {len(missing)} requirement(s) not proven by a passing test: {missing}"
        if reporter is not None:
            reporter.write_line(msg, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    # A "full run" is one that collected the gate itself and was not narrowed by -k/-m.
    narrowed = bool(config.getoption("keyword")) or bool(config.getoption("markexpr"))
    has_gate = any(i.nodeid.startswith("tests/test_coverage_gate.py") for i in items)
    config._winmcp_full_run = has_gate and not narrowed  # type: ignore[attr-defined]
    # The fast tier: everything under tests/e2e starts real processes; `pytest -m "not e2e"` leaves it out.
    for item in items:
        if item.nodeid.startswith("tests/e2e/"):
            item.add_marker(pytest.mark.e2e)
