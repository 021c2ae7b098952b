"""More credential stores, and reads that reach one through a recursive listing (S-RULE-155).

Everything refused below passed before: GnuPG's private keys, Group Policy Preferences passwords (the
`cpassword` in `Groups.xml` decrypts with a key Microsoft published), developer and AI-agent tokens, and a
listing that finds the key for the reader (`Get-ChildItem ~ -Recurse -Filter id_rsa | Get-Content`).
"""

from __future__ import annotations

import pytest

from policy.rules.place_table import FILE_PLACES
from policy.rules.places import could_be_named
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

DENY = ("credential-access", "deny")
_PROFILE = "C:\\Users\\me\\"


@requirement("S-RULE-155")
@pytest.mark.parametrize(
    "path",
    [
        "AppData\\Roaming\\gnupg\\private-keys-v1.d\\0A1B2C.key",
        "AppData\\Roaming\\gnupg\\secring.gpg",
        ".gnupg\\private-keys-v1.d",
        ".terraform.d\\credentials.tfrc.json",
        "AppData\\Roaming\\terraform.d\\credentials.tfrc.json",
        ".vault-token",
        ".pgpass",
        "AppData\\Roaming\\postgresql\\pgpass.conf",
        ".m2\\settings.xml",
        ".m2\\settings-security.xml",
        ".gradle\\gradle.properties",
        "AppData\\Roaming\\npm\\etc\\npmrc",
        ".cargo\\credentials.toml",
        ".boto",
        ".s3cfg",
        ".config\\hub",
        "AppData\\Local\\Microsoft\\Remote Desktop Connection Manager\\RDCMan.settings",
        "AppData\\Roaming\\Microsoft\\UserSecrets\\6f1c\\secrets.json",
        "AppData\\Local\\.IdentityService\\msal.cache",
        ".claude\\.credentials.json",
        ".codex\\auth.json",
        ".gemini\\oauth_creds.json",
        ".config\\github-copilot\\hosts.json",
        "AppData\\Local\\github-copilot\\apps.json",
    ],
)
def test_reading_a_token_or_key_store_is_credential_access(path: str) -> None:
    """S-RULE-155: by the FileSystem tool and by Get-Content, under any profile."""
    assert verdict("FileSystem", mode="read", path=_PROFILE + path) == DENY
    assert ps(f'Get-Content "{_PROFILE}{path}"') == DENY
    assert ps(f'Copy-Item "C:\\Users\\bob\\{path}" C:\\t\\x') == DENY


@requirement("S-RULE-155")
@pytest.mark.parametrize(
    "path",
    [
        "C:\\ProgramData\\Microsoft\\Group Policy\\History\\{31B2F340}\\Machine\\Preferences\\Groups\\Groups.xml",
        "C:\\ProgramData\\Microsoft\\Group Policy\\History\\{31B2F340}\\S-1-5-21-1\\Preferences\\Drives\\Drives.xml",
        "\\\\corp.example\\SYSVOL\\corp.example\\Policies\\{31B2F340}\\MACHINE\\Preferences\\Groups\\Groups.xml",
        "\\\\DC01\\sysvol\\corp\\Policies\\{6AC1786C}\\User\\Preferences\\ScheduledTasks\\ScheduledTasks.xml",
    ],
)
def test_a_group_policy_preferences_file_is_a_credential_store(path: str) -> None:
    """S-RULE-155: locally cached or on a domain controller's SYSVOL share (`//` in the table: any machine)."""
    assert verdict("FileSystem", mode="read", path=path) == DENY


