"""The model of what matters on the machine: canonical paths and keys, protected places (issue 18, issue 12)."""

from __future__ import annotations

import ntpath

import pytest

from policy.rules.paths import candidate_paths, canonical_key, canonical_path, special_folder
from policy.rules.place_table import FILE_PLACES, KEY_PLACES, PlaceCategory
from policy.rules.places import key_place, key_places, place_of, places_inside, places_of
from policy.rules.processes import (
    PROTECTED_PROCESSES,
    canonical_process,
    is_protected_process,
    kills_everything,
)
from policy.rules.shell.winenv import STANDARD_ENV
from tests._requirements import requirement

HAL = "C:\\Windows\\System32\\hal.dll"
STATE = "C:\\Users\\alice\\AppData\\Local\\winmcp-gateway"
GATEWAY = (STATE, "C:\\Users\\alice\\AppData\\Roaming\\winmcp-gateway\\config.toml")

# (as written, the canonical reading). Expected values are spelled naturally and compared via ntpath.
CANONICAL = [
    (HAL, HAL),
    ("c:/windows/system32/hal.dll", HAL),
    ("C:\\\\Windows\\\\\\System32\\hal.dll", HAL),
    ("C:\\Windows\\.\\System32\\..\\System32\\hal.dll", HAL),
    ("C:\\..\\..\\Windows\\System32\\hal.dll", HAL),
    ("C:\\Windows.\\System32. \\hal.dll.", HAL),
    ("C:\\a\\winmcp-gateway.\\STOP", "c:\\a\\winmcp-gateway\\stop"),
    ("C:\\a\\winmcp-gateway \\STOP ", "c:\\a\\winmcp-gateway\\stop"),
    ('"C:\\Windows\\System32\\hal.dll"', HAL),
    ("'C:\\Windows\\System32\\hal.dll'", HAL),
    ('"C:\\Program Files"\\x', "c:\\program files\\x"),
    ("'C:\\it''s'", "c:\\it's"),
    ("\\\\?\\C:\\Windows\\System32\\hal.dll", HAL),
    ("\\\\.\\C:\\Windows\\System32\\hal.dll", HAL),
    ("\\??\\C:\\Windows\\System32\\hal.dll", HAL),
    ("\\\\?\\UNC\\localhost\\c$\\Windows\\System32\\hal.dll", HAL),
    ("\\\\localhost\\c$\\Windows\\System32\\hal.dll", HAL),
    ("\\\\LOCALHOST\\C$\\Windows\\System32\\hal.dll", HAL),
    ("\\\\127.0.0.1\\c$\\Windows\\System32\\hal.dll", HAL),
    ("\\\\127.1\\c$\\Windows\\System32\\hal.dll", HAL),
    ("\\\\[::1]\\c$\\Windows\\System32\\hal.dll", HAL),
    ("\\\\0--1.ipv6-literal.net\\c$\\Windows\\System32\\hal.dll", HAL),
    ("\\\\DESKTOP\\c$\\Windows\\System32\\hal.dll", HAL),  # %COMPUTERNAME% of the standard environment
    ("//localhost/c$/Windows/System32/hal.dll", HAL),
    ("\\\\localhost\\ADMIN$\\System32\\hal.dll", HAL),
    ("\\\\localhost\\d$\\data", "d:\\data"),
    ("file:///C:/Windows/System32/hal.dll", HAL),
    ("file://localhost/C:/Windows/System32/hal.dll", HAL),
    ("file:///C|/Windows/System32/hal.dll", HAL),
    ("file:///C:/Program%20Files/x", "c:\\program files\\x"),
    ("FileSystem::C:\\Windows\\System32\\hal.dll", HAL),
    ("Microsoft.PowerShell.Core\\FileSystem::C:\\Windows\\System32\\hal.dll", HAL),
    ("Microsoft.PowerShell.Core\\FileSystem::\\\\localhost\\c$\\Windows\\System32\\hal.dll", HAL),
    ("%SystemRoot%\\System32\\hal.dll", HAL),
    ("%windir%\\system32\\hal.dll", HAL),
    ("%SYSTEMDRIVE%\\Windows\\System32\\hal.dll", HAL),
    ("$env:SystemRoot\\System32\\hal.dll", HAL),
    ("${env:windir}\\System32\\hal.dll", HAL),
    ("${env:ProgramFiles(x86)}\\x", "c:\\program files (x86)\\x"),
    ("%ProgramFiles(x86)%\\x", "c:\\program files (x86)\\x"),
    ("$env:ProgramFiles\\x", "c:\\program files\\x"),
    ("$env:ProgramFiles(x86)\\x", "c:\\program files (x86)\\x"),  # `${env:…(x86)}` folded without its braces
    ("$env:windir(x86)\\x", "c:\\windows(x86)\\x"),  # no such variable: the name and the text `(x86)`
    ("%LOCALAPPDATA%\\winmcp-gateway\\STOP", "c:\\users\\user\\appdata\\local\\winmcp-gateway\\stop"),
    ("$env:APPDATA\\x", "c:\\users\\user\\appdata\\roaming\\x"),
    ("%HOMEDRIVE%%HOMEPATH%\\x", "c:\\users\\user\\x"),
    ("$env:HOMEDRIVE$env:HOMEPATH\\x", "c:\\users\\user\\x"),
    ("~", "c:\\users\\user"),
    ("~\\Desktop\\a.txt", "c:\\users\\user\\desktop\\a.txt"),
    ("~/Desktop/a.txt", "c:\\users\\user\\desktop\\a.txt"),
    ("$HOME\\a.txt", "c:\\users\\user\\a.txt"),
    ("${HOME}\\a.txt", "c:\\users\\user\\a.txt"),
    ("$PSHOME\\profile.ps1", "c:\\windows\\system32\\windowspowershell\\v1.0\\profile.ps1"),
    ("$PROFILE", "c:\\users\\user\\documents\\windowspowershell\\microsoft.powershell_profile.ps1"),
    ("\\Windows\\System32\\hal.dll", HAL),  # rooted: the system drive
    ("C:Windows\\System32\\hal.dll", HAL),  # drive-relative: from the drive's root (the guess)
    ("C:", "c:\\"),
    ("C:\\", "c:\\"),
    ("C:\\PROGRA~1\\x", "c:\\program files\\x"),
    ("C:\\PROGRA~2\\x", "c:\\program files (x86)\\x"),
    ("C:\\PROGRA~3\\x", "c:\\programdata\\x"),
    ("C:\\Users\\bob\\APPDAT~1\\Local", "c:\\users\\bob\\appdata\\local"),
    ("C:\\Documents and Settings\\bob\\Application Data\\x", "c:\\users\\bob\\appdata\\roaming\\x"),
    ("C:\\Documents and Settings\\bob\\Local Settings\\x", "c:\\users\\bob\\appdata\\local\\x"),
    ("C:\\Users\\bob\\My Documents\\x", "c:\\users\\bob\\documents\\x"),
    ("C:\\Users\\All Users\\x", "c:\\programdata\\x"),
    ("C:\\Windows\\Sysnative\\hal.dll", HAL),
    ("C:\\Windows\\System32\\drivers\\etc\\hosts::$DATA", "c:\\windows\\system32\\drivers\\etc\\hosts"),
    ("C:\\Windows\\System32\\hal.dll:evil", HAL),
    (
        "shell:startup\\a.lnk",
        "c:\\users\\user\\appdata\\roaming\\microsoft\\windows\\start menu\\programs\\startup\\a.lnk",
    ),
    ("shell:common startup", "c:\\programdata\\microsoft\\windows\\start menu\\programs\\startup"),
    (
        "\\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy3\\Windows\\System32\\config\\SAM",
        "c:\\windows\\system32\\config\\sam",
    ),  # fmt: skip
    ("\\\\server\\share\\x", "\\\\server\\share\\x"),  # another machine: kept, no local place
    ("C:\\$Recycle.Bin\\x", "c:\\$recycle.bin\\x"),  # a literal `$` is no variable
    ("C:\\Windows\\Sys*\\hal.dll", "c:\\windows\\sys*\\hal.dll"),  # wildcards kept for matching
]

