"""Fixtures of the gateway tests."""

import pytest

from tests.e2e.harness import serve_simulators_in_process


@pytest.fixture(autouse=True)
def simulator_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulator the gateway under test starts runs in this process (see `serve_simulators_in_process`)."""
    serve_simulators_in_process(request, monkeypatch)
