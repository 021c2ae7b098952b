"""The audit-line JSON Schema and `--verify`'s check against it (S-AREP-06, S-AREP-07)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from gateway.audit.line import chain_hash, to_json_line
from gateway.audit.report import main
from gateway.audit.schema import SCHEMA, SCHEMA_VERSION, check_lines, closed_schema, schema_text
from gateway.audit.writer import EVENTS, AuditLog
from tests._requirements import REPO, requirement

SPEC_PATH = REPO / "spec" / "audit-line.schema.json"


def _append_raw(path: Path, **fields: Any) -> None:
    """A correctly chained line of our choosing: only the schema can object to it."""
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    rec = {"ts": "2026-12-02T10:31:09.000Z", "seq": last["seq"] + 1, "prev": last["hash"], **fields}
    rec["hash"] = chain_hash(rec)
    with open(path, "a", encoding="utf-8") as f:
        f.write(to_json_line(rec) + "\n")


@requirement("S-AREP-06")
def test_the_schema_is_draft_2020_12_versioned_and_the_spec_file_is_current() -> None:
    """S-AREP-06: a valid 2020-12 schema, its version in $id, and spec/audit-line.schema.json equal to it."""
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"].endswith(f":{SCHEMA_VERSION}") and SCHEMA["x-schema-version"] == SCHEMA_VERSION
    assert SPEC_PATH.read_text(encoding="utf-8") == schema_text(), (
        "run: winmcp-gateway audit-report --schema > spec/audit-line.schema.json"
    )
    assert SCHEMA["properties"]["event"]["enum"] == list(EVENTS)
    assert {rule["if"]["properties"]["event"]["const"] for rule in SCHEMA["allOf"]} == set(EVENTS)


@requirement("S-AREP-06")
def test_audit_report_schema_prints_it(tmp_path: Path) -> None:
    """S-AREP-06: `audit-report --schema` prints the schema, needing no audit file."""
    out = io.StringIO()
    assert main(["--schema", "--state-dir", str(tmp_path / "none")], stdout=out, stderr=io.StringIO()) == 0
    assert json.loads(out.getvalue()) == SCHEMA


@requirement("S-AREP-06")
@pytest.mark.parametrize(
    ("line", "ok"),
    [
        ({"event": "kill", "reason": "r", "by": "person"}, True),
        ({"event": "kill", "reason": "r"}, False),  # a kill line always says who
        ({"event": "config", "reason": "r", "later_field": 1}, True),  # a later minor version's field
        ({"event": "config", "reason": "r", "Bad-Name": 1}, False),
        ({"event": "teleport", "reason": "r"}, False),
        ({"event": "deny", "code": "lower", "reason": "r"}, False),
        ({"event": "observation", "tool": "Snapshot", "session": "s",
          "screen": {"displays": [], "pixels": "…"}}, False),
        ({"event": "observation", "tool": "Snapshot", "session": "s",
          "result": {"content": [{"image": {"bytes": 1, "sha256": "ab", "data": "iVBOR"}}]}}, False),
        ({"event": "allow", "tool": "Click", "args": {"anything": {"goes": [1]}}}, True),
    ],
)  # fmt: skip
def test_unnamed_top_level_fields_pass_and_what_the_gateway_builds_is_closed(line: dict[str, Any], ok: bool) -> None:
    """S-AREP-06: the additionalProperties decisions, and the fields each event kind always carries."""
    chain = {"ts": "2026-12-02T10:31:02.000Z", "seq": 1, "prev": "0" * 64, "hash": "a" * 64}
    errors = list(Draft202012Validator(SCHEMA).iter_errors({**chain, **line}))
    assert (errors == []) is ok, [e.message for e in errors]


@requirement("S-AREP-06")
def test_the_closed_variant_refuses_what_the_schema_does_not_name() -> None:
    """S-AREP-06: tests hold the product to the named fields with `closed_schema`."""
    line = {"ts": "2026-12-02T10:31:02.000Z", "seq": 1, "prev": "0" * 64, "hash": "a" * 64, "event": "config"}
    assert not list(Draft202012Validator(closed_schema()).iter_errors({**line, "reason": "r"}))
    assert list(Draft202012Validator(closed_schema()).iter_errors({**line, "reason": "r", "extra": 1}))


@requirement("S-AREP-07")
def test_verify_names_the_first_line_that_does_not_conform(tmp_path: Path) -> None:
    """S-AREP-07: a chained but non-conforming line is named by file:line and JSON path; exit 2."""
    log = AuditLog(tmp_path)
    log.append("observation", session="s", tool="Snapshot", obs="obs-1")
    log.append("allow", session="s", tool="Click", point=[1, 2])
    _append_raw(log.path, event="deny", code="KILLED", reason="r", point=[1, "two"])
    _append_raw(log.path, event="kill", reason="no by")  # the second problem is not the one named
    out, err = io.StringIO(), io.StringIO()
    assert main(["--state-dir", str(tmp_path), "--verify"], stdout=out, stderr=err) == 2
    assert "audit.jsonl:3 does not conform" in err.getvalue() and "at $.point[1]" in err.getvalue()
    assert "chain: OK" in out.getvalue()  # the chain itself is intact
    checked, problem = check_lines([log.path])
    assert problem is not None and (problem.line, problem.at, checked) == (3, "$.point[1]", 3)


@requirement("S-AREP-07")
def test_every_line_the_writer_builds_conforms(tmp_path: Path) -> None:
    """S-AREP-07: the writer's own lines (redacted args, a raw result summarised) pass --verify."""
    log = AuditLog(tmp_path)
    result = {"content": [{"type": "text", "text": "ok"}, {"type": "image", "mimeType": "image/png", "data": "AAAA"}]}
    log.append("observation", session="s", tool="Screenshot", obs="obs-1", result=result, generation=1)
    log.append("allow", session="s", tool="Type", args={"text": "hi", "password": "x"}, phase="intent")
    log.append("outcome", session="s", tool="Type", intent=2, result={"content": [], "isError": True})
    out = io.StringIO()
    assert main(["--state-dir", str(tmp_path), "--verify"], stdout=out, stderr=io.StringIO()) == 0
    assert "schema 1.0.0: all 3 lines conform" in out.getvalue()
