"""Binds features/mutation_testing.feature (S-ARCH-10, S-ARCH-11) to scripts/mutation.py's report."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_bdd import given, scenarios, then, when

from tests._requirements import REPO
from tests.test_mutation_script import M, results, sampled_results, unknown_equivalents

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


@given("40 mutants of which 10 were run for their own sake, 9 of them killed")
def _forty(run: dict[str, Any]) -> None:
    run["codes"], run["drawn"] = sampled_results()


@given("20 of the other 30 were drawn at random and run, 18 of them killed")
def _drawn(run: dict[str, Any]) -> None:
    assert sum(run["codes"][n] == 1 for n in run["drawn"]) == 18


@when("the mutation report is made with the sample")
def _estimate(run: dict[str, Any]) -> None:
    draw = M.Draw(seed=5, names=run["drawn"])
    M.record_first_results(draw, run["codes"])
    run["draw"] = draw
    run["estimate"] = M.estimate_from_sample(run["codes"], run["equivalent"], draw)
    run["text"] = M.format_estimate(run["estimate"], draw)


@then("the sample's kill rate is 90.0% with its 95% Wilson interval")
def _sample_rate(run: dict[str, Any]) -> None:
    assert "killed at their first run 18 = 90.0% (95% Wilson interval 69.9-97.2%)" in run["text"]


@then("the estimate for all of policy/ counts the 10 mutants without a result at the sample's rate")
def _whole(run: dict[str, Any]) -> None:
    assert run["estimate"].unsampled == 10
    assert (
        run["text"].splitlines()[-1]
        == "estimated kill rate of all of policy/: 85.9% / 90.0% / 92.5% (low / point / high)"
    )


@when("tests written since kill the two drawn survivors")
def _hunted(run: dict[str, Any]) -> None:
    run["codes"] = {**run["codes"], **{n: 1 for n in run["drawn"][18:]}}
    run["estimate"] = M.estimate_from_sample(run["codes"], run["equivalent"], run["draw"])


@then("the estimate still counts them as the survivors they were when drawn")
def _still_survivors(run: dict[str, Any]) -> None:
    assert run["estimate"].sampled.counts["killed"] == 18
    bounds = run["estimate"].bounds()
    assert bounds is not None and round(100 * bounds[1], 1) == 90.0


@then("a fresh draw measures again")
def _fresh_draw(run: dict[str, Any]) -> None:
    fresh = M.Draw(seed=6, names=run["drawn"])
    assert M.estimate_from_sample(run["codes"], run["equivalent"], fresh).sampled.counts["killed"] == 20
