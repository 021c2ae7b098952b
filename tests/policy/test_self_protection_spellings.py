"""Self-protection on Windows paths (issue 12 items 1–2): every spelling of the gateway's own files,
settings and the PowerShell profiles is refused by canonical comparison, not by the product's name.

The protected paths are built as the gateway on Windows hands them over (`GatewayApp.protected_paths`:
each path absolute, real and in its 8.3 form) with a state dir under a custom name, `guard`, so no
refusal here can come from the words `winmcp-gateway` appearing in the text.
"""

from __future__ import annotations

import ntpath

import pytest

from gateway.app import SELF_COMMANDS
from policy.rules.match import load_rules
from policy.rules.self_protection import with_profile_paths
from tests._requirements import requirement

LOCAL = "C:\\Users\\me\\AppData\\Local"
STATE = ntpath.join(LOCAL, "guard")
CONFIG_DIR = "C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway"  # the default, no file in it yet
PROTECTED = (STATE, ntpath.join(STATE, "STOP"), CONFIG_DIR, *SELF_COMMANDS)
RULES = load_rules(protected_paths=PROTECTED)


def _refused(tool: str, args: dict[str, object], *, analyse: bool = True) -> bool:
    rules = RULES if analyse else type(RULES)(rules=(), protected_paths=PROTECTED, analyse=False)
    hit = rules.match(tool, args)
    return hit is not None and (hit.rule_id, hit.action) == ("self-protection", "deny")


def _ps(command: str) -> tuple[str, dict[str, object]]:
    return ("PowerShell", {"command": command})


def _fs(mode: str, path: str, **more: object) -> tuple[str, dict[str, object]]:
    return ("FileSystem", {"mode": mode, "path": path, **more})


def _reg(mode: str, path: str, name: str | None, value: str | None = None) -> tuple[str, dict[str, object]]:
    return ("Registry", {"mode": mode, "path": path, "name": name, "value": value, "type": "String"})


SESSION_ENV = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
CONFIG = ntpath.join(CONFIG_DIR, "config.toml")

