"""A wildcard variable name names the gateway's settings only when it can match one (S-RULE-84).

Found in review: `_names_gateway_setting` took any pattern that starts with a wildcard for the gateway's own
settings, so `Remove-ItemProperty HKCU:\\Environment -Name ?ATH` was refused as self-protection.
"""

from __future__ import annotations

import pytest

from policy.rules.judge import GATEWAY_SETTING_PREFIX, can_match_prefix
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

SELF = ("self-protection", "deny")
ENV = ("environment-change", "ask")


@requirement("S-RULE-84")
@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("winmcp_gateway_config", True),
        ("winmcp_gateway_", True),
        ("*", True),
        ("w*", True),
        ("*_config", True),  # WINMCP_GATEWAY_CONFIG ends so
        ("*ath", True),  # a name of the gateway's may end in ath
        ("?inmcp_gateway_config", True),
        ("winmcp_gateway_?onfig", True),
        ("[vw]inmcp_gateway_x", True),
        ("[u-w]inmcp*", True),
        ("winmcp?gateway?*", True),
        ("win*gate*", True),
        ("`winmcp_gateway_x", True),  # a backtick escapes a plain letter
        ("[inmcp_gateway_x", True),  # no closing bracket: read as any character
        ("?ath", False),  # four characters: too short for the prefix
        ("p?th", False),
        ("path", False),
        ("[abc]inmcp_gateway_x", False),
        ("winmcp_gatewax*", False),
        ("wi?mcp_gateway", False),  # fourteen characters, one short
        ("winmcp`*", False),  # an escaped star is a star
        ("temp", False),
    ],
)
def test_a_pattern_names_the_gateways_settings_only_when_it_can_match_one(pattern: str, expected: bool) -> None:
    """S-RULE-84: the pattern is read over the prefix as PowerShell's wildcard matcher reads a name."""
    assert can_match_prefix(pattern, GATEWAY_SETTING_PREFIX) is expected


@requirement("S-RULE-84")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-ItemProperty HKCU:\\Environment -Name ?ATH", ENV),
        ("Remove-ItemProperty HKCU:\\Environment -Name TE?P", ENV),
        ("Set-ItemProperty HKCU:\\Environment -Name ?ATH -Value C:\\tools", ENV),
        ("[Environment]::SetEnvironmentVariable('?ATH', 'C:\\tools', 'User')", ENV),
        ("Remove-ItemProperty HKCU:\\Environment -Name ?INMCP_GATEWAY_CONFIG", SELF),
        ("Remove-ItemProperty HKCU:\\Environment -Name WINMCP_GATEWAY_?ONFIG", SELF),
        ("Remove-ItemProperty HKCU:\\Environment -Name W*", SELF),
        ("Remove-ItemProperty HKCU:\\Environment -Name *", SELF),
        ("Remove-ItemProperty HKCU:\\Environment -Name *_CONFIG", SELF),
        ("Set-ItemProperty HKCU:\\Environment -Name '[vw]INMCP_GATEWAY_CONFIG' -Value x", SELF),
        ("[Environment]::SetEnvironmentVariable('W*', 'x', 'Machine')", SELF),
        ("Remove-ItemProperty HKCU:\\Environment -Name P*", SELF),  # PYTHONPATH's row (S-SELF-15) still holds
    ],
)
def test_a_wildcard_change_of_the_environment_is_judged_by_what_it_can_name(
    command: str, expected: tuple[str, str]
) -> None:
    """S-RULE-84: a pattern that cannot name a gateway setting asks as any persistent change; one that can
    is refused."""
    assert ps(command) == expected


@requirement("S-RULE-84")
@pytest.mark.parametrize(
    "command",
    ["Get-ChildItem env:?ATH", "Get-Item env:P?TH", "Get-ChildItem env:WINMCP_GATEWAY_*", "$env:PATH"],
)
def test_reading_with_a_wildcard_passes(command: str) -> None:
    """S-RULE-84: listing variables changes nothing."""
    assert ps(command) is None


@requirement("S-RULE-84")
def test_the_registry_tool_with_a_wildcard_name_is_judged_the_same() -> None:
    """S-RULE-84: the Registry tool's value name is read the same way."""
    assert verdict("Registry", mode="delete", path="HKCU:\\Environment", name="?ATH") == ENV
    assert verdict("Registry", mode="delete", path="HKCU:\\Environment", name="WINMCP*") == SELF
