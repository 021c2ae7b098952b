"""The gateway's own tools (`winmcp_*`, DESIGN.md §8): definitions and handlers.

Each has an outputSchema and answers with structuredContent plus the same facts as text.
Only `winmcp_kill` changes anything, and only the kill switch; a model can engage a stop
but cannot release one a person engaged.
"""

from __future__ import annotations

import copy
from typing import Any

from policy import catalog

_POINT_INPUT = {
    "type": "object",
    "properties": {
        "x": {"type": "number", "description": "x coordinate"},
        "y": {"type": "number", "description": "y coordinate"},
        "based_on": {
            "anyOf": [{"type": "string"}, {"type": "null"}],
            "default": None,
            "description": 'Observation id ("obs-N"); default: the latest observation of this session with an image.',
        },
    },
    "required": ["x", "y"],
    "additionalProperties": False,
}
_POINT_OUTPUT = {
    "type": "object",
    "properties": {
        "ok": {"type": "boolean"},
        "obs": {"type": ["string", "null"]},
        "loc": {"type": ["array", "null"], "items": {"type": "integer"}},
        "exact": {"type": ["array", "null"], "items": {"type": "number"}},
        "round_trip": {"type": ["array", "null"], "items": {"type": "number"}},
        "on_screen": {"type": ["boolean", "null"]},
        "error": {"type": ["string", "null"]},
    },
    "required": ["ok"],
}


def _ro(title: str) -> dict[str, Any]:
    return {
        "title": title,
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }


OWN_TOOL_DEFINITIONS: list[dict[str, Any]] = [
    {
        "name": "winmcp_state",
        "title": "Gateway state",
        "description": "The gateway's state: kill switch (who engaged it and when), this session's latest "
        "observations with their mapping and age, counters, audit health and config warnings.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        "outputSchema": {
            "type": "object",
            "properties": {
                "kill": {"type": "object"},
                "session": {"type": "string"},
                "observations": {"type": "array"},
                "latest": {"type": ["string", "null"]},
                "generation": {"type": "integer"},
                "counters": {"type": "object"},
                "audit": {"type": "object"},
                "config_warnings": {"type": "array"},
                "upstream": {"type": "object"},
                "brake": {"type": "object"},  # rate-limit tokens per class and the loop detector (S-RATE-08)
            },
            "required": ["kill", "observations"],
        },
        "annotations": _ro("Gateway state"),
    },
    {
        "name": "winmcp_to_screen",
        "title": "Image pixel to screen point",
        "description": "Convert an image pixel of an observation's screenshot to the screen point to pass as "
        "loc=[X, Y] (screen = origin + image_px × scale). UI-tree coordinates are already screen points.",
        "inputSchema": _POINT_INPUT,
        "outputSchema": _POINT_OUTPUT,
        "annotations": _ro("Image pixel to screen point"),
    },
    {
        "name": "winmcp_screen_to_image",
        "title": "Screen point to image pixel",
        "description": "Convert a screen point to the pixel of an observation's screenshot (to check a "
        "position on the image).",
        "inputSchema": _POINT_INPUT,
        "outputSchema": _POINT_OUTPUT,
        "annotations": _ro("Screen point to image pixel"),
    },
    {
        "name": "winmcp_kill",
        "title": "Kill switch",
        "description": "Stop every desktop- or system-changing call at once (observation keeps working): "
        "action=engage|release|status. A model cannot release a stop that a person engaged.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["engage", "release", "status"]},
                "reason": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            },
            "required": ["action"],
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "engaged": {"type": "boolean"},
                "by": {"type": ["string", "null"]},
                "since": {"type": ["string", "null"]},
                "reason": {"type": ["string", "null"]},
                "changed": {"type": "boolean"},
                "message": {"type": "string"},
            },
            "required": ["engaged"],
        },
        "annotations": {
            "title": "Kill switch",
            "readOnlyHint": False,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
    },
    {
        "name": "winmcp_audit",
        "title": "Audit log",
        "description": "Read the audit log: view=summary (counts, recent refusals with reasons) or view=raw "
        "(the latest redacted events).",
        "inputSchema": {
            "type": "object",
            "properties": {
                "view": {"type": "string", "enum": ["summary", "raw"], "default": "summary"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 20},
            },
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "view": {"type": "string"},
                "summary": {"type": "object"},
                "events": {"type": "array"},
            },
            "required": ["view"],
        },
        "annotations": _ro("Audit log"),
    },
    {
        "name": "winmcp_doctor",
        "title": "Gateway self-check",
        "description": "Compare the gateway's assumptions with the live upstream (argument names the rules "
        "read, unknown tools and arguments), plus reachability, mapping, rules, audit and kill state. "
        "Says UNKNOWN, never OK, about what it could not check.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        "outputSchema": {
            "type": "object",
            "properties": {"overall": {"type": "string"}, "checks": {"type": "array"}},
            "required": ["overall", "checks"],
        },
        "annotations": _ro("Gateway self-check"),
    },
]

OWN_TOOL_NAMES = frozenset(t["name"] for t in OWN_TOOL_DEFINITIONS)
# Tools of ours that change nothing: allowed while the kill switch is engaged.
OWN_READ_ONLY = frozenset(OWN_TOOL_NAMES - {"winmcp_kill"})


def structured(data: dict[str, Any], text: str, *, is_error: bool = False) -> dict[str, Any]:
    """A tool result carrying both a readable text and structuredContent."""
    return {"content": [{"type": "text", "text": text}], "structuredContent": data, "isError": is_error}


# The optional arguments the gateway adds to upstream schemas (and strips before forwarding).
BASED_ON_SCHEMA = {
    "anyOf": [{"type": "string"}, {"type": "null"}],
    "default": None,
    "description": 'The observation this action is based on, e.g. "obs-3" (from the [gateway] line after a '
    "Snapshot). Omitted: this session's latest observation. Removed before the call reaches Windows-MCP.",
}
APPROVAL_ID_SCHEMA = {
    "anyOf": [{"type": "string"}, {"type": "null"}],
    "default": None,
    "description": "Only when a refusal said APPROVAL_REQUIRED: the approval id a person granted with "
    "`winmcp-gateway approve ID`; repeat the identical call with it. Removed before forwarding.",
}
GATEWAY_ARGS = ("based_on", "approval_id")


def with_gateway_args(tool: dict[str, Any]) -> dict[str, Any]:
    """A copy of an upstream tool whose schema also accepts the gateway's own arguments."""
    name = tool.get("name", "")
    klass = catalog.classify(name)
    if klass not in (catalog.ToolClass.INPUT, catalog.ToolClass.SYSTEM):
        return tool
    shown = copy.deepcopy(tool)
    props = shown.setdefault("inputSchema", {}).setdefault("properties", {})
    if name in catalog.INPUT_TOOLS_WITH_BASED_ON:
        props["based_on"] = copy.deepcopy(BASED_ON_SCHEMA)
    props["approval_id"] = copy.deepcopy(APPROVAL_ID_SCHEMA)
    return shown
