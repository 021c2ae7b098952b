"""tools/list fidelity and schema mutation (S-SIM-01, S-SIM-10)."""

from __future__ import annotations

from typing import Any

import pytest

from gateway.sim import build_server
from tests._requirements import requirement
from tests.sim._sim import call, connect, upstream_json

pytestmark = pytest.mark.anyio

FIELDS = ("name", "title", "description", "inputSchema", "annotations", "outputSchema", "_meta")


async def _served(mode: str = "legacy", mutations: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    async with connect(build_server("default", mutations=mutations), mode) as client:
        listed = await client.list_tools()
    tools: list[dict[str, Any]] = listed.model_dump(by_alias=True, exclude_none=True)["tools"]
    return tools


@requirement("S-SIM-01")
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_tools_list_equals_upstream_field_by_field(mode: str) -> None:
    """S-SIM-01: every tool and field of upstream's tools_list.json is served unchanged, in both eras."""
    expected = upstream_json("tools_list.json")["tools"]
    served = await _served(mode)
    assert [t["name"] for t in served] == [t["name"] for t in expected]
    for got, want in zip(served, expected, strict=True):
        for field in FIELDS:
            assert got.get(field) == want.get(field), f"{want['name']}.{field}"
        assert set(got) <= set(FIELDS) | {"execution", "icons"}
        assert got["inputSchema"]["additionalProperties"] is False


@requirement("S-SIM-01")
async def test_server_names_itself_like_upstream() -> None:
    """S-SIM-01: the 2026-era result _meta carries upstream's serverInfo windows-mcp / 4.0.10."""
    expected = upstream_json("samples/07_snapshot_empty_ui_tree.result.json")["result"]["_meta"]
    async with connect(build_server("empty"), "auto") as client:
        result = await call(client, "Snapshot")
    assert result["_meta"] == expected


@requirement("S-SIM-10")
async def test_mutations_change_the_served_schema() -> None:
    """S-SIM-10: rename, drop, add, add-tool and drop-tool each show in tools/list."""
    served = await _served(
        mutations=(
            "rename:PowerShell.command=cmd",
            "drop:Registry.mode",
            "add:App.extra",
            "add:Click.speed=integer",
            "add-tool:Foo",
            "drop-tool:Notification",
        )
    )
    by_name = {t["name"]: t for t in served}
    ps = by_name["PowerShell"]["inputSchema"]
    assert "cmd" in ps["properties"] and "command" not in ps["properties"]
    assert ps["required"] == ["cmd"]
    assert "mode" not in by_name["Registry"]["inputSchema"]["properties"]
    assert "mode" not in by_name["Registry"]["inputSchema"]["required"]
    assert "extra" in by_name["App"]["inputSchema"]["properties"]
    assert by_name["Click"]["inputSchema"]["properties"]["speed"]["anyOf"][0] == {"type": "integer"}
    assert "Foo" in by_name and "Notification" not in by_name


@requirement("S-SIM-10")
async def test_calls_follow_the_mutated_schema() -> None:
    """S-SIM-10: a renamed argument is accepted under its new name only; an added one is ignored."""
    server = build_server("default", mutations=("rename:PowerShell.command=cmd", "add:App.extra", "add-tool:Foo"))
    async with connect(server) as client:
        renamed = await call(client, "PowerShell", {"cmd": "Get-Date"})
        old_name = await call(client, "PowerShell", {"command": "Get-Date"})
        extra = await call(client, "App", {"mode": "launch", "name": "notepad", "extra": "x"})
        foo = await call(client, "Foo")
    assert renamed["content"][0]["text"].startswith("Response: ") and not renamed["isError"]
    assert old_name["isError"] and "Unexpected keyword argument" in old_name["content"][0]["text"]
    assert extra["content"][0]["text"] == "Notepad launched."
    assert foo["isError"] is False


@requirement("S-SIM-10")
@pytest.mark.parametrize(
    "spec", ["rename:Nope.x=y", "drop:Click.nope", "frobnicate:Click.loc", "add:Click", "add:App.x=list"]
)
def test_malformed_mutation_is_an_error(spec: str) -> None:
    """S-SIM-10: a spec naming an unknown tool/argument or verb is refused with ValueError."""
    with pytest.raises(ValueError):
        build_server("default", mutations=(spec,))
