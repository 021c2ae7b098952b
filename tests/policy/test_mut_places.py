"""Which protected place a path is in, when both the path and the place are wildcards (S-RULE-17,
S-RULE-19); found by mutation testing.

Each expectation is written from policy/rules/places.py's docstring: matching errs towards "it is the
protected place", so a wildcard target is in a wildcard place when some name could match both, and
in none when no name could: `*.ps1` and `x*e.ps1` could each be `…profile.ps1`, `*x.ps1` and `*.txt`
never are.
"""

from __future__ import annotations

import pytest

from policy.rules import places
from policy.rules.paths import canonical_key, canonical_path
from policy.rules.places import key_places, places_inside, places_of
from tests._requirements import requirement

PROFILE_DIR = "C:\\Users\\me\\Documents\\WindowsPowerShell\\"


@pytest.fixture(autouse=True)
def _uncached_lookups() -> None:
    """Each test computes its answer: the lookups are cached per process, and a cached answer from an
    earlier test (or a mutation run's parent process) would hide what the matching code does now."""
    places._lookup.cache_clear()
    places._gateway_trie.cache_clear()


def _canonical(path: str) -> str:
    canonical = canonical_path(path)
    assert canonical is not None
    return canonical


def _ids(path: str) -> list[str]:
    return [p.id for p in places_of(_canonical(path))]


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    "name",
    ["*.ps1", "x*e.ps1", "profile.ps[1]", "prof*[1]", "?icrosoft.powershell_profile.ps1"],
    ids=["star-ext", "star-between", "bracket-last", "star-and-bracket", "question-mark"],
)
def test_a_wildcard_that_could_name_a_profile_is_in_the_profile_place(name: str) -> None:
    """S-RULE-17: `*.ps1`, `x*e.ps1`, `profile.ps[1]` could each be a `…profile.ps1`: the profile place."""
    assert "ps-profile" in _ids(PROFILE_DIR + name)


@requirement("S-RULE-17")
@pytest.mark.parametrize("name", ["*x.ps1", "*.txt", "a*b"], ids=["other-end", "other-ext", "no-ps1"])
def test_a_wildcard_that_can_never_name_a_profile_is_in_no_place(name: str) -> None:
    """S-RULE-17: no name ending in `x.ps1` or `.txt` ends in `profile.ps1`: not the profile place."""
    assert "ps-profile" not in _ids(PROFILE_DIR + name)


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("name", "inside"),
    [("id_r*", True), ("*.pub", True), ("i*", True), ("known*", False)],
    ids=["id-prefix", "any-stem", "short-prefix", "other-prefix"],
)
def test_a_wildcard_in_the_ssh_folder_is_a_key_when_it_could_name_one(name: str, inside: bool) -> None:
    """S-RULE-19: `id_r*` or `i*` could be `id_rsa`: the SSH keys; `known*` never starts with `id_`."""
    assert ("ssh-keys" in _ids("C:\\Users\\me\\.ssh\\" + name)) is inside


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("path", "place", "inside"),
    [
        ("C:\\Windows\\System32\\drivers\\etc\\HOSTS~1", "hosts", True),
        ("C:\\Windows\\System32\\drivers\\etc\\HOSTS~1.TXT", "hosts", False),  # `hosts` has no extension
        ("C:\\BOOT~1.INI", "bootmgr", True),  # `boot.ini`: stem and extension both agree
        ("C:\\BOOT~1.TXT", "bootmgr", False),
        ("C:\\Users\\me\\SSH~1\\id_rsa", "ssh-keys", True),  # `.ssh`: the leading dot is dropped
        ("C:\\Windows\\SY5A1B~1\\x", "system32", True),  # after collisions: two characters and a hash
        ("C:\\Windows\\SZ5A1B~1\\x", "system32", False),
        ("C:\\Windows\\SYZ1AB~1\\x", "system32", False),  # `z` is no hash digit
    ],
    ids=["hosts", "hosts-ext", "boot-ini", "boot-txt", "dot-ssh", "hashed", "hashed-other", "not-hashed"],
)
def test_an_8_3_name_is_in_every_place_whose_long_name_it_could_be(path: str, place: str, inside: bool) -> None:
    """S-RULE-17: `HOSTS~1`, `BOOT~1.INI`, `SSH~1`, `SY5A1B~1` could be the short names of those places."""
    assert (place in _ids(path)) is inside


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("short", "inside"),
    [("MYGATE~1.STA", True), ("MYGATE~1.TXT", False)],
    ids=["last-extension", "other-extension"],
)
def test_the_short_name_of_a_state_dir_with_two_dots_takes_its_last_extension(short: str, inside: bool) -> None:
    """S-RULE-17: `my.gateway.state` is `MYGATE~1.STA` (stem before the last dot): still the gateway's place."""
    gateway = ("C:\\Users\\me\\AppData\\Local\\my.gateway.state",)
    found = places_of(_canonical(f"C:\\Users\\me\\AppData\\Local\\{short}\\STOP"), gateway_paths=gateway)
    assert ("gateway-state" in [p.id for p in found]) is inside


