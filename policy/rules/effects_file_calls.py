""".NET and COM file effects (issue 18): `[IO.File]`, `[IO.Directory]`, VisualBasic, FileSystemObject.

Arguments are the call's own, in order (`[IO.File]::Move(source, destination)`). Names are
keyed without a leading `system.`; `FILE_METHODS` holds the methods that mean the same on an
object the analyser could not type (`$x.Delete()`, `$fso.DeleteFolder(…)`, Shell.Application
`InvokeVerb('delete')`), whose object `effects_pipeline` may name from earlier operations.
"""

from __future__ import annotations

from collections.abc import Mapping

from policy.rules.effects_common import (
    METADATA,
    RECURSIVE,
    Effects,
    Handler,
    effect,
    has_wildcard,
    is_true,
    landed,
    link_made,
    lower,
    unquote,
)
from policy.rules.effects_files import renamed
from policy.rules.shell.ops import EffectKind, Operation, Value
from policy.rules.shell.ps_names import FILE_PROPERTIES

K = EffectKind


def _arg(op: Operation, index: int) -> Value:
    return op.args[index] if index < len(op.args) else None


def _one(kind: EffectKind, detail: str) -> Handler:
    return lambda op: (effect(kind, _arg(op, 0), detail),)


def _two(first_kind: EffectKind, detail: str) -> Handler:
    """A (source, destination) call: `first_kind` of the source, WRITE of the destination."""
    return lambda op: (effect(first_kind, _arg(op, 0), detail), effect(K.WRITE, _arg(op, 1), detail + " destination"))


def _fso_two(first_kind: EffectKind, detail: str, *, tree: bool) -> Handler:
    """FileSystemObject's CopyFile/CopyFolder/MoveFile/MoveFolder: as `_two`, and with a destination that ends in
    `\\` (an existing folder) or a wildcard source, the items go into that folder under their names (S-RULE-147)."""
    pair = _two(first_kind, detail)

    def handle(op: Operation) -> Effects:
        source, destination = _arg(op, 0), _arg(op, 1)
        into_folder = unquote(destination).endswith(("\\", "/")) or has_wildcard(source)
        return pair(op) + (landed(source, destination, detail + " into a folder", tree=tree) if into_folder else ())

    return handle


def _receiver_to(first_kind: EffectKind, detail: str) -> Handler:
    """An object's own move or copy: `first_kind` of the object (unknown here), WRITE of the one argument."""
    return lambda op: (effect(first_kind, None, detail), effect(K.WRITE, _arg(op, 0), detail + " destination"))


def _link(detail: str, *, folder: bool) -> Handler:
    return lambda op: (link_made(_arg(op, 0), _arg(op, 1), detail, folder=folder),)


def _directory_delete(op: Operation) -> Effects:
    # Delete(path, recursive): recursive when the flag is true or not constant.
    recursive = len(op.args) > 1 and (op.args[1] is None or is_true(op.args[1]))
    kind = K.DELETE_RECURSIVE if recursive else K.DELETE
    return (effect(kind, _arg(op, 0), "[IO.Directory]::Delete" + (" recursive" if recursive else "")),)


def _vb_delete_directory(op: Operation) -> Effects:
    # DeleteDirectory(path, DeleteDirectoryOption | UIOption …): only ThrowIfDirectoryNonEmpty keeps contents.
    keeps = "throwifdirectorynonempty" in lower(_arg(op, 1))
    kind = K.DELETE if keeps else K.DELETE_RECURSIVE
    return (effect(kind, _arg(op, 0), "VisualBasic FileSystem.DeleteDirectory"),)


def _vb_rename(op: Operation) -> Effects:
    source = _arg(op, 0)
    return (
        effect(K.MOVE, source, "VisualBasic rename"),
        effect(K.WRITE, renamed(source, _arg(op, 1)), "VisualBasic rename"),
    )


def _file_replace(op: Operation) -> Effects:
    out = [effect(K.MOVE, _arg(op, 0), "[IO.File]::Replace"), effect(K.WRITE, _arg(op, 1), "[IO.File]::Replace")]
    if len(op.args) > 2 and (op.args[2] is None or lower(op.args[2]) not in ("", "$null", "null")):
        out.append(effect(K.WRITE, op.args[2], "[IO.File]::Replace backup"))  # None: where is not known
    return tuple(out)


