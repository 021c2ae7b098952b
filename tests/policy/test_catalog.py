"""The catalog: the gateway's own classes and the real upstream argument names (S-CAT-01..04).

Expected classes are written from DESIGN.md §4-§5 and the brief, not read back from the code;
argument names are checked against the vendored upstream `tools_list.json`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from policy import (
    INPUT_TOOLS_WITH_BASED_ON,
    OBSERVATION_TOOLS,
    OWN_READ_ONLY_TOOLS,
    ToolClass,
    catalog_reads,
    classify,
    replaces_labels,
    uses_coords,
    uses_labels,
)
from tests._requirements import UPSTREAM_DATA, requirement


def upstream_tools() -> dict[str, dict[str, Any]]:
    doc = json.loads((UPSTREAM_DATA / "tools_list.json").read_text(encoding="utf-8"))
    tools = doc["tools"] if isinstance(doc, dict) else doc
    return {t["name"]: t for t in tools}


R, IN, S = ToolClass.READ_ONLY, ToolClass.INPUT, ToolClass.SYSTEM
EXPECTED_CLASS = {
    "Snapshot": R, "Screenshot": R, "DisplayInventory": R, "Wait": R, "WaitFor": R, "ControlStatus": R,
    "Scrape": R,
    "Click": IN, "Type": IN, "Scroll": IN, "Move": IN, "Shortcut": IN, "MultiSelect": IN, "MultiEdit": IN,
    "PowerShell": S, "Registry": S, "FileSystem": S, "Process": S, "App": S, "Clipboard": S,
    "Notification": S,
}  # fmt: skip


@requirement("S-CAT-01")
def test_the_catalog_covers_exactly_the_21_upstream_tools() -> None:
    """S-CAT-01: the classified upstream names are exactly upstream's tools/list names."""
    assert set(upstream_tools()) == set(EXPECTED_CLASS)
    assert len(EXPECTED_CLASS) == 21
    assert set(catalog_reads()) == set(EXPECTED_CLASS)


@requirement("S-CAT-01")
@pytest.mark.parametrize(("tool", "expected"), sorted(EXPECTED_CLASS.items()))
def test_each_upstream_tool_has_the_gateways_class(tool: str, expected: ToolClass) -> None:
    """S-CAT-01: every upstream tool is classified by the gateway's own table."""
    assert classify(tool) is expected


@requirement("S-CAT-01")
@pytest.mark.parametrize(
    ("tool", "hint", "hint_value", "expected"),
    [
        ("Scroll", "destructiveHint", False, IN),  # "not destructive" upstream, still moves the view
        ("Clipboard", "destructiveHint", False, S),  # "not destructive", yet it overwrites the clipboard
        ("Scrape", "openWorldHint", True, R),  # open-world fetch, but does not touch the desktop
        ("WaitFor", "readOnlyHint", True, R),
    ],
)
def test_classification_does_not_follow_upstream_annotations(
    tool: str, hint: str, hint_value: bool, expected: ToolClass
) -> None:
    """S-CAT-01: where upstream's hints would suggest otherwise, the gateway's table decides."""
    assert upstream_tools()[tool]["annotations"][hint] is hint_value  # the upstream fact this row is about
    assert classify(tool) is expected


@requirement("S-CAT-01")
@pytest.mark.parametrize("name", ["click", "CLICK", "Snapshot ", "", "Bash", "winmcp_unknown", "mcp__winmcp__Click"])
def test_names_not_in_the_catalog_are_unknown(name: str) -> None:
    """S-CAT-01: tool names are exact; anything else is UNKNOWN."""
    assert classify(name) is ToolClass.UNKNOWN


@requirement("S-CAT-01")
def test_a_non_string_tool_name_is_unknown() -> None:
    """S-CAT-01: classify() never raises on an odd name, it says UNKNOWN."""
    assert classify(None) is ToolClass.UNKNOWN  # type: ignore[arg-type]
    assert classify(["Click"]) is ToolClass.UNKNOWN  # type: ignore[arg-type]


@requirement("S-CAT-01")
@pytest.mark.parametrize(
    ("tool", "expected"),
    [
        ("winmcp_state", R),
        ("winmcp_to_screen", R),
        ("winmcp_screen_to_image", R),
        ("winmcp_audit", R),
        ("winmcp_doctor", R),
        ("winmcp_kill", ToolClass.CONTROL),
    ],
)
def test_the_gateways_own_tools_are_classified(tool: str, expected: ToolClass) -> None:
    """S-CAT-01: the read-only winmcp_* tools are READ_ONLY; winmcp_kill is CONTROL."""
    assert classify(tool) is expected
    assert (tool in OWN_READ_ONLY_TOOLS) is (expected is R)


