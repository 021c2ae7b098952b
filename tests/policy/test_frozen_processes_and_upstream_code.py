"""A process frozen with pssuspend is judged as its kill (S-RULE-200); Windows-MCP's own code is off limits
(S-RULE-201).

Before, `pssuspend lsass` (every sign-in hangs), `pssuspend MsMpEng` and `pssuspend python` (the gateway
frozen) passed, while the same processes' kills were refused. And a write into Windows-MCP's package folder
(`…\\site-packages\\windows_mcp\\tools.py`), a copy over its launcher or a forced install of a wheel of it
passed: the gateway judges each call by what that tool does, and a rewritten `Snapshot` could run anything.
"""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import _guarded_rules, guarded, ps

CRITICAL = ("kill-critical-process", "deny")
GUARD = ("self-protection", "deny")
OWN = load_rules(own_processes=["4242", "C:\\Program Files\\Python311\\python.exe"])


@requirement("S-RULE-200")
@pytest.mark.parametrize(
    "command",
    [
        "pssuspend lsass",
        "pssuspend lsass.exe",
        "pssuspend64 -accepteula MsMpEng.exe",
        "pssuspend -nobanner csrss",
        "pssuspend.exe winlogon",
        r"& 'C:\Tools\Sysinternals\pssuspend64.exe' lsass",
        "cmd /c pssuspend lsass",
        r"pssuspend \\srv01 lsass",  # another machine's name is not the process (judged as `taskkill /s` is)
        "pssuspend -u me -p pw lsass",
    ],
)
def test_freezing_a_protected_process_is_refused_as_its_kill(command: str) -> None:
    """S-RULE-200: frozen, lsass hangs every sign-in; a security tool stops watching."""
    assert ps(command) == CRITICAL


@requirement("S-RULE-200")
@pytest.mark.parametrize("command", ["pssuspend python", "pssuspend64 python.exe", "pssuspend 4242"])
def test_freezing_the_gateway_is_refused(command: str) -> None:
    """S-RULE-200: the gateway frozen holds every call; judged as its kill (S-SELF-10)."""
    hit = OWN.match("PowerShell", {"command": command})
    assert hit is not None
    assert (hit.rule_id, hit.action) == GUARD


@requirement("S-RULE-200")
@pytest.mark.parametrize(
    "command",
    [
        "pssuspend notepad",
        "pssuspend -r lsass",
        "pssuspend64 -r python",
        r"pssuspend \\server -u me -p pw notepad",
        "pssuspend -u me -p lsass notepad",  # `-p`'s value is a password, not the process
        "pssuspend -u lsass notepad",  # `-u`'s value is an account
    ],
)
def test_freezing_an_ordinary_process_or_resuming_stays_ordinary(command: str) -> None:
    """S-RULE-200: an ordinary process, a resume, another machine's process."""
    assert ps(command) is None
    hit = OWN.match("PowerShell", {"command": command})
    assert hit is None or hit.rule_id != "self-protection"


@requirement("S-RULE-200")
def test_a_frozen_pid_is_dynamic() -> None:
    """S-RULE-200: a pid names no process the rules can check."""
    assert ps("pssuspend 624") == ("dynamic-command", "ask")
    assert ps("pssuspend") == ("dynamic-command", "ask")  # no process named: not known


@requirement("S-RULE-201")
@pytest.mark.parametrize(
    "command",
    [
        r"Set-Content C:\Users\me\AppData\Roaming\uv\tools\windows-mcp\Lib\site-packages\windows_mcp\__main__.py x",
        r"Set-Content C:\Users\me\AppData\Local\uv\cache\archive-v0\abc123\windows_mcp\tools.py x",
        r"Copy-Item C:\t\evil.py C:\venv\Lib\site-packages\windows_mcp\desktop\service.py",
        r"Add-Content C:\venv\Lib\site-packages\windows_mcp\__init__.py 'import os'",
        r"Remove-Item C:\Users\me\AppData\Roaming\uv\tools\windows-mcp -Recurse -Force",
        r"Copy-Item C:\t\evil.exe C:\Users\me\.local\bin\windows-mcp.exe",
        r"pip install --force-reinstall C:\t\windows_mcp-9.9-py3-none-any.whl",
        r"uv tool install --force C:\t\windows_mcp-9.9.tar.gz",
        r'cmd /c "copy C:\t\evil.py C:\venv\Lib\site-packages\windows_mcp\tools.py"',
    ],
)
def test_windows_mcps_own_code_is_off_limits(command: str) -> None:
    """S-RULE-201: its package in any environment, its launcher, a build of it to install over it."""
    assert guarded("PowerShell", command=command) == GUARD


@requirement("S-RULE-201")
@pytest.mark.parametrize(
    ("mode", "extra"),
    [
        ("write", {"path": r"C:\venv\Lib\site-packages\windows_mcp\tools.py", "content": "x"}),
        ("delete", {"path": r"C:\venv\Lib\site-packages\windows_mcp"}),
        ("copy", {"path": r"C:\t\evil.py", "destination": r"C:\venv\Lib\site-packages\windows_mcp\tools.py"}),
        ("move", {"path": r"C:\t\evil.exe", "destination": r"C:\Users\me\.local\bin\windows-mcp.exe"}),
    ],
)
def test_the_filesystem_tool_on_windows_mcps_code_is_refused(mode: str, extra: dict[str, object]) -> None:
    """S-RULE-201: FileSystem writes, deletes, and copies or moves onto it."""
    assert guarded("FileSystem", mode=mode, **extra) == GUARD


@requirement("S-RULE-201")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "read", "path": r"C:\venv\Lib\site-packages\windows_mcp\tools.py"}),
        ("FileSystem", {"mode": "list", "path": r"C:\venv\Lib\site-packages\windows_mcp"}),
        ("PowerShell", {"command": "pip install windows-mcp==0.8.8"}),
        ("PowerShell", {"command": r"Set-Content C:\src\Windows-MCP\src\windows_mcp\tools.py x"}),  # a checkout
        ("PowerShell", {"command": r"Get-Content C:\t\windows_mcp_notes.txt"}),
    ],
)
def test_reading_it_a_checkout_and_a_registry_install_stay_ordinary(tool: str, args: dict[str, object]) -> None:
    """S-RULE-201: reading the code, a source checkout, installing from the registry."""
    assert guarded(tool, **args) is None


@requirement("S-RULE-201")
def test_the_reason_names_windows_mcps_code() -> None:
    """S-RULE-201: the refusal says whose code, and what to do."""
    args = {"mode": "write", "path": r"C:\v\Lib\site-packages\windows_mcp\x.py", "content": ""}
    hit = _guarded_rules().match("FileSystem", args)
    assert hit is not None
    assert "Windows-MCP's own code" in hit.reason
    assert "ask the user" in hit.reason


@requirement("S-RULE-201")
def test_typed_into_a_console_is_refused() -> None:
    """S-RULE-201: the keyboard is a shell (issue 18 item 4)."""
    text = r"Copy-Item C:\t\evil.py C:\venv\Lib\site-packages\windows_mcp\tools.py"
    assert typed_in_console(text, rules=_guarded_rules()) == GUARD
