"""`winmcp-gateway` — the command line (DESIGN.md §8; the interface is a contract).

    serve         run the gateway (stdio, or --http HOST:PORT) in front of an upstream
    sim           run the simulated Windows-MCP over stdio
    demo          run the whole product on the simulator and show each incident prevented
    doctor        compare the gateway's assumptions with a live upstream
    audit-report  summarise / verify the audit log
    kill          engage | release | status of the kill switch (a person's stop)
    approve/deny  answer an out-of-band approval request
    pin           show / accept changed upstream tool definitions (the rug-pull check)

Exit codes: 0 ok, 1 a check found a problem (audit-report --check, doctor), 2 usage or
config error, 3 upstream error, 4 audit error. Over stdio, stdout is protocol only: every
message of the serve command goes to stderr.
"""

from __future__ import annotations

import argparse
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
        help=f"upstream as a stdio command in one string, split by this platform's rules (Windows: "
        f'backslashes are literal, "" quotes) (default: "{DEFAULT_UPSTREAM_CMD}"); or give it after --',
    )
    g.add_argument("--upstream-url", metavar="URL", help="upstream as a streamable-HTTP URL")
    g.add_argument("--upstream", choices=["sim"], help="sim: the bundled simulated Windows-MCP")
    p.add_argument("--scenario", help="simulator scenario (with --upstream sim)")
    p.add_argument("--config", type=Path, help="TOML config file (default: $WINMCP_GATEWAY_CONFIG or the user config)")
    _add_state(p)
    # `-- COMMAND ARG…` is cut off before argparse sees it (`main`, S-UPS-21); argparse only shows it.
    p.set_defaults(upstream_argv=None)
    after = f"upstream after --, as separate arguments: {p.prog} [options] -- C:\\tools\\uvx.exe windows-mcp"
    p.epilog = f"{p.epilog}\n\n{after}" if p.epilog else after


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
    doctor.add_argument(
        "--timeout",
        type=float,
        default=30.0,  # gateway.doctor.model.DEFAULT_TIMEOUT_S (not imported: the parser stays light)
        metavar="SECONDS",
        help="the longest the upstream's start, and each check, may take (default: 30)",
    )

    report = sub.add_parser("audit-report", help="summarise or verify the audit log, or write it as an HTML page")
    report.add_argument("rest", nargs=argparse.REMAINDER)

    kill = sub.add_parser("kill", help="the kill switch (a person's stop for every gateway on this state dir)")
    kill.add_argument(
        "action",
        choices=["engage", "release", "status"],
        help="engage: stop desktop- and system-changing calls; release: lift the stop; status: say which",
    )
    kill.add_argument("--reason", default="", help="why (engage): shown to the model and recorded in the audit")
    kill.add_argument("--json", action="store_true", help="print the kill switch's state as JSON (for machines)")
    _add_state(kill)
    from gateway.cli.approvals import register as register_approvals
    from gateway.cli.completion import register as register_completion
    from gateway.cli.install import register as register_install  # each command's parser lives in its module
    from gateway.cli.paths import register as register_paths
    from gateway.cli.pin import register as register_pin

    register_paths(sub)
    register_approvals(sub)  # approvals, approve, deny
    register_pin(sub)  # pin show, pin accept (S-PIN-03)
    register_completion(sub, build_parser)
    register_install(sub, _add_upstream, upstream_spec, DEFAULT_UPSTREAM_CMD)  # serve's own upstream flags
    return parser


def _config(args: argparse.Namespace) -> GatewayConfig:
    config = load_config(environ=os.environ, config_file=getattr(args, "config", None), state_dir=args.state_dir)
    if args.command != "serve":  # serve logs them (and audits them) once it starts
        for warning in config.warnings:
            print(f"winmcp-gateway: warning: {warning}", file=sys.stderr)
    return config


def _upstream_flags(args: argparse.Namespace) -> list[tuple[str, object]]:
    return [
        ("--upstream-cmd", args.upstream_cmd),
        ("--upstream-url", args.upstream_url),
        ("--upstream", args.upstream),
    ]


