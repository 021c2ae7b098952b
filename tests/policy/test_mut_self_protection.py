"""Self-protection's text half: the gateway's files, settings and PowerShell profiles (S-RULE-10,
S-SELF-02, S-SELF-03, S-RULE-28); found by mutation testing.

Each expectation is written from policy/rules/self_protection.py's docstrings and the requirement
texts: a refusal is a `self-protection` deny whose reason says what is off limits and what to do
instead; a redirection of a bare value into a profile or the gateway's files is refused, one inside a
printed string is not; `$PROFILE` and its four members are spelled as their standard paths; a script
written by FileSystem is judged by what it would run, a document is not.
"""

from __future__ import annotations

import pytest

from policy.decision import RuleHit
from policy.rules.match import RuleSet
from policy.rules.self_protection import protected_hit, with_profile_paths
from policy.rules.shell.winenv import STANDARD_ENV
from tests._requirements import requirement

STATE = "C:\\Users\\me\\AppData\\Local\\winmcp-gateway"
STOP = f"{STATE}\\STOP"
PROTECTED = [STATE, f"{STATE}\\audit.jsonl", STOP]
PSHOME = STANDARD_ENV["PSHOME"]
DOCUMENTS = STANDARD_ENV["USERPROFILE"] + "\\Documents\\WindowsPowerShell"


def _ps(command: str) -> RuleHit | None:
    return protected_hit("PowerShell", {"command": command}, PROTECTED)


@requirement("S-RULE-10")
def test_a_refusal_for_the_gateways_files_names_them_and_says_what_to_do_instead() -> None:
    """S-RULE-10: a `self-protection` deny, risk `self-protection`, naming the path and pointing elsewhere."""
    hit = protected_hit("FileSystem", {"mode": "delete", "path": STOP}, PROTECTED)
    assert hit is not None
    assert (hit.rule_id, hit.action, hit.risk) == ("self-protection", "deny", "self-protection")
    assert hit.reason.startswith(f"The call names the gateway's own files ({STATE}). ")
    assert "config, audit log and STOP file are off limits to the agent" in hit.reason
    assert hit.reason.endswith(" Work on other paths.")


@requirement("S-SELF-02")
def test_a_refusal_for_the_gateways_settings_names_the_variable_and_a_read_only_way_to_see_them() -> None:
    """S-SELF-02: naming WINMCP_GATEWAY_ENFORCE is denied; the reason offers `Get-ChildItem Env:`, which passes."""
    hit = _ps("setx WINMCP_GATEWAY_ENFORCE false")
    assert hit is not None
    assert (hit.rule_id, hit.action, hit.risk) == ("self-protection", "deny", "self-protection")
    reason = hit.reason
    assert reason.startswith("The call names the gateway's own settings (WINMCP_GATEWAY_ENFORCE): ")
    assert "configure the gateway at its next start and are off limits to the agent" in reason
    assert reason.endswith("Instead, ask the user to change settings; `Get-ChildItem Env:` lists the current values.")
    assert RuleSet().match("PowerShell", {"command": "Get-ChildItem Env:"}) is None


@requirement("S-SELF-03")
@pytest.mark.parametrize(
    ("variable", "path"),
    [
        ("$PROFILE", f"{DOCUMENTS}\\Microsoft.PowerShell_profile.ps1"),
        ("$PROFILE.CurrentUserCurrentHost", f"{DOCUMENTS}\\Microsoft.PowerShell_profile.ps1"),
        ("$PROFILE.CurrentUserAllHosts", f"{DOCUMENTS}\\profile.ps1"),
        ("$PROFILE.AllUsersAllHosts", f"{PSHOME}\\profile.ps1"),
        ("$PROFILE.AllUsersCurrentHost", f"{PSHOME}\\Microsoft.PowerShell_profile.ps1"),
    ],
    ids=[
        "profile",
        "current-user-current-host",
        "current-user-all-hosts",
        "all-users-all-hosts",
        "all-users-current-host",
    ],
)
def test_each_profile_member_is_spelled_as_the_path_of_the_profile_it_names(variable: str, path: str) -> None:
    """S-SELF-03: `$PROFILE` and its four members name four different files of Windows PowerShell."""
    spelled = with_profile_paths(f"Add-Content {variable} 'x'", "WindowsPowerShell", PSHOME)
    assert spelled.lower() == f"add-content '{path}' 'x'".lower()


