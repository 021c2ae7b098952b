"""`WINMCP_GATEWAY_HOME` moves the gateway's config and state (S-CFG-20), so an agent must not set it
for the next start: every way Windows keeps a variable for later is refused (S-CFG-21, S-SELF-02).

The protected paths are those of a gateway on Windows (as in test_self_protection_spellings), so a
refusal here comes from the variable's name, not from a path.
"""

from __future__ import annotations

import pytest

from gateway.config.keys import ENV_HOME, ENV_NOT_KEYS
from policy.rules.match import load_rules
from tests._requirements import requirement

STATE = "C:\\Users\\me\\AppData\\Local\\guard"
RULES = load_rules(protected_paths=(STATE, STATE + "\\STOP", "C:\\Users\\me\\AppData\\Roaming\\winmcp-gateway"))
ELSEWHERE = "C:\\Users\\me\\Desktop\\cfg"  # a folder the agent can write, holding `enforce = false`
SESSION_ENV = "HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"


def _ps(command: str) -> tuple[str, dict[str, object]]:
    return ("PowerShell", {"command": command})


def _reg(path: str, name: str) -> tuple[str, dict[str, object]]:
    return ("Registry", {"mode": "set", "path": path, "name": name, "value": ELSEWHERE, "type": "String"})


SET_FOR_NEXT_START = [
    _ps(f"setx WINMCP_GATEWAY_HOME {ELSEWHERE}"),
    _ps(f"setx /M winmcp_gateway_home {ELSEWHERE}"),
    _ps(f"cmd /c setx WINMCP_GATEWAY_HOME {ELSEWHERE}"),
    _ps(f"setx ('WINMCP_GATEWAY_' + 'HOME') {ELSEWHERE}"),
    _ps(f"[Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_HOME', '{ELSEWHERE}', 'User')"),
    _ps(
        f"[System.Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_HOME', '{ELSEWHERE}', "
        "[EnvironmentVariableTarget]::Machine)"
    ),
    _ps(f"Set-ItemProperty -Path HKCU:\\Environment -Name WINMCP_GATEWAY_HOME -Value {ELSEWHERE}"),
    _ps(f"New-ItemProperty HKCU:\\Environment -Name WINMCP_GATEWAY_HOME -Value '{ELSEWHERE}' -Force"),
    _ps(f"Set-ItemProperty -Path '{SESSION_ENV}' -Name WINMCP_GATEWAY_HOME -Value {ELSEWHERE}"),
    _ps(f"reg add HKCU\\Environment /v WINMCP_GATEWAY_HOME /d {ELSEWHERE} /f"),
    _reg("HKCU:\\Environment", "WINMCP_GATEWAY_HOME"),
    _reg("HKEY_CURRENT_USER\\Environment", "winmcp_gateway_home"),
    _reg(SESSION_ENV, "WINMCP_GATEWAY_HOME"),
    (
        "App",
        {
            "mode": "launch_executable",
            "executable": "C:\\Windows\\System32\\setx.exe",
            "args": ["WINMCP_GATEWAY_HOME", ELSEWHERE],
        },
    ),
]


@requirement("S-CFG-21")
@pytest.mark.parametrize(("tool", "args"), SET_FOR_NEXT_START)
def test_setting_the_gateway_home_for_the_next_start_is_refused(tool: str, args: dict[str, object]) -> None:
    """S-CFG-21: setx, SetEnvironmentVariable, HKCU\\Environment (PowerShell, reg, Registry tool), setx.exe."""
    hit = RULES.match(tool, args)
    assert hit is not None and (hit.rule_id, hit.action) == ("self-protection", "deny"), (tool, args)
    assert ENV_HOME in hit.reason.upper() or "WINMCP_GATEWAY" in hit.reason.upper()


@requirement("S-CFG-21")
def test_the_home_variable_is_in_the_protected_namespace_and_is_not_a_config_key() -> None:
    """S-CFG-21: the name has the WINMCP_GATEWAY_ prefix every self-protection spelling covers."""
    assert ENV_HOME == "WINMCP_GATEWAY_HOME" and ENV_HOME in ENV_NOT_KEYS
    # Outside the namespace a name is only an ordinary persistent change (a person is asked), not a
    # refusal: the prefix is what makes the new variable protected.
    other = RULES.match("PowerShell", {"command": f"setx WINMCPGATEWAYHOME {ELSEWHERE}"})
    assert other is not None and (other.rule_id, other.action) == ("environment-change", "ask")
