"""What the gateway costs per call, next to the pass-through proxy users would otherwise pick (issue 13).

    .venv/bin/python scripts/bench_proxy.py [--n 40] [--json FILE] [--no-fastmcp] [--upstream-cmd CMD]

One MCP client (the `mcp` SDK's, over stdio, legacy era) per target, all open at once; each
round runs every case on every target in a rotated order (A B C D, B C D A, …) so a change of
load hits all targets alike. Targets:

  direct    the client talks to the upstream itself: the baseline
  gateway   `winmcp-gateway serve` in front of it (defaults: drift probe on, audit on)
  gateway+reuse  the same with `probe_reuse_ms = 250` (S-FRESH-11): a Click right after its
            Snapshot takes the focused window from it instead of probing (off by default)
  fastmcp   a FastMCP pass-through proxy (`create_proxy` over the upstream's stdio config), the
            peer; installed into a throwaway venv this script makes (never the product's deps)
  sdk       a bare pass-through proxy on the `mcp` SDK the gateway is built on (its low-level
            Server in front of its Client, tools/list and tools/call forwarded as they are, no
            checks, no audit): the floor of any proxy built on that SDK
  relay     a raw byte relay (stdin → child → stdout, no parsing): the floor of any proxy

Cases: DisplayInventory, Snapshot text (`use_vision=false`), Snapshot with PNG, a 5,000-element
tree (the simulator's `large` scenario), and Click. The gateway's Click cites the observation
just taken (`based_on`, drift probe on); its baseline is a direct probe Snapshot plus a direct
Click in the same round. A refused Click (citing an unknown observation) is timed too: it must
not pay for a probe. Every round takes an untimed Snapshot on every target before the Clicks.

Reported per case and target: median and p95 ms, the ratio of medians to direct, the median of
per-round paired ratios, and the peak RSS (VmHWM, Linux) of every process each target started.
Also (Linux) the CPU time each target's processes spent per measured round — the proxy itself and
the upstream behind it — with the proxy's as a ratio to its own upstream's: on a shared machine the
CPU a process burns per call is steadier than wall time, which every other process's load moves.
The targets of issue 13 are printed beside the figures; the numbers are for comparing, not
promises (the machine is shared). `--json` writes everything. With `--upstream-cmd` the cases run
against that stdio upstream instead of the simulator (the large-tree case then uses it as is).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
FASTMCP = "fastmcp==4.1.6"
FASTMCP_VENV = Path(os.environ.get("WINMCP_BENCH_CACHE", Path(tempfile.gettempdir()) / "winmcp-bench")) / "fastmcp"
CLICK_AT = [800, 520]  # inside Notepad's editor in the `default` world
PROBE_REGION = [796, 516, 804, 524]  # what a direct client would have to send to check the window itself
TARGETS_OF_ISSUE = {
    "display": "gateway ≤ 1.6 × direct and ≤ 0.9 × fastmcp",
    "snapshot_text": "gateway ≤ 1.6 × direct and ≤ 0.9 × fastmcp",
    "snapshot_png": "gateway ≤ 1.10 × direct",
    "large_tree": "gateway ≤ 1.10 × direct",
    "click": "gateway ≤ 1.2 × (direct probe Snapshot + direct Click)",
}

FASTMCP_PROXY = """\
import sys
from fastmcp.server import create_proxy

argv = sys.argv[1:]
create_proxy({"mcpServers": {"upstream": {"command": argv[0], "args": argv[1:]}}}).run(
    transport="stdio", show_banner=False
)
"""

SDK_PROXY = """\
import sys

import anyio
from mcp import Client, StdioServerParameters, types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server


async def main(argv):
    async with Client(StdioServerParameters(command=argv[0], args=argv[1:]), mode="legacy") as client:

        async def list_tools(ctx, params):
            return await client.list_tools()

        async def call_tool(ctx, params: types.CallToolRequestParams):
            return await client.call_tool(params.name, params.arguments or {})

        server = Server("sdk-proxy", on_list_tools=list_tools, on_call_tool=call_tool)
        # as in the gateway: no OpenTelemetry span per message (nothing exports it)
        server.middleware[:] = [m for m in server.middleware if type(m).__name__ != "OpenTelemetryMiddleware"]
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())


