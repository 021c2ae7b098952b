"""File and folder objects (S-RULE-133, S-RULE-134): what a `FileInfo`'s or `DirectoryInfo`'s methods and members do.

PowerShell reaches a file through an object as easily as through a cmdlet: `[IO.FileInfo]'C:\\x'` (a cast),
`[IO.FileInfo]::new(…)`, `New-Object IO.FileInfo …` or `(Get-Item C:\\x)`. Each test names what .NET does with
the call and checks the effect the analyser reads and the verdict the rules give.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import effect_rows, ps

K = EffectKind
HOSTS = r"C:\Windows\System32\drivers\etc\hosts"


@requirement("S-RULE-133")
@pytest.mark.parametrize(
    "made",
    [
        rf"([IO.FileInfo]'{HOSTS}')",
        rf"([System.IO.FileInfo]::new('{HOSTS}'))",
        rf"(New-Object IO.FileInfo '{HOSTS}')",
        rf"(New-Object -TypeName System.IO.FileInfo -ArgumentList '{HOSTS}')",
        rf"(Get-Item {HOSTS})",
    ],
)
@pytest.mark.parametrize("writer", [".AppendText().WriteLine('1.2.3.4 bank.example')", ".CreateText().Close()"])
def test_a_file_objects_text_writers_write_its_file(made: str, writer: str) -> None:
    """S-RULE-133: `AppendText()` opens the file to append, `CreateText()` empties it: both write the hosts file,
    however the object was made."""
    assert ps(made + writer) == ("protected-place-write", "deny")


@requirement("S-RULE-133")
def test_a_file_object_kept_in_a_variable_keeps_its_path() -> None:
    """S-RULE-133: the object made first and used by a later statement is the same file."""
    command = rf"$f = [IO.FileInfo]::new('{HOSTS}'); $w = $f.AppendText(); $w.WriteLine('x'); $w.Close()"
    assert (K.WRITE, HOSTS, "[IO.File]::appendtext") in effect_rows(command)
    assert ps(command) == ("protected-place-write", "deny")


@requirement("S-RULE-133")
@pytest.mark.parametrize(
    ("call", "verdict"),
    [
        (".OpenWrite().Close()", ("protected-place-write", "deny")),
        (".Create().Close()", ("protected-place-write", "deny")),
        (".Open('Truncate').Close()", ("protected-place-write", "deny")),
        (".Open('Open', 'Write').Close()", ("protected-place-write", "deny")),
        (".Open('Open', 'Read').Close()", None),  # read-only access changes nothing
        (".OpenRead().Close()", None),
        (".OpenText().ReadToEnd()", None),
        (".Length", None),
        (".Refresh()", None),
    ],
)
def test_a_file_objects_openers_write_only_when_they_open_for_writing(call: str, verdict: object) -> None:
    """S-RULE-133: `[IO.File]::Open`'s rule: a mode that creates, empties or appends, or an access that writes."""
    assert ps(rf"([IO.FileInfo]'{HOSTS}')" + call) == verdict


@requirement("S-RULE-133")
def test_a_file_objects_delete_move_and_copy_act_on_its_path() -> None:
    """S-RULE-133: `.Delete()` deletes the file, `.MoveTo(d)` takes it away, `.CopyTo(d, $true)` overwrites `d`,
    `.Replace(d, b)` overwrites `d` with it."""
    hal = r"C:\Windows\System32\hal.dll"
    assert effect_rows(f"([IO.FileInfo]'{hal}').Delete()") == [(K.DELETE, hal, "[IO.File]::Delete")]
    assert ps(f"([IO.FileInfo]'{hal}').Delete()") == ("protected-place-delete", "deny")
    assert ps(rf"([IO.FileInfo]'{hal}').MoveTo('C:\t\hal.dll')") == ("protected-place-delete", "deny")
    assert ps(rf"([IO.FileInfo]'C:\t\x.dll').CopyTo('{hal}', $true)") == ("protected-place-write", "deny")
    assert ps(rf"([IO.FileInfo]'C:\t\x.dll').Replace('{hal}', 'C:\t\old.dll')") == ("protected-place-write", "deny")
    assert ps(r"([IO.FileInfo]'C:\t\a.txt').CopyTo('C:\t\b.txt')") is None


