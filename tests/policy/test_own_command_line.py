"""The gateway's own command line under every name Windows runs it by (S-SELF-11).

pip installs the console script as `winmcp-gateway.exe`; `python -m gateway` runs the same code, and
so does any module below the package (`-m gateway.__main__`) or its `__main__.py` run by path. Each
is the gateway's command line: `approve` or `pin accept` through it would let the agent lift its own
guard. The rules are built as the gateway builds them (its state paths plus `SELF_COMMANDS`).
"""

from __future__ import annotations

import pytest

from gateway.app import SELF_COMMANDS
from policy.rules.match import load_rules
from tests._requirements import requirement

STATE = "C:\\Users\\bob\\AppData\\Local\\winmcp-gateway"
RULES = load_rules(protected_paths=[STATE, STATE + "\\STOP", *SELF_COMMANDS])
SCRIPTS = "C:\\Users\\bob\\AppData\\Local\\Programs\\Python\\Python311\\Scripts"


def verdict(tool: str, **args: object) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


SELF = ("self-protection", "deny")


@requirement("S-SELF-11")
@pytest.mark.parametrize(
    "command",
    [
        "winmcp-gateway.exe approve apr-1",
        "WINMCP-GATEWAY.EXE pin accept",
        f"{SCRIPTS}\\winmcp-gateway.exe approve apr-1",
        f"& '{SCRIPTS}\\winmcp-gateway.exe' approve apr-1",
        '& "$env:LOCALAPPDATA\\Programs\\Python\\Python311\\Scripts\\winmcp-gateway.exe" kill release',
        "cmd /c winmcp-gateway.exe approve apr-1",
        "Start-Process winmcp-gateway.exe -ArgumentList 'approve','apr-1'",
        "$n = 'winmcp-gateway' + '.exe'; & $n approve apr-1",
        "python -m gateway.__main__ approve apr-1",
        "py -m gateway.cli.commands approve apr-1",
        f"python {SCRIPTS}\\..\\Lib\\site-packages\\gateway\\__main__.py approve apr-1",
    ],
)
def test_the_console_script_a_submodule_or_the_entry_file_is_the_gateways_command_line(command: str) -> None:
    """S-SELF-11: through PowerShell (and cmd inside it), each spelling is a self-protection deny."""
    assert verdict("PowerShell", command=command) == SELF


@requirement("S-SELF-11")
@pytest.mark.parametrize(
    "args",
    [
        {"mode": "launch_executable", "executable": f"{SCRIPTS}\\winmcp-gateway.exe", "args": ["approve", "apr-1"]},
        {"mode": "launch_executable", "executable": "winmcp-gateway.exe", "args": "pin accept"},
        {"mode": "launch_executable", "executable": "python", "args": ["-m", "gateway.__main__", "approve", "x"]},
        {"mode": "launch", "name": "winmcp-gateway"},
    ],
)
def test_app_starting_the_gateways_command_line_is_refused(args: dict[str, object]) -> None:
    """S-SELF-11: App's `executable` (and `name`) is read as the program started, not only as a path."""
    assert verdict("App", **args) == SELF


@requirement("S-SELF-11")
@pytest.mark.parametrize(
    "command",
    [
        "Get-Content C:\\notes\\winmcp-gateway.md",  # a document about it, not the program
        "Get-ChildItem C:\\src\\gateway",
        "python -m gatewayx serve",  # another package
        "python -m gateway_tools run",
        "Get-Content C:\\src\\gateway\\__main__.pyc",
    ],
)
def test_other_names_that_only_look_alike_pass(command: str) -> None:
    """S-SELF-11: another extension, package or folder is not the gateway."""
    assert verdict("PowerShell", command=command) is None


@requirement("S-SELF-16")
@pytest.mark.parametrize(
    "command",
    [
        "pip install WinMCP.Gateway==0.0.1",  # PEP 503: the same project
        "pip install winmcp__gateway",
        "python -m pip install --force-reinstall C:\\t\\winmcp_gateway-9.9-py3-none-any.whl",
        "pip install C:\\t\\winmcp-gateway-0.1.tar.gz",
        "pipx install --force C:\\t\\WinMCP_Gateway-1.0-py3-none-any.whl",
    ],
)
def test_installing_the_gateway_from_a_chosen_file_or_version_is_refused(command: str) -> None:
    """S-SELF-16: the next start would run that copy of the gateway."""
    assert verdict("PowerShell", command=command) == SELF


@requirement("S-SELF-16")
@pytest.mark.parametrize(
    "command",
    ["pip install requests", "Get-Content C:\\src\\winmcp-gateway-notes.txt", "Get-ChildItem C:\\src\\winmcp-gatewayx"],
)
def test_other_packages_and_names_that_only_begin_like_it_pass(command: str) -> None:
    """S-SELF-16: only the project itself and its distribution files are the gateway's."""
    assert verdict("PowerShell", command=command) is None
