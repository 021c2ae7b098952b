"""The upstream connection's lifecycle: start, watch, lose, restart (S-UPS-01 … S-UPS-04).

The steps, in order:

    1. `__aenter__` starts a supervisor task and waits (at most `STARTUP_WAIT_S`) for the
       first connection attempt. It never raises: a failure is kept in `last_error`, and
       the gateway still serves its own tools and explains the failure.
    2. A call uses the live client (`_ensure`); while an attempt is running it waits for
       it; while the supervisor backs off it fails at once with `last_error` and when the
       next attempt is due, and past that time it starts one.
    3. The connection's end is seen the moment it happens (end of the transport's stream,
       or a request answered "connection closed"): `restarts` goes up, `on_lost` listeners
       run *synchronously* (the gateway marks every observation stale before any other
       call can be judged), in-flight calls fail with UPSTREAM_DIED and the stderr tail.
    4. The supervisor reconnects: at once after a connection that lived `STABLE_S`, else
       with backoff `RESTART_BACKOFF_S`; after `PROACTIVE_ATTEMPTS` failed attempts in a
       row it waits for a call to ask again (no endless background respawning). An
       attempt gets `CONNECT_TIMEOUT_S` at least: `uvx` may be fetching Windows-MCP.
    5. A call that timed out asks whether the upstream lives (`is_alive`: a `ping` within
       `ping_timeout_s`, or bytes still arriving). One that does not is killed as hung
       (`kill_hung`: step 3's loss, so observations go stale and step 4 restarts it) (S-UPS-07).

The child's stderr goes through a pipe into the rotated `upstream.stderr.log`
(`gateway.upstream.stderr_log`, S-UPS-11); answers are bounded by `max_result_bytes` (S-UPS-10).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self, TextIO

import anyio
import anyio.abc
import anyio.to_thread
import mcp_types as types
from mcp import Client
from mcp.shared.exceptions import MCPError

from gateway.errors import UpstreamError, UpstreamTimeout
from gateway.upstream.causes import describe_cause, first_cause
from gateway.upstream.client_side import Caller, UpstreamHooks
from gateway.upstream.command_line import join_command, split_command
from gateway.upstream.connection import (
    ClientCallbacks,
    Connector,
    ListenFilter,
    bounded,
    is_modern,
    make_client,
    narrow_to_caller,
    pump_listen,
    spec_connector,
)
from gateway.upstream.lane import Lane
from gateway.upstream.limits import DEFAULT_MAX_RESULT_BYTES, WireActivity
from gateway.upstream.stderr_log import DEFAULT_KEEP, DEFAULT_MAX_BYTES, StderrLog, StderrSink

log = logging.getLogger("gateway.upstream.client")

# Backoff between attempts: 0.2 s doubling to 5 s, so a crash loop costs little but recovers fast.
RESTART_BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0)
# A connection that lived this long was healthy: its loss is restarted at once, not backed off.
STABLE_S = 10.0
# Failed attempts in a row after which the supervisor stops respawning on its own.
PROACTIVE_ATTEMPTS = 6
# Starting the upstream may take longer than one call may (`uvx` fetches Windows-MCP on first use):
# an attempt gets at least this long, whatever `upstream_timeout_s` says.
CONNECT_TIMEOUT_S = 60.0
# How long `serve` waits for the first connection before answering clients anyway
# (a stdio client's initialize must not time out behind a slow `uvx` download).
STARTUP_WAIT_S = 30.0
STDERR_TAIL_BYTES = 2048
# How long closing the gateway waits for the upstream child to exit on its own.
CLOSE_WAIT_S = 5.0
# How long a liveness ping may take after a call timed out (config `upstream_ping_timeout_ms`).
PING_TIMEOUT_S = 5.0
# How long a call that saw the child die waits for its last stderr lines to reach the log.
STDERR_SETTLE_S = 1.0


@dataclass(frozen=True, slots=True, kw_only=True)
class UpstreamSpec:
    """Where the upstream is: a stdio command (argv) or a streamable-HTTP URL.

    `platform` is whose quoting `describe` shows the command in (this machine's by default):
    the same rules that split it (`gateway.upstream.command_line`, S-UPS-20).
    """

    argv: tuple[str, ...] = ()
    url: str | None = None
    platform: str = field(default=sys.platform, compare=False)

    def __post_init__(self) -> None:
        if bool(self.argv) == bool(self.url):
            raise ValueError("an upstream is either a command or a URL")

    @classmethod
    def command(cls, command_line: str, *, platform: str | None = None) -> UpstreamSpec:
        """Parse `--upstream-cmd` with the platform's rules: Windows command-line rules on Windows
        (`C:\\tools\\uvx.exe` stays a path), POSIX shell rules elsewhere (S-UPS-20).

        Args:
            command_line: the program and its arguments as one string.
            platform: a `sys.platform` value; None means this machine's.

        Raises:
            ValueError: the line is empty, or (POSIX) its quotes do not close.
        """
        where = sys.platform if platform is None else platform
        argv = tuple(split_command(command_line, platform=where))
        if not argv:
            raise ValueError("--upstream-cmd is empty")
        return cls(argv=argv, platform=where)

    @classmethod
    def simulator(cls, *sim_args: str) -> UpstreamSpec:
        """The bundled simulated Windows-MCP, run with this Python."""
        return cls(argv=(sys.executable, "-m", "gateway.sim", *sim_args))

    def describe(self) -> str:
        """The URL, or the command as one line in `platform`'s quoting (it splits back to `argv`)."""
        return self.url if self.url else join_command(self.argv, platform=self.platform)


def tail_of(path: Path | None, limit: int = STDERR_TAIL_BYTES) -> str:
    """The last `limit` bytes of a log file as text ('' when there is none)."""
    if path is None:
        return ""
    try:
        with path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - limit))
            return fh.read().decode("utf-8", "replace").strip()
    except OSError:
        return ""