anyio.run(main, sys.argv[1:])
"""

RELAY = """\
import subprocess, sys, threading

child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

def pump(src, dst):
    while chunk := src.read1(1 << 16) if hasattr(src, "read1") else src.read(1 << 16):
        dst.write(chunk)
        dst.flush()
    dst.close()

threading.Thread(target=pump, args=(sys.stdin.buffer, child.stdin), daemon=True).start()
pump(child.stdout, sys.stdout.buffer)
child.wait()
"""


def fastmcp_python() -> Path:
    """The throwaway venv with FastMCP (made once, reused from the cache dir)."""
    python = FASTMCP_VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        print(f"making a throwaway venv with {FASTMCP} in {FASTMCP_VENV} …", file=sys.stderr)
        venv.create(FASTMCP_VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", FASTMCP], check=True)
    return python


def upstream_argv(args: argparse.Namespace, scenario: str) -> list[str]:
    if args.upstream_cmd:
        return shlex.split(args.upstream_cmd)
    return [sys.executable, "-m", "gateway.sim", "--scenario", scenario]


def target_argv(target: str, upstream: list[str], work: Path, fastmcp: Path | None) -> list[str]:
    if target == "direct":
        return upstream
    if target.startswith("gateway"):
        return [sys.executable, "-m", "gateway", "serve", "--upstream-cmd", shlex.join(upstream)]
    if target == "relay":
        return [sys.executable, str(work / "relay.py"), *upstream]
    if target == "sdk":
        return [sys.executable, str(work / "sdk_proxy.py"), *upstream]
    assert fastmcp is not None
    return [str(fastmcp), str(work / "fastmcp_proxy.py"), *upstream]


def descendant_pids(pid: int) -> list[int]:
    """Every process below `pid` (Linux /proc; bench_memory.py uses it too)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            out += [int(child), *descendant_pids(int(child))]
    return out


