"""FileSystem and Registry over the in-memory fakes (FORMATS §8-§9; S-SIM-09).

Failures are *text* results (``Error: …``, ``Error reading registry: …``) like upstream's; only
changes that happened are logged as events (file_write, file_copy, file_move, file_delete,
registry_set, registry_delete).
"""

from __future__ import annotations

import posixpath

from gateway.sim.calls import Call, Result, Text, lenient_bool
from gateway.sim.files import FakeFS, FileEntry, SandboxError


def human_size(size: int) -> str:
    """``12 B``, ``1.5 KB``, ``3.2 MB`` …"""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover - loop always returns


def _entry_line(rel: str, entry: FileEntry | None) -> str:
    if entry is None:
        return f"  [DIR ] {rel}"
    return f"  [FILE] {rel}  {human_size(len(entry.content))}"


def _read(fs: FakeFS, path: str, offset: int | None, limit: int | None, encoding: str) -> str:
    if fs.is_dir(path):
        return f"Error: Path is a directory: {path}"
    if not fs.is_file(path):
        return f"Error: File not found: {path}"
    try:
        text = fs.files[fs.key(path)].content.decode(encoding)
    except (LookupError, UnicodeDecodeError) as exc:
        return f"Error: Could not decode {path} as {encoding}: {exc}"
    if offset is None and limit is None:
        return f"File: {path}\n{text}"
    lines = text.splitlines(keepends=True)
    start = max(1, offset or 1)
    chosen = lines[start - 1 : (start - 1 + limit) if limit is not None else None]
    end = start + len(chosen) - 1
    return f"File: {path}\nLines {start}-{end} of {len(lines)}:\n" + "".join(chosen)


def _info(fs: FakeFS, path: str) -> str:
    if fs.is_dir(path):
        times = f"Created: {fs.clock}\nModified: {fs.clock}\nAccessed: {fs.clock}"
        return f"Path: {path}\nType: Directory\n{times}\nRead-only: False"
    if not fs.is_file(path):
        return f"Error: Path not found: {path}"
    entry = fs.files[fs.key(path)]
    ext = posixpath.splitext(path)[1]
    size = len(entry.content)
    return (
        f"Path: {path}\nType: File\nSize: {human_size(size)} ({size} bytes)\nCreated: {entry.created}\n"
        f"Modified: {entry.modified}\nAccessed: {fs.clock}\nRead-only: {entry.read_only}\nExtension: {ext}"
    )


async def filesystem(call: Call) -> Result:
    a = call.args
    fs = call.world.fs
    mode = a["mode"]
    try:
        path = fs.resolve(a["path"])
        dest = fs.resolve(a["destination"]) if a["destination"] else None
    except SandboxError as exc:
        return Text(f"Error: {exc}")
    recursive, overwrite = lenient_bool(a["recursive"]), lenient_bool(a["overwrite"])
    if mode == "read":
        return Text(_read(fs, path, a["offset"], a["limit"], a["encoding"]))
    if mode == "info":
        return Text(_info(fs, path))
    if mode in ("list", "search"):
        if not fs.is_dir(path):
            return Text(f"Error: Directory not found: {path}")
        hidden = lenient_bool(a["show_hidden"])
        if mode == "list":
            items = fs.below(path, recursive=recursive)
        else:
            items = fs.search(path, a["pattern"] or "*", recursive=recursive)
        items = [(rel, e) for rel, e in items if hidden or not posixpath.basename(rel).startswith(".")]
        body = "".join("\n" + _entry_line(rel, e) for rel, e in items)
        if mode == "list":
            return Text(f"Directory: {path}" + (body or "\n  (empty)"))
        return Text(f'Search: "{a["pattern"] or "*"}" in {path} ({len(items)} matches){body}')
    if mode == "write":
        if a["content"] is None:
            return Text("Error: content is required for write mode.")
        if fs.is_dir(path):
            return Text(f"Error: Path is a directory: {path}")
        data = a["content"].encode(a["encoding"])
        append = lenient_bool(a["append"])
        fs.write(path, data, append=append)
        call.effect("file_write", None, path=path, bytes=len(data), append=append)
        return Text(f"{'Appended to' if append else 'Written to'} {path} ({len(data)} bytes)")
    if mode == "delete":
        if not fs.exists(path):
            return Text(f"Error: Path not found: {path}")
        is_dir = fs.is_dir(path)
        if is_dir and fs.below(path, recursive=False) and not recursive:
            return Text(f"Error: Directory is not empty: {path}. Set recursive=True to delete it.")
        fs.remove(path)
        call.effect("file_delete", None, path=path)
        return Text(f"Deleted {'directory' if is_dir else 'file'}: {path}")
    # copy / move
    if dest is None:
        return Text(f"Error: destination is required for {mode} mode.")
    if not fs.exists(path):
        return Text(f"Error: Source not found: {path}")
    if fs.exists(dest) and not overwrite:
        return Text(f"Error: Destination already exists: {dest}. Set overwrite=True to replace it.")
    is_dir = fs.is_dir(path)
    if fs.exists(dest):
        fs.remove(dest)
    fs.copy(path, dest)
    if mode == "move":
        fs.remove(path)
        call.effect("file_move", None, path=path, destination=dest)
        return Text(f"Moved: {path} -> {dest}")
    call.effect("file_copy", None, path=path, destination=dest)
    return Text(f"Copied {'directory' if is_dir else 'file'}: {path} -> {dest}")


def _missing(path: str) -> str:
    return f"Cannot find path '{path}' because it does not exist."


async def registry(call: Call) -> Result:
    a = call.args
    reg = call.world.registry
    mode, path, name = a["mode"], a["path"], a["name"]
    values = reg.get(path)
    if mode == "get":
        if values is None:
            return Text(f"Error reading registry: {_missing(path)}")
        if name is None or name not in values:
            return Text(f"Error reading registry: Property {name} does not exist at path {path}.")
        return Text(f'Registry value [{path}] "{name}" = {values[name][0]}')
    if mode == "set":
        if name is None:
            return Text("Error writing registry: name is required for set mode.")
        value = a["value"] if a["value"] is not None else ""
        reg.ensure(path)[name] = (value, a["type"])
        call.effect("registry_set", None, path=path, name=name, value=value, type=a["type"])
        return Text(f'Registry value [{path}] "{name}" set to "{value}" (type: {a["type"]}).')
    if mode == "delete":
        if values is None:
            return Text(f"Error deleting registry: {_missing(path)}")
        if name is None:
            reg.delete_key(path)
            call.effect("registry_delete", None, path=path, name=None)
            return Text(f"Registry key [{path}] deleted.")
        if name not in values:
            return Text(f"Error deleting registry: Property {name} does not exist at path {path}.")
        del values[name]
        call.effect("registry_delete", None, path=path, name=name)
        return Text(f'Registry value [{path}] "{name}" deleted.')
    if values is None:
        return Text(f"Error listing registry: {_missing(path)}")
    listed = "\r\n".join(f"{n} : {v[0]}" for n, v in values.items())
    return Text(f"Registry key [{path}]:\nValues:\r\n{listed}\r\n\r\nSub-Keys:\r\n" + "\r\n".join(reg.subkeys(path)))
