"""Step definitions binding features/audit.feature (S-AUD-*, S-RED-*).

The steps call the same public functions the unit tests call: `AuditLog.append`,
`verify_chain`, `audit_files`, `summarize` and the report's `main`.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from pytest_bdd import given, parsers, scenarios, then, when

from gateway.audit import AuditLog, to_json_line
from gateway.audit_report import audit_files, main, summarize, verify_chain

scenarios("audit.feature")


class World:
    """What a scenario has built so far."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.log = AuditLog(directory)
        self.raised: BaseException | None = None

    def record(self, event: str, **fields: Any) -> None:
        try:
            self.log.append(event, **fields)
        except BaseException as exc:  # the scenario checks this stays None  # noqa: BLE001
            self.raised = exc

    @property
    def path(self) -> Path:
        return self.directory / "audit.jsonl"

    def report(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(["--state-dir", str(self.directory), *argv], stdout=out, stderr=err, environ={})
        return code, out.getvalue(), err.getvalue()


@given("an audit log in a fresh state dir", target_fixture="world")
def _fresh(tmp_path: Path) -> World:
    return World(tmp_path / "state")


@given("an audit log whose directory is a file", target_fixture="world")
def _blocked(tmp_path: Path) -> World:
    blocker = tmp_path / "state"
    blocker.write_text("I am a file")
    return World(blocker)


@when(parsers.re(r"the gateway records (?P<n>\d+) events?"))
def _records(world: World, n: str) -> None:
    for i in range(int(n)):
        world.record("allow", session="s-1", tool="Click", args={"loc": [i, i]}, reason=f"event {i}")


@when(parsers.re(r"the gateway restarts and records (?P<n>\d+) events?"))
def _restarts(world: World, n: str) -> None:
    world.log = AuditLog(world.directory)
    _records(world, n)


@when("a writer is killed halfway through its line")
def _torn(world: World) -> None:
    line = to_json_line({"event": "allow", "seq": 99, "tool": "Click", "reason": "cut short"}).encode()
    with open(world.path, "ab") as f:
        f.write(line[: len(line) // 2])


@when(parsers.parse('someone changes one byte of line {n:d} of "{name}"'))
def _tamper(world: World, n: int, name: str) -> None:
    path = world.directory / name
    lines = path.read_bytes().split(b"\n")
    i = lines[n - 1].index(b"event ") + 1
    lines[n - 1] = lines[n - 1][:i] + bytes([lines[n - 1][i] ^ 0x02]) + lines[n - 1][i + 1 :]
    path.write_bytes(b"\n".join(lines))


@when(parsers.parse('the gateway records a PowerShell call with command "{command}"'))
def _powershell(world: World, command: str) -> None:
    world.record("allow", session="s-1", tool="PowerShell", args={"command": command}, reason=command)


@when(parsers.parse('the gateway records typing "{text}" into a password field'))
def _typing(world: World, text: str) -> None:
    result = {"content": [{"type": "text", "text": f"Typed {text} at (720,710)."}], "isError": False}
    world.record(
        "allow", tool="Type", args={"text": text, "loc": [720, 710]}, password_field=True, result=result
    )


@when(parsers.parse('the gateway records a refusal "{code}" because "{reason}"'))
def _refusal(world: World, code: str, reason: str) -> None:
    world.record("deny", session="s-1", tool="Click", code=code, reason=reason)


@then(parsers.parse("the audit holds {n:d} records with seq 1 to {last:d}"))
def _holds(world: World, n: int, last: int) -> None:
    records = [json.loads(x) for x in world.path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == n
    assert [r["seq"] for r in records] == list(range(1, last + 1))


@then("the chain verifies")
def _verifies(world: World) -> None:
    result = verify_chain(audit_files(world.directory))
    assert result.ok, result.problem


@then(parsers.parse('line {n:d} of "{name}" is reported as torn'))
def _reported_torn(world: World, n: int, name: str) -> None:
    torn = verify_chain(audit_files(world.directory)).torn
    assert [(t.path.name, t.line) for t in torn] == [(name, n)]


@then(parsers.parse('the audit holds a "{event}" event with code "{code}"'))
def _holds_event(world: World, event: str, code: str) -> None:
    summary = summarize(audit_files(world.directory))
    assert summary["by_event"].get(event, 0) >= 1
    assert summary["by_code"].get(code) == 1


@then(parsers.parse('audit-report --verify exits 2 naming "{where}" and "{reason}"'))
def _verify_exit(world: World, where: str, reason: str) -> None:
    code, out, err = world.report("--verify")
    assert code == 2
    assert where in out and reason in out
    assert f"{where}: {reason}" in err


@then("recording raised nothing")
def _no_raise(world: World) -> None:
    assert world.raised is None


@then(parsers.parse("the audit counts {n:d} failures"))
def _failures(world: World, n: int) -> None:
    assert world.log.stats()["failures"] == n


@then(parsers.parse('the audit file does not contain "{text}"'))
def _absent(world: World, text: str) -> None:
    assert text.encode("utf-8") not in world.path.read_bytes()


@then(parsers.parse('the audit file contains "{text}"'))
def _present(world: World, text: str) -> None:
    assert text.encode("utf-8") in world.path.read_bytes()


@then(parsers.parse("audit-report --check exits {code:d}"))
def _check_exit(world: World, code: int) -> None:
    assert world.report("--check")[0] == code


@then(parsers.parse('the audit-report summary shows "{first}" and "{second}"'))
def _summary_shows(world: World, first: str, second: str) -> None:
    _, out, _ = world.report()
    assert first in out and second in out