def peak_rss_mb(work: Path) -> dict[str, float]:
    """VmHWM of every process this script started, by command (Linux; {} elsewhere). The scratch folder is left
    out of the command, so the proxy's script name stays within the first 110 characters."""
    if not Path("/proc/self/status").exists():
        return {}
    rss: dict[str, float] = {}
    for pid in descendant_pids(os.getpid()):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            cmd = cmd.replace(f"{work}{os.sep}", "")
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                rss[f"{pid} {cmd[:110]}"] = round(int(line.split()[1]) / 1024, 1)
    return rss


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of one process so far (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _target_of(pid: int) -> str | None:
    """`<target>-<scenario>` from the state dir every target's processes inherit (see `run`)."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return None
    for item in environ:
        if item.startswith(b"WINMCP_GATEWAY_STATE_DIR="):
            return Path(item.split(b"=", 1)[1].decode(errors="replace")).name.removeprefix("state-")
    return None


def cpu_snapshot() -> dict[int, tuple[str, str, float]]:
    """pid → (target-scenario, role, CPU seconds) of every process the targets started (Linux; {} elsewhere).

    The role is "proxy" for the process a client talks to and "upstream" for the one behind it; for
    `direct` the client talks to the upstream itself, so its one process is the upstream.
    """
    if not Path("/proc/self/stat").exists():
        return {}
    out: dict[int, tuple[str, str, float]] = {}
    mine = os.getpid()
    labels: dict[int, str] = {}
    for parent in [mine, *descendant_pids(mine)]:  # parents come before their children
        for pid in descendant_pids(parent):
            if pid in labels:
                continue
            # A proxy may start its upstream with a clean environment (FastMCP does): it inherits its
            # parent's label then.
            label = _target_of(pid) or labels.get(parent)
            if label is not None:
                labels[pid] = label
    direct_children = set(Path(f"/proc/{mine}/task/{mine}/children").read_text().split())
    for pid, target in labels.items():
        seconds = _cpu_seconds(pid)
        if seconds is None:
            continue
        role = "proxy" if str(pid) in direct_children and not target.startswith("direct-") else "upstream"
        out[pid] = (target, role, seconds)
    return out


def cpu_per_round_ms(
    before: dict[int, tuple[str, str, float]], after: dict[int, tuple[str, str, float]], rounds: int
) -> dict[str, dict[str, float]]:
    """CPU ms per measured round by target and scenario ("gateway-default", …) and role. A round makes the
    default scenario's calls (DisplayInventory, Snapshot text and PNG, a Snapshot, the Clicks) on one pair
    of processes and the large tree's one Snapshot on the other."""
    out: dict[str, dict[str, float]] = {}
    for pid, (name, role, seconds) in after.items():
        if pid not in before or rounds <= 0:
            continue
        spent = (seconds - before[pid][2]) * 1000 / rounds
        out.setdefault(name, {}).setdefault(role, 0.0)
        out[name][role] = round(out[name][role] + spent, 3)
    return out


def _obs_id(result: Any) -> str:
    for item in result.content:
        text = getattr(item, "text", "")
        if text.startswith("[gateway] obs="):
            return str(text.split()[1].removeprefix("obs="))
    raise SystemExit("the gateway's Snapshot carried no annotation line")


def _check(result: Any, what: str, *, refused: bool = False) -> None:
    if bool(result.is_error) != refused:
        text = result.content[0].text if result.content else ""
        raise SystemExit(f"{what}: unexpected {'success' if refused else 'error'}: {text[:300]}")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-proxy-", ignore_cleanup_errors=True) as scratch:
        return await _measure(args, Path(scratch))


async def _measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    (work / "relay.py").write_text(RELAY)
    (work / "fastmcp_proxy.py").write_text(FASTMCP_PROXY)
    (work / "sdk_proxy.py").write_text(SDK_PROXY)
    fastmcp = None if args.no_fastmcp else fastmcp_python()
    targets = ["direct", "gateway", "gateway+reuse", "sdk", "relay"] + ([] if args.no_fastmcp else ["fastmcp"])
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FASTMCP_LOG_LEVEL": "WARNING"}
    samples: dict[tuple[str, str], list[float]] = {}

    def keep(case: str, target: str, ms: float) -> None:
        samples.setdefault((case, target), []).append(ms)

    async def timed(client: Client, tool: str, arguments: dict[str, Any]) -> tuple[float, Any]:
        start = time.perf_counter()
        result = await client.call_tool(tool, arguments)
        return (time.perf_counter() - start) * 1000, result

    async with AsyncExitStack() as stack:
        clients: dict[tuple[str, str], Client] = {}
        for scenario in ("default", "large"):
            for target in targets:
                argv = target_argv(target, upstream_argv(args, scenario), work, fastmcp)
                own = {**env, "WINMCP_GATEWAY_STATE_DIR": str(work / f"state-{target}-{scenario}")}
                if target == "gateway+reuse":
                    own["WINMCP_GATEWAY_PROBE_REUSE_MS"] = "250"
                params = StdioServerParameters(command=argv[0], args=argv[1:], env=own, cwd=str(work))
                clients[scenario, target] = await stack.enter_async_context(Client(params, mode="legacy"))

        async def one_round(target: str, record: Callable[[str, str, float], None]) -> None:
            c = clients["default", target]
            for case, tool, arguments in (
                ("display", "DisplayInventory", {}),
                ("snapshot_text", "Snapshot", {"use_vision": False}),
                ("snapshot_png", "Snapshot", {"use_vision": True}),
            ):
                ms, result = await timed(c, tool, arguments)
                _check(result, f"{target} {case}")
                record(case, target, ms)
            ms, result = await timed(clients["large", target], "Snapshot", {"use_vision": False})
            _check(result, f"{target} large_tree")
            record("large_tree", target, ms)
            basis = await c.call_tool("Snapshot", {"use_vision": False})  # untimed, on every target
            if target.startswith("gateway"):
                obs = _obs_id(basis)
                ms, result = await timed(c, "Click", {"loc": CLICK_AT, "based_on": obs})
                _check(result, f"{target} click")
                record("click", target, ms)
                ms, result = await timed(c, "Click", {"loc": CLICK_AT, "based_on": "obs-000000-unknown"})
                _check(result, f"{target} refused click", refused=True)
                record("click_refused", target, ms)
            else:
                ms, result = await timed(c, "Click", {"loc": CLICK_AT})
                _check(result, f"{target} click")
                record("click", target, ms)
                if target == "direct":
                    probe_ms, result = await timed(c, "Snapshot", {"use_vision": False, "region": PROBE_REGION})
                    _check(result, "direct probe")
                    record("probe_plus_click", target, probe_ms + ms)

        for _ in range(args.warmup):
            for target in targets:
                await one_round(target, lambda *_: None)
        cpu_before = cpu_snapshot()
        for i in range(args.n):
            order = targets[i % len(targets) :] + targets[: i % len(targets)]
            for target in order:
                await one_round(target, keep)
        cpu = cpu_per_round_ms(cpu_before, cpu_snapshot(), args.n)
        rss = peak_rss_mb(work)
    return {
        "samples": {f"{c}|{t}": v for (c, t), v in samples.items()},
        "rss_mb": rss,
        "cpu_ms_per_round": cpu,
        "targets": targets,
    }


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    samples = {tuple(k.split("|")): v for k, v in raw["samples"].items()}
    out: dict[str, Any] = {}
    for case in ("display", "snapshot_text", "snapshot_png", "large_tree", "click", "click_refused"):
        base_key = ("probe_plus_click", "direct") if case in ("click", "click_refused") else (case, "direct")
        base = samples[base_key]
        rows = {}
        for target in raw["targets"]:
            s = samples.get((case, target))
            if not s:
                continue
            paired = [a / b for a, b in zip(s, base, strict=False)]
            rows[target] = {
                "median_ms": round(statistics.median(s), 3),
                "p95_ms": round(statistics.quantiles(s, n=20)[-1], 3),
                "ratio": round(statistics.median(s) / statistics.median(base), 3),
                "paired_ratio": round(statistics.median(paired), 3),
            }
        if case in ("click", "click_refused"):
            rows["direct probe+click"] = {
                "median_ms": round(statistics.median(base), 3),
                "p95_ms": round(statistics.quantiles(base, n=20)[-1], 3),
                "ratio": 1.0,
                "paired_ratio": 1.0,
            }
        out[case] = rows
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=40, help="measured rounds (default 40)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write samples and summary here")
    parser.add_argument("--no-fastmcp", action="store_true", help="leave out the FastMCP peer (no venv made)")
    parser.add_argument("--upstream-cmd", help="a stdio upstream to measure instead of the simulator")
    args = parser.parse_args()
    raw = anyio.run(run, args)
    summary = summarise(raw)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench_proxy: {args.n} rounds, load average {load:.2f}; ratios are to direct in the same run")
    print(f"{'case':16} {'target':18} {'median ms':>10} {'p95 ms':>8} {'× direct':>9} {'paired':>7}")
    for case, rows in summary.items():
        for target, row in rows.items():
            print(
                f"{case:16} {target:18} {row['median_ms']:10.2f} {row['p95_ms']:8.2f} "
                f"{row['ratio']:9.2f} {row['paired_ratio']:7.2f}"
            )
        gw, peer, sdk = rows.get("gateway"), rows.get("fastmcp"), rows.get("sdk")
        vs_peer = f"; gateway / fastmcp = {gw['median_ms'] / peer['median_ms']:.2f}" if gw and peer else ""
        vs_peer += f"; gateway / bare sdk = {gw['median_ms'] / sdk['median_ms']:.2f}" if gw and sdk else ""
        print(f"{'':16} target: {TARGETS_OF_ISSUE.get(case, 'must not probe')}{vs_peer}")
    if raw["cpu_ms_per_round"]:
        print("CPU ms per measured round (the proxy's own, and its upstream's):")
        for target, roles in sorted(raw["cpu_ms_per_round"].items()):
            proxy, upstream = roles.get("proxy"), roles.get("upstream", 0.0)
            ratio = f"  proxy / its upstream = {proxy / upstream:.2f}" if proxy is not None and upstream else ""
            shown = "-" if proxy is None else f"{proxy:8.2f}"
            print(f"  {target:22} proxy {shown:>8}  upstream {upstream:8.2f}{ratio}")
    print("peak RSS (MB):")
    for proc, mb in sorted(raw["rss_mb"].items(), key=lambda kv: kv[0].split(" ", 1)[1]):
        print(f"  {mb:7.1f}  {proc}")
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, **raw}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
