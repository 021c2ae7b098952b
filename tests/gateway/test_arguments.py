"""Argument validation, the pure part: bounds, upstream's schema, the gateway's shapes (S-ARG-01 … S-ARG-05, S-ARG-07).

Table-driven over the real upstream tool list (tests/upstream_data/tools_list.json): each row is
a call and the field its refusal must name, or None when it must pass.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.pipeline.argument_checks import (
    COORD_MAX,
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_STRING_BYTES,
    MAX_TARGETS,
    aimed_point,
    bounds_problem,
    point_problem,
    shape_problem,
)
from gateway.pipeline.arguments import (
    AUDIT_CHARS,
    AUDIT_ITEMS,
    argument_problem,
    audit_copy,
    compile_schemas,
    observed_desktop,
    schemas_of,
)
from gateway.pipeline.policy_world import target_point
from policy.observation import Capture, Display, Observation
from tests._requirements import UPSTREAM_DATA, requirement

TOOLS: list[dict[str, Any]] = json.loads((UPSTREAM_DATA / "tools_list.json").read_text(encoding="utf-8"))["tools"]
SCHEMAS = compile_schemas(TOOLS)
DESKTOP = (0, 0, 1920, 1080)


def problem_field(tool: str, args: dict[str, Any], desktop: tuple[int, int, int, int] | None = DESKTOP) -> str | None:
    problem = argument_problem(SCHEMAS, tool, args, desktop)
    return None if problem is None else problem.field


# The shapes of issue 12 item 4, and their neighbours.
ROWS: list[tuple[str, dict[str, Any], str | None]] = [
    ("Click", {"loc": "not-a-point"}, "loc"),
    ("Click", {"loc": [1e308, math.nan]}, "loc[0]"),
    ("Click", {"loc": [1e308, None]}, "loc[0]"),
    ("Click", {"loc": [640, math.nan]}, "loc[1]"),
    ("Click", {"loc": [640, None]}, "loc[1]"),
    ("Click", {"loc": [1e308, -1e308]}, "loc[0]"),
    ("Click", {"loc": list(range(10_000))}, "loc"),
    ("Click", {"loc": [1, 2, 3]}, "loc"),
    ("Click", {"loc": [True, 2]}, "loc[0]"),
    ("Click", {"loc": [640.5, 480]}, "loc[0]"),
    ("Click", {"loc": "[640, NaN]"}, "loc"),
    ("Click", {"loc": "[1e999, 0]"}, "loc"),
    ("Click", {"loc": {"x": 1, "y": 2}}, "loc"),
    ("Click", {"label": {"a": 1}}, "label"),
    ("Click", {"label": -1}, "label"),
    ("Click", {"label": 3, "loc": [640, 480]}, "label"),
    ("Click", {"loc": [640, 480], "clicks": 10**6}, "clicks"),
    ("Click", {"loc": [640, 480], "bogus": 1}, "bogus"),
    ("Click", {"loc": [5000, 20]}, "loc"),
    ("Click", {"loc": [-1, 20]}, "loc"),
    ("Click", {"loc": [1920, 0]}, "loc"),
    ("Type", {"loc": [640, 480]}, "text"),
    ("Type", {"text": "x" * (MAX_STRING_BYTES + 1)}, "text"),
    ("Move", {"loc": [640, 480], "from_loc": [0, 99_999], "drag": True}, "from_loc"),
    ("Scroll", {"loc": [640, 480], "wheel_times": 10**6}, "wheel_times"),
    ("MultiSelect", {"labels": [{"a": 1}]}, "labels[0]"),
    ("MultiSelect", {"labels": [0, -2]}, "labels[1]"),
    ("MultiSelect", {"labels": "[0, {}]"}, "labels[1]"),
    ("MultiSelect", {"locs": [[10, 10]] * (MAX_TARGETS + 1)}, "locs"),
    ("MultiSelect", {"locs": "[[10, 10], [10, 1e999]]"}, "locs[1]"),
    ("MultiSelect", {"locs": "[[10, 10]"}, "locs"),
    ("MultiEdit", {"locs": [[10, 10]]}, "locs[0]"),
    ("MultiEdit", {"labels": [[-1, "x"]]}, "labels[0][0]"),
    ("MultiEdit", {"labels": [["0", "x"]]}, "labels[0][0]"),
    ("App", {"mode": "resize", "window_loc": [10, 10], "window_size": [0, 600]}, "window_size"),
    ("App", {"mode": "resize", "window_loc": [-5000, 10]}, "window_loc"),
    ("Snapshot", {"region": [10, 10, 5, 20]}, "region"),
    ("Snapshot", {"region": "[5000, 5000, 5100, 5100]"}, "region"),
    ("Snapshot", {"display": [0, 99]}, "display[1]"),
    ("Snapshot", {"width_reference_line": 10**9}, "width_reference_line"),
    ("WaitFor", {"condition": "text", "timeout": math.inf}, "timeout"),
    ("PowerShell", {"command": "Get-Date", "based_on": "x" * (MAX_STRING_BYTES + 1)}, "based_on"),
    ("PowerShell", {}, "command"),
    ("Click", {"loc": [640, 480], "x\ny": 1}, "['x\\ny']"),  # a made-up key is quoted, never raw
    # --- valid: nothing to say
    ("Click", {"loc": [640, 480]}, None),
    ("Click", {"loc": [640.0, 480]}, None),
    ("Click", {"loc": "[640, 480]"}, None),
    ("Click", {"loc": [0, 0], "label": None}, None),
    ("Click", {"loc": [1919, 1079], "clicks": 2}, None),
    ("Click", {"label": 0}, None),
    ("Click", {"loc": [640, 480], "based_on": 7}, None),  # policy's to judge (S-FLOW-01)
    ("Scroll", {}, None),
    ("Move", {"loc": "[100, 200]", "from_loc": [1, 1], "drag": True}, None),
    ("MultiSelect", {"locs": [[228, 152], [268, 152]], "labels": [0, 1]}, None),
    ("MultiSelect", {"locs": "[[228, 152]]"}, None),
    ("MultiEdit", {"locs": [[800, 520, "abc"]], "labels": [[0, "x"]]}, None),
    ("App", {"mode": "resize", "window_loc": [0, 0], "window_size": [800, 600]}, None),
    ("Snapshot", {"region": "[0, 0, 100, 100]", "display": [0]}, None),
    ("Type", {"text": "hello\nworld", "loc": [800, 520], "clear": "true"}, None),
]


@requirement("S-ARG-01", "S-ARG-02", "S-ARG-03", "S-ARG-04", "S-ARG-05")
@pytest.mark.parametrize(("tool", "args", "field"), ROWS)
def test_each_bad_shape_is_named_by_its_field(tool: str, args: dict[str, Any], field: str | None) -> None:
    """S-ARG-01..05: the first problem names the field the model must fix; valid calls pass."""
    assert problem_field(tool, args) == field


@requirement("S-ARG-03")
def test_the_desktop_check_alone_is_skipped_when_no_desktop_was_observed() -> None:
    """S-ARG-03: unknown desktop → an off-screen point passes, a malformed one still does not."""
    assert problem_field("Click", {"loc": [5000, 20]}, desktop=None) is None
    assert problem_field("Click", {"loc": [COORD_MAX + 1, 20]}, desktop=None) == "loc"
    assert problem_field("Snapshot", {"region": [5000, 5000, 5100, 5100]}, desktop=None) is None


@requirement("S-ARG-03")
def test_the_observed_desktop_is_the_box_around_every_display() -> None:
    """S-ARG-03: a display left of the primary extends the desktop to negative x."""
    capture = Capture(
        tool="Snapshot",
        displays=(
            Display(index=0, device="D1", rect=(0, 0, 2560, 1440), primary=True),
            Display(index=1, device="D2", rect=(-1920, 0, 0, 1080)),
        ),
    )
    obs = Observation(id="obs-1", session="s", generation=1, taken_at_ms=0.0, capture=capture)
    assert observed_desktop(obs) == (-1920, 0, 2560, 1440)
    assert observed_desktop(None) is None
    assert (
        observed_desktop(Observation(id="obs-2", session="s", generation=1, taken_at_ms=0.0, capture=Capture(tool="x")))
        is None
    )
    assert problem_field("Click", {"loc": [-1000, 400]}, desktop=observed_desktop(obs)) is None


@requirement("S-ARG-01")
def test_a_refusal_names_what_is_wrong_without_echoing_a_huge_value() -> None:
    """S-ARG-01: the reason is short and says what a good value looks like."""
    problem = argument_problem(SCHEMAS, "Click", {"loc": list(range(10_000))}, DESKTOP)
    assert problem is not None and "10000 items" in problem.what and len(problem.what) < 200
    problem = argument_problem(SCHEMAS, "Click", {"label": {"a": 1}}, DESKTOP)
    assert problem is not None and problem.what == "must be a whole number or null; got an object"
    problem = argument_problem(SCHEMAS, "Click", {"loc": [5000, 20]}, DESKTOP)
    assert problem is not None and "x=0..1919, y=0..1079" in problem.what


@requirement("S-ARG-04")
def test_deep_nesting_and_long_lists_are_bounded_before_the_schema() -> None:
    """S-ARG-04: a tree deeper than MAX_DEPTH or a list longer than MAX_ITEMS is named, iteratively."""
    deep: Any = 0
    for _ in range(5000):  # deeper than Python's recursion limit: the walk must not recurse
        deep = [deep]
    problem = bounds_problem({"loc": deep})
    assert problem is not None and problem.field.startswith("loc[0]") and str(MAX_DEPTH) in problem.what
    problem = bounds_problem({"args": ["a"] * (MAX_ITEMS + 1)})
    assert problem is not None and problem.field == "args"
    assert bounds_problem({"x": object()}) is not None
    assert bounds_problem({"n": 2**53, "s": "é" * 1000, "f": 1.5, "b": True, "z": None}) is None


@requirement("S-ARG-07")
def test_validators_are_compiled_once_per_tool_list() -> None:
    """S-ARG-07: the same list object reuses its validators; a new list compiles anew."""

    class App:
        argument_schemas: object | None = None

    app: Any = App()
    first = schemas_of(app, TOOLS)
    assert schemas_of(app, TOOLS) is first
    again = schemas_of(app, [dict(t) for t in TOOLS])
    assert again is not first and set(again.validators) == set(first.validators)


@requirement("S-ARG-07")
def test_a_tool_whose_schema_is_not_a_json_schema_is_refused() -> None:
    """S-ARG-07: a broken inputSchema cannot vouch for anything: its calls are refused."""
    broken = compile_schemas([{"name": "Click", "inputSchema": {"type": "object", "properties": {"loc": {"type": 5}}}}])
    assert "Click" in broken.broken
    problem = argument_problem(broken, "Click", {"loc": [1, 2]}, DESKTOP)
    assert problem is not None and "not a valid JSON Schema" in problem.what
    # A tool the list does not name has no schema step (policy refuses unknown tools), the shapes still apply.
    assert argument_problem(broken, "Move", {"loc": [1, 2]}, DESKTOP) is None
    assert argument_problem(broken, "Move", {"loc": "nope"}, DESKTOP) is not None


@requirement("S-ARG-01")
def test_every_upstream_tool_has_a_compiled_validator() -> None:
    """S-ARG-01: all 21 upstream schemas compile; none is broken."""
    assert set(SCHEMAS.validators) == {t["name"] for t in TOOLS} and not SCHEMAS.broken


coordinate = st.integers(min_value=0, max_value=1919)


@requirement("S-ARG-08")
@given(x=coordinate, y=st.integers(min_value=0, max_value=1079), spelling=st.sampled_from(["list", "floats", "string"]))
def test_the_validated_point_is_the_point_policy_and_the_audit_see(x: int, y: int, spelling: str) -> None:
    """S-ARG-08: for every accepted spelling of a point, the gateway's own parse (audit `point`) agrees."""
    loc: object = {"list": [x, y], "floats": [float(x), float(y)], "string": f"[{x}, {y}]"}[spelling]
    point, problem = point_problem("loc", loc, DESKTOP)
    assert problem is None and point == (x, y)
    for tool in ("Click", "Type", "Scroll", "Move"):
        assert target_point(tool, {"loc": loc}) == (x, y)
        assert aimed_point(tool, {"loc": loc}) == (x, y)
    assert target_point("MultiSelect", {"locs": [loc, [0, 0]]}) == (x, y)
    assert aimed_point("MultiSelect", {"locs": json.dumps([[x, y], [0, 0]])}) == (x, y)
    assert aimed_point("MultiEdit", {"locs": [[x, y, "text"]]}) == (x, y)
    assert shape_problem("MultiSelect", {"locs": [loc]}, DESKTOP) is None


