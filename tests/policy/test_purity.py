"""policy/ is pure and its public surface is declared (S-DEC-08)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import policy
from tests._requirements import REPO, requirement
from tests.architecture import policy_violations

POLICY_DIR = REPO / "policy"


def banned_imports(source: str) -> list[str]:
    """What a policy/ source imports or calls beyond the allowlist (tests/architecture.py)."""
    return policy_violations(source)


@requirement("S-DEC-08")
@pytest.mark.parametrize("path", sorted(POLICY_DIR.rglob("*.py")), ids=lambda p: str(p.relative_to(POLICY_DIR)))
def test_no_policy_module_imports_io_clock_env_or_the_shell(path: Path) -> None:
    """S-DEC-08: every file in policy/ and its subpackages imports only what the allowlist names."""
    assert banned_imports(path.read_text(encoding="utf-8")) == []


@requirement("S-DEC-08")
@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("import os", True),
        ("import os.path as p", True),
        ("from time import time", True),
        ("from datetime import datetime", True),
        ("from gateway.state.store import X", True),
        ("from ..gateway import state", True),
        ("import mcp.types", True),
        ("x = __import__('socket')", True),
        ("from policy.decision import Decision", False),
        ("from . import catalog", False),
        ("import hashlib, json, re", False),
        ("from collections.abc import Mapping", False),
        ("import mcp_types", True),
        ("from pydantic import BaseModel", True),
        ("import ctypes", True),
        ("import winreg", True),
        ("import glob", True),
        ("data = open(path).read()", True),
        ("import ntpath", False),
    ],
)
def test_the_import_ban_catches_what_it_must(source: str, caught: bool) -> None:
    """S-DEC-08: the ban check itself can fail (it sees plain, dotted, relative and dynamic imports)."""
    assert bool(banned_imports(source)) is caught


@requirement("S-DEC-08")
def test_all_lists_exactly_the_public_names() -> None:
    """S-DEC-08: `policy.__all__` equals the public, non-module names the package exports."""
    exported = {n for n, v in vars(policy).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert len(policy.__all__) == len(set(policy.__all__))
    assert set(policy.__all__) == exported
    assert policy.__all__ == sorted(policy.__all__, key=lambda n: (not n.isupper(), n))