@requirement("S-SELF-03")
@pytest.mark.parametrize(
    "command",
    [
        "'Set-Alias ls rm' >> $PROFILE",
        "'x' > $PROFILE.AllUsersAllHosts",
        "'x' > \"$PROFILE\"",
        "Write-Output \"1 > 2\"; 'x' >> $PROFILE",  # a redirection in a printed string first, then a real one
    ],
    ids=["append", "all-users", "quoted", "after-a-printed-one"],
)
def test_a_bare_value_redirected_into_a_profile_is_refused(command: str) -> None:
    """S-SELF-03: `'…' >> $PROFILE` changes a profile even though no command writes it."""
    hit = _ps(command)
    assert hit is not None
    assert (hit.rule_id, hit.action) == ("self-protection", "deny")
    assert "PowerShell profile" in hit.reason


@requirement("S-SELF-05")
@pytest.mark.parametrize(
    "target",
    [
        "\\\\localhost\\c$\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP",
        "'C:\\Users\\me\\AppData\\Local\\WINMCP~1\\STOP'",
    ],
    ids=["admin-share", "short-name"],
)
def test_a_bare_value_redirected_into_the_gateways_files_by_another_spelling_is_refused(target: str) -> None:
    """S-SELF-05: `'x' > \\\\localhost\\c$\\…\\STOP` or an 8.3 spelling reaches the STOP file: refused."""
    hit = _ps(f"'x' > {target}")
    assert hit is not None
    assert (hit.rule_id, hit.action) == ("self-protection", "deny")


@requirement("S-RULE-20")
@pytest.mark.parametrize(
    "command",
    [
        'Write-Output "x > $PROFILE"',  # printed, not redirected
        "'x' > C:\\Windows\\System32\\drivers\\etc\\hosts",  # another rule's place, not the guard's
        "Get-Content $PROFILE",
    ],
    ids=["printed", "hosts", "read"],
)
def test_a_redirection_that_is_only_printed_or_aims_elsewhere_is_no_self_protection_hit(command: str) -> None:
    """S-RULE-20: text inside a string is not a redirection; the hosts file is judged by the other rules."""
    assert _ps(command) is None


@requirement("S-RULE-28")
@pytest.mark.parametrize(
    "path", ["C:\\tools\\run.bat.", "C:\\tools\\run.cmd  ", "C:\\tools\\RUN.PS1"], ids=["dot", "spaces", "upper"]
)
def test_a_script_written_by_filesystem_is_judged_by_what_it_runs_whatever_its_trailing_dots(path: str) -> None:
    """S-RULE-28: Windows drops trailing dots and spaces, so `run.bat.` is a script and its content is read."""
    args = {"mode": "write", "path": path, "content": f"del {STOP}"}
    hit = protected_hit("FileSystem", args, PROTECTED)
    assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-RULE-28")
@pytest.mark.parametrize(
    "path", ["C:\\docs\\notes.BATX", "C:\\docs\\notes.txt", "C:\\docs\\run.bat.txt"], ids=["batx", "txt", "bat-txt"]
)
def test_what_a_document_says_is_never_matched(path: str) -> None:
    """S-RULE-28: the content of a file that is not a .bat, .cmd or .ps1 is not a command."""
    args = {"mode": "write", "path": path, "content": f"del {STOP}"}
    assert protected_hit("FileSystem", args, PROTECTED) is None


@requirement("S-RULE-10")
@pytest.mark.parametrize(
    "path",
    [
        "C:\\Users\\me\\AppData\\Local\\\\winmcp-gateway\\STOP",  # a doubled separator
        "\\\\.\\C:\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP",  # a device path
        "file:///C:/Users/me/AppData/Local/winmcp-gateway/STOP",  # a file: URL
        '"C:\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP"',  # quoted as in a shell
    ],
    ids=["doubled-separator", "device-path", "file-url", "quoted"],
)
def test_the_gateways_files_are_found_under_every_canonical_spelling(path: str) -> None:
    """S-RULE-10: doubled separators, `\\\\.\\`, `file:///` and quotes are dropped before comparing."""
    hit = protected_hit("FileSystem", {"mode": "read", "path": path}, PROTECTED)
    assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-RULE-10")
