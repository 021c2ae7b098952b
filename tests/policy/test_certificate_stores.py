"""The trusted certificate stores and the network providers (S-RULE-137).

A certificate added to `Root` (or `AuthRoot`, `TrustedPublisher`, `TrustedPeople`) is trusted for every TLS
connection and every signature: whoever holds its key can read the machine's encrypted traffic or sign code that
runs as trusted. `certutil -addstore` and `Import-Certificate` were already refused; these tests try the other doors:
the registry keys the stores live in, the .NET `X509Store` object, and the `Cert:` drive. A network provider is a
DLL Windows hands the user's password at every logon.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_security import trust_store_item
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

WEAKENING = ("security-weakening", "deny")


@requirement("S-RULE-137")
@pytest.mark.parametrize(
    "key",
    [
        r"HKLM:\SOFTWARE\Microsoft\SystemCertificates\ROOT\Certificates\AB12",
        r"HKCU:\Software\Microsoft\SystemCertificates\Root\Certificates\AB12",
        r"HKLM:\SOFTWARE\Microsoft\SystemCertificates\AuthRoot\Certificates\AB12",
        r"HKCU:\Software\Microsoft\SystemCertificates\TrustedPublisher\Certificates\AB12",
        r"HKLM:\SOFTWARE\Policies\Microsoft\SystemCertificates\Root\Certificates\AB12",
        r"HKLM:\SOFTWARE\Microsoft\EnterpriseCertificates\Root\Certificates\AB12",
    ],
)
def test_a_certificate_written_into_a_trusted_stores_key_is_refused(key: str) -> None:
    """S-RULE-137: the Registry tool, `reg add` and `Set-ItemProperty` writing a store's certificate blob."""
    assert verdict("Registry", mode="set", path=key, name="Blob", value="00", type="Binary") == WEAKENING
    reg_key = key.replace(":", "", 1)
    assert ps(f"reg add {reg_key} /v Blob /t REG_BINARY /d 00 /f") == WEAKENING
    assert ps(f"Set-ItemProperty -Path '{key}' -Name Blob -Value ([byte[]](0))") == WEAKENING


@requirement("S-RULE-137")
def test_the_personal_store_and_reading_pass() -> None:
    """S-RULE-137: the user's own `My` store is theirs; reading a trusted store changes nothing."""
    my = r"HKCU:\Software\Microsoft\SystemCertificates\My\Certificates\AB12"
    assert verdict("Registry", mode="set", path=my, name="Blob", value="00", type="Binary") is None
    root = r"HKCU:\Software\Microsoft\SystemCertificates\Root\Certificates"
    assert verdict("Registry", mode="get", path=root) is None
    assert ps(r"Get-ChildItem Cert:\LocalMachine\Root") is None


@requirement("S-RULE-137")
@pytest.mark.parametrize(
    "made",
    [
        "New-Object Security.Cryptography.X509Certificates.X509Store('Root','CurrentUser')",
        "New-Object -TypeName System.Security.Cryptography.X509Certificates.X509Store -ArgumentList Root, LocalMachine",
        "[System.Security.Cryptography.X509Certificates.X509Store]::new('AuthRoot', 'LocalMachine')",
        "New-Object Security.Cryptography.X509Certificates.X509Store($storeName, 'CurrentUser')",  # not constant
    ],
)
@pytest.mark.parametrize("change", ["$s.Add($c)", "$s.AddRange($cs)", "$s.Remove($c)"])
def test_an_x509store_made_for_a_trusted_store_is_not_changed(made: str, change: str) -> None:
    """S-RULE-137: the store object kept in a variable; its changes name the store it was made for."""
    assert ps(f"$s = {made}; $s.Open('ReadWrite'); {change}") == WEAKENING


@requirement("S-RULE-137")
@pytest.mark.parametrize(
    "command",
    [
        "$s = New-Object Security.Cryptography.X509Certificates.X509Store('My','CurrentUser'); $s.Add($c)",
        "$s = New-Object Security.Cryptography.X509Certificates.X509Store('Root','LocalMachine'); "
        "$s.Open('ReadOnly'); $s.Certificates | Select-Object Subject",
        "$list = New-Object System.Collections.ArrayList; $list.Add('Root')",
    ],
)
def test_other_stores_reading_and_other_adds_pass(command: str) -> None:
    """S-RULE-137: the personal store, a read-only look, and an `Add` on a list are ordinary."""
    assert ps(command) is None


@requirement("S-RULE-137")
def test_the_cert_drive_delete_and_move_of_a_trusted_root_is_refused() -> None:
    """S-RULE-137: as `certutil -delstore root`: a root every connection checks against removed or moved away."""
    assert ps(r"Remove-Item Cert:\LocalMachine\Root\AB12") == WEAKENING
    assert ps(r"Move-Item Cert:\LocalMachine\Root\AB12 Cert:\LocalMachine\Disallowed") == WEAKENING
    assert ps(r"Remove-Item Cert:\CurrentUser\My\AB12") is None
    assert trust_store_item(r"Cert:\CurrentUser\TrustedPublisher")
    assert not trust_store_item(r"Cert:\CurrentUser\My\AB12")
    assert not trust_store_item(r"C:\Root\x")


@requirement("S-RULE-137")
def test_a_network_providers_registration_is_a_hijack_point() -> None:
    """S-RULE-137: NPPSpy's door: the provider order, and a service's `NetworkProvider\\ProviderPath`."""
    hijack = ("persistence-hijack", "deny")
    order = r"HKLM:\SYSTEM\CurrentControlSet\Control\NetworkProvider\Order"
    provider = r"HKLM:\SYSTEM\CurrentControlSet\Services\np\NetworkProvider"
    assert (
        verdict("Registry", mode="set", path=order, name="ProviderOrder", value="RDPNP,LanmanWorkstation,np") == hijack
    )
    assert verdict("Registry", mode="set", path=provider, name="ProviderPath", value=r"C:\t\np.dll") == hijack
    assert verdict("Registry", mode="get", path=order) is None
