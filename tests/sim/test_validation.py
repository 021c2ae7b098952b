"""Argument validation like upstream's FastMCP/pydantic (S-SIM-02).

The expected prefix is FORMATS §6's verbatim example: ``1 validation error for call[click_tool]
\\nbogus\\n  Unexpected keyword argument [type=unexpected_keyword_argument, …``.
"""

from __future__ import annotations

from typing import Any

import pytest

from gateway.sim import build_server
from tests._requirements import requirement
from tests.sim._sim import call, connect, text, upstream_json

pytestmark = pytest.mark.anyio

TOOLS = [t["name"] for t in upstream_json("tools_list.json")["tools"]]
# Minimal valid arguments for tools with required ones, so only the extra argument is wrong.
REQUIRED: dict[str, dict[str, Any]] = {
    "PowerShell": {"command": "x"},
    "FileSystem": {"mode": "read", "path": "a"},
    "Type": {"text": "x"},
    "Shortcut": {"shortcut": "a"},
    "Wait": {"duration": 1},
    "WaitFor": {"condition": "text", "text": "x"},
    "Scrape": {"url": "https://example.com/"},
    "Clipboard": {"mode": "get"},
    "Process": {"mode": "list"},
    "Notification": {"title": "t", "message": "m", "app_id": "a"},
    "Registry": {"mode": "list", "path": "HKCU:\\x"},
}


@requirement("S-SIM-02")
async def test_unknown_argument_is_rejected_verbatim() -> None:
    """S-SIM-02: Click with 'bogus' gives FORMATS §6's exact error text with isError."""
    async with connect(build_server("default")) as client:
        result = await call(client, "Click", {"loc": [1, 2], "bogus": 1})
    assert result["isError"] is True and "structuredContent" not in result
    assert text(result).startswith(
        "1 validation error for call[click_tool]\nbogus\n"
        "  Unexpected keyword argument [type=unexpected_keyword_argument, input_value=1, input_type=int]"
    )


@requirement("S-SIM-02")
@pytest.mark.parametrize("tool", TOOLS)
async def test_every_tool_rejects_an_unknown_argument(tool: str) -> None:
    """S-SIM-02: all 21 tools have additionalProperties false and enforce it."""
    async with connect(build_server("default")) as client:
        result = await call(client, tool, {**REQUIRED.get(tool, {}), "zz_unknown": True})
    assert result["isError"] is True
    assert text(result).startswith("1 validation error for call[")
    assert "\nzz_unknown\n  Unexpected keyword argument [type=unexpected_keyword_argument" in text(result)


@requirement("S-SIM-02")
@pytest.mark.parametrize(
    ("tool", "args", "fragment"),
    [
        ("Click", {"loc": [1, 2], "clicks": "many"}, "clicks\n  Input should be a valid integer"),
        ("Click", {"loc": [1, 2], "button": "side"}, "button\n  Input should be 'left', 'right' or 'middle'"),
        ("Type", {"loc": [1, 2]}, "text\n  Missing required argument [type=missing_argument"),
        ("Scroll", {"direction": "sideways"}, "direction\n  Input should be 'up', 'down', 'left' or 'right'"),
        ("Snapshot", {"display": "0"}, "display\n  Input should be a valid list [type=list_type"),
        (
            "Wait",
            {"duration": 1.5},
            "duration\n  Input should be a valid integer, got a number with a fractional part",
        ),
    ],
)
async def test_wrong_types_are_rejected_like_pydantic(tool: str, args: dict[str, Any], fragment: str) -> None:
    """S-SIM-02: wrong types, bad enum values and missing required arguments are pydantic errors."""
    async with connect(build_server("default")) as client:
        result = await call(client, tool, args)
    assert result["isError"] is True
    assert fragment in text(result)


@requirement("S-SIM-02")
async def test_lax_coercions_upstream_accepts_pass() -> None:
    """S-SIM-02: numeric strings for integers and JSON-string locations are accepted like upstream."""
    async with connect(build_server("default")) as client:
        double = await call(client, "Click", {"loc": "[10, 20]", "clicks": "2"})
        snap = await call(client, "Snapshot", {"use_vision": "yes"})
    assert text(double) == "Double left clicked at (10,20)."
    assert len(snap["content"]) == 1  # "yes" is not "true": no image (FORMATS §8)