@pytest.mark.parametrize(
    "parent", ["C:\\Users\\me\\AppData\\Local\\", "C:/Users/me/AppData/Local/"], ids=["backslash", "slash"]
)
def test_deleting_a_parent_written_with_a_trailing_separator_takes_the_gateways_files_along(parent: str) -> None:
    """S-RULE-10: a delete or move of a parent counts, also written `C:\\…\\Local\\`."""
    for mode in ("delete", "move"):
        hit = protected_hit("FileSystem", {"mode": mode, "path": parent, "destination": "D:\\x"}, PROTECTED)
        assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-SELF-03")
@pytest.mark.parametrize(
    "command",
    [
        '"Set-Alias ls rm" >> $PROFILE',  # a double-quoted value before the redirection
        "'x' + \"`t\" > $PROFILE",  # a string that ends after a backtick escape
    ],
    ids=["double-quoted-value", "backtick-escape"],
)
def test_a_string_before_a_redirection_into_a_profile_ends_where_powershell_ends_it(command: str) -> None:
    """S-SELF-03: the redirection after a closed string is a redirection, so the profile change is refused."""
    hit = _ps(command)
    assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-RULE-20")
@pytest.mark.parametrize(
    "command",
    [
        'Write-Output "a`"b > $PROFILE"',  # an escaped quote does not end the string
        "Write-Output 'a > $PROFILE'",
    ],
    ids=["escaped-quote", "single-quoted"],
)
def test_a_redirection_inside_a_string_with_an_escaped_quote_is_only_printed(command: str) -> None:
    """S-RULE-20: "a`"b > $PROFILE" is one string that is printed; nothing is written."""
    assert _ps(command) is None


@requirement("S-SELF-03")
def test_a_profile_is_spelled_quoted_as_a_value_and_bare_inside_a_string() -> None:
    """S-SELF-03: `$PROFILE` as a value becomes '<path>'; inside "…" the path goes in bare."""
    path = f"{DOCUMENTS}\\Microsoft.PowerShell_profile.ps1"
    assert with_profile_paths("Write-Output X > $PROFILE", "WindowsPowerShell", PSHOME) == (
        f"Write-Output X > '{path}'"
    )
    assert with_profile_paths('Write-Output "at $PROFILE"', "WindowsPowerShell", PSHOME) == (
        f'Write-Output "at {path}"'
    )


@requirement("S-SELF-03")
def test_an_app_launch_that_changes_a_profile_is_refused() -> None:
    """S-SELF-03: App launching PowerShell with `Add-Content $PROFILE …` changes the profile: refused."""
    args = {
        "mode": "launch_executable",
        "executable": "C:\\Tools\\pwsh.exe",
        "args": ["-Command", "Add-Content $PROFILE 'x'"],
    }
    hit = protected_hit("App", args, PROTECTED)
    assert hit is not None and (hit.rule_id, hit.action) == ("self-protection", "deny")


@requirement("S-SELF-05")
@pytest.mark.parametrize(
    ("protected", "target"),
    [
        (
            "C:/Users/me/AppData/Local/winmcp-gateway",
            "\\\\localhost\\c$\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP",
        ),
        ("/home/me/state", "/home/me/state./STOP"),  # a trailing dot on a component
        ("\\\\srv\\share\\state", "\\\\srv\\share\\state.\\STOP"),
        ("\\Users\\me\\state", "\\Users\\me\\state.\\STOP"),
    ],
    ids=["drive-forward-slashes", "rooted-posix", "unc", "rooted"],
)
def test_a_redirection_reaches_the_gateways_files_however_their_path_is_written(protected: str, target: str) -> None:
    """S-SELF-05: drive paths with either separator, rooted and UNC paths are all the gateway's places."""
    hit = protected_hit("PowerShell", {"command": f"'x' > {target}"}, [protected])
    assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-SELF-05")
