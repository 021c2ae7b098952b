"""Mutation testing of policy/ with mutmut 3 and the fast policy tests (issue 12).

    scripts/mutation                      run every mutant in scope, then print the report
    scripts/mutation run [GLOB ...]       run the mutants whose names match, e.g. "policy.decide.*"
    scripts/mutation report [GLOB ...]    print the counts of what has run so far (no tests run)
    scripts/mutation sample N [--seed S] [GLOB ...]   run N mutants drawn at random from those with no
                                          result yet, then estimate the kill rate of all of policy/
                                          (see Estimate: the newest draw is the sample, at its
                                          first results, each module's rate for its own mutants)
    scripts/mutation fresh GLOB ... [-- TEST ...]   run the matching survivors again, each in a fresh
                                          process (code that runs at import time; see run_fresh);
                                          a mutant that breaks an import is a kill
    scripts/mutation mutmut ARGS ...      any other mutmut command with this configuration,
                                          e.g. `scripts/mutation mutmut show policy.kill.x_check_kill__mutmut_3`

Environment: MUTATION_CHILDREN (default 1) is mutmut's --max-children; the machine is shared.

Without names, `run` tests only mutants that have no result yet (results are kept in ./mutants/ and
redone when a function's source changes); with names or globs, mutmut tests every match again. Do not
use `mutmut print-time-estimates` here: in 3.8.1 it drops the saved test-to-function map, after which
every mutant reads "no tests" until ./mutants/mutmut-stats.json is deleted.

mutmut copies policy/ (mutated) and gateway/ (unchanged: tests import it) into ./mutants/ with the
tests and the data they read (features/, spec/), runs the selected tests once to learn which test
reaches which function, then, for each mutant, only the tests that reach its function, fastest first,
stopping at the first failure. The configuration lives here, not in pyproject.toml, so the exclusion
below is one visible setting; mutmut is driven through its own command line with it installed.

The kill rate is killed / (mutants checked - mutants listed in scripts/mutation_equivalent.txt);
a timeout or a suspicious result is not counted as a kill. Each line of that file is
``<mutant name>  <reason>``: a mutant that cannot change behaviour, with why.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = REPO / "scripts" / "mutation_equivalent.txt"

# What mutmut mutates (globs on paths relative to the repository).
SCOPE = ["policy/*"]
# Nothing is left out: the PowerShell analyser's speed work of stop 24 changed `match.py`, not the
# analyser, so its ~2,800 lines of mutants are in scope again (a full run is hours; run it by module).
EXCLUDE: list[str] = []

# The fast policy tests. Deselected: the tests of policy/'s source text and namespace (in ./mutants/
# they see mutmut's trampolines, which import mutmut and add names) and the benchmarks, which start
# processes and time them. None of them can tell one mutant from another.
TESTS = [
    "tests/policy",
    "-m",
    "not e2e",
    "--deselect=tests/policy/test_purity.py::test_no_policy_module_imports_io_clock_env_or_the_shell",
    "--deselect=tests/policy/test_purity.py::test_all_lists_exactly_the_public_names",
    "--deselect=tests/policy/test_catalog_features.py::test_the_policy_core_is_pure_and_declares_its_public_surface",
    "-k",
    "not benchmark",
]

MUTMUT_CONFIG: dict[str, object] = {
    # gateway/ is copied unchanged so the tests that import it see the mutated policy/.
    "source_paths": ["policy", "gateway"],
    "only_mutate": SCOPE,
    "do_not_mutate": EXCLUDE,
    "also_copy": ["features", "spec"],
    # Hypothesis is imported before pytest starts (for the profile below), so pytest cannot rewrite its asserts.
    # tests/_mutation_plugin.py empties policy/'s lru_caches before each test: a cache warmed by the
    # unmutated code would otherwise answer for the mutant (a false survivor).
    "pytest_add_cli_args": [
        *("-p", "no:cacheprovider", "-p", "tests._mutation_plugin"),
        *("-W", "ignore::pytest.PytestAssertRewriteWarning"),
    ],
    "pytest_add_cli_args_test_selection": TESTS,
}

# Mutation runs do not need many examples per property, but they need the same ones every time
# (a kill must be reproducible) and no deadline (the trampolines slow every policy call). A test's own
# @settings(max_examples=N) still wins over the profile's default.
HYPOTHESIS_PROFILE = {"max_examples": 25, "deadline": None, "derandomize": True, "database": None}

# mutmut's exit codes (mutmut/stats.py status_by_exit_code), folded into the report's columns.
_STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 36: "timeout", None: "not checked"}
_STATUS.update({c: "timeout" for c in (-24, 24, 152, 255)})
COLUMNS = ("total", "killed", "survived", "timeout", "suspicious", "no tests", "not checked")


def status_of(exit_code: int | None) -> str:
    """The report column of one mutant's exit code (anything unknown is suspicious)."""
    return _STATUS.get(exit_code, "suspicious")


