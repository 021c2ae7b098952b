"""Fixtures for the simulator tests (S-SIM-*)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def anyio_backend() -> str:
    """The anyio pytest plugin runs ``@pytest.mark.anyio`` tests on asyncio."""
    return "asyncio"


@pytest.fixture
def event_log(tmp_path: Path) -> Path:
    """A fresh event-log path for one simulator."""
    return tmp_path / "events.jsonl"


@pytest.fixture
def control_file(tmp_path: Path) -> Path:
    """A fresh control-file path for one simulator."""
    return tmp_path / "control.jsonl"
