"""The doctor's checks besides the schema: upstream, mapping, rules, config, audit, kill (S-DOC-06..09).

Each function takes what the caller read (the tool reads a running gateway, the CLI its own
short-lived upstream) and returns one `Check`. Whatever could not be read is UNKNOWN.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

from gateway.audit.reader import audit_files
from gateway.audit.verify import verify_chain
from gateway.audit.writer import FILE_NAME
from gateway.config.load import GatewayConfig, effective_items, weakened_checks, weakened_settings
from gateway.doctor.model import Check, Finding, Verdict, stderr_lines
from gateway.observe.parse import CaptureFailure
from gateway.state.store import KillStatus
from policy.observation import Capture
from policy.observation import Mapping as ImageMapping
from policy.rate import describe_rate, limits_of
from policy.rules.match import RuleSet

_W, _S, _U = Verdict.WARNING, Verdict.SEVERE, Verdict.UNKNOWN
# Capture failures that say nothing about the parser: the desktop or upstream was busy.
_TRANSIENT = ("control", "capture_error", "tool_error")


def check_upstream(
    describe: str,
    *,
    tool_count: int | None,
    error: str | None,
    protocol: str | None,
    server: str | None,
    stderr_tail: str = "",
    name: str | None = None,
    version: str | None = None,
) -> Check:
    """Reachability, protocol version, and who answered (S-DOC-06, S-DOC-21).

    Args:
        describe: the upstream's command or URL.
        tool_count: how many tools it listed (None: no tools/list answer).
        error: why it could not be reached: the root cause, not the exception group around it.
        protocol: the negotiated protocol version.
        server: "name version" from the initialize result's serverInfo.
        stderr_tail: the end of what the upstream printed on stderr.
        name: serverInfo.name.
        version: serverInfo.version.

    Returns:
        SEVERE when unreachable (its last stderr line quoted: most often the root cause), else OK,
        WARNING for a protocol version the SDK does not know, UNKNOWN for none.
    """
    data: dict[str, Any] = {
        "spec": describe,
        "protocol": protocol,
        "server": server,
        "name": name,
        "version": version,
        "tools": tool_count,
    }
    if error is not None or tool_count is None:
        said = stderr_lines(stderr_tail)
        if said:
            data["stderr_tail"] = stderr_tail
        last_words = f"; its stderr ends: {said[-1]}" if said else ""
        return Check.of(
            "upstream",
            "upstream reachable",
            [
                Finding(
                    verdict=_S,
                    message=(
                        f"cannot reach the upstream ({error or 'no tools/list answer'}){last_words}; "
                        "nothing that depends on it was checked"
                    ),
                )
            ],
            ok="",
            data=data,
        )
    findings = []
    if protocol is None:
        findings.append(Finding(verdict=_U, message="the negotiated protocol version is not known"))
    elif protocol not in KNOWN_PROTOCOL_VERSIONS:
        findings.append(Finding(verdict=_W, message=f"protocol version {protocol!r} is not one this SDK knows"))
    return Check.of(
        "upstream",
        "upstream reachable",
        findings,
        data=data,
        ok=f"reachable: {server or 'unnamed server'}, protocol {protocol}, {tool_count} tools",
    )


def check_mapping(
    source: str,
    capture: Capture | CaptureFailure | None,
    mapping: ImageMapping | None,
    mapping_warnings: tuple[str, ...] = (),
) -> Check:
    """Mapping health of an observation (S-DOC-07): `source` says which one (e.g. "obs-3 (Snapshot)")."""
    title = "image ⇄ screen mapping"
    if capture is None:
        return Check.unknown("mapping", title, f"not checked: {source}")
    if isinstance(capture, CaptureFailure):
        if capture.kind in _TRANSIENT:
            return Check.unknown("mapping", title, f"not checked: {source} failed ({capture.kind}: {capture.message})")
        return Check.of(
            "mapping",
            title,
            [
                Finding(
                    verdict=_S,
                    message=(
                        f"{source}: the parser does not recognise upstream's result "
                        f"({capture.kind}: {capture.message}); no observation can be recorded, "
                        "so every input action is refused"
                    ),
                )
            ],
            ok="",
        )
    data: dict[str, Any] = {
        "source": source,
        "image": capture.image_size,
        "parse_warnings": list(capture.warnings),
    }
    findings: list[Finding] = []
    if capture.image_size is None:
        if capture.screenshot_size is None and capture.original_size is None:
            return Check.unknown("mapping", title, f"not checked: {source} has no image", data)
        findings.append(
            Finding(verdict=_S, message=f"{source} describes a screenshot but no readable PNG came with it")
        )
    elif mapping is None:
        findings.append(
            Finding(
                verdict=_S,
                message=(
                    f"{source}: the gateway cannot map image pixels to the screen "
                    f"({'; '.join(mapping_warnings) or 'no reason'}); "
                    "winmcp_to_screen and the annotation line are unavailable"
                ),
            )
        )
    else:
        data.update(origin=list(mapping.origin), scale=list(mapping.scale), source_size=list(mapping.source_size))
        findings += [Finding(verdict=_W, message=f"mapping: {w}") for w in mapping.warnings or mapping_warnings]
    findings += [Finding(verdict=_W, message=f"parser: {w}") for w in capture.warnings]
    ok = ""
    if mapping is not None:
        ok = (
            f"{source}: origin {mapping.origin[0]:g},{mapping.origin[1]:g} scale {mapping.scale[0]:.6f}"
            f" image {mapping.image_size[0]}x{mapping.image_size[1]} source "
            f"{mapping.source_size[0]}x{mapping.source_size[1]}, consistent"
        )
    return Check.of("mapping", title, findings, ok=ok, data=data)


def check_rules(config: GatewayConfig, rule_set: RuleSet | None, error: str | None) -> Check:
    """Command rules loaded, or why not (S-DOC-08)."""
    title = "command rules"
    if error is not None:
        return Check.of(
            "rules",
            title,
            [Finding(verdict=_S, message=(f"{error} — SYSTEM and INPUT calls are refused until it is fixed"))],
            ok="",
        )
    if not config.command_rules_enabled:
        return Check.of(
            "rules",
            title,
            [
                Finding(
                    verdict=_W,
                    message=(
                        "command rules are off (command_rules_enabled = false): SYSTEM tool content is not checked"
                    ),
                )
            ],
            ok="",
        )
    if rule_set is None:
        return Check.unknown("rules", title, "not checked: no rule set was loaded")
    builtin = sum(r.builtin for r in rule_set.rules)
    findings = [
        Finding(verdict=_W, message=f"built-in rule {rid!r} is exempted by allow_rules", rules=(rid,))
        for rid in sorted(rule_set.allow_rules)
    ]
    return Check.of(
        "rules",
        title,
        findings,
        data={
            "builtin": builtin,
            "custom": len(rule_set.rules) - builtin,
            "allow_rules": sorted(rule_set.allow_rules),
        },
        ok=f"{builtin} built-in and {len(rule_set.rules) - builtin} custom rules loaded, none exempted",
    )


def brake_summary(config: GatewayConfig) -> str:
    """The effective rate limits in one line (S-RATE-08), e.g. `input 10/s, system 30/min, …`."""
    limits = limits_of(config.rate_limits)
    rates = ", ".join(f"{name} {describe_rate(getattr(limits, name))}" for name in ("input", "system", "unknown"))
    loops = [
        f"{what} after {n}" if n else f"{what} off"
        for what, n in (("identical calls", limits.identical_calls), ("refusals in a row", limits.refusals_in_a_row))
    ]
    return f"{rates}; loop detector: {', '.join(loops)}; observation and winmcp_* tools never braked"


def check_config(config: GatewayConfig) -> Check:
    """Config warnings and explicit weakenings (S-DOC-08; S-CFG-06)."""
    findings = [Finding(verdict=_W, message=w) for w in config.warnings]
    for name, setting in zip(weakened_checks(config), weakened_settings(config), strict=True):
        if name == "enforce":
            what = "shadow mode: refusals are audited as would-deny but NOT enforced"
        elif name == "probe_reuse_ms":
            what = (
                "an input action this soon after a capture is not probed; a focus change made outside the "
                "gateway in that time is caught only by the next probe (S-FRESH-11)"
            )
        else:
            what = "this check of the gate is off"
        findings.append(Finding(verdict=_W, message=f"{setting}: {what}"))
    if config.unknown_tools == "allow":
        findings.append(Finding(verdict=_W, message='unknown_tools = "allow": tools the catalog does not know run'))
    brake = brake_summary(config)
    for entry, value in config.rate_limits.items():  # S-RATE-08: a brake switched off is worth a look
        if value in ("off", 0) or (isinstance(value, str) and value.strip().lower() == "off"):
            findings.append(Finding(verdict=_W, message=f"rate_limits.{entry} = {value!r}: this brake is off"))
    where = str(config.config_file) if config.config_file else "no file (defaults, environment, flags)"
    return Check.of(
        "config",
        "configuration",
        findings,
        # S-UPS-10: the doctor says what an upstream answer may weigh before a call fails RESULT_TOO_LARGE.
        ok=f"{where}: no warnings, nothing weakened; upstream answers over {config.max_result_bytes} bytes fail; "
        f"brake: {brake}",
        data={
            "max_result_bytes": config.max_result_bytes,
            "rate_limits": brake,  # the effective limits, as used (S-RATE-08)
            "file": str(config.config_file) if config.config_file else None,
            "warnings": list(config.warnings),
            "effective": effective_items(config),
        },
    )


def _writable(directory: Path) -> str | None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
        current = directory / FILE_NAME
        if current.exists():
            with current.open("ab"):
                pass
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def check_audit(config: GatewayConfig, stats: Mapping[str, Any] | None) -> Check:
    """Audit writable and its chain intact (S-DOC-09); reads and writes no audit line."""
    title = "audit log"
    directory = config.state_dir
    data: dict[str, Any] = {"dir": str(directory), "stats": dict(stats or {})}
    findings: list[Finding] = []
    if not config.auto_audit:
        findings.append(Finding(verdict=_W, message="auto_audit = false: nothing is recorded"))
    problem = _writable(directory)
    if problem:
        findings.append(Finding(verdict=_S, message=f"the state dir {directory} is not writable ({problem})"))
    if stats and stats.get("failures"):
        findings.append(
            Finding(
                verdict=_W,
                message=(f"{stats['failures']} audit write(s) failed in this process; last: {stats.get('last_error')}"),
            )
        )
    try:
        result = verify_chain(audit_files(directory))
    except Exception as exc:  # noqa: BLE001 - could not check is UNKNOWN, never a crash
        findings.append(Finding(verdict=_U, message=f"the chain could not be read ({type(exc).__name__}: {exc})"))
        return Check.of("audit", title, findings, ok="", data=data)
    data["chain"] = {
        "ok": result.ok,
        "records": result.records,
        "files": len(result.files),
        "torn": len(result.torn),
        "last_seq": result.last_seq,
    }
    if result.problem is not None:
        findings.append(
            Finding(
                verdict=_S,
                message=(
                    f"the hash chain is broken at {result.problem.where}: {result.problem.reason} "
                    f"{result.problem.detail} ({result.problems} problem line(s)); "
                    "run winmcp-gateway audit-report --verify"
                ),
            )
        )
    chain = (
        f"chain intact over {result.records} records in {len(result.files)} file(s)"
        if result.files
        else "no audit file yet"
    )
    return Check.of("audit", title, findings, ok=f"{directory} writable; {chain}", data=data)


def check_kill(status: KillStatus) -> Check:
    """Kill switch state (S-DOC-09): engaged is a WARNING to look at, not a fault."""
    if status.engaged:
        return Check.of(
            "kill",
            "kill switch",
            [
                Finding(
                    verdict=_W,
                    message=(
                        f"ENGAGED by {status.by} since {status.since}: {status.reason} — "
                        "desktop- and system-changing "
                        "calls are refused (release: winmcp-gateway kill release)"
                    ),
                )
            ],
            ok="",
            data=status.as_dict(),
        )
    return Check.of("kill", "kill switch", [], ok="off", data=status.as_dict())
