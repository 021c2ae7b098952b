"""The place tables as read from their text form (S-RULE-19); found by mutation testing.

Each expectation is written from the table text in policy/rules/place_table.py: the header line
(id, category, scope, label), its patterns with `{a,b}`, `~\\`, the registry stems and `[values]`
spelled out.
"""

from __future__ import annotations

from policy.rules.place_table import FILE_PLACES, KEY_PLACES, Place, PlaceCategory, PlaceEntry
from tests._requirements import requirement

C = PlaceCategory
CV = "hk*\\software\\microsoft\\windows\\currentversion"
PROFILES = ("c:\\users\\*", "c:\\windows\\system32\\config\\systemprofile", "c:\\windows\\serviceprofiles\\*")


def _entries(place_id: str) -> list[PlaceEntry]:
    return [e for e in (*FILE_PLACES, *KEY_PLACES) if e.place.id == place_id]


@requirement("S-RULE-19")
def test_a_place_with_one_pattern_is_one_entry_with_its_header() -> None:
    """S-RULE-19: `windows  system  tree | the Windows folder` with `c:\\windows` under it."""
    assert FILE_PLACES[0] == PlaceEntry(
        Place(id="windows", category=C.SYSTEM, label="the Windows folder"), ("c:\\windows",), "tree", None
    )
    assert _entries("windows-temp")[0].scope == "open"


@requirement("S-RULE-19")
def test_braces_spell_several_patterns_in_order() -> None:
    """S-RULE-19: `c:\\{bootmgr,bootnxt,ntldr,boot.ini}` is four exact places."""
    (entry,) = _entries("bootmgr")
    assert entry == PlaceEntry(
        Place(id="bootmgr", category=C.BOOT, label="the Windows boot manager"),
        ("c:\\bootmgr", "c:\\bootnxt", "c:\\ntldr", "c:\\boot.ini"),
        "exact",
        None,
    )


@requirement("S-RULE-19")
def test_a_home_pattern_covers_every_profile_root_and_braces_multiply() -> None:
    """S-RULE-19: `~\\appdata\\{roaming,local}\\microsoft\\{credentials,vault}`: 3 roots x 2 x 2, then the next."""
    (entry,) = _entries("credential-manager")
    expected = tuple(
        f"{root}\\appdata\\{where}\\microsoft\\{what}"
        for where in ("roaming", "local")
        for what in ("credentials", "vault")
        for root in PROFILES
    )
    assert entry.patterns == (*expected, "c:\\programdata\\microsoft\\vault")
    assert entry.place.category is C.CREDENTIAL_STORE
    (startup,) = _entries("startup")
    assert startup.patterns == tuple(
        f"{root}\\appdata\\roaming\\microsoft\\windows\\start menu\\programs\\startup" for root in PROFILES
    )


@requirement("S-RULE-19")
def test_patterns_continue_over_lines_and_semicolons() -> None:
    """S-RULE-19: every indented line and every `;` item belongs to the header above it."""
    (entry,) = _entries("dpapi-keys")
    assert entry.patterns[-2:] == ("c:\\windows\\system32\\microsoft\\protect", "c:\\programdata\\microsoft\\crypto")
    assert len(entry.patterns) == 3 * 2 + 2


@requirement("S-RULE-19")
def test_registry_stems_expand_and_values_split_a_place_into_entries() -> None:
    """S-RULE-19: `$CV` is the CurrentVersion key; `[a, b]` limits a pattern to those values, in its own entry."""
    (run,) = _entries("run-key")
    assert run.patterns == (
        *(f"{CV}\\{k}" for k in ("run", "runonce", "runonceex", "runservices", "runservicesonce")),
        f"{CV}\\policies\\explorer\\run",
    )
    assert (run.place.category, run.scope, run.values) == (C.AUTOSTART_KEY, "tree", None)
    whole, limited = _entries("execution-policy-key")
    assert whole.patterns == ("hk*\\software\\microsoft\\powershell\\1\\shellids",) and whole.values is None
    assert limited.patterns == (
        "hk*\\software\\policies\\microsoft\\windows\\powershell",
        "hk*\\software\\policies\\microsoft\\powershellcore",
    )
    assert limited.values == frozenset({"executionpolicy", "enablescripts"})
    assert (
        whole.place
        == limited.place
        == Place(id="execution-policy-key", category=C.SECURITY_TOOL_KEY, label="PowerShell's execution policy")
    )
    (autorun,) = _entries("cmd-autorun-key")
    assert (autorun.patterns, autorun.values) == (
        ("hk*\\software\\microsoft\\command processor",),
        frozenset({"autorun"}),
    )


@requirement("S-RULE-19")
def test_every_table_is_read_to_its_end() -> None:
    """S-RULE-19: the browser table follows the file table, the service table the key table."""
    assert FILE_PLACES[-1].place.id == "opera-gx-wallets"  # the wallet rows follow the browsers (S-RULE-112)
    assert KEY_PLACES[-1].place.id == "waasmedicsvc-service"
    assert all(e.patterns and all(p for p in e.patterns) for e in (*FILE_PLACES, *KEY_PLACES))
