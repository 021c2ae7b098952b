"""Does the gateway's memory stay flat over a long run? (issue 13: ± 5 MB over 10,000 mixed calls)

    .venv/bin/python scripts/bench_memory.py [--calls 10000] [--every 1000] [--json FILE]

`winmcp-gateway serve` runs as a stdio child in front of the simulator; one client makes a mix
of calls — Snapshot, Click citing it (probed), DisplayInventory, PowerShell `Get-Date`, a Click
refused for an unknown observation, a Type the rules refuse — and the gateway's resident set
(VmRSS, Linux `/proc`) is read every `--every` calls. Reported: RSS after the first block (the
warm-up: imports, caches, the first analyses) and at the end, and their difference. The same run
also reads the simulator's RSS, as a reference for what a process doing the same calls holds.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

import anyio
from bench_proxy import descendant_pids  # scripts/ is on sys.path when a script runs
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
MIX = 6  # calls per round below


def rss_mb(match: str, *, unless: str = "\0") -> float | None:
    """VmRSS of the first descendant whose command line contains `match` (and not `unless`)."""
    for pid in descendant_pids(os.getpid()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if match not in cmd or unless in cmd:
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            continue
    return None


async def run(calls: int, every: int) -> list[dict[str, float | int | None]]:
    with tempfile.TemporaryDirectory(prefix="bench-memory-", ignore_cleanup_errors=True) as scratch:
        return await _measure(calls, every, Path(scratch))


async def _measure(calls: int, every: int, work: Path) -> list[dict[str, float | int | None]]:
    sim = [sys.executable, "-m", "gateway.sim", "--scenario", "default"]
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gateway", "serve", "--upstream-cmd", shlex.join(sim)],
        env={**os.environ, "WINMCP_GATEWAY_STATE_DIR": str(work / "state"), "PYTHONPATH": str(ROOT)},
        cwd=str(work),
    )
    samples: list[dict[str, float | int | None]] = []
    async with Client(params, mode="legacy") as c:
        done = 0
        while done < calls:
            snap = await c.call_tool("Snapshot", {"use_vision": False})
            line = next(t.text for t in snap.content if getattr(t, "text", "").startswith("[gateway] obs="))
            obs = line.split()[1].removeprefix("obs=")
            await c.call_tool("Click", {"loc": [800, 520], "based_on": obs})
            await c.call_tool("DisplayInventory", {})
            await c.call_tool("PowerShell", {"command": "Get-Date"})
            await c.call_tool("Click", {"loc": [800, 520], "based_on": "obs-000000-unknown"})
            await c.call_tool("Type", {"text": "Remove-Item -Recurse -Force C:\\Users", "press_enter": True})
            done += MIX
            if done % every < MIX:
                samples.append(
                    {
                        "calls": done,
                        "gateway_mb": rss_mb("gateway serve"),
                        "sim_mb": rss_mb("gateway.sim", unless="serve"),
                    }
                )
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=1_000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not Path("/proc/self/status").exists():
        print("bench_memory reads /proc: Linux only", file=sys.stderr)
        return 2
    samples = anyio.run(run, args.calls, args.every)
    for s in samples:
        print(f"{s['calls']:>7} calls  gateway {s['gateway_mb']:7.1f} MB  simulator {s['sim_mb']:7.1f} MB")
    first, last = samples[0], samples[-1]
    if first["gateway_mb"] is not None and last["gateway_mb"] is not None:
        grew = float(last["gateway_mb"]) - float(first["gateway_mb"])
        verdict = "flat" if abs(grew) <= 5 else "NOT flat"
        print(f"gateway RSS from call {first['calls']} to {last['calls']}: {grew:+.1f} MB ({verdict}; budget ± 5 MB)")
    if args.json:
        args.json.write_text(json.dumps(samples, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