@requirement("S-ARG-08")
@pytest.mark.parametrize(
    ("tool", "args"),
    [("Click", {"label": 3}), ("Type", {"text": "x"}), ("Scroll", {}), ("Snapshot", {"region": [0, 0, 9, 9]})],
)
def test_a_call_that_names_no_point_has_none(tool: str, args: dict[str, Any]) -> None:
    """S-ARG-08: a label, the caret or a capture names no screen point; the gateway never invents one."""
    assert aimed_point(tool, args) is None


@requirement("S-ARG-01")
def test_a_refused_calls_arguments_are_audited_in_short() -> None:
    """S-ARG-01: long lists, objects and strings are cut with a marker; small values are kept as sent."""
    short = audit_copy({"loc": list(range(10_000)), "text": "x" * 5000, "o": {str(i): i for i in range(40)}})
    assert short["loc"][:AUDIT_ITEMS] == list(range(AUDIT_ITEMS)) and short["loc"][-1] == "…(9984 more items)"
    assert len(short["text"]) < AUDIT_CHARS + 40 and short["text"].endswith("…(4000 more characters)")
    assert len(short["o"]) == AUDIT_ITEMS + 1 and short["o"]["…"] == "24 more keys"
    assert audit_copy({"loc": [640, 480], "label": None}) == {"loc": [640, 480], "label": None}
    deep: object = 1
    for _ in range(50):
        deep = [deep]
    assert "nested deeper" in json.dumps(audit_copy({"x": deep}), ensure_ascii=False)