@requirement("S-RULE-17")
def test_the_short_name_of_a_state_dir_drops_the_spaces_of_its_extension() -> None:
    """S-RULE-17: `gw.my dir` is `GW~1.MYD`: spaces are left out of an 8.3 extension too."""
    gateway = ("C:\\Users\\me\\AppData\\Local\\gw.my dir",)
    found = places_of(_canonical("C:\\Users\\me\\AppData\\Local\\GW~1.MYD\\STOP"), gateway_paths=gateway)
    assert [p.id for p in found] == ["gateway-state"]


def _key_ids(key: str, value_name: str | None = None) -> list[str]:
    canonical = canonical_key(key)
    assert canonical is not None
    return [p.id for p in key_places(canonical, value_name)]


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("other_user", "current_user"),
    [
        (
            "HKU\\S-1-5-21-1\\Software\\Microsoft\\Windows\\CurrentVersion\\Run",
            "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run",
        ),
        (
            "HKU\\S-1-5-21-1_Classes\\exefile\\shell\\open\\command",
            "HKCU\\Software\\Classes\\exefile\\shell\\open\\command",
        ),
    ],
    ids=["user-hive", "classes-hive"],
)
def test_another_users_hive_holds_the_same_places_as_the_current_users(other_user: str, current_user: str) -> None:
    """S-RULE-19: `HKU\\<sid>\\…\\Run` is a Run key and `HKU\\<sid>_Classes\\…` a handler key, as under HKCU."""
    assert _key_ids(other_user) == _key_ids(current_user) != []


@requirement("S-RULE-11")
def test_the_users_hive_alone_is_in_no_place_and_does_not_raise() -> None:
    """S-RULE-11: `HKU` with no sid after it is handled."""
    assert _key_ids("HKU") == []


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("state_dir", "spelled", "inside"),
    [
        ("MYGATE~1.STA", "my.gateway.state", True),
        ("MYGATE~1.STA", "my.gateway.txt", False),  # `.txt` is no extension `STA` is short for
        ("MYGATE~1.STA", "mygatex*", True),  # `mygatex.sta` is one
        ("MYGATE~1.STA", "my.gatex*", True),  # `my.gatex.sta`: the dot is dropped from the stem
        ("MYGATE~1.STA", "yo*", False),
        ("my.gw~1", "my.gw~1", True),  # a tilde name that is no 8.3 name (a dot in its stem) is still itself
        ("a b gateway", "ABF00D~1", True),  # after collisions: `AB` (the space dropped) and a hash
    ],
    ids=["long-name", "other-extension", "glob-past-stem", "glob-with-dot", "other-glob", "same-name", "hashed"],
)
def test_a_state_dir_spelled_short_or_long_matches_every_name_it_could_be(
    state_dir: str, spelled: str, inside: bool
) -> None:
    """S-RULE-17: a state dir given as `MYGATE~1.STA` covers `my.gateway.state` and `mygatex*`, not `*.txt`."""
    local = "C:\\Users\\me\\AppData\\Local\\"
    found = places_of(_canonical(f"{local}{spelled}\\STOP"), gateway_paths=(local + state_dir,))
    assert ("gateway-state" in [p.id for p in found]) is inside