# FileMode values that make or empty the file (CreateNew 1, Create 2, OpenOrCreate 4, Truncate 5, Append 6),
# and FileAccess values that write (Write 2, ReadWrite 3).
_WRITING_MODES = ("create", "truncate", "append", "1", "2", "4", "5", "6")
_WRITING_ACCESS = ("write", "2", "3")


def opens_for_writing(args: tuple[Value, ...]) -> bool:
    """Whether `(path, FileMode[, FileAccess])` opens the file for writing: a mode that creates, empties or
    appends, an access that writes, or either of them not constant (stop 24: `Open(p, 'Open', 'Write')`)."""
    if len(args) < 2 or args[1] is None or (len(args) > 2 and args[2] is None):
        return True
    mode, access = lower(args[1]), lower(args[2]) if len(args) > 2 else ""
    return (
        any(m in mode for m in _WRITING_MODES if not m.isdigit())
        or mode.strip() in _WRITING_MODES
        or any(a in access for a in _WRITING_ACCESS if not a.isdigit())
        or access.strip() in _WRITING_ACCESS
    )


def _file_open(op: Operation) -> Effects:
    writes = opens_for_writing(op.args)
    return (effect(K.WRITE if writes else K.READ, _arg(op, 0), "[IO.File]::Open"),)


def _file_stream(op: Operation) -> Effects:
    # `[IO.FileStream]::new(path, mode, access)` opens like `[IO.File]::Open`.
    writes = opens_for_writing(op.args)
    return (effect(K.WRITE if writes else K.READ, _arg(op, 0), "[IO.FileStream]::new"),)


def _stream_writer(op: Operation) -> Effects:
    # `[IO.StreamWriter]::new(path[, append])` creates or empties the file (appends with $true): a write of
    # it (S-RULE-59). Its first argument may be a stream instead of a path: one not constant is not judged.
    return (effect(K.WRITE, op.args[0], "[IO.StreamWriter]::new"),) if op.args and op.args[0] is not None else ()


def _stream_reader(op: Operation) -> Effects:
    return (effect(K.READ, op.args[0], "[IO.StreamReader]::new"),) if op.args and op.args[0] is not None else ()


def _fso_open(op: Operation) -> Effects:
    # OpenTextFile(path, iomode): 1 ForReading, 2 ForWriting, 8 ForAppending.
    mode = lower(_arg(op, 1))
    writes = len(op.args) > 1 and (
        op.args[1] is None or mode in ("2", "8") or "forwriting" in mode or "forappending" in mode
    )
    return (effect(K.WRITE if writes else K.READ, _arg(op, 0), "FileSystemObject.OpenTextFile"),)


_IO_FILE_WRITES = (
    "writealltext", "writeallbytes", "writealllines", "appendalltext", "appendalllines", "create", "createtext",
    "appendtext", "openwrite", "setattributes", "encrypt", "decrypt", "setaccesscontrol", "setcreationtime",
    "setlastwritetime", "writealltextasync", "writeallbytesasync", "appendalltextasync",
)  # fmt: skip
_IO_FILE_READS = (
    "readalltext", "readallbytes", "readalllines", "readlines", "openread", "opentext", "readalltextasync",
    "readallbytesasync", "readalllinesasync",
)  # fmt: skip
_IO_DIRECTORY_READS: tuple[str, ...] = (
    "getfiles",
    "enumeratefiles",
    "getdirectories",
    "enumeratedirectories",
    "getfilesystementries",
)
_IO_DIRECTORY_READS += ("enumeratefilesystementries",)
_VB = "microsoft.visualbasic.fileio.filesystem::"
_FSO = "com:scripting.filesystemobject."

