"""`GatewayApp`: everything one gateway process holds — config, upstream, state, audit, rules.

The pipeline reads the world from here and passes it to `policy` as values. Nothing in
here decides anything; it only owns resources and answers questions about them.

Three seams are handed in (ARCHITECTURE.md "Seams"): the upstream connection
(`gateway.upstream.seams.UpstreamConnection`), the audit sink and the clock
(`gateway.audit.seams`). The defaults are the real ones: `open_gateway` starts the upstream its
spec names (or connects through the `Connector` it is given), the sink is the state dir's
`AuditLog`, the clock is `time.time`.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import logging
import os
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread

from gateway.audit.background import BackgroundWriter
from gateway.audit.seams import AuditSink, Clock
from gateway.audit.writer import AuditLog
from gateway.config.load import GatewayConfig, default_config_file, effective_items
from gateway.files.owner_only import ensure_private_dir
from gateway.state.approvals import ApprovalStore
from gateway.state.pins import PinGuard, pin_notes
from gateway.state.protected import resolve_protected_paths
from gateway.state.rate_state import RateStates
from gateway.state.signer import StateSigner
from gateway.state.store import KillSwitch, ObservationStore, SharedCounter
from gateway.tools import OWN_TOOL_DEFINITIONS, with_gateway_args
from gateway.upstream.client import Upstream
from gateway.upstream.connection import Connector
from gateway.upstream.seams import UpstreamConnection
from gateway.upstream.supervisor import UpstreamSpec
from policy import PolicyConfig, is_visible
from policy.rate import limits_of
from policy.rules.match import RuleLoadError, RuleSet, load_rules
from policy.rules.processes import canonical_process

log = logging.getLogger(__name__)

OBSERVATION_COUNTER = "observation-ids"
# The gateway's own command line, as it would appear in a PowerShell command or App arguments.
SELF_COMMANDS = ("winmcp-gateway", "winmcp_gateway", "-m gateway")


def own_code_dirs() -> tuple[str, ...]:
    """The folders of the gateway's own code (its `gateway` and `policy` packages, wherever they are
    installed): edited, the next start would run a guard the agent wrote (S-SELF-13)."""
    import gateway
    import policy

    return tuple(os.path.dirname(os.path.realpath(m.__file__)) for m in (gateway, policy) if m.__file__)


def own_environment_dirs() -> tuple[str, ...]:
    """The Python environment this process runs in (S-SELF-13): its venv (`sys.prefix`: `pyvenv.cfg`, the launcher
    and every dependency the gateway imports — `mcp`, `pydantic` — rewritten, they run inside the guard) and the
    interpreter's own files (`sys.base_prefix`: its standard library and DLLs). A filesystem root is never one."""
    found: dict[str, None] = {}
    for prefix in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix):
        real = os.path.realpath(prefix) if prefix else ""
        if real and os.path.dirname(real) != real:
            found[real] = None
    return tuple(found)


def own_processes() -> tuple[str, ...]:
    """What a kill must not reach (S-SELF-10): this process's pid, and the name of the interpreter it runs
    in when that is not the gateway's own name (`python` for an installed gateway: `Stop-Process -Name
    python` would end it). Canonical forms (`policy.rules.processes.canonical_process`)."""
    return (str(os.getpid()), canonical_process(sys.executable or ""))


@dataclass
class Counters:
    calls: int = 0
    allowed: int = 0
    denied: int = 0
    upstream_failures: int = 0
    by_code: dict[str, int] = field(default_factory=dict)

    def count_denial(self, code: str) -> None:
        self.denied += 1
        self.by_code[code] = self.by_code.get(code, 0) + 1


