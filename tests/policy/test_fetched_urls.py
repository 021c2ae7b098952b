"""What a download fetches (S-RULE-144): a `file:` URL is the local file, a cloud's metadata service its tokens.

`Invoke-WebRequest file:///C:/Users/me/.ssh/id_rsa` reads the key as `Get-Content` does (Windows PowerShell's web
cmdlets and .NET's WebClient speak `file:`); on a cloud desktop, `http://169.254.169.254/…` answers any local process
with the machine's access tokens.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_network import fetched
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

DENY = ("credential-access", "deny")
KEY = "file:///C:/Users/me/.ssh/id_rsa"


@requirement("S-RULE-144")
@pytest.mark.parametrize(
    "command",
    [
        f"Invoke-WebRequest {KEY}",
        f"iwr -Uri {KEY} -OutFile C:\\t\\k",
        f"Invoke-RestMethod '{KEY}'",
        f"(New-Object Net.WebClient).DownloadString('{KEY}')",
        f"$w = New-Object System.Net.WebClient; $w.DownloadFile('{KEY}', 'C:\\t\\k')",
        f"curl.exe -s {KEY}",
        f"Start-BitsTransfer -Source {KEY} -Destination C:\\t\\k",
        "curl.exe file://localhost/C:/Users/me/AppData/Local/Google/Chrome/User%20Data/Default/Login%20Data",
    ],
)
def test_a_file_url_of_a_credential_store_is_a_credential_read(command: str) -> None:
    """S-RULE-144: the same read as `Get-Content` of the path, by every downloader."""
    assert ps(command) == DENY


@requirement("S-RULE-144")
@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
        "http://169.254.169.254/metadata/identity/oauth2/token?resource=https://management.azure.com/",
        "http://2852039166/latest/meta-data/",
        "http://0xa9fea9fe/latest/meta-data/",
        "http://[fd00:ec2::254]/latest/meta-data/",
        "http://169.254.170.2/v2/credentials/abc",
        "http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token",
        "http://100.100.100.200/latest/meta-data/ram/security-credentials/",
    ],
)
def test_a_cloud_metadata_service_is_a_credential_read(url: str) -> None:
    """S-RULE-144: every spelling of the metadata address, by PowerShell, curl and the Scrape tool."""
    assert ps(f"Invoke-RestMethod -Headers @{{Metadata='true'}} '{url}'") == DENY
    assert ps(f'curl.exe -s "{url}"') == DENY
    assert verdict("Scrape", url=url) == DENY
    assert [e.kind for e in fetched(url, "x")] == [EffectKind.CREDENTIAL_ACCESS]


@requirement("S-RULE-144")
def test_the_scrape_tool_reads_a_file_url() -> None:
    """S-RULE-144: upstream guards its GET, but a file: URL would still be the file."""
    assert verdict("Scrape", url="file:///C:/Users/me/.aws/credentials") == DENY
    assert verdict("Scrape", url="https://example.com/") is None
    assert verdict("Scrape", url="file:///C:/t/readme.txt") is None


@requirement("S-RULE-144")
@pytest.mark.parametrize(
    "command",
    [
        "Invoke-WebRequest https://example.com/a.zip -OutFile C:\\t\\a.zip",
        "curl.exe -o C:\\t\\x.html https://example.com",
        "iwr file:///C:/t/readme.txt",
        "Invoke-RestMethod http://169.254.1.1/status",  # a link-local device, not a metadata service
        "Invoke-RestMethod https://metadata.example.com/api",
    ],
)
def test_other_addresses_pass(command: str) -> None:
    """S-RULE-144: ordinary downloads, a file: URL of an ordinary file, other link-local and look-alike hosts."""
    assert ps(command) is None
