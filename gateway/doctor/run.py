"""`winmcp_doctor` and `winmcp-gateway doctor`: compare the gateway's assumptions with the live upstream.

DESIGN.md §7. One report, nine checks, always in this order (S-DOC-01):

    upstream             reachable? protocol version known?                 (doctor_checks)
    schema.read_args     every argument the catalog, rules and probe use exists upstream  (doctor_schema)
    schema.unknown_args  no unknown argument on a gated tool
    schema.tools         no upstream tool the catalog does not know
    pins                 upstream's tool definitions are the pinned ones   (doctor/pins.py)
    mapping              the latest observation's image ⇄ screen mapping is consistent
    rules                command rules loaded (or why not), exemptions
    config               config warnings, explicitly weakened checks
    private              the effective private_windows patterns, odd ones   (doctor/checks_private.py)
    audit                state dir writable, hash chain intact, write failures
    kill                 kill switch state

Verdicts OK / WARNING / UNKNOWN / SEVERE; UNKNOWN = could not check, never OK. The tool
reads the running gateway (its latest observation with an image, from any session); the
CLI starts its own upstream, takes one read-only Screenshot for the mapping check, and
closes it. Neither writes an audit line. The JSON shape is in `gateway.doctor.model`.
Exit code of the CLI: 0 when nothing is SEVERE or UNKNOWN, else 1.

The CLI prints each check the moment it is made (the text; `--json` prints the whole report at
the end), bounds the upstream's start and every check by `--timeout` (default
`DEFAULT_TIMEOUT_S`; what runs out is SEVERE or UNKNOWN, never a long silence), and names the
root cause of an upstream that does not start: the first real exception inside the exception
groups, and the last lines the upstream printed on stderr (S-DOC-20 … S-DOC-22).
"""

from __future__ import annotations

import functools
import json
import math
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO, TypeAlias

import anyio
import anyio.to_thread

from gateway.app import GatewayApp
from gateway.config.load import GatewayConfig
from gateway.doctor.checks import (
    check_audit,
    check_config,
    check_kill,
    check_mapping,
    check_rules,
    check_upstream,
)
from gateway.doctor.checks_files import check_files
from gateway.doctor.checks_private import check_private
from gateway.doctor.model import DEFAULT_TIMEOUT_S, Check, Report, render_check, render_footer, render_header
from gateway.doctor.pins import TITLE as PINS_TITLE
from gateway.doctor.pins import check_pins
from gateway.doctor.schema import compare_schema, schema_unknown
from gateway.errors import ConfigError
from gateway.observe.coords import derive_mapping
from gateway.observe.parse import CaptureFailure, parse_result
from gateway.tools import structured
from gateway.upstream.causes import describe_cause
from gateway.upstream.client import Upstream
from gateway.upstream.seams import UpstreamConnection
from gateway.upstream.supervisor import UpstreamSpec, tail_of

# The CLI's capture for the mapping check: Screenshot walks no UI tree, so it is cheap on a
# real desktop, and it is read-only (an observation tool). Snapshot is the fallback.
CAPTURE_CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Screenshot", {}),
    ("Snapshot", {"use_vision": True, "use_ui_tree": False}),
)


def _server(upstream: UpstreamConnection) -> tuple[str | None, str | None, str | None]:
    """("name version", name, version) from the initialize result's serverInfo (None while down)."""
    info = upstream.server_info
    if info is None:
        return None, None, None
    return f"{info.name} {info.version}".strip(), info.name, info.version


# Where a check goes the moment it is made (the CLI prints it; the tool collects them).
CheckSink: TypeAlias = Callable[[Check], None]
# How the mapping check is made, once the upstream's tool names are known (None: it listed none).
MappingSource: TypeAlias = Callable[[list[str] | None], Awaitable[Check]]


def _why_unreachable(upstream: UpstreamConnection, exc: BaseException) -> str:
    # The root cause, not the exception group around it (S-DOC-20). `Upstream` keeps the first
    # real exception of a failed start; another connection (a test's) may not have one.
    if upstream.alive or getattr(upstream, "connects", 1) != 0:
        return describe_cause(exc)
    start_error = getattr(upstream, "start_error", None)
    if isinstance(start_error, BaseException):
        return f"it did not start: {describe_cause(start_error)}"
    wait = getattr(upstream, "connect_timeout_s", None)
    if isinstance(wait, int | float):
        return (
            f"it did not finish starting (the MCP initialize handshake) within {wait:g} s; "
            "a first `uvx` download of Windows-MCP can take longer (`winmcp-gateway doctor --timeout 120`)"
        )
    return describe_cause(exc)


