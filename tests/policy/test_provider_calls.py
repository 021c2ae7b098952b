"""The engine's own provider calls (S-RULE-141): `$ExecutionContext.InvokeProvider` is what the item cmdlets call.

`$ExecutionContext.InvokeProvider.Item.Remove('C:\\x', $true)` deletes as `Remove-Item C:\\x -Recurse` does, with no
cmdlet in the text; each such call is judged as the cmdlet that makes it.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.ps_calls import PROVIDER_CALLS
from tests._requirements import requirement
from tests.policy.verdicts import args_of, ps

HAL = r"C:\Windows\System32\hal.dll"
HOSTS = r"C:\Windows\System32\drivers\etc\hosts"


@requirement("S-RULE-141")
@pytest.mark.parametrize("engine", ["$ExecutionContext", "$ExecutionContext.SessionState"])
@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (f"Item.Remove('{HAL}', $false)", ("protected-place-delete", "deny")),
        (r"Item.Remove('C:\Windows\System32', $true)", ("protected-place-delete", "deny")),
        (rf"Item.Move('{HAL}', 'C:\t')", ("protected-place-delete", "deny")),
        (rf"Item.Copy('C:\t\x.dll', '{HAL}', $false)", ("protected-place-write", "deny")),
        (f"Content.GetWriter('{HOSTS}')", ("protected-place-write", "deny")),
        (f"Content.Clear('{HOSTS}')", ("protected-place-write", "deny")),
        (r"Content.GetReader('C:\Users\me\.ssh\id_rsa')", ("credential-access", "deny")),
        (
            r"Property.New('HKCU:\Software\Microsoft\Windows\CurrentVersion\Run', 'x', 'String', 'C:\t\x.exe')",
            ("persistence-autostart", "ask"),
        ),
        (r"Item.Exists('C:\t\x')", None),
        (r"Item.Get('C:\t\x')", None),
        (r"ChildItem.Get('C:\t', $false)", None),
    ],
)
def test_a_provider_call_is_judged_as_its_cmdlet(engine: str, call: str, expected: object) -> None:
    """S-RULE-141: the verdict the cmdlet with the same arguments gets."""
    assert ps(f"{engine}.InvokeProvider.{call}") == expected


@requirement("S-RULE-141")
def test_the_arguments_are_named_as_the_cmdlet_names_them() -> None:
    """S-RULE-141: `Remove(path, recurse)` → Remove-Item -Path … -Recurse; a recurse not constant may be on."""
    assert args_of(f"$ExecutionContext.InvokeProvider.Item.Remove('{HAL}', $true)", "remove-item") == [()]
    made = ps(r"$ExecutionContext.InvokeProvider.Item.Remove('C:\t\old', $r)")
    assert made is not None and made[0] == "recursive-delete"
    assert ps(r"$ExecutionContext.InvokeProvider.Item.Remove('C:\t\old.txt', $false)") is None
    assert PROVIDER_CALLS[("item", "remove")] == ("remove-item", ("path", "recurse"))


@requirement("S-RULE-141")
def test_the_provider_object_kept_in_a_variable_is_the_same() -> None:
    """S-RULE-141: `$p = $ExecutionContext.InvokeProvider; $p.Item.Remove(…)`."""
    assert ps(f"$p = $ExecutionContext.InvokeProvider; $p.Item.Remove('{HAL}', $false)") == (
        "protected-place-delete",
        "deny",
    )


@requirement("S-RULE-141")
def test_a_provider_call_the_table_does_not_know_asks() -> None:
    """S-RULE-141: a method of a known area that no cmdlet in the table makes is not judged: it asks."""
    assert ps(r"$ExecutionContext.InvokeProvider.Item.SomethingNew('C:\t\x')") == ("dynamic-command", "ask")
