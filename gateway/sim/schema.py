"""The served ``tools/list``: upstream's verbatim, optionally mutated for doctor tests (S-SIM-01, S-SIM-10).

``--mutate-schema`` specs (repeatable):

====================================  =====================================================
``rename:PowerShell.command=cmd``     the argument is served (and accepted) as ``cmd``
``drop:Registry.mode``                the argument disappears (and is then rejected)
``add:App.extra`` / ``add:App.n=integer``  an extra optional argument (ignored when sent)
``add-tool:Foo``                      an extra tool with no arguments that does nothing
``drop-tool:Notification``            the tool disappears
====================================  =====================================================
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

_TYPES = ("string", "integer", "number", "boolean")


@dataclass(slots=True)
class ServedTools:
    """The tools to serve plus what the mutations changed."""

    tools: list[dict[str, Any]]
    renames: dict[str, dict[str, str]] = field(default_factory=dict)  # tool -> {served: original}
    added_args: dict[str, set[str]] = field(default_factory=dict)
    added_tools: set[str] = field(default_factory=set)

    def get(self, name: str) -> dict[str, Any] | None:
        return next((t for t in self.tools if t["name"] == name), None)


def upstream_tools() -> list[dict[str, Any]]:
    """Upstream 0.8.8's ``tools/list`` (a verbatim copy shipped in ``gateway/sim/data``)."""
    text = resources.files("gateway.sim").joinpath("data").joinpath("tools_list.json").read_text(encoding="utf-8")
    tools: list[dict[str, Any]] = json.loads(text)["tools"]
    return tools


def _split(target: str) -> tuple[str, str]:
    tool, _, arg = target.partition(".")
    if not tool or not arg:
        raise ValueError(f"expected Tool.argument, got {target!r}")
    return tool, arg


def _props(tools: list[dict[str, Any]], tool: str) -> dict[str, Any]:
    for t in tools:
        if t["name"] == tool:
            props: dict[str, Any] = t["inputSchema"].setdefault("properties", {})
            return props
    raise ValueError(f"no tool named {tool!r}")


def served_tools(mutations: list[str] | tuple[str, ...] = ()) -> ServedTools:
    """Upstream's tool list with ``mutations`` applied in order.

    Args:
        mutations: specs as in the module docstring.

    Returns:
        The served tools and the bookkeeping the call path needs.

    Raises:
        ValueError: a malformed spec or one naming an unknown tool/argument.
    """
    served = ServedTools(tools=copy.deepcopy(upstream_tools()))
    for spec in mutations:
        verb, _, target = spec.partition(":")
        if verb == "rename":
            path, _, new = target.partition("=")
            tool, arg = _split(path)
            props = _props(served.tools, tool)
            if arg not in props or not new:
                raise ValueError(f"rename: {tool} has no argument {arg!r} (or no new name given)")
            props[new] = props.pop(arg)
            schema = served.get(tool)
            assert schema is not None
            req = schema["inputSchema"].get("required")
            if req and arg in req:
                req[req.index(arg)] = new
            original = served.renames.setdefault(tool, {}).pop(arg, arg)
            served.renames[tool][new] = original
        elif verb == "drop":
            tool, arg = _split(target)
            props = _props(served.tools, tool)
            if arg not in props:
                raise ValueError(f"drop: {tool} has no argument {arg!r}")
            del props[arg]
            schema = served.get(tool)
            assert schema is not None
            req = schema["inputSchema"].get("required")
            if req and arg in req:
                req.remove(arg)
        elif verb == "add":
            path, _, kind = target.partition("=")
            tool, arg = _split(path)
            kind = kind or "string"
            if kind not in _TYPES:
                raise ValueError(f"add: type must be one of {_TYPES}, got {kind!r}")
            _props(served.tools, tool)[arg] = {"anyOf": [{"type": kind}, {"type": "null"}], "default": None}
            served.added_args.setdefault(tool, set()).add(arg)
        elif verb == "add-tool":
            if not target or served.get(target) is not None:
                raise ValueError(f"add-tool: bad or existing tool name {target!r}")
            served.tools.append(
                {
                    "name": target,
                    "title": target,
                    "description": f"{target} (added by --mutate-schema; does nothing).",
                    "inputSchema": {"properties": {}, "type": "object", "additionalProperties": False},
                    "annotations": {"title": target, "readOnlyHint": False, "destructiveHint": True,
                                    "idempotentHint": False, "openWorldHint": False},
                    "_meta": {"fastmcp": {"tags": []}},
                }
            )  # fmt: skip
            served.added_tools.add(target)
        elif verb == "drop-tool":
            if served.get(target) is None:
                raise ValueError(f"drop-tool: no tool named {target!r}")
            served.tools = [t for t in served.tools if t["name"] != target]
        else:
            raise ValueError(f"unknown --mutate-schema verb {verb!r} in {spec!r}")
    return served