def module_of(mutant: str) -> str:
    """``policy.rules.args.x_f__mutmut_3`` → ``policy.rules.args`` (methods: ``xǁClassǁname``)."""
    parts = mutant.split(".")
    for i in range(len(parts) - 1, -1, -1):
        if parts[i].startswith(("x_", "xǁ")):
            return ".".join(parts[:i])
    return mutant.rsplit(".", 1)[0]


def parse_equivalents(text: str) -> dict[str, str]:
    """The equivalent-mutant list: ``name  reason`` per line; ``#`` starts a comment.

    Raises:
        ValueError: a line has no reason, or a name is listed twice.
    """
    out: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        name, _, reason = line.partition(" ")
        if not reason.strip():
            raise ValueError(f"line {number}: {name} has no reason")
        if name in out:
            raise ValueError(f"line {number}: {name} is listed twice")
        out[name] = reason.strip()
    return out


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    equivalent: int = 0

    def add(self, status: str, equivalent: bool) -> None:
        self.counts["total"] += 1
        self.counts[status] += 1
        if equivalent and status != "not checked":
            self.equivalent += 1

    @property
    def checked(self) -> int:
        return self.counts["total"] - self.counts["not checked"]

    @property
    def kill_rate(self) -> float | None:
        """killed / (checked - equivalent), or None when nothing has been checked."""
        denominator = self.checked - self.equivalent
        return self.counts["killed"] / denominator if denominator > 0 else None


@dataclass
class Report:
    by_module: dict[str, Tally]
    total: Tally
    survivors: list[tuple[str, str]]  # (name, status) not killed, checked, and not listed as equivalent
    stale: list[str]  # listed as equivalent but killed, or no such mutant


def summarise(exit_codes: Mapping[str, int | None], equivalents: Mapping[str, str]) -> Report:
    """Fold mutmut's results into per-module and total tallies and the survivors to look at.

    Args:
        exit_codes: mutant name → mutmut exit code (None: not run yet).
        equivalents: the equivalent-mutant list (name → reason).

    Returns:
        The report.
    """
    by_module: dict[str, Tally] = {}
    total = Tally()
    survivors: list[tuple[str, str]] = []
    stale = sorted(set(equivalents) - set(exit_codes))
    for name in sorted(exit_codes):
        status = status_of(exit_codes[name])
        equivalent = name in equivalents
        if equivalent and status == "killed":
            stale.append(name)
            equivalent = False
        by_module.setdefault(module_of(name), Tally()).add(status, equivalent)
        total.add(status, equivalent)
        if status not in ("killed", "not checked") and not equivalent:
            survivors.append((name, status))
    return Report(by_module=by_module, total=total, survivors=survivors, stale=sorted(stale))


def format_report(report: Report) -> str:
    """The report as text: one row per module, the total, then the survivors and stale entries."""

    def row(label: str, t: Tally) -> str:
        rate = "-" if t.kill_rate is None else f"{100 * t.kill_rate:.1f}%"
        cells = "".join(f"{t.counts[c]:>9}" for c in COLUMNS)
        return f"{label:<42}{cells}{t.equivalent:>7}{rate:>8}"

    width = max([42, *(len(m) + 2 for m in report.by_module)])
    head = f"{'module':<{width}}" + "".join(f"{c:>9}" for c in COLUMNS) + f"{'equiv':>7}{'kill':>8}"
    lines = [head]
    lines += [row(m.ljust(width), t) for m, t in sorted(report.by_module.items())]
    lines.append(row("TOTAL".ljust(width), report.total))
    lines.append("kill rate = killed / (checked - listed equivalent); timeouts and suspicious are not kills")
    lines.append(f"survivors not listed as equivalent: {len(report.survivors)}")
    lines += [f"  {status:<11} {name}" for name, status in report.survivors]
    if report.stale:
        lines.append(f"equivalent-list entries that are killed or not mutants (remove them): {len(report.stale)}")
        lines += [f"  {name}" for name in report.stale]
    return "\n".join(lines)


