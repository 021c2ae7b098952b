"""The audit reader and the `audit-report` CLI (S-AUD-09, S-AUD-10, S-AUD-11).

A small log with known events is written through the real writer; the expected counts
below are counted from that list by hand.
"""

from __future__ import annotations

import hashlib
import io
import json
import types
from pathlib import Path
from typing import Any

import pytest

from gateway.audit import reader as _audit_read
from gateway.audit.reader import recent_records
from gateway.audit.report import audit_files, iter_events, main, render_summary, summarize
from gateway.audit.writer import AuditLog
from tests._requirements import requirement

T0 = 1796207462.0  # 2026-12-02T10:31:02Z

EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("config", {"reason": "config loaded"}),
    ("observation", {"tool": "Snapshot", "obs": "obs-1"}),
    ("allow", {"tool": "Click", "obs": "obs-1"}),
    ("deny", {"tool": "Click", "code": "STALE_OBSERVATION", "reason": "obs-1 is superseded by obs-2"}),
    ("deny", {"tool": "PowerShell", "code": "RULE_DENY", "reason": "rule recursive-delete matched"}),
    ("ask", {"tool": "PowerShell", "code": "APPROVAL_REQUIRED", "reason": "needs approval ap-7"}),
    ("approval", {"tool": "PowerShell", "code": "APPROVED", "approval": "ap-7", "by": "person"}),
    ("kill", {"tool": "winmcp_kill", "reason": "engage: stop now", "by": "person"}),
    ("deny", {"tool": "Click", "code": "KILLED", "reason": "the kill switch is engaged"}),
    ("kill", {"tool": "winmcp_kill", "reason": "release", "by": "person"}),
    ("failure", {"tool": "Snapshot", "code": "UPSTREAM_TIMEOUT", "reason": "upstream did not answer"}),
]


class Ticker:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> float:
        self.n += 1
        return T0 + self.n - 1 + 0.25


def write_known_log(directory: Path, **kwargs: Any) -> AuditLog:
    log = AuditLog(directory, clock=Ticker(), **kwargs)
    for event, fields in EVENTS:
        log.append(event, session="s-1", **fields)
    return log


@requirement("S-AUD-11")
def test_audit_files_lists_oldest_rotated_first_and_current_last(tmp_path: Path) -> None:
    """S-AUD-11: audit.jsonl.10 before .9 … before .1 before audit.jsonl; strays are ignored."""
    for name in ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2", "audit.jsonl.10", "audit.jsonl.9"]:
        (tmp_path / name).write_text("")
    (tmp_path / "audit.jsonl.lock").write_text("")
    (tmp_path / "audit.jsonl.bak").write_text("")
    assert [p.name for p in audit_files(tmp_path)] == [
        "audit.jsonl.10", "audit.jsonl.9", "audit.jsonl.2", "audit.jsonl.1", "audit.jsonl",
    ]  # fmt: skip
    assert audit_files(tmp_path / "missing") == []


@requirement("S-AUD-11")
def test_iter_events_streams_records_and_markers(tmp_path: Path) -> None:
    """S-AUD-11: iter_events is a generator yielding records in order plus unparseable/torn markers."""
    log = write_known_log(tmp_path)
    with open(log.path, "ab") as f:
        f.write(b'{"event":"al')
    stream = iter_events(audit_files(tmp_path))
    assert isinstance(stream, types.GeneratorType)
    entries = list(stream)
    assert [e.record["event"] for e in entries if e.record] == [e for e, _ in EVENTS]
    assert [(e.line, e.problem) for e in entries if e.problem] == [(len(EVENTS) + 1, "torn final line")]


