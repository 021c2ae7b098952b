"""The audit writer (S-AUD-01, S-AUD-02, S-AUD-06, S-AUD-07, S-AUD-12).

Expected hashes are recomputed here independently of `gateway.audit.writer` (plain hashlib over
the canonical JSON the spec defines); expected timestamps were worked out with `date -u`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import hashlib
import json
import logging
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

from gateway.audit.writer import AuditLog, to_json_line
from tests._requirements import UPSTREAM_DATA, requirement
from tests.gateway.test_redact import JWT, SECRET_KEY_NAMES, SHAPES

TS_SHAPE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
GENESIS = "0" * 64


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().decode("utf-8").split("\n") if line]


def independent_hash(raw_line: str) -> str:
    """SHA-256 over the canonical line without `hash`, computed the way the spec says."""
    record = json.loads(raw_line)
    record.pop("hash")
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)
        self.now = values[0] if values else 1796207462.0

    def __call__(self) -> float:
        if self.values:
            self.now = self.values.pop(0)
        return self.now


# --- canonical form and fallbacks (S-AUD-01) -------------------------------------------


@requirement("S-AUD-01")
def test_a_line_is_canonical_json() -> None:
    """S-AUD-01: sorted keys, compact separators, UTF-8 text rather than \\u escapes."""
    assert to_json_line({"b": 1, "a": "é", "c": [1, {"z": None, "y": True}]}) == (
        '{"a":"é","b":1,"c":[1,{"y":true,"z":null}]}'
    )


class _Kind(enum.Enum):
    A = "alpha"


@dataclasses.dataclass
class _Box:
    w: int
    h: int


class _NoRepr:
    def __repr__(self) -> str:
        raise ValueError("nope")


class _LongRepr:
    def __repr__(self) -> str:
        return "R" * 5000


@requirement("S-AUD-01")
def test_values_json_cannot_hold_fall_back_explicitly_and_never_raise() -> None:
    """S-AUD-01: bytes, sets, dataclasses, enums, datetimes, NaN, odd keys and objects all serialise."""
    when = dt.datetime(2026, 12, 2, 10, 31, 2, 123000, tzinfo=dt.UTC)
    record = {
        "bytes": b"abc",
        "set": {3, 1, 2},
        "box": _Box(w=2, h=3),
        "kind": _Kind.A,
        "when": when,
        "nan": math.nan,
        "inf": -math.inf,
        "path": Path("C:/x/y.txt"),
        "norepr": _NoRepr(),
        "long": _LongRepr(),
        "surrogate": "bad \ud800 text",
        1: "int key",
    }
    line = to_json_line(record)
    parsed = json.loads(line)
    assert parsed["bytes"] == {"bytes": 3, "sha256": hashlib.sha256(b"abc").hexdigest()}
    assert parsed["set"] == [1, 2, 3]
    assert parsed["box"] == {"w": 2, "h": 3}
    assert parsed["kind"] == "alpha"
    assert parsed["when"] == "2026-12-02T10:31:02.123000+00:00"
    assert parsed["nan"] == "nan" and parsed["inf"] == "-inf"
    assert parsed["path"] == str(Path("C:/x/y.txt"))
    assert parsed["norepr"] == "<unrepresentable _NoRepr>"
    assert len(parsed["long"]) == 200 and parsed["long"].startswith("RRR")
    assert parsed["surrogate"].startswith("bad ") and "\ud800" not in parsed["surrogate"]
    assert parsed["1"] == "int key"
    line.encode("utf-8")  # always writable as UTF-8


@requirement("S-AUD-01")
@pytest.mark.parametrize(
    ("epoch", "expected"),
    [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1796207462.123, "2026-12-02T10:31:02.123Z"),
        (1796207462.0, "2026-12-02T10:31:02.000Z"),
        (1796207462.9996, "2026-12-02T10:31:02.999Z"),
        (951782400.5, "2000-02-29T00:00:00.500Z"),
    ],
)
def test_timestamps_are_utc_with_milliseconds_and_z(tmp_path: Path, epoch: float, expected: str) -> None:
    """S-AUD-01: ts is always UTC ISO-8601 with exactly three fractional digits and Z."""
    log = AuditLog(tmp_path, clock=Clock(epoch))
    log.append("allow", tool="Click")
    (record,) = lines_of(log.path)
    assert record["ts"] == expected
    assert TS_SHAPE.fullmatch(record["ts"])


# --- the record and the chain (S-AUD-01, S-AUD-02) -------------------------------------


@requirement("S-AUD-01", "S-AUD-02")
def test_a_record_carries_the_design_fields(tmp_path: Path) -> None:
    """S-AUD-01, S-AUD-02: DESIGN §6 fields are written, None omitted, chain fields the writer's own."""
    log = AuditLog(tmp_path, policy_hash="abc123def4567890", clock=Clock(1796207462.5))
    common = {"class": "INPUT", "session": "s-1", "tool": "Click"}
    log.append(
        "deny", code="STALE_OBSERVATION", reason="obs-3 was superseded by obs-4; take a new Snapshot",
        args={"loc": [10, 20]}, obs="obs-3", based_on="obs-3", window="notes.txt - Notepad", point=[10, 20],
        duration_ms=1.25, upstream_ms=None, seq=999, hash="f" * 64, extra_field={"rule": "x"}, **common,
    )  # fmt: skip
    (record,) = lines_of(log.path)
    assert record == {
        "ts": "2026-12-02T10:31:02.500Z",
        "seq": 1,
        "session": "s-1",
        "event": "deny",
        "tool": "Click",
        "class": "INPUT",
        "code": "STALE_OBSERVATION",
        "reason": "obs-3 was superseded by obs-4; take a new Snapshot",
        "args": {"loc": [10, 20]},
        "obs": "obs-3",
        "based_on": "obs-3",
        "window": "notes.txt - Notepad",
        "point": [10, 20],
        "duration_ms": 1.25,
        "extra_field": {"rule": "x"},
        "policy": "abc123def4567890",
        "prev": GENESIS,
        "hash": record["hash"],
    }
    log.append("allow", cls="SYSTEM", tool="PowerShell")
    assert lines_of(log.path)[1]["class"] == "SYSTEM"


