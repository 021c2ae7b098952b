"""The official MCP conformance suite, direct and through the gateway, in both protocol eras (issue 14).

    .venv/bin/python scripts/conformance.py [--tools .tools/conformance] [--json FILE] [--era ERA ...]
                                            [--upstream everything|python|both]

Each upstream runs twice side by side in one run, served directly and behind the gateway:

  everything  the official everything server from npm (predates 2026-07-28: most of that era's
              scenarios fail against it directly and so prove nothing through the gateway)
      direct   `mcp-server-everything streamableHttp`
      gateway  `winmcp-gateway serve --http … --no-auth --upstream-cmd "<node> <everything> stdio"`
  python      `tests/e2e/conformance_upstream.py`, an `mcp` SDK server implementing the `test_*`
              tools, resources and prompts the suite's scenarios call, both eras
      direct   `conformance_upstream.py http PORT`
      gateway  `winmcp-gateway serve … --protocol auto --upstream-cmd "<python> conformance_upstream.py stdio"`
               (the gateway speaks 2026-07-28 to it: the upstream's own input rounds reach the
               gateway as InputRequiredResults tied to the call that caused them)

For each era (`--spec-version 2025-11-25` and `2026-07-28`) the suite runs `--suite all` against
each. Every check is keyed by (scenario, check id, occurrence) and ranked SUCCESS > WARNING >
FAILURE (INFO and other statuses are not checks). A check is a REGRESSION when the gateway ranks
it lower than the direct server (or lacks a check the direct server passed or warned on). What
fails directly is reported, never counted against the gateway. P/T counts like the suite's own
summary: P = SUCCESS, T = SUCCESS + FAILURE (warnings are listed apart).

Exit status: 0 no regression, 1 a regression, 2 the suite or a server could not be installed or
started (never a skip: `scripts/test` installs the pinned packages into `.tools/conformance`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The exact versions scripts/test installs (npm --save-exact); a mismatch is an install error.
PINS = {
    "@modelcontextprotocol/conformance": "0.2.0-alpha.12",
    "@modelcontextprotocol/server-everything": "2026.8.31",
    "node": "22.23.3",
}
ERAS = ("2025-11-25", "2026-07-28")
UPSTREAMS = ("everything", "python")
PYTHON_UPSTREAM = ROOT / "tests" / "e2e" / "conformance_upstream.py"
RANK = {"SUCCESS": 2, "WARNING": 1, "FAILURE": 0}
_STAMP = re.compile(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$")
START_TIMEOUT_S = 60.0


class SetupError(Exception):
    """The suite, node or a server is missing or would not start."""


def installed(tools: Path) -> dict[str, Path]:
    """The node binary, the suite's and the everything server's entry points, checked against `PINS`."""
    modules = tools / "node_modules"
    for package, version in PINS.items():
        manifest = modules / package / "package.json"
        if not manifest.is_file():
            raise SetupError(f"{package} is not installed in {tools} (run scripts/test, it installs {version})")
        found = json.loads(manifest.read_text(encoding="utf-8")).get("version")
        if found != version:
            raise SetupError(f"{package} {found} is installed in {tools}; the pinned version is {version}")
    node = modules / ".bin" / "node"
    paths = {
        "node": node,
        "suite": modules / "@modelcontextprotocol/conformance/dist/index.js",
        "everything": modules / "@modelcontextprotocol/server-everything/dist/index.js",
    }
    for what, path in paths.items():
        if not path.exists():
            raise SetupError(f"{what} missing: {path}")
    return paths


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SetupError(f"server exited with {proc.returncode}: {log.read_text(errors='replace')[-2000:]}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SetupError(f"nothing listened on port {port} within {START_TIMEOUT_S:.0f} s: {log}")


@contextmanager
def started(argv: list[str], port: int, log: Path, env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        wait_for_port(port, proc, log)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def read_checks(out_dir: Path) -> dict[tuple[str, str, int], str]:
    """Every ranked check of one suite run, keyed by (scenario, check id, occurrence)."""
    checks: dict[tuple[str, str, int], str] = {}
    for file in sorted(out_dir.glob("*/checks.json")):
        scenario = _STAMP.sub("", file.parent.name).removeprefix("server-")
        seen: dict[str, int] = {}
        for check in json.loads(file.read_text(encoding="utf-8")):
            status = str(check.get("status"))
            if status not in RANK:
                continue
            cid = str(check.get("id"))
            seen[cid] = seen.get(cid, 0) + 1
            checks[(scenario, cid, seen[cid])] = status
    return checks


def run_suite(paths: dict[str, Path], url: str, era: str, out_dir: Path, log: Path) -> dict[tuple[str, str, int], str]:
    argv = [str(paths["node"]), str(paths["suite"]), "server", "--url", url, "--suite", "all"]
    argv += ["--spec-version", era, "-o", str(out_dir)]
    with log.open("wb") as out:
        subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, timeout=900, check=False)
    checks = read_checks(out_dir)
    if not checks:
        raise SetupError(f"the suite produced no checks against {url} ({era}): {log}")
    return checks


def tally(checks: dict[tuple[str, str, int], str]) -> dict[str, int]:
    passed = sum(1 for s in checks.values() if s == "SUCCESS")
    failed = sum(1 for s in checks.values() if s == "FAILURE")
    warned = sum(1 for s in checks.values() if s == "WARNING")
    return {"passed": passed, "total": passed + failed, "warnings": warned}


def compare(direct: dict[tuple[str, str, int], str], gateway: dict[tuple[str, str, int], str]) -> list[dict[str, Any]]:
    """The checks the gateway ranks below the direct server (module docstring)."""
    worse = []
    for key, status in sorted(direct.items()):
        if status == "FAILURE":
            continue
        through = gateway.get(key, "MISSING")
        if RANK.get(through, -1) < RANK[status]:
            worse.append(
                {"scenario": key[0], "check": key[1], "occurrence": key[2], "direct": status, "gateway": through}
            )
    return worse


def servers(paths: dict[str, Path], upstream: str, direct_port: int) -> tuple[list[str], str, dict[str, str]]:
    """The direct server's argv, the gateway's `--upstream-cmd` and the direct server's extra env."""
    if upstream == "python":
        script = str(PYTHON_UPSTREAM)
        return [sys.executable, script, "http", str(direct_port)], shlex.join([sys.executable, script, "stdio"]), {}
    everything = [str(paths["node"]), str(paths["everything"])]
    return [*everything, "streamableHttp"], shlex.join([*everything, "stdio"]), {"PORT": str(direct_port)}


