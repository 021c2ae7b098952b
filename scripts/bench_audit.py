"""Audit write cost, as ratios against plain `json.dumps` + write measured in the same run.

    .venv/bin/python scripts/bench_audit.py [--events N] [--fsync-events N]

Rows:
  baseline       json.dumps(record) + "\\n" written to a file kept open (the floor)
  redact only    gateway.audit.redact.values.redact_args + summarize_result on the same record, no I/O
  audit          AuditLog.append (redaction + chain + file lock + open/append/close)
  audit+fsync    the same with fsync=True (what survives a power cut costs this much)
  audit+rotate   AuditLog.append with a small max_bytes so it rotates every ~100 lines

Numbers depend on the machine and its disk; the ratios are what to compare. Exits 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway.audit.redact.values import redact_args, summarize_result  # noqa: E402
from gateway.audit.writer import AuditLog  # noqa: E402

ARGS = {
    "command": "Invoke-RestMethod -Uri https://api.example.com/v1/items -Headers "
    "@{Authorization='Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlLXZhbHVl'} -Method Get",
    "timeout": 30,
}
RESULT = {
    "content": [{"type": "text", "text": "Response: " + "row of output text\n" * 20 + "Status Code: 0"}],
    "structuredContent": {"result": "Response: ..."},
    "isError": False,
}


def record(i: int) -> dict[str, Any]:
    return {
        "session": "bench",
        "tool": "PowerShell",
        "class": "SYSTEM",
        "args": ARGS,
        "result": RESULT,
        "duration_ms": 12.5,
        "n": i,
    }


def rate(n: int, fn: Callable[[int], None]) -> float:
    start = time.perf_counter()
    for i in range(n):
        fn(i)
    return n / (time.perf_counter() - start)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=3000)
    p.add_argument("--fsync-events", type=int, default=300)
    args = p.parse_args(argv)
    rows: list[tuple[str, int, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        with open(base / "baseline.jsonl", "a", encoding="utf-8") as f:
            rows.append(("baseline", args.events, rate(args.events, lambda i: f.write(json.dumps(record(i)) + "\n"))))

        def redact_only(i: int) -> None:
            redact_args("PowerShell", ARGS)
            summarize_result(RESULT)

        rows.append(("redact only", args.events, rate(args.events, redact_only)))
        plain = AuditLog(base / "plain")
        rows.append(("audit", args.events, rate(args.events, lambda i: plain.append("allow", **record(i)))))
        synced = AuditLog(base / "fsync", fsync=True)
        rows.append(
            (
                "audit+fsync",
                args.fsync_events,
                rate(args.fsync_events, lambda i: synced.append("allow", **record(i))),
            )
        )
        rotating = AuditLog(base / "rotate", max_bytes=100 * 1024, keep=3)
        rows.append(("audit+rotate", args.events, rate(args.events, lambda i: rotating.append("allow", **record(i)))))
        failures = plain.failures + synced.failures + rotating.failures
    baseline = rows[0][2]
    print(f"{'case':<14}{'events':>8}{'events/s':>12}{'vs baseline':>14}")
    for name, n, per_s in rows:
        print(f"{name:<14}{n:>8}{per_s:>12.0f}{per_s / baseline:>13.3f}x")
    print(f"write failures: {failures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
