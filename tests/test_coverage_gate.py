"""Static half of the spec coverage gate: spec ⇄ scenarios ⇄ tests, both ways.

Every function takes the directories it reads as parameters, defaulting to this repository's,
so features/coverage_gate.feature can run the very same checks on a small synthetic tree
(S-GATE-01, S-GATE-02).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests._requirements import FEATURES_DIR, SPEC_FILE, SPEC_ID, TESTS_DIR, requirement

_SPEC_LINE = re.compile(r"^\s*[-*]\s+\*\*(S-[A-Z]+-\d{2,3})\*\*")


def spec_ids(spec_file: Path = SPEC_FILE) -> set[str]:
    """Requirement ids defined in the spec (lines ``- **S-AREA-NN** …``).

    Args:
        spec_file: the spec to read (default spec/SYS_SPEC.md).

    Returns:
        The ids.

    Raises:
        AssertionError: an id is defined twice.
    """
    ids: list[str] = []
    for line in spec_file.read_text(encoding="utf-8").splitlines():
        m = _SPEC_LINE.match(line)
        if m:
            ids.append(m.group(1))
    dupes = {i for i in ids if ids.count(i) > 1}
    assert not dupes, f"requirement ids defined twice in the spec: {sorted(dupes)}"
    return set(ids)


def _test_files(tests_dir: Path = TESTS_DIR) -> list[Path]:
    return sorted(p for p in tests_dir.rglob("*.py") if p.name != "_requirements.py")


def claims_in_tests(tests_dir: Path = TESTS_DIR) -> dict[str, set[str]]:
    """Requirement ids claimed via ``requirement("…")`` calls, by file.

    Args:
        tests_dir: the test tree to read (default tests/).

    Returns:
        id → the files (relative to `tests_dir`) that claim it.
    """
    out: dict[str, set[str]] = {}
    for path in _test_files(tests_dir):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "requirement":
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        out.setdefault(arg.value, set()).add(str(path.relative_to(tests_dir)))
    return out


def scenarios_by_feature(features_dir: Path = FEATURES_DIR) -> dict[Path, list[tuple[str, list[str]]]]:
    """Each feature file's scenarios with the requirement tags on them.

    Args:
        features_dir: the directory of ``*.feature`` files (default features/).

    Returns:
        feature path → [(scenario name, requirement-id tags)].
    """
    out: dict[Path, list[tuple[str, list[str]]]] = {}
    for feature in sorted(features_dir.glob("*.feature")):
        tags: list[str] = []
        found: list[tuple[str, list[str]]] = []
        for raw in feature.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if line.startswith("@"):
                tags.extend(t.lstrip("@") for t in line.split())
            elif line.startswith(("Scenario:", "Scenario Outline:")):
                found.append((line.split(":", 1)[1].strip(), [t for t in tags if SPEC_ID.fullmatch(t)]))
                tags = []
            elif line.startswith("Feature:"):
                tags = []
        out[feature] = found
    return out


def unclaimed(spec_file: Path = SPEC_FILE, features_dir: Path = FEATURES_DIR, tests_dir: Path = TESTS_DIR) -> list[str]:
    """Spec ids no test and no scenario claims (S-GATE-01).

    Args:
        spec_file: the spec.
        features_dir: the feature files.
        tests_dir: the test tree.

    Returns:
        The ids, sorted.
    """
    claimed = set(claims_in_tests(tests_dir))
    for scenarios in scenarios_by_feature(features_dir).values():
        for _, tags in scenarios:
            claimed.update(tags)
    return sorted(spec_ids(spec_file) - claimed)


def unknown_claims(
    spec_file: Path = SPEC_FILE, features_dir: Path = FEATURES_DIR, tests_dir: Path = TESTS_DIR
) -> dict[str, set[str]]:
    """Claims of ids the spec does not define, with where they are made (S-GATE-01).

    Args:
        spec_file: the spec.
        features_dir: the feature files.
        tests_dir: the test tree.

    Returns:
        unknown id → test files and ``feature: scenario`` names claiming it.
    """
    known = spec_ids(spec_file)
    bogus = {rid: files for rid, files in claims_in_tests(tests_dir).items() if rid not in known}
    for feature, scenarios in scenarios_by_feature(features_dir).items():
        for name, tags in scenarios:
            for tag in tags:
                if tag not in known:
                    bogus.setdefault(tag, set()).add(f"{feature.name}: {name}")
    return bogus


def untagged_scenarios(features_dir: Path = FEATURES_DIR) -> list[str]:
    """``feature: scenario`` names of scenarios that carry no requirement tag (S-GATE-02)."""
    return [
        f"{f.name}: {name}"
        for f, scenarios in scenarios_by_feature(features_dir).items()
        for name, tags in scenarios
        if not tags
    ]


def unbound_features(features_dir: Path = FEATURES_DIR, tests_dir: Path = TESTS_DIR) -> list[str]:
    """Feature files whose name no test module mentions, so pytest-bdd never runs them (S-GATE-02)."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in _test_files(tests_dir))
    return [f.name for f in scenarios_by_feature(features_dir) if f.name not in sources]


