"""An archive unpacked into a folder is judged on the places the folder holds (S-RULE-115).

`Expand-Archive evil.zip -DestinationPath $env:LOCALAPPDATA -Force` writes `winmcp-gateway\\config.toml` if the
archive holds it; `tar -xf x.tar -C ~\\Documents` writes a PowerShell profile that runs at every start. The
archive's list of files is not in the command, so every place under the folder counts.
"""

from __future__ import annotations

import pytest

from gateway.app import SELF_COMMANDS
from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy.verdicts import ps

STATE = "C:\\Users\\bob\\AppData\\Local\\winmcp-gateway"
GUARDED = load_rules(protected_paths=[STATE, STATE + "\\STOP", *SELF_COMMANDS])
SELF = ("self-protection", "deny")
ASK = ("unpack-over-protected", "ask")


def guarded(command: str) -> tuple[str, str] | None:
    hit = GUARDED.match("PowerShell", {"command": command})
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-RULE-115")
@pytest.mark.parametrize(
    "command",
    [
        r"Expand-Archive C:\t\e.zip -DestinationPath $env:LOCALAPPDATA -Force",
        r"tar -xf C:\t\e.tar -C C:\Users\bob\AppData\Local",
        r"7z x C:\t\e.7z -oC:\Users\bob\AppData",
        r"unzip C:\t\e.zip -d C:\Users\bob",
        r"[IO.Compression.ZipFile]::ExtractToDirectory('C:\t\e.zip', $env:LOCALAPPDATA)",
        r"cd $env:LOCALAPPDATA; tar -xf C:\t\e.tar",  # the current folder, once the command set it
    ],
)
def test_unpacking_over_the_gateways_files_is_self_protection(command: str) -> None:
    """S-RULE-115: the archive could hold the gateway's config or STOP file: its guard, lifted for the next start."""
    assert guarded(command) == SELF


@requirement("S-RULE-115")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"Expand-Archive C:\t\e.zip -DestinationPath $env:APPDATA -Force", SELF),  # Claude's server list
        (r"tar -xf C:\t\e.tar -C C:\Users\bob\Documents", ASK),  # the PowerShell profile
        (r'7z x C:\t\e.7z -o"C:\Users\bob\.ssh"', ASK),  # authorized_keys
        (r'Expand-Archive C:\t\e.zip "$env:APPDATA\Microsoft\Windows\Start Menu\Programs"', ASK),  # Startup
        (r"tar -xf C:\t\e.tar -C C:\Windows\System32", ("protected-place-write", "deny")),  # the place itself
        (r"expand C:\t\x.cab -F:* C:\Windows\System32", ("protected-place-write", "deny")),
    ],
)
def test_unpacking_over_other_protected_places_asks_and_into_one_keeps_its_verdict(
    command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-115: the reason names what the folder holds; a place unpacked into keeps its own row."""
    assert ps(command) == expected


@requirement("S-RULE-115")
def test_the_reason_names_what_the_folder_holds_and_the_remedy_is_a_new_folder() -> None:
    """S-RULE-115: the person deciding sees which protected place is under the folder."""
    hit = load_rules().match("PowerShell", {"command": r"tar -xf C:\t\e.tar -C C:\Users\bob\Documents"})
    assert hit is not None and "a folder that holds a PowerShell module folder" in hit.reason
    assert "new, empty folder" in hit.reason


@requirement("S-RULE-115")
@pytest.mark.parametrize(
    "command",
    [
        r"Expand-Archive C:\Users\bob\Downloads\e.zip -DestinationPath C:\Users\bob\Downloads\e",
        r"tar -xf C:\t\e.tar",  # the current folder, not known
        r"Expand-Archive C:\t\e.zip -DestinationPath .",
        r"Expand-Archive C:\t\e.zip out",
        r"7z x C:\t\e.7z -oC:\src\e",
        r"unzip -o C:\t\e.zip -d C:\src\e",
        r"7z l C:\t\e.7z",
    ],
)
def test_unpacking_into_a_new_or_unknown_folder_passes(command: str) -> None:
    """S-RULE-115: a folder that holds no protected place, a relative one, and listing an archive pass."""
    assert guarded(command) is None
