"""scripts/mutation's report and its equivalent-mutant list (S-ARCH-10, S-ARCH-11), without running mutmut."""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests._requirements import REPO, requirement


def load_script() -> ModuleType:
    """scripts/mutation.py as a module (scripts/ is not a package; the script imports mutmut only when run)."""
    name = "_mutation_script"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / "mutation.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


M = load_script()


def results(module: str = "policy.kill") -> dict[str, int | None]:
    """8 killed (exit 1), 1 survived (0), 1 timeout (-24, SIGXCPU), 1 not checked (None)."""
    codes: dict[str, int | None] = {f"{module}.x_check_kill__mutmut_{i}": 1 for i in range(1, 9)}
    codes[f"{module}.x_check_kill__mutmut_9"] = 0
    codes[f"{module}.xǁToolSpecǁreads__mutmut_1"] = -24
    codes[f"{module}.x_can_release__mutmut_1"] = None
    return codes


@requirement("S-ARCH-10")
def test_the_report_counts_each_outcome_per_module_and_rates_kills_without_listed_equivalents() -> None:
    """S-ARCH-10: killed / (checked - equivalent); a timeout is not a kill, an unchecked mutant is not counted."""
    equivalent = {"policy.kill.x_check_kill__mutmut_9": "cannot change behaviour"}
    report = M.summarise({**results(), "policy.decide.x_decide__mutmut_1": 0}, equivalent)
    kill = report.by_module["policy.kill"]
    assert dict(kill.counts) == {"total": 11, "killed": 8, "survived": 1, "timeout": 1, "not checked": 1}
    assert (kill.checked, kill.equivalent, kill.kill_rate) == (10, 1, 8 / 9)
    assert report.total.kill_rate == 8 / 10
    assert report.survivors == [
        ("policy.decide.x_decide__mutmut_1", "survived"),
        ("policy.kill.xǁToolSpecǁreads__mutmut_1", "timeout"),
    ]
    text = M.format_report(report)
    assert "88.9%" in text and "80.0%" in text and "survivors not listed as equivalent: 2" in text


@requirement("S-ARCH-10")
def test_an_equivalent_entry_that_is_killed_or_no_mutant_is_reported_stale() -> None:
    """S-ARCH-10: a listed mutant a test now kills, or one that no longer exists, is named for removal."""
    equivalent = {"policy.kill.x_check_kill__mutmut_1": "r", "policy.kill.x_gone__mutmut_1": "r"}
    report = M.summarise(results(), equivalent)
    assert report.stale == ["policy.kill.x_check_kill__mutmut_1", "policy.kill.x_gone__mutmut_1"]
    assert report.by_module["policy.kill"].equivalent == 0
    assert "(remove them): 2" in M.format_report(report)


@requirement("S-ARCH-10")
@pytest.mark.parametrize(
    ("code", "status"),
    [(1, "killed"), (3, "killed"), (0, "survived"), (33, "no tests"), (5, "no tests"), (36, "timeout")]
    + [(-24, "timeout"), (24, "timeout"), (152, "timeout"), (255, "timeout"), (None, "not checked")]
    + [(35, "suspicious"), (-11, "suspicious"), (99, "suspicious")],
)
def test_mutmut_exit_codes_fold_into_the_reports_columns(code: int | None, status: str) -> None:
    """S-ARCH-10: exit codes map to killed, survived, no tests, timeout, not checked; the rest is suspicious."""
    assert M.status_of(code) == status


@requirement("S-ARCH-11")
@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("policy.kill.x_a__mutmut_1\n", "has no reason"),
        ("policy.kill.x_a__mutmut_1 r\npolicy.kill.x_a__mutmut_1 r", "twice"),
    ],
)
def test_an_equivalent_entry_without_a_reason_or_listed_twice_is_an_error(text: str, error: str) -> None:
    """S-ARCH-11: every entry says why the mutant cannot change behaviour, once."""
    with pytest.raises(ValueError, match=error):
        M.parse_equivalents(text)


def defined_functions(path: Path) -> set[str]:
    """mutmut's names for the functions of a module: ``x_name`` and ``xǁClassǁname``."""
    names: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(f"x_{node.name}")
        elif isinstance(node, ast.ClassDef):
            names.update(
                f"xǁ{node.name}ǁ{f.name}" for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            )
    return names


def unknown_equivalents(entries: dict[str, str], root: Path) -> list[str]:
    """Entries whose module is not a policy/ file in the mutation scope, or whose function it does not define."""
    bad: list[str] = []
    for name in entries:
        module = M.module_of(name)
        function = name[len(module) + 1 :].rsplit("__mutmut_", 1)[0]
        path = root / (module.replace(".", "/") + ".py")
        rel = path.relative_to(root).as_posix()
        in_scope = any(fnmatch.fnmatch(rel, p) for p in M.SCOPE) and not any(fnmatch.fnmatch(rel, p) for p in M.EXCLUDE)
        if not (path.is_file() and in_scope and function in defined_functions(path) and "__mutmut_" in name):
            bad.append(name)
    return bad


