"""``python -m gateway.sim``: serve the simulator over stdio until stdin closes (S-SIM-07).

stdout carries protocol messages only; every log line goes to stderr (DESIGN §11).
Environment: ``WINMCP_SIM_SCENARIO``, ``WINMCP_SIM_EVENT_LOG``, ``WINMCP_SIM_CONTROL`` stand in
for the options; ``WINDOWS_MCP_SCREENSHOT_SCALE`` and ``WINDOWS_MCP_MAX_TREE_ELEMENTS`` act as
they do on upstream.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import anyio
from mcp.server.stdio import stdio_server

from gateway.sim.scenarios.builtin import scenario_names
from gateway.sim.scenarios.files import ScenarioError
from gateway.sim.server import build_server

EXIT_USAGE = 2
PROG = "python -m gateway.sim"  # `winmcp-gateway sim` passes its own name


def build_parser(environ: Mapping[str, str], *, prog: str = PROG) -> argparse.ArgumentParser:
    """The simulator's options; `prog` is how the person started it (usage and --help show it)."""
    p = argparse.ArgumentParser(prog=prog, description="Simulated Windows-MCP 0.8.8 (stdio).")
    p.add_argument(
        "--scenario",
        default=environ.get("WINMCP_SIM_SCENARIO", "default"),
        help=f"built-in name ({', '.join(scenario_names())}) or a .json/.toml file",
    )
    p.add_argument(
        "--event-log",
        type=Path,
        default=environ.get("WINMCP_SIM_EVENT_LOG") or None,
        metavar="FILE",
        help="append every side effect (click, typed text, command …) to this JSONL file, so a test can "
        "prove what reached the simulated desktop (default: $WINMCP_SIM_EVENT_LOG; none)",
    )
    p.add_argument(
        "--control",
        type=Path,
        default=environ.get("WINMCP_SIM_CONTROL") or None,
        metavar="FILE",
        help="a JSONL file read before every call: lines appended to it change the desktop between "
        'calls, e.g. {"op": "focus", "window": TITLE} (default: $WINMCP_SIM_CONTROL; none)',
    )
    specs = "rename:T.arg=new | drop:T.arg | add:T.arg[=type] | add-tool:Name | drop-tool:Name"
    p.add_argument("--mutate-schema", action="append", default=[], metavar="SPEC", help=specs)
    p.add_argument("--real-waits", action="store_true", help="Wait/WaitFor really sleep")
    return p


_parser = build_parser  # the name tests/e2e/harness.py imports


def main(argv: list[str] | None = None, *, prog: str = PROG) -> int:
    """Parse options and serve over stdio.

    Args:
        argv: ``[--scenario NAME|FILE] [--event-log PATH] [--control PATH] [--mutate-schema SPEC ...]
            [--real-waits]`` (default ``sys.argv[1:]``).
        prog: the name usage and errors show (``winmcp-gateway sim`` from the gateway's CLI).

    Returns:
        0 when stdin closed, 2 for a usage or scenario error.
    """
    environ = dict(os.environ)
    args = build_parser(environ, prog=prog).parse_args(argv)
    try:
        server = build_server(
            args.scenario,
            event_log=args.event_log,
            control=args.control,
            mutations=tuple(args.mutate_schema),
            environ=environ,
            real_waits=args.real_waits,
        )
    except (ScenarioError, ValueError) as exc:
        print(f"winmcp-gateway: error: {exc}", file=sys.stderr)
        return EXIT_USAGE

    # stdout is the protocol channel: every log line goes to stderr (DESIGN §11)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="gateway.sim: %(levelname)s %(message)s")

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)
    return 0
