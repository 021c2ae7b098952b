"""A WSL distribution's share of this machine's drives (S-RULE-135).

Windows reaches a distribution's files through `\\\\wsl$\\<distro>\\…` (and `\\\\wsl.localhost\\<distro>\\…`); the
distribution mounts the Windows drives under `/mnt` by default, so `\\\\wsl$\\Ubuntu\\mnt\\c\\Windows` is the same
folder as `C:\\Windows`, with the user's rights. Paths are compared as Windows compares them (`ntpath`-style).
"""

from __future__ import annotations

import pytest

from policy.rules.paths import canonical_path, is_remote
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict


@requirement("S-RULE-135")
@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        (r"\\wsl$\Ubuntu\mnt\c\Windows\System32\hal.dll", r"c:\windows\system32\hal.dll"),
        (r"\\wsl.localhost\Debian\mnt\d\data", r"d:\data"),
        (r"\\WSL$\Ubuntu\MNT\C\Users", r"c:\users"),
        (r"\\wsl$\Ubuntu\mnt\c", "c:\\"),
        (r"\\wsl$\Ubuntu\tmp\..\mnt\c\Users", r"c:\users"),
        (r"\\?\UNC\wsl$\Ubuntu\mnt\c\Users", r"c:\users"),
        ("//wsl$/Ubuntu/mnt/c/Windows", r"c:\windows"),
    ],
)
def test_a_distributions_mounted_drive_is_that_drive(written: str, canonical: str) -> None:
    """S-RULE-135: `mnt\\<letter>` under a distribution's share is the drive, `..` resolved inside the share."""
    assert canonical_path(written) == canonical


@requirement("S-RULE-135")
@pytest.mark.parametrize(
    "written",
    [r"\\wsl$\Ubuntu\home\me\x.txt", r"\\wsl$\Ubuntu\mnt\cx\y", r"\\wsl$\Ubuntu\mnt", r"\\wsl.localhost\Ubuntu"],
)
def test_a_distributions_own_files_stay_its_own(written: str) -> None:
    """S-RULE-135: a home folder, a folder merely named like a drive, the mount root itself, the share's root."""
    assert canonical_path(written) == written.lower()
    assert not is_remote(written)


@requirement("S-RULE-135")
def test_a_delete_through_the_share_is_the_same_delete() -> None:
    """S-RULE-135: every rule that protects `C:\\…` protects its WSL spelling, for PowerShell and FileSystem alike."""
    assert ps(r"Remove-Item \\wsl$\Ubuntu\mnt\c\Windows\System32\hal.dll") == ("protected-place-delete", "deny")
    assert ps(r"Remove-Item \\wsl.localhost\Ubuntu\mnt\c\Users -Recurse -Force")[1] == "deny"  # type: ignore[index]
    hosts = r"\\wsl.localhost\Ubuntu\mnt\c\Windows\System32\drivers\etc\hosts"
    assert verdict("FileSystem", mode="write", path=hosts, content="1.2.3.4 x") == ("protected-place-write", "deny")
    assert ps(r"Remove-Item \\wsl$\Ubuntu\home\me\x.txt") is None


@requirement("S-RULE-135")
def test_the_gateways_own_state_is_protected_through_the_share() -> None:
    """S-RULE-135: the kill switch's STOP file deleted through a distribution's view of C: is self-protection."""
    from policy.rules.match import load_rules

    state = r"C:\Users\bob\AppData\Local\winmcp-gateway"
    rules = load_rules(protected_paths=[state, state + r"\STOP"])
    stop = r"\\wsl$\Ubuntu\mnt\c\Users\bob\AppData\Local\winmcp-gateway\STOP"
    for tool, args in (("FileSystem", {"mode": "delete", "path": stop}), ("PowerShell", {"command": f"del {stop}"})):
        hit = rules.match(tool, args)
        assert hit is not None and (hit.rule_id, hit.action) == ("self-protection", "deny"), tool