@requirement("S-ARCH-11")
def test_every_listed_equivalent_mutant_names_a_function_policy_still_has() -> None:
    """S-ARCH-11: the list parses, each entry has a reason, and names a function of a policy/ module in scope."""
    entries = M.parse_equivalents(M.EQUIVALENT_FILE.read_text(encoding="utf-8"))
    assert entries and all(reason for reason in entries.values())
    assert unknown_equivalents(entries, REPO) == []


@requirement("S-ARCH-11")
def test_the_list_check_catches_a_renamed_function_and_an_excluded_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-ARCH-11: the check can fail: a function that is gone, or a module outside the scope, is named."""
    monkeypatch.setattr(M, "EXCLUDE", ["policy/rules/shell/ps_*.py"])  # nothing is excluded today: exclude one
    (tmp_path / "policy" / "rules" / "shell").mkdir(parents=True)
    (tmp_path / "policy" / "kill.py").write_text("def check_kill():\n    pass\n", encoding="utf-8")
    (tmp_path / "policy" / "rules" / "shell" / "ps_walk.py").write_text("def walk():\n    pass\n", encoding="utf-8")
    entries = {
        "policy.kill.x_check_kill__mutmut_3": "r",
        "policy.kill.x_can_release__mutmut_1": "r",
        "policy.rules.shell.ps_walk.x_walk__mutmut_1": "r",
    }
    assert unknown_equivalents(entries, tmp_path) == [
        "policy.kill.x_can_release__mutmut_1",
        "policy.rules.shell.ps_walk.x_walk__mutmut_1",
    ]


def _fresh_rig(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, baseline: int, exit_and_output: tuple[int, str]
) -> Path:
    """A mutants/ dir with one survivor, and a fake pytest: `baseline` with no mutant, else `exit_and_output`."""
    import json
    import subprocess
    from types import SimpleNamespace

    meta = tmp_path / "mutants" / "policy" / "kill.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"exit_code_by_key": {"policy.kill.x_check_kill__mutmut_1": 0}}), encoding="utf-8")
    monkeypatch.setattr(M, "REPO", tmp_path)

    def fake_run(*args: object, env: dict[str, str], **kwargs: object) -> SimpleNamespace:
        if env["MUTANT_UNDER_TEST"] == "":
            return SimpleNamespace(returncode=baseline, stdout="", stderr="")
        code, output = exit_and_output
        return SimpleNamespace(returncode=code, stdout=output, stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    return meta


def _recorded(meta: Path) -> int:
    import json

    return int(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]["policy.kill.x_check_kill__mutmut_1"])


@requirement("S-ARCH-10")
@pytest.mark.parametrize(
    ("pytest_exit", "output", "recorded"),
    [
        (1, "1 failed", 1),
        (0, "3 passed", 0),
        (4, "ERROR: usage: pytest [options]", 0),
        (5, "no tests ran", 0),
        (2, "Interrupted: KeyboardInterrupt", 0),
        # The mutant broke an import (a table built at import time): every use of policy/ fails.
        (2, "Interrupted: 1 error during collection", 1),
        (2, "Interrupted: 3 errors during collection", 1),
        (4, "ImportError while loading conftest '/x/tests/conftest.py'.", 1),
    ],
)
def test_a_fresh_run_records_a_kill_only_for_failing_tests_or_a_broken_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pytest_exit: int, output: str, recorded: int
) -> None:
    """S-ARCH-10: pytest's usage error (4), no tests (5) or interruption (2) is no kill: the survivor stays
    one; a collection or conftest import error, with the tests passing without the mutant, is a kill."""
    meta = _fresh_rig(tmp_path, monkeypatch, 0, (pytest_exit, output))
    assert M.run_fresh(["policy.kill.*"]) == 0
    assert _recorded(meta) == recorded


@requirement("S-ARCH-10")
def test_a_fresh_run_records_nothing_when_the_tests_fail_without_a_mutant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-ARCH-10: with the tests failing on the unmutated code, no failure means the mutant was caught."""
    meta = _fresh_rig(tmp_path, monkeypatch, 1, (1, "1 failed"))
    assert M.run_fresh(["policy.kill.*"]) == 1
    assert _recorded(meta) == 0


