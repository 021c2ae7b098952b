"""Visibility: tools_allow / tools_deny / profile / unknown tools (S-VIS-01..03)."""

from __future__ import annotations

import pytest

from policy import (
    OBSERVATION_TOOLS,
    OWN_TOOLS,
    UPSTREAM_TOOLS,
    Code,
    PolicyConfig,
    Verdict,
    decide,
    is_visible,
)
from tests._requirements import requirement
from tests.policy._world import T0, call, context, observation, view

ALL_NAMES = sorted(UPSTREAM_TOOLS) + sorted(OWN_TOOLS) + ["Teleport"]
HIDING = (Code.TOOL_NOT_ALLOWED, Code.UNKNOWN_TOOL)

CONFIGS = {
    "default": PolicyConfig(),
    "deny": PolicyConfig(tools_deny=("PowerShell", "Registry", "winmcp_audit")),
    "allow": PolicyConfig(tools_allow=("Snapshot", "Click")),
    "observe-only": PolicyConfig(profile="observe-only"),
    "unknown-allowed": PolicyConfig(unknown_tools="allow", tools_allow=("Teleport", "Snapshot")),
}


@requirement("S-VIS-01")
@pytest.mark.parametrize("name", ALL_NAMES)
@pytest.mark.parametrize("cfg_name", sorted(CONFIGS))
def test_tools_list_and_call_time_enforcement_agree(cfg_name: str, name: str) -> None:
    """S-VIS-01: a tool is callable (not refused for visibility) exactly when it is listed."""
    cfg = CONFIGS[cfg_name]
    d = decide(call(name), context(view(observation("obs-1")), config=cfg), T0)
    assert is_visible(name, cfg) is (d.code not in HIDING)


@requirement("S-VIS-01")
@pytest.mark.parametrize(
    ("cfg_name", "name", "visible"),
    [
        ("deny", "PowerShell", False),
        ("deny", "Click", True),
        ("deny", "winmcp_audit", False),  # a person may hide any tool, own ones too
        ("allow", "Snapshot", True),
        ("allow", "Screenshot", False),
        ("allow", "PowerShell", False),
        ("allow", "winmcp_state", True),  # tools_allow never hides the gateway's own tools
        ("allow", "winmcp_kill", True),
        ("default", "Notification", True),
        ("default", "Snapshot", True),
    ],
)
def test_allow_and_deny_lists_use_exact_names(cfg_name: str, name: str, visible: bool) -> None:
    """S-VIS-01: tools_deny hides; a non-empty tools_allow keeps only the names it lists (plus own tools)."""
    assert is_visible(name, CONFIGS[cfg_name]) is visible


@requirement("S-VIS-01")
def test_a_denied_tool_is_refused_with_tool_not_allowed() -> None:
    """S-VIS-01: the call-time refusal is TOOL_NOT_ALLOWED with a remedy."""
    d = decide(call("PowerShell", command="x"), context(config=CONFIGS["deny"]), T0)
    assert d.code is Code.TOOL_NOT_ALLOWED and d.remedy


@requirement("S-VIS-02")
@pytest.mark.parametrize("name", ALL_NAMES)
def test_observe_only_leaves_observation_and_the_gateways_own_tools(name: str) -> None:
    """S-VIS-02: profile observe-only = the six observation tools + winmcp_* tools."""
    expected = name in OBSERVATION_TOOLS or name in OWN_TOOLS
    assert is_visible(name, CONFIGS["observe-only"]) is expected


@requirement("S-VIS-03")
def test_unknown_tools_are_refused_unless_allowed() -> None:
    """S-VIS-03: an unknown name is UNKNOWN_TOOL by default."""
    d = decide(call("Teleport", where="moon"), context(), T0)
    assert d.code is Code.UNKNOWN_TOOL


@requirement("S-VIS-03")
def test_an_allowed_unknown_tool_is_treated_as_system() -> None:
    """S-VIS-03: with unknown_tools="allow" it runs, but approval and broken rules apply as to SYSTEM."""
    cfg = PolicyConfig(unknown_tools="allow")
    assert decide(call("Teleport"), context(config=cfg), T0).verdict is Verdict.ALLOW
    strict = PolicyConfig(unknown_tools="allow", require_approval=True)
    assert decide(call("Teleport"), context(config=strict), T0).verdict is Verdict.ASK
    assert decide(call("Teleport"), context(config=cfg, rules_error="bad"), T0).code is Code.POLICY_ERROR
