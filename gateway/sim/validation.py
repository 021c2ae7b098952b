"""Argument validation exactly as upstream's FastMCP does it: pydantic over the tool function.

FastMCP validates ``tools/call`` arguments with ``TypeAdapter(fn).validate_python(arguments)``;
the error text is pydantic's, e.g. ``1 validation error for call[click_tool]\\nbogus\\n
Unexpected keyword argument [type=unexpected_keyword_argument, …`` (FORMATS §6, S-SIM-02).
The simulator rebuilds each tool function's signature from the served ``inputSchema`` and lets
pydantic produce the same messages, with the same lax coercions (``"3"`` → ``3``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, Literal, Union

from pydantic import TypeAdapter

# Upstream's Python function names; pydantic prints them in ``call[...]``. Best knowledge of
# 0.8.8 (the names of the input tools are confirmed by upstream's source; the rest are likely).
FUNCTION_NAMES = {
    "Click": "click_tool",
    "Type": "type_tool",
    "Scroll": "scroll_tool",
    "Move": "move_tool",
    "Shortcut": "shortcut_tool",
    "Wait": "wait_tool",
    "WaitFor": "wait_for_tool",
    "Snapshot": "state_tool",
    "Screenshot": "screenshot_tool",
    "App": "app_tool",
    "PowerShell": "powershell_tool",
    "FileSystem": "filesystem_tool",
    "MultiSelect": "multi_select_tool",
    "MultiEdit": "multi_edit_tool",
    "Clipboard": "clipboard_tool",
    "Process": "process_tool",
    "Notification": "notification_tool",
    "Registry": "registry_tool",
    "Scrape": "scrape_tool",
    "DisplayInventory": "display_inventory_tool",
    "ControlStatus": "control_status_tool",
}
_SCALARS: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "null": type(None),
}


def annotation(schema: Mapping[str, Any]) -> Any:
    """The Python type a JSON-schema fragment of upstream's inputSchemas stands for."""
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    if "anyOf" in schema:
        members = tuple(annotation(s) for s in schema["anyOf"])
        return Union[members]  # noqa: UP007 - a runtime-built union needs the subscript form
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return list[annotation(items)] if items else list[Any]  # type: ignore[misc]
    if kind == "object":
        return dict[str, Any]
    if kind in _SCALARS:
        return _SCALARS[kind]
    return Any


def make_validator(tool: str, input_schema: Mapping[str, Any]) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    """A function validating one call's arguments against ``input_schema``.

    Args:
        tool: the tool name (selects the function name pydantic prints).
        input_schema: the served ``inputSchema``.

    Returns:
        ``validate(arguments) -> arguments with defaults filled``; raises ``ValidationError``.
    """
    required = set(input_schema.get("required", ()))
    params = []
    for name, prop in input_schema.get("properties", {}).items():
        default = inspect.Parameter.empty if name in required else prop.get("default")
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        params.append(inspect.Parameter(name, kind, default=default, annotation=annotation(prop)))
    # Python puts required parameters first; pydantic then says "Missing required argument".
    params.sort(key=lambda p: p.default is not inspect.Parameter.empty)

    def fn(**kwargs: Any) -> dict[str, Any]:
        return kwargs

    fn.__name__ = fn.__qualname__ = FUNCTION_NAMES.get(tool, tool.lower() + "_tool")
    fn.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    fn.__annotations__ = {p.name: p.annotation for p in params}
    adapter: TypeAdapter[dict[str, Any]] = TypeAdapter(fn)  # type: ignore[arg-type]  # a function: call schema

    def validate(arguments: Mapping[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = adapter.validate_python(dict(arguments))
        return result

    return validate