CONFIGURATION = [  # item 1: the default config path, whether or not the file exists
    _fs("write", CONFIG, content="enforce = false"),
    _fs("write", "C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway.\\config.toml", content="enforce = false"),
    _fs("copy", "C:\\Users\\me\\Desktop\\weak.toml", destination=CONFIG),
    _ps("Set-Content $env:APPDATA\\winmcp-gateway\\config.toml 'enforce = false'"),
    _ps("New-Item -ItemType Directory -Force $env:APPDATA\\winmcp-gateway"),
    _ps("New-Item -ItemType Junction -Path $env:APPDATA\\winmcp-gateway -Target C:\\Users\\me\\Desktop\\cfg"),
    _ps("cmd /c mklink /J %APPDATA%\\winmcp-gateway C:\\Users\\me\\Desktop\\cfg"),
]
SETTINGS = [  # item 1: the whole WINMCP_GATEWAY_* namespace
    _ps("setx WINMCP_GATEWAY_ENFORCE false"),
    _ps("setx /M WINMCP_GATEWAY_REQUIRE_OBSERVATION false"),
    _ps("cmd /c setx WINMCP_GATEWAY_COMMAND_RULES_ENABLED false"),
    _ps("setx ('WINMCP_' + 'GATEWAY_ENFORCE') false"),
    _ps("[Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_ENFORCE', 'false', 'User')"),
    _ps("[System.Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_PROFILE', 'open', 'Machine')"),
    _ps("[Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_ENFORCE', 'false')"),
    _ps("$env:WINMCP_GATEWAY_ENFORCE = 'false'; winget upgrade --all"),
    _ps("Set-Item Env:WINMCP_GATEWAY_ENFORCE false"),
    _ps("Add-Content C:\\Temp\\setup.ps1 '$env:WINMCP_GATEWAY_ENFORCE = \"false\"'"),
    _ps("reg add HKCU\\Environment /v WINMCP_GATEWAY_ENFORCE /d false /f"),
    _ps(f'reg add "{SESSION_ENV}" /v WINMCP_GATEWAY_TOOLS_ALLOW /d "*" /f'),
    _ps("Set-ItemProperty HKCU:\\Environment -Name WINMCP_GATEWAY_ENFORCE -Value false"),
    _ps("wmic environment create name='WINMCP_GATEWAY_ENFORCE',username='me',VariableValue='false'"),
    (
        "App",
        {
            "mode": "launch_executable",
            "executable": "C:\\Windows\\System32\\setx.exe",
            "args": ["WINMCP_GATEWAY_ENFORCE", "false"],
        },
    ),
    _reg("set", "HKCU:\\Environment", "WINMCP_GATEWAY_ENFORCE", "false"),
    _reg("set", "HKEY_CURRENT_USER\\Environment", "winmcp_gateway_config", "C:\\Users\\me\\Desktop\\weak.toml"),
    _reg("set", "Registry::HKU\\S-1-5-21-1-2-3-1001\\Environment", "WINMCP_GATEWAY_STATE_DIR", "C:\\x"),
    _reg("set", SESSION_ENV, "WINMCP_GATEWAY_ENFORCE", "false"),
    _reg("set", "HKLM:\\SYSTEM\\ControlSet001\\Control\\Session Manager\\Environment", "WINMCP_GATEWAY_X", "1"),
    _reg("delete", "HKCU:\\Environment", "WINMCP_GATEWAY_REQUIRE_APPROVAL"),
    _reg("delete", "HKCU:\\Environment", None),
]
PROFILES = [  # item 1: the PowerShell profiles run at every start
    _ps("Add-Content $PROFILE '$env:WINMCP_GATEWAY_ENFORCE = \"false\"'"),
    _ps("Add-Content $PROFILE 'Set-Alias ls Remove-Item'"),
    _ps("Set-Content -Path $PROFILE.CurrentUserAllHosts -Value 'x'"),
    _ps("New-Item -ItemType File -Force $Profile.AllUsersAllHosts"),
    _ps("'Set-Alias ls Remove-Item' | Out-File -Append $PROFILE"),
    _ps("'Set-Alias ls Remove-Item' >> $PROFILE"),
    _ps("[IO.File]::AppendAllText($PROFILE, 'x')"),
    _ps('Add-Content "$PROFILE" x'),
    _ps("Set-Content C:\\Users\\me\\Documents\\WindowsPowerShell\\Microsoft.PowerShell_profile.ps1 'x'"),
    _ps("'x' >> C:\\Users\\me\\Documents\\PowerShell\\profile.ps1"),
    _ps("Copy-Item C:\\Temp\\p.ps1 $env:USERPROFILE\\Documents\\WindowsPowerShell\\profile.ps1"),
    _fs("write", "C:\\Users\\me\\Documents\\WindowsPowerShell\\profile.ps1", content="$env:WINMCP_GATEWAY_X=1"),
    _fs("write", "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\profile.ps1", content="x", append=True),
]
FILE_SYSTEM_SPELLINGS = [  # item 2: FileSystem reaches the state dir by another name
    _fs("delete", f"{STATE}\\STOP"),
    _fs("delete", "C:\\Users\\me\\APPDAT~1\\Local\\guard\\STOP"),
    _fs("delete", f"{LOCAL}\\GU3F2A~1\\STOP"),  # a hashed short name that could be `guard`'s
    _fs("delete", f"{LOCAL}\\guard.\\STOP"),
    _fs("delete", f"{LOCAL}\\guard \\STOP"),
    _fs("delete", f"{LOCAL}\\guard\\STOP."),
    _fs("delete", "\\\\localhost\\c$\\Users\\me\\AppData\\Local\\guard\\STOP"),
    _fs("delete", "\\\\127.0.0.1\\C$\\Users\\me\\AppData\\Local\\guard\\STOP"),
    _fs("delete", "\\\\?\\UNC\\localhost\\c$\\Users\\me\\AppData\\Local\\guard\\STOP"),
    _fs("delete", "\\\\?\\C:\\Users\\me\\AppData\\Local\\guard\\STOP"),
    _fs("delete", "\\Users\\me\\AppData\\Local\\guard\\STOP"),
    _fs("delete", "C:Users\\me\\AppData\\Local\\guard\\STOP"),
    _fs("delete", f"{LOCAL}\\gu?rd\\ST*"),
    _fs("write", f"{LOCAL}\\g*\\audit.jsonl", content="{}"),
    _fs("move", f"{LOCAL}\\guard", destination="C:\\Users\\me\\Desktop\\g"),
    _fs("read", f"{STATE}\\audit.jsonl"),  # reading the audit stays refused (the text check)
    _fs("read", CONFIG),
]
POWERSHELL_SPELLINGS = [  # item 2: the custom name, reached by canonical comparison
    _ps("cd $env:LOCALAPPDATA; rm guard\\STOP"),
    _ps("Set-Location $env:LOCALAPPDATA; Remove-Item .\\guard\\STOP -Force"),
    _ps("Push-Location C:\\Users\\me\\AppData; Remove-Item Local\\guard\\STOP"),
    _ps("Remove-Item (Join-Path $env:LOCALAPPDATA 'guard\\STOP')"),
    _ps("Remove-Item (Join-Path $env:LOCALAPPDATA guard STOP)"),
    _ps("Remove-Item ([Environment]::GetFolderPath('LocalApplicationData') + '\\guard\\STOP')"),
    _ps("Remove-Item (Join-Path ([Environment]::GetFolderPath('LocalApplicationData')) 'guard\\STOP')"),
    _ps("Remove-Item \\\\localhost\\c$\\Users\\me\\AppData\\Local\\guard\\STOP"),
    _ps("Remove-Item \\\\?\\UNC\\127.0.0.1\\c$\\Users\\me\\AppData\\Local\\guard\\STOP"),
    _ps("Remove-Item C:\\Users\\me\\AppData\\Local\\GUARD~1\\STOP"),
    _ps("Remove-Item C:\\Users\\me\\AppData\\Local\\guard.\\STOP"),
    _ps("Remove-Item C:Users\\me\\AppData\\Local\\guard\\STOP"),
    _ps("Clear-Content $env:LOCALAPPDATA\\gu*\\audit.jsonl"),
    _ps("cmd /c del %LOCALAPPDATA%\\guard\\STOP"),
]
LINKS = [  # item 2: a link whose target holds (or is in) a protected path
    _ps("cmd /c mklink /J C:\\Users\\me\\Desktop\\x C:\\Users\\me\\AppData\\Local"),
    _ps("cmd /c mklink /D C:\\Users\\me\\Desktop\\x %LOCALAPPDATA%\\guard"),
    _ps("New-Item -ItemType Junction -Path C:\\Users\\me\\Desktop\\x -Target $env:LOCALAPPDATA\\guard"),
    _ps("New-Item -ItemType SymbolicLink -Path C:\\Users\\me\\Desktop\\x -Value C:\\Users\\me\\AppData"),
    _ps(
        "New-Item -ItemType HardLink -Path C:\\Users\\me\\Desktop\\x -Target C:\\Users\\me\\AppData\\Local\\guard\\STOP"
    ),
    _ps("subst X: C:\\Users\\me\\AppData\\Local"),
    _ps("cmd /c subst X: %LOCALAPPDATA%\\guard"),
]
# Every case and the requirement it proves.
REFUSED = [
    *(("S-SELF-01", c) for c in CONFIGURATION),
    *(("S-SELF-02", c) for c in SETTINGS),
    *(("S-SELF-03", c) for c in PROFILES),
    *(("S-SELF-05", c) for c in FILE_SYSTEM_SPELLINGS),
    *(("S-SELF-06", c) for c in POWERSHELL_SPELLINGS),
    *(("S-SELF-07", c) for c in LINKS),
]

