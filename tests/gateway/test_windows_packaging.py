"""Packaging: the licence and metadata, dependencies as imported, and packages that are this product's own.

In process and fast; building the sdist and the wheel and installing it is
tests/e2e/test_wheel_install.py (S-WIN-10 … S-WIN-13).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import tomllib
from pathlib import Path
from typing import Any

import pytest

import gateway
import policy
from gateway.cli import ownership
from tests import architecture as arch
from tests._requirements import REPO, requirement

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


@requirement("S-WIN-10")
def test_the_licence_is_mit_declared_the_spdx_way() -> None:
    """S-WIN-10: LICENSE is MIT (2026, winmcp-gateway contributors); pyproject names it as an SPDX expression."""
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Copyright (c) 2026 winmcp-gateway contributors" in text
    project = PYPROJECT["project"]
    assert project["license"] == "MIT", "a string, not the deprecated table form that prints a warning box"
    assert project["license-files"] == ["LICENSE"]
    assert not any(c.startswith("License ::") for c in project["classifiers"]), "PEP 639: no licence classifier"
    assert PYPROJECT["build-system"]["requires"] == ["setuptools>=77"]


@requirement("S-WIN-10")
def test_the_metadata_names_platform_pythons_urls_and_the_sdk_major() -> None:
    """S-WIN-10: classifiers (Windows, the Pythons), project URLs, and mcp pinned to one major."""
    project = PYPROJECT["project"]
    classifiers = set(project["classifiers"])
    assert {"Operating System :: Microsoft :: Windows", "Programming Language :: Python :: 3.11"} <= classifiers
    assert project["urls"] and all(url.startswith("https://") for url in project["urls"].values())
    pins = {dep.split(">")[0].split("<")[0].split("=")[0].strip(): dep for dep in project["dependencies"]}
    assert pins["mcp"].startswith("mcp>=2") and "<3" in pins["mcp"]
    assert "<3" in pins["mcp-types"], "mcp_types moves with mcp's major"
    assert project["scripts"] == {"winmcp-gateway": "gateway.cli:main"}


@pytest.mark.e2e  # the slow tier: it parses every module (tests/test_architecture.py's S-ARCH-03 does too)
@requirement("S-WIN-11")
def test_declared_runtime_dependencies_are_exactly_the_imported_ones_per_installed_metadata() -> None:
    """S-WIN-11: each imported top-level name maps (importlib.metadata) to a declared distribution, and back."""
    imported = arch.third_party_imports(REPO)
    mapped: set[str] = set()
    for name in sorted(imported):
        expected = arch.DIST_OF.get(name, name).lower().replace("_", "-")
        try:
            dist = importlib.metadata.distribution(expected)
        except importlib.metadata.PackageNotFoundError:
            pytest.fail(f"DIST_OF says {name} comes from {expected}, which is not installed")
        tops = {Path(str(f)).parts[0].removesuffix(".py") for f in dist.files or () if ".dist-info" not in str(f)}
        assert name in tops, f"{expected} does not provide the import name {name} (it provides {sorted(tops)})"
        mapped.add(expected)
    assert mapped == arch.declared_dependencies(REPO / "pyproject.toml")
    test_only = {d.split(">")[0] for d in PYPROJECT["project"]["optional-dependencies"]["test"]}
    assert "httpx" in test_only and "httpx" not in mapped, "httpx is for the tests only"


@requirement("S-WIN-13")
def test_both_packages_carry_the_marker() -> None:
    """S-WIN-13: `gateway` and `policy` say they are this product's own; the real tree has no conflict."""
    assert gateway.__winmcp_gateway__ is True and policy.__winmcp_gateway__ is True  # type: ignore[attr-defined]
    assert ownership.ownership_problem() is None


def _foreign_policy(tmp_path: Path, text: str = "VERSION = '9.9'\n") -> Path:
    init = tmp_path / "site" / "policy" / "__init__.py"
    init.parent.mkdir(parents=True)
    init.write_text(text, encoding="utf-8")
    return init


def _finder(init: Path) -> Any:
    return lambda name: importlib.util.spec_from_file_location(name, init) if name == "policy" else None


def _unloaded_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(__import__("sys").modules, "policy")  # restored after the test


@requirement("S-WIN-13")
def test_a_foreign_policy_package_is_named_with_the_remedy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-WIN-13: a `policy/__init__.py` without the marker stops the CLI: path, why, isolated-install remedy."""
    init = _foreign_policy(tmp_path)
    _unloaded_policy(monkeypatch)
    monkeypatch.setattr(ownership, "owners_of", lambda path, dists=None: ["policy-helpers 9.9"])
    problem = ownership.ownership_problem(find_spec=_finder(init))
    assert problem is not None
    assert (
        str(init) in problem and "lacks __winmcp_gateway__" in problem and "installed by policy-helpers 9.9" in problem
    )
    assert "pipx install winmcp-gateway" in problem and "uvx winmcp-gateway" in problem


@requirement("S-WIN-13")
def test_a_copy_of_ours_from_another_installation_is_refused_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-WIN-13: a marked `policy` that lies elsewhere than `gateway` means two installations mixed."""
    init = _foreign_policy(tmp_path, "__winmcp_gateway__ = True\n")
    _unloaded_policy(monkeypatch)
    monkeypatch.setattr(ownership, "owners_of", lambda path, dists=None: [])
    problem = ownership.ownership_problem(find_spec=_finder(init))
    assert problem is not None and "two installations" in problem and str(init.parent) in problem
    missing = ownership.ownership_problem(find_spec=lambda name: None)
    assert missing is not None and "there is no policy/__init__.py" in missing


@requirement("S-WIN-13")
def test_a_loaded_policy_without_the_marker_and_an_unmarked_gateway_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """S-WIN-13: whichever was imported first, a package without the marker is reported by name."""
    monkeypatch.setattr(ownership, "owners_of", lambda path, dists=None: [])
    monkeypatch.delattr(policy, "__winmcp_gateway__")
    assert "the `policy` package" in (ownership.ownership_problem() or "")
    monkeypatch.delattr(gateway, "__winmcp_gateway__")
    assert "the `gateway` package" in (ownership.ownership_problem() or "")


@requirement("S-WIN-13")
def test_the_owning_distribution_is_found_by_its_file_list(tmp_path: Path) -> None:
    """S-WIN-13: `owners_of` names a distribution whose RECORD lists the file, never this product."""
    init = _foreign_policy(tmp_path)
    info = tmp_path / "site" / "policy_helpers-9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: policy-helpers\nVersion: 9.9\n")
    (info / "RECORD").write_text("policy/__init__.py,,\npolicy_helpers-9.9.dist-info/METADATA,,\n")
    ours = tmp_path / "site" / "winmcp_gateway-0.1.0.dist-info"
    ours.mkdir()
    (ours / "METADATA").write_text("Metadata-Version: 2.1\nName: winmcp-gateway\nVersion: 0.1.0\n")
    (ours / "RECORD").write_text("policy/__init__.py,,\n")
    dists = list(importlib.metadata.distributions(path=[str(tmp_path / "site")]))
    assert ownership.owners_of(init, dists) == ["policy-helpers 9.9"]
    assert ownership.owners_of(tmp_path / "elsewhere.py", dists) == []
