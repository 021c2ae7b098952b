"""Static half of the spec coverage gate: spec ⇄ scenarios ⇄ tests, both ways."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests._requirements import FEATURES_DIR, SPEC_FILE, SPEC_ID, TESTS_DIR, requirement

_SPEC_LINE = re.compile(r"^\s*[-*]\s+\*\*(S-[A-Z]+-\d{2,3})\*\*")


def spec_ids() -> set[str]:
    """Requirement ids defined in spec/SYS_SPEC.md (lines ``- **S-AREA-NN** …``)."""
    ids: list[str] = []
    for line in SPEC_FILE.read_text(encoding="utf-8").splitlines():
        m = _SPEC_LINE.match(line)
        if m:
            ids.append(m.group(1))
    dupes = {i for i in ids if ids.count(i) > 1}
    assert not dupes, f"requirement ids defined twice in the spec: {sorted(dupes)}"
    return set(ids)


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS_DIR.rglob("*.py") if p.name != "_requirements.py")


def claims_in_tests() -> dict[str, set[str]]:
    """Requirement ids claimed via ``requirement("…")`` calls, by file."""
    out: dict[str, set[str]] = {}
    for path in _test_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "requirement"
            ):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        out.setdefault(arg.value, set()).add(str(path.relative_to(TESTS_DIR)))
    return out


def scenarios_by_feature() -> dict[Path, list[tuple[str, list[str]]]]:
    """Each feature file's scenarios with the requirement tags on them."""
    out: dict[Path, list[tuple[str, list[str]]]] = {}
    for feature in sorted(FEATURES_DIR.glob("*.feature")):
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


@requirement("S-GATE-01")
def test_every_requirement_is_claimed_by_a_test_or_scenario() -> None:
    """S-GATE-01: a requirement with no test claiming it fails the gate."""
    claimed = set(claims_in_tests())
    for scenarios in scenarios_by_feature().values():
        for _, tags in scenarios:
            claimed.update(tags)
    missing = sorted(spec_ids() - claimed)
    assert not missing, f"requirements with no test or scenario: {missing}"


@requirement("S-GATE-01")
def test_no_test_claims_a_requirement_that_does_not_exist() -> None:
    """S-GATE-01: a claim of an id missing from the spec fails the gate (renames cannot hide)."""
    known = spec_ids()
    bogus = {rid: files for rid, files in claims_in_tests().items() if rid not in known}
    for feature, scenarios in scenarios_by_feature().items():
        for name, tags in scenarios:
            for tag in tags:
                if tag not in known:
                    bogus.setdefault(tag, set()).add(f"{feature.name}: {name}")
    assert not bogus, f"claims of unknown requirement ids: {bogus}"


@requirement("S-GATE-02")
def test_every_scenario_names_a_requirement_and_every_feature_is_bound() -> None:
    """S-GATE-02: each scenario is tagged with an id, and each feature file is run by pytest-bdd."""
    untagged = [
        f"{f.name}: {name}" for f, scenarios in scenarios_by_feature().items() for name, tags in scenarios if not tags
    ]
    assert not untagged, f"scenarios without a requirement tag: {untagged}"
    sources = "\n".join(p.read_text(encoding="utf-8") for p in _test_files())
    unbound = [f.name for f in scenarios_by_feature() if f.name not in sources]
    assert not unbound, f"feature files no test module binds with scenarios(): {unbound}"
    empty = [f.name for f, s in scenarios_by_feature().items() if not s]
    assert not empty, f"feature files without scenarios: {empty}"


@requirement("S-GATE-02")
def test_the_gate_finds_an_unclaimed_requirement(tmp_path: Path) -> None:
    """S-GATE-02: the gate's own parsers see a requirement line and a tagged scenario (it can fail)."""
    assert _SPEC_LINE.match("- **S-XYZ-01** — something")
    assert not _SPEC_LINE.match("S-XYZ-01 mentioned in prose")
    assert "S-GATE-01" in spec_ids()
