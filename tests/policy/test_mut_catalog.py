"""Which catalog rows are the gateway's own tools (S-CAT-01); found by mutation testing.

The gateway's `winmcp_*` tools are not proxied upstream, and the command rules' list of upstream
tool names must not include them.
"""

from __future__ import annotations

import pytest

from policy.catalog import spec_of
from policy.rules.match import KNOWN_TOOLS
from tests._requirements import requirement


@requirement("S-CAT-01")
@pytest.mark.parametrize(
    ("tool", "own"),
    [("winmcp_state", True), ("winmcp_kill", True), ("winmcp_doctor", True), ("Click", False), ("Snapshot", False)],
)
def test_only_the_gateways_own_tools_are_marked_own(tool: str, own: bool) -> None:
    """S-CAT-01: the catalog marks exactly the winmcp_* tools as the gateway's own."""
    spec = spec_of(tool)
    assert spec is not None and spec.own is own


@requirement("S-CAT-01")
def test_the_upstream_tool_names_leave_out_the_gateways_own_tools() -> None:
    """S-CAT-01: the names the rules know as upstream tools hold no winmcp_* tool and every upstream one."""
    assert not {t for t in KNOWN_TOOLS if t.startswith("winmcp_")}
    assert {"Click", "Snapshot", "PowerShell"} <= KNOWN_TOOLS
