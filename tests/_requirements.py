"""Traceability: tests claim the spec/SYS_SPEC.md requirement ids they prove.

Usage::

    @requirement("S-OBS-01")
    def test_cursor_position_is_parsed(): ...

Gherkin scenarios claim ids with tags (``@S-OBS-01``); conftest turns those tags into
the same ``requirement`` marker, so the coverage gate sees one kind of claim.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

REPO = Path(__file__).resolve().parent.parent
SPEC_FILE = REPO / "spec" / "SYS_SPEC.md"
FEATURES_DIR = REPO / "features"
TESTS_DIR = REPO / "tests"
# The upstream truth (a verbatim copy of shared/upstream/windows-mcp-0.8.8) the tests compare against.
UPSTREAM_DATA = TESTS_DIR / "upstream_data"
SAMPLES = UPSTREAM_DATA / "samples"

SPEC_ID = re.compile(r"\bS-[A-Z]+-\d{2,3}\b")

F = TypeVar("F", bound=Callable[..., Any])


def requirement(*ids: str) -> pytest.MarkDecorator:
    """Mark a test as proving the given requirement ids (each must exist in the spec)."""
    for rid in ids:
        if not SPEC_ID.fullmatch(rid):
            raise ValueError(f"not a requirement id: {rid!r} (expected S-AREA-NN)")
    return pytest.mark.requirement(*ids)
