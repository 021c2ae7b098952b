"""The MCP client side: one live connection to Windows-MCP, supervised and restarted when it dies.

This is the one place upstream and library exceptions are mapped (`map_upstream_errors`,
STYLE.md §3): the most specific match wins, and everything else is an `UpstreamError`
whose message says what happened and what to do. Nothing above this module sees an
`MCPError` from the upstream connection except a protocol error that must be passed on
with its JSON-RPC code (`UpstreamProtocolError`, S-UPS-05).

Lifecycle (S-UPS-01 … S-UPS-04), as numbered steps:

    1. `__aenter__` starts a supervisor task and waits (at most `STARTUP_WAIT_S`) for the
       first connection attempt. It never raises: a failure is kept in `last_error`, and
       the gateway still serves its own tools and explains the failure.
    2. A call (`call_tool`, `forward`, `list_tools`) uses the live client; while an attempt
       is running it waits for it; while the supervisor backs off it fails at once with
       `last_error` and when the next attempt is due, and past that time it starts one.
    3. The connection's end is seen the moment it happens (end of the transport's stream,
       or a request answered "connection closed"): `restarts` goes up, `on_lost` listeners
       run *synchronously* (the gateway marks every observation stale before any other
       call can be judged), in-flight calls fail with UPSTREAM_DIED and the stderr tail.
    4. The supervisor reconnects: at once after a connection that lived `STABLE_S`, else
       with backoff `RESTART_BACKOFF_S`; after `PROACTIVE_ATTEMPTS` failed attempts in a
       row it waits for a call to ask again (no endless background respawning).
    5. Every request is bounded by `timeout_s` (config `upstream_timeout_s`); on timeout the
       SDK cancels the upstream request and the call gets UPSTREAM_TIMEOUT.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import anyio
import anyio.abc
import mcp_types as types
from mcp import Client, InputRequiredRoundsExceededError
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter, ValidationError

from gateway._upstream_conn import ClientCallbacks, is_modern, make_client, pump_listen, send_quietly
from gateway.errors import UpstreamError, UpstreamTimeout
from gateway.upstream_hooks import CURRENT_CALLER, Caller, UpstreamHooks

log = logging.getLogger(__name__)

# JSON-RPC codes the SDK uses for transport faults (mcp_types.jsonrpc).
_CONNECTION_CLOSED = types.CONNECTION_CLOSED
_REQUEST_TIMEOUT = types.REQUEST_TIMEOUT
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

_CLIENT_REQUEST: TypeAdapter[Any] = TypeAdapter(types.ClientRequest)
# Forwarded requests that answer in one round (no input_required) and their result types.
_PLAIN_RESULTS: dict[str, type[Any]] = {
    "resources/list": types.ListResourcesResult,
    "resources/templates/list": types.ListResourceTemplatesResult,
    "prompts/list": types.ListPromptsResult,
    "completion/complete": types.CompleteResult,
    "resources/subscribe": types.EmptyResult,
    "resources/unsubscribe": types.EmptyResult,
    "logging/setLevel": types.EmptyResult,
}


class UpstreamProtocolError(UpstreamError):
    """The upstream answered with a JSON-RPC error; it is passed on with its code (DESIGN.md §10)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message, code="UPSTREAM_PROTOCOL_ERROR")
        self.rpc_code = code
        self.rpc_data = data


@dataclass(frozen=True, slots=True, kw_only=True)
class UpstreamSpec:
    """Where the upstream is: a stdio command (argv) or a streamable-HTTP URL."""

    argv: tuple[str, ...] = ()
    url: str | None = None

    def __post_init__(self) -> None:
        if bool(self.argv) == bool(self.url):
            raise ValueError("an upstream is either a command or a URL")

    @classmethod
    def command(cls, command_line: str) -> UpstreamSpec:
        """Parse `--upstream-cmd` (POSIX quoting rules on every platform, so docs show one form)."""
        argv = tuple(shlex.split(command_line, posix=True))
        if not argv:
            raise ValueError("--upstream-cmd is empty")
        return cls(argv=argv)

    @classmethod
    def simulator(cls, *sim_args: str) -> UpstreamSpec:
        """The bundled simulated Windows-MCP, run with this Python."""
        return cls(argv=(sys.executable, "-m", "gateway.sim", *sim_args))

    def describe(self) -> str:
        return self.url if self.url else shlex.join(self.argv)


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