FILE_CALLS: Mapping[str, Handler] = {
    "io.file::delete": _one(K.DELETE, "[IO.File]::Delete"),
    "io.file::move": _two(K.MOVE, "[IO.File]::Move"),
    "io.file::copy": _two(K.READ, "[IO.File]::Copy"),
    "io.file::replace": _file_replace,
    "io.file::open": _file_open,
    "io.filestream::new": _file_stream,
    "io.streamwriter::new": _stream_writer,
    "io.streamreader::new": _stream_reader,
    # A zip archive unpacked into a folder writes it; one made from a folder reads it (S-RULE-59).
    "io.compression.zipfile::extracttodirectory": lambda op: (
        effect(K.READ, _arg(op, 0), "[ZipFile]::ExtractToDirectory"),
        effect(K.WRITE, _arg(op, 1), "[ZipFile]::ExtractToDirectory", extra=RECURSIVE),
    ),
    "io.compression.zipfile::createfromdirectory": lambda op: (
        effect(K.READ, _arg(op, 0), "[ZipFile]::CreateFromDirectory"),
        effect(K.WRITE, _arg(op, 1), "[ZipFile]::CreateFromDirectory"),
    ),
    "io.file::createsymboliclink": _link("[IO.File]::CreateSymbolicLink", folder=False),
    **{f"io.file::{m}": _one(K.WRITE, f"[IO.File]::{m}") for m in _IO_FILE_WRITES},
    **{f"io.file::{m}": _one(K.READ, f"[IO.File]::{m}") for m in _IO_FILE_READS},
    "io.directory::delete": _directory_delete,
    "io.directory::move": _two(K.MOVE, "[IO.Directory]::Move"),
    "io.directory::createdirectory": _one(K.WRITE, "[IO.Directory]::CreateDirectory"),
    "io.directory::createsymboliclink": _link("[IO.Directory]::CreateSymbolicLink", folder=True),
    **{f"io.directory::{m}": _one(K.READ, f"[IO.Directory]::{m}") for m in _IO_DIRECTORY_READS},
    _VB + "deletedirectory": _vb_delete_directory,
    _VB + "deletefile": _one(K.DELETE, "VisualBasic FileSystem.DeleteFile"),
    _VB + "movedirectory": _two(K.MOVE, "VisualBasic FileSystem.MoveDirectory"),
    _VB + "movefile": _two(K.MOVE, "VisualBasic FileSystem.MoveFile"),
    _VB + "renamefile": _vb_rename,
    _VB + "renamedirectory": _vb_rename,
    _VB + "copydirectory": _two(K.READ, "VisualBasic FileSystem.CopyDirectory"),
    _VB + "copyfile": _two(K.READ, "VisualBasic FileSystem.CopyFile"),
    _VB + "writealltext": _one(K.WRITE, "VisualBasic FileSystem.WriteAllText"),
    _VB + "writeallbytes": _one(K.WRITE, "VisualBasic FileSystem.WriteAllBytes"),
    _VB + "readalltext": _one(K.READ, "VisualBasic FileSystem.ReadAllText"),
    _VB + "readallbytes": _one(K.READ, "VisualBasic FileSystem.ReadAllBytes"),
    # Scripting.FileSystemObject: DeleteFolder removes the folder with everything in it.
    _FSO + "deletefolder": _one(K.DELETE_RECURSIVE, "FileSystemObject.DeleteFolder"),
    _FSO + "deletefile": _one(K.DELETE, "FileSystemObject.DeleteFile"),
    _FSO + "movefolder": _fso_two(K.MOVE, "FileSystemObject.MoveFolder", tree=True),
    _FSO + "movefile": _fso_two(K.MOVE, "FileSystemObject.MoveFile", tree=False),
    _FSO + "copyfile": _fso_two(K.READ, "FileSystemObject.CopyFile", tree=False),
    _FSO + "copyfolder": _fso_two(K.READ, "FileSystemObject.CopyFolder", tree=True),
    _FSO + "createtextfile": _one(K.WRITE, "FileSystemObject.CreateTextFile"),
    _FSO + "createfolder": _one(K.WRITE, "FileSystemObject.CreateFolder"),
    _FSO + "opentextfile": _fso_open,
    "com:adodb.stream.savetofile": _one(K.WRITE, "ADODB.Stream.SaveToFile"),
    "com:adodb.stream.loadfromfile": _one(K.READ, "ADODB.Stream.LoadFromFile"),
    "com:wscript.shell.createshortcut": _one(K.WRITE, "WScript.Shell.CreateShortcut"),
}