def read_exit_codes(mutants_dir: Path, globs: Iterable[str] = ()) -> dict[str, int | None]:
    """Every mutant's exit code from mutmut's ``*.py.meta`` files, optionally only those matching `globs`."""
    out: dict[str, int | None] = {}
    patterns = list(globs)
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        for name, code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].items():
            if not patterns or any(fnmatch.fnmatch(name, p) for p in patterns):
                out[name] = code
    return out


SAMPLES_FILE = REPO / "mutants" / "winmcp-samples.json"


@dataclass
class Draw:
    """One random draw: its seed, the names drawn, and each drawn mutant's first result.

    The first result is what the draw measured. Tests written afterwards to kill a drawn survivor
    make the sample unlike the mutants it stands for, so the estimate keeps using the first result;
    a fresh draw (new seed) measures again.
    """

    seed: int | None
    names: list[str]
    first: dict[str, int] = field(default_factory=dict)

    def outcome(self, name: str, now: int | None) -> int | None:
        """The result the estimate uses for a drawn mutant: its first one, else what it has now."""
        return self.first.get(name, now)


def load_draws(text: str) -> list[Draw]:
    """The draws recorded in the samples file, oldest first (stop 27's plain list of names is one draw)."""
    data = json.loads(text)
    if isinstance(data, list):
        return [Draw(seed=None, names=list(data))]
    return [Draw(seed=d.get("seed"), names=list(d["names"]), first=dict(d.get("first", {}))) for d in data["draws"]]


def dump_draws(draws: list[Draw]) -> str:
    return json.dumps({"draws": [vars(d) for d in draws]}, indent=1, sort_keys=True)


def record_first_results(draw: Draw, exit_codes: Mapping[str, int | None]) -> bool:
    """Keep the first result of every drawn mutant that has one now; whether anything new was kept."""
    new = {n: c for n in draw.names if n not in draw.first and (c := exit_codes.get(n)) is not None}
    draw.first.update(new)
    return bool(new)


def draw_sample(unchecked: Iterable[str], n: int, seed: int) -> list[str]:
    """`n` mutant names drawn uniformly without replacement from `unchecked` (sorted first, so a seed
    always draws the same names from the same set)."""
    import random

    pool = sorted(unchecked)
    return sorted(random.Random(seed).sample(pool, min(n, len(pool))))


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (sound near 1, where a kill rate lives)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * ((p * (1 - p) / trials + z * z / (4 * trials * trials)) ** 0.5) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


# A module whose sample has fewer checked mutants than this is pooled with the other small ones.
MIN_STRATUM = 10


@dataclass
class Stratum:
    """The mutants of one module (or of the pooled small modules): the sample drawn there, and how
    many there still have no result."""

    sampled: Tally = field(default_factory=Tally)
    unsampled: int = 0


@dataclass
class Estimate:
    """The kill rate of all of policy/ when part of it is only sampled.

    `exhaustive` counts the mutants run for their own sake (whole modules, survivors hunted, earlier
    draws); `sampled` the latest draw, at its first results; `strata` the same per module, with how
    many mutants of the module still have no result. Each module's sample rate stands for that
    module's mutants without a result (post-stratification): whole modules run after the draw leave
    the unsampled pool unevenly, and a pooled rate would then stand for the wrong modules. A survivor
    there counts as a real one (nobody has read it), so the estimate errs low.
    """

    exhaustive: Tally
    sampled: Tally
    strata: dict[str, Stratum]

    @property
    def unsampled(self) -> int:
        return sum(s.unsampled for s in self.strata.values())

    def grouped(self) -> list[Stratum]:
        """The strata the estimate uses: modules with a sample of at least MIN_STRATUM mutants alone,
        the others pooled (and, if the pool is still too small, pooled with everything)."""
        big = [s for s in self.strata.values() if _sample_size(s.sampled) >= MIN_STRATUM]
        small = [s for s in self.strata.values() if _sample_size(s.sampled) < MIN_STRATUM]
        if not small:
            return big
        pool = _pooled(small)
        if _sample_size(pool.sampled) >= MIN_STRATUM or not big:
            return [*big, pool]
        return [_pooled([*big, pool])]

    def bounds(self, z: float = 1.96) -> tuple[float, float, float] | None:
        """(low, point, high) of the kill rate of all of policy/, or None when nothing has a result.

        Unsampled kills are Σ U·p over the strata; their variance Σ U²·p̃(1-p̃)/n uses the
        Agresti-Coull p̃ = (k+2)/(n+4), so a stratum whose sample is all kills still carries doubt.
        """
        e, s = self.exhaustive, self.sampled
        denominator = (e.checked - e.equivalent) + (s.checked - s.equivalent) + self.unsampled
        if denominator <= 0:
            return None
        known = e.counts["killed"] + s.counts["killed"]
        point, variance = 0.0, 0.0
        for stratum in self.grouped():
            if not stratum.unsampled:
                continue
            n, k = _sample_size(stratum.sampled), stratum.sampled.counts["killed"]
            if n == 0:  # nothing sampled at all: anything is possible
                variance += (stratum.unsampled / 2) ** 2 / z**2
                point += stratum.unsampled / 2
                continue
            adjusted = (k + 2) / (n + 4)
            point += stratum.unsampled * k / n
            variance += stratum.unsampled**2 * adjusted * (1 - adjusted) / n
        half = z * variance**0.5

        def rate(kills: float) -> float:  # never fewer kills than known, never more than all unsampled
            return min(max(kills, known), known + self.unsampled) / denominator

        return (rate(known + point - half), rate(known + point), rate(known + point + half))