class GatewayApp:
    """One gateway process: its config, upstream connection, observation store, kill switch and audit.

    Args:
        config: the effective config.
        upstream: the upstream connection (entered by whoever made it; see `open_gateway`).
        clock: seconds since the epoch, for observation ages and approval expiry.
        audit: the audit sink; default the state dir's hash-chained `AuditLog` per `config`.
    """

    def __init__(
        self,
        config: GatewayConfig,
        upstream: UpstreamConnection,
        *,
        clock: Clock = time.time,
        audit: AuditSink | None = None,
    ) -> None:
        with contextlib.suppress(OSError):  # a dir that cannot be made is the doctor's SEVERE finding
            ensure_private_dir(config.state_dir)  # owner-only before anything is written there (S-WIN-04)
        self.config = config
        self.upstream = upstream
        self.clock = clock
        self.store = ObservationStore(
            history=config.observation_history, next_id=SharedCounter(config.state_dir / OBSERVATION_COUNTER)
        )
        self.kill = KillSwitch(config.state_dir)
        self.policy_hash = policy_hash(config)
        self.audit: AuditSink = (
            audit if audit is not None else AuditLog.for_config(config, policy_hash=self.policy_hash)
        )
        self._audit_writer = BackgroundWriter(self.audit) if isinstance(self.audit, AuditLog) else None
        self.counters = Counters()
        self.signer = StateSigner()
        # The brake for runaway agents, per session, in memory (S-RATE-01..09).
        self.brake = RateStates(limits_of(config.rate_limits))
        # Tool-definition pins (S-PIN-01..08): recorded at each new upstream tool list.
        self.pins = PinGuard(config.state_dir, mode="warn" if config.pin_mode == "warn" else "enforce")
        self._policy_config = PolicyConfig.from_attrs(config)
        self._rules: RuleSet | None = None
        self._rules_error: str | None = None
        self._upstream_tools: list[dict[str, Any]] | None = None
        # The argument validators compiled from that list (gateway/pipeline/arguments.py keeps them
        # here, keyed by the list itself, so a new list compiles anew; S-ARG-07).
        self.argument_schemas: object | None = None
        self._seen_restarts = 0
        # Stale at the moment of loss, not at the next call (S-UPS-03): an input call after an idle
        # death must not be judged on a pre-restart observation.
        upstream.on_lost.append(self.note_upstream_restarts)
        self.started_ms = self.now_ms()

    async def audit_event(self, event: str, **fields: Any) -> None:
        """Hand one audit event to the writer and go on (queued, in order; S-AUD-13).

        The state dir's `AuditLog` is written by the background writer; an injected sink (tests)
        is appended to off the event loop as before.
        """
        if self._audit_writer is not None:
            await self._audit_writer.submit(event, fields)
        else:
            await anyio.to_thread.run_sync(functools.partial(self.audit.append, event, **fields))

    async def audit_write_ahead(self, event: str, **fields: Any) -> int | None:
        """Write one audit event and wait until it is on disk (S-AUD-15): the intent of an action
        before it is forwarded. Returns the line's `seq` (None when it could not be written)."""
        if self._audit_writer is not None:
            return await self._audit_writer.write_ahead(event, fields)
        await anyio.to_thread.run_sync(functools.partial(self.audit.append, event, **fields))
        return None

    async def audit_flush(self) -> None:
        """Wait until every audit event handed in so far is written."""
        if self._audit_writer is not None:
            await self._audit_writer.flush()

    def audit_written(self) -> bool:
        """Block until every audit event handed in so far is written (synchronous readers only)."""
        return self._audit_writer.wait_written() if self._audit_writer is not None else True

    def close_audit(self) -> None:
        """Drain the audit queue and stop its writer (blocking; `open_gateway` calls it on exit)."""
        if self._audit_writer is not None:
            self._audit_writer.close()

    def now_ms(self) -> float:
        return self.clock() * 1000.0

    @property
    def policy_config(self) -> PolicyConfig:
        """The config as policy takes it, validated once at start."""
        return self._policy_config

    @functools.cached_property
    def approvals(self) -> ApprovalStore:
        """The state dir's approvals: one store (and one file lock) for the life of the process."""
        return ApprovalStore(self.config.state_dir)

    @functools.cached_property
    def protected_paths(self) -> tuple[str, ...]:
        """What no proxied tool may touch or run (SELF_PROTECTION): the gateway's own files, and its
        own command line — a model must not `winmcp-gateway approve` or `kill release` through PowerShell.

        Resolved once, at the first call (S-SELF-04): each path absolute, real and in its 8.3 form
        (`gateway.state.protected`). The default config folder counts whether or not a file is there
        (S-SELF-01): a config written there, or a junction made in its place, would load at the next start.
        """
        own = (
            self.config.state_dir,
            self.kill.path,
            self.config.config_file,
            default_config_file().parent,
            *own_code_dirs(),
        )
        return (*resolve_protected_paths(own), *SELF_COMMANDS)

    @functools.cached_property
    def environment_paths(self) -> tuple[str, ...]:
        """The Python environment this process runs in (S-SELF-13): a change there is refused by place, while
        reading it or running its Python is not (`policy.rules.places.ENVIRONMENT_PLACE`)."""
        return resolve_protected_paths(own_environment_dirs())

    def forget_upstream_tools(self) -> None:
        """Drop the cached upstream tool list (upstream said its tools changed)."""
        self._upstream_tools = None

    def note_upstream_restarts(self) -> None:
        """After an upstream restart the desktop state is unknown: all observations go stale."""
        if self.upstream.restarts != self._seen_restarts:
            self._seen_restarts = self.upstream.restarts
            self.store.upstream_restarted()
            self._upstream_tools = None

    async def upstream_tools(self) -> list[dict[str, Any]]:
        """Upstream's own tools, fetched once per connection."""
        self.note_upstream_restarts()
        if self._upstream_tools is None:
            tools = await self.upstream.list_tools()
            await self.record_pins(tools)
            self._upstream_tools = tools
        return self._upstream_tools

    async def record_pins(self, tools: list[dict[str, Any]]) -> None:
        """Pin a first tool list, or compare a later one with the pins; what changed is logged and
        audited (`config` events with code TOOL_CHANGED), each time a list is fetched (S-PIN-02)."""
        gate, recorded = await anyio.to_thread.run_sync(self.pins.record, tools)
        for tool, text in pin_notes(gate, recorded):
            log.warning("%s", text)
            await self.audit_event("config", code="TOOL_CHANGED", tool=tool, reason=text)

    def tool_visible(self, name: str) -> bool:
        """The same visibility rule policy enforces at call time (S-VIS), so list and call agree."""
        return is_visible(name, self._policy_config)

    def rules(self) -> tuple[RuleSet | None, str | None]:
        """The loaded command rules, or (None, why they failed to load) — then SYSTEM/INPUT are refused."""
        if not self.config.command_rules_enabled:
            # Rules off still keeps self-protection: the agent must not lift its own guard.
            return (
                RuleSet(
                    rules=(),
                    protected_paths=self.protected_paths,
                    own_processes=own_processes(),
                    environment_paths=self.environment_paths,
                    analyse=False,
                ),
                None,
            )
        if self._rules is None and self._rules_error is None:
            where = f" in {self.config.config_file}" if self.config.config_file else ""
            try:
                self._rules = load_rules(
                    self.config.command_rules,
                    self.config.allow_rules,
                    protected_paths=self.protected_paths,
                    dynamic_commands=self.config.dynamic_commands,
                    own_processes=own_processes(),
                    environment_paths=self.environment_paths,
                )
            except RuleLoadError as exc:
                self._rules_error = f"command rules{where} failed to load: {exc}"
            except Exception as exc:  # noqa: BLE001 - any fault here must refuse, not crash (S-RULE)
                self._rules_error = f"command rules{where} failed to load ({type(exc).__name__}: {exc})"
            if self._rules_error:
                log.error("%s — SYSTEM and INPUT calls are refused until this is fixed", self._rules_error)
        return self._rules, self._rules_error

    async def client_tools(self) -> list[dict[str, Any]]:
        """The tools/list the client sees: visible upstream tools (+ based_on, approval_id) and ours."""
        out: list[dict[str, Any]] = []
        tools = await self.upstream_tools()
        pins = self.pins.gate()  # a changed definition is withheld until a person accepts it (S-PIN-04)
        for tool in tools:
            name = tool.get("name", "")
            if not self.tool_visible(name) or pins.hides(name):
                continue
            out.append(with_gateway_args(tool))
        out.extend(copy.deepcopy(OWN_TOOL_DEFINITIONS))
        return out


