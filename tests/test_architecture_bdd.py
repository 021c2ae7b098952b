"""Binds features/architecture.feature (S-ARCH-01 … S-ARCH-03) to tests/architecture.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, scenarios, then, when

from tests import architecture as arch
from tests._requirements import REPO

scenarios("architecture.feature")


@pytest.fixture
def tree() -> dict[str, Any]:
    return {}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in {"gateway/__init__.py": "", "policy/__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@given("a tree where gateway.observe imports gateway.pipeline")
def upward(tmp_path: Path, tree: dict[str, Any]) -> None:
    files = {"gateway/observe/parse.py": "from gateway.pipeline.journey import x\n", "gateway/pipeline/journey.py": ""}
    tree["root"] = _write(tmp_path, files)


@given("a tree where policy.a and policy.b import each other, one behind TYPE_CHECKING")
def circle(tmp_path: Path, tree: dict[str, Any]) -> None:
    files = {
        "policy/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from policy.b import B\n",
        "policy/b.py": "from policy.a import A\n",
    }
    tree["root"] = _write(tmp_path, files)


@given("the real tree")
def real(tree: dict[str, Any]) -> None:
    tree["root"] = REPO


@when("the architecture checks read it")
def read(tree: dict[str, Any]) -> None:
    root = tree["root"]
    graph = arch.module_graph(root)
    tree["upward"] = arch.upward_imports(graph)
    tree["cycles"] = arch.cycles(graph)
    if (root / "pyproject.toml").exists():
        tree["deps"] = arch.dependency_mismatch(
            arch.third_party_imports(root), arch.declared_dependencies(root / "pyproject.toml")
        )


@then('the layer check names "gateway.observe.parse -> gateway.pipeline.journey"')
def names_upward(tree: dict[str, Any]) -> None:
    assert any(v.startswith("gateway.observe.parse -> gateway.pipeline.journey") for v in tree["upward"])


@then("the circle check names policy.a and policy.b")
def names_circle(tree: dict[str, Any]) -> None:
    assert tree["cycles"] == [["policy.a", "policy.b"]]


@then("no import is undeclared and no declaration is unused")
def deps_agree(tree: dict[str, Any]) -> None:
    assert tree["deps"] == (set(), set())
