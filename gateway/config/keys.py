"""Every config key, its default, safe value and meaning: the leaf the rest of `gateway.config` reads (DESIGN.md §8)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from policy.catalog import OBSERVATION_TOOLS, UPSTREAM_TOOLS
from policy.rate import DEFAULT_TABLE, read_limits

APP_NAME = "winmcp-gateway"
ENV_PREFIX = "WINMCP_GATEWAY_"
ENV_STATE_DIR = "WINMCP_GATEWAY_STATE_DIR"
ENV_CONFIG = "WINMCP_GATEWAY_CONFIG"
# One folder for both per-user dirs instead of the platform's (S-CFG-20; gateway/config/load.py).
ENV_HOME = "WINMCP_GATEWAY_HOME"
# The HTTP bearer token (gateway/transport/http_guard.py reads it).
ENV_TOKEN = "WINMCP_GATEWAY_TOKEN"
# Variables with the prefix that are not config keys (any other unknown one is warned about).
# A SYSTEM call naming any WINMCP_GATEWAY_* variable, these included, is refused (S-SELF-02, S-CFG-21).
ENV_NOT_KEYS = frozenset({ENV_STATE_DIR, ENV_CONFIG, ENV_HOME, ENV_TOKEN})

# Upper bound for max_observation_age_ms: a longer window would make "fresh" meaningless on a
# live desktop (10 minutes; the seed plugin's default was 60 s).
MAX_OBSERVATION_AGE_CEILING_MS = 600_000
# Safe values of the tool lists: an allow-list that cannot be read allows only observation; a
# deny-list that cannot be read denies everything else.
_OBSERVATION = tuple(sorted(OBSERVATION_TOOLS))
_NOT_OBSERVATION = tuple(sorted(set(UPSTREAM_TOOLS) - OBSERVATION_TOOLS))
# A window pattern no title can match: Win32 titles are NUL-terminated, so none contains U+0000.
NO_WINDOW = "\x00unusable allowed_windows: no window matches"


@dataclass(frozen=True, slots=True, kw_only=True)
class Key:
    """One config key: its type, default, the value used when input is unusable, and its doc.

    `safe` (None → the default) replaces an unusable value; `partial` says what a list with
    some unusable items becomes ("keep": its strings, since fewer can only restrict more;
    "union": its strings plus the safe value); `split_commas` lets a string stand for a list.
    """

    name: str
    kind: Literal["bool", "int", "str", "list[str]", "list[table]", "table"]
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    safe: Any = None
    weakens: bool = False  # may an explicit false switch a gate check off? (S-CFG-03)
    partial: Literal["keep", "union"] = "keep"
    split_commas: bool = True
    safe_doc: str = ""  # how the docs name the safe value when it is not the default
    # A "table" key's reader: the table as used (every entry) and a problem per entry it replaced.
    read_table: Callable[[object], tuple[dict[str, object], tuple[str, ...]]] | None = None

    @property
    def safe_value(self) -> Any:
        return self.default if self.safe is None else self.safe


# fmt: off
KEYS: tuple[Key, ...] = (
    Key(name="enforce", kind="bool", default=True, weakens=True,
        doc="false = shadow mode: decisions are audited as would-deny but not enforced; "
            "every result says so."),
    Key(name="require_observation", kind="bool", default=True, weakens=True,
        doc="Input actions need a fresh observation of this session."),
    Key(name="require_coordinate_mapping", kind="bool", default=True, weakens=True,
        doc="Warn (MAPPING_INCOMPLETE) when the basis observation has no image mapping. Never blocks."),
    Key(name="require_process_match", kind="bool", default=True, weakens=True,
        doc="Before an input action, probe the focused window and refuse if it changed (PROCESS_CHANGED)."),
    Key(name="probe_reuse_ms", kind="int", default=0, minimum=0, maximum=2000, weakens=True,
        doc="Off (0) by default. Above 0: an input action at most this many ms after the capture it relies "
            "on, with no input or system call forwarded since, is checked against what that capture saw of "
            "the focused window instead of probing again (S-FRESH-11). Faster for scripted clients; a focus "
            "change made outside the gateway inside that window is then caught only by the next probe."),
    Key(name="max_observation_age_ms", kind="int", default=60_000, minimum=0,
        maximum=MAX_OBSERVATION_AGE_CEILING_MS,
        doc="Oldest observation an input action may rely on, in milliseconds."),
    Key(name="observation_history", kind="int", default=32, minimum=1, maximum=10_000,
        doc="Observations kept per client session (older ones are dropped; ids are never reused)."),
    Key(name="allowed_windows", kind="list[str]", default=(), safe=(NO_WINDOW,), split_commas=False,
        safe_doc="no window matches",
        doc="If set, input actions are allowed only when the focused window title matches one of these "
            "case-insensitive glob patterns (WINDOW_NOT_ALLOWED)."),
    Key(name="private_windows", kind="list[str]", default=(), safe=("*",), split_commas=False,
        safe_doc='"*": every window is private',
        doc="Window title patterns (case-insensitive; with * or ? a whole-title glob, else a substring) "
            "added to the built-in private windows (password managers, banking, the gateway's own "
            "terminal): masked in every image, table and tree; input aimed at them is refused "
            "(PRIVATE_WINDOW)."),
    Key(name="tools_allow", kind="list[str]", default=(), safe=_OBSERVATION,
        safe_doc="the observation tools only",
        doc="If set, only these upstream tools are listed and callable (TOOL_NOT_ALLOWED)."),
    Key(name="tools_deny", kind="list[str]", default=(), safe=_NOT_OBSERVATION, partial="union",
        safe_doc="every tool but the observation tools (plus the names given)",
        doc="These upstream tools are hidden and refused (TOOL_NOT_ALLOWED)."),
    Key(name="profile", kind="str", default="default", choices=("default", "observe-only"),
        safe="observe-only",
        doc='"observe-only" leaves only observation tools and the gateway\'s read-only tools.'),
    Key(name="unknown_tools", kind="str", default="deny", choices=("deny", "allow"),
        doc='Upstream tools the catalog does not know: refused (UNKNOWN_TOOL) unless "allow".'),
    Key(name="pin_mode", kind="str", default="enforce", choices=("enforce", "warn"), weakens=True,
        doc='Tool-definition pinning (the "rug pull" check): an upstream tool whose name, description, '
            'schemas or annotations differ from the pin in the state dir is withheld from tools/list and '
            'refused TOOL_CHANGED until a person runs `winmcp-gateway pin accept`. "warn" only reports.'),
    Key(name="require_approval", kind="bool", default=False, safe=True,
        doc="SYSTEM tools (PowerShell, Registry, FileSystem, Process, App, Clipboard, Notification) need a "
            "person's approval."),
    Key(name="require_approval_for_input", kind="bool", default=False, safe=True,
        doc="INPUT tools (Click, Type, Scroll, Move, Shortcut, MultiSelect, MultiEdit) need a person's "
            "approval."),
    Key(name="approval_ttl_ms", kind="int", default=120_000, minimum=1_000, maximum=3_600_000,
        doc="How long a granted approval stays usable, in milliseconds."),
    Key(name="approval_wait_s", kind="int", default=60, minimum=1, maximum=600,
        doc="How long an elicitation waits for a person before it ends in a deny (below common client "
            "timeouts)."),
    Key(name="command_rules_enabled", kind="bool", default=True,
        doc="Match SYSTEM tool content against the built-in and custom command rules."),
    Key(name="command_rules", kind="list[table]", default=(),
        doc='Custom rules: [{id, pattern, risk, reason, action = "deny"|"ask", tools = [...]}]; '
            "patterns match normalised (lower-case, /-separated) text."),
    Key(name="dynamic_commands", kind="str", default="ask", choices=("ask", "deny"), safe="deny",
        doc="A command whose name or target is not constant after folding (`& $x`, `iex $y`, a kill by "
            'pid): "ask" a person, or "deny" it.'),
    Key(name="allow_rules", kind="list[str]", default=(),
        doc="Built-in rule ids to exempt; every exemption that lets a call through is audited."),
    Key(name="rate_limits", kind="table", default=dict(DEFAULT_TABLE), read_table=read_limits,
        doc="The brake for runaway agents, per client session: a rate per class (input, system, unknown; "
            '"<count>/s", "/min" or "/h", the count also the burst; "off"), and the loop detector: after '
            "identical_calls identical calls in a row with no observation, or refusals_in_a_row refusals "
            "in a row, every input and system call is refused (LOOP_DETECTED) until the model observes; 0 "
            "= off. Observation and the gateway's own tools are never braked. An unusable entry takes its "
            "default (S-RATE-07)."),
    Key(name="annotate_results", kind="bool", default=True,
        doc="Append the one-line `[gateway] obs=…` mapping annotation to Snapshot/Screenshot results."),
    Key(name="auto_audit", kind="bool", default=True,
        doc="Write the audit log. false writes nothing at all."),
    Key(name="audit_max_bytes", kind="int", default=8 * 1024 * 1024, minimum=4096, maximum=1 << 34,
        doc="Rotate the audit file (and the upstream's stderr log) at this size (bytes)."),
    Key(name="audit_keep", kind="int", default=3, minimum=1, maximum=1000,
        doc="Rotated audit files (and upstream stderr logs) to keep."),
    Key(name="audit_fsync", kind="bool", default=False,
        doc="fsync after every audit line (slower, survives power loss)."),
    Key(name="upstream_timeout_s", kind="int", default=150, minimum=1, maximum=3600,
        doc="Per-call upstream timeout in seconds (WaitFor may legitimately take 120 s)."),
    # Upstream faults (issue 12 items 6-7): the liveness check after a timeout, the answer bound.
    Key(name="upstream_ping_timeout_ms", kind="int", default=5000, minimum=50, maximum=60_000,
        doc="After a call times out, the upstream must answer a ping within this many ms, or it is "
            "killed and restarted (FAILED UPSTREAM_HUNG)."),
    Key(name="max_result_bytes", kind="int", default=64 * 1024 * 1024, minimum=1024, maximum=1 << 31,
        doc="The largest answer taken from the upstream (bytes of one JSON-RPC message); a larger one "
            "is dropped unread and the call gets FAILED RESULT_TOO_LARGE."),
    Key(name="max_message_bytes", kind="int", default=1024 * 1024, minimum=4096, maximum=64 * 1024 * 1024,
        doc="Largest client message accepted (one stdio line or HTTP body, bytes); a larger one is refused "
            "with a JSON-RPC error and the gateway keeps serving."),
)
# fmt: on