@requirement("S-ARCH-10")
def test_a_mutation_run_starts_every_test_with_policys_caches_empty() -> None:
    """S-ARCH-10: a cache warmed by the unmutated code must not answer for a mutant: the plugin the
    mutation run loads clears every lru_cache of policy/ before each test."""
    from policy.rules.paths import candidate_paths
    from policy.rules.places import places_of
    from tests._mutation_plugin import clear_policy_caches

    candidate_paths("C:\\Windows\\System32\\x.dll")
    places_of("c:\\windows\\system32\\x.dll")
    import policy.rules.paths as paths
    import policy.rules.places as places

    assert paths._standard_candidates.cache_info().currsize > 0
    assert places._lookup.cache_info().currsize > 0
    assert clear_policy_caches() >= 2
    assert paths._standard_candidates.cache_info().currsize == 0
    assert places._lookup.cache_info().currsize == 0
    args = list(M.MUTMUT_CONFIG["pytest_add_cli_args"])  # type: ignore[call-overload]
    assert args[args.index("tests._mutation_plugin") - 1] == "-p"


def sampled_results() -> tuple[dict[str, int | None], list[str]]:
    """40 mutants: 10 run for their own sake (9 killed), 20 drawn at random (18 killed), 10 with no result."""
    codes: dict[str, int | None] = {f"policy.kill.x_a__mutmut_{i}": 1 if i < 9 else 0 for i in range(10)}
    drawn = [f"policy.rules.cmd.x_b__mutmut_{i}" for i in range(20)]
    codes.update({name: 1 if i < 18 else 0 for i, name in enumerate(drawn)})
    codes.update({f"policy.rules.cmd.x_c__mutmut_{i}": None for i in range(10)})
    return codes, drawn


@requirement("S-ARCH-12")
def test_a_draw_is_uniform_without_replacement_and_the_same_for_the_same_seed() -> None:
    """S-ARCH-12: the draw depends on the set and the seed only (not on the order names come in)."""
    pool = [f"m{i}" for i in range(100)]
    first = M.draw_sample(pool, 30, 7)
    assert first == M.draw_sample(reversed(pool), 30, 7)
    assert len(set(first)) == 30 and set(first) <= set(pool)
    assert first != M.draw_sample(pool, 30, 8)
    assert M.draw_sample(pool[:5], 30, 7) == pool[:5]  # never more than there are


@requirement("S-ARCH-12")
def test_every_name_has_the_same_chance_of_being_drawn() -> None:
    """S-ARCH-12: over many seeds, each of 10 names is drawn about as often (uniform, not the first ones)."""
    counts = dict.fromkeys(range(10), 0)
    for seed in range(2000):
        for name in M.draw_sample(range(10), 3, seed):
            counts[name] += 1
    assert all(500 < c < 700 for c in counts.values()), counts  # expected 600 each; 6 sd is about ±130


@requirement("S-ARCH-12")
@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [(18, 20, 0.699, 0.972), (100, 100, 0.963, 1.0), (0, 10, 0.0, 0.278), (0, 0, 0.0, 1.0)],
)
def test_the_wilson_interval_matches_its_formula(k: int, n: int, low: float, high: float) -> None:
    """S-ARCH-12: 95 % Wilson score intervals (values from the closed form, to 3 places)."""
    got = M.wilson(k, n)
    assert got == pytest.approx((low, high), abs=1e-3)


@requirement("S-ARCH-12")
def test_the_estimate_lets_the_samples_rate_stand_for_the_mutants_without_a_result() -> None:
    """S-ARCH-12: (9 + 18 + 0.9 x 10) / (10 + 20 + 10) = 0.9 at the point estimate; low and high bound it."""
    codes, drawn = sampled_results()
    estimate = M.estimate_from_sample(codes, {}, M.Draw(seed=5, names=drawn))
    assert (estimate.exhaustive.counts["killed"], estimate.sampled.counts["killed"], estimate.unsampled) == (9, 18, 10)
    bounds = estimate.bounds()
    assert bounds is not None
    low, point, high = bounds
    assert point == pytest.approx(0.9)
    # Agresti-Coull: p~ = 20/24, half-width 1.96 * 10 * sqrt(p~(1-p~)/20) = 1.63 kills of 40; the high end
    # stops at 37 of 40, every one of the 10 killed
    assert (low, high) == pytest.approx((0.9 - 1.634 / 40, 37 / 40), abs=1e-3)
    text = M.format_estimate(estimate, M.Draw(seed=5, names=drawn))
    assert "killed at their first run 18 = 90.0%" in text and "(95% Wilson interval 69.9-97.2%)" in text
    assert "seed 5" in text and "still without a result: 10" in text
    assert "85.9% / 90.0% / 92.5%" in text.splitlines()[-1]


