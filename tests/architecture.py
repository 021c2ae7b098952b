"""The shape of the code, read with `ast`: layers, import circles, policy's allowlist, declared dependencies.

Used by tests/test_architecture.py (and its scenarios) on the real tree and on purpose-made
violations, so each check is seen to fail as well as to pass (S-ARCH-01 … S-ARCH-03).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

# gateway's packages, lowest first: a module may import from its own layer or any below it.
# Leaves (errors, tools, files) sit at the bottom with config; app is the holder the upper rooms read.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("policy",),
    ("gateway", "gateway.errors", "gateway.tools", "gateway.files"),
    ("gateway.config", "gateway.observe"),
    ("gateway.audit",),
    ("gateway.state",),
    ("gateway.upstream",),
    ("gateway.app",),
    ("gateway.protocol",),
    ("gateway.doctor",),
    ("gateway.pipeline",),
    ("gateway.transport",),
    ("gateway.cli", "gateway.__main__"),
)
# The simulator stands in for Windows-MCP: only the command line may start it.
SIM = "gateway.sim"
SIM_USERS = ("gateway.cli",)
# What policy/ may import: pure standard-library modules and itself (S-DEC-08). An allowlist, so a
# new import (mcp_types, pydantic, ctypes, winreg, glob …) fails until someone decides it is pure.
POLICY_ALLOWED = frozenset(
    {
        "__future__", "base64", "binascii", "collections", "dataclasses", "enum", "fnmatch", "functools",
        "hashlib", "itertools", "json", "math", "ntpath", "operator", "policy", "re", "string", "types",
        "typing", "unicodedata",
        # A compiled grammar and its parser: pure computation on a string, no I/O (issue 18).
        "tree_sitter", "tree_sitter_powershell",
        # String similarity, as upstream's fuzzy App lookup scores names: pure computation (S-RULE-64).
        "rapidfuzz",
        # A POSIX shell's word splitting, `shlex.split` on a string: no file is read (S-RULE-124); its paths,
        # as `ntpath` is Windows' (S-RULE-132).
        "shlex", "posixpath",
        # A URL's parts and an IP address's forms (`urllib.parse.urlsplit`, `ipaddress`): parsing a string, no
        # request is made (S-RULE-144).
        "urllib", "ipaddress",
        # TOML read from a string (`tomllib.loads`, never `load`) and HTML/XML entities decoded (`html.unescape`):
        # a settings file's text read as its program reads it, no file opened (S-RULE-211).
        "tomllib", "html",
    }
)  # fmt: skip
POLICY_BANNED_CALLS = frozenset({"open", "__import__", "eval", "exec", "compile", "input", "breakpoint"})
# Import names that differ from their distribution names.
DIST_OF = {
    "PIL": "pillow",
    "mcp_types": "mcp-types",
    "platformdirs": "platformdirs",
    "tree_sitter": "tree-sitter",
    "tree_sitter_powershell": "tree-sitter-powershell",
}


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str) -> list[str]:
    """Every absolute module a source imports, at any depth (functions and TYPE_CHECKING blocks too)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names]
    return found


def module_graph(root: Path, packages: Iterable[str] = ("gateway", "policy")) -> dict[str, set[str]]:
    """Module → the project's modules it imports (a `from pkg import mod` counts as importing `pkg.mod`)."""
    files = {module_name(root, p): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        graph[mod] = {m for m in imports_of(path.read_text(encoding="utf-8")) if m in files and m != mod}
    return graph


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for index, names in enumerate(LAYERS):
        for name in names:
            nested = name != "gateway" and module.startswith(name + ".")  # the root package holds only itself
            if (module == name or nested) and (best is None or len(name) > best[1]):
                best = (index, len(name))
    return None if best is None else best[0]


def upward_imports(graph: Mapping[str, set[str]]) -> list[str]:
    """Imports from a higher layer, imports of the simulator outside the CLI, and unplaced modules."""
    bad: list[str] = []
    for mod, targets in sorted(graph.items()):
        inside_sim = mod == SIM or mod.startswith(SIM + ".")
        if layer_of(mod) is None and not inside_sim:
            bad.append(f"{mod}: not in any layer")
        for target in sorted(targets):
            if target == SIM or target.startswith(SIM + "."):
                if not inside_sim and not any(mod == u or mod.startswith(u + ".") for u in SIM_USERS):
                    bad.append(f"{mod} -> {target}: only the CLI may use the simulator")
                continue
            if inside_sim:
                continue  # the simulator may use the gateway's leaves; nothing below imports it back
            lm, lt = layer_of(mod), layer_of(target)
            if lm is not None and lt is not None and lt > lm:
                bad.append(f"{mod} -> {target}: layer {lt} is above layer {lm}")
    return bad


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import circles (strongly connected components of two or more modules), Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def policy_violations(source: str) -> list[str]:
    """What a policy/ source imports or calls beyond the allowlist."""
    bad: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            bad += [a.name for a in node.names if a.name.split(".")[0] not in POLICY_ALLOWED]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level > 1 or (node.level == 0 and module.split(".")[0] not in POLICY_ALLOWED):
                bad.append("." * node.level + module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in POLICY_BANNED_CALLS:
            bad.append(f"{node.func.id}()")
    return bad


def third_party_imports(root: Path, packages: Iterable[str] = ("gateway", "policy")) -> set[str]:
    """Top-level names of the non-stdlib, non-project modules the product imports."""
    names: set[str] = set()
    for pkg in packages:
        for path in (root / pkg).rglob("*.py"):
            for mod in imports_of(path.read_text(encoding="utf-8")):
                top = mod.split(".")[0]
                if top not in sys.stdlib_module_names and top not in ("gateway", "policy", "__future__"):
                    names.add(top)
    return names


def declared_dependencies(pyproject: Path) -> set[str]:
    deps = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    out = set()
    for dep in deps:
        name = dep.split(";")[0]
        for sep in "<>=!~[ ":
            name = name.split(sep)[0]
        out.add(name.strip().lower().replace("_", "-"))
    return out


def dependency_mismatch(imported: set[str], declared: set[str]) -> tuple[set[str], set[str]]:
    """(imported but not declared, declared but not imported), by distribution name."""
    as_dists = {DIST_OF.get(name, name).lower().replace("_", "-") for name in imported}
    return as_dists - declared, declared - as_dists
