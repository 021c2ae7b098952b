"""A persistent variable that loads code into other programs is refused (S-RULE-79).

`windir` in the user's environment redirects elevated tasks that expand it (a known UAC bypass);
`COR_PROFILER` and `DOTNET_STARTUP_HOOKS` load a DLL into every .NET program; `NODE_OPTIONS`,
`JAVA_TOOL_OPTIONS`, `PERL5OPT` and `RUBYOPT` load a file into every program of their runtime.
They only asked (`environment-change`), so a person could approve a hijack worded as a setting.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import verdict

HIJACK = ("persistence-hijack", "deny")


@requirement("S-RULE-79")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Registry", {"mode": "set", "path": "HKCU:\\Environment", "name": "windir", "value": "cmd /c calc &&"}),
        ("Registry", {"mode": "set", "path": "HKCU:\\Environment", "name": "SystemRoot", "value": "C:\\evil"}),
        ("Registry", {"mode": "set", "path": "HKCU:\\Environment", "name": "COR_PROFILER", "value": "{x}"}),
        ("PowerShell", {"command": "setx COR_ENABLE_PROFILING 1"}),
        ("PowerShell", {"command": "setx CORECLR_PROFILER_PATH_64 C:\\temp\\p.dll"}),
        ("PowerShell", {"command": "setx DOTNET_STARTUP_HOOKS C:\\temp\\hook.dll"}),
        (
            "PowerShell",
            {"command": "[Environment]::SetEnvironmentVariable('NODE_OPTIONS', '--require C:\\temp\\x.js', 'User')"},
        ),
        (
            "PowerShell",
            {"command": "Set-ItemProperty HKCU:\\Environment -Name JAVA_TOOL_OPTIONS -Value '-javaagent:C:\\t\\a.jar'"},
        ),
        ("PowerShell", {"command": "setx PERL5OPT -MEvil"}),
        ("PowerShell", {"command": "setx ComSpec C:\\evil\\cmd.exe /m"}),
        ("PowerShell", {"command": "setx COR_PROF* x"}),  # a pattern that could name one
    ],
    ids=[
        "windir",
        "systemroot",
        "cor-profiler",
        "cor-enable",
        "coreclr",
        "startup-hooks",
        "node-options",
        "java-tool-options",
        "perl5opt",
        "comspec-machine",
        "pattern",
    ],
)
def test_setting_a_loader_variable_is_refused(tool: str, args: dict[str, object]) -> None:
    """S-RULE-79: however the variable is written, setting it persistently is refused."""
    assert verdict(tool, **args) == HIJACK


@requirement("S-RULE-79")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("PowerShell", {"command": 'setx JAVA_HOME "C:\\Program Files\\Java\\jdk-21"'}, ("environment-change", "ask")),
        (
            "Registry",
            {"mode": "set", "path": "HKCU:\\Environment", "name": "EDITOR", "value": "code"},
            ("environment-change", "ask"),
        ),
        ("PowerShell", {"command": "$env:NODE_OPTIONS = '--max-old-space-size=4096'"}, None),  # this process only
        (
            "PowerShell",
            {"command": "Remove-ItemProperty HKCU:\\Environment -Name windir"},  # an override undone
            ("environment-change", "ask"),
        ),
    ],
    ids=["java-home", "editor", "process-scope", "remove-override"],
)
def test_other_variables_and_removal_keep_their_verdict(
    tool: str, args: dict[str, object], expected: tuple[str, str] | None
) -> None:
    """S-RULE-79: other variables still ask (or pass where they did); removing an override is not a hijack."""
    assert verdict(tool, **args) == expected