def _sample_size(t: Tally) -> int:
    return t.checked - t.equivalent


def _pooled(strata: list[Stratum]) -> Stratum:
    out = Stratum()
    for s in strata:
        out.sampled.counts.update(s.sampled.counts)
        out.sampled.equivalent += s.sampled.equivalent
        out.unsampled += s.unsampled
    return out


def estimate_from_sample(exit_codes: Mapping[str, int | None], equivalents: Mapping[str, str], draw: Draw) -> Estimate:
    """Split the results into the exhaustive part, the draw (at its first results) and what has no result."""
    drawn = set(draw.names)
    exhaustive, sample = Tally(), Tally()
    strata: dict[str, Stratum] = {}
    for name, now in exit_codes.items():
        stratum = strata.setdefault(module_of(name), Stratum())
        code = draw.outcome(name, now) if name in drawn else now
        status = status_of(code)
        equivalent = name in equivalents and status != "killed"
        if name in drawn:
            sample.add(status, equivalent)
            stratum.sampled.add(status, equivalent)
        elif status == "not checked":
            stratum.unsampled += 1
        else:
            exhaustive.add(status, equivalent)
    return Estimate(exhaustive=exhaustive, sampled=sample, strata=strata)


def format_estimate(estimate: Estimate, draw: Draw) -> str:
    s = estimate.sampled
    checked = _sample_size(s)
    bounds = estimate.bounds()
    if checked <= 0 or bounds is None:
        return "sample: nothing drawn has a result yet"
    low, high = wilson(s.counts["killed"], checked)
    groups = estimate.grouped()
    return "\n".join(
        [
            f"exhaustive (run for their own sake, earlier draws included): {estimate.exhaustive.checked} checked, "
            "kill rate "
            + ("-" if estimate.exhaustive.kill_rate is None else f"{100 * estimate.exhaustive.kill_rate:.1f}%"),
            f"sample (seed {draw.seed}): {s.counts['total']} drawn at random from the mutants with no result, "
            f"{checked} with one; killed at their first run {s.counts['killed']} = "
            f"{100 * s.counts['killed'] / checked:.1f}% "
            f"(95% Wilson interval {100 * low:.1f}-{100 * high:.1f}%); not checked {s.counts['not checked']}",
            f"still without a result: {estimate.unsampled}; each module's sample rate stands for its own "
            f"({len(groups)} strata, modules with fewer than {MIN_STRATUM} sampled pooled)",
            "estimated kill rate of all of policy/: "
            + " / ".join(f"{100 * b:.1f}%" for b in bounds)
            + " (low / point / high)",
        ]
    )


def run_sample(n: int, seed: int, globs: list[str]) -> int:
    """Draw `n` mutants with no result (matching `globs`, default all), run them, record the draw.

    The new draw becomes the sample; earlier draws count with the exhaustive part from now on.
    """
    codes = read_exit_codes(REPO / "mutants", globs)
    drawn = draw_sample((name for name, code in codes.items() if code is None), n, seed)
    if not drawn:
        print("every mutant in scope has a result: nothing to sample", file=sys.stderr)
        return 0
    draws = load_draws(SAMPLES_FILE.read_text(encoding="utf-8")) if SAMPLES_FILE.exists() else []
    draws.append(Draw(seed=seed, names=drawn))
    # Recorded before the run: an interrupted run still leaves its draw known (its unrun names stay unchecked).
    SAMPLES_FILE.write_text(dump_draws(draws), encoding="utf-8")
    print(f"sample: running {len(drawn)} mutants drawn with seed {seed}", file=sys.stderr)
    return _mutmut(["run", "--max-children", os.environ.get("MUTATION_CHILDREN", "1"), *drawn])


