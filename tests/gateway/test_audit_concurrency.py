"""Several real processes append to one audit at once (S-AUD-03).

Four `python -c` children each write 200 events as fast as they can. Afterwards there must
be exactly 800 records, no torn-line notes, one linear chain, seq strictly increasing, and
every (process, n) pair present once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gateway.audit.report import audit_files, iter_events, verify_chain
from tests._requirements import REPO, requirement

PROCESSES = 4
EVENTS_EACH = 200

CHILD = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    from pathlib import Path
    from gateway.audit.writer import AuditLog
    proc, directory, max_bytes, keep = int(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    log = AuditLog(directory, max_bytes=max_bytes, keep=keep)
    for n in range(int(sys.argv[6])):
        log.append("allow", session=f"proc-{proc}", tool="Click", proc=proc, n=n, args={"loc": [n, proc]})
    sys.exit(0 if log.failures == 0 else 3)
    """
)


def run_writers(directory: Path, *, max_bytes: int, keep: int) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(REPO), str(i), str(directory), str(max_bytes), str(keep),
             str(EVENTS_EACH)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(PROCESSES)
    ]  # fmt: skip
    for p in procs:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err.decode()
        assert out == b""  # the writer never prints


@requirement("S-AUD-03")
@pytest.mark.parametrize(
    ("max_bytes", "keep"),
    [(8 * 1024 * 1024, 3), (16 * 1024, 1000)],
    ids=["one-file", "rotating-while-racing"],
)
def test_concurrent_processes_never_interleave_or_lose_lines(tmp_path: Path, max_bytes: int, keep: int) -> None:
    """S-AUD-03: 4 processes x 200 events give exactly 800 intact lines in one linear chain."""
    run_writers(tmp_path, max_bytes=max_bytes, keep=keep)
    files = audit_files(tmp_path)
    entries = list(iter_events(files))
    assert [e.problem for e in entries if e.problem] == []  # no torn or unparseable line
    records = [e.record for e in entries if e.record is not None]
    assert len(records) == PROCESSES * EVENTS_EACH
    assert not [r for r in records if r["event"] == "failure"]  # no torn-line notes either
    seqs = [r["seq"] for r in records]
    assert seqs == list(range(1, PROCESSES * EVENTS_EACH + 1))
    assert {(r["proc"], r["n"]) for r in records} == {(p, n) for p in range(PROCESSES) for n in range(EVENTS_EACH)}
    result = verify_chain(files)
    assert result.ok, result.problem
    assert result.records == PROCESSES * EVENTS_EACH and not result.starts_mid_chain
    for f in files:  # every physical line is one complete JSON object
        for line in f.read_bytes().split(b"\n")[:-1]:
            json.loads(line)
    if max_bytes < 8 * 1024 * 1024:
        assert len(files) > 2
