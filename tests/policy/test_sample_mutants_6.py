"""Behaviour a sixth random mutation sample of policy/ found unpinned (issue 12, helper C's share).

Each test is a command an agent could send, a call's arguments, a key chord, or a parser's own result, and what
the gateway reads from it: the verdict, an effect, the reason, the line typed, or the canonical form. Expectations
are what Windows, PowerShell and cmd.exe do; where the gateway reads more carefully than a program needs (a flag's
value wherever it stands), the test says so.
"""

from __future__ import annotations

import subprocess
import threading

import pytest

from policy.rules.args import truthy
from policy.rules.effects_common import effect
from policy.rules.effects_tools import tool_effects
from policy.rules.judge import resolve_target
from policy.rules.keyboard import TypingTarget, entered_lines, follow_keys, line_known_after, typing_target
from policy.rules.match import normal_form_problem
from policy.rules.normalize import expand, normalise
from policy.rules.paths import canonical_key
from policy.rules.shell.ops import EffectKind
from policy.rules.uia_keys import KeyEvent
from tests._requirements import requirement
from tests.policy.test_client_config import verdict as guarded_verdict
from tests.policy.test_keyboard import retitle, snap
from tests.policy.verdicts import RULES, effect_rows, ps

K = EffectKind


# ---------------------------------------------------------------------------------------
# Programs' arguments


@requirement("S-RULE-46")
def test_cacls_p_takes_the_user_and_permission_after_it_not_the_path() -> None:
    """S-RULE-46: in `cacls /e /p eve:F C:\\Windows\\System32` the word after `/P` is `user:perm`; the path
    changed is System32, wherever the switches stand."""
    assert effect_rows("cacls /e /p eve:F C:\\Windows\\System32") == [(K.WRITE, "C:\\Windows\\System32", "cacls")]
    assert ps("cacls /e /p eve:F C:\\Windows\\System32") == ("protected-place-write", "deny")


@requirement("S-RULE-18")
def test_esentutl_copy_reads_its_source_after_a_destination_given_first() -> None:
    """S-RULE-18: `esentutl /y /d <dest> /vss <SAM>`: `/d` takes the destination, so the source is the SAM hive
    (a credential store), not the destination."""
    command = "esentutl /y /d C:\\t\\copy /vss C:\\Windows\\System32\\config\\SAM"
    assert effect_rows(command) == [
        (K.CREDENTIAL_ACCESS, "C:\\Windows\\System32\\config\\SAM", "esentutl /y /vss"),
        (K.WRITE, "C:\\t\\copy", "esentutl /y destination"),
    ]


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("sdelete C:\\t\\a.txt", [(K.DELETE, "C:\\t\\a.txt", "sdelete")]),
        ("sdelete -s C:\\t\\d", [(K.DELETE_RECURSIVE, "C:\\t\\d", "sdelete -s")]),
    ],
)
def test_sdelete_names_its_recursion_only_with_s(command: str, expected: list[tuple[EffectKind, str, str]]) -> None:
    """S-RULE-18: `sdelete x` deletes x; only `-s` makes it recursive, and only then does the detail say so."""
    assert effect_rows(command) == expected


@requirement("S-RULE-115")
def test_7z_output_folder_in_quotes_is_the_folder_without_them() -> None:
    """S-RULE-115: `7z x a.7z -o"C:\\t\\out"` (cmd passes the quotes, 7z's argument parser drops them) unpacks
    into C:\\t\\out."""
    rows = effect_rows('cmd /c 7z x C:\\t\\a.7z -o"C:\\t\\out"')
    assert [t for k, t, _ in rows if k is K.WRITE] == ["C:\\t\\out"]


@requirement("S-RULE-59")
def test_tar_member_names_after_the_options_are_not_option_letters() -> None:
    """S-RULE-59: in `tar -xf a.tar -C out docs`, `docs` is a member to extract, not the letters `d o c s`
    (its `c` would read as create): tar unpacks into out."""
    assert effect_rows("tar -xf C:\\t\\a.tar -C C:\\t\\out docs") == [
        (K.READ, "C:\\t\\a.tar", "tar -x"),
        (K.WRITE, "C:\\t\\out", "tar -x"),
    ]


@requirement("S-RULE-30")
def test_a_program_that_only_looks_like_a_cloud_tool_after_a_caret_is_no_upload_and_no_failure() -> None:
    """S-RULE-30: PowerShell does not treat `^` as an escape: `gsu^til cp …` runs a program named `gsu^til`,
    not gsutil; the gateway reads no upload from it (and does not fail reading it)."""
    assert effect_rows("gsu^til cp C:\\t\\a.txt gs://b/x") == []


