"""`New-Item`/`Set-Item` on the session drives: an alias defined, never a file written (S-RULE-89).

Found by a helper's mutation pass: `New-Item -Path env: -Name FOO -Value bar` was read as a write of a
file `FOO` in the working folder. Checking it, the attacker pass found `New-Item -Path alias: -Name ls2
-Value Remove-Item; ls2 C:\\Windows\\System32 -Recurse` forwarded: an alias made through the Alias: drive
was not followed as `Set-Alias` is.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from tests._requirements import requirement
from tests.policy.verdicts import ps

SYSTEM32_GONE = ("protected-place-delete", "deny")


@requirement("S-RULE-89")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("New-Item -Path alias: -Name ls2 -Value Remove-Item; ls2 C:\\Windows\\System32 -Recurse", SYSTEM32_GONE),
        ("Set-Item alias:ls2 Remove-Item; ls2 C:\\Windows\\System32 -Recurse", SYSTEM32_GONE),
        ("ni alias:\\ls2 -Value Remove-Item; ls2 C:\\Windows\\System32 -Recurse", SYSTEM32_GONE),
        ("si Alias:ls2 -Value ri; ls2 C:\\Windows\\System32 -Recurse", SYSTEM32_GONE),
        (
            "New-Item -Path Microsoft.PowerShell.Core\\Alias::ls2 -Value Remove-Item; ls2 C:\\Windows -Recurse",
            SYSTEM32_GONE,
        ),
        ("Set-Item -Path Alias:ls2 -Value $x; ls2 C:\\Windows\\System32 -Recurse", ("dynamic-command", "ask")),
    ],
    ids=["new-item-name", "set-item", "new-item-path", "aliases", "provider-path", "not-constant"],
)
def test_an_alias_made_on_the_alias_drive_is_followed(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-89: the alias runs the command it names, as after `Set-Alias`."""
    assert ps(command) == expected


@requirement("S-RULE-89")
@pytest.mark.parametrize(
    "command",
    [
        "New-Item -Path env: -Name FOO -Value bar",
        "New-Item -Path Variable: -Name x -Value 1",
        "Set-Location C:\\Windows; New-Item -Path env: -Name System32 -Value x",
        "New-Item -Path alias: -Name ll -Value Get-ChildItem; ll C:\\Windows\\System32 -Recurse",
    ],
    ids=["env", "variable", "after-cd", "harmless-alias"],
)
def test_a_session_drive_item_writes_no_file(command: str) -> None:
    """S-RULE-89: env:, variable: and alias: items live in the session; no file is written."""
    assert ps(command) is None
    assert not [e for e in judge_call("PowerShell", {"command": command}).effects if e.detail == "New-Item"]


@requirement("S-RULE-94")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("$function:x = 'rm C:\\Users -r'; x", ("protected-place-delete", "deny")),
        ("${function:global:x} = 'rm C:\\Users -r'; x", ("protected-place-delete", "deny")),
        ("$function:x = { rm C:\\Users -r }; x", ("protected-place-delete", "deny")),
        ("Set-Content function:x 'rm C:\\Users -r'; x", ("protected-place-delete", "deny")),
        ("New-Item function:x -Value 'rm C:\\Users -r'; x", ("protected-place-delete", "deny")),
        ("Add-Content -Path Function:\\x -Value 'rm C:\\Users -r'", ("protected-place-delete", "deny")),
        ("$alias:ls2 = 'Remove-Item'; ls2 C:\\Users -Recurse", ("protected-place-delete", "deny")),
        ("$function:x = $body; x", ("dynamic-command", "ask")),
        ("$function:x = 'Get-ChildItem C:\\Users'; x", None),
    ],
    ids=[
        "string-body",
        "scoped",
        "script-block",
        "set-content",
        "new-item",
        "add-content",
        "alias-variable",
        "body-not-constant",
        "harmless-body",
    ],
)
def test_a_function_defined_through_its_drive_is_judged_by_its_body(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-94: `$function:x = 'text'` makes the text a function's body: it is judged as code."""
    assert ps(command) == expected
