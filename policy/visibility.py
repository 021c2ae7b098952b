"""Which tools a client may see and call (DESIGN.md §5; S-VIS-01..03).

One function, `is_visible`, shapes `tools/list` and is enforced again at call time by
`check_visibility`, so the two can never disagree. Rules, in order:

1. A name in `tools_deny` is hidden (own tools too: a person may hide any tool).
2. The gateway's own `winmcp_*` tools are otherwise always visible: `tools_allow` and the
   observe-only profile restrict upstream tools, never the stop button or `winmcp_state`.
3. A tool the catalog does not know is hidden (UNKNOWN_TOOL) unless `unknown_tools = "allow"`.
4. Profile "observe-only" leaves only the observation tools.
5. A non-empty `tools_allow` leaves only the tools it names (exact names).
"""

from __future__ import annotations

from policy.catalog import OBSERVATION_TOOLS, OWN_TOOLS, ToolClass, classify
from policy.context import Context, PolicyConfig
from policy.decision import Code, Decision, refuse
from policy.values import ToolCall


def _hidden_by(tool: str, config: PolicyConfig) -> tuple[Code, str] | None:
    """(code, spec id) of the rule that hides `tool`, or None."""
    if tool in config.tools_deny:
        return Code.TOOL_NOT_ALLOWED, "S-VIS-01"
    if tool in OWN_TOOLS:
        return None
    if classify(tool) is ToolClass.UNKNOWN and config.unknown_tools != "allow":
        return Code.UNKNOWN_TOOL, "S-VIS-03"
    if config.profile == "observe-only" and tool not in OBSERVATION_TOOLS:
        return Code.TOOL_NOT_ALLOWED, "S-VIS-02"
    if config.tools_allow and tool not in config.tools_allow:
        return Code.TOOL_NOT_ALLOWED, "S-VIS-01"
    return None


def is_visible(tool: str, config: PolicyConfig) -> bool:
    """Whether `tool` is listed to the client and may be called (S-VIS-01).

    Args:
        tool: the tool name.
        config: the policy config.

    Returns:
        True when visible.
    """
    return _hidden_by(tool, config) is None


def check_visibility(call: ToolCall, ctx: Context, now_ms: float) -> Decision | None:
    """Chain step 2: refuse a call to a tool the client should not even see.

    Args:
        call: the call.
        ctx: the world; `ctx.config` is read.
        now_ms: unused.

    Returns:
        None, TOOL_NOT_ALLOWED or UNKNOWN_TOOL.
    """
    hidden = _hidden_by(call.tool, ctx.config)
    if hidden is None:
        return None
    code, spec = hidden
    if code is Code.UNKNOWN_TOOL:
        return refuse(
            code,
            f"the gateway does not know the tool {call.tool[:60]!r}, so it cannot judge what it does.",
            'use one of the listed tools; a person can set unknown_tools = "allow" if this tool is trusted',
            spec=spec,
        )
    return refuse(
        code,
        f"the tool {call.tool[:60]!r} is not allowed by this gateway's configuration.",
        "use one of the tools in tools/list; a person controls tools_allow, tools_deny and profile",
        spec=spec,
    )