NOT_CANONICAL = [
    "",
    "   ",
    "notes.txt",  # relative, cwd unknown
    "..\\x",
    "$env:NO_SUCH_VARIABLE\\x",
    "%NO_SUCH_VARIABLE%\\x",
    "$(Get-Location)\\x",
    "${x}\\y",
    "HKLM:\\Software",  # a registry drive, not a file
    "Registry::HKEY_LOCAL_MACHINE\\Software",
    "Env:\\Path",
    "Cert:\\CurrentUser",
    "shell:::{21EC2020-3AEA-1069-A2DD-08002B30309D}",
    "\\\\",
]


@requirement("S-RULE-10", "S-RULE-17")
@pytest.mark.parametrize(("text", "expected"), CANONICAL)
def test_every_spelling_of_a_path_has_one_canonical_form(text: str, expected: str) -> None:
    """S-RULE-10: quotes, separators, dots, devices, UNC admin shares, URIs, providers, variables, 8.3, junctions."""
    got = canonical_path(text)
    assert got is not None
    assert got == ntpath.normcase(expected)
    assert got == got.lower() and "/" not in got


@requirement("S-RULE-10", "S-RULE-17")
@pytest.mark.parametrize("text", NOT_CANONICAL)
def test_paths_that_cannot_be_made_absolute_or_constant_have_no_canonical_form(text: str) -> None:
    """S-RULE-10: relative without cwd, unknown variables, subexpressions and other providers give None."""
    assert canonical_path(text) is None