def split_upstream_argv(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """Cut `-- COMMAND ARG…` off the arguments: (what argparse reads, the upstream argv or None).

    Only the first `--` counts, and what follows it is the upstream's own, even `--` or `-v`.
    """
    if "--" not in argv:
        return argv, None
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def upstream_spec(args: argparse.Namespace, *, event_log: Path | None = None) -> UpstreamSpec:
    """The upstream the flags name (default: `uvx windows-mcp`).

    `args.upstream_argv` is what followed `--` (`main` cuts it off): the command as separate
    arguments, used as they are, no splitting (S-UPS-21).

    Raises:
        ConfigError: the upstream is named twice, `--` has nothing after it, `--scenario`
            without `--upstream sim`, or an empty or (POSIX) unterminated `--upstream-cmd`.
    """
    after = getattr(args, "upstream_argv", None)
    if after is not None:
        given = [flag for flag, value in _upstream_flags(args) if value]
        if given:
            raise ConfigError(
                f"the upstream is named twice: {given[0]} and after `--`; give one of them "
                "(after `--` the command needs no quoting: serve -- C:\\tools\\uvx.exe windows-mcp)"
            )
        if not after:
            raise ConfigError("nothing after `--`: give the upstream command there, e.g. -- uvx windows-mcp")
        if args.scenario:
            raise ConfigError("--scenario only applies to --upstream sim")
        return UpstreamSpec(argv=tuple(after))
    if args.upstream_url:
        return UpstreamSpec(url=args.upstream_url)
    if args.upstream == "sim":
        extra: list[str] = ["--scenario", args.scenario] if args.scenario else []
        if event_log is not None:
            extra += ["--event-log", str(event_log)]
        return UpstreamSpec.simulator(*extra)
    if args.scenario:
        raise ConfigError("--scenario only applies to --upstream sim")
    try:
        return UpstreamSpec.command(DEFAULT_UPSTREAM_CMD if args.upstream_cmd is None else args.upstream_cmd)
    except ValueError as exc:  # empty, or an open quote (POSIX)
        raise ConfigError(f"--upstream-cmd {args.upstream_cmd!r}: {exc}") from exc


def _cmd_serve(args: argparse.Namespace) -> int:
    import time

    from gateway.app import open_gateway
    from gateway.cli.banner import print_banner
    from gateway.state.approvals import prune_at_start
    from gateway.transport.server import run_stdio

    config = _config(args)
    spec = upstream_spec(args)
    prune_at_start(config.state_dir, time.time() * 1000.0)  # S-APR-11: forget what no session can use
    print_banner(config, spec, http=args.http, mode=args.protocol)  # S-CLI-40: stderr, once
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
    from gateway.cli.kill import run_kill

    return run_kill(_config(args), args.action, reason=args.reason, as_json=args.json)


def _passthrough(command: str, rest: list[str], *, verbose: bool) -> int:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="winmcp-gateway: %(levelname)s %(name)s: %(message)s",
    )
    if command == "sim":
        from gateway.sim import main as sim_main

        return sim_main(rest, prog="winmcp-gateway sim")
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
    argv, upstream_argv = split_upstream_argv(argv)  # `serve -- C:\tools\uvx.exe windows-mcp` (S-UPS-21)
    parser = build_parser()
    args = parser.parse_args(argv)
    if upstream_argv is not None:
        if not hasattr(args, "upstream_argv"):
            parser.error(f"`--` and an upstream command go with serve, doctor or install, not {args.command}")
        args.upstream_argv = upstream_argv
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

            return run_doctor_cli(_config(args), upstream_spec(args), as_json=args.json, timeout_s=args.timeout)
        if args.command == "kill":
            return _cmd_kill(args)
        if getattr(args, "handler", None) is not None:  # paths, config, init, install, approvals, approve, …
            return int(args.handler(args))
    except GatewayError as exc:
        print(f"winmcp-gateway: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    parser.error(f"unknown command {args.command}")
    return 2  # pragma: no cover - parser.error exits


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