async def _within(timeout_s: float | None, work: Callable[[], Awaitable[Check]], late: Callable[[], Check]) -> Check:
    """`work()`, or `late()` when it takes longer than `timeout_s` (None: no bound)."""
    if timeout_s is None:
        return await work()
    with anyio.move_on_after(timeout_s):
        return await work()
    return late()


async def build_report(
    app: GatewayApp,
    mapping: Check | MappingSource,
    *,
    timeout_s: float | None = None,
    on_check: CheckSink | None = None,
) -> Report:
    """Run every check against `app`, in report order, handing each to `on_check` as it is made.

    Args:
        app: the gateway (its upstream, config, rules, audit and kill switch are read).
        mapping: the `mapping` check, or how to make it from the upstream's tool names (the
            tool and the CLI find their observation differently).
        timeout_s: the longest tools/list and each check may take; one that takes longer is
            UNKNOWN (S-DOC-22). None: no bound beyond the upstream's own timeouts.
        on_check: called with each check the moment it is made (S-DOC-21: the CLI streams).

    Returns:
        The report.
    """
    emit = on_check or (lambda _check: None)
    upstream = app.upstream
    describe = upstream.spec.describe()
    tools: list[dict[str, Any]] | None = None
    error: str | None = None
    stderr_tail = ""
    try:
        if timeout_s is None:
            tools = await upstream.list_tools()
        else:
            with anyio.fail_after(timeout_s):
                tools = await upstream.list_tools()
    except TimeoutError:
        error = f"no answer to tools/list within {timeout_s:g} s (--timeout)"
        stderr_tail = tail_of(getattr(upstream, "stderr_path", None))
    except Exception as exc:  # noqa: BLE001 - an unreachable upstream is a finding, not a crash
        error = _why_unreachable(upstream, exc)
        stderr_tail = getattr(exc, "stderr_tail", "") or tail_of(getattr(upstream, "stderr_path", None))
    server, name, version = _server(upstream)  # known once the handshake is done, even if tools/list failed
    if error is not None and server is not None:
        error = f"{server} answered the handshake, but {error}"
    checks: list[Check] = []

    def done(*made: Check) -> None:
        for check in made:
            checks.append(check)
            emit(check)

    done(
        check_upstream(
            describe,
            tool_count=None if tools is None else len(tools),
            error=error,
            protocol=upstream.protocol_version if tools is not None else None,
            server=server,
            name=name,
            version=version,
            stderr_tail=stderr_tail,
        )
    )
    rule_set, rules_error = app.rules()
    if tools is None:
        done(*schema_unknown("the upstream's tools/list could not be read"))
    else:
        done(*compare_schema(tools, rule_set, unknown_tools=app.config.unknown_tools))
    if tools is None:
        done(Check.unknown("pins", PINS_TITLE, "not checked: the upstream's tools/list could not be read"))
    else:
        gate, recorded = await anyio.to_thread.run_sync(app.pins.record, tools)  # S-PIN-05
        done(check_pins(recorded, gate, pin_file=str(app.pins.store.path)))
    if isinstance(mapping, Check):
        done(mapping)
    else:
        names = None if tools is None else [str(t.get("name")) for t in tools]
        source = mapping
        done(
            await _within(
                timeout_s,
                lambda: source(names),
                lambda: check_mapping(f"the doctor's capture did not finish within {timeout_s:g} s", None, None),
            )
        )
    done(check_rules(app.config, rule_set, rules_error), check_config(app.config), check_private(app.config))

    async def audit() -> Check:
        await app.audit_flush()  # verify the chain with every line handed in so far
        return await anyio.to_thread.run_sync(check_audit, app.config, app.audit.stats(), abandon_on_cancel=True)

    done(
        await _within(
            timeout_s,
            audit,
            lambda: Check.unknown("audit", "audit log", f"not checked: reading the chain took over {timeout_s:g} s"),
        )
    )
    done(check_kill(app.kill.status()))

    async def files() -> Check:  # S-WIN-06: icacls may run
        return await anyio.to_thread.run_sync(check_files, app.config.state_dir, abandon_on_cancel=True)

    done(
        await _within(
            timeout_s,
            files,
            lambda: Check.unknown("files", "who can read the state files", f"not checked: took over {timeout_s:g} s"),
        )
    )
    return Report(upstream=describe, checks=tuple(checks))


def _latest_mapping(app: GatewayApp) -> Check:
    latest = [o for s in app.store.sessions() if (o := app.store.latest_with_image(s)) is not None]
    obs = max(latest, key=lambda o: o.taken_at_ms, default=None)
    if obs is None:
        return check_mapping(
            "no observation with an image yet: take a Snapshot with use_vision=true (or a Screenshot) "
            "and run winmcp_doctor again",
            None,
            None,
        )
    return check_mapping(f"{obs.id} ({obs.capture.tool})", obs.capture, obs.mapping, obs.mapping_warnings)


