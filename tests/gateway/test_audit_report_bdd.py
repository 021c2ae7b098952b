"""Step definitions binding features/audit_html.feature (S-AREP-*).

The steps write lines through the real `AuditLog` and call the report's `main` (the CLI),
`collect` / `render_html` and the schema's validator — the functions the unit tests call. The
end-to-end scenario for S-AREP-08 runs a real session in tests/e2e/test_audit_html_e2e.py; here
its lines are the writer's own.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.audit.html_assets import CSP
from gateway.audit.line import chain_hash, to_json_line
from gateway.audit.report import main
from gateway.audit.schema import closed_schema
from gateway.audit.writer import AuditLog

scenarios("audit_html.feature")

T0 = 1796207462.0  # 2026-12-02T10:31:02Z


class World:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.clock = T0
        self.code = 0
        self.out = ""
        self.err = ""
        self.html = ""
        self.title = ""

    def log(self) -> AuditLog:
        return AuditLog(self.directory, clock=lambda: self.clock)

    def run(self, *argv: str) -> int:
        out, err = io.StringIO(), io.StringIO()
        self.code = main(["--state-dir", str(self.directory), *argv], stdout=out, stderr=err, clock=lambda: T0 + 7200)
        self.out, self.err = out.getvalue(), err.getvalue()
        return self.code


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp_path / "state")


@given(parsers.parse('an audit with refusals in sessions "{a}" and "{b}" an hour apart'))
def two_sessions(world: World, a: str, b: str) -> None:
    log = world.log()
    world.clock = T0
    log.append("deny", session=a, tool="Click", code="NO_OBSERVATION", reason="no view")
    log.append("deny", session=a, tool="Click", code="STALE_OBSERVATION", reason="old view")
    world.clock = T0 + 3600 + 1800 + 60  # within the last 30 minutes of "now" (T0 + 2 h)
    log.append("observation", session=b, tool="Snapshot", obs="obs-1")
    log.append("deny", session=b, tool="PowerShell", code="COMMAND_RULE", reason="recursive delete")


@given("an audit with an observation of two displays and an allowed and a refused click")
def geometry_log(world: World) -> None:
    log = world.log()
    screen = {"displays": [[0, 0, 2560, 1440], [-1920, 0, 0, 1080]], "primary": 0, "focused": {"name": "Notepad"}}
    log.append("observation", session="s-1", tool="Snapshot", obs="obs-1", screen=screen)
    log.append("allow", session="s-1", tool="Click", obs="obs-1", point=[2520, 35], phase="intent")
    log.append("deny", session="s-1", tool="Click", code="PROCESS_CHANGED", reason="focus moved", obs="obs-1",
               point=[-1500, 300])  # fmt: skip


@given(parsers.parse('an audit whose window title is "{title}"'))
def hostile_log(world: World, title: str) -> None:
    screen = {"displays": [[0, 0, 1920, 1080]], "focused": {"name": title}}
    world.log().append("observation", session="s-1", tool="Snapshot", obs="obs-1", screen=screen)
    world.log().append("deny", session="s-1", tool="Click", code="PROCESS_CHANGED", reason=title, window=title,
                       obs="obs-1", point=[5, 5])  # fmt: skip
    world.title = title


@when(parsers.parse('the person runs audit-report --check --session "{session}"'))
def run_check(world: World, session: str) -> None:
    world.run("--check", "--json", "--session", session)


@when(parsers.parse('the person runs audit-report --since "{value}"'))
def run_since(world: World, value: str) -> None:
    world.run("--since", value)


@when("the person writes the HTML report")
def write_page(world: World) -> None:
    page = world.directory.parent / "audit.html"
    assert world.run("--html", str(page)) == 0, world.err
    world.html = page.read_text(encoding="utf-8")


@when("someone adds a line whose image item carries its data")
def add_image_line(world: World) -> None:
    path = world.directory / "audit.jsonl"
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    rec: dict[str, Any] = {
        "event": "observation", "session": "s-1", "tool": "Screenshot", "seq": last["seq"] + 1,
        "prev": last["hash"], "ts": "2026-12-02T10:31:09.000Z",
        "result": {"is_error": False, "content": [{"image": {"bytes": 3, "sha256": "0" * 64, "data": "iVBORw0KGgo"}}]},
    }  # fmt: skip
    rec["hash"] = chain_hash(rec)  # a writer-shaped, correctly chained line: only the schema can object
    with open(path, "a", encoding="utf-8") as f:
        f.write(to_json_line(rec) + "\n")


@then(parsers.parse('it exits 1 and counts only the refusals of "{session}"'))
def counted_session(world: World, session: str) -> None:
    assert world.code == 1, world.err
    summary = json.loads(world.out)
    assert summary["refusals"] == 1 and summary["by_code"] == {"COMMAND_RULE": 1}
    assert summary["filter"]["sessions"] == [session]


@then("with --since 30m it counts only the later hour's events")
def counted_since(world: World) -> None:
    assert world.run("--json", "--since", "30m") == 0
    summary = json.loads(world.out)
    assert summary["events"] == 2 and summary["by_event"] == {"observation": 1, "deny": 1}


@then(parsers.parse('it exits 2 naming "{value}" and "{form}"'))
def refused_time(world: World, value: str, form: str) -> None:
    assert world.code == 2 and world.out == ""
    assert value in world.err and form in world.err


@then("the page forbids every remote load in its Content-Security-Policy")
def page_csp(world: World) -> None:
    assert "default-src 'none'" in CSP and "connect-src 'none'" in CSP
    assert 'http-equiv="Content-Security-Policy"' in world.html
    assert "http://" not in world.html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in world.html and " src=" not in world.html


@then("the page draws both displays, one green and one red point")
def page_geometry(world: World) -> None:
    assert world.html.count('class="display') == 2 and "1: (-1920,0)–(0,1080)" in world.html
    assert world.html.count('class="allowed"') == 1 and world.html.count('class="refused"') == 1


@then("the page has only its own two script blocks and the title appears escaped")
def page_escaped(world: World) -> None:
    title = world.title
    assert world.html.count("<script") == 2 and world.html.count("</script>") == 2
    assert title not in world.html
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in world.html
    assert "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)" in world.html


@then(parsers.parse('audit-report --verify exits 2 naming line {line:d} and "{where}"'))
def verify_names_line(world: World, line: int, where: str) -> None:
    assert world.run("--verify") == 2
    assert f"audit.jsonl:{line} does not conform" in world.err and where in world.err


@then("every line conforms to the schema with no unnamed field")
def all_conform(world: World) -> None:
    validator = Draft202012Validator(closed_schema())
    lines = (world.directory / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines and all(not list(validator.iter_errors(json.loads(raw))) for raw in lines)
