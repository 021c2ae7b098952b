"""Argument validation end to end: a bad shape is refused by name and never reaches the desktop (S-ARG).

client (mcp SDK) ⇄ gateway ⇄ simulator, in process. Every refusal is proven three ways: the
result (`DENIED BAD_ARGUMENTS: … argument <field> …`), the simulator's event log (nothing
happened) and the audit line (a `deny` with the code and the field). Each input call is made
after a fresh Snapshot, so without the validation policy would have let it through.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import gateway.pipeline.arguments as arguments
import gateway.pipeline.journey as journey
from gateway.audit.report import audit_files, verify_chain
from gateway.errors import UpstreamError
from tests._requirements import requirement
from tests.e2e.harness import Rig, first_text, gateway_rig

pytestmark = pytest.mark.anyio

# The shapes of issue 12 item 4 (and two it implies), with the field each refusal must name.
BAD_SHAPES: list[tuple[str, dict[str, Any], str]] = [
    ("Click", {"loc": "not-a-point"}, "loc"),
    ("Click", {"loc": [1e308, math.nan]}, "loc[0]"),
    ("Click", {"loc": [1e308, -1e308]}, "loc[0]"),
    ("Click", {"loc": list(range(10_000))}, "loc"),
    ("Click", {"label": {"a": 1}}, "label"),
    ("MultiSelect", {"labels": [{"a": 1}, {"b": 2}]}, "labels[0]"),
    ("MultiSelect", {"labels": {"a": 1}}, "labels"),
    ("Click", {"label": -1}, "label"),
    ("Click", {"loc": [640, 480], "label": 0}, "label"),
    ("Move", {"loc": [5000, 20]}, "loc"),  # upstream does not check Move: SetCursorPos would clamp
    ("Scroll", {"loc": [640, 99_999]}, "loc"),  # nor Scroll
]


async def _observed(rig: Rig) -> None:
    result = await rig.call("Snapshot", {})
    assert result["isError"] is False


def _last(rig: Rig, event: str) -> dict[str, Any]:
    return [line for line in rig.audit_lines() if line["event"] == event][-1]


@requirement("S-ARG-01", "S-ARG-02", "S-ARG-03", "S-ARG-04", "S-ARG-05")
@pytest.mark.parametrize(("tool", "args", "field"), BAD_SHAPES)
async def test_each_bad_shape_is_refused_by_name_and_never_reaches_the_desktop(
    tmp_path: Path, tool: str, args: dict[str, Any], field: str
) -> None:
    """S-ARG-01..05: BAD_ARGUMENTS naming the field; no desktop event; a deny audit line with the field."""
    async with gateway_rig(tmp_path) as rig:
        await _observed(rig)
        result = await rig.call(tool, args)
        assert result["isError"] is True
        text = first_text(result)
        assert text.startswith(f"DENIED BAD_ARGUMENTS: {tool} argument {field} "), text
        assert " Remedy: " in text and "\n" not in text
        assert rig.side_effects() == []
        line = rig.audit_lines()[-1]
        assert (line["event"], line["code"], line["field"], line["tool"]) == ("deny", "BAD_ARGUMENTS", field, tool)
        assert "point" not in line
        assert rig.app.counters.by_code.get("BAD_ARGUMENTS") == 1
        # The hostile value did not break the record: the line is bounded and the chain verifies.
        assert len(json.dumps(line)) < 20_000
        assert verify_chain(audit_files(rig.app.config.state_dir)).ok


@requirement("S-ARG-03")
async def test_without_the_check_the_off_desktop_move_would_have_reached_the_desktop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-ARG-03: the negative above can fail — with the screen removed, the simulator moves the cursor."""

    async def no_screen(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(journey, "screen_arguments", no_screen)
    async with gateway_rig(tmp_path) as rig:
        await _observed(rig)
        result = await rig.call("Move", {"loc": [5000, 20]})
        assert result["isError"] is False, first_text(result)
        assert [e["kind"] for e in rig.side_effects()] == ["move"]


@requirement("S-ARG-08")
@pytest.mark.parametrize("loc", [[700, 500], "[700, 500]", [700.0, 500.0]])
async def test_an_allowed_click_is_audited_with_the_point_the_desktop_received(tmp_path: Path, loc: object) -> None:
    """S-ARG-08: the allow line carries `point`, and the simulator clicked exactly there."""
    async with gateway_rig(tmp_path) as rig:
        await _observed(rig)
        result = await rig.call("Click", {"loc": loc})
        assert result["isError"] is False, first_text(result)
        assert [e["screen_point"] for e in rig.side_effects()] == [[700, 500]]
        assert _last(rig, "allow")["point"] == [700, 500]


@requirement("S-ARG-08")
async def test_a_multiselect_is_audited_with_its_first_point(tmp_path: Path) -> None:
    """S-ARG-08: a list of points is audited with the first, the one acted on first."""
    async with gateway_rig(tmp_path) as rig:
        await _observed(rig)
        result = await rig.call("MultiSelect", {"locs": "[[228, 152], [268, 152]]"})
        assert result["isError"] is False, first_text(result)
        assert [e["screen_point"] for e in rig.side_effects()] == [[228, 152], [268, 152]]
        assert _last(rig, "allow")["point"] == [228, 152]


@requirement("S-ARG-06")
async def test_shadow_mode_does_not_lift_bad_arguments(tmp_path: Path) -> None:
    """S-ARG-06: enforce = false forwards a call policy refuses, never one that fails validation."""
    async with gateway_rig(tmp_path, config={"enforce": False}) as rig:
        shadowed = await rig.call("Click", {"loc": [640, 480]})  # no observation: NO_OBSERVATION, shadowed
        assert shadowed["isError"] is False and "SHADOW MODE" in str(shadowed["content"])
        assert len(rig.side_effects()) == 1
        refused = await rig.call("Click", {"loc": "not-a-point"})
        assert first_text(refused).startswith("DENIED BAD_ARGUMENTS: Click argument loc ")
        assert len(rig.side_effects()) == 1
        assert rig.audit_lines()[-1]["code"] == "BAD_ARGUMENTS"


@requirement("S-ARG-07")
async def test_validators_are_compiled_once_per_upstream_tool_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-ARG-07: many calls, one compile; a replaced tool list (list_changed, restart) compiles anew."""
    compiled: list[int] = []
    real = arguments.compile_schemas

    def counting(tools: list[dict[str, Any]]) -> arguments.CompiledSchemas:
        compiled.append(len(tools))
        return real(tools)

    monkeypatch.setattr(arguments, "compile_schemas", counting)
    async with gateway_rig(tmp_path) as rig:
        for _ in range(3):
            await rig.call("Snapshot", {})
        await rig.call("Click", {"loc": [640, 480]})
        assert compiled == [21]
        rig.app.forget_upstream_tools()
        await rig.call("Snapshot", {})
        assert compiled == [21, 21]


@requirement("S-ARG-07")
async def test_without_the_tool_list_a_call_fails_and_is_not_forwarded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-ARG-07: no schemas, no forwarding: FAILED <code>, audited as a failure, no desktop event."""
    async with gateway_rig(tmp_path) as rig:
        await _observed(rig)

        async def unavailable() -> list[dict[str, Any]]:
            raise UpstreamError("the upstream is gone", code="UPSTREAM_EXITED")

        monkeypatch.setattr(rig.app, "upstream_tools", unavailable)
        result = await rig.call("Click", {"loc": [640, 480]})
        assert result["isError"] is True
        assert first_text(result).startswith("FAILED UPSTREAM_EXITED: the upstream's tool list")
        assert rig.side_effects() == []
        line = rig.audit_lines()[-1]
        assert (line["event"], line["code"], line["tool"]) == ("failure", "UPSTREAM_EXITED", "Click")


@requirement("S-ARG-01")
async def test_a_gateway_argument_of_the_wrong_type_is_still_policys_to_judge(tmp_path: Path) -> None:
    """S-ARG-01: `based_on` is admitted by the schema step whatever its value; policy refuses it by its own code."""
    async with gateway_rig(tmp_path) as rig:
        await _observed(rig)
        result = await rig.call("Click", {"loc": [640, 480], "based_on": 7})
        assert first_text(result).startswith("DENIED UNKNOWN_OBSERVATION: ")
        assert rig.side_effects() == []
