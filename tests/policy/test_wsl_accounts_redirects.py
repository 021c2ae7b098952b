"""A WSL distribution's accounts and sudo rules, and the redirections S-RULE-190 did not read (S-RULE-192).

Every refusal below passed before: `/etc/sudoers.d` was no place, the account tools were words, and
`&> file` / `>| file` were cut at `&` and `|` into a command and a stray word.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_linux import linux_effects
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, verdict

ACCOUNT = ("account-change", "deny")
SYSTEM_WRITE = ("protected-place-write", "deny")


@requirement("S-RULE-192")
@pytest.mark.parametrize(
    "command",
    [
        "wsl -u root sh -c \"echo 'me ALL=(ALL) NOPASSWD:ALL' > /etc/sudoers.d/me\"",
        "wsl -u root bash -c \"echo 'me ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers\"",
        "wsl bash -c \"echo 'me ALL=(ALL) NOPASSWD:ALL' | sudo tee /etc/sudoers.d/me\"",
        "wsl -u root -- sh -c \"echo 'evil:x:0:0::/root:/bin/bash' >> /etc/passwd\"",
        "wsl -u root cp /tmp/x /etc/sudoers.d/x",
        "wsl -u root rm /etc/sudoers.d/x",
        "wsl -d Ubuntu -u root -- bash -c 'cd /etc && echo x >> group'",
        r"Set-Content \\wsl$\Ubuntu\etc\sudoers.d\me 'me ALL=(ALL) NOPASSWD:ALL'",
        r"Add-Content \\wsl.localhost\Ubuntu\etc\group 'sudo:x:27:me'",
        "wsl -u root usermod -aG sudo me",
        "wsl -u root useradd -o -u 0 evil",
        "wsl -u root passwd -d root",
        "wsl sudo visudo",
        "wsl -u root gpasswd -a me sudo",
        "wsl -u root -- bash -c 'echo me:pw | chpasswd'",
    ],
)
def test_a_distributions_accounts_and_sudo_rules_are_not_changed(command: str) -> None:
    """S-RULE-192: a line there makes an account, or lets one act as root without a password."""
    assert ps(command) == ACCOUNT


@requirement("S-RULE-192")
def test_the_filesystem_tool_is_judged_alike() -> None:
    """S-RULE-192: the place is one model for every tool."""
    args = {"mode": "write", "path": "\\\\wsl$\\Ubuntu\\etc\\sudoers.d\\me", "content": "me ALL=(ALL) NOPASSWD:ALL"}
    assert verdict("FileSystem", **args) == ACCOUNT


@requirement("S-RULE-192")
@pytest.mark.parametrize(
    "command",
    [
        "wsl cat /etc/passwd",
        "wsl sudo cat /etc/sudoers",
        r"Get-Content \\wsl$\Ubuntu\etc\group",
        "wsl id",
        "wsl getent passwd me",
        "wsl groups me",
        "wsl -- bash -c 'echo hi > /tmp/x'",
    ],
)
def test_reading_the_accounts_stays_ordinary(command: str) -> None:
    """S-RULE-192: who the accounts are is not refused."""
    assert ps(command) is None


@requirement("S-RULE-192")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('wsl bash -c "echo x &> /mnt/c/Windows/System32/x.dll"', SYSTEM_WRITE),
        ('wsl bash -c "echo x &>/mnt/c/Windows/System32/x.dll"', SYSTEM_WRITE),
        ('wsl bash -c "echo x &>> /mnt/c/Windows/System32/x.dll"', SYSTEM_WRITE),
        ('wsl bash -c "echo x >& /mnt/c/Windows/System32/x.dll"', SYSTEM_WRITE),
        ('wsl bash -c "echo x >&/mnt/c/Windows/System32/x.dll"', SYSTEM_WRITE),
        ('wsl bash -c "echo x >| /mnt/c/Windows/System32/x.dll"', SYSTEM_WRITE),
        ('wsl bash -c "echo x 2>| /mnt/c/Windows/System32/x.dll"', SYSTEM_WRITE),
        ('wsl bash -c "echo x >| ~/.bashrc"', ("persistence-autostart", "ask")),
        ('wsl bash -c "sleep 1 & rm -rf /mnt/c/Users/me/Documents"', ("protected-place-delete", "deny")),
    ],
)
def test_every_redirection_writes_its_file(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-192: both streams, past noclobber, the file glued or next."""
    assert ps(command) == expected


@requirement("S-RULE-192")
@pytest.mark.parametrize(
    "command",
    [
        'wsl bash -c "ls > /dev/null 2>&1"',
        'wsl bash -c "ls 2>&1 | grep x"',
        'wsl bash -c "ls >&2"',
        'wsl bash -c "ls >& 2"',
        'wsl bash -c "ls 1>&-"',
        'wsl bash -c "ls &> /dev/null"',
        'wsl bash -c "make >| build.log"',
        'wsl bash -c "cat <&0 > /tmp/y"',
        'wsl bash -c "ls |& grep x"',
    ],
)
def test_a_stream_copied_or_closed_writes_no_file(command: str) -> None:
    """S-RULE-192: `2>&1`, `>&2`, `>&-` and `/dev/null` are no file."""
    assert ps(command) is None


@requirement("S-RULE-192")
def test_a_redirections_ampersand_splits_no_command() -> None:
    """S-RULE-192: `2>&1` used to leave a stray command `1`; `&>` a command `> f` with no file."""
    effects = linux_effects("bash", ("-c", "ls 2>&1 &> /mnt/c/x/out.txt"))
    writes = [e.target for e in effects if e.kind is EffectKind.WRITE]
    assert writes == ["c:\\x\\out.txt"]


@requirement("S-RULE-192")
def test_typed_into_a_console_is_refused_as_sent() -> None:
    """S-RULE-192: the keyboard is a shell (issue 18 item 4)."""
    text = "wsl -u root sh -c \"echo 'me ALL=(ALL) NOPASSWD:ALL' > /etc/sudoers.d/me\""
    assert typed_in_console(text) == ACCOUNT


@requirement("S-RULE-192")
def test_here_documents_a_missing_target_and_the_word_after_a_target() -> None:
    """S-RULE-190/192: `<<EOF` and `<<<` read no file, `>` with nothing after it writes none, and the word after
    a redirection's file is the command's own again (`cat > /tmp/a ~/.ssh/id_rsa` reads the key)."""
    here = linux_effects("bash", ("-c", "cat <<EOF > /tmp/y"))
    assert [e.kind for e in here] == [EffectKind.WRITE]
    assert linux_effects("bash", ("-c", "wc -l <<< hello")) == ()
    assert linux_effects("bash", ("-c", "echo x >")) == ()
    assert ps("wsl bash -c 'cat > /tmp/a ~/.ssh/id_rsa'") == ("credential-access", "deny")
    after = linux_effects("bash", ("-c", "rm > /tmp/log -rf /mnt/c/t/y"))
    assert [(e.kind, e.target) for e in after][1:] == [(EffectKind.DELETE_RECURSIVE, "c:\\t\\y")]