@requirement("S-RULE-93")
def test_a_drive_mapped_with_the_provider_named_first_is_another_machine() -> None:
    """S-RULE-93: `New-PSDrive -PSProvider FileSystem Z \\\\srv\\share` binds Z to -Name and the share to -Root
    (the positionals fill the free slots); a copy onto Z: is an upload."""
    command = "New-PSDrive -PSProvider FileSystem Z \\\\srv\\share; Copy-Item C:\\t\\a.txt Z:\\"
    assert (K.UPLOAD, "C:\\t\\a.txt", "Copy-Item to another machine") in effect_rows(command)
    assert ps(command) == ("upload-file", "ask")


@requirement("S-RULE-18")
def test_piped_items_do_not_bind_when_path_is_named() -> None:
    """S-RULE-18: `Get-ChildItem logs | Remove-Item -Path x`: with -Path given, the listed items cannot bind
    (PowerShell refuses them), so the folder listed is not deleted; x is."""
    assert effect_rows("Get-ChildItem C:\\t\\logs | Remove-Item -Path C:\\t\\x") == [
        (K.READ, "C:\\t\\logs", "Get-ChildItem"),
        (K.DELETE, "C:\\t\\x", "Remove-Item"),
    ]


# ---------------------------------------------------------------------------------------
# Download then run, read then sent


@requirement("S-RULE-18")
def test_unpacking_another_archive_after_a_download_is_not_running_the_download() -> None:
    """S-RULE-18: the command downloads a.zip but unpacks other.zip and runs what that held: not download-and-run."""
    command = (
        "iwr https://x.example/a.zip -OutFile a.zip; Expand-Archive C:\\t\\other.zip C:\\t\\o; C:\\t\\o\\setup.exe"
    )
    assert K.DOWNLOAD_EXECUTE not in [k for k, _, _ in effect_rows(command)]
    assert ps(command) is None


@requirement("S-RULE-18")
def test_certutil_without_urlcache_downloads_nothing() -> None:
    """S-RULE-18: `certutil -hashfile` reads a local file; a command run after it is not download-and-run."""
    command = "certutil -hashfile C:\\t\\a.txt SHA256; cmd /c $p"
    assert effect_rows(command) == []
    assert ps(command) == ("dynamic-command", "ask")


@requirement("S-RULE-121")
def test_a_browser_started_on_a_constant_address_sends_nothing_read() -> None:
    """S-RULE-121: `Start-Process msedge "https://example.com/"` after reading a file: the address is a constant,
    so no value read travels in it."""
    command = '$d = Get-Content C:\\t\\secret.txt; Start-Process msedge "https://example.com/"'
    assert [k for k, _, _ in effect_rows(command)] == [K.READ, K.EXECUTE]
    assert ps(command) is None


# ---------------------------------------------------------------------------------------
# Registry keys


@requirement("S-RULE-18")
def test_a_subkey_is_joined_to_a_key_whose_name_ends_in_x() -> None:
    """S-RULE-18: `OpenSubKey('Software\\BOX').DeleteSubKeyTree('Cache')` deletes HKCU\\Software\\BOX\\Cache
    (only the separator is trimmed before joining, not the key's last letters)."""
    command = '[Microsoft.Win32.Registry]::CurrentUser.OpenSubKey("Software\\BOX", $true).DeleteSubKeyTree("Cache")'
    assert effect_rows(command) == [(K.REGISTRY_DELETE, "HKCU\\Software\\BOX\\Cache", "RegistryKey.deletesubkeytree")]


@requirement("S-RULE-19")
def test_dot_dot_at_a_hive_stays_at_the_hive() -> None:
    """S-RULE-19: the registry provider never goes above a hive: `HKLM:\\..\\SOFTWARE\\…\\Run` is HKLM's Run key."""
    assert canonical_key("HKLM:\\..\\SOFTWARE\\x") == "hklm\\software\\x"
    run = "HKLM:\\..\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run"
    assert ps(f"Set-ItemProperty {run} -Name x -Value C:\\t\\x.exe") == ("persistence-autostart", "ask")


# ---------------------------------------------------------------------------------------
# Judging


@requirement("S-RULE-05")
@pytest.mark.parametrize("value", ["f", " F "])
def test_recursive_f_is_false(value: str) -> None:
    """S-RULE-05: `recursive: "f"` is false (like "false", "n", "0"): a FileSystem delete of one item."""
    assert truthy(value) is False
    path = "C:\\t\\a"
    assert tool_effects("FileSystem", {"mode": "delete", "path": path, "recursive": value}) == (
        effect(K.DELETE, path, "FileSystem delete"),
    )


