"""Binds features/coverage_gate.feature (S-GATE-01, S-GATE-02) to the gate's own functions.

The static steps call `spec_ids`, `unclaimed`, `unknown_claims`, `untagged_scenarios`,
`unbound_features` and `empty_features` from tests/test_coverage_gate.py on a small project
built in tmp_path. The runtime steps copy the real tests/conftest.py, tests/_requirements.py
and tests/test_coverage_gate.py into such a project and run pytest on it in a child process,
so the runtime half of the gate is seen to pass and to fail.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from tests._requirements import SPEC_ID, TESTS_DIR
from tests.test_coverage_gate import (
    empty_features,
    lacking_both,
    spec_ids,
    unbound_features,
    unclaimed,
    unknown_claims,
    untagged_scenarios,
)

scenarios("coverage_gate.feature")

CHILD_TIMEOUT_S = 120  # a child pytest on a handful of tests takes a few seconds
PYPROJECT = """\
[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-ra --strict-markers"
bdd_features_base_dir = "features/"
filterwarnings = ["error"]
markers = ["requirement(*ids): the requirement ids this test claims"]
"""
GATE_LINES = (
    "- **S-GATE-01** — every requirement is claimed.\n- **S-GATE-02** — every claim is proven.\n"
    "- **S-GATE-03** — every requirement has a scenario and a test.\n"
)
# Steps for the synthetic project's scenarios: one that passes, one that is skipped.
STEPS = """\
import pytest
from pytest_bdd import given


@given("nothing")
def nothing() -> None:
    pass


@given("a step that is skipped")
def skipped() -> None:
    pytest.skip("not yet")
"""


@dataclass
class Project:
    """The synthetic project and what the gate said about it."""

    root: Path
    report: dict[str, object] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)
    spec_error: str = ""
    run: subprocess.CompletedProcess[str] | None = None

    @property
    def spec(self) -> Path:
        return self.root / "spec" / "SYS_SPEC.md"

    @property
    def features(self) -> Path:
        return self.root / "features"

    @property
    def tests(self) -> Path:
        return self.root / "tests"


def _spec_text(ids: list[str]) -> str:
    return "# spec\n\n## XYZ\n" + "".join(f"- **{i}** — requirement {i}.\n" for i in ids)


def _claiming_module(ids: list[str], body: str = "pass") -> str:
    args = ", ".join(repr(i) for i in ids)
    return (
        "from tests._requirements import requirement\n\n\n"
        f"@requirement({args})\ndef test_claims() -> None:\n    {body}\n"
    )


@given(parsers.re(r"a project whose spec defines (?P<ids>.+)"), target_fixture="project")
def _project(tmp_path: Path, ids: str) -> Project:
    p = Project(root=tmp_path / "project")
    for d in (p.spec.parent, p.features, p.tests):
        d.mkdir(parents=True)
    p.spec.write_text(_spec_text(SPEC_ID.findall(ids)), encoding="utf-8")
    return p


@given(parsers.re(r'a test module "(?P<name>[^"]+)" claiming (?P<ids>.+)'))
def _test_module(project: Project, name: str, ids: str) -> None:
    (project.tests / name).write_text(_claiming_module(SPEC_ID.findall(ids)), encoding="utf-8")


def _feature(project: Project, name: str, body: str, module: str | None) -> None:
    (project.features / name).write_text(f"Feature: Two\n{body}", encoding="utf-8")
    if module is not None:
        (project.tests / module).write_text(
            f'from pytest_bdd import scenarios\n\nscenarios("{name}")\n', encoding="utf-8"
        )


@given(parsers.re(r'a feature "(?P<name>[^"]+)" with a scenario tagged (?P<tags>.+), bound by "(?P<module>[^"]+)"'))
def _bound_feature(project: Project, name: str, tags: str, module: str) -> None:
    _feature(project, name, f"\n  {tags}\n  Scenario: Something happens\n    Given nothing\n", module)


@given(parsers.re(r'a feature "(?P<name>[^"]+)" with a scenario tagged (?P<tags>.+), bound by no module'))
def _unbound_feature(project: Project, name: str, tags: str) -> None:
    _feature(project, name, f"\n  {tags}\n  Scenario: Something happens\n    Given nothing\n", None)


@given(parsers.re(r'a feature "(?P<name>[^"]+)" without scenarios, bound by "(?P<module>[^"]+)"'))
def _empty_feature(project: Project, name: str, module: str) -> None:
    _feature(project, name, "  A feature that only talks.\n", module)


@when("the static gate checks the project")
def _check(project: Project) -> None:
    args = (project.spec, project.features, project.tests)
    project.report = {
        "unclaimed": unclaimed(*args),
        "unknown": unknown_claims(*args),
        "untagged": untagged_scenarios(project.features),
        "unbound": unbound_features(project.features, project.tests),
        "empty": empty_features(project.features),
    }


@when("the static gate reads the spec")
def _read_spec(project: Project) -> None:
    with pytest.raises(AssertionError) as info:
        spec_ids(project.spec)
    project.spec_error = str(info.value)


@then(parsers.re(r"the gate reports (?P<rid>S-[A-Z]+-\d+) as claimed by no test or scenario"))
def _reports_unclaimed(project: Project, rid: str) -> None:
    assert project.report["unclaimed"] == [rid]
    project.checked.add("unclaimed")


@then(parsers.re(r'the gate reports (?P<rid>S-[A-Z]+-\d+) as an unknown id claimed in "(?P<where>[^"]+)"'))
def _reports_unknown(project: Project, rid: str, where: str) -> None:
    unknown = project.report["unknown"]
    assert isinstance(unknown, dict) and unknown.get(rid) == {where}, unknown
    project.checked.add("unknown")


@then(parsers.parse('the gate reports "{name}" as a scenario without a requirement tag'))
def _reports_untagged(project: Project, name: str) -> None:
    assert project.report["untagged"] == [name]
    project.checked.add("untagged")


@then(parsers.parse('the gate reports "{name}" as a feature no test module binds'))
def _reports_unbound(project: Project, name: str) -> None:
    assert project.report["unbound"] == [name]
    project.checked.add("unbound")


@then(parsers.parse('the gate reports "{name}" as a feature without scenarios'))
def _reports_empty(project: Project, name: str) -> None:
    assert project.report["empty"] == [name]
    project.checked.add("empty")


@then("the gate reports no other problem")
def _no_other(project: Project) -> None:
    assert project.checked, "a scenario must first say which problem it expects"
    others = {k: v for k, v in project.report.items() if k not in project.checked and v}
    assert not others, others


@then("the gate reports no problem")
def _no_problem(project: Project) -> None:
    assert not any(project.report.values()), project.report


@then(parsers.re(r"the gate refuses the spec naming (?P<rid>S-[A-Z]+-\d+) as defined twice"))
def _defined_twice(project: Project, rid: str) -> None:
    assert "defined twice" in project.spec_error and repr(rid) in project.spec_error


# --- the runtime half (tests/conftest.py), in a child pytest --------------------------------


@given(parsers.re(r"a runnable project whose spec defines (?P<ids>.+)"), target_fixture="project")
def _runnable(tmp_path: Path, ids: str) -> Project:
    p = _project(tmp_path, ids)
    p.spec.write_text(p.spec.read_text(encoding="utf-8") + GATE_LINES, encoding="utf-8")
    (p.root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (p.tests / "__init__.py").write_text("", encoding="utf-8")
    for name in ("_requirements.py", "conftest.py", "test_coverage_gate.py"):
        shutil.copyfile(TESTS_DIR / name, p.tests / name)
    _scenario_claiming(p, "gate", "@S-GATE-01 @S-GATE-02 @S-GATE-03", "nothing")
    return p


def _scenario_claiming(project: Project, stem: str, tags: str, step: str) -> None:
    """A feature with one scenario tagged `tags` whose only step is `step`, bound by its own module."""
    (project.features / f"{stem}.feature").write_text(
        f"Feature: {stem}\n\n  {tags}\n  Scenario: {stem} happens\n    Given {step}\n", encoding="utf-8"
    )
    (project.tests / f"test_{stem}_bdd.py").write_text(
        f'{STEPS}\n\nfrom pytest_bdd import scenarios  # noqa: E402\n\nscenarios("{stem}.feature")\n',
        encoding="utf-8",
    )


@given(parsers.re(r"a test claiming (?P<rid>S-[A-Z]+-\d+) that (?P<outcome>passes|is skipped)"))
def _claiming_test(project: Project, rid: str, outcome: str) -> None:
    body = "assert True" if outcome == "passes" else 'import pytest; pytest.skip("not yet")'
    stem = rid.lower().replace("s-", "").replace("-", "_")
    (project.tests / f"test_{stem}.py").write_text(_claiming_module([rid], body), encoding="utf-8")
    # The both-ways gate (S-GATE-03) wants a scenario too; it shares the test's outcome.
    _scenario_claiming(project, stem, f"@{rid}", "nothing" if outcome == "passes" else "a step that is skipped")


def _pytest(project: Project, *extra: str) -> None:
    project.run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S,
        check=False,
        stdin=subprocess.DEVNULL,
    )


@when("the project's whole test suite runs")
def _full_run(project: Project) -> None:
    _pytest(project)


@when(parsers.parse('the project\'s tests run narrowed with -k "{expression}"'))
def _narrowed_run(project: Project, expression: str) -> None:
    _pytest(project, "-k", expression)


def _output(project: Project) -> str:
    assert project.run is not None
    return project.run.stdout + project.run.stderr


@then(parsers.parse('the run fails saying "{message}"'))
def _run_fails(project: Project, message: str) -> None:
    assert project.run is not None and project.run.returncode == 1, _output(project)
    assert message in _output(project)
    # Every test itself passed or was skipped: only the gate failed the run.
    assert " failed" not in project.run.stdout.splitlines()[-1], _output(project)


@then("the run succeeds without a coverage gate message")
def _run_succeeds(project: Project) -> None:
    assert project.run is not None and project.run.returncode == 0, _output(project)
    assert "coverage gate" not in _output(project)
    assert " passed" in project.run.stdout.splitlines()[-1], _output(project)


@when("the both-ways gate checks the project")
def _check_both(project: Project) -> None:
    project.report = lacking_both(project.spec, project.features, project.tests)


@then(parsers.re(r"it reports (?P<rid>S-[A-Z]+-\d+) as having no scenario and nothing as having no test"))
def _reports_no_scenario(project: Project, rid: str) -> None:
    assert project.report == {"no scenario": [rid], "no test": []}
