"""Rotation, torn lines and tamper evidence (S-AUD-04, S-AUD-05, S-AUD-08, S-AUD-11).

Damage is done to the files by hand (or by a real child process dying mid-write), then the
reader must say exactly which line is affected and whether it is a crash or tampering.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from gateway.audit.report import audit_files, verify_chain
from gateway.audit.writer import AuditLog
from tests._requirements import REPO, requirement

GENESIS = "0" * 64


def write_events(directory: Path, n: int, **kwargs: Any) -> AuditLog:
    log = AuditLog(directory, **kwargs)
    for i in range(n):
        log.append("allow", tool="Click", n=i, reason=f"event number {i} of the test")
    return log


def raw_lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")


def rehash(record: dict[str, Any]) -> dict[str, Any]:
    """What an attacker who knows the scheme would do: recompute the line's own hash."""
    body = {k: v for k, v in record.items() if k != "hash"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {**body, "hash": hashlib.sha256(canonical.encode("utf-8")).hexdigest()}


def dumps(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# --- rotation (S-AUD-04) -----------------------------------------------------------------


@requirement("S-AUD-04", "S-AUD-11")
def test_rotation_keeps_keep_files_and_the_chain_runs_across_them(tmp_path: Path) -> None:
    """S-AUD-04, S-AUD-11: small max_bytes, keep=2: three files, oldest dropped, one chain across them."""
    log = write_events(tmp_path, 60, max_bytes=2048, keep=2)
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock"))
    assert names == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"]
    files = audit_files(tmp_path)
    assert [p.name for p in files] == ["audit.jsonl.2", "audit.jsonl.1", "audit.jsonl"]
    assert all(p.stat().st_size <= 2048 for p in files)
    result = verify_chain(files)
    assert result.ok, result.problem
    assert result.starts_mid_chain  # the oldest events were rotated away
    assert result.last_seq == 60 and result.first_seq is not None and result.first_seq > 1
    assert result.records == 60 - result.first_seq + 1
    # The first line of each newer file chains to the last line of the older one.
    for older, newer in zip(files, files[1:], strict=False):
        last = json.loads(raw_lines(older)[-2])
        first = json.loads(raw_lines(newer)[0])
        assert first["prev"] == last["hash"] and first["seq"] == last["seq"] + 1
    assert log.stats()["rotations"] >= 2


@requirement("S-AUD-04")
def test_files_beyond_a_smaller_keep_are_dropped_at_the_next_rotation(tmp_path: Path) -> None:
    """S-AUD-04: leftovers from a larger keep (audit.jsonl.5) go when the writer next rotates."""
    write_events(tmp_path, 30, max_bytes=1024, keep=6)
    assert (tmp_path / "audit.jsonl.5").exists()
    write_events(tmp_path, 10, max_bytes=1024, keep=2)
    names = sorted(p.name for p in tmp_path.glob("audit.jsonl*") if not p.name.endswith(".lock"))
    assert names == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"]
    assert verify_chain(audit_files(tmp_path)).ok


@requirement("S-AUD-04", "S-AUD-08")
def test_with_every_rotated_file_kept_the_chain_starts_at_genesis(tmp_path: Path) -> None:
    """S-AUD-04, S-AUD-08: nothing dropped — the oldest file starts at seq 1 after the genesis hash."""
    write_events(tmp_path, 40, max_bytes=1500, keep=100)
    files = audit_files(tmp_path)
    assert len(files) > 3
    first = json.loads(raw_lines(files[0])[0])
    assert first["seq"] == 1 and first["prev"] == GENESIS
    result = verify_chain(files)
    assert result.ok and not result.starts_mid_chain and result.records == 40


# --- torn lines (S-AUD-05) ---------------------------------------------------------------


@requirement("S-AUD-05")
def test_a_hand_torn_final_line_is_repaired_and_reported_as_torn(tmp_path: Path) -> None:
    """S-AUD-05: the next writer ends the fragment, notes it in a failure event, and verify calls it torn."""
    log = write_events(tmp_path, 3)
    whole = raw_lines(log.path)[1]
    fragment = whole[: len(whole) // 2]
    with open(log.path, "ab") as f:
        f.write(fragment)
    AuditLog(tmp_path).append("deny", tool="Click", code="NO_OBSERVATION")
    lines = raw_lines(log.path)
    assert lines[3] == fragment  # kept as it was, now on a line of its own
    note, after = json.loads(lines[4]), json.loads(lines[5])
    assert note["event"] == "failure" and note["code"] == "AUDIT_TORN_LINE"
    assert note["torn"] == {"line": 4, "bytes": len(fragment), "sha256": hashlib.sha256(fragment).hexdigest()}
    third = json.loads(lines[2])
    assert note["prev"] == third["hash"] and note["seq"] == 4  # continues from the last GOOD line
    assert after["prev"] == note["hash"] and after["seq"] == 5
    result = verify_chain(audit_files(tmp_path))
    assert result.ok, result.problem
    assert [(t.path.name, t.line, t.reason) for t in result.torn] == [("audit.jsonl", 4, "torn")]


@requirement("S-AUD-05")
def test_a_writer_killed_mid_write_leaves_one_torn_line_the_next_writer_handles(tmp_path: Path) -> None:
    """S-AUD-05: a real child process dies inside os.write; the parent continues and verify reports torn."""
    child = textwrap.dedent(
        f"""
        import os, sys
        sys.path.insert(0, {str(REPO)!r})
        from pathlib import Path
        from gateway.audit.writer import AuditLog
        log = AuditLog(Path({str(tmp_path)!r}))
        log.append("allow", tool="Click", n=1)
        real_write = os.write
        def dying_write(fd, data):
            real_write(fd, bytes(data)[: len(data) // 2])
            os._exit(9)  # killed: no cleanup, no newline
        os.write = dying_write
        log.append("allow", tool="Click", n=2, reason="this line is torn by the kill")
        """
    )
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, timeout=60, check=False)
    assert proc.returncode == 9, proc.stderr.decode()
    path = tmp_path / "audit.jsonl"
    assert not path.read_bytes().endswith(b"\n")
    before = verify_chain(audit_files(tmp_path))
    assert before.ok and [t.reason for t in before.torn] == ["torn final line"]
    AuditLog(tmp_path).append("allow", tool="Click", n=3)
    after = verify_chain(audit_files(tmp_path))
    assert after.ok, after.problem
    assert [(t.line, t.reason) for t in after.torn] == [(2, "torn")]
    records = [json.loads(x) for x in raw_lines(path) if x.startswith(b"{") and x.endswith(b"}")]
    assert [(r["seq"], r["event"]) for r in records] == [(1, "allow"), (2, "failure"), (3, "allow")]


@requirement("S-AUD-05")
def test_a_complete_last_line_without_its_newline_is_kept_as_a_good_line(tmp_path: Path) -> None:
    """S-AUD-05: a line that only lost its newline is whole: no torn note, the chain continues from it."""
    log = write_events(tmp_path, 2)
    log.path.write_bytes(log.path.read_bytes().rstrip(b"\n"))
    AuditLog(tmp_path).append("allow", n=99)
    records = [json.loads(x) for x in raw_lines(log.path) if x]
    assert [r["seq"] for r in records] == [1, 2, 3]
    result = verify_chain(audit_files(tmp_path))
    assert result.ok and result.torn == ()


# --- tamper evidence (S-AUD-08) ---------------------------------------------------------


def _flip_value_byte(line: bytes) -> bytes:
    i = line.index(b"event number") + len(b"event ")
    return line[:i] + bytes([line[i] ^ 0x01]) + line[i + 1 :]


def _flip_brace(line: bytes) -> bytes:
    return b"[" + line[1:]


@requirement("S-AUD-08")
@pytest.mark.parametrize(
    ("damage", "reason"),
    [(_flip_value_byte, "hash mismatch"), (_flip_brace, "unparseable")],
    ids=["flipped-value-byte", "flipped-brace"],
)
def test_a_flipped_byte_in_a_middle_line_is_named_by_line_number(tmp_path: Path, damage: Any, reason: str) -> None:
    """S-AUD-08: one changed byte in line 5 of 9 fails verification at exactly that line."""
    log = write_events(tmp_path, 9)
    lines = raw_lines(log.path)
    lines[4] = damage(lines[4])
    log.path.write_bytes(b"\n".join(lines))
    result = verify_chain(audit_files(tmp_path))
    assert not result.ok
    assert result.problem is not None
    assert (result.problem.path.name, result.problem.line, result.problem.reason) == (
        "audit.jsonl",
        5,
        reason,
    )


@requirement("S-AUD-08")
def test_a_rehashed_edit_breaks_the_next_lines_prev(tmp_path: Path) -> None:
    """S-AUD-08: an attacker who recomputes the edited line's hash is caught at the following line."""
    log = write_events(tmp_path, 6)
    lines = raw_lines(log.path)
    edited = json.loads(lines[2])
    edited["reason"] = "nothing to see here"
    lines[2] = dumps(rehash(edited))
    log.path.write_bytes(b"\n".join(lines))
    problem = verify_chain(audit_files(tmp_path)).problem
    assert problem is not None and (problem.line, problem.reason) == (4, "prev mismatch")


@requirement("S-AUD-08")
def test_a_deleted_line_is_found(tmp_path: Path) -> None:
    """S-AUD-08: removing line 3 breaks the link at the line that followed it."""
    log = write_events(tmp_path, 6)
    lines = raw_lines(log.path)
    del lines[2]
    log.path.write_bytes(b"\n".join(lines))
    problem = verify_chain(audit_files(tmp_path)).problem
    assert problem is not None and (problem.line, problem.reason) == (3, "prev mismatch")


@requirement("S-AUD-08")
def test_a_deleted_line_with_the_chain_relinked_shows_a_seq_gap(tmp_path: Path) -> None:
    """S-AUD-08: even with prev and hash recomputed after a deletion, seq reveals the gap."""
    log = write_events(tmp_path, 6)
    lines = raw_lines(log.path)
    removed_prev = json.loads(lines[2])["prev"]
    del lines[2]
    relinked = json.loads(lines[2])
    relinked["prev"] = removed_prev
    lines[2] = dumps(rehash(relinked))
    log.path.write_bytes(b"\n".join(lines))
    problem = verify_chain(audit_files(tmp_path)).problem
    assert problem is not None and (problem.line, problem.reason) == (3, "seq gap")


@requirement("S-AUD-08", "S-AUD-05")
def test_garbage_in_the_middle_without_a_writer_note_is_tampering_not_a_crash(tmp_path: Path) -> None:
    """S-AUD-08, S-AUD-05: an unparseable middle line that no torn-line note acknowledges is a break."""
    log = write_events(tmp_path, 4)
    lines = raw_lines(log.path)
    lines.insert(2, b'{"event":"allow","seq":3,"ha')
    log.path.write_bytes(b"\n".join(lines))
    problem = verify_chain(audit_files(tmp_path)).problem
    assert problem is not None and (problem.line, problem.reason) == (3, "unparseable")


@requirement("S-AUD-08")
def test_tampering_in_a_rotated_file_names_that_file(tmp_path: Path) -> None:
    """S-AUD-08: the problem names the rotated file it is in, not just a global line number."""
    write_events(tmp_path, 30, max_bytes=2048, keep=5)
    rotated = tmp_path / "audit.jsonl.2"
    lines = raw_lines(rotated)
    lines[1] = _flip_value_byte(lines[1])
    rotated.write_bytes(b"\n".join(lines))
    problem = verify_chain(audit_files(tmp_path)).problem
    assert problem is not None and (problem.where, problem.reason) == ("audit.jsonl.2:2", "hash mismatch")
