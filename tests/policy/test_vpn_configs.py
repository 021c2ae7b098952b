"""A VPN client's saved connections are a credential store (S-RULE-168).

Every refusal below passed before: an OpenVPN profile holds its private key inline or beside it with a password
file, and WireGuard's configurations hold the tunnel's private key: together, a way into the user's network.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

DENY = ("credential-access", "deny")


@requirement("S-RULE-168")
@pytest.mark.parametrize(
    "command",
    [
        r'Get-Content "C:\Program Files\OpenVPN\config\client.ovpn"',
        r'Copy-Item "C:\Program Files\OpenVPN\config-auto\site.ovpn" C:\t\ ',
        r"Get-Content ~\OpenVPN\config\auth.txt",
        r'Copy-Item "$env:APPDATA\OpenVPN Connect\profiles" C:\t\p -Recurse',
        r'Copy-Item "C:\Program Files\WireGuard\Data\Configurations" C:\t\wg -Recurse',
        r'Compress-Archive "C:\Program Files\WireGuard\Data\Configurations" C:\t\wg.zip',
    ],
)
def test_reading_a_vpn_clients_connections_is_credential_access(command: str) -> None:
    """S-RULE-168: as reading any other credential store."""
    assert ps(command) == DENY


@requirement("S-RULE-168")
@pytest.mark.parametrize(
    "command",
    [
        r'Get-Content "C:\Program Files\OpenVPN\log\client.log"',
        r'Start-Process "C:\Program Files\OpenVPN\bin\openvpn-gui.exe"',
        r'Get-Item "C:\Program Files\WireGuard\wireguard.exe"',
    ],
)
def test_the_vpn_clients_programs_and_logs_stay_ordinary(command: str) -> None:
    """S-RULE-168: only the saved connections are the store."""
    assert ps(command) is None