@requirement("S-RULE-10", "S-RULE-17")
def test_relative_paths_join_the_given_current_directory() -> None:
    """S-RULE-10: a relative path is read from `cwd`; a drive-relative one too when cwd is on that drive."""
    assert canonical_path("..\\Windows\\System32\\hal.dll", cwd="C:\\Users") == ntpath.normcase(HAL)
    assert canonical_path("hal.dll", cwd="%SystemRoot%\\System32") == ntpath.normcase(HAL)
    assert canonical_path("C:hal.dll", cwd="C:\\Windows\\System32") == ntpath.normcase(HAL)
    assert canonical_path("D:x", cwd="C:\\Windows") == "d:\\x"
    assert canonical_path("\\x", cwd="D:\\data") == "d:\\x"
    assert canonical_path("x", cwd="relative\\dir") is None


@requirement("S-RULE-10", "S-RULE-17")
def test_a_different_environment_table_is_used_for_variables() -> None:
    """S-RULE-10: `env` replaces the standard values (a test or a known machine)."""
    env = {**STANDARD_ENV, "SYSTEMROOT": "D:\\Win", "SYSTEMDRIVE": "D:"}
    assert canonical_path("%SystemRoot%\\x", env=env) == "d:\\win\\x"
    assert canonical_path("\\x", env=env) == "d:\\x"


CANDIDATES = [
    ("notes.txt", ["c:\\users\\user\\desktop\\notes.txt", "c:\\users\\user\\notes.txt"]),
    (
        "..\\..\\..\\Windows\\System32\\hal.dll",
        ["c:\\windows\\system32\\hal.dll"],
    ),
    ("C:Windows\\x", ["c:\\windows\\x", "c:\\users\\user\\desktop\\windows\\x", "c:\\users\\user\\windows\\x"]),
    ("C:\\PROGRA~1\\x", ["c:\\program files\\x", "c:\\progra~1\\x"]),
    (HAL, [ntpath.normcase(HAL)]),
]


@requirement("S-RULE-10", "S-RULE-17")
@pytest.mark.parametrize(("text", "expected"), CANDIDATES)
def test_candidate_paths_give_every_plausible_reading(text: str, expected: list[str]) -> None:
    """S-RULE-10: Desktop- and home-relative readings, drive-root readings and 8.3 names as written."""
    got = candidate_paths(text)
    for reading in expected:
        assert reading in got
    assert len(set(got)) == len(got)


@requirement("S-RULE-10", "S-RULE-17")
def test_candidate_paths_of_an_unusable_path_are_empty() -> None:
    """S-RULE-10: no reading for a path with an unknown variable or another provider."""
    assert candidate_paths("$env:NOPE\\x") == ()
    assert candidate_paths("HKLM:\\Software") == ()
    assert candidate_paths("x", cwd="C:\\data") == ("c:\\data\\x",)


KEYS = [
    ("HKLM:\\SOFTWARE\\Microsoft", "hklm\\software\\microsoft"),
    ("HKLM:SOFTWARE\\Microsoft", "hklm\\software\\microsoft"),
    ("HKLM\\SOFTWARE\\Microsoft\\", "hklm\\software\\microsoft"),
    ("HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft", "hklm\\software\\microsoft"),
    ("Registry::HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft", "hklm\\software\\microsoft"),
    ("Microsoft.PowerShell.Core\\Registry::HKEY_LOCAL_MACHINE\\SOFTWARE", "hklm\\software"),
    ("hklm/software//microsoft", "hklm\\software\\microsoft"),
    ('"HKLM\\SOFTWARE\\Microsoft"', "hklm\\software\\microsoft"),
    ("\\Registry\\Machine\\Software", "hklm\\software"),
    ("\\\\localhost\\HKLM\\Software", "hklm\\software"),
    ("HKCU:\\Environment", "hkcu\\environment"),
    ("HKEY_CURRENT_USER\\Environment", "hkcu\\environment"),
    ("HKCR\\ms-settings\\shell\\open\\command", "hklm\\software\\classes\\ms-settings\\shell\\open\\command"),
    ("HKEY_CLASSES_ROOT\\exefile", "hklm\\software\\classes\\exefile"),
    ("HKU\\S-1-5-21-1-2-3-1001\\Environment", "hku\\s-1-5-21-1-2-3-1001\\environment"),
    ("HKCC\\System", "hklm\\system\\currentcontrolset\\hardware profiles\\current\\system"),
    ("HKLM\\SYSTEM\\ControlSet001\\Services", "hklm\\system\\currentcontrolset\\services"),
    ("HKLM\\SYSTEM\\ControlSet002\\Services", "hklm\\system\\currentcontrolset\\services"),
    ("HKLM", "hklm"),
]


