"""A downloaded file's Mark of the Web taken away asks, in every spelling (S-RULE-196).

Before, `Unblock-File`, `Remove-Item … -Stream Zone.Identifier`, a delete of `x.exe:Zone.Identifier` and
`streams -d` all passed: SmartScreen, Office's Protected View and the execution policy read that stream, so
a program downloaded from the internet then runs without a warning. Turning the mark off machine-wide
(`SaveZoneInformation`) was already refused as `security-weakening`.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import names_zone_stream
from policy.rules.shell.ops import EffectKind as K
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, ps_effects, reason_of, verdict

ASK = ("mark-of-the-web", "ask")
FILE = r"C:\Users\me\Downloads\setup.exe"


@requirement("S-RULE-196")
@pytest.mark.parametrize(
    "command",
    [
        rf"Unblock-File {FILE}",
        rf"Unblock-File -Path {FILE}",
        rf"Unblock-File -LiteralPath '{FILE}'",
        r"Get-ChildItem C:\Users\me\Downloads | Unblock-File",
        r"Get-ChildItem -Recurse | Unblock-File",
        "ls *.exe | % { Unblock-File $_ }",
        r"Unblock-File C:\Users\me\Downloads\report.pdf",  # Protected View is the mark too
        rf"Remove-Item {FILE} -Stream Zone.Identifier",
        rf"rm {FILE} -Stream zone.identifier",
        rf"Remove-Item {FILE} -st Zone.Identifier",
        rf"Remove-Item -Path {FILE} -Stream *",
        rf"Remove-Item -Path {FILE} -Stream Zone*",
        rf"Remove-Item {FILE} -Stream:Zone.Identifier",
        rf"$s = 'Zone' + '.Identifier'; Remove-Item {FILE} -Stream $s",
        rf"Remove-Item {FILE} -Stream $args[0]",  # not known: may be the mark
        r"Get-ChildItem C:\Users\me\Downloads | Remove-Item -Stream Zone.Identifier",
        rf"Clear-Content {FILE} -Stream Zone.Identifier",
        rf"Set-Content -Path {FILE} -Stream Zone.Identifier -Value '[ZoneTransfer]','ZoneId=0'",
        rf"Add-Content {FILE} -Stream Zone.Identifier -Value 'ZoneId=0'",
        rf"Remove-Item '{FILE}:Zone.Identifier'",
        rf'Remove-Item -LiteralPath "{FILE}:Zone.Identifier:`$DATA"',
        rf"Set-Content '{FILE}:Zone.Identifier' ''",
        rf"[IO.File]::Delete('{FILE}:Zone.Identifier')",
        rf"Move-Item '{FILE}:Zone.Identifier' C:\t\z.txt",
        rf"Copy-Item C:\t\blank.txt '{FILE}:Zone.Identifier'",
        rf'cmd /c "type nul > {FILE}:Zone.Identifier"',
        rf'cmd /c "echo.>{FILE}:Zone.Identifier"',
        rf"streams -d {FILE}",
        r"streams64.exe -s -d C:\Users\me\Downloads",
        rf'powershell -c "Unblock-File {FILE}"',
    ],
)
def test_taking_the_mark_away_asks(command: str) -> None:
    """S-RULE-196: every spelling that removes or rewrites the `Zone.Identifier` stream."""
    assert ps(command) == ASK


@requirement("S-RULE-196")
@pytest.mark.parametrize(
    ("mode", "extra"),
    [
        ("delete", {}),
        ("write", {"content": "[ZoneTransfer]\nZoneId=0"}),
        ("move", {"destination": r"C:\t\z.txt"}),
    ],
)
def test_the_filesystem_tool_on_the_stream_asks(mode: str, extra: dict[str, object]) -> None:
    """S-RULE-196: the FileSystem tool given the stream's path."""
    assert verdict("FileSystem", mode=mode, path=FILE + ":Zone.Identifier", **extra) == ASK


