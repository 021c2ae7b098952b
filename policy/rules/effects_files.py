"""File effects (issue 18): what deletes, moves, copies, writes and reads which path.

One table per world — PowerShell cmdlets, cmd built-ins and file programs (`xcopy`,
`robocopy`, `icacls` …) here, .NET and COM in `effects_file_calls` — so the judge sees the
same `DELETE` of `C:\\Windows\\System32\\hal.dll` however it was spelled. A cmdlet whose
path is in the registry hands over to `effects_registry`; one whose path lives only in the
session (`env:`, `variable:`) has no effect on the machine.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Collection, Mapping, Sequence

from policy.rules.effects_common import (
    PERMISSIONS,
    RECURSIVE,
    ZONE_MARK,
    Argv,
    Bound,
    Effects,
    Handler,
    argv_of,
    bind,
    display,
    effect,
    first,
    has_wildcard,
    is_on,
    is_registry_path,
    is_session_path,
    landed,
    link_made,
    lower,
    names_zone_stream,
    targets,
    unquote,
)
from policy.rules.effects_git import git_effects
from policy.rules.effects_linux import unix_tool_effects
from policy.rules.effects_registry import registry_cmdlet
from policy.rules.effects_security import trust_store_item, weakening, wsman_setting
from policy.rules.paths import candidate_paths
from policy.rules.place_table import PlaceCategory
from policy.rules.places import places_of
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

K = EffectKind
_PATHS = ("path", "literalpath")


def renamed(source: Value, new_name: Value) -> Value:
    """Where a rename puts `source`: `new_name` in the same folder (a full path stays as written)."""
    if new_name is None or source is None or "\\" in new_name or "/" in new_name:
        return new_name
    parent = ntpath.dirname(source.rstrip("\\/"))
    return ntpath.join(parent, new_name) if parent else new_name


def _machine_paths(bound: Bound, names: tuple[str, ...] = _PATHS) -> list[Value]:
    return [p for p in targets(bound, *names) if not is_session_path(p)]


# ---------------------------------------------------------------------------------------
# PowerShell cmdlets


def _remove_item(op: Operation) -> Effects:
    bound = bind(op, ("path",))
    recurse = is_on(bound, "recurse")
    paths = targets(bound, *_PATHS)
    if not paths:
        # Nothing named: the items come down the pipeline (`pipeline_effects` names them).
        paths = [None]
    out: list[Effect] = []
    for path in paths:
        if is_session_path(path):
            continue
        if trust_store_item(path):  # a root every TLS connection and signature checks against (S-RULE-137)
            out.append(weakening("certificate-store", path, display(op.name)))
        elif is_registry_path(path):
            out += registry_cmdlet(op, path, bound)
        elif "stream" in bound:
            # `-Stream X` removes a data stream of each file, not the file (S-RULE-196).
            out.append(_stream_written(bound, path, "Remove-Item -Stream"))
        else:
            kind = K.DELETE_RECURSIVE if recurse else K.DELETE
            out.append(effect(kind, path, "Remove-Item -Recurse" if recurse else "Remove-Item"))
    return tuple(out)


def _stream_written(bound: Bound, path: Value, detail: str) -> Effect:
    """A write of the `-Stream` of `path`: one that may be the Mark of the Web (`Zone.Identifier`) is marked."""
    return effect(K.WRITE, path, detail, extra=ZONE_MARK if names_zone_stream(first(bound, "stream")) else ())


def _move_or_copy(op: Operation) -> Effects:
    bound = bind(op, ("path", "destination"))
    moving = op.name == "move-item"
    destination = first(bound, "destination")
    into_folder = "destination" in bound and not is_registry_path(destination) and not is_session_path(destination)
    # `-Include`/`-Exclude`/`-Filter` pick items by a pattern: their names are not known (S-RULE-147).
    picked = any(name in bound for name in ("include", "exclude", "filter"))
    out: list[Effect] = []
    into: list[Effect] = []
    for source in _machine_paths(bound) or [None]:
        if moving and trust_store_item(source):  # S-RULE-137, as Remove-Item
            out.append(weakening("certificate-store", source, display(op.name)))
            continue
        if is_registry_path(source) or is_registry_path(destination):
            out += registry_cmdlet(op, source, bound)
            continue
        recursive = is_on(bound, "recurse")
        detail = display(op.name) + (" -Recurse" if recursive else "")
        extra = RECURSIVE if recursive and not moving else ()
        out.append(effect(K.MOVE if moving else K.READ, source, detail, extra=extra))
        if into_folder:  # a folder moves whole; a copy takes what is below it only with -Recurse
            into += landed(source, destination, detail + " into a folder", tree=moving or recursive, contents=picked)
            if moving or recursive:  # or, where the destination does not exist yet, the folder becomes it
                into += renamed_into(destination, detail)
    if into_folder:
        out.append(effect(K.WRITE, destination, display(op.name) + " destination"))
    return (*out, *into)


# Folders every Windows profile and system has: a folder copied or moved to one of these lands inside it, never
# as it (`C:\Users\me\Documents`, `%APPDATA%`, `C:\Windows\System32`, a drive's root).
_ALWAYS_THERE = re.compile(
    r"[a-z]:(?:\\(?:users(?:\\[^\\]+(?:\\(?:documents|desktop|downloads|pictures|music|videos|onedrive|favorites"
    r"|links|contacts|saved games|searches|appdata(?:\\(?:roaming|local|locallow))?))?)?|windows(?:\\system32)?"
    r"|program files(?: \(x86\))?|programdata))?",
)


def renamed_into(destination: Value, detail: str) -> Effects:
    """A folder copied or moved whole to a destination that does not exist yet becomes it: its items land directly
    in the destination (`Copy-Item C:\\t\\kit -Recurse ~\\.ssh` with no `.ssh` yet: `kit\\authorized_keys` is
    `~\\.ssh\\authorized_keys`; S-RULE-147). Their names are not known: `<destination>\\*`, one level. Not for the
    folders every machine has (`_ALWAYS_THERE`): a copy to those lands inside them, which `landed` judges."""
    readings = candidate_paths(destination) if destination is not None else ()
    if not readings or any(_ALWAYS_THERE.fullmatch(r.rstrip("\\")) for r in readings):
        return ()
    return landed(None, destination, detail + " as the new folder", tree=False)


def _saved_package(op: Operation, shown: str) -> Effects:
    """`Save-Module -Name X -Path P` writes the folder `P\\X` (a module in `~\\Documents\\…\\Modules` loads by
    itself; S-RULE-148): each name lands in the folder, a name not constant as any name."""
    bound = bind(op, ("name", "path"))
    out: list[Effect] = []
    for folder in targets(bound, "path", "literalpath"):
        out.append(effect(K.WRITE, folder, shown))
        for name in targets(bound, "name") or [None]:
            out += landed(name, folder, shown + " into a folder", tree=True)
    return tuple(out)


def _rename_item(op: Operation) -> Effects:
    bound = bind(op, ("path", "newname"))
    out: list[Effect] = []
    for source in _machine_paths(bound) or [None]:
        if is_registry_path(source):
            out += registry_cmdlet(op, source, bound)
            continue
        out.append(effect(K.MOVE, source, "Rename-Item"))
        out.append(effect(K.WRITE, renamed(source, first(bound, "newname")), "Rename-Item destination"))
    return tuple(out)


def _writer(positional: tuple[str, ...], names: tuple[str, ...] = _PATHS) -> Handler:
    """A cmdlet that creates or overwrites the file(s) named by `names`."""

    def handle(op: Operation) -> Effects:
        bound = bind(op, positional)
        out: list[Effect] = []
        for path in _machine_paths(bound, names):
            if is_registry_path(path):
                out += registry_cmdlet(op, path, bound)
            elif "stream" in bound:  # `Set-Content x -Stream Zone.Identifier` (S-RULE-196)
                out.append(_stream_written(bound, path, display(op.name) + " -Stream"))
            else:
                out.append(effect(K.WRITE, path, display(op.name)))
        return tuple(out)

    return handle


def _reader(positional: tuple[str, ...], names: tuple[str, ...] = _PATHS) -> Handler:
    """A read-only cmdlet: READ of each path it names, nothing else (issue 18 §6)."""

    def handle(op: Operation) -> Effects:
        bound = bind(op, positional)
        # The registry provider shows each key's values: `Get-ChildItem -Recurse` of a key reads the keys
        # under it (S-RULE-107). Of a folder it lists names only.
        deep = op.name == "get-childitem" and ("recurse" in bound or "depth" in bound)
        return tuple(
            effect(K.READ, p, display(op.name), extra=RECURSIVE if deep and is_registry_path(p) else ())
            for p in _machine_paths(bound, names)
        )

    return handle


def _exists(op: Operation) -> Effects:
    # `Test-Path` says whether a path exists and reads nothing in it: no effect, so it stays the safe
    # way to ask about a credential store, as that refusal's remedy says (remedies never point at harm).
    return ()


_LINK_TYPES = frozenset({"junction", "symboliclink", "hardlink"})


def _new_item(op: Operation) -> Effects:
    bound = bind(op, ("path",))
    name = first(bound, "name")
    given = targets(bound, *_PATHS)
    if given and all(is_session_path(p) for p in given):
        return ()  # `New-Item -Path env: -Name X`: a variable of this session, no file
    paths = _machine_paths(bound) or ([None] if name is not None or "name" in bound else [])
    item_type = lower(first(bound, "itemtype"))
    out: list[Effect] = []
    for path in paths:
        full = ntpath.join(path, name) if path is not None and name is not None else (path or name)
        if is_registry_path(path):
            out += registry_cmdlet(op, full, bound)
        elif item_type in _LINK_TYPES or ("itemtype" in bound and first(bound, "itemtype") is None):
            folder = item_type != "hardlink"  # a symbolic link may lead to a folder; a junction always does
            out.append(link_made(full, first(bound, "value"), f"New-Item -ItemType {item_type or '?'}", folder=folder))
        elif not is_session_path(full):
            out.append(effect(K.WRITE, full, "New-Item"))
    return tuple(out)


def _clear_recycle_bin(op: Operation) -> Effects:
    # Emptying the Recycle Bin deletes for good what the user may still want back.
    drives = [lower(d).rstrip(":\\")[:1] for d in targets(bind(op, ("driveletter",)), "driveletter") if d]
    return tuple(effect(K.DELETE_RECURSIVE, f"{d or 'c'}:\\$Recycle.Bin", "Clear-RecycleBin") for d in drives or ["c"])


def _item_property(op: Operation) -> Effects:
    """`*-ItemProperty` and `Set-Item`/`Clear-Item`: registry values, or attributes of a file."""
    bound = bind(op, ("path", "name", "value"))
    given = targets(bound, *_PATHS)
    if given and all(is_session_path(p) for p in given):
        return ()  # `Set-Item env:X`: this session only
    if op.name == "set-item" and any(lower(p).startswith("wsman:") for p in given):
        return tuple(e for p in given for e in wsman_setting(p))  # WinRM's settings, not a file
    paths = _machine_paths(bound) or [None]
    out: list[Effect] = []
    for path in paths:
        if path is None or is_registry_path(path):
            out += registry_cmdlet(op, path, bound)
        elif not is_session_path(path) and not op.name.startswith("get-"):
            out.append(effect(K.WRITE, path, display(op.name)))
        elif op.name.startswith("get-"):
            out.append(effect(K.READ, path, display(op.name)))
    return tuple(out)


def _archive(op: Operation) -> Effects:
    bound = bind(op, ("path", "destinationpath"))
    out = [effect(K.READ, p, display(op.name), extra=RECURSIVE) for p in _machine_paths(bound)]
    if "destinationpath" in bound:
        unpacked = RECURSIVE if op.name == "expand-archive" else ()  # the archive's files land anywhere under it
        out.append(effect(K.WRITE, first(bound, "destinationpath"), display(op.name) + " destination", extra=unpacked))
    return tuple(out)


def _unblock_file(op: Operation) -> Effects:
    # It deletes each file's `Zone.Identifier` stream (S-RULE-196); files piped in (`gci | Unblock-File`) are not named.
    bound = bind(op, ("path",))
    return tuple(effect(K.WRITE, p, "Unblock-File", extra=ZONE_MARK) for p in _machine_paths(bound) or [None])


def _streams(op: Operation) -> Effects:
    # Sysinternals' `streams -d` deletes every alternate data stream of the files it names, the Mark of the Web with
    # them (`-s`: of every file under a folder); without `-d` it only lists them.
    argv = argv_of(op)
    if not argv.flag("d"):
        return ()
    extra = (*ZONE_MARK, *RECURSIVE) if argv.flag("s") else ZONE_MARK
    return tuple(effect(K.WRITE, p, "streams -d", extra=extra) for p in argv.positionals() or [None])


def _set_acl(op: Operation) -> Effects:
    bound = bind(op, ("path", "aclobject"))
    return tuple(effect(K.WRITE, p, "Set-Acl", extra=PERMISSIONS) for p in _machine_paths(bound) or [None])


def _transcript(op: Operation) -> Effects:
    bound = bind(op, ("path",))
    return tuple(
        effect(K.WRITE, p, "Start-Transcript") for p in targets(bound, "path", "literalpath", "outputdirectory")
    )


FILE_CMDLETS: Mapping[str, Handler] = {
    "remove-item": _remove_item,
    "move-item": _move_or_copy,
    "copy-item": _move_or_copy,
    "rename-item": _rename_item,
    "save-module": lambda op: _saved_package(op, "Save-Module"),
    "save-script": lambda op: _saved_package(op, "Save-Script"),
    "save-psresource": lambda op: _saved_package(op, "Save-PSResource"),
    "clear-content": _writer(("path",)),
    "set-content": _writer(("path", "value")),
    "add-content": _writer(("path", "value")),
    "out-file": _writer(("filepath",), ("filepath", "literalpath")),
    "tee-object": _writer(("filepath",), ("filepath", "literalpath")),
    "export-csv": _writer(("path",)),
    "export-clixml": _writer(("path",)),
    "unblock-file": _unblock_file,
    "new-item": _new_item,
    "set-itemproperty": _item_property,
    "new-itemproperty": _item_property,
    "remove-itemproperty": _item_property,
    "rename-itemproperty": _item_property,
    "clear-itemproperty": _item_property,
    "copy-itemproperty": _item_property,
    "move-itemproperty": _item_property,
    "get-itemproperty": _item_property,
    "get-itempropertyvalue": _item_property,
    "set-item": _item_property,
    "clear-recyclebin": _clear_recycle_bin,
    "clear-item": _item_property,
    "set-acl": _set_acl,
    "start-transcript": _transcript,
    "compress-archive": _archive,
    "expand-archive": _archive,
    "get-content": _reader(("path",)),
    "get-childitem": _reader(("path",)),
    "get-item": _reader(("path",)),
    "test-path": _exists,
    "select-string": _reader(("pattern", "path")),
    "get-acl": _reader(("path",)),
    "resolve-path": _reader(("path",)),
    "import-csv": _reader(("path",)),
    "import-clixml": _reader(("path",)),
    "get-filehash": _reader(("path",)),
    "format-hex": _reader(("path",)),
}


# ---------------------------------------------------------------------------------------
# cmd built-ins


def _cmd_delete(op: Operation) -> Effects:
    argv = argv_of(op)
    recursive = argv.flag("s")
    kind = K.DELETE_RECURSIVE if recursive else K.DELETE
    detail = f"{op.name} /s" if recursive else op.name
    return tuple(effect(kind, p, detail) for p in argv.positionals() or [None])


def _cmd_move(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    if not words:
        return (effect(K.MOVE, None, op.name),)
    sources, destination = (words[:-1], words[-1]) if len(words) > 1 else (words, None)
    out = [effect(K.MOVE, s, op.name) for s in sources]
    if len(words) > 1:
        out.append(effect(K.WRITE, destination, op.name + " destination"))
    for source in sources:  # a folder moves whole (S-RULE-147)
        out += landed(source, destination, op.name + " into a folder", tree=True)
    return tuple(out) + (renamed_into(destination, op.name) if len(sources) == 1 else ())


def _cmd_rename(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    source = words[0] if words else None
    out = [effect(K.MOVE, source, op.name)]
    if len(words) > 1:
        out.append(effect(K.WRITE, renamed(source, words[1]), op.name + " destination"))
    return tuple(out)


def _cmd_copy(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    sources, destination = (words[:-1], words[-1]) if len(words) > 1 else (words, None)
    out: list[Effect] = []
    into: list[Effect] = []
    for source in sources:
        # `copy a+b c` concatenates: every part is read.
        for part in [None] if source is None else source.split("+"):
            out.append(effect(K.READ, part, op.name))
            into += landed(part, destination, op.name + " into a folder", tree=False)  # files only (S-RULE-147)
    if len(words) > 1:
        out.append(effect(K.WRITE, destination, op.name + " destination"))
    return (*out, *into)


def _cmd_mklink(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    link = words[0] if words else None
    link_target = words[1] if len(words) > 1 else None
    kind = "junction" if argv.flag("j") else "hardlink" if argv.flag("h") else "symboliclink"
    return (link_made(link, link_target, f"mklink ({kind})", folder=argv.flag("j", "d")),)


def _cmd_read(op: Operation) -> Effects:
    return tuple(effect(K.READ, p, op.name) for p in argv_of(op).positionals())


def _cmd_mkdir(op: Operation) -> Effects:
    return tuple(effect(K.WRITE, p, op.name) for p in argv_of(op).positionals())


def _cmd_assoc(op: Operation) -> Effects:
    """`assoc .ext=type` / `ftype type=command`: file associations, in HKCR (a handler hijack point)."""
    out: list[Effect] = []
    for word in argv_of(op).positionals():
        if word is None or "=" not in word:
            continue
        name, _, data = word.partition("=")
        key = f"HKCR\\{name.strip()}" + ("\\shell\\open\\command" if op.name == "ftype" else "")
        out.append(effect(K.REGISTRY_SET, key, op.name, value_name="", data=data))
    return tuple(out)


CMD_BUILTINS: Mapping[str, Handler] = {
    "del": _cmd_delete,
    "erase": _cmd_delete,
    "rd": _cmd_delete,
    "rmdir": _cmd_delete,
    "move": _cmd_move,
    "ren": _cmd_rename,
    "rename": _cmd_rename,
    "copy": _cmd_copy,
    "mklink": _cmd_mklink,
    "type": _cmd_read,
    "dir": _cmd_read,
    "md": _cmd_mkdir,
    "mkdir": _cmd_mkdir,
    "assoc": _cmd_assoc,
    "ftype": _cmd_assoc,
}


# ---------------------------------------------------------------------------------------
# File programs


def _copy_program(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    source = words[0] if words else None
    destination = words[1] if len(words) > 1 else None
    out: list[Effect] = []
    if op.name == "robocopy" and argv.flag("move", "mov"):
        out.append(effect(K.MOVE, source, "robocopy /move"))
    else:  # xcopy and robocopy copy a folder's files even without /E
        out.append(effect(K.READ, source, op.name, extra=RECURSIVE))
    if len(words) > 1:
        out.append(effect(K.WRITE, destination, op.name + " destination"))
        if op.name == "robocopy" and argv.flag("mir", "purge"):
            # /mir and /purge delete whatever the destination has that the source lacks.
            flag = "/mir" if argv.flag("mir") else "/purge"
            out.append(effect(K.DELETE_RECURSIVE, destination, f"robocopy {flag}"))
        out += _copied_into(op.name, argv, words)
    return tuple(out)


def _robocopy_files(words: tuple[Value, ...] | list[Value]) -> list[Value]:
    """robocopy's file arguments: the words right after the source and the destination, up to its first option
    (`robocopy a b *.txt /s /XF x.tmp`: `x.tmp` is a name `/XF` excludes, not a file copied)."""
    files: list[Value] = []
    seen = 0
    for word in words:
        if word is not None and word.startswith("/"):
            if seen >= 2:
                break
            continue
        seen += 1
        if seen > 2:
            files.append(word)
    return files


def _copied_into(name: str, argv: Argv, words: list[Value]) -> Effects:
    """What robocopy and xcopy put into their destination folder (S-RULE-147): the source folder's files (robocopy:
    those its file arguments name, `*` without any; xcopy: those its source's wildcard matches, else every one),
    and with `/s`, `/e`, `/mir` or robocopy's `/move` every folder below them too."""
    tree = argv.flag("s", "e", "mir") or (name == "robocopy" and argv.flag("move"))
    detail = f"{name} into a folder" + (" (with subfolders)" if tree else "")
    source, destination = words[0], words[1]
    if name == "robocopy":
        files = _robocopy_files(argv.words) or ["*"]
        return tuple(e for f in files for e in landed(f, destination, detail, tree=tree))
    contents = not has_wildcard(source)
    return landed(source, destination, detail, tree=tree, contents=contents)