def backoff_delay(failures: int) -> float:
    """The wait before the next attempt after `failures` failed ones in a row (S-UPS-02)."""
    return RESTART_BACKOFF_S[min(max(failures, 1), len(RESTART_BACKOFF_S)) - 1]


class Supervisor:
    """The lifecycle half of `gateway.upstream.client.Upstream` (see the module docstring).

    A dedicated task owns each SDK `Client` context (anyio scopes must be exited by the task
    that entered them). `restarts` counts lost connections (each is followed by a restart);
    `on_lost` listeners run the moment a loss is seen; `hooks` receives what the upstream
    says first. Subclasses add requests and restore per-connection state in `_restore`.

    `connector` opens each connection; by default the one `spec` names (a stdio child that
    inherits `environ`, or the URL). `spec` still describes the upstream in every message.
    """

    def __init__(
        self,
        spec: UpstreamSpec,
        *,
        timeout_s: float = 150.0,
        stderr_path: Path | None = None,
        environ: Mapping[str, str] | None = None,
        mode: str = "legacy",
        connector: Connector | None = None,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        ping_timeout_s: float = PING_TIMEOUT_S,
        stderr_max_bytes: int = DEFAULT_MAX_BYTES,
        stderr_keep: int = DEFAULT_KEEP,
        startup_wait_s: float = STARTUP_WAIT_S,
        connect_timeout_s: float | None = None,
    ) -> None:
        self.spec = spec
        self.timeout_s = timeout_s
        # The doctor bounds both by its --timeout; serve keeps the defaults (a slow `uvx` download).
        self.startup_wait_s = startup_wait_s
        self.connect_timeout_s = max(timeout_s, CONNECT_TIMEOUT_S) if connect_timeout_s is None else connect_timeout_s
        self.ping_timeout_s = ping_timeout_s
        self.max_result_bytes = max_result_bytes
        self.stderr_path = stderr_path
        self.stderr_log = (
            StderrLog(stderr_path, max_bytes=stderr_max_bytes, keep=stderr_keep) if stderr_path is not None else None
        )
        self.activity = WireActivity()
        self.hung_kills = 0
        # The child inherits the gateway's environment (users configure Windows-MCP via WINDOWS_MCP_*),
        # not the SDK's minimal default (DESIGN.md §11).
        self._environ = dict(os.environ if environ is None else environ)
        self._connector = bounded(
            connector or spec_connector(argv=spec.argv, url=spec.url, environ=self._environ),
            max_result_bytes,
            self.activity,
        )
        self._sink: StderrSink | None = None
        self._mode = mode
        self.hooks: UpstreamHooks | None = None
        self.on_lost: list[Callable[[], None]] = []
        self.restarts = 0
        self.connects = 0
        self.last_error: str | None = None
        self.start_error: BaseException | None = None  # the first real exception of the last failed start
        self._client: Client | None = None
        self._lane: tuple[Client, Lane] | None = None  # the live stdio connection's lane (S-PERF-05)
        self._capabilities: types.ServerCapabilities | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self._closing = False
        self._failures = 0
        self._retry_at: float | None = None
        self._kick = anyio.Event()
        self._state_changed = anyio.Event()
        self._lost = anyio.Event()
        self._stop: anyio.Event | None = None
        self._done = anyio.Event()
        self._owners = 0  # connection-owner tasks still running
        self._owners_gone = anyio.Event()
        self._connected_at = 0.0
        self._in_flight: list[Caller] = []
        self._uris: set[str] = set()
        self._listen_filter = ListenFilter()
        self._log_level: str | None = None
        self._callbacks = ClientCallbacks(lambda: self.hooks)

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        first = self._state_changed
        self._tg.start_soon(self._supervise)
        with anyio.move_on_after(self.startup_wait_s):
            await first.wait()
        if self._client is None:
            log.warning("upstream not available at start: %s", self.last_error or "still starting")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._closing = True
        self._kick.set()
        self._lost.set()
        if self._stop is not None:
            self._stop.set()
        # Let the child exit cleanly (stdin closed, then the SDK's own terminate) before cancelling.
        with anyio.move_on_after(CLOSE_WAIT_S, shield=True):
            await self._done.wait()
            while self._owners:
                await self._owners_gone.wait()
        assert self._tg is not None
        self._tg.cancel_scope.cancel()
        await self._tg.__aexit__(None, None, None)

    @property
    def protocol_version(self) -> str | None:
        return self._client.protocol_version if self._client is not None else None

    @property
    def server_info(self) -> types.Implementation | None:
        return self._client.server_info if self._client is not None else None

    @property
    def capabilities(self) -> types.ServerCapabilities | None:
        """The upstream's capabilities (the last connection's while it is down; None if it never came up)."""
        return self._capabilities

    @property
    def alive(self) -> bool:
        return self._client is not None

    def in_flight(self) -> tuple[Caller, ...]:
        """The client calls waiting on the upstream right now, oldest first (S-PROTO-05)."""
        return tuple(self._in_flight)

    def lane_for(self, client: Client) -> Lane | None:
        """The lean `tools/call` lane of `client`'s connection, if it has one (a stdio child, S-PERF-05)."""
        if self._lane is not None and self._lane[0] is client:
            return self._lane[1]
        return None

    def _signal(self) -> None:
        changed, self._state_changed = self._state_changed, anyio.Event()
        changed.set()

    async def _supervise(self) -> None:
        try:
            while not self._closing:
                ok = await self._attempt()
                if self._closing:
                    break
                if ok:
                    await self._lost.wait()
                    if self._closing:
                        break
                    lived = time.monotonic() - self._connected_at
                    delay = 0.0 if self._failures == 0 else backoff_delay(self._failures)
                    self._failures = 0 if lived >= STABLE_S else self._failures + 1
                else:
                    self._failures += 1
                    delay = backoff_delay(self._failures)
                if delay <= 0:
                    continue
                self._kick = anyio.Event()
                self._retry_at = time.monotonic() + delay
                self._signal()
                if self._failures >= PROACTIVE_ATTEMPTS:
                    await self._kick.wait()
                else:
                    with anyio.move_on_after(delay):
                        await self._kick.wait()
                self._retry_at = None
        finally:
            # Closing may have begun while an attempt was connecting: that connection's owner
            # waits for its own stop, which `__aexit__` could not see yet (it would time out).
            if self._stop is not None:
                self._stop.set()
            self._done.set()

    def _open_errlog(self) -> tuple[TextIO, StderrSink | None]:
        if self.stderr_log is None:
            return sys.stderr, None
        sink = self.stderr_log.open_sink(f"--- winmcp-gateway starts the upstream `{self.spec.describe()}` ---\n")
        return sink.file, sink

    async def _own(self, ready: anyio.Event, stop: anyio.Event, box: dict[str, Any]) -> None:
        """Own one connection: enter the client, serve until `stop`, exit it in this task."""
        self._owners += 1
        errlog, sink = self._open_errlog()
        box["sink"] = sink

        def ended() -> None:
            client = box.get("client")
            if client is not None and not stop.is_set() and not self._closing:
                self._mark_lost(client, "the upstream closed its connection (the process exited?)")

        try:
            with anyio.CancelScope() as scope:
                box["scope"] = scope
                client = make_client(
                    transport=self._connector(errlog),
                    mode=self._mode,
                    callbacks=self._callbacks,
                    on_end=ended,
                    max_result_bytes=self.max_result_bytes,
                    activity=self.activity,
                    on_lane=lambda lane: box.__setitem__("lane", lane),
                )
                async with client:
                    narrow_to_caller(client)  # S-PROTO-28
                    box["client"] = client
                    ready.set()
                    async with anyio.create_task_group() as tg:
                        if is_modern(client):
                            tg.start_soon(pump_listen, client, self._listen_filter, lambda: self.hooks)
                        await stop.wait()
                        tg.cancel_scope.cancel()
        except Exception as exc:  # noqa: BLE001 - reported to the supervisor, never lost
            if "client" not in box:
                box["error"] = exc
            else:
                log.debug("closing the upstream connection raised %r", exc)
        finally:
            if sink is not None:
                sink.close()
                # Everything the child said is in the log once its connection is over (bounded),
                # and before a failed start is reported: its error carries the log's tail.
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(sink.drained.wait, STDERR_SETTLE_S, abandon_on_cancel=True)
            ready.set()
            self._owners -= 1
            gone, self._owners_gone = self._owners_gone, anyio.Event()
            gone.set()

    async def _attempt(self) -> bool:
        assert self._tg is not None
        ready, stop, box = anyio.Event(), anyio.Event(), dict[str, Any]()
        self._tg.start_soon(self._own, ready, stop, box)
        connect_timeout = self.connect_timeout_s
        with anyio.move_on_after(connect_timeout):
            await ready.wait()
        client: Client | None = box.get("client")
        if client is None:
            stop.set()
            if (scope := box.get("scope")) is not None:
                scope.cancel()
            err = box.get("error")
            self.start_error = first_cause(err) if err is not None else None
            detail = describe_cause(err) if err is not None else f"no answer in {connect_timeout:g} s"
            self.last_error = (
                f"cannot start the upstream `{self.spec.describe()}` ({detail}); check the command "
                "or URL and that Windows-MCP runs on its own (`uvx windows-mcp`)"
            )
            log.warning("%s", self.last_error)
            return False
        self._stop, self._lost = stop, anyio.Event()
        self._client, self._capabilities = client, client.server_capabilities
        lane = box.get("lane")
        self._lane = (client, lane) if isinstance(lane, Lane) else None
        self._sink = box.get("sink")
        self.connects += 1
        self._connected_at = time.monotonic()
        self._signal()
        self._tg.start_soon(self._after_connect, self.connects == 1)
        return True

    async def _restore(self, client: Client) -> None:
        """Re-establish on a new connection what clients asked of the previous one (subclasses)."""

    async def _after_connect(self, first: bool) -> None:
        """Restore per-connection state, then tell the hooks (a changed tool list, S-PROTO-08)."""
        client = self._client
        if client is not None:
            await self._restore(client)
        if self.hooks is not None:
            try:
                await self.hooks.connected(first=first)
            except Exception:  # noqa: BLE001 - a hook fault must not take the supervisor down
                log.exception("the upstream-connected hook failed")

    def _mark_lost(self, client: Client, why: str) -> None:
        """The connection is gone: count it, run the listeners (stale observations), restart."""
        if self._client is not client or self._closing:
            return  # an older connection, or the gateway closing it (a request cut short is no loss)
        self._client = None
        self.restarts += 1
        self.last_error = why
        log.warning("upstream connection lost: %s", why)
        for listener in list(self.on_lost):
            try:
                listener()
            except Exception:  # noqa: BLE001 - every listener runs
                log.exception("an upstream-lost listener failed")
        self._lost.set()
        if self._stop is not None:
            self._stop.set()

    async def _ensure(self, what: str) -> Client:
        """A live client; waits for a running attempt, fails at once while backing off (step 2).

        The wait is as long as an attempt may take (`CONNECT_TIMEOUT_S` at least): a call right
        after a restart (a hung upstream killed, S-UPS-07) waits for the new child to come up.
        """
        deadline = anyio.current_time() + self.connect_timeout_s
        while True:
            if self._client is not None:
                return self._client
            if self._closing:
                raise UpstreamError("the gateway is shutting down", code="UPSTREAM_UNREACHABLE")
            if self._retry_at is not None:
                wait = self._retry_at - time.monotonic()
                if wait > 0:
                    raise UpstreamError(
                        f"the upstream is not running ({self.last_error}); next attempt in {wait:.1f} s",
                        stderr_tail=tail_of(self.stderr_path),
                        code="UPSTREAM_UNREACHABLE",
                    )
                self._kick.set()
            changed = self._state_changed
            remaining = deadline - anyio.current_time()
            if remaining <= 0:
                raise UpstreamTimeout(f"the upstream did not come up in time for {what}", code="UPSTREAM_TIMEOUT")
            with anyio.move_on_after(remaining):
                await changed.wait()

    # -- liveness (S-UPS-07) -------------------------------------------------------------------

    async def is_alive(self, client: Client) -> bool:
        """Whether the upstream behind `client` still answers: a ping within `ping_timeout_s`.

        Any answer counts, an error too (at 2026-07-28 `ping` is gone and a server may refuse
        it), and so do bytes still arriving: a long answer ahead of the ping is not silence.
        """
        if self._client is not client:
            return False
        before = self.activity.received
        answered = False
        with anyio.move_on_after(self.ping_timeout_s):
            try:
                await client.session.send_ping()
                answered = True
            except MCPError as exc:
                answered = exc.code not in (types.CONNECTION_CLOSED, types.REQUEST_TIMEOUT)
            except Exception as exc:  # noqa: BLE001 - a broken pipe or closed stream is no answer
                log.debug("the liveness ping failed: %r", exc)
        return answered or self.activity.received != before

    def kill_hung(self, client: Client, why: str) -> None:
        """Treat the upstream behind `client` as lost: it is stopped (its child killed) and restarted."""
        if self._client is client:
            self.hung_kills += 1
        self._mark_lost(client, why)

    async def settled_stderr_tail(self, sink: StderrSink | None) -> str:
        """The stderr tail once a dead child's last lines reached the log (bounded by `STDERR_SETTLE_S`)."""
        if sink is not None:
            await anyio.to_thread.run_sync(sink.drained.wait, STDERR_SETTLE_S, abandon_on_cancel=True)
        return tail_of(self.stderr_path)