NOT_REFUSED = [  # reading, other folders and the bare name are not the guard's
    _ps("Get-ChildItem Env:"),
    _ps("Get-Content $PROFILE"),
    _ps("Test-Path $PROFILE.CurrentUserAllHosts"),
    _ps("Get-ChildItem $env:LOCALAPPDATA"),
    _ps("Write-Output 'guard'"),
    _ps("Set-Location $env:LOCALAPPDATA; Get-ChildItem guard-rails"),
    _ps("Remove-Item $env:LOCALAPPDATA\\Temp\\guard\\cache.tmp"),
    _ps("setx MY_TOOL_HOME C:\\Tools\\mine"),
    _ps("'hello' > C:\\Users\\me\\Desktop\\notes.txt"),
    _ps("cmd /c mklink /J C:\\Users\\me\\Desktop\\proj D:\\Projects\\proj"),
    _fs("write", "C:\\Users\\me\\Desktop\\guard.txt", content="x"),
    _fs("read", "C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway-notes.txt"),
    _reg("get", "HKCU:\\Environment", "WINMCP_GATEWAY_ENFORCE"),
]


@requirement("S-SELF-01", "S-SELF-02", "S-SELF-03", "S-SELF-05", "S-SELF-06", "S-SELF-07")
@pytest.mark.parametrize(("spec", "case"), REFUSED, ids=[f"{s}-{i}" for i, (s, _) in enumerate(REFUSED)])
def test_every_spelling_of_the_guards_own_files_and_settings_is_refused(
    spec: str, case: tuple[str, dict[str, object]]
) -> None:
    """S-SELF-01..03, 05..07: the config path, WINMCP_GATEWAY_* settings, profiles, path spellings, links."""
    tool, args = case
    assert _refused(tool, args), (spec, tool, args, RULES.match(tool, args))


