"""The gateway's own files in every spelling this machine gives them, resolved once at start-up.

The rules compare canonical forms of paths (`policy/rules/paths.py`), but three facts only the
operating system knows (issue 12 item 2, S-SELF-04):

    where a relative state dir is      → absolute, against the gateway's working directory
    what a junction or symlink on the  → `os.path.realpath`
      way to it leads to
    which 8.3 short name Windows gave  → `GetShortPathNameW` (ctypes; Windows only) — a generated
      each folder on the way             short name need not be the first letters (`WI3F2A~1`)

Every form goes to the rules as a protected path; a relative spelling never does (a bare
`state` would make every command naming that word the gateway's). A path that does not exist
yet (the default config file before its first write) gets the short form of its longest
existing parent, the rest appended as written.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TypeAlias, cast

# GetShortPathNameW(path, buffer, size) → characters written, or the size needed (with its NUL)
# when the buffer is too small, or 0 on failure (no such path, no 8.3 names on the volume).
ShortPathApi: TypeAlias = Callable[[str, "ctypes.Array[ctypes.c_wchar] | None", int], int]
ShortName: TypeAlias = Callable[[str], "str | None"]


def short_name_with(api: ShortPathApi, path: str) -> str | None:
    """The 8.3 short spelling of an existing `path`, asked of `api` the way Win32 is asked.

    Args:
        api: `GetShortPathNameW` or a stand-in with its contract.
        path: an absolute path.

    Returns:
        The short spelling, or None when the call fails or contradicts itself.
    """
    needed = api(path, None, 0)
    if needed <= 0:
        return None
    buffer = ctypes.create_unicode_buffer(needed)
    written = api(path, buffer, needed)
    if written <= 0 or written >= needed:  # failed, or the path changed between the two calls
        return None
    return buffer.value


def short_path_name(path: str) -> str | None:
    """The 8.3 short spelling Windows gives an existing `path`; None elsewhere or when it has none.

    Args:
        path: an absolute path.

    Returns:
        The short spelling, or None (not Windows, no such path, 8.3 names off on the volume).
    """
    if sys.platform != "win32":
        return None
    with contextlib.suppress(OSError, AttributeError, ValueError):
        from ctypes import wintypes

        function = ctypes.WinDLL("kernel32", use_last_error=True).GetShortPathNameW
        function.argtypes = (wintypes.LPCWSTR, wintypes.LPWSTR, wintypes.DWORD)
        function.restype = wintypes.DWORD
        return short_name_with(cast(ShortPathApi, function), path)
    return None


def real_path(path: str) -> str:
    """`path` with every junction and symlink on the way followed (`os.path.realpath`).

    Args:
        path: an absolute path (it need not exist).

    Returns:
        The real path.
    """
    return os.path.realpath(path)


@dataclass(frozen=True, slots=True, kw_only=True)
class PathFacts:
    """What the operating system says about paths (a seam: the tests hand in Windows facts on Linux).

    Attributes:
        pathmod: the path rules of the platform (`os.path`; `ntpath` for Windows facts elsewhere).
        cwd: the directory a relative path starts from (the gateway's own).
        realpath: a path with every link on the way followed (None: `real_path`).
        short_name: the 8.3 spelling of an existing path, or None (None: `short_path_name`).
    """

    pathmod: ModuleType = os.path
    cwd: str = field(default_factory=os.getcwd)
    realpath: Callable[[str], str] | None = None
    short_name: ShortName | None = None

    # The defaults are looked up at call time, so a test can stand in for Windows in a whole gateway.
    def real(self, path: str) -> str:
        """`path` with every link on the way followed."""
        return (self.realpath or real_path)(path)

    def short(self, path: str) -> str | None:
        """The 8.3 spelling of an existing `path`, or None."""
        return (self.short_name or short_path_name)(path)


def _short_form(path: str, facts: PathFacts) -> str | None:
    # Walk up to the longest part that exists: a file not written yet still has a short parent.
    head, tail = path, list[str]()
    while True:
        short = facts.short(head)
        if short:
            return str(facts.pathmod.join(short, *reversed(tail))) if tail else short
        parent = str(facts.pathmod.dirname(head))
        if not parent or parent == head:
            return None
        tail.append(str(facts.pathmod.basename(head)))
        head = parent


def path_forms(path: str | os.PathLike[str], facts: PathFacts | None = None) -> tuple[str, ...]:
    """Every spelling of one of the gateway's paths: absolute, real, and their 8.3 forms.

    Args:
        path: the path as configured (`~` and a relative path allowed).
        facts: what the operating system says (default: this machine).

    Returns:
        The forms, absolute first, without duplicates.
    """
    facts = facts or PathFacts()
    pm = facts.pathmod
    absolute = str(pm.normpath(pm.join(facts.cwd, pm.expanduser(os.fspath(path)))))
    forms = [absolute]
    with contextlib.suppress(OSError, ValueError):
        forms.append(str(facts.real(absolute)))
    for base in list(forms):
        with contextlib.suppress(OSError, ValueError):
            short = _short_form(base, facts)
            if short:
                forms.append(short)
    return tuple(dict.fromkeys(f for f in forms if pm.isabs(f)))


def resolve_protected_paths(
    paths: Iterable[str | os.PathLike[str] | None], facts: PathFacts | None = None
) -> tuple[str, ...]:
    """The forms (`path_forms`) of every one of the gateway's paths, for the rules (S-SELF-04).

    Args:
        paths: the state dir, STOP file, config file … (None entries are skipped).
        facts: what the operating system says (default: this machine).

    Returns:
        Every form of every path, in order, without duplicates.
    """
    facts = facts or PathFacts()
    out: list[str] = []
    for path in paths:
        if path is not None and os.fspath(path):
            out.extend(path_forms(path, facts))
    return tuple(dict.fromkeys(out))
