"""The doctor's schema comparison against upstream 0.8.8's real tools/list (S-DOC-02 … S-DOC-05).

Every mutation is applied here to a copy of tests/upstream_data/tools_list.json, the
vendored upstream truth; expected verdicts come from DESIGN.md §7 and the issue text.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import anyio
import pytest

from gateway.config.load import GatewayConfig
from gateway.doctor.model import Verdict
from gateway.doctor.schema import GATEWAY_SENDS, KNOWN_UNREAD_ARGS, compare_schema, reads_of
from gateway.observe.parse import parse_text, unwrap_text
from gateway.pipeline.policy_world import run_probe
from policy import INPUT_TOOLS_WITH_BASED_ON, UPSTREAM_TOOLS, ToolClass, classify
from policy.observation import Observation
from policy.rules.match import load_rules
from tests._requirements import SAMPLES, UPSTREAM_DATA, requirement

GATED = [n for n in UPSTREAM_TOOLS if classify(n) in (ToolClass.INPUT, ToolClass.SYSTEM)]


def upstream_tools() -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads((UPSTREAM_DATA / "tools_list.json").read_text(encoding="utf-8"))["tools"]
    return tools


def mutated(*edits: tuple[str, str, str | None]) -> list[dict[str, Any]]:
    """edits: ("rename", "Tool.arg", "new") | ("drop", "Tool.arg", None) | ("add", "Tool.arg", None)
    | ("add-tool", "Name", None) | ("drop-tool", "Name", None)."""
    tools = copy.deepcopy(upstream_tools())
    for verb, target, new in edits:
        tool, _, arg = target.partition(".")
        if verb == "add-tool":
            tools.append({"name": tool, "inputSchema": {"type": "object", "properties": {}}})
            continue
        if verb == "drop-tool":
            tools = [t for t in tools if t["name"] != tool]
            continue
        props = next(t for t in tools if t["name"] == tool)["inputSchema"]["properties"]
        if verb in ("rename", "drop"):
            value = props.pop(arg)
            if verb == "rename":
                props[str(new)] = value
        else:
            props[arg] = {"type": "string"}
    return tools


def checks(tools: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    return {c.id: c for c in compare_schema(tools, None, **kw)}


@requirement("S-DOC-05")
def test_the_faithful_upstream_passes_every_schema_check() -> None:
    """S-DOC-05: against 0.8.8's real tools/list the three schema checks are OK with no finding at all."""
    for check in compare_schema(upstream_tools(), None):
        assert check.verdict is Verdict.OK and check.findings == (), (check.id, check.findings)


@requirement("S-DOC-03")
@pytest.mark.parametrize("tool", GATED)
def test_known_unread_args_complete_the_reads_of_every_gated_tool_exactly(tool: str) -> None:
    """S-DOC-03: per gated tool, read ∪ known-harmless = upstream's arguments; the two never overlap."""
    props = set(next(t for t in upstream_tools() if t["name"] == tool)["inputSchema"]["properties"])
    harmless = set(KNOWN_UNREAD_ARGS.get(tool, {}))
    assert reads_of(tool) | harmless == props
    assert not reads_of(tool) & harmless
    assert set(KNOWN_UNREAD_ARGS) <= set(GATED), "harmless lists only make sense for gated tools"


@requirement("S-DOC-02")
def test_a_renamed_powershell_command_is_severe_naming_tool_field_and_dead_rules() -> None:
    """S-DOC-02: PowerShell.command renamed → SEVERE naming the tool, the field and the dead rules."""
    found = checks(mutated(("rename", "PowerShell.command", "cmd")))
    read = found["schema.read_args"]
    assert read.verdict is Verdict.SEVERE
    (finding,) = read.findings
    assert (finding.tool, finding.field) == ("PowerShell", "command")
    for rule in ("recursive-delete", "encoded-command", "download-execute", "disable-defender", "force-kill"):
        assert rule in finding.rules and rule in finding.message
    for rule in ("app-launch-interpreter", "notification-injection", "shortcut-command-launcher"):
        assert rule not in finding.rules  # they do not read PowerShell
    assert "went dead on PowerShell" in finding.message and "cmd (renamed?)" in finding.message
    # the new name is also an unknown argument of a gated tool
    assert [(f.tool, f.field) for f in found["schema.unknown_args"].findings] == [("PowerShell", "cmd")]


@requirement("S-DOC-02")
@pytest.mark.parametrize(
    ("target", "rules_expected", "words"),
    [
        ("Registry.mode", ["registry-delete-machine-hive", "disable-uac"], "blind"),
        ("Process.force", ["force-kill", "kill-critical-process"], "blind"),
        ("App.executable", ["app-launch-interpreter"], "blind"),
        ("Click.label", [], "label-table staleness"),
        ("Type.text", [], "redaction"),
        ("Snapshot.region", [], "window-drift probe"),
        ("Snapshot.use_vision", [], "window-drift probe"),
    ],
)
def test_a_dropped_argument_the_gateway_relies_on_is_severe(target: str, rules_expected: list[str], words: str) -> None:
    """S-DOC-02: an argument the catalog, rules or probe use that upstream dropped is SEVERE, saying why."""
    tool, _, arg = target.partition(".")
    (finding,) = checks(mutated(("drop", target, None)))["schema.read_args"].findings
    assert finding.verdict is Verdict.SEVERE and (finding.tool, finding.field) == (tool, arg)
    assert set(rules_expected) <= set(finding.rules) and (finding.rules != ()) == bool(rules_expected)
    assert words in finding.message


