"""Binds features/catalog.feature (S-CAT-01..04, S-DEC-08) to the catalog and the policy package.

Steps call what the unit tests call: `classify`, `catalog_reads`, `replaces_labels`,
`OBSERVATION_TOOLS`, `INPUT_TOOLS_WITH_BASED_ON`, `decide`, and read the vendored upstream
`tools_list.json`. The purity step reads every file in policy/ with `ast`, on its own list
of banned modules taken from the scenario (the spec's list), not from tests/policy/test_purity.py.
"""

from __future__ import annotations

import ast
import inspect
import json
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then

import policy
from policy import (
    INPUT_TOOLS_WITH_BASED_ON,
    OBSERVATION_TOOLS,
    KillState,
    PolicyConfig,
    ToolClass,
    Verdict,
    catalog_reads,
    classify,
    decide,
    replaces_labels,
)
from tests._requirements import REPO, UPSTREAM_DATA
from tests.policy._world import T0, call, context, observation, view

scenarios("catalog.feature")


@pytest.fixture
def upstream() -> dict[str, dict[str, Any]]:
    """Upstream's tools by name (overridden by the Given step that reads them)."""
    return {}


@given("upstream's tools/list of Windows-MCP 0.8.8", target_fixture="upstream")
def _upstream() -> dict[str, dict[str, Any]]:
    doc = json.loads((UPSTREAM_DATA / "tools_list.json").read_text(encoding="utf-8"))
    return {t["name"]: t for t in doc["tools"]}


def _names(text: str) -> set[str]:
    return {n.strip() for n in text.replace(" and ", ", ").split(",") if n.strip()}


def _rows(datatable: list[list[str]]) -> list[list[str]]:
    return [[cell.strip() for cell in row] for row in datatable[1:]]


@then("the tools upstream lists are exactly the 21 tools classified below")
def _exactly_21(upstream: dict[str, dict[str, Any]]) -> None:
    # The table's upstream rows are the non-winmcp_ ones; the next step checks each class.
    assert len(upstream) == 21
    assert all(classify(name) is not ToolClass.UNKNOWN for name in upstream)


@then("the gateway classifies the tools as")
def _classifies_table(upstream: dict[str, dict[str, Any]], datatable: list[list[str]]) -> None:
    rows = _rows(datatable)
    assert {tool for tool, _ in rows if not tool.startswith("winmcp_")} == set(upstream)
    for tool, cls in rows:
        assert classify(tool) is ToolClass[cls], tool


@then(parsers.parse("upstream gives {tool:w} the hint {hint:w} = {value:w}"))
def _hint(upstream: dict[str, dict[str, Any]], tool: str, hint: str, value: str) -> None:
    assert upstream[tool]["annotations"][hint] is json.loads(value)


@then(parsers.parse("the gateway classifies {tool} as {cls:w}"))
def _classifies(tool: str, cls: str) -> None:
    assert classify(tool) is ToolClass[cls]


@then("catalog_reads() covers exactly the tools upstream lists")
def _covers(upstream: dict[str, dict[str, Any]]) -> None:
    assert set(catalog_reads()) == set(upstream)


@then("every argument name catalog_reads() gives for a tool is in that tool's upstream inputSchema")
def _reads_exist(upstream: dict[str, dict[str, Any]]) -> None:
    for tool, names in catalog_reads().items():
        props = set(upstream[tool]["inputSchema"].get("properties", {}))
        assert names <= props, f"{tool} reads {sorted(names - props)} that upstream does not have"


@then(parsers.parse('no tool\'s reads include "{name}"'))
def _never_reads(name: str) -> None:
    assert not [tool for tool, names in catalog_reads().items() if name in names]


@then("the catalog reads at least these arguments")
def _reads_at_least(datatable: list[list[str]]) -> None:
    for tool, names in _rows(datatable):
        assert _names(names) <= catalog_reads()[tool], tool


@then(parsers.re(r"a call of (?P<tool>\w+) with (?P<arguments>\{.*\}) (?P<does>does|does not) replace the label table"))
def _replaces(tool: str, arguments: str, does: str) -> None:
    assert replaces_labels(tool, json.loads(arguments)) is (does == "does")


@then(parsers.parse("the observation tools are exactly {names}"))
def _observation_tools(names: str) -> None:
    assert _names(names) == OBSERVATION_TOOLS


@then(parsers.parse("the tools that accept based_on are exactly {names}"))
def _based_on_tools(names: str) -> None:
    if names == "the tools the gateway classifies INPUT":
        expected = {t for t in policy.UPSTREAM_TOOLS if classify(t) is ToolClass.INPUT}
    else:
        expected = _names(names)
    assert expected == INPUT_TOOLS_WITH_BASED_ON


@then("while a person's stop is engaged decide lets exactly the observation tools of upstream's through")
def _allowed_while_killed() -> None:
    stopped = KillState(engaged=True, by="person", reason="stop")
    ctx = context(view(observation("obs-1")), config=PolicyConfig(), kill=stopped)
    through = {t for t in policy.UPSTREAM_TOOLS if decide(call(t), ctx, T0).verdict is Verdict.ALLOW}
    assert through == set(OBSERVATION_TOOLS)


# --- purity (S-DEC-08) ------------------------------------------------------------------------


def _imports(source: str) -> set[str]:
    """Top-level modules a source imports.

    A relative import that climbs out of policy/ counts as "..", and an `__import__` of a
    name that is not a literal as "?": both are banned, since neither can be checked.
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level > 1:
            found.add("..")
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            arg = node.args[0] if node.args else None
            literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            found.add(arg.value.split(".")[0] if literal else "?")  # type: ignore[union-attr]
    return found


@pytest.fixture
def sources() -> dict[str, str]:
    """policy/*.py by file name (overridden by the Given step)."""
    return {}


@given("the source of every module in policy/", target_fixture="sources")
def _sources() -> dict[str, str]:
    files = sorted((REPO / "policy").glob("*.py"))
    assert len(files) > 5  # the package, not an empty glob
    return {p.name: p.read_text(encoding="utf-8") for p in files}


def _banned(datatable: list[list[str]]) -> set[str]:
    return {row[0] for row in _rows(datatable)} | {"gateway", "..", "?"}


@then("no module imports any of these, nor anything from gateway", target_fixture="banned")
def _pure(sources: dict[str, str], datatable: list[list[str]]) -> set[str]:
    banned = _banned(datatable)
    offenders = {name: sorted(_imports(src) & banned) for name, src in sources.items()}
    assert not {k: v for k, v in offenders.items() if v}, offenders
    return banned


@then(parsers.re(r"the same check finds the import in (?P<samples>.+)"))
def _check_can_fail(banned: set[str], samples: str) -> None:
    for sample in samples.replace('" and "', '", "').strip('"').split('", "'):
        assert _imports(sample) & banned, sample
    assert not _imports("import hashlib, json, re\nfrom policy.decision import Decision") & banned


@then("policy.__all__ lists exactly the package's public names")
def _all_is_public() -> None:
    exported = {n for n, v in vars(policy).items() if not n.startswith("_") and not inspect.ismodule(v)}
    assert len(policy.__all__) == len(set(policy.__all__))
    assert set(policy.__all__) == exported