@requirement("S-ARCH-12")
def test_an_unread_sampled_survivor_counts_against_the_estimate_and_a_listed_one_does_not() -> None:
    """S-ARCH-12: a sampled survivor listed as equivalent leaves the sample's denominator; unlisted it stays."""
    codes, drawn = sampled_results()
    draw = M.Draw(seed=5, names=drawn)
    listed = {drawn[19]: "cannot change behaviour"}
    assert M.estimate_from_sample(codes, {}, draw).sampled.kill_rate == 18 / 20
    assert M.estimate_from_sample(codes, listed, draw).sampled.kill_rate == 18 / 19


@requirement("S-ARCH-13")
def test_a_drawn_survivor_killed_later_still_counts_as_the_survivor_it_was_when_drawn() -> None:
    """S-ARCH-13: hunting the draw's survivors does not raise the estimate; the draw keeps first results."""
    codes, drawn = sampled_results()
    draw = M.Draw(seed=5, names=drawn)
    assert M.record_first_results(draw, codes) is True
    assert M.record_first_results(draw, codes) is False  # nothing new the second time
    hunted = {**codes, drawn[18]: 1, drawn[19]: 1}  # tests written since kill both survivors
    assert M.estimate_from_sample(hunted, {}, draw).sampled.counts["killed"] == 18
    assert M.estimate_from_sample(hunted, {}, M.Draw(seed=5, names=drawn)).sampled.counts["killed"] == 20
    again = M.load_draws(M.dump_draws([draw]))
    assert again == [draw]


@requirement("S-ARCH-13")
def test_only_the_latest_draw_is_the_sample_and_a_plain_list_of_names_is_one_earlier_draw() -> None:
    """S-ARCH-13: stop 27's file (a list of names) reads as one draw; earlier draws count as exhaustive."""
    codes, drawn = sampled_results()
    old = M.load_draws(json.dumps(drawn[:10]))
    assert old == [M.Draw(seed=None, names=drawn[:10])]
    estimate = M.estimate_from_sample(codes, {}, M.Draw(seed=9, names=drawn[10:]))
    assert estimate.sampled.counts["total"] == 10 and estimate.exhaustive.counts["total"] == 20


@requirement("S-ARCH-13")
def test_each_modules_sample_rate_stands_for_that_modules_mutants_without_a_result() -> None:
    """S-ARCH-13: post-stratified. Module a's sample is all kills, b's half: a module run whole after the
    draw leaves the unsampled pool with b's mutants only, and b's rate (not the pooled 75 %) stands for them."""
    draw_a = [f"policy.a.x_f__mutmut_{i}" for i in range(20)]
    draw_b = [f"policy.b.x_f__mutmut_{i}" for i in range(20)]
    codes: dict[str, int | None] = {n: 1 for n in draw_a}
    codes.update({n: 1 if i % 2 else 0 for i, n in enumerate(draw_b)})
    codes.update({f"policy.b.x_g__mutmut_{i}": None for i in range(60)})
    codes.update({f"policy.a.x_g__mutmut_{i}": 1 for i in range(60)})  # module a run whole since
    estimate = M.estimate_from_sample(codes, {}, M.Draw(seed=1, names=[*draw_a, *draw_b]))
    bounds = estimate.bounds()
    assert bounds is not None
    assert bounds[1] == pytest.approx((60 + 20 + 10 + 30) / 160)  # b's 60 at 50 %, not 75 %
    assert len(estimate.grouped()) == 2


@requirement("S-ARCH-13")
def test_modules_with_a_small_sample_are_pooled_before_their_rate_stands_for_anything() -> None:
    """S-ARCH-13: a module with 3 sampled mutants does not speak for its 100 unsampled ones alone."""
    codes: dict[str, int | None] = {f"policy.big.x_f__mutmut_{i}": 1 if i < 16 else 0 for i in range(20)}
    codes.update({f"policy.s{j}.x_f__mutmut_{i}": 1 for j in range(4) for i in range(3)})  # 4 x 3 sampled, all killed
    codes.update({f"policy.s0.x_g__mutmut_{i}": None for i in range(100)})
    drawn = [n for n, c in codes.items() if c is not None]
    estimate = M.estimate_from_sample(codes, {}, M.Draw(seed=1, names=drawn))
    groups = estimate.grouped()
    assert sorted(M._sample_size(g.sampled) for g in groups) == [12, 20]
    # the pool of the four small modules (12 of 12 killed) stands for s0's 100
    bounds = estimate.bounds()
    assert bounds is not None and bounds[1] == pytest.approx((16 + 12 + 100) / 132)
    # all small and together still under MIN_STRATUM: everything is one pool
    tiny = {"policy.t.x_f__mutmut_1": 1, "policy.u.x_f__mutmut_1": 0, "policy.u.x_f__mutmut_2": None}
    one = M.estimate_from_sample(tiny, {}, M.Draw(seed=1, names=["policy.t.x_f__mutmut_1", "policy.u.x_f__mutmut_1"]))
    assert len(one.grouped()) == 1 and one.bounds() is not None
