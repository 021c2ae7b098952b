"""Every package of gateway/ names its public surface in `__all__`, and only that (after httpx's test).

A package's `__all__` lists exactly the public names its `__init__` binds (submodules aside),
each once, constants first and then in code-point order, and each defined inside that package:
a package re-exports its own modules' names, never another package's. The simulator's
subpackages are namespaces of modules: they bind no public name at all (`gateway.sim`'s own
`__init__` is the simulator's surface).
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests._requirements import REPO, requirement

# Dunder names a package may export on purpose.
EXPORTED_DUNDERS = frozenset({"__version__"})
# Packages that are namespaces of modules only (no `__all__`, no public name of their own).
MODULE_NAMESPACES = ("gateway.sim.",)


def package_names(root: Path = REPO, top: str = "gateway") -> list[str]:
    """Every package under `top`, as dotted names, sorted."""
    return sorted(".".join(p.parent.relative_to(root).parts) for p in (root / top).rglob("__init__.py"))


def public_names(package: ModuleType) -> set[str]:
    """The names the package's `__init__` binds that are public: not private, not a submodule."""
    return {
        name
        for name, value in vars(package).items()
        if (not name.startswith("_") or name in EXPORTED_DUNDERS) and not inspect.ismodule(value)
    }


def foreign_exports(package: ModuleType) -> list[str]:
    """Exported classes and functions defined outside the package (re-exports of another package's names)."""
    out = []
    for name in getattr(package, "__all__", ()):
        where = getattr(getattr(package, name, None), "__module__", None)
        if isinstance(where, str) and not (where == package.__name__ or where.startswith(package.__name__ + ".")):
            out.append(f"{name} (from {where})")
    return out


def export_order(names: list[str]) -> list[str]:
    return sorted(names, key=lambda n: (not n.isupper(), n))


PACKAGES = [p for p in package_names() if not p.startswith(MODULE_NAMESPACES)]
NAMESPACES = [p for p in package_names() if p.startswith(MODULE_NAMESPACES)]


@requirement("S-ARCH-01")
@pytest.mark.parametrize("name", PACKAGES)
def test_all_names_exactly_the_public_names_of_the_package(name: str) -> None:
    """S-ARCH-01: `__all__` exists, has no duplicates, is ordered, and equals the public names bound."""
    package = importlib.import_module(name)
    exported = getattr(package, "__all__", None)
    assert isinstance(exported, list), f"{name}/__init__.py has no __all__ list"
    assert all(isinstance(n, str) for n in exported)
    assert len(exported) == len(set(exported)), f"{name}.__all__ names something twice"
    missing = [n for n in exported if not hasattr(package, n)]
    assert missing == [], f"{name}.__all__ names what the package does not define: {missing}"
    assert set(exported) == public_names(package), f"{name}: public names not in __all__ (or the reverse)"
    assert exported == export_order(exported), f"{name}.__all__ is out of order"


@requirement("S-ARCH-01")
@pytest.mark.parametrize("name", PACKAGES)
def test_a_package_exports_only_its_own_names(name: str) -> None:
    """S-ARCH-01: a package re-exports what its own modules define, not another package's names."""
    assert foreign_exports(importlib.import_module(name)) == []


@requirement("S-ARCH-01")
@pytest.mark.parametrize("name", NAMESPACES)
def test_a_namespace_of_modules_binds_no_public_name(name: str) -> None:
    """S-ARCH-01: the simulator's subpackages hold modules only."""
    assert public_names(importlib.import_module(name)) == set()


def _fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, init: str) -> str:
    """A throw-away package with this `__init__`, importable under a name no other test uses."""
    name = "fakepkg_" + re.sub(r"\W", "_", tmp_path.name)
    (tmp_path / name).mkdir()
    (tmp_path / name / "__init__.py").write_text(init, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return name


@requirement("S-ARCH-01")
@pytest.mark.parametrize(
    ("init", "problem"),
    [
        ("from json import dumps\n__all__ = []\n", "public names not in __all__"),
        ("def f(): pass\n__all__ = ['f', 'g']\n", "does not define"),
        ("def f(): pass\n__all__ = ['f', 'f']\n", "twice"),
        ("def g(): pass\ndef f(): pass\n__all__ = ['g', 'f']\n", "out of order"),
        ("def f(): pass\n", "no __all__"),
    ],
)
def test_the_check_reports_a_purpose_made_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, init: str, problem: str
) -> None:
    """S-ARCH-01: a missing, incomplete, dangling, doubled or unordered `__all__` is each reported."""
    name = _fake_package(tmp_path, monkeypatch, init)
    with pytest.raises(AssertionError, match=problem):
        test_all_names_exactly_the_public_names_of_the_package(name)


@requirement("S-ARCH-01")
def test_a_re_export_of_another_packages_name_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-ARCH-01: exporting a class from another package is named as such."""
    name = _fake_package(tmp_path, monkeypatch, "from pathlib import Path\n__all__ = ['Path']\n")
    assert foreign_exports(importlib.import_module(name)) == ["Path (from pathlib)"]