@contextlib.contextmanager
def map_upstream_errors(what: str, stderr_path: Path | None = None) -> Iterator[None]:
    """Turn every upstream/library fault into an `UpstreamError` (the one mapping boundary).

    Args:
        what: the operation, for the message (e.g. "tools/call Click").
        stderr_path: the upstream's stderr log, whose tail is attached on a crash.

    Raises:
        UpstreamProtocolError: the upstream answered with a JSON-RPC error (its code is kept).
        UpstreamTimeout: no answer within the timeout (UPSTREAM_TIMEOUT).
        UpstreamError: the connection died (UPSTREAM_DIED), cannot be reached (UPSTREAM_UNREACHABLE),
            or answered in a shape the protocol does not allow (UPSTREAM_BAD_ANSWER).
    """
    try:
        yield
    except UpstreamError:
        raise
    except MCPError as exc:
        if exc.code == _CONNECTION_CLOSED:
            raise UpstreamError(
                f"the upstream connection closed during {what} (the upstream process exited or the "
                "server went away); the gateway restarts it — retry the call",
                stderr_tail=tail_of(stderr_path),
                code="UPSTREAM_DIED",
            ) from exc
        if exc.code == _REQUEST_TIMEOUT:
            raise UpstreamTimeout(
                f"the upstream did not answer {what} in time", code="UPSTREAM_TIMEOUT"
            ) from exc
        raise UpstreamProtocolError(exc.code, exc.message, exc.data) from exc
    except TimeoutError as exc:
        raise UpstreamTimeout(f"the upstream did not answer {what} in time", code="UPSTREAM_TIMEOUT") from exc
    except (ValidationError, InputRequiredRoundsExceededError) as exc:
        # The upstream answered, but not in a shape the negotiated protocol allows.
        raise UpstreamError(
            f"the upstream's answer to {what} is malformed: {exc}", code="UPSTREAM_BAD_ANSWER"
        ) from exc
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream) as exc:
        raise UpstreamError(
            f"the upstream connection is broken ({type(exc).__name__}) during {what}",
            stderr_tail=tail_of(stderr_path),
            code="UPSTREAM_DIED",
        ) from exc
    except OSError as exc:
        raise UpstreamError(
            f"the upstream cannot be reached for {what}: {exc}", code="UPSTREAM_UNREACHABLE"
        ) from exc


def _wire(model: Any) -> dict[str, Any]:
    """A result model as the dict that went over the wire (aliases, no Nones, no upstream identity stamp)."""
    data: dict[str, Any] = model.model_dump(by_alias=True, exclude_none=True, mode="json")
    meta = data.get("_meta")
    if isinstance(meta, dict):
        meta.pop("io.modelcontextprotocol/serverInfo", None)
        if not meta:
            del data["_meta"]
    return data


def backoff_delay(failures: int) -> float:
    """The wait before the next attempt after `failures` failed ones in a row (S-UPS-02)."""
    return RESTART_BACKOFF_S[min(max(failures, 1), len(RESTART_BACKOFF_S)) - 1]


