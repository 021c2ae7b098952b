"""The layer rule, the absence of circles and the declared dependencies, on the real tree and on violations."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import architecture as arch
from tests._requirements import REPO, requirement


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


@requirement("S-ARCH-01")
def test_no_module_imports_from_a_layer_above_it() -> None:
    """S-ARCH-01: the real tree keeps every arrow pointing down, and the simulator behind the CLI."""
    assert arch.upward_imports(arch.module_graph(REPO)) == []


@requirement("S-ARCH-01")
@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"gateway/observe/parse.py": "from gateway.pipeline.journey import x\n", "gateway/pipeline/journey.py": ""},
         "gateway.observe.parse -> gateway.pipeline.journey: layer 9 is above layer 2"),
        ({"gateway/audit/writer.py": "def f():\n    import gateway.sim.world\n", "gateway/sim/world.py": ""},
         "gateway.audit.writer -> gateway.sim.world: only the CLI may use the simulator"),
        ({"gateway/newroom/thing.py": ""}, "gateway.newroom.thing: not in any layer"),
    ],
)  # fmt: skip
def test_the_layer_check_reports_a_purpose_made_violation(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    """S-ARCH-01: an upward import, a hidden simulator import and an unplaced module are each reported."""
    root = _tree(tmp_path, {"gateway/__init__.py": "", "policy/__init__.py": "", **files})
    assert expected in arch.upward_imports(arch.module_graph(root))


@requirement("S-ARCH-02")
def test_there_is_no_import_circle() -> None:
    """S-ARCH-02: no two modules of gateway/ or policy/ reach each other, however the import is hidden."""
    assert arch.cycles(arch.module_graph(REPO)) == []


@requirement("S-ARCH-02")
def test_a_circle_behind_type_checking_is_reported(tmp_path: Path) -> None:
    """S-ARCH-02: a circle hidden behind TYPE_CHECKING and a lazy import is still a circle."""
    root = _tree(
        tmp_path,
        {
            "gateway/__init__.py": "",
            "policy/__init__.py": "",
            "policy/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from policy.b import B\n",
            "policy/b.py": "def f():\n    from policy.a import A\n",
        },
    )
    assert arch.cycles(arch.module_graph(root)) == [["policy.a", "policy.b"]]


@requirement("S-ARCH-03")
def test_imported_third_party_packages_are_the_declared_ones() -> None:
    """S-ARCH-03: pyproject.toml declares what the product imports, and nothing it does not."""
    imported = arch.third_party_imports(REPO)
    declared = arch.declared_dependencies(REPO / "pyproject.toml")
    assert arch.dependency_mismatch(imported, declared) == (set(), set())


@requirement("S-ARCH-03")
def test_the_dependency_check_reports_both_directions(tmp_path: Path) -> None:
    """S-ARCH-03: an undeclared import and an unused declaration are both reported."""
    root = _tree(tmp_path, {"gateway/__init__.py": "import uvicorn\nfrom PIL import Image\n", "policy/__init__.py": ""})
    (root / "pyproject.toml").write_text('[project]\ndependencies = ["pillow>=10", "httpx>=0.27"]\n')
    got = arch.dependency_mismatch(arch.third_party_imports(root), arch.declared_dependencies(root / "pyproject.toml"))
    assert got == ({"uvicorn"}, {"httpx"})
