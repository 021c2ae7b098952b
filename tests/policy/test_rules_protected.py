"""Self-protection: no proxied call may name the gateway's own files (S-RULE-10)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules, protected_hit
from tests._requirements import requirement

STATE = "C:\\Users\\me\\AppData\\Local\\winmcp-gateway"
CONFIG = "C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway\\config.toml"
PROTECTED = [STATE, f"{STATE}\\audit.jsonl", f"{STATE}\\STOP", CONFIG]

NAMING = [
    ("FileSystem", {"mode": "delete", "path": f"{STATE}\\STOP"}),
    ("FileSystem", {"mode": "write", "path": "c:/users/ME/appdata/local/WINMCP-GATEWAY/stop", "content": ""}),
    ("FileSystem", {"mode": "read", "path": f"{STATE}\\"}),
    ("FileSystem", {"mode": "list", "path": STATE.lower() + "/"}),
    ("FileSystem", {"mode": "write", "path": f"{STATE}\\sub\\x.txt", "content": "x"}),
    ("FileSystem", {"mode": "read", "path": "..\\AppData\\Local\\winmcp-gateway\\audit.jsonl"}),
    ("FileSystem", {"mode": "copy", "path": "C:\\tmp\\empty.toml", "destination": CONFIG}),
    ("FileSystem", {"mode": "move", "path": "C:\\Users\\me\\AppData\\Local", "destination": "C:\\x"}),
    ("FileSystem", {"mode": "delete", "path": "C:\\Users\\me\\AppData\\Local\\.\\x\\..\\winmcp-gateway"}),
    ("FileSystem", {"mode": "read", "path": "\\\\?\\C:\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP"}),
    ("PowerShell", {"command": f"Remove-Item '{STATE}\\STOP'"}),
    ("PowerShell", {"command": "Remove-Item $env:LOCALAPPDATA\\winmcp-gateway\\STOP"}),
    ("PowerShell", {"command": "Remove-Item ${env:LocalAppData}/winmcp-gateway/STOP"}),
    ("PowerShell", {"command": "del %LOCALAPPDATA%\\winmcp-gateway\\STOP"}),
    (
        "PowerShell",
        {"command": "Set-Content ~\\AppData\\Roaming\\winmcp-gateway\\config.toml 'enforce=false'"},
    ),
    ("PowerShell", {"command": "Get-Content $HOME\\AppData\\Local\\winmcp-gateway\\audit.jsonl"}),
    ("PowerShell", {"command": "Remove-Item $env:USERPROFILE/AppData/Local/winmcp-gateway -Recurse"}),
    ("PowerShell", {"command": "Remove-Item $env:WINMCP_GATEWAY_STATE_DIR\\STOP"}),
    ("PowerShell", {"command": 'cmd /c "del C:\\Users\\me\\AppData\\Local\\winmcp-gateway\\STOP"'}),
    ("App", {"mode": "launch_executable", "executable": "C:\\Windows\\notepad.exe", "args": [CONFIG]}),
    ("App", {"mode": "launch_executable", "executable": "C:\\Tools\\x.exe", "cwd": STATE}),
]

NOT_NAMING = [
    ("FileSystem", {"mode": "read", "path": "C:\\Users\\me\\AppData\\Local\\winmcp-gateway-other\\a.txt"}),
    ("FileSystem", {"mode": "list", "path": "C:\\Users\\me\\AppData\\Local"}),  # listing a parent is fine
    ("FileSystem", {"mode": "write", "path": "notes.txt", "content": "winmcp-gateway STOP"}),
    ("PowerShell", {"command": "Get-ChildItem $env:LOCALAPPDATA"}),
    ("PowerShell", {"command": "Get-Content C:\\Users\\me\\AppData\\Local\\winmcp-gateway.txt"}),
    ("App", {"mode": "launch", "name": "notepad"}),
    ("Registry", {"mode": "delete", "path": "HKCU:\\Software\\winmcp-gateway"}),  # Registry is not checked
]


@requirement("S-RULE-10")
@pytest.mark.parametrize(("tool", "args"), NAMING)
def test_a_call_naming_the_gateways_files_is_a_self_protection_hit(tool: str, args: dict[str, object]) -> None:
    """S-RULE-10: any spelling of the state dir, audit, STOP or config path in the call is refused."""
    hit = protected_hit(tool, args, PROTECTED)
    assert hit is not None
    assert (hit.rule_id, hit.action) == ("self-protection", "deny")


@requirement("S-RULE-10")
@pytest.mark.parametrize(("tool", "args"), NOT_NAMING)
def test_other_paths_are_not_self_protection_hits(tool: str, args: dict[str, object]) -> None:
    """S-RULE-10: a sibling name, a plain listing of a parent, or an unrelated tool does not trip it."""
    assert protected_hit(tool, args, PROTECTED) is None


@requirement("S-RULE-10")
def test_posix_homes_match_tilde_forms() -> None:
    """S-RULE-10: on Linux/macOS the state dir under /home/<user> is also named by ~ and $HOME."""
    protected = ["/home/me/.local/state/winmcp-gateway"]
    assert protected_hit("PowerShell", {"command": "rm ~/.local/state/winmcp-gateway/STOP"}, protected)
    assert protected_hit("FileSystem", {"mode": "delete", "path": "$HOME/.local/state/winmcp-gateway"}, protected)
    assert protected_hit("FileSystem", {"mode": "delete", "path": "/home/me/other"}, protected) is None


@requirement("S-RULE-10")
def test_a_rule_set_with_protected_paths_checks_them_first_and_cannot_exempt_them() -> None:
    """S-RULE-10: RuleSet.match returns self-protection before any rule; allow_rules cannot lift it."""
    rules = load_rules(allow_rules=["recursive-delete"], protected_paths=PROTECTED)
    hit = rules.match("PowerShell", {"command": f"Remove-Item -Recurse {STATE}"})
    assert hit is not None and hit.rule_id == "self-protection"
    assert load_rules(allow_rules=["recursive-delete"]).match("PowerShell", {"command": f"rm -r {STATE}"}) is None


@requirement("S-RULE-10")
def test_no_protected_paths_means_no_self_protection_hit() -> None:
    """S-RULE-10: with nothing protected (or only blanks) the check is inert, not matching everything."""
    assert protected_hit("FileSystem", {"mode": "delete", "path": STATE}, []) is None
    assert protected_hit("FileSystem", {"mode": "delete", "path": STATE}, ["", "  "]) is None