def policy_hash(config: GatewayConfig) -> str:
    """A short hash of the effective policy (config incl. custom rules) stamped on audit events."""
    canonical = json.dumps(effective_items(config), sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@contextlib.asynccontextmanager
async def open_gateway(
    config: GatewayConfig,
    spec: UpstreamSpec,
    *,
    mode: str = "legacy",
    connector: Connector | None = None,
    clock: Clock = time.time,
    audit: AuditSink | None = None,
) -> AsyncIterator[GatewayApp]:
    """Start the upstream and yield a ready `GatewayApp` (closing both on exit).

    Args:
        config: the effective config.
        spec: the upstream (started as it says unless `connector` is given; it always describes it).
        mode: how to talk to the upstream (`legacy`, `auto` or a protocol version).
        connector: how each upstream connection is opened (default: from `spec`).
        clock: the app's clock.
        audit: the audit sink (default: the state dir's `AuditLog`).

    Yields:
        The app, its upstream entered (it may still be coming up: see `Supervisor`).
    """
    config.state_dir.mkdir(parents=True, exist_ok=True)
    upstream = Upstream(
        spec,
        timeout_s=config.upstream_timeout_s,
        stderr_path=config.state_dir / "upstream.stderr.log",
        mode=mode,
        connector=connector,
        max_result_bytes=config.max_result_bytes,
        ping_timeout_s=config.upstream_ping_timeout_ms / 1000.0,
        # The stderr log rotates like the audit (S-UPS-11).
        stderr_max_bytes=config.audit_max_bytes,
        stderr_keep=config.audit_keep,
    )
    async with upstream:
        app = GatewayApp(config, upstream, clock=clock, audit=audit)
        for warning in config.warnings:
            log.warning("%s", warning)
            app.audit.append("config", reason=warning)
        try:
            yield app
        finally:
            # Drain what is queued (S-AUD-16); off the loop, and shielded so a cancelled exit drains too.
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(app.close_audit)
