"""`winmcp-gateway` — the command line (DESIGN.md §8; the interface is a contract).

    serve         run the gateway (stdio, or --http HOST:PORT) in front of an upstream
    sim           run the simulated Windows-MCP over stdio
    demo          run the whole product on the simulator and show each incident prevented
    doctor        compare the gateway's assumptions with a live upstream
    audit-report  summarise / verify the audit log
    kill          engage | release | status of the kill switch (a person's stop)
    approve/deny  answer an out-of-band approval request

Exit codes: 0 ok, 1 a check found a problem (audit-report --check, doctor), 2 usage or
config error, 3 upstream error, 4 audit error. Over stdio, stdout is protocol only: every
message of the serve command goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from gateway import __version__
from gateway.config.load import GatewayConfig, load_config
from gateway.errors import ConfigError, GatewayError
from gateway.upstream.supervisor import UpstreamSpec

DEFAULT_UPSTREAM_CMD = "uvx windows-mcp"


def _add_state(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--state-dir", type=Path, help="state dir (default: $WINMCP_GATEWAY_STATE_DIR or the user state dir)"
    )


def _add_upstream(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--upstream-cmd",
        metavar="CMD",
        help=f'upstream as a stdio command (default: "{DEFAULT_UPSTREAM_CMD}")',
    )
    g.add_argument("--upstream-url", metavar="URL", help="upstream as a streamable-HTTP URL")
    g.add_argument("--upstream", choices=["sim"], help="sim: the bundled simulated Windows-MCP")
    p.add_argument("--scenario", help="simulator scenario (with --upstream sim)")
    p.add_argument("--config", type=Path, help="TOML config file (default: $WINMCP_GATEWAY_CONFIG or the user config)")
    _add_state(p)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="winmcp-gateway", description="Safety gateway in front of Windows-MCP.")
    parser.add_argument("--version", action="version", version=f"winmcp-gateway {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log more (to stderr)")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the gateway")
    _add_upstream(serve)
    serve.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP instead of stdio")
    serve.add_argument(
        "--protocol",
        choices=["legacy", "auto"],
        default="legacy",
        help="how to talk to the upstream (legacy = initialize handshake)",
    )
    serve.add_argument(
        "--token",
        help="HTTP bearer token (default: $WINMCP_GATEWAY_TOKEN, else the state dir "
        "file http-token, generated on first use)",
    )
    serve.add_argument("--no-auth", action="store_true", help="serve HTTP without a token (loopback only)")
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME[:PORT]",
        help="another Host header value HTTP clients use (repeatable)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another Origin allowed to call the HTTP gateway (repeatable)",
    )

    sim = sub.add_parser("sim", help="run the simulated Windows-MCP over stdio")
    sim.add_argument("rest", nargs=argparse.REMAINDER, help="simulator options (--scenario NAME, --event-log F …)")

    demo = sub.add_parser("demo", help="run the product on the simulator and show each incident prevented")
    demo.add_argument("--keep", action="store_true", help="keep the demo's state dir and print where it is")

    doctor = sub.add_parser("doctor", help="self-check against a live upstream")
    _add_upstream(doctor)
    doctor.add_argument("--json", action="store_true", help="machine-readable output")

    report = sub.add_parser("audit-report", help="summarise or verify the audit log")
    report.add_argument("rest", nargs=argparse.REMAINDER)

    kill = sub.add_parser("kill", help="the kill switch")
    kill.add_argument("action", choices=["engage", "release", "status"])
    kill.add_argument("--reason", default="")
    _add_state(kill)

    for verb in ("approve", "deny"):
        ap = sub.add_parser(verb, help=f"{verb} an approval request")
        ap.add_argument("approval_id")
        if verb == "approve":
            ap.add_argument(
                "--session",
                action="store_true",
                help="also allow identical calls for the rest of that client session",
            )
        ap.add_argument("--yes", action="store_true", help="do not ask for confirmation")
        _add_state(ap)
    return parser


def _config(args: argparse.Namespace) -> GatewayConfig:
    config = load_config(environ=os.environ, config_file=getattr(args, "config", None), state_dir=args.state_dir)
    if args.command != "serve":  # serve logs them (and audits them) once it starts
        for warning in config.warnings:
            print(f"winmcp-gateway: warning: {warning}", file=sys.stderr)
    return config


def upstream_spec(args: argparse.Namespace, *, event_log: Path | None = None) -> UpstreamSpec:
    """The upstream the flags name (default: `uvx windows-mcp`)."""
    if args.upstream_url:
        return UpstreamSpec(url=args.upstream_url)
    if args.upstream == "sim":
        extra: list[str] = ["--scenario", args.scenario] if args.scenario else []
        if event_log is not None:
            extra += ["--event-log", str(event_log)]
        return UpstreamSpec.simulator(*extra)
    if args.scenario:
        raise ConfigError("--scenario only applies to --upstream sim")
    return UpstreamSpec.command(args.upstream_cmd or DEFAULT_UPSTREAM_CMD)


def _cmd_serve(args: argparse.Namespace) -> int:
    import time

    from gateway.app import open_gateway
    from gateway.state.approvals import prune_at_start
    from gateway.transport.server import run_stdio

    config = _config(args)
    spec = upstream_spec(args)
    prune_at_start(config.state_dir, time.time() * 1000.0)  # S-APR-11: forget what no session can use
    if args.http:
        from gateway.transport.http import run_http

        return run_http(
            config,
            spec,
            args.http,
            mode=args.protocol,
            token=args.token,
            no_auth=args.no_auth,
            allow_hosts=tuple(args.allow_host),
            allow_origins=tuple(args.allow_origin),
        )
    run_stdio(lambda: open_gateway(config, spec, mode=args.protocol))
    return 0


def _cmd_kill(args: argparse.Namespace) -> int:
    from gateway.audit.writer import AuditLog
    from gateway.state.store import KillSwitch

    config = _config(args)
    switch = KillSwitch(config.state_dir)
    audit = AuditLog(
        config.state_dir, max_bytes=config.audit_max_bytes, keep=config.audit_keep, enabled=config.auto_audit
    )
    if args.action != "status":
        before = switch.status()
        audit.append(
            "kill",
            tool="winmcp-gateway kill",
            by="person",
            reason=f"{args.action} from the command line" + (f": {args.reason}" if args.reason else ""),
            was_engaged=before.engaged,
        )
    if args.action == "engage":
        status = switch.engage(by="person", reason=args.reason or "engaged from the command line")
        print(f"kill switch ENGAGED by {status.by} at {status.since}: {status.reason}")
        print(
            f"every gateway using {config.state_dir} now refuses desktop- and system-changing calls;"
            " observation keeps working. Release: winmcp-gateway kill release"
        )
    elif args.action == "release":
        _, status = switch.release(by="person")
        print("kill switch released" if not status.engaged else "kill switch still engaged")
    else:
        status = switch.status()
        print(json.dumps(status.as_dict()))
    return 0


def _passthrough(command: str, rest: list[str], *, verbose: bool) -> int:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="winmcp-gateway: %(levelname)s %(name)s: %(message)s",
    )
    if command == "sim":
        from gateway.sim import main as sim_main

        return sim_main(rest)
    from gateway.audit.report import main as report_main
    from gateway.config.keys import ENV_STATE_DIR
    from gateway.config.load import default_state_dir

    state = os.environ.get(ENV_STATE_DIR)
    return report_main(rest, default_state_dir=Path(state) if state else default_state_dir())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `winmcp-gateway`; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # `sim` and `audit-report` own their options; argparse's REMAINDER would drop leading --flags.
    passthrough = next((i for i, a in enumerate(argv) if not a.startswith("-")), None)
    if passthrough is not None and argv[passthrough] in ("sim", "audit-report"):
        return _passthrough(argv[passthrough], argv[passthrough + 1 :], verbose="-v" in argv[:passthrough])
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="winmcp-gateway: %(levelname)s %(name)s: %(message)s",
    )
    try:
        if args.command == "serve":
            return _cmd_serve(args)
        if args.command == "demo":
            from gateway.cli.demo import run_demo

            return run_demo(keep=args.keep)
        if args.command == "doctor":
            from gateway.doctor.run import run_doctor_cli

            return run_doctor_cli(_config(args), upstream_spec(args), as_json=args.json)
        if args.command == "kill":
            return _cmd_kill(args)
        if args.command in ("approve", "deny"):
            from gateway.state.approvals import answer_cli

            return answer_cli(
                _config(args),
                args.approval_id,
                approve=args.command == "approve",
                session_scope=getattr(args, "session", False),
                assume_yes=args.yes,
            )
    except GatewayError as exc:
        print(f"winmcp-gateway: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    parser.error(f"unknown command {args.command}")
    return 2  # pragma: no cover - parser.error exits


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