_ICACLS_CHANGES = ("grant", "deny", "remove", "setowner", "reset", "setintegritylevel", "inheritance", "substitute")


def _icacls(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals(("grant", "deny", "remove", "setowner", "save", "restore", "setintegritylevel"))
    path = words[0] if words else None
    if argv.flag("save"):
        return (effect(K.READ, path, "icacls /save"), effect(K.WRITE, argv.value("save"), "icacls /save"))
    if argv.flag("restore"):
        return (effect(K.WRITE, path, "icacls /restore", extra=PERMISSIONS),)
    changes = [f for f in _ICACLS_CHANGES if argv.flag(f) or any(w.startswith(f"/{f}") for w in argv.lowered())]
    if changes:
        return (effect(K.WRITE, path, f"icacls /{changes[0]}", extra=PERMISSIONS),)
    return (effect(K.READ, path, "icacls"),) if path is not None else ()


# cacls /?: /G /R /P /D change the ACL, /E edits it in place, /C goes on past errors while changing, and
# /S:sddl replaces it; without them cacls displays the ACL (/T: of every file below, /S: as SDDL, /M /L:
# of mount points, of links). A word that is not constant may be any of these (S-RULE-46).
_CACLS_EDITS = ("e", "g", "r", "p", "d", "c")


def _cacls(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals(("g", "r", "p", "d"))
    path = words[0] if words else None
    replaces = any(w.startswith(("/s:", "-s:")) for w in argv.lowered())
    if argv.flag(*_CACLS_EDITS) or replaces or None in argv.words:
        return (effect(K.WRITE, path, op.name, extra=PERMISSIONS),)
    return (effect(K.READ, path, op.name),) if path is not None else ()


def _takeown(op: Operation) -> Effects:
    argv = argv_of(op)
    recursive = RECURSIVE if argv.flag("r") else ()
    return (effect(K.WRITE, argv.value("f"), "takeown", extra=(*recursive, *PERMISSIONS)),)


def _attrib(op: Operation) -> Effects:
    # `-s -h -r` look like flags to the argv reader; for attrib they are the change itself.
    words = list(argv_of(op).words)
    changes = [w for w in words if w is not None and len(w) == 2 and w[0] in "+-" and w[1].lower() in "rashiopux"]
    paths = [w for w in words if w not in changes and (w is None or not w.startswith("/"))]
    kind = K.WRITE if changes else K.READ
    return tuple(
        effect(kind, p, "attrib " + " ".join(c or "" for c in changes) if changes else "attrib") for p in paths
    )


def _cipher(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("w"):
        return (effect(K.DISK_DESTROY, argv.value("w"), "cipher /w"),)
    if argv.flag("e", "d"):
        return tuple(effect(K.WRITE, p, "cipher /e" if argv.flag("e") else "cipher /d") for p in argv.positionals())
    return ()


def _sdelete(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals(("p",))
    if argv.flag("z", "c"):
        return tuple(effect(K.DISK_DESTROY, p, "sdelete free space") for p in words or [None])
    kind = K.DELETE_RECURSIVE if argv.flag("s", "r") else K.DELETE
    return tuple(effect(kind, p, "sdelete -s" if kind is K.DELETE_RECURSIVE else "sdelete") for p in words or [None])


def _format(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    return tuple(effect(K.DISK_DESTROY, w, "format") for w in words[:1])


def _fsutil(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.lowered()
    raw = argv.positionals()
    if words[:2] == ["usn", "deletejournal"]:
        volume = raw[-1] if len(raw) > 2 else None
        return (effect(K.LOG_CLEAR, volume, "fsutil usn deletejournal"),)
    if words[:2] == ["hardlink", "create"]:
        link = raw[2] if len(raw) > 2 else None
        existing = raw[3] if len(raw) > 3 else None
        return (effect(K.WRITE, link, "fsutil hardlink", extra=(("link_target", existing or ""),)),)
    if words[:1] in (["file"], ["reparsepoint"]) and len(raw) > 2 and words[1] not in ("queryextents", "query"):
        # The file is the first word that is no `name=value` (`setzerodata offset=0 length=9 <file>`).
        target = next((w for w in raw[2:] if w is None or not _FSUTIL_SETTING.match(w)), None)
        return (effect(K.WRITE, target, f"fsutil {words[0]} {words[1]}"),)
    return ()


_FSUTIL_SETTING = re.compile(r"\w+=")


_CREDENTIAL_DATABASES = frozenset({"ntds.dit", "sam", "security", "system"})


def _esentutl(op: Operation) -> Effects:
    argv = argv_of(op)
    if not argv.flag("y"):
        return tuple(effect(K.WRITE, p, "esentutl") for p in argv.positionals())
    source = argv.value("y")
    if source is not None and source.startswith(("/", "-")):
        # `/y /vss C:\…\SAM`: the flags come first, the source is the first word that is not one.
        source = next(iter(argv.positionals(("d",))), None)
    base = ntpath.basename(lower(source).rstrip("\\/"))
    kind = K.CREDENTIAL_ACCESS if base in _CREDENTIAL_DATABASES else K.READ
    out = [effect(kind, source, "esentutl /y" + (" /vss" if argv.flag("vss") else ""))]
    if argv.flag("d"):
        out.append(effect(K.WRITE, argv.value("d"), "esentutl /y destination"))
    return tuple(out)


def _subst(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    if argv.flag("d") or len(words) < 2:
        return ()
    return (effect(K.WRITE, words[0], "subst", extra=(("link_target", words[1] or ""),)),)


def _expand(op: Operation) -> Effects:
    """`expand source… destination` (`-F:files` picks from a cabinet): what it unpacks is written to the
    destination; `-r` with no destination writes beside the source; `-d` only lists (S-RULE-48)."""
    argv = argv_of(op)
    words = argv.positionals()
    if argv.flag("d") or not words:
        return tuple(effect(K.READ, w, op.name) for w in words)
    if len(words) == 1:
        return (effect(K.READ, words[0], op.name),) + (
            (effect(K.WRITE, words[0], op.name + " -r"),) if argv.flag("r") else ()
        )
    unpacked = effect(K.WRITE, words[-1], op.name + " destination", extra=RECURSIVE)
    return (*(effect(K.READ, w, op.name) for w in words[:-1]), unpacked)


def _replace(op: Operation) -> Effects:
    """`replace source [destination] [/a /s …]`: the source file replaces the file of the same name in the
    destination folder (the current one when none is given), in every folder below it with /s; /a adds it
    there instead (S-RULE-48)."""
    words = argv_of(op).positionals()
    source = words[0] if words else None
    if source is None:
        return ()
    name = ntpath.basename(unquote(source).rstrip("\\/"))
    folder = words[1] if len(words) > 1 else None
    if len(words) > 1 and folder is None:
        return (effect(K.READ, source, op.name), effect(K.WRITE, None, op.name + " destination"))
    target = ntpath.join(unquote(folder), name) if folder is not None else name
    return (effect(K.READ, source, op.name), effect(K.WRITE, target, op.name + " destination"))


_TAR_CLUSTER = re.compile(r"-?[A-Za-z]+")


_TAR_CREATES = frozenset("cru")  # create, append, update: the archive named by -f is written


def _tar(op: Operation) -> Effects:
    """`tar -xf a.tar [-C dir]` writes what it unpacks into `dir` (the current folder when none is given)
    (S-RULE-59). Options are bundled letters (`-xvzf`, or a first word without a dash, `xf`); `-f` and `-C`
    take the next word. `tar -cf a.tar …` writes the archive (to another machine's share: an upload, S-RULE-121);
    what an archive is made from is read like any program's arguments (`argument_reads`)."""
    words = list(op.args)
    extract, create, archive, folder = False, False, None, None
    sources: list[Value] = []  # what `-c` archives, each read from the folder `-C` named before it
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word is None:
            sources.append(None)
            continue
        if not word.startswith("-") and i > 1:
            sources.append(word if folder is None or ntpath.isabs(word) else ntpath.join(folder, word))
            continue
        if word in ("--extract", "--get"):
            extract = True
        elif word in ("--create", "--append", "--update"):
            create = True
        elif word.startswith(("--directory=", "--file=")):
            value: Value = word.split("=", 1)[1]
            folder, archive = (value, archive) if word.startswith("--directory") else (folder, value)
        elif word in ("--directory", "--file") and i < len(words):
            folder, archive = (words[i], archive) if word == "--directory" else (folder, words[i])
            i += 1
        elif _TAR_CLUSTER.fullmatch(word) and ((word.startswith("-") and not word.startswith("--")) or i == 1):
            letters = word.lstrip("-")
            extract = extract or "x" in letters
            create = create or not _TAR_CREATES.isdisjoint(letters)
            for letter in (c for c in letters if c in "fC"):
                value = words[i] if i < len(words) else None
                i += 1
                archive, folder = (value, folder) if letter == "f" else (archive, value)
    if create:
        # Each source is archived with everything below it, as Compress-Archive reads it: a store in it counts
        # (S-RULE-162). The archive is written (to a share: sent off); `-f -` writes it to the output.
        read = tuple(effect(K.READ, source, "tar -c", extra=RECURSIVE) for source in sources if source is not None)
        written = (effect(K.WRITE, archive, "tar -c"),) if archive is not None and archive != "-" else ()
        # `--remove-files` deletes every source, and all below it, once archived (S-RULE-183).
        removed = tuple(
            effect(K.DELETE_RECURSIVE, s, "tar --remove-files") for s in sources if "--remove-files" in words
        )
        return read + written + removed
    if not extract:
        return ()
    unpacked = effect(K.WRITE, folder if folder is not None else ".", "tar -x", extra=RECURSIVE)
    return (effect(K.READ, archive, "tar -x"), unpacked)


def _seven_zip(op: Operation) -> Effects:
    """`7z x|e archive [-o<folder>]` unpacks into the folder (the current one without `-o`) (S-RULE-115); what
    `7z a` archives is read like any program's arguments (`argument_reads`)."""
    words = [w for w in op.args if w is not None]
    commands = [w for w in words if not w.startswith("-")]
    if commands and commands[0].lower() == "a" and any(w.lower() == "-sdel" for w in words):
        # `7z a -sdel archive files…` deletes the files, and folders with all below them, once archived (S-RULE-183).
        return tuple(effect(K.DELETE_RECURSIVE, w, op.name + " a -sdel") for w in commands[2:])
    if not commands or commands[0].lower() not in ("x", "e"):
        return ()
    out = next((w[2:].strip('"') for w in words if w[:2].lower() == "-o" and len(w) > 2), ".")
    archive = commands[1] if len(commands) > 1 else None
    return (effect(K.READ, archive, op.name + " x"), effect(K.WRITE, out, op.name + " x", extra=RECURSIVE))


def _unzip(op: Operation) -> Effects:
    """`unzip archive [files] [-d folder]` unpacks into the folder (the current one without `-d`)."""
    words = list(op.args)
    folder: Value = "."
    if "-d" in words and words.index("-d") + 1 < len(words):
        folder = words[words.index("-d") + 1]
    archive = next((w for w in words if w is not None and not w.startswith("-") and w != folder), None)
    return (effect(K.READ, archive, "unzip"), effect(K.WRITE, folder, "unzip", extra=RECURSIVE))


def _findstr(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    # The first word is the search string unless /c: or /g: gave it.
    files = words if argv.flag("c", "g") else words[1:]
    return tuple(effect(K.READ, f, op.name) for f in files)


def _makecab(op: Operation) -> Effects:
    # `makecab SOURCE [DEST]`: DEST is written (a cabinet of SOURCE, or SOURCE itself with /V0 tricks).
    words = argv_of(op).positionals(("d", "f", "l"))
    source = words[0] if words else None
    return (effect(K.READ, source, "makecab"), *(effect(K.WRITE, w, "makecab") for w in words[1:2]))


def _extrac32(op: Operation) -> Effects:
    # `extrac32 /C SOURCE DEST` copies a file (a LOLBin); `/E`, `/L DIR` unpack a cabinet into DIR or here.
    argv = argv_of(op)
    words = argv.positionals(("l",))
    if argv.flag("c"):
        return (effect(K.READ, words[0] if words else None, "extrac32 /c"),) + tuple(
            effect(K.WRITE, w, "extrac32 /c") for w in words[1:2]
        )
    folder = argv.value("l") if argv.flag("l") else "."
    return (effect(K.WRITE, folder, "extrac32", extra=RECURSIVE),)


FILE_PROGRAMS: Mapping[str, Handler] = {
    "git": git_effects,
    "xcopy": _copy_program,
    "robocopy": _copy_program,
    "icacls": _icacls,
    "cacls": _cacls,
    "xcacls": _cacls,
    "takeown": _takeown,
    "attrib": _attrib,
    "cipher": _cipher,
    "sdelete": _sdelete,
    "sdelete64": _sdelete,
    "streams": _streams,
    "streams64": _streams,
    "format": _format,
    "fsutil": _fsutil,
    "esentutl": _esentutl,
    "subst": _subst,
    "findstr": _findstr,
    # Windows' `find` reads files; GNU find (Git for Windows, MSYS2, Cygwin) handed `-delete` deletes (S-RULE-138).
    "find": lambda op: unix_tool_effects("find", op.args) or _findstr(op),
    "expand": _expand,
    "tar": _tar,
    **dict.fromkeys(("7z", "7za", "7zr", "7zz"), _seven_zip),
    "unzip": _unzip,
    "replace": _replace,
    "more": _cmd_read,
    "makecab": _makecab,
    "extrac32": _extrac32,
}


# A program word that names a path: it has a separator or starts with `~`, `%VAR%` or `$env:`.
_PATH_WORD = re.compile(r"[\\/]|^(?:~|%[^%]+%|\$env:)", re.IGNORECASE)
_OPTION_VALUE = re.compile(r"^(?:--?[\w-]+=|/\w+:(?!\\))(.+)$", re.DOTALL)


# `ssh -i key`, `ssh-add`, `ssh-keygen` use a private key without exposing it; WSL's shells read Linux
# paths, which `effects_process.linux_effects` maps onto Windows' drives itself.
_KEY_USERS = frozenset({"ssh", "ssh-add", "ssh-keygen"})
_SECRET_PLACES = frozenset({PlaceCategory.CREDENTIAL_STORE, PlaceCategory.CREDENTIAL_HIVE})
# Copy and shell clients that log in with the key `-i key` (or `-o IdentityFile=key`) names: that key is used,
# not read out; a key among the files they copy (`scp ~\.ssh\id_rsa host:`) is still sent off the machine.
_IDENTITY_USERS = frozenset({"scp", "sftp", "pscp", "psftp", "plink"})
_IDENTITY_OPTION = re.compile(r"identityfile[= ]", re.IGNORECASE)
# Shells take a command line, which the analysers read as commands of their own.
_SHELLS = frozenset({"wsl", "wslhost", "bash", "sh", "cmd", "powershell", "pwsh"})


def _names_secrets(path: str) -> bool:
    return any(place.category in _SECRET_PLACES for reading in candidate_paths(path) for place in places_of(reading))


def _identity_files(name: str, args: Sequence[Value]) -> set[int]:
    """The positions of the keys an `_IDENTITY_USERS` client logs in with (`-i key`, `-o IdentityFile=key`)."""
    if name not in _IDENTITY_USERS:
        return set()
    return {
        index + 1
        for index, (flag, value) in enumerate(zip(args, args[1:], strict=False))
        if flag == "-i" or (flag == "-o" and value is not None and _IDENTITY_OPTION.match(value))
    }


def argument_reads(op: Operation, known: Collection[Value] = ()) -> Effects:
    """READ of every argument of a program that names a credential store (`sqlite3 "…\\Login Data"`).

    Any program may read what it is handed, so this is how `sqlite3`, an archiver, or an
    interpreter handed a browser's password file is caught whatever its name (issue 18 item 3).
    Only words that name a credential store count — the only reads the judge weighs — so the
    catalogue's effects of a program stay exactly what its own table says for every other word.

    Args:
        op: a program operation.
        known: targets the program's own table already gave an effect (not read twice).

    Returns:
        READ effects of those words (`--db=<path>` and `/x:<path>` read as the path).
    """
    name = op.name.replace("^", "")  # `c^md` is cmd (effects_dispatch.program_stem)
    if name in _KEY_USERS or name in _SHELLS:
        return ()
    out: list[Effect] = []
    logs_in_with = _identity_files(name, op.args)
    for index, word in enumerate(op.args):
        if word is None or index in logs_in_with:
            continue
        text = word.strip().strip("'\"")
        option = _OPTION_VALUE.match(text)
        if option is not None:
            text = option.group(1).strip("'\"")
        elif text[:1] in "-/" and not re.search(r"[\\/]", text[1:]):
            continue  # a flag (`/y`, `-rf`); `/mnt/c/x` has a separator after the first one
        if text in known or "://" in text or not _PATH_WORD.search(text) or not _names_secrets(text):
            continue
        out.append(effect(K.READ, text, f"{name} argument"))
    return tuple(out)
