"""Binds features/mutation_testing.feature (S-ARCH-10, S-ARCH-11) to scripts/mutation.py's report."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_bdd import given, scenarios, then, when

from tests._requirements import REPO
from tests.test_mutation_script import M, results, unknown_equivalents

scenarios("mutation_testing.feature")


@pytest.fixture
def run() -> dict[str, Any]:
    return {"equivalent": {}}


@given("mutmut results with 8 killed, 1 survived, 1 timeout and 1 not checked mutants in policy.kill")
def _results(run: dict[str, Any]) -> None:
    run["codes"] = results()


@given("the survivor is listed as equivalent")
def _survivor_equivalent(run: dict[str, Any]) -> None:
    run["equivalent"]["policy.kill.x_check_kill__mutmut_9"] = "cannot change behaviour"


@given("a killed mutant is listed as equivalent")
def _killed_equivalent(run: dict[str, Any]) -> None:
    run["equivalent"]["policy.kill.x_check_kill__mutmut_2"] = "thought equivalent"


@when("the mutation report is made")
def _report(run: dict[str, Any]) -> None:
    run["report"] = M.summarise(run["codes"], run["equivalent"])
    run["text"] = M.format_report(run["report"])


@then("policy.kill shows 11 total, 8 killed, 1 survived, 1 timeout and 1 not checked")
def _counts(run: dict[str, Any]) -> None:
    counts = run["report"].by_module["policy.kill"].counts
    assert (counts["total"], counts["killed"], counts["survived"], counts["timeout"], counts["not checked"]) == (
        11,
        8,
        1,
        1,
        1,
    )


@then("the kill rate is 8 of 9, with only the timeout left to look at")
def _rate(run: dict[str, Any]) -> None:
    assert run["report"].total.kill_rate == 8 / 9
    assert [name for name, _ in run["report"].survivors] == ["policy.kill.xǁToolSpecǁreads__mutmut_1"]


@then("the report names that entry to be removed")
def _stale(run: dict[str, Any]) -> None:
    assert run["report"].stale == ["policy.kill.x_check_kill__mutmut_2"]
    assert "policy.kill.x_check_kill__mutmut_2" in run["text"].split("(remove them)")[1]


@given("the equivalent-mutant list in scripts/", target_fixture="entries")
def _entries() -> dict[str, str]:
    return M.parse_equivalents(M.EQUIVALENT_FILE.read_text(encoding="utf-8"))


@then("each entry has a reason and names a function of a policy/ module in the mutation scope")
def _entries_ok(entries: dict[str, str]) -> None:
    assert entries and all(entries.values())
    assert unknown_equivalents(entries, REPO) == []
