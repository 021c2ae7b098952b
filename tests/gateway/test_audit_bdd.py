"""Step definitions binding features/audit.feature (S-AUD-*, S-RED-*).

The steps call the same public functions the unit tests call: `AuditLog.append`,
`to_json_line`, `verify_chain`, `audit_files`, `iter_events`, `summarize` and the report's
`main`; the concurrency step runs the writer in real child processes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import io
import json
import math
import os
import re
import subprocess
import sys
import tracemalloc
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.audit import reader as _audit_read
from gateway.audit import report as audit_report
from gateway.audit.report import audit_files, iter_events, main, summarize, verify_chain
from gateway.audit.writer import AuditLog, to_json_line
from tests._requirements import REPO
from tests.gateway.test_audit_concurrency import CHILD

scenarios("audit.feature")

MIB = 1024 * 1024
CHILD_TIMEOUT_S = 180  # a few children writing a few dozen lines each take seconds


class World:
    """What a scenario has built so far."""

    def __init__(self, directory: Path, **log_kwargs: Any) -> None:
        self.directory = directory
        self.log_kwargs = log_kwargs  # the writer's config; a restart keeps it
        self.log = AuditLog(directory, **log_kwargs)
        self.raised: BaseException | None = None
        self.line = ""  # a line serialised by `to_json_line` (S-AUD-01)
        self.huge = 0  # bytes of an over-long line appended by hand (S-AUD-11)

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
    world.log = AuditLog(world.directory, **world.log_kwargs)
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
    world.record("allow", tool="Type", args={"text": text, "loc": [720, 710]}, password_field=True, result=result)


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


# --- canonical lines, fallbacks, concurrency, rotation, permissions, reading (S-AUD-01/03/04/07/11)


@given(parsers.parse("an audit log in a fresh state dir whose clock reads {epoch:g}"), target_fixture="world")
def _fresh_clock(tmp_path: Path, epoch: float) -> World:
    return World(tmp_path / "state", clock=lambda: epoch)


@given(
    parsers.parse("an audit log in a fresh state dir rotating at {max_bytes:d} bytes and keeping {keep:d} files"),
    target_fixture="world",
)
def _fresh_rotating(tmp_path: Path, max_bytes: int, keep: int) -> World:
    return World(tmp_path / "state", max_bytes=max_bytes, keep=keep)


@given("an audit log in a state dir that does not exist yet", target_fixture="world")
def _not_yet(tmp_path: Path) -> World:
    directory = tmp_path / "state"
    assert not directory.exists()
    return World(directory)


@given(parsers.re(r"a state dir holding (?P<names>.+)"), target_fixture="world")
def _holding(tmp_path: Path, names: str) -> World:
    directory = tmp_path / "listing"
    directory.mkdir()
    for name in re.findall(r'"([^"]+)"', names):
        (directory / name).write_bytes(b"")
    return World(directory)


class _Kind(enum.Enum):
    A = "alpha"


@dataclasses.dataclass
class _Box:
    w: int
    h: int


class Hostile:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


ODD_VALUES: dict[str, Callable[[], object]] = {
    'the bytes "abc"': lambda: b"abc",
    "the set of 3, 1 and 2": lambda: {3, 1, 2},
    'the enum member whose value is "alpha"': lambda: _Kind.A,
    "a dataclass with w = 2 and h = 3": lambda: _Box(w=2, h=3),
    "the datetime 2026-12-02 10:31:02.123 UTC": lambda: dt.datetime(2026, 12, 2, 10, 31, 2, 123000, tzinfo=dt.UTC),
    "NaN": lambda: math.nan,
    "minus infinity": lambda: -math.inf,
    "an object whose repr raises": Hostile,
}


@when(parsers.parse('a record whose "{key}" is {value} is serialised as an audit line'), target_fixture="world")
def _serialise(tmp_path: Path, key: str, value: str) -> World:
    world = World(tmp_path / "unused")
    world.line = to_json_line({key: ODD_VALUES[value](), "event": "allow"})
    return world


@when(parsers.parse("{procs:d} processes each record {n:d} events at the same time, rotating at {max_bytes:d} bytes"))
def _processes(world: World, procs: int, n: int, max_bytes: int) -> None:
    world.directory.mkdir(parents=True, exist_ok=True)
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                CHILD,
                str(REPO),
                str(i),
                str(world.directory),
                str(max_bytes),
                "1000",
                str(n),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(procs)
    ]
    for child in children:
        out, err = child.communicate(timeout=CHILD_TIMEOUT_S)
        assert child.returncode == 0 and out == b"", err.decode()


@when(parsers.parse("the gateway restarts keeping {keep:d} files and records {n:d} events"))
def _restart_keeping(world: World, keep: int, n: int) -> None:
    world.log_kwargs = {**world.log_kwargs, "keep": keep}
    _restarts(world, str(n))


@when(parsers.parse('a line of {mib:d} MiB is appended to "{name}"'))
def _huge_line(world: World, mib: int, name: str) -> None:
    with open(world.directory / name, "ab") as f:
        f.write(b"x" * (mib * MIB) + b"\n")
    world.huge = mib * MIB


def _records_of(world: World) -> list[dict[str, Any]]:
    return [e.record for e in iter_events(audit_files(world.directory)) if e.record is not None]


@then(parsers.parse('every line of "{name}" is its record written with sorted keys and no spaces, as UTF-8 text'))
def _canonical(world: World, name: str) -> None:
    raw = (world.directory / name).read_bytes()
    lines = raw.split(b"\n")
    assert lines[-1] == b"" and len(lines) > 1
    for line in lines[:-1]:
        record = json.loads(line)
        canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert line == canonical.encode("utf-8")
    assert "café ☕".encode() in raw  # UTF-8 text, not \u escapes


@then(parsers.parse('the last record\'s ts is "{ts}"'))
def _last_ts(world: World, ts: str) -> None:
    assert _records_of(world)[-1]["ts"] == ts


@then(parsers.parse('the line\'s "{key}" reads {expected}'))
def _line_reads(world: World, key: str, expected: str) -> None:
    assert json.loads(world.line)[key] == json.loads(expected)


@then(parsers.parse("the audit holds {n:d} records across more than one file, with seq 1 to {last:d}"))
def _across_files(world: World, n: int, last: int) -> None:
    entries = list(iter_events(audit_files(world.directory)))
    assert [e.problem for e in entries if e.problem] == []
    records = [e.record for e in entries if e.record is not None]
    assert len(records) == n and [r["seq"] for r in records] == list(range(1, last + 1))
    assert not [r for r in records if r["event"] == "failure"]
    assert len(audit_files(world.directory)) > 1


@then(parsers.parse("every process's {n:d} events are there exactly once"))
def _each_once(world: World, n: int) -> None:
    pairs = [(r["proc"], r["n"]) for r in _records_of(world)]
    procs = {p for p, _ in pairs}
    assert len(pairs) == len(set(pairs)) == len(procs) * n
    assert set(pairs) == {(p, i) for p in procs for i in range(n)}


def _audit_names(world: World) -> set[str]:
    return {p.name for p in world.directory.glob("audit.jsonl*") if not p.name.endswith(".lock")}


@then(parsers.re(r"the state dir holds the audit files (?P<names>.+)"))
def _holds_files(world: World, names: str) -> None:
    assert _audit_names(world) == set(re.findall(r'"([^"]+)"', names))


@then(parsers.parse('the state dir holds "{name}"'))
def _holds_file(world: World, name: str) -> None:
    assert (world.directory / name).is_file()


@then(parsers.parse("no audit file is larger than {limit:d} bytes"))
def _not_larger(world: World, limit: int) -> None:
    assert all(p.stat().st_size <= limit for p in audit_files(world.directory))


@then(parsers.re(r"the reader lists them as (?P<names>.+)"))
def _lists(world: World, names: str) -> None:
    assert [p.name for p in audit_files(world.directory)] == re.findall(r'"([^"]+)"', names)


@then("the first line of each file chains to the last line of the file before it")
def _chained_files(world: World) -> None:
    files = audit_files(world.directory)
    for older, newer in zip(files, files[1:], strict=False):
        last = json.loads(older.read_bytes().split(b"\n")[-2])
        first = json.loads(newer.read_bytes().split(b"\n")[0])
        assert (first["prev"], first["seq"]) == (last["hash"], last["seq"] + 1)


@then("the chain verifies, starting mid-way after rotated files were dropped")
def _verifies_mid_way(world: World) -> None:
    result = verify_chain(audit_files(world.directory))
    assert result.ok, result.problem
    assert result.starts_mid_chain and result.first_seq is not None and result.first_seq > 1


@then("the audit file exists")
def _exists(world: World) -> None:
    assert world.path.is_file() and world.log.stats()["failures"] == 0


@then("on POSIX the audit file is mode 0o600 and the state dir it created is mode 0o700")
def _owner_only(world: World) -> None:
    # On Windows the files inherit the profile directory's ACLs; creating them must simply work.
    if os.name == "posix":
        assert world.path.stat().st_mode & 0o777 == 0o600
        assert world.directory.stat().st_mode & 0o777 == 0o700


@then(parsers.parse('reading the audit streams {n:d} lines, reporting line {line:d} of "{name}" as unparseable'))
def _streams(world: World, n: int, line: int, name: str) -> None:
    stream = iter_events(audit_files(world.directory))
    assert isinstance(stream, types.GeneratorType)  # lazily, line by line
    entries = list(stream)
    assert len(entries) == n
    assert [(e.path.name, e.line, e.problem) for e in entries if e.problem] == [(name, line, "unparseable")]


@then(
    parsers.parse(
        "a line over the {mib:d} MiB cap is skipped without being held, "
        "so reading peaks below two caps however long it is"
    )
)
def _bounded(world: World, mib: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert mib * MIB == audit_report.MAX_LINE_BYTES
    # Measured with the cap lowered to 1 MiB (in the module the reader takes it from), so the
    # bound shows on a line of modest size: a reader that held the whole 40 MiB line peaks far
    # above it, and one that kept a capped first piece while reading the rest in capped
    # pieces peaked at about four caps.
    monkeypatch.setattr(_audit_read, "MAX_LINE_BYTES", MIB)
    tracemalloc.start()
    try:
        problems = [e.problem for e in iter_events(audit_files(world.directory)) if e.problem]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert problems == ["unparseable"]
    assert world.huge >= 32 * MIB and peak < 2 * MIB, peak