@requirement("S-RULE-05", "S-RULE-17")
@pytest.mark.parametrize(("text", "expected"), KEYS)
def test_every_spelling_of_a_registry_key_has_one_canonical_form(text: str, expected: str) -> None:
    """S-RULE-05: drives, HKEY_ names, providers, native and remote-local forms, HKCR/HKCC, control sets."""
    assert canonical_key(text) == expected


@requirement("S-RULE-05", "S-RULE-17")
@pytest.mark.parametrize("text", ["", "Software\\Microsoft", "C:\\Windows", "\\\\otherpc\\HKLM\\Software", "$k"])
def test_what_is_no_local_registry_key_has_no_canonical_key(text: str) -> None:
    """S-RULE-05: no hive, a file path, another machine or a variable give None."""
    assert canonical_key(text) is None


# (canonical path, the most specific place id or None)
PLACES = [
    ("c:\\windows", "windows"),
    ("c:\\windows\\explorer.exe", "windows"),
    ("c:\\windows\\system32\\hal.dll", "system32"),
    ("c:\\windows\\syswow64\\x.dll", "syswow64"),
    ("c:\\windows\\system32\\drivers\\ntfs.sys", "drivers"),
    ("c:\\windows\\system32\\drivers\\etc", "drivers-etc"),
    ("c:\\windows\\system32\\drivers\\etc\\hosts", "hosts"),
    ("c:\\windows\\temp\\setup.log", None),  # carved out of the Windows folder
    ("c:\\bootmgr", "bootmgr"),
    ("c:\\windows\\system32\\sethc.exe", "accessibility-tools"),
    ("c:\\windows\\syswow64\\utilman.exe", "accessibility-tools"),
    ("c:\\boot\\bcd", "boot-folder"),
    ("c:\\efi\\microsoft\\boot\\bootmgfw.efi", "efi"),
    ("c:\\pagefile.sys", "pagefile"),
    ("c:\\hiberfil.sys", "pagefile"),
    ("c:\\program files\\app\\app.exe", "program-files"),
    ("c:\\program files (x86)\\app", "program-files-x86"),
    ("c:\\programdata\\microsoft\\windows defender\\platform", "defender-data"),
    ("c:\\programdata\\app\\settings.ini", None),
    ("c:\\users", "users"),
    ("c:\\users\\bob", "user-profile"),
    ("c:\\users\\public", "user-profile"),
    ("c:\\users\\bob\\documents", "user-folder"),
    ("c:\\users\\bob\\desktop", "user-folder"),
    ("c:\\users\\bob\\onedrive\\documents", "user-folder"),
    ("c:\\users\\bob\\documents\\report.docx", None),  # single files in user data are fine
    ("c:\\users\\bob\\onedrive\\notes.txt", None),
    ("c:\\users\\bob\\appdata\\roaming\\microsoft\\windows\\start menu\\programs\\startup\\x.lnk", "startup"),
    ("c:\\programdata\\microsoft\\windows\\start menu\\programs\\startup\\x.lnk", "common-startup"),
    ("c:\\users\\bob\\appdata\\local\\google\\chrome\\user data\\default\\login data", "chrome-credentials"),
    ("c:\\users\\bob\\appdata\\local\\google\\chrome\\user data\\profile 2\\cookies", "chrome-credentials"),
    ("c:\\users\\bob\\appdata\\local\\google\\chrome\\user data\\default\\network\\cookies", "chrome-credentials"),
    ("c:\\users\\bob\\appdata\\local\\google\\chrome\\user data\\local state", "chrome-credentials"),
    ("c:\\users\\bob\\appdata\\local\\google\\chrome\\user data\\default\\history", None),
    ("c:\\users\\bob\\appdata\\local\\microsoft\\edge\\user data\\default\\login data", "edge-credentials"),
    ("c:\\users\\bob\\appdata\\local\\bravesoftware\\brave-browser\\user data\\default\\web data", "brave-credentials"),
    ("c:\\users\\bob\\appdata\\roaming\\opera software\\opera stable\\login data", "opera-credentials"),
    ("c:\\users\\bob\\appdata\\roaming\\mozilla\\firefox\\profiles\\ab12.default\\logins.json", "firefox-credentials"),
    ("c:\\users\\bob\\appdata\\roaming\\mozilla\\firefox\\profiles\\ab12.default\\key4.db", "firefox-credentials"),
    (
        "c:\\users\\bob\\appdata\\roaming\\mozilla\\firefox\\profiles\\ab12.default\\cookies.sqlite",
        "firefox-credentials",
    ),
    ("c:\\users\\bob\\appdata\\roaming\\mozilla\\firefox\\profiles\\ab12.default\\prefs.js", None),
    ("c:\\users\\bob\\appdata\\roaming\\microsoft\\credentials\\abc", "credential-manager"),
    ("c:\\users\\bob\\appdata\\local\\microsoft\\vault\\x", "credential-manager"),
    ("c:\\users\\bob\\appdata\\roaming\\microsoft\\protect\\s-1-5-21\\key", "dpapi-keys"),
    ("c:\\windows\\system32\\config\\systemprofile\\appdata\\roaming\\microsoft\\protect\\k", "dpapi-keys"),
    ("c:\\users\\bob\\.ssh\\id_ed25519", "ssh-keys"),
    ("c:\\windows\\system32\\config\\sam", "account-hives"),
    ("c:\\windows\\system32\\config\\security", "account-hives"),
    ("c:\\windows\\system32\\config\\system", "account-hives"),
    ("c:\\windows\\system32\\config\\software", "system32"),
    ("c:\\windows\\system32\\config\\regback\\sam", "hive-backups"),
    ("c:\\windows\\repair\\sam", "hive-backups"),
    ("c:\\windows\\ntds\\ntds.dit", "ntds"),
    ("c:\\windows\\system32\\winevt\\logs\\security.evtx", "event-logs"),
    ("c:\\users\\bob\\documents\\windowspowershell\\microsoft.powershell_profile.ps1", "ps-profile"),
    ("c:\\users\\bob\\documents\\powershell\\profile.ps1", "ps-profile"),
    ("c:\\users\\bob\\documents\\windowspowershell\\script.ps1", None),
    ("c:\\windows\\system32\\windowspowershell\\v1.0\\profile.ps1", "ps-profile"),
    ("c:\\data\\x.txt", None),
    ("d:\\windows\\system32\\hal.dll", None),  # another drive
    ("\\\\server\\share\\windows\\system32", None),
]


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize(("path", "expected"), PLACES)
def test_a_canonical_path_is_in_its_most_specific_protected_place(path: str, expected: str | None) -> None:
    """S-RULE-05: system, boot, program files, hosts, user data, startup, credentials, hives, logs, profiles."""
    place = place_of(path)
    assert (place.id if place else None) == expected