def measure(paths: dict[str, Path], eras: tuple[str, ...], work: Path, upstream: str = "everything") -> dict[str, Any]:
    """One upstream, served directly and through the gateway, in every era of `eras`."""
    direct_port, gateway_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WINMCP_GATEWAY_")}
    env["PATH"] = f"{paths['node'].parent}{os.pathsep}{env.get('PATH', '')}"
    work = work / upstream
    state, config = work / "state", work / "gateway.toml"
    state.mkdir(parents=True)
    # The conformance servers' tools are not Windows-MCP's: the policy would refuse every one as
    # UNKNOWN_TOOL. Allowing unknown tools lets the suite measure the protocol, not the policy.
    config.write_text('unknown_tools = "allow"\n', encoding="utf-8")
    direct_argv, upstream_cmd, direct_env = servers(paths, upstream, direct_port)
    gateway_argv = [sys.executable, "-m", "gateway", "serve", "--http", f"127.0.0.1:{gateway_port}", "--no-auth"]
    gateway_argv += ["--config", str(config), "--state-dir", str(state), "--upstream-cmd", upstream_cmd]
    if upstream == "python":
        gateway_argv += ["--protocol", "auto"]
    report: dict[str, Any] = {"eras": {}}
    with (
        started(direct_argv, direct_port, work / "direct.log", {**env, **direct_env}),
        started(gateway_argv, gateway_port, work / "gateway.log", env),
    ):
        for era in eras:
            runs = {}
            for target, port in (("direct", direct_port), ("gateway", gateway_port)):
                out_dir = work / f"{target}-{era}"
                runs[target] = run_suite(
                    paths, f"http://127.0.0.1:{port}/mcp", era, out_dir, work / f"{out_dir.name}.log"
                )
            report["eras"][era] = {
                "direct": tally(runs["direct"]),
                "gateway": tally(runs["gateway"]),
                "regressions": compare(runs["direct"], runs["gateway"]),
                "failing_directly": sorted(f"{s}/{c}" for (s, c, _), v in runs["direct"].items() if v == "FAILURE"),
                "failing_through_gateway": sorted(
                    f"{s}/{c}" for (s, c, _), v in runs["gateway"].items() if v == "FAILURE"
                ),
                "gateway_only_passes": sorted(
                    f"{s}/{c}"
                    for (s, c, n), v in runs["gateway"].items()
                    if v == "SUCCESS" and runs["direct"].get((s, c, n)) != "SUCCESS"
                ),
            }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", type=Path, default=ROOT / ".tools" / "conformance", help="npm prefix of the pins")
    parser.add_argument("--json", type=Path, help="write the whole report here")
    parser.add_argument("--era", action="append", choices=ERAS, help="one era only (repeatable; default both)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, checks.json)")
    parser.add_argument(
        "--upstream", choices=(*UPSTREAMS, "both"), default="both", help="which upstream to measure (default both)"
    )
    args = parser.parse_args(argv)
    eras = tuple(args.era or ERAS)
    upstreams = UPSTREAMS if args.upstream == "both" else (args.upstream,)
    try:
        paths = installed(args.tools)
        work = Path(tempfile.mkdtemp(prefix="winmcp-conformance-"))
        report: dict[str, Any] = {"pins": PINS, "upstreams": {}}
        for upstream in upstreams:
            report["upstreams"][upstream] = measure(paths, eras, work, upstream)
    except (SetupError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"conformance: cannot run the suite: {exc}", file=sys.stderr)
        return 2
    report["work_dir"] = str(work) if args.keep else None
    if args.json:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    regressions = 0
    for upstream, era, figures in (
        (u, e, f) for u, measured in report["upstreams"].items() for e, f in measured["eras"].items()
    ):
        d, g = figures["direct"], figures["gateway"]
        print(
            f"{upstream} {era}: direct {d['passed']}/{d['total']} ({d['warnings']} warnings), "
            f"gateway {g['passed']}/{g['total']} ({g['warnings']} warnings), "
            f"{len(figures['regressions'])} regressions, {len(figures['failing_directly'])} fail directly"
        )
        for item in figures["regressions"]:
            print(
                f"  REGRESSION {item['scenario']}/{item['check']}: direct {item['direct']}, gateway {item['gateway']}"
            )
        regressions += len(figures["regressions"])
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if regressions else 0


if __name__ == "__main__":
    raise SystemExit(main())
