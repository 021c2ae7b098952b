"""Canonical forms of Windows paths and registry keys (policy/rules/paths.py; S-RULE-17, S-SELF-05).

Found by mutation testing: each table row pins one way Windows reads a spelling that the canonical form
must follow — `\\\\?\\GLOBALROOT\\SystemRoot` is the Windows folder, `\\\\localhost\\ADMIN$` is it too,
`file:` URIs in their one-, three-, five-slash and `localhost` forms, WebDAV and fully qualified names
of this machine, 8.3 names and Vista's junctions on the system drive only, the trailing dots and
spaces Windows drops (and the leading spaces and other blanks it keeps), the extra readings
`candidate_paths` gives for relative, drive-relative and short-name spellings, and registry keys in
their native and ControlSet spellings. Expected values are written from what Windows does with the
spelling; where Windows lacks a fact (a machine without `SystemRoot` in the environment) the module's
documented fallback (`C:\\Windows`, `C:`) is the expectation.
"""

from __future__ import annotations

import ntpath
from collections.abc import Mapping

import pytest

from policy.rules.paths import candidate_paths, canonical_key, canonical_path, special_folder
from tests._requirements import requirement

# An older install: Windows in D:\WINNT, the machine named OLDBOX.
ENV_WINNT: Mapping[str, str] = {"SYSTEMDRIVE": "D:", "SYSTEMROOT": "D:\\WINNT", "COMPUTERNAME": "OLDBOX"}
# A caller that knows only the system drive: no SystemRoot, no computer name, no profile.
ENV_BARE: Mapping[str, str] = {"SYSTEMDRIVE": "C:"}
# A caller that wrote SystemDrive with a separator (`C:\`): not a drive spelling, so `C:` is assumed.
ENV_ODD_DRIVE: Mapping[str, str] = {"SYSTEMDRIVE": "C:\\", "SYSTEMROOT": "C:\\Windows"}

DESKTOP = "c:\\users\\user\\desktop\\"
HOME = "c:\\users\\user\\"


@requirement("S-RULE-17", "S-SELF-05")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The NT object namespace's SystemRoot link is the Windows folder.
        (r"\\?\GLOBALROOT\SystemRoot\System32", r"c:\windows\system32"),
        # `host@SSL@port` is the WebDAV spelling of the host: still this machine.
        (r"\\localhost@SSL@8443\c$\Windows\System32", r"c:\windows\system32"),
        # The machine's own fully qualified name (COMPUTERNAME is DESKTOP in the standard environment).
        (r"\\DESKTOP.corp.example.com\c$\Windows\System32", r"c:\windows\system32"),
        (r"\\localhost\c$", "c:\\"),
        ("file:///C:/Windows/System32", r"c:\windows\system32"),
        # A file URI without a drive names the current (system) drive's root.
        ("file:///Windows/System32", r"c:\windows\system32"),
        ("file://localhost/Windows/System32", r"c:\windows\system32"),
        ("file://localhost/C:/Windows/System32", r"c:\windows\system32"),
        # RFC 8089's minimal form: one slash.
        ("file:/C:/Windows/System32", r"c:\windows\system32"),
        ("file:///C:/Program%20Files/app/x.exe", r"c:\program files\app\x.exe"),
        # Five slashes are a UNC path (`file://///server/share`); a UNC "host" of `?` is the \\?\ prefix.
        ("file://///?/C:/Windows/System32", r"c:\windows\system32"),
        # APPDAT~1 is AppData, in a profile reached directly or through the XP junction.
        (
            r"C:\Users\me\APPDAT~1\Roaming\Microsoft\Windows\Start Menu\Programs\Startup",
            r"c:\users\me\appdata\roaming\microsoft\windows\start menu\programs\startup",
        ),
        (r"C:\Documents and Settings\me\APPDAT~1\Roaming", r"c:\users\me\appdata\roaming"),
        (r"C:\Users\me\APPDAT~1", r"c:\users\me\appdata"),
        # A rooted or drive-relative 8.3 name on the system drive is the standard folder too.
        (r"\PROGRA~1\Windows Defender\MsMpEng.exe", r"c:\program files\windows defender\msmpeng.exe"),
        (r"C:PROGRA~1\Windows Defender", r"c:\program files\windows defender"),
    ],
    ids=[
        "globalroot-systemroot",
        "webdav-ssl-port",
        "own-fqdn",
        "admin-share-root",
        "file-3-slash-drive",
        "file-3-slash-rooted",
        "file-localhost-rooted",
        "file-localhost-drive",
        "file-1-slash",
        "file-percent-space",
        "file-5-slash-device",
        "short-appdata-in-profile",
        "short-appdata-via-xp-junction",
        "short-appdata-itself",
        "short-name-rooted",
        "short-name-drive-relative",
    ],
)
def test_a_spelling_of_a_protected_path_is_that_path(text: str, expected: str) -> None:
    """S-RULE-17/S-SELF-05: device, admin-share, WebDAV, file: and 8.3 spellings land on the real path."""
    assert canonical_path(text) == expected


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Windows drops trailing dots and spaces, never leading spaces: ` Windows` is another folder.
        (r"C:\ Windows.\System32", r"c:\ windows\system32"),
        # Nor a trailing no-break space (a legal name character): only the plain space after it goes.
        ("C:\\Windows\u00a0 \\System32", "c:\\windows\u00a0\\system32"),
        # The XP junction and the standard 8.3 names exist on the system drive only.
        (r"D:\Documents and Settings\me", r"d:\documents and settings\me"),
        (r"D:\PROGRA~1\app", r"d:\progra~1\app"),
        # Only the third component of a profile path is the profile's AppData.
        (r"C:\Users\ABCDEF~1", r"c:\users\abcdef~1"),
        (r"C:\Windows\Temp\APPDAT~1", r"c:\windows\temp\appdat~1"),
        (r"\\fileserver", r"\\fileserver"),
        (r"\\fileserver\public", r"\\fileserver\public"),
        ("file://fileserver/public/x.txt", r"\\fileserver\public\x.txt"),
        (r"\\.\PhysicalDrive0", r"\\.\physicaldrive0"),
        # `file://` is `file:///` (the URL parser adds the empty path's `/`): the root.
        ("file://", "c:\\"),
        ("file:///", "c:\\"),
    ],
    ids=[
        "leading-space-kept",
        "nbsp-kept",
        "junction-other-drive",
        "short-name-other-drive",
        "users-unknown-short-name",
        "appdat-outside-profile",
        "unc-host-only",
        "unc-share",
        "file-remote-host",
        "device-physical-drive",
        "file-2-slash-empty",
        "file-3-slash-empty",
    ],
)
def test_a_spelling_of_another_place_keeps_its_own_name(text: str, expected: str) -> None:
    """S-RULE-17: what Windows reads as another folder, host or device is not folded into a known one."""
    assert canonical_path(text) == expected