@requirement("S-DOC-02")
def test_custom_rules_are_named_among_the_dead_ones() -> None:
    """S-DOC-02: a custom rule on PowerShell is named too when PowerShell.command disappears."""
    custom = load_rules(
        [
            {
                "id": "no-curl",
                "pattern": "invoke-webrequest",
                "risk": "net",
                "reason": "no",
                "tools": ["PowerShell"],
            }
        ]
    )
    (finding,) = compare_schema(mutated(("drop", "PowerShell.command", None)), custom)[0].findings
    assert "no-curl" in finding.rules


@requirement("S-DOC-02")
def test_the_arguments_the_probe_sends_are_the_ones_the_doctor_checks() -> None:
    """S-DOC-02: the drift probe sends only GATEWAY_SENDS' Snapshot arguments (with and without anchor)."""
    text, _ = unwrap_text((SAMPLES / "05_snapshot_rich_tree_no_vision.txt").read_text(encoding="utf-8"))
    capture = parse_text("Snapshot", text)
    sent: list[set[str]] = []

    class Upstream:
        async def call_tool(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
            sent.append(set(args))
            assert name == "Snapshot"
            return {"content": [{"type": "text", "text": text}], "isError": False}

    class Store:
        def bump_generation(self) -> int:
            return 1

    class App:
        upstream, store = Upstream(), Store()
        config = GatewayConfig()  # the defaults (the probe's capture is redacted by private_windows)

        def note_upstream_restarts(self) -> None:
            return None

    for cap in (capture, capture.__class__(tool="Snapshot")):
        obs = Observation(id="obs-1", session="s", generation=1, taken_at_ms=0.0, capture=cap)
        anyio.run(run_probe, App(), obs)  # type: ignore[arg-type]
    assert sent[0] == {"use_vision", "region"} and sent[1] == {"use_vision"}
    assert set().union(*sent) <= GATEWAY_SENDS["Snapshot"]


@requirement("S-DOC-03")
@pytest.mark.parametrize("tool", ["App", "PowerShell", "Click", "Shortcut", "Notification"])
def test_an_extra_argument_on_a_gated_tool_is_a_warning(tool: str) -> None:
    """S-DOC-03: an unread, unknown argument on a gated tool is a WARNING (possible bypass)."""
    found = checks(mutated(("add", f"{tool}.extra", None)))
    assert found["schema.read_args"].verdict is Verdict.OK
    (finding,) = found["schema.unknown_args"].findings
    assert finding.verdict is Verdict.WARNING and (finding.tool, finding.field) == (tool, "extra")
    assert "bypass" in finding.message


@requirement("S-DOC-03")
def test_an_extra_argument_on_a_read_only_tool_is_listed_not_flagged() -> None:
    """S-DOC-03: read-only tools are not gated: their unknown arguments are data, not a warning."""
    found = checks(mutated(("add", "Snapshot.extra", None)))
    assert found["schema.unknown_args"].verdict is Verdict.OK
    assert "extra" in found["schema.unknown_args"].data["ungated_unknown_args"]["Snapshot"]


@requirement("S-DOC-03")
@pytest.mark.parametrize("arg", ["based_on", "approval_id"])
def test_an_upstream_argument_named_like_a_gateway_argument_is_a_warning(arg: str) -> None:
    """S-DOC-03: upstream gaining `based_on`/`approval_id` is a WARNING: the gateway strips it."""
    tool = sorted(INPUT_TOOLS_WITH_BASED_ON)[0]
    (finding,) = checks(mutated(("add", f"{tool}.{arg}", None)))["schema.unknown_args"].findings
    assert finding.verdict is Verdict.WARNING and finding.field == arg and "strips" in finding.message


@requirement("S-DOC-04")
@pytest.mark.parametrize(("setting", "fate"), [("deny", "refused as UNKNOWN_TOOL"), ("allow", "callable")])
def test_an_unknown_upstream_tool_is_a_warning_saying_what_happens_to_it(setting: str, fate: str) -> None:
    """S-DOC-04: an upstream tool the catalog does not know is a WARNING that says whether it is refused."""
    found = checks(mutated(("add-tool", "Teleport", None)), unknown_tools=setting)
    (finding,) = found["schema.tools"].findings
    assert finding.verdict is Verdict.WARNING and finding.tool == "Teleport" and fate in finding.message


@requirement("S-DOC-04")
def test_a_tool_upstream_no_longer_offers_is_listed_not_flagged() -> None:
    """S-DOC-04: a catalog tool missing upstream (e.g. --exclude-tools) is listed, verdict OK."""
    found = checks(mutated(("drop-tool", "Notification", None)))
    assert all(c.verdict is Verdict.OK for c in found.values())
    assert found["schema.tools"].data["not_offered"] == ["Notification"]
    assert "Notification" in found["schema.tools"].summary


@requirement("S-DOC-04")
def test_an_upstream_tool_named_like_an_own_tool_is_a_warning() -> None:
    """S-DOC-04: an upstream `winmcp_state` is unknown to the catalog and hidden by the gateway's own tool."""
    (finding,) = checks(mutated(("add-tool", "winmcp_state", None)))["schema.tools"].findings
    assert "own tools" in finding.message


@requirement("S-DOC-02")
@pytest.mark.parametrize("broken", [{"name": "PowerShell", "inputSchema": "?"}, {"inputSchema": {}}, "junk"])
def test_what_cannot_be_read_is_unknown_never_ok(broken: Any) -> None:
    """S-DOC-02: an entry without a name or a tool whose inputSchema cannot be read is UNKNOWN, not OK."""
    tools = [t for t in upstream_tools() if t["name"] != "PowerShell" or broken == "junk" or "name" not in broken]
    tools.append(broken)
    read = checks(tools)["schema.read_args"]
    assert read.verdict is Verdict.UNKNOWN
    assert any(f.verdict is Verdict.UNKNOWN for f in read.findings)
