"""Are `gateway` and `policy` this product's own? Checked before anything imports `policy` (S-WIN-13).

winmcp-gateway ships two top-level packages with generic names. An unrelated distribution
called `policy` (or `gateway`) installed into the same environment overwrites their
`__init__.py`, and a folder of that name in the current directory or on PYTHONPATH shadows
them; either way the gateway would then fail far from the cause, or run someone else's code
as its policy. Each of the two `__init__` files carries `__winmcp_gateway__ = True`:

    1. `gateway`: already imported (this module is inside it): its marker must be set.
    2. `policy`: found, not imported (`importlib.util.find_spec`); its `__init__.py` must hold
       the marker and lie next to `gateway` (one installation, not two mixed).
    3. Otherwise the message names the file, the distribution that installed it
       (`importlib.metadata`, when one did) and the remedy: an isolated install.

Only the standard library is imported here, so the check runs whatever `policy` holds.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import sys
from collections.abc import Callable, Iterable
from importlib.machinery import ModuleSpec
from pathlib import Path

import gateway

MARKER = "__winmcp_gateway__"
DISTRIBUTION = "winmcp-gateway"
_MARKER_LINE = re.compile(rf"^{MARKER}\s*=\s*True\s*(?:#.*)?$", re.MULTILINE)
REMEDY = (
    "install winmcp-gateway into an environment of its own: `pipx install winmcp-gateway` or "
    "`uvx winmcp-gateway` (or remove the other package and `pip install --force-reinstall winmcp-gateway`)"
)

SpecFinder = Callable[[str], ModuleSpec | None]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def owners_of(path: Path, dists: Iterable[importlib.metadata.Distribution] | None = None) -> list[str]:
    """The installed distributions other than this product whose file list holds `path` ("name version")."""
    try:
        target = path.resolve()
    except OSError:
        return []
    found: list[str] = []
    for dist in importlib.metadata.distributions() if dists is None else dists:
        name = dist.metadata["Name"] or "?"
        if _norm(name) == DISTRIBUTION:
            continue
        for file in dist.files or ():
            if file.name == path.name and Path(str(dist.locate_file(file))).resolve() == target:
                found.append(f"{name} {dist.version}")
                break
    return sorted(set(found))


def _foreign(package: str, where: Path | None, why: str) -> str:
    owners = owners_of(where) if where is not None else []
    if owners:
        source = f"installed by {', '.join(owners)}"
    else:
        source = "no installed distribution claims it: it shadows this product's from an earlier sys.path entry"
    shown = where if where is not None else "?"
    return (
        f"the `{package}` package loaded from {shown} is not winmcp-gateway's own ({why}; {source}). "
        f"winmcp-gateway ships top-level packages named `gateway` and `policy`, and another package of that name "
        f"was installed into this environment or shadows it, so the gateway stops here. Remedy: {REMEDY}."
    )


def ownership_problem(find_spec: SpecFinder = importlib.util.find_spec) -> str | None:
    """What is wrong with `gateway`/`policy` (the module docstring's steps), or None when both are ours.

    Args:
        find_spec: how `policy` is located without importing it (tests pass a fake).

    Returns:
        The message to print, or None.
    """
    gateway_init = Path(gateway.__file__ or "")
    if getattr(gateway, MARKER, False) is not True:
        return _foreign("gateway", gateway_init, f"its __init__.py lacks {MARKER}")
    loaded = sys.modules.get("policy")
    if loaded is not None:
        origin = getattr(loaded, "__file__", None)
        if getattr(loaded, MARKER, False) is not True:
            return _foreign("policy", Path(origin) if origin else None, f"it lacks {MARKER}")
        return None
    try:
        spec = find_spec("policy")
    except (ImportError, ValueError) as exc:
        return _foreign("policy", None, f"it cannot be located: {exc}")
    if spec is None or not spec.origin or not spec.has_location:
        return _foreign("policy", None, "there is no policy/__init__.py (removed, or a namespace package)")
    init = Path(spec.origin)
    try:
        text = init.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return _foreign("policy", init, f"it cannot be read: {exc}")
    if not _MARKER_LINE.search(text):
        return _foreign("policy", init, f"its __init__.py lacks {MARKER}")
    if init.resolve().parent.parent != gateway_init.resolve().parent.parent:
        return (
            f"`policy` is loaded from {init.parent} but `gateway` from {gateway_init.parent}: two installations "
            f"of winmcp-gateway are mixed (sys.path holds both). Remedy: {REMEDY}."
        )
    return None
