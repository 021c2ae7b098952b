""".NET and COM file calls as effects, with the detail a reason shows (S-RULE-18); found by mutation testing.

Each handler is called on the operation the PowerShell analyser hands over (`shell="net"` or `"com"`,
the lower-case name, the call's own arguments in order) and its effects are compared whole: kind,
target and the phrase a refusal quotes.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import LANDED, RECURSIVE, effect
from policy.rules.effects_file_calls import FILE_CALLS, FILE_METHODS
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value
from tests._requirements import requirement

K = EffectKind
HOSTS = "C:\\Windows\\System32\\drivers\\etc\\hosts"


def _call(name: str, *args: Value) -> tuple[Effect, ...]:
    return FILE_CALLS[name](Operation(shell="net", name=name, args=args))


def _method(name: str, *args: Value) -> tuple[Effect, ...]:
    return FILE_METHODS[name](Operation(shell="net", name="?." + name, args=args))


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("args", "kind"),
    [
        ((HOSTS,), K.WRITE),  # no mode: cannot tell, so a write
        ((HOSTS, None), K.WRITE),  # a mode that is not constant
        ((HOSTS, "Create"), K.WRITE),
        ((HOSTS, "OpenOrCreate"), K.WRITE),
        ((HOSTS, "Truncate"), K.WRITE),
        ((HOSTS, "Append"), K.WRITE),
        ((HOSTS, "Open"), K.READ),
        ((HOSTS, "Open", "Read"), K.READ),
    ],
)
def test_io_file_open_writes_when_its_mode_creates_truncates_or_appends(
    args: tuple[Value, ...], kind: EffectKind
) -> None:
    """S-RULE-18: [IO.File]::Open(path, mode) is judged by its FileMode."""
    assert _call("io.file::open", *args) == (effect(kind, HOSTS, "[IO.File]::Open"),)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("backup", "backed_up"),
    [("C:\\b.bak", True), ("$null", False), ("NULL", False), ("", False)],
)
def test_io_file_replace_moves_the_source_and_writes_the_target_and_any_backup(backup: Value, backed_up: bool) -> None:
    """S-RULE-18: Replace(source, destination, backup): a backup path other than null is written too."""
    expected = (effect(K.MOVE, "C:\\a", "[IO.File]::Replace"), effect(K.WRITE, "C:\\b", "[IO.File]::Replace"))
    if backed_up:
        expected += (effect(K.WRITE, backup, "[IO.File]::Replace backup"),)
    assert _call("io.file::replace", "C:\\a", "C:\\b", backup) == expected
    assert _call("io.file::replace", "C:\\a", "C:\\b") == expected[:2]


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("C:\\d",), effect(K.DELETE, "C:\\d", "[IO.Directory]::Delete")),
        (("C:\\d", "$false"), effect(K.DELETE, "C:\\d", "[IO.Directory]::Delete")),
        (("C:\\d", "$true"), effect(K.DELETE_RECURSIVE, "C:\\d", "[IO.Directory]::Delete recursive")),
        (("C:\\d", None), effect(K.DELETE_RECURSIVE, "C:\\d", "[IO.Directory]::Delete recursive")),
    ],
)
def test_io_directory_delete_is_recursive_when_its_flag_is_true_or_unknown(
    args: tuple[Value, ...], expected: Effect
) -> None:
    """S-RULE-18: Delete(path, recursive) removes the tree when the flag is true or not constant."""
    assert _call("io.directory::delete", *args) == (expected,)


VB = "microsoft.visualbasic.fileio.filesystem::"


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("option", "kind"),
    [
        ("DeleteAllContents", K.DELETE_RECURSIVE),
        (None, K.DELETE_RECURSIVE),
        ("[Microsoft.VisualBasic.FileIO.DeleteDirectoryOption]::ThrowIfDirectoryNonEmpty", K.DELETE),
    ],
)
def test_visualbasic_delete_directory_keeps_contents_only_when_told_to_throw(option: Value, kind: EffectKind) -> None:
    """S-RULE-18: only ThrowIfDirectoryNonEmpty keeps a non-empty directory."""
    assert _call(VB + "deletedirectory", "C:\\d", option) == (
        effect(kind, "C:\\d", "VisualBasic FileSystem.DeleteDirectory"),
    )


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("io.file::delete", (HOSTS,), (effect(K.DELETE, HOSTS, "[IO.File]::Delete"),)),
        ("io.file::delete", (), (effect(K.DELETE, None, "[IO.File]::Delete"),)),
        (
            "io.file::move",
            ("C:\\a", "C:\\b"),
            (effect(K.MOVE, "C:\\a", "[IO.File]::Move"), effect(K.WRITE, "C:\\b", "[IO.File]::Move destination")),
        ),
        (
            "io.file::copy",
            ("C:\\a",),
            (effect(K.READ, "C:\\a", "[IO.File]::Copy"), effect(K.WRITE, None, "[IO.File]::Copy destination")),
        ),
        (
            "io.file::createsymboliclink",
            ("C:\\l", HOSTS),
            (effect(K.WRITE, "C:\\l", "[IO.File]::CreateSymbolicLink", extra=(("link_target", HOSTS),)),),
        ),
        (
            "io.directory::createsymboliclink",
            ("C:\\l",),
            (
                effect(
                    K.WRITE,
                    "C:\\l",
                    "[IO.Directory]::CreateSymbolicLink",
                    extra=(("link_target", ""), *RECURSIVE, *LANDED),  # a folder's link: all below it (S-RULE-148)
                ),
            ),
        ),
        ("io.file::writealltext", (HOSTS, "x"), (effect(K.WRITE, HOSTS, "[IO.File]::writealltext"),)),
        ("io.file::readalltext", (HOSTS,), (effect(K.READ, HOSTS, "[IO.File]::readalltext"),)),
        ("io.directory::getfiles", ("C:\\",), (effect(K.READ, "C:\\", "[IO.Directory]::getfiles"),)),
        (
            "io.directory::enumeratefilesystementries",
            ("C:\\",),
            (effect(K.READ, "C:\\", "[IO.Directory]::enumeratefilesystementries"),),
        ),
        (
            "com:scripting.filesystemobject.deletefolder",
            ("C:\\d",),
            (effect(K.DELETE_RECURSIVE, "C:\\d", "FileSystemObject.DeleteFolder"),),
        ),
    ],
)
def test_each_file_call_names_its_target_and_what_it_does(
    name: str, args: tuple[Value, ...], expected: tuple[Effect, ...]
) -> None:
    """S-RULE-18: one effect per path the call touches, with the call's name in the detail."""
    assert _call(name, *args) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        ("1", K.READ),
        ("2", K.WRITE),
        ("8", K.WRITE),
        ("ForWriting", K.WRITE),
        ("ForAppending", K.WRITE),
        (None, K.WRITE),
    ],
)
def test_filesystemobject_opentextfile_writes_for_writing_or_appending(mode: Value, kind: EffectKind) -> None:
    """S-RULE-18: OpenTextFile(path, iomode): 2 and 8 (or their names, or an unknown mode) write."""
    assert _call("com:scripting.filesystemobject.opentextfile", "C:\\f", mode) == (
        effect(kind, "C:\\f", "FileSystemObject.OpenTextFile"),
    )
    assert _call("com:scripting.filesystemobject.opentextfile", "C:\\f") == (
        effect(K.READ, "C:\\f", "FileSystemObject.OpenTextFile"),
    )


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("method", "args", "expected"),
    [
        ("delete", (), effect(K.DELETE, None, ".delete()")),
        ("delete", ("$true",), effect(K.DELETE_RECURSIVE, None, ".delete()")),
        ("delete", (None,), effect(K.DELETE_RECURSIVE, None, ".delete()")),
        ("delete", ("$false",), effect(K.DELETE, None, ".delete()")),
        ("deletefolder", ("C:\\d",), effect(K.DELETE_RECURSIVE, "C:\\d", ".deletefolder()")),
        ("deletefolder", ("C:\\d", "$true"), effect(K.DELETE_RECURSIVE, "C:\\d", ".deletefolder()")),
        ("deletedirectory", ("$true",), effect(K.DELETE_RECURSIVE, None, ".deletedirectory()")),
        ("deletefile", ("false",), effect(K.DELETE, None, ".deletefile()")),
        ("deletefile", ("C:\\f",), effect(K.DELETE, "C:\\f", ".deletefile()")),
        ("deletefile", (None,), effect(K.DELETE, None, ".deletefile()")),
    ],
)
def test_a_delete_method_on_an_untyped_object_is_a_delete_of_its_path_or_of_something_unknown(
    method: str, args: tuple[Value, ...], expected: Effect
) -> None:
    """S-RULE-18: `$x.Delete($true)` is recursive; a path argument is the target, a flag is not."""
    assert _method(method, *args) == (expected,)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("method", "args", "expected"),
    [
        ("invokeverb", ("Delete",), (effect(K.DELETE, None, "Shell.Application InvokeVerb delete"),)),
        ("invokeverb", ("open",), ()),
        ("invokeverbex", ("'delete'",), (effect(K.DELETE, None, "Shell.Application InvokeVerbEx delete"),)),
        ("invokeverbex", ("properties",), ()),
        ("movehere", ("C:\\a",), (effect(K.MOVE, "C:\\a", "Shell.Application MoveHere"),)),
        ("copyhere", ("C:\\a",), (effect(K.READ, "C:\\a", "Shell.Application CopyHere"),)),
        (
            "movefile",
            ("C:\\a", "C:\\b"),
            (effect(K.MOVE, "C:\\a", ".MoveFile()"), effect(K.WRITE, "C:\\b", ".MoveFile() destination")),
        ),
    ],
)
def test_shell_application_verbs_and_untyped_moves(
    method: str, args: tuple[Value, ...], expected: tuple[Effect, ...]
) -> None:
    """S-RULE-18: InvokeVerb('delete') deletes; MoveHere moves; an untyped MoveFile moves and writes."""
    assert _method(method, *args) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize("name", ["renamefile", "renamedirectory"])