def _install_config() -> None:
    """Give mutmut this file's configuration and a Hypothesis profile for mutation runs."""
    from hypothesis import settings
    from mutmut import configuration

    settings.register_profile("mutation", **HYPOTHESIS_PROFILE)  # type: ignore[arg-type]
    settings.load_profile("mutation")

    def reader(key: str, default: object) -> object:
        return MUTMUT_CONFIG.get(key, default)

    configuration._config_reader = lambda: reader
    configuration.reset_config()
    _select_by_node_id()


def _select_by_node_id() -> None:
    """Make mutmut select tests by node id without putting node ids on pytest's command line.

    mutmut passes each test it wants as a command-line argument, and pytest splits an argument at
    ``::``; a parametrized id that holds a PowerShell ``[Type]::Method`` then names no test and the run
    stops with a usage error. Here the files go on the command line and a plugin keeps exactly the
    wanted items, in mutmut's order (fastest first).
    """
    from mutmut.mutation.trampoline import get_mutant_under_test
    from mutmut.runners import harness

    execute = harness.PytestRunner.execute_pytest

    def execute_pytest(self: harness.PytestRunner, params: list[str], **kwargs: object) -> int:
        wanted = [p for p in params if "::" in p and not p.startswith("-")]
        if not wanted:
            return guarded(self, params, **kwargs)
        order = {node: i for i, node in enumerate(dict.fromkeys(wanted))}
        files = list(dict.fromkeys(node.split("::", 1)[0] for node in order))
        rest = [p for p in params if p not in order]

        class KeepWanted:
            def pytest_collection_modifyitems(self, config: object, items: list[object]) -> None:
                keep = sorted((i for i in items if i.nodeid in order), key=lambda i: order[i.nodeid])  # type: ignore[attr-defined]
                dropped = [i for i in items if i.nodeid not in order]  # type: ignore[attr-defined]
                items[:] = keep
                if dropped:
                    config.hook.pytest_deselected(items=dropped)  # type: ignore[attr-defined]

        plugins = [*kwargs.pop("plugins", []), KeepWanted()]  # type: ignore[misc]
        return guarded(self, [*rest, *files], plugins=plugins, **kwargs)

    def guarded(self: harness.PytestRunner, params: list[str], **kwargs: object) -> int:
        # pytest's usage-error code 4 also means a conftest could not be imported. Under a mutant that
        # is a kill (the mutant breaks importing policy/, e.g. in a table built at import time);
        # mutmut would raise in its worker instead, and the worker would report the mutant as survived.
        try:
            return execute(self, params, **kwargs)
        except harness.BadTestExecutionCommandsException:
            if get_mutant_under_test() in ("", "stats", "fail", "list_all_tests", "mutant_generation"):
                raise
            return 1

    harness.PytestRunner.execute_pytest = execute_pytest  # type: ignore[method-assign]


def _mutmut(args: list[str]) -> int:
    _install_config()
    from mutmut.__main__ import cli

    try:
        cli.main(args=args, prog_name="mutmut", standalone_mode=False)
    except SystemExit as e:
        return int(e.code or 0)
    return 0


def fresh_exit_code(pytest_exit: int, output: str) -> int | None:
    """The result of one fresh run as mutmut records it (1 killed, 0 survived), or None: not tested.

    `run_fresh` first checks that the same tests pass with no mutant, so a failure to import here is
    the mutant's doing: it broke a module at import time (`frozenset(None)` in a table built when
    policy/ loads), which any use of policy/ would meet. That is a kill, whether pytest met it while
    collecting a test (exit 2) or while loading a conftest (exit 4). Every other exit of 2–5 is not a
    result.
    """
    if pytest_exit in (0, 1):
        return pytest_exit
    import_broke = (pytest_exit == 2 and re.search(r"\b\d+ errors? during collection", output)) or (
        pytest_exit == 4 and "ImportError while loading conftest" in output
    )
    return 1 if import_broke else None