def empty_features(features_dir: Path = FEATURES_DIR) -> list[str]:
    """Feature files without any scenario (S-GATE-02)."""
    return [f.name for f, s in scenarios_by_feature(features_dir).items() if not s]


@requirement("S-GATE-01")
def test_every_requirement_is_claimed_by_a_test_or_scenario() -> None:
    """S-GATE-01: a requirement with no test claiming it fails the gate."""
    missing = unclaimed()
    assert not missing, f"requirements with no test or scenario: {missing}"


def lacking_both(
    spec_file: Path = SPEC_FILE, features_dir: Path = FEATURES_DIR, tests_dir: Path = TESTS_DIR
) -> dict[str, list[str]]:
    """Requirements without a scenario, and requirements claimed by no test outside the BDD bindings."""
    scenario_ids = {t for s in scenarios_by_feature(features_dir).values() for _, tags in s for t in tags}
    test_ids = set(claims_in_tests(tests_dir))
    ids = spec_ids(spec_file)
    return {"no scenario": sorted(ids - scenario_ids), "no test": sorted(ids - test_ids)}


@requirement("S-GATE-03")
def test_every_requirement_has_both_a_scenario_and_a_test() -> None:
    """S-GATE-03: each requirement is claimed by a Gherkin scenario AND by a test function."""
    missing = lacking_both()
    assert missing == {"no scenario": [], "no test": []}, missing


@requirement("S-GATE-01")
def test_no_test_claims_a_requirement_that_does_not_exist() -> None:
    """S-GATE-01: a claim of an id missing from the spec fails the gate (renames cannot hide)."""
    bogus = unknown_claims()
    assert not bogus, f"claims of unknown requirement ids: {bogus}"


@requirement("S-GATE-02")
def test_every_scenario_names_a_requirement_and_every_feature_is_bound() -> None:
    """S-GATE-02: each scenario is tagged with an id, and each feature file is run by pytest-bdd."""
    untagged = untagged_scenarios()
    assert not untagged, f"scenarios without a requirement tag: {untagged}"
    unbound = unbound_features()
    assert not unbound, f"feature files no test module binds with scenarios(): {unbound}"
    empty = empty_features()
    assert not empty, f"feature files without scenarios: {empty}"


@requirement("S-GATE-02")
def test_the_gate_finds_an_unclaimed_requirement(tmp_path: Path) -> None:
    """S-GATE-02: the gate's own parsers see a requirement line and a tagged scenario (it can fail)."""
    assert _SPEC_LINE.match("- **S-XYZ-01** — something")
    assert not _SPEC_LINE.match("S-XYZ-01 mentioned in prose")
    assert "S-GATE-01" in spec_ids()
