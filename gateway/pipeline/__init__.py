"""One call's journey: the world handed to policy, the drift probe, asking a person, the own tools.

`handle_call` runs one `tools/call` (`journey`); `policy_world` builds what policy is given;
`own_tool_handlers` answers the `winmcp_*` tools.
"""

from gateway.pipeline.journey import handle_call

__all__ = ["handle_call"]