@requirement("S-AUD-02")
def test_each_line_hashes_its_canonical_form_and_links_to_the_previous(tmp_path: Path) -> None:
    """S-AUD-02: hash = SHA-256 of the canonical line without hash; prev = the previous hash; seq + 1."""
    log = AuditLog(tmp_path)
    for i in range(5):
        log.append("observation", tool="Snapshot", obs=f"obs-{i + 1}")
    raw = log.path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(r) for r in raw]
    assert [r["seq"] for r in records] == [1, 2, 3, 4, 5]
    assert records[0]["prev"] == GENESIS
    for i, (line, rec) in enumerate(zip(raw, records, strict=True)):
        assert rec["hash"] == independent_hash(line)
        if i:
            assert rec["prev"] == records[i - 1]["hash"]


@requirement("S-AUD-02")
def test_a_restarted_writer_continues_seq_and_chain_from_the_file(tmp_path: Path) -> None:
    """S-AUD-02: a new process (a new AuditLog) reads the tail and continues seq and prev."""
    AuditLog(tmp_path).append("config", reason="started")
    AuditLog(tmp_path).append("allow", tool="Click")
    third = AuditLog(tmp_path)
    third.append("kill", reason="engage")
    records = lines_of(third.path)
    assert [r["seq"] for r in records] == [1, 2, 3]
    assert records[1]["prev"] == records[0]["hash"] and records[2]["prev"] == records[1]["hash"]


@requirement("S-AUD-02")
def test_a_writer_notices_lines_another_writer_appended(tmp_path: Path) -> None:
    """S-AUD-02: two writers on one file interleave without forking the chain (the tail cache is checked)."""
    a, b = AuditLog(tmp_path), AuditLog(tmp_path)
    for i in range(6):
        (a if i % 2 else b).append("allow", n=i)
    records = lines_of(tmp_path / "audit.jsonl")
    assert [r["seq"] for r in records] == [1, 2, 3, 4, 5, 6]
    assert all(records[i]["prev"] == records[i - 1]["hash"] for i in range(1, 6))


