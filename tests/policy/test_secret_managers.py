"""A secret manager asked for a secret's value is a credential read (S-RULE-193).

Every refusal below passed before: `gh auth token` was refused (S-RULE-118) while the same token kept in a
secret manager could be printed into the agent's transcript.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, reason_of

READ = ("credential-access", "deny")


@requirement("S-RULE-193")
@pytest.mark.parametrize(
    "command",
    [
        "Get-Secret -Name GitHubToken -AsPlainText",
        "$t = Get-Secret GitHubToken",
        "Microsoft.PowerShell.SecretManagement\\Get-Secret -Name db -Vault Local",
        "Get-AzKeyVaultSecret -VaultName v -Name db -AsPlainText",
        "Get-AzKeyVaultSecret -VaultName v -Name db -AsPlain",
        "Get-AzKeyVaultSecret -VaultName v -Name db -AsP",
        "Get-SECSecretValue -SecretId prod/db",
        "Get-SSMParameter -Name /prod/db -WithDecryption $true",
        "Get-SSMParameterValue -Name /prod/db -WithDecryption:$true",
        "az keyvault secret show --vault-name v --name db --query value -o tsv",
        "az keyvault secret download --vault-name v --name db --file C:\\t\\db.txt",
        "aws secretsmanager get-secret-value --secret-id prod/db",
        "aws secretsmanager batch-get-secret-value --secret-id-list a b",
        "aws ssm get-parameter --name /prod/db --with-decryption",
        "aws ssm get-parameters-by-path --path /prod --recursive --with-decryption",
        "gcloud secrets versions access latest --secret=db",
        "vault kv get secret/db",
        "vault read -field=password secret/db",
        "doppler secrets get DB_PASSWORD --plain",
        "cmd /c aws secretsmanager get-secret-value --secret-id prod/db",
    ],
)
def test_a_secrets_value_is_refused(command: str) -> None:
    """S-RULE-193: the value lands in the transcript, as a token printed by `gh auth token` would."""
    assert ps(command) == READ


@requirement("S-RULE-193")
@pytest.mark.parametrize(
    "command",
    [
        "Get-SecretInfo",
        "Get-SecretVault",
        "Get-AzKeyVaultSecret -VaultName v",
        "Get-SSMParameter -Name /prod/region",
        "Get-SSMParameter -Name /prod/db -WithDecryption $false",
        "Get-SSMParameter -Name /prod/db -WithDecryption:0",
        "az keyvault secret list --vault-name v",
        "aws secretsmanager list-secrets",
        "aws secretsmanager describe-secret --secret-id prod/db",
        "aws ssm get-parameter --name /prod/region",
        "gcloud secrets list",
        "vault status",
        "vault kv list secret/",
    ],
)
def test_listing_what_there_is_stays_ordinary(command: str) -> None:
    """S-RULE-193: names and metadata are no secret."""
    assert ps(command) is None


@requirement("S-RULE-193")
def test_typed_into_a_console_is_refused_as_sent() -> None:
    """S-RULE-193: the keyboard is a shell (issue 18 item 4)."""
    text = "aws secretsmanager get-secret-value --secret-id prod/db"
    assert typed_in_console(text) == READ


@requirement("S-RULE-193")
def test_the_reason_names_the_command() -> None:
    """S-RULE-193: the refusal says which command would print the secret."""
    reason = reason_of("Get-SSMParameter -Name /prod/db -WithDecryption $true").lower()
    assert "get-ssmparameter" in reason
    assert "aws secretsmanager get-secret-value" in reason_of("aws secretsmanager get-secret-value --secret-id x")