def run_fresh(globs: list[str], tests: list[str] | None = None) -> int:
    """Run surviving mutants again, each in a fresh interpreter with the whole selected test set.

    mutmut forks its workers from a process that has already imported policy/, so a mutant in code
    that runs only at import time (a table built by a helper when the module loads) is never active
    in a mutmut worker and always "survives". Here each such survivor gets a new Python process with
    the mutant active from the first import; its result replaces mutmut's (1 killed, 0 survived).
    `tests` narrows the test set (pytest paths; default: the whole selection) to save time; a kill
    by fewer tests is still a kill, but a survivor there may be killed by the whole set.
    """
    import subprocess

    mutants = REPO / "mutants"
    names = [n for n, code in read_exit_codes(mutants, globs).items() if code == 0]
    selection = TESTS if not tests else [*tests, *TESTS[1:]]
    pytest_args = ["-x", "-q", *MUTMUT_CONFIG["pytest_add_cli_args"], *selection]  # type: ignore[misc]
    code_text = (
        "import sys, hypothesis, pytest\n"
        f"hypothesis.settings.register_profile('mutation', **{HYPOTHESIS_PROFILE!r})\n"
        "hypothesis.settings.load_profile('mutation')\n"
        f"sys.exit(pytest.main({pytest_args!r}))\n"
    )

    def run(mutant: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "MUTANT_UNDER_TEST": mutant}
        return subprocess.run(
            [sys.executable, "-c", code_text], cwd=mutants, env=env, capture_output=True, text=True, check=False
        )

    if names:
        # The same tests with no mutant active must pass, or no result below would mean anything
        # (and a collection error below could be the tests' own, not the mutant's).
        baseline = run("")
        if baseline.returncode != 0:
            print(
                f"error    the selected tests fail with no mutant (pytest exit {baseline.returncode}): nothing was run",
                file=sys.stderr,
            )
            return 1
    for name in names:
        done = run(name)
        code = fresh_exit_code(done.returncode, done.stdout + done.stderr)
        if code is None:
            # pytest's 2–5 (interrupted, internal error, usage error, no tests) for another reason than the
            # mutant breaking an import: the mutant was not tested; its result stays mutmut's (a usage error
            # once read as a kill for every mutant: stop 24).
            print(f"error    {name} (fresh process, pytest exit {done.returncode}: not tested)", file=sys.stderr)
            continue
        for meta in mutants.rglob("*.py.meta"):
            data = json.loads(meta.read_text(encoding="utf-8"))
            if name in data["exit_code_by_key"]:
                data["exit_code_by_key"][name] = code
                meta.write_text(json.dumps(data, indent=4), encoding="utf-8")
        print(f"{'killed' if code else 'survived':<9} {name} (fresh process, pytest exit {done.returncode})")
    return 0


def main(argv: list[str]) -> int:
    os.chdir(REPO)
    command, rest = (argv[0], argv[1:]) if argv else ("all", [])
    children = os.environ.get("MUTATION_CHILDREN", "1")
    if command in ("all", "run"):
        code = _mutmut(["run", "--max-children", children, *rest])
        if code:
            return code
    elif command == "mutmut":
        return _mutmut(rest)
    elif command == "sample":
        if not rest or not rest[0].isdigit():
            print(__doc__, file=sys.stderr)
            return 2
        seed = 1
        if "--seed" in rest:
            at = rest.index("--seed")
            seed = int(rest[at + 1])
            rest = rest[:at] + rest[at + 2 :]
        code = run_sample(int(rest[0]), seed, rest[1:])
        if code:
            return code
        rest = []
    elif command == "fresh":
        names, _, tests = " ".join(rest).partition(" -- ")
        run_fresh(names.split(), tests.split() or None)
    elif command != "report":
        print(__doc__, file=sys.stderr)
        return 2
    equivalents = parse_equivalents(EQUIVALENT_FILE.read_text(encoding="utf-8")) if EQUIVALENT_FILE.exists() else {}
    globs = [g for g in rest if not re.fullmatch(r"--?\w[\w-]*", g)] if command != "all" else []
    codes = read_exit_codes(REPO / "mutants", globs)
    print(format_report(summarise(codes, equivalents)))
    if SAMPLES_FILE.exists() and not globs:
        draws = load_draws(SAMPLES_FILE.read_text("utf-8"))
        if record_first_results(draws[-1], codes):
            SAMPLES_FILE.write_text(dump_draws(draws), encoding="utf-8")
        print(format_estimate(estimate_from_sample(codes, equivalents, draws[-1]), draws[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