@requirement("S-RULE-05", "S-RULE-19")
def test_a_place_inside_another_lists_both_most_specific_first() -> None:
    """S-RULE-05: the hosts file is also in drivers\\etc, the drivers, System32 and Windows folders."""
    ids = [p.id for p in places_of("c:\\windows\\system32\\drivers\\etc\\hosts")]
    assert ids == ["hosts", "drivers-etc", "drivers", "system32", "windows"]


WILD = [
    ("c:\\progra~1\\app", {"program-files", "program-files-x86"}),
    ("c:\\progra~2\\app", {"program-files", "program-files-x86"}),
    ("c:\\windows\\system~1\\hal.dll", {"system32", "windows"}),
    ("c:\\windows\\sys*\\hal.dll", {"system32", "syswow64", "windows"}),
    ("c:\\windows\\system3?\\hal.dll", {"system32", "windows"}),
    # `c:\*` could be any top folder: every tree place one level down holds `system32\hal.dll` then.
    (
        "c:\\*\\system32\\hal.dll",
        {
            "system32",
            "windows",
            "program-files",
            "program-files-x86",
            "boot-folder",
            "efi",
            "recovery",
            "restore-points",
        },
    ),
    ("c:\\users\\bob\\appdat~1\\local\\google\\chrome\\user data\\default\\login data", {"chrome-credentials"}),
    ("c:\\users\\bob\\appdata\\local\\google\\chrome\\user data\\default\\logind~1", {"chrome-credentials"}),
    ("c:\\users\\bob\\appdata\\roaming\\mozilla\\firefox\\profiles\\*\\logins~1.jso", {"firefox-credentials"}),
    ("c:\\users\\*\\documents", {"user-folder"}),
    ("c:\\windows\\system32\\config\\s*", {"account-hives", "system32", "windows"}),
]


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize(("path", "expected"), WILD)
def test_wildcards_and_short_names_match_every_place_they_could_name(path: str, expected: set[str]) -> None:
    """S-RULE-05: `Sys*`, `PROGRA~1`, `LOGIND~1` match conservatively, by glob or by their first six characters."""
    assert {p.id for p in places_of(path)} == expected


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize(
    "path",
    ["c:\\windows\\notsys*\\x", "c:\\windows\\abcdef~1\\x", "c:\\users\\bob\\documents\\*.txt", "c:\\progrb~1\\x"],
)
def test_wildcards_and_short_names_that_cannot_name_a_place_match_none_beyond_the_enclosing_one(path: str) -> None:
    """S-RULE-05: a pattern is matched by what it could name, not treated as "anything"."""
    ids = {p.id for p in places_of(path)}
    assert ids <= {"windows"}