@requirement("S-AUD-11")
def test_the_line_cap_counts_the_newline_and_reading_goes_on_after_an_over_long_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-AUD-11: a line of exactly the cap (newline included) is a record; one byte more is unparseable."""
    # A 64-byte cap read in 8-byte pieces, so every line here is longer than one piece.
    monkeypatch.setattr(_audit_read, "MAX_LINE_BYTES", 64)
    monkeypatch.setattr(_audit_read, "_PIECE", 8)
    fits = b'{"k":"' + b"a" * 55 + b'"}\n'  # 64 bytes
    too_long = b'{"k":"' + b"a" * 56 + b'"}\n'  # 65 bytes
    fragment = b'{"k":"' + b"c" * 57  # 63 bytes, no newline
    assert (len(fits), len(too_long), len(fragment)) == (64, 65, 63)
    (tmp_path / "audit.jsonl").write_bytes(fits + too_long + b'{"k":"b"}\n' + fragment)
    entries = list(iter_events(audit_files(tmp_path)))
    assert [(e.line, e.record, e.problem) for e in entries] == [
        (1, {"k": "a" * 55}, None),
        (2, None, "unparseable"),
        (3, {"k": "b"}, None),
        (4, None, "torn final line"),
    ]
    assert entries[3].digest == hashlib.sha256(fragment).hexdigest()


@requirement("S-AUD-09")
def test_summary_counts_events_codes_tools_and_keeps_recent_history(tmp_path: Path) -> None:
    """S-AUD-09: counts by event/code/tool, time range, refusals with reasons, kill and approval history."""
    write_known_log(tmp_path)
    s = summarize(audit_files(tmp_path), recent=2)
    assert s["events"] == 11
    assert s["by_event"] == {
        "deny": 3, "kill": 2, "config": 1, "observation": 1, "allow": 1, "ask": 1, "approval": 1,
        "failure": 1,
    }  # fmt: skip
    assert s["by_code"] == {
        "STALE_OBSERVATION": 1, "RULE_DENY": 1, "APPROVAL_REQUIRED": 1, "APPROVED": 1, "KILLED": 1,
        "UPSTREAM_TIMEOUT": 1,
    }  # fmt: skip
    assert s["by_tool"] == {"PowerShell": 3, "Click": 3, "Snapshot": 2, "winmcp_kill": 2}
    assert s["first_ts"] == "2026-12-02T10:31:02.250Z" and s["last_ts"] == "2026-12-02T10:31:12.250Z"
    assert s["refusals"] == 3 and s["asks"] == 1
    assert [(r["code"], r["reason"]) for r in s["refusals_recent"]] == [
        ("RULE_DENY", "rule recursive-delete matched"),
        ("KILLED", "the kill switch is engaged"),
    ]
    assert [k["reason"] for k in s["kills"]] == ["engage: stop now", "release"]
    assert [(a["code"], a["approval"]) for a in s["approvals"]] == [("APPROVED", "ap-7")]
    assert [f["code"] for f in s["failures"]] == ["UPSTREAM_TIMEOUT"]
    assert len(s["recent"]) == 2 and s["recent"][-1]["event"] == "failure"
    assert s["torn_lines"] == [] and s["unparseable"] == 0
    assert "verify" not in s
    assert summarize(audit_files(tmp_path), verify=True)["verify"]["ok"] is True


@requirement("S-AUD-09")
def test_the_rendered_summary_reads_at_a_glance(tmp_path: Path) -> None:
    """S-AUD-09: the text names totals, the time range, each refusal's code and reason, and kills."""
    write_known_log(tmp_path)
    text = render_summary(summarize(audit_files(tmp_path), recent=5, verify=True))
    assert "11 events" in text
    assert "2026-12-02T10:31:02.250Z" in text
    assert "STALE_OBSERVATION" in text and "obs-1 is superseded by obs-2" in text
    assert "engage: stop now" in text and "ap-7" in text
    assert "chain: OK" in text
    text.encode("ascii")  # nothing a Windows console cannot print


