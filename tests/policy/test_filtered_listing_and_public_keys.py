"""Two false alarms on ordinary calls (S-RULE-104), found in stop 31's pass over everyday agent commands.

`Get-ChildItem ~\\Downloads -Filter *.tmp | Remove-Item` was refused as the delete of `Downloads` itself, and
`Get-Content ~\\.ssh\\id_rsa.pub` as the read of a private key. The negatives stay: a listing whose path may
be a file is judged as before, and every spelling that may name a private key is still refused.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, ps_effects, verdict

DOWNLOADS = r"C:\Users\me\Downloads"
SSH = r"C:\Users\me\.ssh"


@requirement("S-RULE-104")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (rf"Get-ChildItem {DOWNLOADS} -Filter *.tmp | Remove-Item", ("wildcard-delete", "ask")),
        (rf"Get-ChildItem {DOWNLOADS} *.tmp | Remove-Item", ("wildcard-delete", "ask")),
        (r"gci C:\t\build -Filter *.obj | Remove-Item", None),
        (rf"Get-ChildItem {DOWNLOADS} -Filter *.tmp -Recurse | Remove-Item", ("recursive-delete", "deny")),
        (r"Get-ChildItem C:\Windows\System32 -Filter *.dll | Remove-Item", ("protected-place-delete", "deny")),
        (r"Get-ChildItem C:\Windows -Filter System32 | Remove-Item -Recurse", ("protected-place-delete", "deny")),
        (r"Get-ChildItem C:\Users -Filter me | Remove-Item -Recurse", ("protected-place-delete", "deny")),
        (rf"Get-ChildItem {SSH} -Filter id_* | Copy-Item -Destination C:\t", ("credential-access", "deny")),
    ],
    ids=[
        "filter",
        "positional-filter",
        "own-folder",
        "recursive",
        "system32-items",
        "name-matches",
        "profile",
        "ssh-keys",
    ],  # fmt: skip
)
def test_a_filtered_listing_hands_down_its_matching_items(command: str, expected: object) -> None:
    """S-RULE-104: the items `X\\filter` are the targets; a path the filter itself matches is judged as before."""
    assert ps(command) == expected


@requirement("S-RULE-104")
def test_the_filtered_items_are_the_delete_target() -> None:
    """S-RULE-104: the delete names `Downloads\\*.tmp`, never the folder `Downloads`."""
    targets = {(e.kind.value, e.target) for e in ps_effects(rf"Get-ChildItem {DOWNLOADS} -Filter *.tmp | Remove-Item")}
    assert ("delete", DOWNLOADS + r"\*.tmp") in targets
    assert ("delete", DOWNLOADS) not in targets


@requirement("S-RULE-104")
@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("id_rsa.pub", False),
        ("id_ed25519.pub", False),
        ("id_rsa", True),
        ("id_ed25519", True),
        ("id_rsa_work", True),
        ("id_rsa.pub.bak", True),
        ("id_rsa.bak", True),
        ("ID_RSA", True),
        ("id_*", True),
        ("*", True),
        ("id_rs?", True),
    ],
)
def test_a_public_key_is_not_a_private_one(name: str, secret: bool) -> None:
    """S-RULE-104: `id_*.pub` is ordinary to read; any name or wildcard that may be a private key is not."""
    expected = ("credential-access", "deny") if secret else None
    assert ps(rf"Get-Content {SSH}\{name}") == expected
    assert verdict("FileSystem", mode="read", path=rf"{SSH}\{name}") == expected