class Upstream:
    """One supervised connection to the upstream (see the module docstring for the lifecycle).

    A dedicated task owns each SDK `Client` context (anyio scopes must be exited by the task
    that entered them); callers in any task use `call_tool` / `list_tools` / `forward`.
    `restarts` counts lost connections (each is followed by a restart); `on_lost` listeners
    run the moment a loss is seen; `hooks` receives what the upstream says first.
    """

    def __init__(
        self,
        spec: UpstreamSpec,
        *,
        timeout_s: float = 150.0,
        stderr_path: Path | None = None,
        environ: Mapping[str, str] | None = None,
        mode: str = "legacy",
    ) -> None:
        self.spec = spec
        self.timeout_s = timeout_s
        self.stderr_path = stderr_path
        # The child inherits the gateway's environment (users configure Windows-MCP via WINDOWS_MCP_*),
        # not the SDK's minimal default (DESIGN.md §11).
        self._environ = dict(os.environ if environ is None else environ)
        self._mode = mode
        self.hooks: UpstreamHooks | None = None
        self.on_lost: list[Callable[[], None]] = []
        self.restarts = 0
        self.connects = 0
        self.last_error: str | None = None
        self._client: Client | None = None
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
        self._connected_at = 0.0
        self._in_flight: list[Caller] = []
        self._uris: set[str] = set()
        self._uris_changed = anyio.Event()
        self._log_level: str | None = None
        self._callbacks = ClientCallbacks(lambda: self.hooks)

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> Upstream:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        first = self._state_changed
        self._tg.start_soon(self._supervise)
        with anyio.move_on_after(STARTUP_WAIT_S):
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
        with anyio.move_on_after(5.0, shield=True):
            await self._done.wait()
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
            self._done.set()

    def _open_errlog(self) -> TextIO:
        if self.stderr_path is None:
            return sys.stderr
        self.stderr_path.parent.mkdir(parents=True, exist_ok=True)
        errlog = self.stderr_path.open("a", encoding="utf-8")
        errlog.write(f"--- winmcp-gateway starts the upstream `{self.spec.describe()}` ---\n")
        errlog.flush()
        return errlog

    async def _own(self, ready: anyio.Event, stop: anyio.Event, box: dict[str, Any]) -> None:
        """Own one connection: enter the client, serve until `stop`, exit it in this task."""
        errlog = self._open_errlog()

        def ended() -> None:
            client = box.get("client")
            if client is not None and not stop.is_set() and not self._closing:
                self._mark_lost(client, "the upstream closed its connection (the process exited?)")

        try:
            with anyio.CancelScope() as scope:
                box["scope"] = scope
                client = make_client(
                    argv=self.spec.argv,
                    url=self.spec.url,
                    environ=self._environ,
                    errlog=errlog,
                    mode=self._mode,
                    callbacks=self._callbacks,
                    on_end=ended,
                )
                async with client:
                    box["client"] = client
                    ready.set()
                    async with anyio.create_task_group() as tg:
                        if is_modern(client):
                            tg.start_soon(
                                pump_listen,
                                client,
                                lambda: tuple(sorted(self._uris)),
                                lambda: self._uris_changed,
                                lambda: self.hooks,
                            )
                        await stop.wait()
                        tg.cancel_scope.cancel()
        except Exception as exc:  # noqa: BLE001 - reported to the supervisor, never lost
            if "client" not in box:
                box["error"] = exc
            else:
                log.debug("closing the upstream connection raised %r", exc)
        finally:
            ready.set()
            if errlog is not sys.stderr:
                errlog.close()

    async def _attempt(self) -> bool:
        assert self._tg is not None
        ready, stop, box = anyio.Event(), anyio.Event(), dict[str, Any]()
        self._tg.start_soon(self._own, ready, stop, box)
        connect_timeout = max(self.timeout_s, CONNECT_TIMEOUT_S)
        with anyio.move_on_after(connect_timeout):
            await ready.wait()
        client: Client | None = box.get("client")
        if client is None:
            stop.set()
            if (scope := box.get("scope")) is not None:
                scope.cancel()
            err = box.get("error")
            detail = (
                f"{type(err).__name__}: {err}" if err is not None else f"no answer in {connect_timeout:g} s"
            )
            self.last_error = (
                f"cannot start the upstream `{self.spec.describe()}` ({detail}); check the command "
                "or URL and that Windows-MCP runs on its own (`uvx windows-mcp`)"
            )
            log.warning("%s", self.last_error)
            return False
        self._stop, self._lost = stop, anyio.Event()
        self._client, self._capabilities = client, client.server_capabilities
        self.connects += 1
        self._connected_at = time.monotonic()
        self._signal()
        self._tg.start_soon(self._after_connect, self.connects == 1)
        return True

    async def _after_connect(self, first: bool) -> None:
        """Re-establish what clients asked of the previous connection, then tell the hooks."""
        client = self._client
        if client is not None and not is_modern(client):
            for uri in sorted(self._uris):
                with contextlib.suppress(UpstreamError):
                    await self.forward("resources/subscribe", {"uri": uri})
            if self._log_level is not None:
                with contextlib.suppress(UpstreamError):
                    await self.forward("logging/setLevel", {"level": self._log_level})
        if self.hooks is not None:
            try:
                await self.hooks.connected(first=first)
            except Exception:  # noqa: BLE001 - a hook fault must not take the supervisor down
                log.exception("the upstream-connected hook failed")

    def _mark_lost(self, client: Client, why: str) -> None:
        """The connection is gone: count it, run the listeners (stale observations), restart."""
        if self._client is not client:
            return
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
        """A live client; waits for a running attempt, fails at once while backing off (step 2)."""
        deadline = anyio.current_time() + self.timeout_s
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
                raise UpstreamTimeout(
                    f"the upstream did not come up in time for {what}", code="UPSTREAM_TIMEOUT"
                )
            with anyio.move_on_after(remaining):
                await changed.wait()

    # -- requests ----------------------------------------------------------------------------

    async def _request(self, what: str, op: Callable[[Client], Any]) -> Any:
        client = await self._ensure(what)
        caller = CURRENT_CALLER.get()
        if caller is not None:
            self._in_flight.append(caller)
        try:
            with map_upstream_errors(what, self.stderr_path), anyio.fail_after(self.timeout_s):
                return await op(client)
        except UpstreamError as exc:
            if exc.code == "UPSTREAM_DIED":
                self._mark_lost(client, str(exc))
            raise
        finally:
            if caller is not None:
                for i in range(len(self._in_flight) - 1, -1, -1):
                    if self._in_flight[i] is caller:
                        del self._in_flight[i]
                        break

    async def list_tools(self) -> list[dict[str, Any]]:
        """All upstream tools as wire dicts (every page)."""

        async def op(client: Client) -> list[dict[str, Any]]:
            tools: list[dict[str, Any]] = []
            cursor: str | None = None
            while True:
                page = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
                tools.extend(_wire(t) for t in page.tools)
                cursor = page.next_cursor
                if not cursor:
                    return tools

        result: list[dict[str, Any]] = await self._request("tools/list", op)
        return result

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Call one upstream tool and return its result as the wire dict.

        The current `Caller` (if any) receives the upstream's progress under its own token and
        contributes its own `_meta` keys (S-PROTO-04).
        """
        caller = CURRENT_CALLER.get()
        progress = caller.progress if caller is not None else None
        meta: Any = dict(caller.forward_meta) if caller is not None and caller.forward_meta else None

        async def op(client: Client) -> dict[str, Any]:
            return _wire(await client.call_tool(name, dict(arguments), progress_callback=progress, meta=meta))

        result: dict[str, Any] = await self._request(f"tools/call {name}", op)
        return result

    async def forward(self, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """Forward one non-tool request (resources, prompts, completion, logging); the wire result.

        Raises:
            UpstreamProtocolError: the upstream refused it (the JSON-RPC code is kept, S-UPS-05).
            UpstreamError: the upstream is down, died or timed out.
        """
        body = dict(params or {})
        meta = body.get("_meta")
        op: Callable[[Client], Any]
        if method == "resources/read":
            op = lambda c: c.read_resource(body["uri"], meta=meta)  # noqa: E731
        elif method == "prompts/get":
            op = lambda c: c.get_prompt(body["name"], body.get("arguments"), meta=meta)  # noqa: E731
        elif method in _PLAIN_RESULTS:
            request = _CLIENT_REQUEST.validate_python({"method": method, "params": body})
            op = lambda c: send_quietly(c, request, _PLAIN_RESULTS[method])  # noqa: E731
        else:
            raise UpstreamProtocolError(types.METHOD_NOT_FOUND, "Method not found", method)
        result: dict[str, Any] = _wire(await self._request(method, op))
        return result

    async def set_subscribed(self, uri: str, subscribed: bool) -> None:
        """Hold (or drop) the upstream's subscription to `uri` (resources/subscribe, or the listen filter)."""
        previous = set(self._uris)
        (self._uris.add if subscribed else self._uris.discard)(uri)
        client = await self._ensure("resources/subscribe")
        if is_modern(client):
            changed, self._uris_changed = self._uris_changed, anyio.Event()
            changed.set()
            return
        try:
            await self.forward("resources/subscribe" if subscribed else "resources/unsubscribe", {"uri": uri})
        except UpstreamError:
            self._uris = previous
            raise

    async def set_log_level(self, level: str) -> None:
        """The level the upstream should log at (kept, and sent again after a restart)."""
        self._log_level = level
        client = await self._ensure("logging/setLevel")
        if not is_modern(client):  # 2026-07-28: no setLevel; the per-request opt-in asks for everything
            await self.forward("logging/setLevel", {"level": level})

    async def notify_roots_changed(self) -> None:
        """Tell the upstream that a client's roots changed (2025-11-25 only; roots are gone at 2026-07-28)."""
        client = self._client
        if client is not None and not is_modern(client):
            with contextlib.suppress(Exception):
                await client.session.send_notification(types.RootsListChangedNotification())


def upstream_argv_for_sim(scenario: str | None, extra: Sequence[str] = ()) -> UpstreamSpec:
    """The simulator as an upstream, optionally with a scenario."""
    args = ["--scenario", scenario] if scenario else []
    return UpstreamSpec.simulator(*args, *extra)


__all__ = [
    "CONNECT_TIMEOUT_S",
    "RESTART_BACKOFF_S",
    "backoff_delay",
    "Upstream",
    "UpstreamProtocolError",
    "UpstreamSpec",
    "map_upstream_errors",
    "tail_of",
    "upstream_argv_for_sim",
]
