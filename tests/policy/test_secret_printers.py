"""A command-line tool asked to print a stored secret is credential access (S-RULE-118).

`gh auth token` puts a GitHub token into the agent's transcript as surely as reading the file the token is
kept in; the gateway refuses that read, so it refuses the print too. Asking who is signed in passes.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

THEFT = ("credential-access", "deny")


@requirement("S-RULE-118")
@pytest.mark.parametrize(
    "command",
    [
        "git credential fill",
        '"protocol=https`nhost=github.com`n" | git credential fill',
        "git credential-manager get",
        "gh auth token",
        "gh.exe auth status --show-token",
        "az account get-access-token --resource https://vault.azure.net",
        "gcloud auth print-access-token",
        "gcloud auth application-default print-access-token",
        "aws configure get aws_secret_access_key",
        "aws configure export-credentials --format env",
        "aws ecr get-login-password --region eu-west-1",
        "kubectl config view --raw",
        "op read op://Private/GitHub/password",
        "bw get password github.com",
        "bw list items",
        "bw export --format json",
        "docker-credential-wincred list",
        "cmd /c gh auth token",
    ],
)
def test_printing_a_stored_secret_is_credential_access(command: str) -> None:
    """S-RULE-118: git, GitHub, Azure, Google Cloud, AWS, Kubernetes, 1Password, Bitwarden and Docker helpers."""
    assert ps(command) == THEFT


@requirement("S-RULE-118")
@pytest.mark.parametrize(
    "command",
    [
        "gh auth status",
        "az account show",
        "gcloud auth list",
        "aws configure get region",
        "aws sts get-caller-identity",
        "kubectl config view",
        "bw status",
        "git status",
        "git config --get credential.helper",
    ],
)
def test_asking_who_is_signed_in_passes(command: str) -> None:
    """S-RULE-118: names and settings without the secret."""
    assert ps(command) is None