def _unknown_delete(op: Operation) -> Effects:
    # `$x.Delete()` on an object the analyser could not type: the target is unknown; a true
    # first argument (`DirectoryInfo.Delete($true)`) makes it recursive.
    method = op.name.rsplit(".", 1)[-1]
    first_arg = _arg(op, 0)
    if method == "delete":
        recursive = bool(op.args) and (first_arg is None or is_true(first_arg))
        return (effect(K.DELETE_RECURSIVE if recursive else K.DELETE, None, f".{method}()"),)
    path = None if first_arg is None or is_true(first_arg) or lower(first_arg) in ("$false", "false") else first_arg
    kind = K.DELETE_RECURSIVE if method in ("deletefolder", "deletedirectory") else K.DELETE
    return (effect(kind, path, f".{method}()"),)


def _receiver_written(detail: str) -> Handler:
    """A FileInfo's own write with no argument (`(Get-Item X).AppendText()`): WRITE of the object (unknown here,
    filled in from its maker by `effects_values`). With arguments the name is another type's (a text box's
    `AppendText('line')`, a web client's `OpenWrite(uri)`): no file effect (S-RULE-133)."""
    return lambda op: () if op.args else (effect(K.WRITE, None, detail),)


def _receiver_changed(detail: str) -> Handler:
    """A change of the object itself (`.SetAccessControl(acl)`, a property set): WRITE of it (unknown here)."""
    return lambda op: (effect(K.WRITE, None, detail, extra=METADATA),)


# FileMode names: `.Open(mode[, access])` with one of them first is a FileInfo's (a connection's `Open()` has none).
_FILE_MODES = ("createnew", "create", "open", "openorcreate", "truncate", "append")


def _receiver_open(op: Operation) -> Effects:
    mode = lower(_arg(op, 0)).rsplit(":", 1)[-1].strip(" ]")  # `Open('Create')`, `Open([IO.FileMode]::Create)`
    if mode not in _FILE_MODES:
        return ()
    writes = opens_for_writing((None, *op.args))
    return (effect(K.WRITE if writes else K.READ, None, ".Open()"),)


# Method names that mean the same on any object (`?.deletefolder`, `$fso.MoveFile` untyped).
FILE_METHODS: Mapping[str, Handler] = {
    "delete": _unknown_delete,
    "deletefile": _unknown_delete,
    "deletefolder": _unknown_delete,
    "deletedirectory": _unknown_delete,
    # `(Get-Item X).MoveTo(d)`, `$f.CopyTo(d)` (FileInfo, DirectoryInfo): the object they are called on is
    # the source (filled in from its maker by `effects_values`), the one argument the destination (S-RULE-102).
    "moveto": _receiver_to(K.MOVE, ".MoveTo()"),
    # An array's `CopyTo(array, index)` has the same name: with an unknown destination it asks, as a file's would.
    "copyto": _receiver_to(K.READ, ".CopyTo()"),
    **{m: _receiver_written(f".{m}()") for m in ("appendtext", "createtext", "openwrite", "encrypt", "decrypt")},
    "open": _receiver_open,
    "setaccesscontrol": _receiver_changed(".SetAccessControl()"),
    # `(Get-Item X).Attributes = 'Hidden'`, `.LastWriteTime = …`, `.IsReadOnly = $false` (ps_calls.set_property).
    **{f"set_{p}": _receiver_changed(f".{p} =") for p in FILE_PROPERTIES},
    "movefile": _fso_two(K.MOVE, ".MoveFile()", tree=False),
    "movefolder": _fso_two(K.MOVE, ".MoveFolder()", tree=True),
    "copyfile": _fso_two(K.READ, ".CopyFile()", tree=False),
    "copyfolder": _fso_two(K.READ, ".CopyFolder()", tree=True),
    "movehere": lambda op: (effect(K.MOVE, _arg(op, 0), "Shell.Application MoveHere"),),
    "copyhere": lambda op: (effect(K.READ, _arg(op, 0), "Shell.Application CopyHere"),),
    "invokeverb": lambda op: (
        (effect(K.DELETE, None, "Shell.Application InvokeVerb delete"),) if lower(_arg(op, 0)) == "delete" else ()
    ),
    "invokeverbex": lambda op: (
        (effect(K.DELETE, None, "Shell.Application InvokeVerbEx delete"),) if lower(_arg(op, 0)) == "delete" else ()
    ),
}
