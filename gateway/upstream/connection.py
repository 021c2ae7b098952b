"""Pieces of one upstream connection: how it is opened (`Connector`), the transport that reports
its own end, the SDK client built around it, and the 2026-07-28 `subscriptions/listen` pump
(S-UPS-02, S-PROTO-07).

Every connection's answers are bounded by `max_result_bytes` (S-UPS-10): the stdio child's
reader does it before a long line is held (`gateway.upstream.stdio_bounded`, reached through
`bounded`), and the watched read stream checks every parsed answer of any other transport.

`gateway.upstream.client.Upstream` supervises connections; this module only builds and runs one.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import warnings
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TextIO, TypeAlias

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.session import ClientRequestContext, IncomingMessage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.shared.message import SessionMessage
from mcp.shared.subscriptions import event_to_notification
from mcp_types import CLIENT_CAPABILITIES_META_KEY
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from gateway.upstream.client_side import CURRENT_CALLER, INPUT_KEY, UpstreamHooks, not_supported
from gateway.upstream.lane import Lane
from gateway.upstream.limits import DEFAULT_MAX_RESULT_BYTES, WireActivity, oversized
from gateway.upstream.stdio_bounded import bounded_stdio_client

log = logging.getLogger(__name__)

# Notifications the gateway handles elsewhere: progress is correlated by the SDK to the call
# that asked for it, cancellation is applied by the SDK's dispatcher.
_HANDLED_ELSEWHERE = frozenset({"notifications/progress", "notifications/cancelled"})


class _WatchedReceive:
    """A transport's receive stream that calls `on_end` once when the peer goes away.

    The SDK keeps a dead stdio child's `Client` open until someone sends a request; watching
    end-of-stream lets the gateway mark every observation stale and restart at once (S-UPS-02).
    """

    def __init__(
        self, inner: Any, on_end: Callable[[], None], limit: int | None = None, activity: WireActivity | None = None
    ) -> None:
        self._inner = inner
        self._on_end = on_end
        self._limit = limit
        self._activity = activity

    @property
    def last_context(self) -> contextvars.Context | None:
        # Context-carrying streams (streamable HTTP) expose the sender's contextvars per message.
        ctx: contextvars.Context | None = getattr(self._inner, "last_context", None)
        return ctx

    async def receive(self) -> Any:
        try:
            message = await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._on_end()
            raise
        if self._activity is not None:
            self._activity.touch()
        if self._limit is not None and (error := oversized(message, self._limit)) is not None:
            log.warning("%s", error.error.message)
            return SessionMessage(error)
        return message

    def __aiter__(self) -> _WatchedReceive:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    def close(self) -> None:
        self._inner.close()

    async def __aenter__(self) -> _WatchedReceive:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


@contextlib.asynccontextmanager
async def watched(
    transport: Any,
    on_end: Callable[[], None],
    *,
    max_result_bytes: int | None = None,
    activity: WireActivity | None = None,
    on_lane: Callable[[Lane], None] | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """Enter `transport` and hand out its streams with an end-of-stream watch on the read side.

    Args:
        transport: the connection's transport, not yet entered.
        on_end: called once when the read side ends.
        max_result_bytes: a parsed answer larger than this is replaced by RESULT_TOO_LARGE.
        activity: counts every message received.
        on_lane: given the transport's `Lane` when it has one (the stdio child's, S-PERF-05).
    """
    async with transport as streams:
        read, write = streams
        lane = getattr(streams, "lane", None)
        if on_lane is not None and isinstance(lane, Lane):
            on_lane(lane)
        yield _WatchedReceive(read, on_end, max_result_bytes, activity), write


def _as_model(method: str, answer: dict[str, Any]) -> Any:
    if method == "sampling/createMessage":
        model: type[Any] = (
            types.CreateMessageResultWithTools if isinstance(answer.get("content"), list) else types.CreateMessageResult
        )
    elif method == "elicitation/create":
        model = types.ElicitResult
    else:
        model = types.ListRootsResult
    return model.model_validate(answer)


class ClientCallbacks:
    """The SDK client callbacks of the upstream connection, delegating to the gateway's hooks."""

    def __init__(self, hooks: Callable[[], UpstreamHooks | None]) -> None:
        self._hooks = hooks

    async def _ask(self, method: str, params: Any) -> Any:
        hooks = self._hooks()
        if hooks is None:
            return not_supported(method)
        wire = params.model_dump(by_alias=True, exclude_none=True, mode="json") if params is not None else {}
        answer = await hooks.server_request(method, wire, CURRENT_CALLER.get())
        if isinstance(answer, types.ErrorData):
            return answer
        try:
            return _as_model(method, answer)
        except ValueError as exc:  # pydantic ValidationError: the client's answer was malformed
            return types.ErrorData(
                code=types.INTERNAL_ERROR, message=f"the client's answer to {method} is invalid: {exc}"
            )

    async def _ask_keyed(self, context: ClientRequestContext, method: str, params: Any) -> Any:
        # The SDK's 2026-07-28 driver names each embedded input request by its key (`request_id`).
        modern = getattr(context.session, "protocol_version", None) in MODERN_PROTOCOL_VERSIONS
        key = context.request_id if modern and isinstance(context.request_id, str) else None
        token = INPUT_KEY.set(key)
        try:
            return await self._ask(method, params)
        finally:
            INPUT_KEY.reset(token)

    async def sampling(self, context: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
        return await self._ask_keyed(context, "sampling/createMessage", params)

    async def elicitation(self, context: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        return await self._ask_keyed(context, "elicitation/create", params)

    async def list_roots(self, context: ClientRequestContext) -> Any:
        return await self._ask_keyed(context, "roots/list", None)

    async def message(self, message: IncomingMessage) -> None:
        hooks = self._hooks()
        if hooks is None or isinstance(message, Exception):
            return
        data = message.model_dump(by_alias=True, exclude_none=True, mode="json")
        if data["method"] in _HANDLED_ELSEWHERE:
            return
        await hooks.notification(data["method"], data.get("params"))


# A transport: entered, it yields the connection's (read, write) streams; left, it closes them.
Transport: TypeAlias = AbstractAsyncContextManager[tuple[Any, Any]]


class Connector(Protocol):
    """How one upstream connection is opened: the seam between the supervisor and a process.

    The default (`spec_connector`) starts the stdio command or opens the streamable-HTTP URL;
    `gateway.upstream.in_process.in_process` serves an MCP server object in this process.
    """

    def __call__(self, errlog: TextIO) -> Transport:
        """A fresh transport for one connection.

        Args:
            errlog: where a child process's stderr goes (the state dir's upstream.stderr.log).

        Returns:
            The transport, not yet entered.
        """
        ...


class SpecConnector:
    """The connector for an upstream command (a stdio child with `environ`) or a streamable-HTTP URL.

    A stdio child's answers are bounded while they are read (`max_result_bytes`); every byte
    read counts in `activity`.
    """

    def __init__(
        self,
        *,
        argv: tuple[str, ...],
        url: str | None,
        environ: Mapping[str, str],
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        activity: WireActivity | None = None,
    ) -> None:
        self.argv, self.url, self.environ = argv, url, dict(environ)
        self.max_result_bytes = max_result_bytes
        self.activity = activity

    def __call__(self, errlog: TextIO) -> Transport:
        if self.url:
            http: Transport = streamable_http_client(self.url)
            return http
        params = StdioServerParameters(command=self.argv[0], args=list(self.argv[1:]), env=self.environ)
        stdio: Transport = bounded_stdio_client(
            params, errlog, max_result_bytes=self.max_result_bytes, activity=self.activity
        )
        return stdio

    def bounded(self, max_result_bytes: int, activity: WireActivity) -> SpecConnector:
        """The same connector with this limit and activity counter."""
        return SpecConnector(
            argv=self.argv, url=self.url, environ=self.environ, max_result_bytes=max_result_bytes, activity=activity
        )


def spec_connector(*, argv: tuple[str, ...], url: str | None, environ: Mapping[str, str]) -> Connector:
    """The connector for an upstream command (a stdio child with `environ`) or a streamable-HTTP URL."""
    return SpecConnector(argv=argv, url=url, environ=environ)


def bounded(connector: Connector, max_result_bytes: int, activity: WireActivity) -> Connector:
    """`connector` with the result limit and activity counter, where it can apply them while reading.

    Connectors that cannot (a server in this process, a test's stand-in) are returned as they
    are; the watched stream still checks their parsed answers (`watched`).
    """
    if isinstance(connector, SpecConnector):
        return connector.bounded(max_result_bytes, activity)
    return connector


def make_client(
    *,
    transport: Transport,
    mode: str,
    callbacks: ClientCallbacks,
    on_end: Callable[[], None],
    max_result_bytes: int | None = None,
    activity: WireActivity | None = None,
    on_lane: Callable[[Lane], None] | None = None,
) -> Client:
    """The SDK client for one connection (no response cache: a proxy must not answer from one)."""
    return Client(
        watched(transport, on_end, max_result_bytes=max_result_bytes, activity=activity, on_lane=on_lane),
        mode=mode,
        cache=None,
        sampling_callback=callbacks.sampling,
        elicitation_callback=callbacks.elicitation,
        list_roots_callback=callbacks.list_roots,
        message_handler=callbacks.message,
        # 2026-07-28 log delivery is a per-request opt-in: take everything, filter per client.
        log_level="debug",
        client_info=types.Implementation(name="winmcp-gateway", version=_version()),
    )


# The client capabilities the gateway relays to its clients (it declares them to the upstream).
RELAYED_CAPABILITIES = frozenset({"sampling", "elicitation", "roots"})


def narrow_to_caller(client: Client) -> None:
    """At 2026-07-28 every request declares the client capabilities the upstream may rely on: for a
    request made for a client's call, the gateway declares only those of the capabilities it relays
    that this client declared (S-PROTO-28), so an upstream asks the client only what it can answer.

    The SDK stamps its own capabilities on every request (`ClientSession._stamp`); this wraps that
    stamp once the connection is up. Requests made outside any client call (tool refreshes, the
    listen stream) keep the gateway's own declaration.
    """
    session = client.session
    inner = getattr(session, "_stamp", None)
    if not is_modern(client) or inner is None:
        return

    def stamp(data: dict[str, Any], opts: Any) -> None:
        inner(data, opts)
        declared = getattr(CURRENT_CALLER.get(), "declared_capabilities", None)
        meta = (data.get("params") or {}).get("_meta")
        if declared is None or not isinstance(meta, dict):
            return
        caps = meta.get(CLIENT_CAPABILITIES_META_KEY)
        if isinstance(caps, dict):
            meta[CLIENT_CAPABILITIES_META_KEY] = {
                k: v for k, v in caps.items() if k not in RELAYED_CAPABILITIES or k in declared
            }

    session._stamp = stamp  # noqa: SLF001 - the SDK offers no per-request capability override


def _version() -> str:
    from gateway import __version__

    return __version__


def is_modern(client: Client) -> bool:
    return client.protocol_version in MODERN_PROTOCOL_VERSIONS


class ListenFilter:
    """The resource URIs the upstream's 2026-07-28 listen stream should carry, and whether it caught up.

    `update` returns a version; `wait_applied(version)` returns once a stream acknowledged by
    the upstream carries that version's URIs, so a subscription is in force when the
    client's `resources/subscribe` returns.
    """

    def __init__(self) -> None:
        self.uris: tuple[str, ...] = ()
        self.version = 0
        self.applied = 0
        self._changed = anyio.Event()
        self._caught_up = anyio.Event()

    def changed(self) -> anyio.Event:
        return self._changed

    def update(self, uris: set[str]) -> int:
        self.uris = tuple(sorted(uris))
        self.version += 1
        changed, self._changed = self._changed, anyio.Event()
        changed.set()
        return self.version

    def mark_applied(self, version: int) -> None:
        self.applied = max(self.applied, version)
        caught_up, self._caught_up = self._caught_up, anyio.Event()
        caught_up.set()

    async def wait_applied(self, version: int, timeout: float) -> bool:
        with anyio.move_on_after(timeout):
            while self.applied < version:
                await self._caught_up.wait()
        return self.applied >= version


async def pump_listen(client: Client, wanted: ListenFilter, hooks: Callable[[], UpstreamHooks | None]) -> None:
    """At 2026-07-28 change notifications ride a `subscriptions/listen` stream: keep one open
    with every list flag the upstream offers and the resource URIs clients subscribed to,
    reopening it when that set changes, and hand each event to the hooks as a notification."""
    caps = client.server_capabilities
    tools = bool(caps.tools and caps.tools.list_changed)
    prompts = bool(caps.prompts and caps.prompts.list_changed)
    resources = bool(caps.resources and caps.resources.list_changed)
    subscribe = bool(caps.resources and caps.resources.subscribe)
    while True:
        wake, version = wanted.changed(), wanted.version
        uris = wanted.uris if subscribe else ()
        if not (tools or prompts or resources or uris):
            wanted.mark_applied(version)
            await wake.wait()
            continue
        try:
            async with (
                client.listen(
                    tools_list_changed=tools,
                    prompts_list_changed=prompts,
                    resources_list_changed=resources,
                    resource_subscriptions=uris,
                ) as sub,
                anyio.create_task_group() as tg,
            ):

                async def relay() -> None:
                    async for event in sub:
                        current = hooks()
                        if current is not None:
                            note = event_to_notification(event, {}).model_dump(by_alias=True, exclude_none=True)
                            params = {k: v for k, v in (note.get("params") or {}).items() if k != "_meta"}
                            await current.notification(note["method"], params or None)

                tg.start_soon(relay)
                wanted.mark_applied(version)
                await wake.wait()
                tg.cancel_scope.cancel()
        except Exception as exc:  # noqa: BLE001 - a lost listen stream must not take the connection down
            log.warning("the upstream's subscriptions/listen stream ended (%s); list changes are not relayed", exc)
            wanted.mark_applied(version)
            await wake.wait()


async def send_quietly(client: Client, request: Any, result: type[Any]) -> Any:
    """Send a request whose typed helper the SDK marks deprecated (logging, subscribe) without the warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        return await client.session.send_request(request, result)