@requirement("S-SELF-01", "S-SELF-02", "S-SELF-03", "S-SELF-05", "S-SELF-06", "S-SELF-07")
@pytest.mark.parametrize(("spec", "case"), REFUSED, ids=[f"{s}-{i}" for i, (s, _) in enumerate(REFUSED)])
def test_the_guard_holds_with_command_rules_switched_off(spec: str, case: tuple[str, dict[str, object]]) -> None:
    """S-SELF-01..07: `command_rules_enabled = false` keeps every one of these refusals."""
    tool, args = case
    assert _refused(tool, args, analyse=False), (spec, tool, args)


@requirement("S-SELF-06")
@pytest.mark.parametrize(("tool", "args"), NOT_REFUSED)
def test_reading_other_places_and_the_bare_name_are_not_self_protection(tool: str, args: dict[str, object]) -> None:
    """S-SELF-06: the guard is found by place: its name as a word, a sibling folder or a read passes it."""
    hit = RULES.match(tool, args)
    assert hit is None or hit.rule_id != "self-protection", (tool, args, hit)


@requirement("S-SELF-04")
def test_a_short_name_only_windows_knows_is_protected_only_when_handed_over() -> None:
    """S-SELF-04: `guard+state` is `GUARD_~1` (Windows replaces `+`): no guess finds that, the OS's form does."""
    state = f"{LOCAL}\\guard+state"
    delete = {"mode": "delete", "path": f"{LOCAL}\\GUARD_~1\\STOP"}
    guessed = load_rules(protected_paths=(state, *SELF_COMMANDS)).match("FileSystem", delete)
    assert guessed is None or guessed.rule_id != "self-protection"
    told = load_rules(protected_paths=(state, f"{LOCAL}\\GUARD_~1", *SELF_COMMANDS)).match("FileSystem", delete)
    assert told is not None and (told.rule_id, told.action) == ("self-protection", "deny")


@requirement("S-SELF-03")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Add-Content $PROFILE x", "Add-Content 'C:\\Users\\user\\Documents\\D\\Microsoft.PowerShell_profile.ps1' x"),
        ("ac $profile.CurrentUserAllHosts x", "ac 'C:\\Users\\user\\Documents\\D\\profile.ps1' x"),
        ('ac "$PROFILE" x', 'ac "C:\\Users\\user\\Documents\\D\\Microsoft.PowerShell_profile.ps1" x'),
        ("ni ${global:PROFILE}", "ni 'C:\\Users\\user\\Documents\\D\\Microsoft.PowerShell_profile.ps1'"),
        ("ni $PROFILE.AllUsersCurrentHost", "ni 'H\\Microsoft.PowerShell_profile.ps1'"),
        ("$profiles = 1", "$profiles = 1"),
    ],
)
def test_profile_variables_are_spelled_as_their_standard_paths(text: str, expected: str) -> None:
    """S-SELF-03: `$PROFILE` and its members become the profile's path, quoted only outside strings."""
    assert with_profile_paths(text, "D", "H") == expected


@requirement("S-RULE-28")
@pytest.mark.parametrize(
    ("path", "content", "refused"),
    [
        ("C:\\Users\\me\\x.bat", "winmcp-gateway kill release", True),
        ("C:\\Users\\me\\x.ps1", "python -m gateway kill release", True),
        ("C:\\Users\\me\\x.CMD", "setx WINMCP_GATEWAY_ENFORCE false", True),
        ("C:\\Users\\me\\notes.txt", "winmcp-gateway kill release", False),
    ],
)
def test_a_script_written_to_lift_the_guard_later_is_refused(path: str, content: str, refused: bool) -> None:
    """S-RULE-28: a .bat/.cmd/.ps1 naming the gateway's command line is refused when written; a note is not."""
    assert _refused("FileSystem", {"mode": "write", "path": path, "content": content}, analyse=False) is refused
