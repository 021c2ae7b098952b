"""The Windows PasswordVault read through .NET however the type is reached (S-RULE-18; found by mutation testing)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    "command",
    [
        "[Windows.Security.Credentials.PasswordVault]::new()",
        '$v = [Windows.Security.Credentials.PasswordVault]::new(); $v.Retrieve("https://site", "bob").Password',
        '$t = [Type]::GetType("Windows.Security.Credentials.PasswordVault, Windows.Security.Credentials, '
        'ContentType=WindowsRuntime"); $v = [Activator]::CreateInstance($t); $v.Retrieve("https://site", "bob")',
        "New-Object Windows.Security.Credentials.PasswordVault",
    ],
    ids=["type-literal-new", "type-literal-retrieve", "type-loaded-at-run-time", "new-object"],
)
def test_reaching_the_password_vault_is_credential_access(command: str) -> None:
    """S-RULE-18: the vault's constructor (the analyser names it `system.windows.…`) and its `Retrieve`, which hands
    back a stored password, are credential access whatever spelling reached the object."""
    hit = RULES.match("PowerShell", {"command": command})
    assert hit is not None and (hit.rule_id, hit.action) == ("credential-access", "deny")
