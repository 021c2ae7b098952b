"""Audit write cost, as ratios against plain `json.dumps` + write measured in the same run.

    .venv/bin/python scripts/bench_audit.py [--events N] [--fsync-events N]

Rows:
  baseline       json.dumps(record) + "\\n" written to a file kept open (the floor)
  redact only    gateway.audit.redact.values.redact_args + summarize_result on the same record, no I/O
  audit          AuditLog.append (redaction + chain + file lock + open/append/close)
  audit+fsync    the same with fsync=True (what survives a power cut costs this much)
  audit+rotate   AuditLog.append with a small max_bytes so it rotates every ~100 lines
  queued         the gateway's path: BackgroundWriter.submit from an event loop, drained at the end
                 (batched: one lock, one write per batch); issue 13's budget ≥ 5,000 events/s
  queued+fsync   the same with fsync=True (one fsync per batch); budget ≥ 500 events/s

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

import anyio  # noqa: E402

from gateway.audit.background import BackgroundWriter  # noqa: E402
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


def queued_rate(n: int, sink: AuditLog) -> float:
    """Events/s through the background writer, from submit of the first to the last one on disk."""
    writer = BackgroundWriter(sink)

    async def produce() -> None:
        for i in range(n):
            await writer.submit("allow", record(i))
        await writer.flush()

    start = time.perf_counter()
    anyio.run(produce)
    elapsed = time.perf_counter() - start
    writer.close()
    return n / elapsed


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=3000)
    p.add_argument("--fsync-events", type=int, default=300)
    args = p.parse_args(argv)
    rows: list[tuple[str, int, float]] = []
    failures_queued: list[int] = []
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
        for name, n, fsync in (("queued", args.events, False), ("queued+fsync", args.fsync_events * 3, True)):
            sink = AuditLog(base / name, fsync=fsync)
            rows.append((name, n, queued_rate(n, sink)))
            failures_queued.append(sink.failures)
        rotating = AuditLog(base / "rotate", max_bytes=100 * 1024, keep=3)
        rows.append(("audit+rotate", args.events, rate(args.events, lambda i: rotating.append("allow", **record(i)))))
        failures = plain.failures + synced.failures + rotating.failures + sum(failures_queued)
    baseline = rows[0][2]
    print(f"{'case':<14}{'events':>8}{'events/s':>12}{'vs baseline':>14}")
    for name, n, per_s in rows:
        print(f"{name:<14}{n:>8}{per_s:>12.0f}{per_s / baseline:>13.3f}x")
    print(f"write failures: {failures}")
    per_s = dict((name, rate) for name, _, rate in rows)
    for name, budget in (("queued", 5000), ("queued+fsync", 500)):
        verdict = "meets" if per_s[name] >= budget else "MISSES"
        print(f"{name}: {per_s[name]:.0f} events/s {verdict} the issue-13 budget of {budget}/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