@requirement("S-RULE-05", "S-RULE-19")
def test_a_folder_holds_the_places_inside_it() -> None:
    """S-RULE-05: deleting or moving a folder takes the protected places inside it along."""
    assert {"chrome-credentials", "edge-credentials"} <= {p.id for p in places_inside("c:\\users\\bob\\appdata\\local")}
    assert "hosts" in {p.id for p in places_inside("c:\\windows\\system32\\drivers")}
    assert places_inside("c:\\users\\bob\\documents\\projects") == ()
    assert places_inside("c:\\windows\\system32\\drivers\\etc\\hosts") == ()


@requirement("S-RULE-10")
@pytest.mark.parametrize(
    "path",
    [
        "c:\\users\\alice\\appdata\\local\\winmcp-gateway",
        "c:\\users\\alice\\appdata\\local\\winmcp-gateway\\stop",
        "c:\\users\\user\\appdata\\local\\winmcp-gateway\\audit.jsonl",  # the standard env's placeholder user
        "c:\\users\\alice\\appdata\\local\\winmcp~1\\stop",
        "c:\\users\\alice\\appdat~1\\local\\winmcp-gateway\\stop",
        "c:\\users\\alice\\appdata\\local\\winmcp*\\stop",
        "c:\\users\\alice\\appdata\\roaming\\winmcp-gateway\\config.toml",
    ],
)
def test_the_gateways_own_paths_are_the_gateway_state_place(path: str) -> None:
    """S-RULE-10: equal or inside a gateway path, in any profile, by short name or by wildcard."""
    place = place_of(path, gateway_paths=GATEWAY)
    assert place is not None and place.category is PlaceCategory.GATEWAY_STATE


@requirement("S-RULE-10")
@pytest.mark.parametrize(
    "path",
    [
        "c:\\users\\alice\\appdata\\local\\winmcp-gateway-other\\a.txt",
        "c:\\users\\alice\\appdata\\local",
        "c:\\users\\alice\\appdata\\roaming\\winmcp-gateway\\notes.txt",
    ],
)
def test_a_sibling_or_a_parent_is_not_inside_the_gateways_paths(path: str) -> None:
    """S-RULE-10: a sibling name or a parent is not gateway state (a parent holds it: `places_inside`)."""
    assert all(p.category is not PlaceCategory.GATEWAY_STATE for p in places_of(path, gateway_paths=GATEWAY))


@requirement("S-RULE-10")
def test_a_parent_of_the_gateways_paths_holds_the_gateway_state() -> None:
    """S-RULE-10: a delete or move of a parent takes the state dir along."""
    inside = places_inside("c:\\users\\alice\\appdata\\local", gateway_paths=GATEWAY)
    assert any(p.category is PlaceCategory.GATEWAY_STATE for p in inside)
    assert all(p.category is not PlaceCategory.GATEWAY_STATE for p in places_inside("c:\\data", gateway_paths=GATEWAY))


@requirement("S-RULE-10")
def test_gateway_paths_that_cannot_be_resolved_protect_nothing_extra() -> None:
    """S-RULE-10: a relative or drive-only gateway path never makes every path the gateway's."""
    assert place_of("c:\\data\\x", gateway_paths=("relative\\state", "C:\\")) is None