@requirement("S-RULE-196")
@pytest.mark.parametrize(
    "command",
    [
        rf"Get-Content {FILE} -Stream Zone.Identifier",
        rf"Get-Content '{FILE}:Zone.Identifier'",
        rf"Get-Item {FILE} -Stream *",
        rf"Copy-Item '{FILE}:Zone.Identifier' C:\t\z.txt",  # reads the mark; removes nothing
        r"Remove-Item C:\t\notes.txt -Stream MyNotes",
        r"Set-Content C:\t\notes.txt -Stream MyNotes -Value hi",
        r"streams -s C:\Users\me\Downloads",
        r"Remove-Item C:\t\Zone.Identifier.txt",
        "Get-Process | Out-String -Stream | Select-String chrome",
    ],
)
def test_reading_the_mark_and_other_streams_stay_ordinary(command: str) -> None:
    """S-RULE-196: a read of the stream, another stream, and `streams` without `-d` pass."""
    assert ps(command) is None


@requirement("S-RULE-196")
def test_a_stream_of_a_protected_file_keeps_its_places_verdict() -> None:
    """S-RULE-196: the stream of the hosts file is the hosts file's (a deny outranks the ask)."""
    hit = ps(r"Remove-Item C:\Windows\System32\drivers\etc\hosts -Stream Zone.Identifier")
    assert hit is not None
    assert hit[1] == "deny"


@requirement("S-RULE-196")
def test_removing_a_stream_is_a_write_of_the_file_not_its_delete() -> None:
    """S-RULE-196: `Remove-Item x -Stream s` leaves the file; only its stream goes."""
    effects = ps_effects(r"Remove-Item C:\t\notes.txt -Stream MyNotes")
    assert [(e.kind, e.target) for e in effects] == [(K.WRITE, r"C:\t\notes.txt")]
    # `-Stream` takes a value: `MyNotes` is not a second path to delete
    assert all(e.kind is not K.DELETE for e in effects)


@requirement("S-RULE-196")
@pytest.mark.parametrize(
    ("pattern", "may_name_it"),
    [
        ("Zone.Identifier", True),
        ("ZONE.IDENTIFIER", True),
        ("*", True),
        ("zone*", True),
        ("*.identifier", True),
        ("Zone.Identifie?", True),
        ("MyNotes,Zone.Identifier", True),
        (None, True),
        ("MyNotes", False),
        ("Zone", False),
        ("Zone.Identifier.bak", False),
        ("favicon", False),
    ],
)
def test_which_stream_names_may_be_the_mark(pattern: str | None, may_name_it: bool) -> None:
    """S-RULE-196: a name, a wildcard matching it (no case), or a value not known."""
    assert names_zone_stream(pattern) is may_name_it


@requirement("S-RULE-196")
def test_typed_into_a_console_asks() -> None:
    """S-RULE-196: the keyboard is a shell (issue 18 item 4)."""
    assert typed_in_console(rf"Unblock-File {FILE}") == ASK


@requirement("S-RULE-196")
def test_the_reason_names_the_file_and_the_remedy_only_reads() -> None:
    """S-RULE-196: the reason says which file and how; the remedy's command is itself allowed."""
    reason = reason_of(rf"Unblock-File {FILE}")
    assert "setup.exe" in reason
    assert "Unblock-File" in reason
    assert "Mark of the Web" in reason
    assert ps(rf"Get-Content {FILE} -Stream Zone.Identifier") is None


@requirement("S-RULE-196")
def test_streams_marks_recursive_only_with_s() -> None:
    """S-RULE-196: `streams -d` of a file strips its mark; with `-s`, every file under a folder."""
    one = [e for e in ps_effects(rf"streams -d {FILE}") if e.kind is K.WRITE]
    tree = [e for e in ps_effects(r"streams -s -d C:\Users\me\Downloads") if e.kind is K.WRITE]
    assert [dict(e.extra) for e in one] == [{"zone_mark": "removed"}]
    assert [dict(e.extra) for e in tree] == [{"zone_mark": "removed", "recursive": "true"}]
