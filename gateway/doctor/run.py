"""`winmcp_doctor` and `winmcp-gateway doctor`: compare the gateway's assumptions with the live upstream.

DESIGN.md §7. One report, nine checks, always in this order (S-DOC-01):

    upstream             reachable? protocol version known?                 (doctor_checks)
    schema.read_args     every argument the catalog, rules and probe use exists upstream  (doctor_schema)
    schema.unknown_args  no unknown argument on a gated tool
    schema.tools         no upstream tool the catalog does not know
    mapping              the latest observation's image ⇄ screen mapping is consistent
    rules                command rules loaded (or why not), exemptions
    config               config warnings, explicitly weakened checks
    audit                state dir writable, hash chain intact, write failures
    kill                 kill switch state

Verdicts OK / WARNING / UNKNOWN / SEVERE; UNKNOWN = could not check, never OK. The tool
reads the running gateway (its latest observation with an image, from any session); the
CLI starts its own upstream, takes one read-only Screenshot for the mapping check, and
closes it. Neither writes an audit line. The JSON shape is in `gateway.doctor.model`.
Exit code of the CLI: 0 when nothing is SEVERE or UNKNOWN, else 1.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

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
from gateway.doctor.model import Check, Report
from gateway.doctor.schema import compare_schema, schema_unknown
from gateway.errors import UpstreamError
from gateway.observe.coords import derive_mapping
from gateway.observe.parse import CaptureFailure, parse_result
from gateway.tools import structured
from gateway.upstream.client import Upstream
from gateway.upstream.seams import UpstreamConnection
from gateway.upstream.supervisor import UpstreamSpec

# The CLI's capture for the mapping check: Screenshot walks no UI tree, so it is cheap on a
# real desktop, and it is read-only (an observation tool). Snapshot is the fallback.
CAPTURE_CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Screenshot", {}),
    ("Snapshot", {"use_vision": True, "use_ui_tree": False}),
)


def _server(upstream: UpstreamConnection) -> str | None:
    info = upstream.server_info
    return None if info is None else f"{info.name} {info.version}".strip()


async def build_report(app: GatewayApp, mapping: Check, *, upstream_error: UpstreamError | None = None) -> Report:
    """Run every check against `app`, with the mapping check already made by the caller.

    Args:
        app: the gateway (its upstream, config, rules, audit and kill switch are read).
        mapping: the `mapping` check (the tool and the CLI find their observation differently).
        upstream_error: set when the upstream could not even be started (nothing is asked of it).

    Returns:
        The report.
    """
    describe = app.upstream.spec.describe()
    tools: list[dict[str, Any]] | None = None
    error: UpstreamError | Exception | None = upstream_error
    if error is None:
        try:
            tools = await app.upstream.list_tools()
        except Exception as exc:  # noqa: BLE001 - an unreachable upstream is a finding, not a crash
            error = exc
    upstream = check_upstream(
        describe,
        tool_count=None if tools is None else len(tools),
        error=None if error is None else f"{type(error).__name__}: {error}",
        protocol=app.upstream.protocol_version if tools is not None else None,
        server=_server(app.upstream) if tools is not None else None,
        stderr_tail=getattr(error, "stderr_tail", "") or "",
    )
    rule_set, rules_error = app.rules()
    if tools is None:
        schema = schema_unknown("the upstream's tools/list could not be read")
    else:
        schema = compare_schema(tools, rule_set, unknown_tools=app.config.unknown_tools)
    audit = await anyio.to_thread.run_sync(check_audit, app.config, app.audit.stats())
    checks = (
        upstream,
        *schema,
        mapping,
        check_rules(app.config, rule_set, rules_error),
        check_config(app.config),
        audit,
        check_kill(app.kill.status()),
    )
    return Report(upstream=describe, checks=checks)


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


async def _capture_check(upstream: Upstream, tools: list[str]) -> Check:
    for tool, args in CAPTURE_CALLS:
        if tool not in tools:
            continue
        try:
            result = await upstream.call_tool(tool, args)
        except Exception as exc:  # noqa: BLE001 - could not capture: UNKNOWN, never a crash
            return check_mapping(f"the doctor's {tool} failed ({type(exc).__name__}: {exc})", None, None)
        capture = parse_result(tool, result)
        if isinstance(capture, CaptureFailure):
            return check_mapping(f"the doctor's {tool}", capture, None)
        mapping, warnings = derive_mapping(capture)
        return check_mapping(f"the doctor's {tool}", capture, mapping, warnings)
    return check_mapping("upstream offers neither Screenshot nor Snapshot", None, None)


async def cli_report(config: GatewayConfig, spec: UpstreamSpec) -> Report:
    """Start the upstream, run every check, close it (the CLI doctor; also used by tests).

    Args:
        config: the effective config (state dir, rules, timeouts).
        spec: the upstream to check.

    Returns:
        The report; an upstream that cannot be started makes `upstream` SEVERE and what
        depends on it UNKNOWN.
    """
    with tempfile.TemporaryDirectory(prefix="winmcp-doctor-", ignore_cleanup_errors=True) as tmp:
        upstream = Upstream(spec, timeout_s=config.upstream_timeout_s, stderr_path=Path(tmp) / "upstream.stderr.log")
        try:
            async with upstream:
                app = GatewayApp(config, upstream)
                try:
                    names = [str(t.get("name")) for t in await upstream.list_tools()]
                except Exception as exc:  # noqa: BLE001 - build_report reports it
                    mapping = check_mapping(f"the upstream did not list its tools ({exc})", None, None)
                else:
                    mapping = await _capture_check(upstream, names)
                return await build_report(app, mapping)
        except UpstreamError as exc:
            app = GatewayApp(config, upstream)
            mapping = check_mapping("the upstream could not be started", None, None)
            return await build_report(app, mapping, upstream_error=exc)


def run_doctor_cli(config: GatewayConfig, spec: UpstreamSpec, *, as_json: bool) -> int:
    """`winmcp-gateway doctor`: print the report (text or `--json`) to stdout.

    Args:
        config: the effective config.
        spec: the upstream to check.
        as_json: print the stable JSON form instead of the text.

    Returns:
        0 when no check is SEVERE or UNKNOWN, else 1.
    """
    report = anyio.run(cli_report, config, spec)
    if as_json:
        sys.stdout.write(json.dumps(_plain(report.as_json()), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report.render_text() + "\n")
    return report.exit_code