@requirement("S-RULE-19")
def test_a_folder_holding_the_state_dir_has_the_gateways_place_inside() -> None:
    """S-RULE-19: deleting `D:\\gw` takes the state dir `D:\\gw\\state` along: its place is inside."""
    found = places_inside(_canonical("D:\\gw"), gateway_paths=("D:\\gw\\state",))
    assert [p.id for p in found] == ["gateway-state"]


@requirement("S-RULE-17")
def test_a_wildcard_folder_holds_the_places_inside_every_folder_it_could_name() -> None:
    """S-RULE-17: `System3?` could be `System32`: the drivers folder is inside it."""
    assert "drivers" in [p.id for p in places_inside(_canonical("C:\\Windows\\System3?"))]


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("C:\\Windows\\Temp\\x.dll", []),
        ("C:\\Windows\\Tem[p]\\x.dll", []),  # `Tem[p]` can only be `Temp`
        ("C:\\Windows\\Tasks\\x.dll", ["windows"]),
    ],
    ids=["temp", "glob-of-temp", "other-folder"],
)
def test_a_wildcard_that_can_only_name_the_temp_folder_is_carved_out_of_the_windows_folder(
    path: str, expected: list[str]
) -> None:
    """S-RULE-19: `C:\\Windows\\Temp` is carved out of the Windows folder, however it is spelled."""
    assert _ids(path) == expected


@requirement("S-RULE-17")
def test_a_unc_path_on_a_server_named_like_a_drive_is_not_on_that_drive() -> None:
    """S-RULE-17: `\\\\c:\\windows\\system32` is a share on a server, not the local System32."""
    assert _ids("\\\\c:\\windows\\system32\\x.dll") == []


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("key", "value_name", "inside"),
    [
        ("HKCU\\Software\\Microsoft\\Command Process*", "AutoRun", True),
        ("HKCU\\Software\\Microsoft\\Command Process*", "CompletionChar", False),
        ("HKCU\\Software\\Microsoft\\Command Processor", "Auto*", True),
        ("HKCU\\Software\\Microsoft\\Command Processor", "AUTORU~1", False),  # a value has no 8.3 name
    ],
    ids=["glob-key", "glob-key-other-value", "glob-value", "tilde-value"],
)
def test_a_value_place_needs_a_value_that_could_be_one_of_its_values(key: str, value_name: str, inside: bool) -> None:
    """S-RULE-19: cmd's AutoRun key is the place for `AutoRun` (also under `Command Process*`), not other values."""
    assert ("cmd-autorun-key" in _key_ids(key, value_name)) is inside


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("path", "places"),
    [
        ("c:\\windows\\te*\\evil.dll", ("windows",)),  # Temp (carved out) or Test (in the Windows place)
        ("c:\\windows\\?emp\\evil.dll", ("windows",)),
        ("c:\\windows\\temp~1\\evil.dll", ("windows",)),  # TEMP~1 may be `temporary`
        ("c:\\windows\\t*\\evil.dll", ("windows",)),
        ("c:\\windows\\tem[p]\\evil.dll", ()),  # can only be Temp
        ("c:\\windows\\temp\\evil.dll", ()),
    ],
)
def test_a_pattern_that_may_name_a_carved_out_folder_keeps_the_place_around_it(
    path: str, places: tuple[str, ...]
) -> None:
    """S-RULE-17: a glob or 8.3 name matching the carve-out `Windows\\Temp` may name another folder too."""
    assert tuple(p.id for p in places_of(path)) == places