def _plain(data: Any) -> Any:
    # structuredContent and --json must be JSON: TOML dates or odd config values become text.
    return json.loads(json.dumps(data, default=str))


async def doctor_tool(app: GatewayApp) -> dict[str, Any]:
    """Answer `winmcp_doctor`: the report as text and structuredContent (never an error result).

    Args:
        app: the running gateway.

    Returns:
        A tool result whose structuredContent has `overall` and `checks` (and the rest of the
        JSON shape in `gateway.doctor.model`).
    """
    report = await build_report(app, _latest_mapping(app))
    return structured(_plain(report.as_json()), report.render_text())


async def _capture_check(upstream: Upstream, tools: list[str] | None) -> Check:
    if tools is None:
        return check_mapping("the upstream could not be started or did not list its tools", None, None)
    for tool, args in CAPTURE_CALLS:
        if tool not in tools:
            continue
        try:
            result = await upstream.call_tool(tool, args)
        except Exception as exc:  # noqa: BLE001 - could not capture: UNKNOWN, never a crash
            return check_mapping(f"the doctor's {tool} failed ({describe_cause(exc)})", None, None)
        capture = parse_result(tool, result)
        if isinstance(capture, CaptureFailure):
            return check_mapping(f"the doctor's {tool}", capture, None)
        mapping, warnings = derive_mapping(capture)
        return check_mapping(f"the doctor's {tool}", capture, mapping, warnings)
    return check_mapping("upstream offers neither Screenshot nor Snapshot", None, None)


async def cli_report(
    config: GatewayConfig,
    spec: UpstreamSpec,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    on_check: CheckSink | None = None,
) -> Report:
    """Start the upstream, run every check, close it (the CLI doctor; also used by tests).

    Args:
        config: the effective config (state dir, rules, timeouts).
        spec: the upstream to check.
        timeout_s: the longest the upstream's start, and each check, may take (S-DOC-22); the
            upstream's own call and ping timeouts are cut to it too.
        on_check: called with each check the moment it is made.

    Returns:
        The report; an upstream that cannot be started makes `upstream` SEVERE (naming the
        first real exception and quoting its stderr) and what depends on it UNKNOWN.
    """
    with tempfile.TemporaryDirectory(prefix="winmcp-doctor-", ignore_cleanup_errors=True) as tmp:
        upstream = Upstream(
            spec,
            timeout_s=min(float(config.upstream_timeout_s), timeout_s),
            ping_timeout_s=min(config.upstream_ping_timeout_ms / 1000.0, timeout_s),
            stderr_path=Path(tmp) / "upstream.stderr.log",
            startup_wait_s=timeout_s,
            connect_timeout_s=timeout_s,
        )
        async with upstream:
            app = GatewayApp(config, upstream)
            try:
                return await build_report(
                    app, lambda names: _capture_check(upstream, names), timeout_s=timeout_s, on_check=on_check
                )
            finally:
                app.close_audit()


def run_doctor_cli(
    config: GatewayConfig,
    spec: UpstreamSpec,
    *,
    as_json: bool,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    stdout: TextIO | None = None,
) -> int:
    """`winmcp-gateway doctor`: print the report to stdout, each check as it is made (text), or
    the whole report at the end (`--json`, unchanged).

    Args:
        config: the effective config.
        spec: the upstream to check.
        as_json: print the stable JSON form instead of the text.
        timeout_s: `--timeout`: the longest the start, and each check, may take.
        stdout: where the report goes (default `sys.stdout`).

    Returns:
        0 when no check is SEVERE or UNKNOWN, else 1.

    Raises:
        ConfigError: `timeout_s` is not a positive number of seconds.
    """
    if not (timeout_s > 0 and math.isfinite(timeout_s)):
        raise ConfigError(f"--timeout must be a positive number of seconds, not {timeout_s:g}")
    out = stdout or sys.stdout

    def show(lines: list[str]) -> None:
        out.write("\n".join(lines) + "\n")
        out.flush()

    if not as_json:
        show(render_header(spec.describe()))
    on_check = None if as_json else (lambda check: show(render_check(check)))
    report = anyio.run(functools.partial(cli_report, config, spec, timeout_s=timeout_s, on_check=on_check))
    if as_json:
        show([json.dumps(_plain(report.as_json()), indent=2, ensure_ascii=False)])
    else:
        show(render_footer(report.checks))
    return report.exit_code