# (key as written, value name, expected most specific place id or None)
KEY_PLACE_CASES = [
    ("HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run", "x", "run-key"),
    ("HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\RunOnce", "x", "run-key"),
    ("HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Run", "x", "run-key"),
    ("HKU\\S-1-5-21-1\\Software\\Microsoft\\Windows\\CurrentVersion\\Run", "x", "run-key"),
    ("HKU\\.DEFAULT\\Software\\Microsoft\\Windows\\CurrentVersion\\Run", "x", "run-key"),
    ("HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\Explorer\\Run", "x", "run-key"),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Services\\evil", "ImagePath", "services-key"),
    ("HKLM\\SYSTEM\\ControlSet001\\Services\\WinDefend", "Start", "windefend-service"),
    ("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon", "Shell", "winlogon-key"),
    (
        "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\sethc.exe",
        "Debugger",
        "ifeo-key",
    ),  # fmt: skip
    ("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Windows", "AppInit_DLLs", "appinit-key"),
    ("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Windows", "Device", None),
    ("HKCU\\Software\\Microsoft\\Command Processor", "AutoRun", "cmd-autorun-key"),
    ("HKCU\\Software\\Microsoft\\Command Processor", "CompletionChar", None),
    ("HKCU\\Software\\Classes\\ms-settings\\shell\\open\\command", None, "handler-key"),
    ("HKCR\\exefile\\shell\\open\\command", None, "handler-key"),
    ("HKCU\\Software\\Classes\\CLSID\\{x}\\InprocServer32", None, "com-server-key"),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\WDigest", "UseLogonCredential", "wdigest-key"),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa", "RunAsPPL", "lsa-key"),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa", "Notification Packages", "lsa-packages-key"),
    ("HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender", "DisableAntiSpyware", "defender-key"),
    ("HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Exclusions\\Paths", "C:\\x", "defender-key"),
    (
        "HKLM\\SYSTEM\\CurrentControlSet\\Services\\SharedAccess\\Parameters\\FirewallPolicy\\StandardProfile",
        "EnableFirewall",
        "firewall-key",
    ),  # fmt: skip
    ("HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System", "EnableLUA", "uac-key"),
    (
        "HKLM\\SOFTWARE\\Microsoft\\PowerShell\\1\\ShellIds\\Microsoft.PowerShell",
        "ExecutionPolicy",
        "execution-policy-key",
    ),  # fmt: skip
    ("HKCU\\Environment", "WINMCP_GATEWAY_ENFORCE", "user-environment-key"),
    ("HKCU\\Environment", "UserInitMprLogonScript", "logon-script-key"),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment", "Path", "machine-environment-key"),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager", "BootExecute", "boot-execute-key"),
    ("HKLM\\SAM\\SAM\\Domains", None, "sam-key"),
    ("HKLM\\SECURITY\\Policy\\Secrets", None, "security-key"),
    ("HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell", "ExecutionPolicy", "execution-policy-key"),
    ("HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\ScriptBlockLogging", "x", "ps-logging-key"),
    ("HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer", "SmartScreenEnabled", "smartscreen-key"),
    ("HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer", "ShowFrequent", None),
    ("HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Advanced", "HideFileExt", None),
    ("HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\System", "EnableSmartScreen", "smartscreen-key"),
    (
        "HKLM\\SYSTEM\\CurrentControlSet\\Control\\DeviceGuard\\Scenarios\\HypervisorEnforcedCodeIntegrity",
        "Enabled",
        "device-guard-key",
    ),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Services\\LanmanServer\\Parameters", "SMB1", "smb-key"),
    ("HKLM\\SYSTEM\\CurrentControlSet\\Services\\LanmanServer\\Parameters", "Hidden", "services-key"),
    ("HKLM\\SOFTWARE\\Microsoft\\AMSI\\Providers\\{x}", None, "amsi-key"),
    ("HKCU\\Software\\Microsoft\\Windows Script\\Settings", "AmsiEnable", "amsi-key"),
    ("HKCU\\Software\\MyApp", "x", None),
    ("HKLM\\SOFTWARE\\MyApp", "x", None),
]


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize(("key", "value", "expected"), KEY_PLACE_CASES)
def test_a_registry_key_is_in_its_most_specific_protected_place(
    key: str, value: str | None, expected: str | None
) -> None:
    """S-RULE-05: Run keys, services, hijack points, WDigest/LSA, security tools, UAC, environment, SAM."""
    canonical = canonical_key(key)
    assert canonical is not None
    place = key_place(canonical, value)
    assert (place.id if place else None) == expected


@requirement("S-RULE-05", "S-RULE-19")
def test_a_value_restricted_place_counts_every_value_when_none_is_named() -> None:
    """S-RULE-05: a whole-key effect (no value name) or a wildcard name reaches the restricted values too."""
    key = "hklm\\software\\microsoft\\windows nt\\currentversion\\windows"
    assert [p.id for p in key_places(key)] == ["appinit-key"]
    assert [p.id for p in key_places(key, "AppInit*")] == ["appinit-key"]
    assert key_places(key, "Device") == ()


@requirement("S-RULE-05", "S-RULE-19")
def test_the_place_tables_are_well_formed() -> None:
    """S-RULE-05: ids are unique, every category is used, labels are plain phrases, patterns are canonical."""
    entries = FILE_PLACES + KEY_PLACES
    ids = {e.place.id: e.place for e in entries}
    assert len({(p.id, p.category) for p in ids.values()}) == len(ids)  # one category per id
    # The gateway's own places come with each call (`gateway_paths`), not from the tables.
    used = {e.place.category for e in entries} | {PlaceCategory.GATEWAY_STATE, PlaceCategory.GATEWAY_ENVIRONMENT}
    assert used == set(PlaceCategory)
    for e in entries:
        assert e.place.label and e.place.label == e.place.label.strip() and "|" not in e.place.label
        for pattern in e.patterns:
            unc = pattern.removeprefix("//\\")  # a share on any machine: `places._path_comps`' anchor
            assert pattern == pattern.lower() and "/" not in unc and "{" not in pattern and "~\\" not in pattern
    assert all(p.startswith(("c:\\", "//\\")) for e in FILE_PLACES for p in e.patterns)  # (a WSL place: `//\wsl*`)
    assert all(e.patterns[0].startswith(("hklm\\", "hkcu\\", "hk*\\")) for e in KEY_PLACES)