@requirement("S-RULE-155")
@pytest.mark.parametrize(
    "command",
    [
        "gpg --export-secret-keys --armor me@example.com",
        "gpg -a --export-secret-k me",  # an abbreviation gpg accepts
        "gpg2 --export-secret-subkeys > C:\\t\\k.asc",
        "& 'C:\\Program Files (x86)\\GnuPG\\bin\\gpg.exe' --batch --export-secret-keys",
        # a recursive listing that finds the store for the reader
        "Get-ChildItem C:\\Users\\me -Recurse -Filter id_rsa | Get-Content",
        "gci ~ -r -fi id_rsa | gc",
        "Get-ChildItem C:\\Users\\me -Recurse | Get-Content",
        "Get-ChildItem C:\\Users\\me -Recurse -Filter *.key | Get-Content",  # GnuPG's keys have any name
        "Get-ChildItem C:\\ProgramData -Recurse -Include Groups.xml | Get-Content",
        "Get-ChildItem \\\\corp\\SYSVOL -Recurse -Filter Groups.xml | Get-Content",
        "Get-ChildItem C:\\Users\\me\\AppData\\Roaming\\gnupg -Recurse | Copy-Item -Destination C:\\t",
        "Get-ChildItem C:\\Users\\me -Recurse -Filter id_rsa | Move-Item -Destination C:\\t",
        "Get-ChildItem C:\\Users\\me -Recurse -Filter id_rsa | ForEach-Object { Get-Content $_.FullName }",
        "Get-ChildItem C:\\Users\\me -Recurse | ForEach-Object { Copy-Item $_.FullName C:\\t }",
        "foreach ($f in Get-ChildItem C:\\Users\\me -Recurse -Filter id_rsa) { Get-Content $f.FullName }",
        "Get-ChildItem C:\\Users\\me -Recurse -Filter id_rsa | ForEach-Object { [IO.File]::ReadAllText($_.FullName) }",
    ],
)
def test_exports_and_listings_that_reach_a_store_are_refused(command: str) -> None:
    """S-RULE-155: a private key printed, and a recursive listing's files read, copied or moved."""
    assert ps(command) == DENY


@requirement("S-RULE-155")
@pytest.mark.parametrize(
    "command",
    [
        "gpg --armor --export me@example.com",  # a public key
        "gpg --list-secret-keys",
        "Get-ChildItem C:\\Users\\me -Recurse -Filter notes.txt | Get-Content",  # a name no store has
        "Get-ChildItem C:\\Users\\me\\Documents -Recurse -Filter *.txt | Get-Content",  # no store below
        "Get-ChildItem C:\\src -Recurse -Filter *.cs | Copy-Item -Destination C:\\backup",
        "Get-ChildItem C:\\Users\\me\\Documents -Recurse | ForEach-Object { Copy-Item $_.FullName D:\\backup }",
        "Get-ChildItem C:\\Users\\me -Recurse -Filter id_rsa",  # a listing shows names, not contents
        "Get-Content C:\\Users\\me\\.m2\\repository\\x\\pom.xml",
        "Get-Content 'C:\\ProgramData\\Microsoft\\Group Policy\\History\\{31B2F340}\\Machine\\Registry.pol'",
    ],
)
def test_public_keys_names_and_trees_without_a_store_pass(command: str) -> None:
    """S-RULE-155: nothing secret is read."""
    assert ps(command) is None


@requirement("S-RULE-155")
def test_a_filter_picks_a_store_by_its_name_or_by_any_name_in_a_folder_store() -> None:
    """S-RULE-155: an exact store only by a name it could have; a folder store by any glob, or by its own name."""
    places = {e.place.id: e.place for e in FILE_PLACES}
    ssh_keys, gpg = places["ssh-keys"], places["gpg-keys"]
    assert could_be_named(ssh_keys, "id_rsa") and could_be_named(ssh_keys, "ID_*")
    assert not could_be_named(ssh_keys, "notes.txt") and not could_be_named(ssh_keys, "id_rsa.pub")
    assert could_be_named(gpg, "*.key") and could_be_named(gpg, "secring.gpg")
    assert could_be_named(gpg, "private-keys-v1.d") and not could_be_named(gpg, "notes.txt")