def test_a_command_that_reads_a_profile_and_deletes_the_stop_file_by_an_admin_share_is_refused() -> None:
    """S-SELF-05: with `$PROFILE` spelled out, the rest of the command is judged with the gateway's paths too."""
    command = "Get-Content $PROFILE; Remove-Item \\\\localhost\\c$\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP"
    hit = _ps(command)
    assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-RULE-10")
def test_another_rules_deny_is_not_reported_as_self_protection() -> None:
    """S-RULE-10: deleting System32 after reading `$PROFILE` is the other rules' refusal, not this one's."""
    assert _ps("Get-Content $PROFILE; Remove-Item C:\\Windows\\System32 -Recurse") is None


@requirement("S-RULE-11")
def test_an_app_argument_list_with_a_number_in_it_is_still_read() -> None:
    """S-RULE-11: App `args` holding a non-string item is handled; the profile change in it is refused."""
    args = {
        "mode": "launch_executable",
        "executable": "C:\\Tools\\pwsh.exe",
        "args": ["-Command", "Add-Content $PROFILE x", 7],
    }
    hit = protected_hit("App", args, PROTECTED)
    assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-RULE-10")
@pytest.mark.parametrize(
    ("protected", "app"),
    [
        (STATE, {"executable": f"{STATE}\\tool.exe"}),  # a program inside the state dir
        ("\\\\srv\\share\\state", {"executable": "C:\\x.exe", "cwd": "\\\\srv\\share\\state"}),  # UNC
        ("/home/me/state", {"executable": "C:\\x.exe", "cwd": "/home/me/state/"}),  # rooted, trailing slash
        ("\\\\srv\\share\\state", {"executable": "C:\\x.exe", "args": ["/data", "\\\\srv\\share\\state\\STOP"]}),
    ],
    ids=["executable", "unc-cwd", "posix-cwd", "unc-argument"],
)
def test_an_app_launch_naming_the_gateways_files_by_executable_cwd_or_argument_is_refused(
    protected: str, app: dict[str, object]
) -> None:
    """S-RULE-10: App `executable` and `cwd` are read as paths, each of its `args` as text."""
    hit = protected_hit("App", {"mode": "launch_executable", **app}, [protected])
    assert hit is not None and hit.rule_id == "self-protection"


@requirement("S-RULE-10")
def test_only_powershell_carries_a_command() -> None:
    """S-RULE-10: a `command` key on another tool is not read as a command (Registry is not checked)."""
    assert protected_hit("Registry", {"mode": "get", "path": "HKCU:\\X", "command": f"del {STOP}"}, PROTECTED) is None


@requirement("S-RULE-10")
def test_a_command_naming_the_gateways_files_is_refused_with_the_path_it_names() -> None:
    """S-RULE-10: `Remove-Item '<state dir>\\STOP'` is refused naming the gateway's path it reached."""
    hit = _ps(f"Remove-Item '{STOP}'")
    assert hit is not None
    assert hit.reason.startswith(f"The call names the gateway's own files ({STATE}). ")


@requirement("S-SELF-03")
@pytest.mark.parametrize("before", ["'x' + \"`t\"", '"a"', "'a'"], ids=["backtick", "double", "single"])
def test_a_profile_after_a_closed_string_is_spelled_as_a_value(before: str) -> None:
    """S-SELF-03: after `"`t"` or `"a"` the string has ended, so `$PROFILE` there is a value: quoted."""
    path = f"{DOCUMENTS}\\Microsoft.PowerShell_profile.ps1"
    spelled = with_profile_paths(f"{before} > $PROFILE", "WindowsPowerShell", PSHOME)
    assert spelled == f"{before} > '{path}'"


@requirement("S-SELF-05")
def test_a_redirection_after_one_inside_a_printed_string_is_still_read() -> None:
    """S-SELF-05: `Write-Output "1 > 2"; 'x' > \\\\localhost\\c$\\…\\STOP`: the second redirection reaches STOP."""
    target = "\\\\localhost\\c$\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP"
    hit = _ps(f"Write-Output \"1 > 2\"; 'x' > {target}")
    assert hit is not None and hit.rule_id == "self-protection"
