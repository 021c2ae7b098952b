"""A pytest plugin for mutation runs only (scripts/mutation.py passes it with `-p`): every test starts
with policy/'s caches empty.

mutmut forks each mutant's worker from a process that has already run tests, so an `lru_cache` in
policy/ (path readings, place lookups, PowerShell analyses) answers from results the unmutated code
computed, the mutant's code never runs, and the mutant "survives". The same warm caches hide which
tests reach a cached function while mutmut maps tests to functions. Clearing them before each test
makes every result the mutated code's own. Never loaded in normal test runs.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


def clear_policy_caches() -> int:
    """Clear every cache a policy/ module holds at module level; the number cleared."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "policy" or name.startswith("policy.")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()
                cleared += 1
    return cleared


@pytest.fixture(autouse=True)
def _cold_policy_caches() -> Iterator[None]:
    clear_policy_caches()
    yield