def test_a_visualbasic_rename_moves_the_source_and_writes_the_new_name_beside_it(name: str) -> None:
    """S-RULE-18: RenameFile(path, newName) moves path and writes newName in the same folder."""
    assert _call(VB + name, "C:\\d\\a.txt", "b.txt") == (
        effect(K.MOVE, "C:\\d\\a.txt", "VisualBasic rename"),
        effect(K.WRITE, "C:\\d\\b.txt", "VisualBasic rename"),
    )
    assert _call(VB + name, "C:\\d\\a.txt") == (
        effect(K.MOVE, "C:\\d\\a.txt", "VisualBasic rename"),
        effect(K.WRITE, None, "VisualBasic rename"),
    )


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        (
            "?.sub.deletefolder",
            ("C:\\d",),
            effect(K.DELETE_RECURSIVE, "C:\\d", ".deletefolder()"),
        ),  # the last name counts
        ("deletefolder", ("C:\\d",), effect(K.DELETE_RECURSIVE, "C:\\d", ".deletefolder()")),
        ("?.deletefile", ("$FALSE",), effect(K.DELETE, None, ".deletefile()")),  # a flag is no path
    ],
)
def test_the_method_is_the_last_part_of_the_operation_name(
    name: str, args: tuple[Value, ...], expected: Effect
) -> None:
    """S-RULE-18: `$a.b.DeleteFolder(p)` is DeleteFolder whatever the object is called."""
    method = name.rsplit(".", 1)[-1]
    assert FILE_METHODS[method](Operation(shell="net", name=name, args=args)) == (expected,)