@requirement("S-CAT-02")
@pytest.mark.parametrize("tool", sorted(EXPECTED_CLASS))
def test_every_argument_the_catalog_reads_exists_upstream(tool: str) -> None:
    """S-CAT-02: no name read by the catalog is missing from upstream's inputSchema (a dead rule)."""
    props = set(upstream_tools()[tool]["inputSchema"].get("properties", {}))
    missing = catalog_reads()[tool] - props
    assert not missing, f"{tool}: the catalog reads {sorted(missing)}, upstream has {sorted(props)}"
    assert "action" not in catalog_reads()[tool]


@requirement("S-CAT-02")
@pytest.mark.parametrize(
    ("tool", "names"),
    [
        ("PowerShell", {"command"}),
        ("Registry", {"mode", "path", "name", "value"}),
        ("FileSystem", {"mode", "path", "destination"}),
        ("Process", {"mode", "name", "pid", "force"}),
        ("App", {"mode", "name", "executable", "args"}),
        ("Click", {"loc", "label"}),
        ("Move", {"loc", "from_loc", "label"}),
        ("MultiSelect", {"locs", "labels"}),
        ("MultiEdit", {"locs", "labels"}),
        ("Scrape", {"use_dom"}),
    ],
)
def test_the_catalog_reads_the_arguments_that_carry_commands_and_coordinates(tool: str, names: set[str]) -> None:
    """S-CAT-02: the content, coordinate and label arguments of FORMATS.md §8 are all read."""
    assert names <= catalog_reads()[tool]


@requirement("S-CAT-03")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("Snapshot", {}, True),
        ("Snapshot", {"use_vision": False, "use_ui_tree": False}, True),
        ("Screenshot", {}, True),
        ("WaitFor", {"condition": "text", "text": "x"}, True),
        ("Scrape", {"url": "https://example.com"}, False),
        ("Scrape", {"url": "u", "use_dom": False}, False),
        ("Scrape", {"url": "u", "use_dom": "false"}, False),
        ("Scrape", {"url": "u", "use_dom": " FALSE "}, False),
        ("Scrape", {"url": "u", "use_dom": True}, True),
        ("Scrape", {"url": "u", "use_dom": "true"}, True),
        ("Scrape", {"url": "u", "use_dom": "yes"}, True),  # unclear → counted (the safe direction)
        ("App", {"mode": "resize", "window_size": [800, 600]}, True),
        ("App", {"mode": "switch", "name": "Notepad"}, True),
        ("App", {"mode": "launch", "name": "Notepad"}, False),
        ("App", {"name": "Notepad"}, False),  # default mode is launch
        ("App", {"mode": "launch_executable", "executable": "x.exe"}, False),
        ("Click", {"loc": [1, 2]}, False),
        ("DisplayInventory", {}, False),
        ("ControlStatus", {}, False),
        ("PowerShell", {"command": "Get-Date"}, False),
        ("Nonexistent", {}, False),
    ],
)
def test_replaces_labels_names_every_call_that_replaces_the_label_table(
    tool: str, args: dict[str, object], expected: bool
) -> None:
    """S-CAT-03: Snapshot, Screenshot, WaitFor, DOM Scrape and App resize/switch replace the table."""
    assert replaces_labels(tool, args) is expected


@requirement("S-CAT-04")
def test_observation_tools_and_based_on_tools_are_exactly_the_listed_ones() -> None:
    """S-CAT-04: the kill-exempt observation set and the based_on input set are as designed."""
    assert frozenset({"Snapshot", "Screenshot", "DisplayInventory", "Wait", "WaitFor", "ControlStatus"}) == (
        OBSERVATION_TOOLS
    )
    assert frozenset({"Click", "Type", "Scroll", "Move", "Shortcut", "MultiSelect", "MultiEdit"}) == (
        INPUT_TOOLS_WITH_BASED_ON
    )
    assert "Scrape" not in OBSERVATION_TOOLS  # READ_ONLY, but it fetches URLs and asks the client to sample


@requirement("S-CAT-02")
@pytest.mark.parametrize(
    ("tool", "args", "labels", "coords"),
    [
        ("Click", {"loc": [1, 2]}, False, True),
        ("Click", {"label": 0}, True, False),
        ("Click", {"label": None, "loc": None}, False, False),
        ("Move", {"from_loc": [1, 2], "drag": True}, False, True),
        ("MultiSelect", {"labels": "[1, 2]"}, True, False),
        ("MultiEdit", {"locs": [[1, 2, "a"]], "labels": [[3, "b"]]}, True, True),
        ("Shortcut", {"shortcut": "ctrl+s"}, False, False),
        ("PowerShell", {"command": "x"}, False, False),
    ],
)
def test_label_and_coordinate_use_is_read_from_the_real_argument_names(
    tool: str, args: dict[str, object], labels: bool, coords: bool
) -> None:
    """S-CAT-02: `label`/`labels` and `loc`/`locs`/`from_loc` are what make a call label- or point-based."""
    assert uses_labels(tool, args) is labels
    assert uses_coords(tool, args) is coords
