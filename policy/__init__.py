"""winmcp-gateway's pure policy core: values in, decisions out (no I/O, clock or env).

The shell builds a `ToolCall` and a `Context` (config, kill switch, this session's view,
approvals, command rules) and calls `decide(call, ctx, now_ms)`; it acts on the returned
`Decision` (`decision.blocks`, `refusal_text(decision)`) and persists `decision.approval`.
"""

from policy.approval import ApprovalError, approval_digest, is_expired, session_approval
from policy.approval import consume as consume_approval
from policy.approval import deny as deny_approval
from policy.approval import grant as grant_approval
from policy.approval import request as request_approval
from policy.catalog import (
    CAPTURE_TOOLS,
    INPUT_TOOLS_WITH_BASED_ON,
    KILL_TOOL,
    OBSERVATION_TOOLS,
    OWN_READ_ONLY_TOOLS,
    OWN_TOOLS,
    UPSTREAM_TOOLS,
    ToolClass,
    ToolSpec,
    catalog_reads,
    classify,
    replaces_labels,
    spec_of,
    uses_coords,
    uses_labels,
)
from policy.context import Context, PolicyConfig, SessionView
from policy.decide import CHAIN, SELF_PROTECTION_RULE, Rule, decide, effective_class
from policy.decision import (
    SHADOWABLE,
    Code,
    CommandRules,
    Decision,
    RuleHit,
    Verdict,
    Warn,
    ensure_decision,
    policy_error,
    refusal_text,
)
from policy.freshness import basis_of, check_freshness, check_window, freshness_warnings, window_matches
from policy.kill import KILL_EXEMPT, can_release
from policy.values import (
    GATEWAY_ARGS,
    NOT_PROBED,
    PROBE_PENDING,
    Approval,
    ApprovalScope,
    ApprovalStatus,
    KillState,
    Probe,
    ToolCall,
)
from policy.visibility import is_visible

# This product's own package, not a same-named one from another distribution (gateway/cli/ownership.py).
__winmcp_gateway__ = True

__all__ = [
    "CAPTURE_TOOLS",
    "CHAIN",
    "GATEWAY_ARGS",
    "INPUT_TOOLS_WITH_BASED_ON",
    "KILL_EXEMPT",
    "KILL_TOOL",
    "NOT_PROBED",
    "OBSERVATION_TOOLS",
    "OWN_READ_ONLY_TOOLS",
    "OWN_TOOLS",
    "PROBE_PENDING",
    "SELF_PROTECTION_RULE",
    "SHADOWABLE",
    "UPSTREAM_TOOLS",
    "Approval",
    "ApprovalError",
    "ApprovalScope",
    "ApprovalStatus",
    "Code",
    "CommandRules",
    "Context",
    "Decision",
    "KillState",
    "PolicyConfig",
    "Probe",
    "Rule",
    "RuleHit",
    "SessionView",
    "ToolCall",
    "ToolClass",
    "ToolSpec",
    "Verdict",
    "Warn",
    "approval_digest",
    "basis_of",
    "can_release",
    "catalog_reads",
    "check_freshness",
    "check_window",
    "classify",
    "consume_approval",
    "decide",
    "deny_approval",
    "effective_class",
    "ensure_decision",
    "freshness_warnings",
    "grant_approval",
    "is_expired",
    "is_visible",
    "policy_error",
    "refusal_text",
    "replaces_labels",
    "request_approval",
    "session_approval",
    "spec_of",
    "uses_coords",
    "uses_labels",
    "window_matches",
]
