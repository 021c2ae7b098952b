"""In-memory stand-ins for the disk and the registry (S-SIM-03). Nothing touches the host.

Paths are Windows-style with forward slashes (``C:/Users/demo/Desktop/demo.txt``), the form the
upstream truth uses (tool_outputs.json rewrote real paths that way). Lookups ignore case like
NTFS. Relative paths resolve from the user's Desktop, as upstream's FileSystem tool does.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from dataclasses import dataclass, replace

_DRIVE = re.compile(r"^[A-Za-z]:")


class SandboxError(ValueError):
    """A path the simulator refuses (outside the fake home)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FileEntry:
    path: str
    content: bytes
    created: str
    modified: str
    read_only: bool = False


class FakeFS:
    """Files and directories under a fake drive; all timestamps come from a frozen clock."""

    def __init__(self, files: dict[str, str], *, home: str, clock: str) -> None:
        self.home = home.rstrip("/")
        self.clock = clock
        self.files: dict[str, FileEntry] = {}
        self.dirs: dict[str, str] = {}
        self.make_dirs(self.home + "/Desktop")
        for path, content in files.items():
            if path.endswith("/"):
                self.make_dirs(self.resolve(path))
            else:
                self.write(self.resolve(path), content.encode("utf-8"), append=False)

    # -- paths ----------------------------------------------------------------------------
    def resolve(self, raw: str) -> str:
        """Absolute display path for ``raw``; raises SandboxError outside the fake home."""
        text = raw.replace("\\", "/").strip()
        if text.startswith("~"):
            text = self.home + text[1:]
        if _DRIVE.match(text):
            drive, rest = text[:2].upper(), text[2:]
        elif text.startswith("/"):
            raise SandboxError(f"fake upstream sandbox refuses path outside {self.home}: {raw}")
        else:
            drive, rest = self.home[:2], self.home[2:] + "/Desktop/" + text
        norm = posixpath.normpath("/" + rest.lstrip("/"))
        path = drive + ("" if norm == "/" else norm)
        if not (path.lower() == self.home.lower() or path.lower().startswith(self.home.lower() + "/")):
            raise SandboxError(f"fake upstream sandbox refuses path outside {self.home}: {raw}")
        return path

    @staticmethod
    def key(path: str) -> str:
        return path.lower()

    def is_file(self, path: str) -> bool:
        return self.key(path) in self.files

    def is_dir(self, path: str) -> bool:
        return self.key(path) in self.dirs

    def exists(self, path: str) -> bool:
        return self.is_file(path) or self.is_dir(path)

    # -- changes --------------------------------------------------------------------------
    def make_dirs(self, path: str) -> None:
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub and not sub.endswith(":"):
                self.dirs.setdefault(self.key(sub), sub)

    def write(self, path: str, data: bytes, *, append: bool) -> None:
        self.make_dirs(posixpath.dirname(path))
        old = self.files.get(self.key(path))
        if old is not None and append:
            self.files[self.key(path)] = replace(old, content=old.content + data, modified=self.clock)
        else:
            created = self.clock if old is None else old.created
            self.files[self.key(path)] = FileEntry(path=path, content=data, created=created, modified=self.clock)

    def remove(self, path: str) -> None:
        """Delete a file, or a directory with everything below it."""
        k = self.key(path)
        if k in self.files:
            del self.files[k]
            return
        prefix = k + "/"
        for sub in [f for f in self.files if f.startswith(prefix)]:
            del self.files[sub]
        for sub in [d for d in self.dirs if d == k or d.startswith(prefix)]:
            del self.dirs[sub]

    def copy(self, src: str, dst: str) -> None:
        if self.is_file(src):
            self.write(dst, self.files[self.key(src)].content, append=False)
            return
        self.make_dirs(dst)
        for rel, entry in self.below(src, recursive=True):
            if entry is None:
                self.make_dirs(dst + "/" + rel)
            else:
                self.write(dst + "/" + rel, entry.content, append=False)

    # -- queries --------------------------------------------------------------------------
    def below(self, path: str, *, recursive: bool) -> list[tuple[str, FileEntry | None]]:
        """Entries under a directory as (relative path, file or None for a directory), sorted."""
        prefix = self.key(path) + "/"
        out: list[tuple[str, FileEntry | None]] = []
        for k, display in self.dirs.items():
            rel = display[len(prefix) :]
            if k.startswith(prefix) and (recursive or "/" not in rel):
                out.append((rel, None))
        for k, entry in self.files.items():
            rel = entry.path[len(prefix) :]
            if k.startswith(prefix) and (recursive or "/" not in rel):
                out.append((rel, entry))
        return sorted(out, key=lambda item: (item[1] is not None, item[0].lower()))

    def search(self, path: str, pattern: str, *, recursive: bool) -> list[tuple[str, FileEntry | None]]:
        return [
            (rel, e)
            for rel, e in self.below(path, recursive=recursive)
            if fnmatch.fnmatch(posixpath.basename(rel).lower(), pattern.lower())
        ]


def _hive(path: str) -> str:
    return path.replace("/", "\\").rstrip("\\")


class FakeRegistry:
    """Registry keys ``{path: {value name: (data, type)}}``; sub-keys are implied by paths."""

    def __init__(self, keys: dict[str, dict[str, tuple[str, str]]]) -> None:
        self.keys: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {}
        for path, values in keys.items():
            self.ensure(path)
            self.keys[_hive(path).lower()][1].update(values)

    def ensure(self, path: str) -> dict[str, tuple[str, str]]:
        """The values of a key, creating it and its parents when missing."""
        norm = _hive(path)
        parts = norm.split("\\")
        for i in range(1, len(parts) + 1):
            sub = "\\".join(parts[:i])
            self.keys.setdefault(sub.lower(), (sub, {}))
        return self.keys[norm.lower()][1]

    def get(self, path: str) -> dict[str, tuple[str, str]] | None:
        found = self.keys.get(_hive(path).lower())
        return None if found is None else found[1]

    def subkeys(self, path: str) -> list[str]:
        prefix = _hive(path).lower() + "\\"
        return sorted(
            display.split("\\")[-1]
            for k, (display, _) in self.keys.items()
            if k.startswith(prefix) and "\\" not in k[len(prefix) :]
        )

    def delete_key(self, path: str) -> None:
        k = _hive(path).lower()
        for sub in [s for s in self.keys if s == k or s.startswith(k + "\\")]:
            del self.keys[sub]