# --- failures never raise (S-AUD-06) ----------------------------------------------------


@requirement("S-AUD-06")
def test_disabled_audit_creates_nothing(tmp_path: Path) -> None:
    """S-AUD-06: enabled=False writes no file and creates no directory."""
    target = tmp_path / "state" / "nested"
    log = AuditLog(target, enabled=False)
    log.append("allow", tool="Click")
    assert not target.exists() and list(tmp_path.iterdir()) == []
    assert log.stats()["written"] == 0 and log.stats()["failures"] == 0


def _dir_is_a_file(tmp_path: Path) -> Path:
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    return blocker


def _file_is_a_dir(tmp_path: Path) -> Path:
    (tmp_path / "audit.jsonl").mkdir()
    return tmp_path


@requirement("S-AUD-06")
@pytest.mark.parametrize("breakage", [_dir_is_a_file, _file_is_a_dir], ids=["dir-is-a-file", "file-is-a-dir"])
def test_a_failed_write_is_counted_logged_and_never_raised(
    tmp_path: Path, breakage: Any, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-AUD-06: append does not raise; failures and last_error count it; a warning is logged, not printed."""
    log = AuditLog(breakage(tmp_path))
    with caplog.at_level(logging.WARNING, logger="gateway.audit.writer"):
        log.append("allow", tool="Click")
        log.append("allow", tool="Click")
    stats = log.stats()
    assert stats["failures"] == 2 and stats["written"] == 0
    assert stats["last_error"]
    assert any("audit" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
    assert capsys.readouterr().out == ""


@requirement("S-AUD-06")
def test_the_writer_recovers_once_the_path_is_writable_again(tmp_path: Path) -> None:
    """S-AUD-06: after a failure the next append succeeds normally and the chain starts cleanly."""
    blocker = _dir_is_a_file(tmp_path)
    log = AuditLog(blocker)
    log.append("allow")
    blocker.unlink()
    log.append("allow")
    assert log.stats()["failures"] == 1 and log.stats()["written"] == 1
    assert lines_of(blocker / "audit.jsonl")[0]["seq"] == 1


@requirement("S-AUD-06")
def test_odd_values_and_a_broken_clock_do_not_cost_the_event(tmp_path: Path) -> None:
    """S-AUD-06: a hostile value or a raising clock still yields a written, parseable line."""

    def broken_clock() -> float:
        raise RuntimeError("clock gone")

    cyclic: dict[str, Any] = {}
    cyclic["me"] = cyclic
    log = AuditLog(tmp_path, clock=broken_clock)
    log.append("failure", reason=_NoRepr(), weird={1, "a"}, blob=b"\x00\x01", cyclic=cyclic, nan=math.nan)
    assert log.stats()["failures"] == 0
    (record,) = lines_of(log.path)
    assert TS_SHAPE.fullmatch(record["ts"])
    assert record["blob"]["bytes"] == 2


@requirement("S-AUD-06")
def test_stats_report_health(tmp_path: Path) -> None:
    """S-AUD-06: stats() gives written, failures, last_error and path."""
    log = AuditLog(tmp_path)
    log.append("allow")
    stats = log.stats()
    assert stats["written"] == 1 and stats["failures"] == 0 and stats["last_error"] is None
    assert stats["path"] == str(tmp_path / "audit.jsonl")


# --- permissions (S-AUD-07) -------------------------------------------------------------


@requirement("S-AUD-07")
def test_audit_files_are_owner_only(tmp_path: Path) -> None:
    """S-AUD-07: the audit file is created 0o600 on POSIX; on Windows creation simply works."""
    log = AuditLog(tmp_path / "state")
    log.append("allow")
    assert log.path.is_file()
    if os.name == "posix":
        assert log.path.stat().st_mode & 0o777 == 0o600
        assert (tmp_path / "state").stat().st_mode & 0o077 == 0  # a directory we create is private too


# --- redaction on the way in (S-AUD-12) -------------------------------------------------


@requirement("S-AUD-12", "S-RED-01")
def test_secret_named_args_never_reach_the_file(tmp_path: Path) -> None:
    """S-AUD-12, S-RED-01: every secret-named key's value is absent from the file bytes, at any depth."""
    log = AuditLog(tmp_path)
    secrets = []
    for key in SECRET_KEY_NAMES:
        secret = f"KeyVal-{abs(hash(key)) % 10**8}-{key}"
        secrets.append(secret)
        log.append("allow", tool="Scrape", args={key: secret, "nested": [{"h": {key: secret}}]})
    data = log.path.read_bytes()
    assert len(lines_of(log.path)) == len(SECRET_KEY_NAMES)
    for secret in secrets:
        assert secret.encode("utf-8") not in data


@requirement("S-AUD-12", "S-RED-02", "S-RED-03")
def test_secret_shapes_never_reach_the_file_from_any_field(tmp_path: Path) -> None:
    """S-AUD-12, S-RED-02, S-RED-03: secrets in args, reason, window, result or extras never hit the disk."""
    log = AuditLog(tmp_path)
    for _, text, _ in SHAPES:
        log.append(
            "allow", tool="PowerShell", args={"command": text, "list": [text]}, reason=text, window=text,
            result={"content": [{"type": "text", "text": text}], "isError": False}, extra={"deep": [text]},
        )  # fmt: skip
    data = log.path.read_bytes()
    for name, _, secret in SHAPES:
        assert secret.encode("utf-8") not in data, name
    assert JWT.encode() not in data


@requirement("S-AUD-12", "S-RED-04")
def test_text_typed_into_a_password_field_never_reaches_the_file(tmp_path: Path) -> None:
    """S-AUD-12, S-RED-04: the typed password is masked in args and scrubbed from upstream's echo."""
    call = next(c for c in json.loads((UPSTREAM_DATA / "tool_outputs.json").read_text()) if c["tool"] == "Type")
    password = "Sw0rdfish!"
    args = {**call["arguments"], "text": password}
    result = json.loads(json.dumps(call["result"]).replace(call["arguments"]["text"].replace("\n", "\\n"), password))
    assert password in json.dumps(result)  # upstream echoes what was typed
    log = AuditLog(tmp_path)
    log.append("allow", tool="Type", args=args, password_field=True, result=result, reason=f"typed {password}")
    data = log.path.read_bytes()
    assert password.encode() not in data
    (record,) = lines_of(log.path)
    assert record["args"]["text"] == f"[REDACTED password field: {len(password)} chars]"
    assert record["password_field"] is True


@requirement("S-AUD-12")
def test_an_already_summarised_result_keeps_its_image_digest(tmp_path: Path) -> None:
    """S-AUD-12: redacting a summary again keeps the image sha256 (a digest we made is not a secret)."""
    digest = hashlib.sha256(b"png").hexdigest()
    log = AuditLog(tmp_path)
    summary = {
        "is_error": False,
        "content": [{"image": {"mimeType": "image/png", "bytes": 3, "sha256": digest}}],
    }
    log.append("observation", tool="Screenshot", result=summary)
    assert lines_of(log.path)[0]["result"] == summary


@requirement("S-AUD-12", "S-RED-04")
def test_a_short_password_is_scrubbed_without_mangling_the_record_structure(tmp_path: Path) -> None:
    """S-AUD-12, S-RED-04: scrubbing a one-letter password leaves tool, class, session and code intact."""
    log = AuditLog(tmp_path)
    result = {"content": [{"type": "text", "text": "Typed e at (1,2)."}], "isError": False}
    common = {"tool": "Type", "class": "INPUT", "session": "sess-e", "code": "NONE"}
    log.append("allow", args={"text": "e"}, password_field=True, result=result, **common)
    (record,) = lines_of(log.path)
    assert {k: record[k] for k in common} == common
    mask = "[REDACTED password field]"
    assert record["result"]["content"] == [{"text": f"Typ{mask}d {mask} at (1,2)."}]
