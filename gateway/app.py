"""`GatewayApp`: everything one gateway process holds — config, upstream, state, audit, rules.

The pipeline reads the world from here and passes it to `policy` as values. Nothing in
here decides anything; it only owns resources and answers questions about them.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread

from gateway.audit.writer import AuditLog
from gateway.config.load import GatewayConfig, effective_items
from gateway.state.signer import StateSigner
from gateway.state.store import KillSwitch, ObservationStore, SharedCounter
from gateway.tools import OWN_TOOL_DEFINITIONS, with_gateway_args
from gateway.upstream.client import Upstream
from gateway.upstream.supervisor import UpstreamSpec
from policy import PolicyConfig, is_visible
from policy.rules.match import RuleLoadError, RuleSet, load_rules

log = logging.getLogger(__name__)

OBSERVATION_COUNTER = "observation-ids"
# The gateway's own command line, as it would appear in a PowerShell command or App arguments.
SELF_COMMANDS = ("winmcp-gateway", "winmcp_gateway", "-m gateway")


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
    """One gateway process: its config, upstream connection, observation store, kill switch and audit."""

    def __init__(
        self,
        config: GatewayConfig,
        upstream: Upstream,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.upstream = upstream
        self.clock = clock
        self.store = ObservationStore(
            history=config.observation_history, next_id=SharedCounter(config.state_dir / OBSERVATION_COUNTER)
        )
        self.kill = KillSwitch(config.state_dir)
        self.policy_hash = policy_hash(config)
        self.audit = AuditLog(
            config.state_dir,
            max_bytes=config.audit_max_bytes,
            keep=config.audit_keep,
            enabled=config.auto_audit,
            fsync=config.audit_fsync,
            policy_hash=self.policy_hash,
        )
        self.counters = Counters()
        self.signer = StateSigner()
        self._policy_config = PolicyConfig.from_attrs(config)
        self._rules: RuleSet | None = None
        self._rules_error: str | None = None
        self._upstream_tools: list[dict[str, Any]] | None = None
        self._seen_restarts = 0
        # Stale at the moment of loss, not at the next call (S-UPS-03): an input call after an idle
        # death must not be judged on a pre-restart observation.
        upstream.on_lost.append(self.note_upstream_restarts)
        self.started_ms = self.now_ms()

    async def audit_event(self, event: str, **fields: Any) -> None:
        """Append one audit event off the event loop (the cross-process lock may wait)."""
        await anyio.to_thread.run_sync(functools.partial(self.audit.append, event, **fields))

    def now_ms(self) -> float:
        return self.clock() * 1000.0

    @property
    def protected_paths(self) -> tuple[str, ...]:
        """What no proxied tool may touch or run (SELF_PROTECTION): the gateway's own files, and its
        own command line — a model must not `winmcp-gateway approve` or `kill release` through PowerShell."""
        paths = [str(self.config.state_dir), str(self.kill.path), *SELF_COMMANDS]
        if self.config.config_file is not None:
            paths.append(str(self.config.config_file))
        return tuple(paths)

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
            self._upstream_tools = await self.upstream.list_tools()
        return self._upstream_tools

    def tool_visible(self, name: str) -> bool:
        """The same visibility rule policy enforces at call time (S-VIS), so list and call agree."""
        return is_visible(name, self._policy_config)

    def rules(self) -> tuple[RuleSet | None, str | None]:
        """The loaded command rules, or (None, why they failed to load) — then SYSTEM/INPUT are refused."""
        if not self.config.command_rules_enabled:
            # Rules off still keeps self-protection: the agent must not lift its own guard.
            return RuleSet(rules=(), protected_paths=self.protected_paths), None
        if self._rules is None and self._rules_error is None:
            where = f" in {self.config.config_file}" if self.config.config_file else ""
            try:
                self._rules = load_rules(
                    self.config.command_rules, self.config.allow_rules, protected_paths=self.protected_paths
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
        for tool in await self.upstream_tools():
            name = tool.get("name", "")
            if not self.tool_visible(name):
                continue
            out.append(with_gateway_args(tool))
        out.extend(copy.deepcopy(OWN_TOOL_DEFINITIONS))
        return out


def policy_hash(config: GatewayConfig) -> str:
    """A short hash of the effective policy (config incl. custom rules) stamped on audit events."""
    canonical = json.dumps(effective_items(config), sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@contextlib.asynccontextmanager
async def open_gateway(config: GatewayConfig, spec: UpstreamSpec, *, mode: str = "legacy") -> AsyncIterator[GatewayApp]:
    """Start the upstream and yield a ready `GatewayApp` (closing both on exit)."""
    config.state_dir.mkdir(parents=True, exist_ok=True)
    upstream = Upstream(
        spec,
        timeout_s=config.upstream_timeout_s,
        stderr_path=config.state_dir / "upstream.stderr.log",
        mode=mode,
    )
    async with upstream:
        app = GatewayApp(config, upstream)
        for warning in config.warnings:
            log.warning("%s", warning)
            app.audit.append("config", reason=warning)
        yield app