@requirement("S-RULE-116")
def test_what_runs_later_is_followed_three_levels_down() -> None:
    """S-RULE-116: a Run value that sets a Run value that sets a Run value that deletes the shadow copies: the
    third level is judged as it will run, and the refusal says so at each level."""
    run = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"
    third = "vssadmin delete shadows /all /quiet"
    second = subprocess.list2cmdline(["reg", "add", run, "/v", "c", "/d", third])
    first = subprocess.list2cmdline(["reg", "add", run, "/v", "b", "/d", second])
    args = {"mode": "launch_executable", "executable": "reg", "args": ["add", run, "/v", "a", "/d", first]}
    hit = RULES.match("App", args)
    assert hit is not None
    assert (hit.rule_id, hit.action) == ("delete-backups", "deny")
    assert hit.reason.startswith("what this sets up to run later would be refused now: " * 3)


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("kind", "target", "shown"),
    [
        (K.DOWNLOAD_EXECUTE, "https://x.example/a.exe", "https://x.example/a.exe"),
        (K.POWER, "now  at  once", "now at once"),
    ],
)
def test_a_target_that_is_no_path_nor_key_is_shown_as_written(kind: EffectKind, target: str, shown: str) -> None:
    """S-RULE-19: a target that is neither a path, a key nor a process is shown as written (blanks folded)."""
    assert resolve_target(effect(kind, target, "x")).shown == shown


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    "command", ["Remove-Item -Recurse -Force C:\\Windows\\Temp\\build", "Remove-Item C:\\Windows\\Temp\\a.log"]
)
def test_the_windows_temp_folder_is_carved_out_of_the_windows_folder(command: str) -> None:
    """S-RULE-19: C:\\Windows\\Temp is open: deleting in it is not a protected-place delete (a recursive one is
    still asked about as recursive)."""
    assert ps(command) in (None, ("recursive-delete", "deny"))
    assert ps(command) != ("protected-place-delete", "deny")


@requirement("S-SELF-12")
def test_a_client_settings_file_with_mcp_in_its_name_is_guarded_anywhere() -> None:
    """S-SELF-12: `settings\\*mcp*.json` (an editor extension's MCP server list) is guarded by name, also under a
    portable editor's data folder the place table does not know."""
    path = "D:\\VSCode\\data\\user-data\\User\\globalStorage\\rooveterinaryinc.roo-cline\\settings\\mcp_settings.json"
    assert guarded_verdict("FileSystem", mode="write", path=path, content="{}") == ("self-protection", "deny")
    assert guarded_verdict("PowerShell", command=f"Set-Content {path} '{{}}'") == ("self-protection", "deny")


# ---------------------------------------------------------------------------------------
# Rule text


@requirement("S-RULE-08")
def test_a_custom_pattern_is_checked_to_its_end_in_bounded_time() -> None:
    """S-RULE-08: `abc X` is read to its upper-case X (and the check ends)."""
    found: list[object] = []
    worker = threading.Thread(target=lambda: found.append(normal_form_problem("abc X")), daemon=True)
    worker.start()
    worker.join(20)
    assert found == ["contains upper case 'X' (normalised text is lower case)"]


@requirement("S-RULE-16")
def test_powershell_flags_after_a_valued_one_are_skipped_to_the_command() -> None:
    """S-RULE-16: `powershell -ExecutionPolicy Bypass -NoProfile -Command X` runs X: both flags (and Bypass) go."""
    layers = expand(normalise("powershell -ExecutionPolicy Bypass -NoProfile -Command Remove-Item C:/x"))
    assert layers[1:] == ["remove-item c:/x"]


# ---------------------------------------------------------------------------------------
# The keyboard


@requirement("S-RULE-29")
def test_setting_the_clipboard_enters_no_line_and_leaves_the_line_as_it_was() -> None:
    """S-RULE-29: Clipboard `set` with a line break types nothing: no line is entered, and whether the line being
    typed is known does not change (only a later paste puts the text in)."""
    args = {"mode": "set", "text": "whoami\r\n"}
    assert entered_lines("", "Clipboard", args) == []
    assert line_known_after(False, "x", "Clipboard", args) is False


@requirement("S-RULE-29")
def test_a_paste_chord_enters_the_lines_of_the_known_clipboard() -> None:
    """S-RULE-29: Ctrl+V with `whoami` and a line break on the clipboard enters the line `dir whoami`."""
    assert entered_lines("dir ", "Shortcut", {"shortcut": "ctrl+v"}, pasted="whoami\n") == ["dir whoami"]


@requirement("S-RULE-63")
def test_an_unknown_paste_leaves_the_line_unknown() -> None:
    """S-RULE-63: a key event that pastes something the gateway never saw (`unknown-paste`) leaves the line unknown."""
    assert follow_keys("dir", True, [KeyEvent("unknown-paste")], None) == ("dir", False)


@requirement("S-RULE-108")
def test_a_remote_screen_is_described_as_one() -> None:
    """S-RULE-108: text typed into a Remote Desktop window lands on another machine's screen, and the reason says so."""
    title = "10.0.0.5 - Remote Desktop Connection"
    capture = retitle(snap("notepad"), "powershell notes.txt - Notepad", title)
    assert typing_target(capture, (800, 520)) == (
        TypingTarget.CONSOLE,
        f"the remote or virtual machine's screen {title!r}, where a shell may have focus",
    )