@requirement("S-RULE-17")
def test_an_undecodable_percent_escape_still_names_its_folder() -> None:
    """S-RULE-17: `%FF` is no UTF-8 character, but the file it names is still in System32."""
    canonical = canonical_path("file:///C:/Windows/System32/%FF.dll")
    assert canonical is not None
    assert ntpath.dirname(canonical) == r"c:\windows\system32"


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("text", "env", "cwd", "expected"),
    [
        (r"\\?\GLOBALROOT\SystemRoot\System32", ENV_WINNT, None, r"d:\winnt\system32"),
        (r"\\localhost\ADMIN$\System32", ENV_WINNT, None, r"d:\winnt\system32"),
        (r"\\?\GLOBALROOT\SystemRoot\System32", ENV_BARE, None, r"c:\windows\system32"),
        (r"\\localhost\ADMIN$\System32", ENV_BARE, None, r"c:\windows\system32"),
        # Without a computer name only the loopback names are this machine.
        (r"\\XXXX\c$\Windows", ENV_BARE, None, r"\\xxxx\c$\windows"),
        # $PROFILE lives in the user's profile: no profile known, no path.
        ("$PROFILE", ENV_BARE, None, None),
        (r"\Windows\System32", ENV_ODD_DRIVE, None, r"c:\windows\system32"),
        (r"C:\Documents and Settings\me", ENV_ODD_DRIVE, None, r"c:\users\me"),
        # PowerShell's $pwd is the current directory.
        (r"$pwd\x.txt", None, r"C:\Windows", r"c:\windows\x.txt"),
        # The current directory is read with the same environment as the path.
        # From the root of C:, `C:PROGRA~1` and `PROGRA~1` are Program Files.
        # $pwd without a known current directory is no constant path (not the drive's root).
        (r"$pwd\x.txt", None, None, None),
        # PowerShell's empty string names no file, not the current directory.
        ("''", None, r"C:\Windows", None),
        # Neither ProgramFiles(x86) nor ProgramFiles is known: no path.
        (r"$env:ProgramFiles(x86)\app", ENV_BARE, None, None),
        (r"C:PROGRA~1\x", None, "C:\\", r"c:\program files\x"),
        (r"PROGRA~1\x", None, "C:\\", r"c:\program files\x"),
        (r"drivers\etc\hosts", ENV_WINNT, r"%SystemRoot%\System32", r"d:\winnt\system32\drivers\etc\hosts"),
    ],
    ids=[
        "globalroot-winnt",
        "admin-share-winnt",
        "globalroot-no-systemroot",
        "admin-share-no-systemroot",
        "no-computername",
        "profile-no-userprofile",
        "rooted-odd-systemdrive",
        "junction-odd-systemdrive",
        "ps-pwd",
        "ps-pwd-unknown",
        "ps-empty-string",
        "ps-env-x86-unknown",
        "drive-relative-short-name-cwd",
        "relative-short-name-cwd",
        "cwd-with-env",
    ],
)
def test_a_spelling_is_read_with_the_machine_environment(
    text: str, env: Mapping[str, str] | None, cwd: str | None, expected: str | None
) -> None:
    """S-RULE-17: SystemRoot, SystemDrive, COMPUTERNAME, USERPROFILE and the cwd decide the reading."""
    if env is None:
        assert canonical_path(text, cwd=cwd) == expected
    else:
        assert canonical_path(text, env=env, cwd=cwd) == expected


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("text", "env", "cwd", "expected"),
    [
        # An 8.3 name: the standard folder it usually is, and the name as written (matched by prefix).
        (r"C:\PROGRA~1\x", None, None, (r"c:\program files\x", r"c:\progra~1\x")),
        (r"PROGRA~1\x", None, "C:\\", (r"c:\program files\x", r"c:\progra~1\x")),
        (r"%SystemRoot%\System32", None, None, (r"c:\windows\system32",)),
        (r"%SystemRoot%\System32", ENV_WINNT, None, (r"d:\winnt\system32",)),
        (r"$pwd\x", None, r"C:\Windows", (r"c:\windows\x",)),
        # Relative without a cwd: FileSystem starts at the Desktop, PowerShell at the profile.
        ("x.txt", None, None, (DESKTOP + "x.txt", HOME + "x.txt")),
        # From the profile, APPDAT~1 is the profile's AppData.
        (r"APPDAT~1\Roaming", None, None, (DESKTOP + r"appdat~1\roaming", HOME + r"appdata\roaming")),
        # Drive-relative on the profile's drive: the drive's root, then the Desktop and the profile.
        ("C:x.txt", None, None, ("c:\\x.txt", DESKTOP + "x.txt", HOME + "x.txt")),
        ("C:x.txt", None, r"C:\Windows", (r"c:\windows\x.txt", "c:\\x.txt", DESKTOP + "x.txt", HOME + "x.txt")),
        (
            "C:PROGRA~1",
            None,
            r"C:\Windows",
            (r"c:\windows\progra~1", r"c:\program files", DESKTOP + "progra~1", HOME + "progra~1"),
        ),
        # Drive-relative on another drive than the profile's: never a reading on C:.
        ("D:x.txt", None, None, ("d:\\x.txt",)),
    ],
    ids=[
        "short-name-absolute",
        "short-name-relative-cwd",
        "env-variable",
        "env-variable-own-env",
        "ps-pwd",
        "relative",
        "relative-short-appdata",
        "drive-relative",
        "drive-relative-cwd",
        "drive-relative-short-name",
        "drive-relative-other-drive",
    ],
)
def test_candidate_paths_gives_every_plausible_reading(
    text: str, env: Mapping[str, str] | None, cwd: str | None, expected: tuple[str, ...]
) -> None:
    """S-RULE-17: the readings a rule must not miss, most likely first, without duplicates."""
    if env is None:
        assert candidate_paths(text, cwd=cwd) == expected
    else:
        assert candidate_paths(text, env=env, cwd=cwd) == expected


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\Registry\User\S-1-5-21-1\Software", r"hku\s-1-5-21-1\software"),
        (r"\Registry\Machine\SOFTWARE", r"hklm\software"),
        (r"HKLM\SYSTEM\ControlSet001", r"hklm\system\currentcontrolset"),
        (r"HKCU\%KEY%", None),
        (r"HKCU:\Software\$name", None),
    ],
    ids=["native-user", "native-machine", "control-set-itself", "cmd-variable", "ps-variable"],
)
def test_canonical_key_spellings(text: str, expected: str | None) -> None:
    """S-RULE-17: native hive names, ControlSet001 itself, and keys that still hold a variable."""
    assert canonical_key(text) == expected


@requirement("S-RULE-17")
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("[Environment+SpecialFolder]::Startup", r"%APPDATA%\Microsoft\Windows\Start Menu\Programs\Startup"),
        ("'7'", r"%APPDATA%\Microsoft\Windows\Start Menu\Programs\Startup"),
        # No SpecialFolder member is named XStartup: .NET refuses it, it names no folder.
        ("XStartup", None),
    ],
    ids=["prefixed-name", "quoted-number", "not-a-member"],
)
def test_special_folder_names(name: str, expected: str | None) -> None:
    """S-RULE-17: `[Environment]::GetFolderPath(…)` names, by name or number, and only real members."""
    assert special_folder(name) == expected
