"""policy/ is pure and its public surface is declared (S-DEC-08)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import policy
from tests._requirements import REPO, requirement

POLICY_DIR = REPO / "policy"
BANNED = frozenset(
    {
        "os", "sys", "pathlib", "io", "logging", "time", "datetime", "random", "uuid", "socket",
        "subprocess", "threading", "asyncio", "anyio", "mcp", "httpx", "filelock", "gateway",
        "importlib", "shutil", "tempfile", "secrets", "multiprocessing", "signal", "platform",
    }
)  # fmt: skip


def banned_imports(source: str) -> list[str]:
    """Every banned module a source imports (top-level name), including relative escapes and __import__."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in BANNED]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level > 1 or module.split(".")[0] in BANNED:
                found.append("." * node.level + module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            found.append("__import__()")
    return found


@requirement("S-DEC-08")
@pytest.mark.parametrize("path", sorted(POLICY_DIR.glob("*.py")), ids=lambda p: p.name)
def test_no_policy_module_imports_io_clock_env_or_the_shell(path: Path) -> None:
    """S-DEC-08: every file in policy/ (whoever wrote it) imports nothing from the banned list."""
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