def run(argv: list[str], **kwargs: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


@requirement("S-AUD-09")
def test_json_output_is_the_summary(tmp_path: Path) -> None:
    """S-AUD-09: --json prints the summary as JSON, --recent bounds the lists."""
    write_known_log(tmp_path)
    code, out, _ = run(["--state-dir", str(tmp_path), "--json", "--recent", "1"])
    assert code == 0
    data = json.loads(out)
    assert data["events"] == 11 and len(data["refusals_recent"]) == 1 and len(data["kills"]) == 1


@requirement("S-AUD-10")
def test_check_exits_1_when_there_are_refusals(tmp_path: Path) -> None:
    """S-AUD-10: --check exits 1 with deny events present and 0 without."""
    write_known_log(tmp_path / "with")
    clean = AuditLog(tmp_path / "clean")
    clean.append("observation", tool="Snapshot")
    clean.append("ask", tool="PowerShell", code="APPROVAL_REQUIRED")
    assert run(["--state-dir", str(tmp_path / "with"), "--check"])[0] == 1
    assert run(["--state-dir", str(tmp_path / "clean"), "--check"])[0] == 0
    assert run(["--state-dir", str(tmp_path / "with")])[0] == 0  # without --check, refusals are just reported


@requirement("S-AUD-10", "S-AUD-08")
def test_verify_exits_2_naming_the_first_broken_line(tmp_path: Path) -> None:
    """S-AUD-10, S-AUD-08: --verify on a tampered log exits 2 and prints file:line and reason."""
    log = write_known_log(tmp_path)
    lines = log.path.read_bytes().split(b"\n")
    lines[6] = lines[6].replace(b"ap-7", b"ap-8")
    log.path.write_bytes(b"\n".join(lines))
    code, out, err = run(["--state-dir", str(tmp_path), "--verify"])
    assert code == 2
    assert f"{log.path}:7: hash mismatch" in err
    assert "BROKEN at audit.jsonl:7" in out
    assert run(["--state-dir", str(tmp_path)])[0] == 0  # without --verify the chain is not judged


@requirement("S-AUD-10", "S-AUD-05")
def test_verify_of_a_torn_final_line_is_not_a_break(tmp_path: Path) -> None:
    """S-AUD-10, S-AUD-05: a crash fragment at the end is reported as torn and --verify still exits 0."""
    log = write_known_log(tmp_path)
    with open(log.path, "ab") as f:
        f.write(b'{"event":"allow","se')
    code, out, _ = run(["--state-dir", str(tmp_path), "--verify"])
    assert code == 0
    assert "torn" in out and "crash, not tampering" in out


@requirement("S-AUD-10")
def test_a_missing_audit_file_exits_2_with_the_remedy(tmp_path: Path) -> None:
    """S-AUD-10: no audit file → exit 2, a message saying where it looked and how to point elsewhere."""
    code, out, err = run(["--state-dir", str(tmp_path / "nowhere")])
    assert code == 2 and out == ""
    assert str(tmp_path / "nowhere" / "audit.jsonl") in err
    assert "--state-dir" in err and "WINMCP_GATEWAY_STATE_DIR" in err


@requirement("S-AUD-10")
def test_the_state_dir_comes_from_flag_env_or_the_leads_default(tmp_path: Path) -> None:
    """S-AUD-10: --state-dir, then WINMCP_GATEWAY_STATE_DIR, then default_state_dir; --file reads one log."""
    write_known_log(tmp_path / "env")
    write_known_log(tmp_path / "default")
    env = {"WINMCP_GATEWAY_STATE_DIR": str(tmp_path / "env")}
    assert run(["--json"], environ=env, default_state_dir=tmp_path / "nowhere")[0] == 0
    assert run(["--json"], environ={}, default_state_dir=tmp_path / "default")[0] == 0
    assert run(["--json"], environ={}, default_state_dir=tmp_path / "nowhere")[0] == 2
    code, _, err = run(["--json"], environ={}, default_state_dir=None)
    assert code == 2 and "--state-dir" in err
    code, out, _ = run(["--file", str(tmp_path / "env" / "audit.jsonl"), "--json"], environ={})
    assert code == 0 and json.loads(out)["events"] == 11


@requirement("S-AUD-10")
@pytest.mark.parametrize("argv", [["--recent"], ["--bogus"], ["--state-dir", "a", "--file", "b"]])
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """S-AUD-10: a usage error is exit 2 (argparse's), never a traceback."""
    assert main(argv) == 2
    assert "usage" in capsys.readouterr().err


@requirement("S-AUD-11")
def test_recent_records_reads_back_from_the_newest_file(tmp_path: Path) -> None:
    """S-AUD-11: the last N full records, oldest first, across a rotation boundary when needed."""
    log = AuditLog(tmp_path, max_bytes=1024, keep=5)
    for i in range(20):
        log.append("allow", tool="Click", n=i)
    files = audit_files(tmp_path)
    assert len(files) > 2
    last = recent_records(files, 7)
    assert [r["n"] for r in last] == list(range(13, 20))
    assert all("hash" in r for r in last)
    assert recent_records(files, 0) == []
    assert [r["n"] for r in recent_records(files, 100)] == list(range(20 - len(recent_records(files, 100)), 20))
