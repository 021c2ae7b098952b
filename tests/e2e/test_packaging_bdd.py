"""Binds features/packaging.feature (S-WIN-10, S-WIN-11, S-WIN-12, S-WIN-14) to the packaging checks.

The steps run the same checks as tests/gateway/test_windows_packaging.py and
tests/e2e/test_wheel_install.py (they call them, so a scenario and its test cannot drift apart);
the wheel is built once per module by the `installed` fixture imported from the latter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from tests.e2e import test_wheel_install as wheel
from tests.e2e.test_wheel_install import installed  # noqa: F401  (the module-scoped wheel fixture)
from tests.gateway import test_windows_packaging as packaging

pytestmark = pytest.mark.e2e
scenarios("packaging.feature")


@pytest.fixture
def world() -> dict[str, Any]:
    return {}


@given("the project's pyproject.toml and LICENSE")
def _project() -> None:
    assert (wheel.REPO / "pyproject.toml").is_file() and (wheel.REPO / "LICENSE").is_file()


@then('the licence is "MIT" as an SPDX string with LICENSE as its file and no licence classifier')
def _licence() -> None:
    packaging.test_the_licence_is_mit_declared_the_spdx_way()


@then("the metadata names Windows, Python 3.11 and the mcp SDK pinned below major 3")
def _metadata() -> None:
    packaging.test_the_metadata_names_platform_pythons_urls_and_the_sdk_major()


@given("the third-party imports of gateway/ and policy/")
def _imports(world: dict[str, Any]) -> None:
    world["imported"] = packaging.arch.third_party_imports(wheel.REPO)
    assert world["imported"], "the code imports third-party libraries (mcp at least)"


@then(
    "each maps through the installed distributions' file lists to a declared dependency, "
    "and every declared dependency is imported"
)
def _dependencies() -> None:
    packaging.test_declared_runtime_dependencies_are_exactly_the_imported_ones_per_installed_metadata()


@then("httpx is a test dependency only")
def _httpx_test_only() -> None:
    optional = packaging.PYPROJECT["project"]["optional-dependencies"]["test"]
    assert any(d.startswith("httpx") for d in optional)
    assert not any(d.startswith("httpx") for d in packaging.PYPROJECT["project"]["dependencies"])


@when("the sdist is built from the tree")
def _sdist(world: dict[str, Any], tmp_path: Path) -> None:
    world["sdist"] = wheel.sdist_files(tmp_path)


@then(
    "its top level is gateway, policy, LICENSE, README.md, pyproject.toml, config.example.toml and setuptools' metadata"
)
def _sdist_top(world: dict[str, Any]) -> None:
    assert {n.split("/")[0] for n in world["sdist"]} == wheel.SDIST_TOP | wheel.SDIST_METADATA


@then("it holds no bytecode")
def _no_bytecode(world: dict[str, Any]) -> None:
    assert not wheel.bytecode_in(world["sdist"])


@given("the wheel built from the tree is installed into a fresh venv")
def _installed(world: dict[str, Any], installed: wheel.Installed) -> None:  # noqa: F811
    world["installed"] = installed


@when(parsers.parse('"winmcp-gateway {command}" runs from that venv in a directory outside the tree'))
def _run(world: dict[str, Any], command: str) -> None:
    world["done"] = world["installed"].run(*command.split())


@then(parsers.parse('it exits 0 saying "{text}"'))
def _said(world: dict[str, Any], text: str) -> None:
    done = world["done"]
    assert done.returncode == 0 and text in done.stdout + done.stderr, done.stdout + done.stderr


@then("the gateway and policy it imports are the venv's own")
def _own_copy(world: dict[str, Any]) -> None:
    wheel.test_the_venv_runs_its_own_copy_not_the_source_tree(world["installed"])