# ---------------------------------------------------------------------------------------
# Processes

PROCESS_NAMES = [
    ("lsass", "lsass"),
    ("LSASS.EXE", "lsass"),
    ('"lsass.exe"', "lsass"),
    ("'Lsass.exe'", "lsass"),
    ("C:\\Windows\\System32\\lsass.exe", "lsass"),
    ("c:/windows/system32/lsass.exe", "lsass"),
    ("lsass.exe.", "lsass"),
    ("672", "672"),
    ("ls*", "ls*"),
    ("", ""),
]


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize(("name", "expected"), PROCESS_NAMES)
def test_a_process_name_has_one_canonical_form(name: str, expected: str) -> None:
    """S-RULE-05: base name, lower case, no quotes, no `.exe`; pids and patterns kept."""
    assert canonical_process(name) == expected


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize(
    "name",
    ["lsass", "csrss.exe", "wininit", "winlogon", "services", "smss", "svchost", "System", "MsMpEng.exe", "MsSense",
     "NisSrv", "SecurityHealthService", "CSFalconService", "SentinelAgent", "windows-mcp", "winmcp-gateway",
     "0", "4", "ls*", "*ss", "l?ass", "MSMPENG*"],
)  # fmt: skip
def test_critical_processes_security_tools_and_the_guard_are_protected(name: str) -> None:
    """S-RULE-05: by name, path, pid 0/4, or a wildcard pattern that reaches one."""
    assert is_protected_process(name)


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize("name", ["notepad", "chrome.exe", "explorer", "dwm", "python", "672", "code*", "note?ad", ""])
def test_ordinary_processes_are_not_protected(name: str) -> None:
    """S-RULE-05: applications, Explorer (it asks elsewhere), dwm (it restarts), other pids."""
    assert not is_protected_process(name)


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize("pattern", ["", "*", "*.*", "*.exe", "?*", "**", "%", ".*", ".+", "^.*$", "[a-z]*", "*.EXE"])
def test_patterns_that_match_every_process_kill_everything(pattern: str) -> None:
    """S-RULE-05: an empty filter, `*`, `*.exe`, WMI's `%`, regex `.*` end every process."""
    assert kills_everything(pattern)


@requirement("S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize("pattern", ["notepad", "note*", "*pad", "c*", "?", "lsass", "^", "4"])
def test_narrow_patterns_do_not_kill_everything(pattern: str) -> None:
    """S-RULE-05: a pattern that spares some names of the probe set is not "everything"."""
    assert not kills_everything(pattern)


@requirement("S-RULE-05", "S-RULE-19")
def test_the_protected_process_names_are_canonical() -> None:
    """S-RULE-05: every listed name is already in canonical form, so lookups can find it."""
    assert all(canonical_process(n) == n for n in PROTECTED_PROCESSES)


SPECIAL_FOLDERS = [
    ("Startup", "c:\\users\\user\\appdata\\roaming\\microsoft\\windows\\start menu\\programs\\startup"),
    ("7", "c:\\users\\user\\appdata\\roaming\\microsoft\\windows\\start menu\\programs\\startup"),
    ("CommonStartup", "c:\\programdata\\microsoft\\windows\\start menu\\programs\\startup"),
    ("[Environment+SpecialFolder]::System", "c:\\windows\\system32"),
    ("ProgramFilesX86", "c:\\program files (x86)"),
    ("'Desktop'", "c:\\users\\user\\desktop"),
]


@requirement("S-RULE-05", "S-RULE-17")
@pytest.mark.parametrize(("name", "expected"), SPECIAL_FOLDERS)
def test_a_dotnet_special_folder_is_its_standard_path(name: str, expected: str) -> None:
    """S-RULE-05: `[Environment]::GetFolderPath(name)` (by name or number) folds to the folder's standard path."""
    folder = special_folder(name)
    assert folder is not None
    assert canonical_path(folder) == expected


def test_an_unknown_special_folder_has_no_path() -> None:
    """S-RULE-05: a folder the table does not know (or a typo) gives None, never a guess."""
    assert special_folder("Cookies") is None
    assert special_folder("99") is None