@requirement("S-RULE-133")
def test_a_folder_objects_methods_act_on_the_folder() -> None:
    """S-RULE-133: a folder's `Delete($true)` removes it with everything in it; `CreateSubdirectory(n)` makes the
    folder `n` under it; `MoveTo` takes it away; listing its files changes nothing."""
    assert effect_rows(r"([IO.DirectoryInfo]'C:\t\old').Delete($true)") == [
        (K.DELETE_RECURSIVE, r"C:\t\old", "[IO.Directory]::Delete recursive")
    ]
    assert ps(r"(New-Object IO.DirectoryInfo 'C:\Users').Delete($true)") == ("protected-place-delete", "deny")
    assert ps(r"([IO.DirectoryInfo]'C:\Users').MoveTo('C:\x')") == ("protected-place-delete", "deny")
    assert effect_rows(r"([IO.DirectoryInfo]'C:\Windows').CreateSubdirectory('System32\evil')") == [
        (K.WRITE, r"C:\Windows\System32\evil", "[IO.Directory]::CreateDirectory")
    ]
    assert ps(r"([IO.DirectoryInfo]'C:\Windows').CreateSubdirectory('System32\evil')") == (
        "protected-place-write",
        "deny",
    )
    assert ps(r"([IO.DirectoryInfo]'C:\t\proj').GetFiles('*.cs')") is None


@requirement("S-RULE-133")
def test_a_file_object_whose_path_is_not_constant_asks() -> None:
    """S-RULE-133: `[IO.FileInfo]$args[0]` stands for a file nobody can name before it runs."""
    assert ps(r"([IO.FileInfo]$args[0]).AppendText().WriteLine('x')") == ("dynamic-command", "ask")
    assert ps(r"([IO.FileInfo]$args[0]).Delete()") == ("dynamic-command", "ask")


@requirement("S-RULE-133")
@pytest.mark.parametrize(
    "command",
    [
        "$box.AppendText('hello')",  # a WinForms text box
        "$c = New-Object Data.SqlClient.SqlConnection $cs; $c.Open()",
        "$x = New-Object -ComObject MSXML2.XMLHTTP; $x.Open('GET', 'https://example.com', $false)",
        "$wc.OpenWrite('https://example.com/upload')",
    ],
)
def test_the_same_method_names_on_other_objects_are_no_file_effect(command: str) -> None:
    """S-RULE-133: the names are a file's only without arguments (or with a FileMode first); on other types they
    append to a text box, open a connection or a request."""
    assert [row for row in effect_rows(command) if row[0] in (K.WRITE, K.DELETE, K.MOVE)] == []


@requirement("S-RULE-134")
@pytest.mark.parametrize(
    "member",
    [
        "Attributes = 'Hidden'",
        "IsReadOnly = $false",
        "LastWriteTime = '2001-01-01'",
        "CreationTimeUtc = [datetime]::MinValue",
    ],
)
@pytest.mark.parametrize(
    "made", [r"(Get-Item C:\Windows\System32\hal.dll)", r"([IO.FileInfo]'C:\Windows\System32\hal.dll')"]
)
def test_setting_a_files_attributes_or_times_writes_it(made: str, member: str) -> None:
    """S-RULE-134: what `attrib` or `Set-ItemProperty -Name Attributes` does, done through the object."""
    assert ps(f"{made}.{member}") == ("protected-place-write", "deny")


@requirement("S-RULE-134")
def test_a_file_object_in_a_variable_set_later_is_written() -> None:
    """S-RULE-134: the object kept in a variable, its member set by a later statement."""
    command = r"$f = [IO.FileInfo]'C:\Windows\System32\hal.dll'; $f.Attributes = 'Hidden'"
    assert ps(command) == ("protected-place-write", "deny")


@requirement("S-RULE-134")
def test_touching_every_file_of_a_tree_is_not_overwriting_it() -> None:
    """S-RULE-134: new times or attributes on each file of a recursive listing change no content: allowed in the
    user's own folders (an `every_file` write would read as the tree's content destroyed), denied in System32."""
    assert ps(r"Get-ChildItem C:\t\proj -Recurse | ForEach-Object { $_.LastWriteTime = Get-Date }") is None
    assert ps(r"Get-ChildItem C:\Users -Recurse | ForEach-Object { $_.Attributes = 'Hidden' }") is None
    denied = ps(r"Get-ChildItem C:\Windows\System32 -Recurse | ForEach-Object { $_.Attributes = 'Hidden' }")
    assert denied is not None and denied[1] == "deny"


@requirement("S-RULE-134")
@pytest.mark.parametrize(
    "command",
    [
        "$form.Text = 'Hello'",
        "$p = New-Object psobject; $p.IsReadOnly = $true",
        "$h = @{}; $h.Attributes = 'x'",
        r"(Get-Item C:\t\a.txt).IsReadOnly = $true",
    ],
)
def test_other_members_and_other_objects_are_not_a_protected_write(command: str) -> None:
    """S-RULE-134: a form's text, a known non-file object's member, and a user file's flag are ordinary."""
    assert ps(command) is None
