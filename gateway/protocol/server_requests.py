"""What the upstream says first, routed to the right clients (S-PROTO-05 … S-PROTO-08).

The rules, in order, for a **server→client request** (sampling, elicitation, roots):

    1. The SDK ran it in the task of the client call that caused it (a 2026-07-28 upstream's
       input-required round, or a context-carrying HTTP stream): that call's client.
    2. Otherwise, the client calls waiting on the upstream right now: if they all belong to
       one session, the newest of them. (Over stdio the upstream's request carries no link
       to the call that caused it; one session in flight is unambiguous.)
    3. Several sessions in flight: refused with INVALID_REQUEST — sending one client's
       sampling prompt to another client would leak it. Nothing in flight: the only
       2025-11-25 client connected, if there is exactly one; else refused.

For a **notification**:

    - `notifications/message` (logging, e.g. Windows-MCP's USER_CONTROL notices): rule 2's
      single in-flight call gets it on its own stream (if its level opt-in/floor admits it);
      otherwise every 2025-11-25 client whose `logging/setLevel` floor admits it. A
      2026-07-28 client only receives logs on a request that opted in (that era's rule).
    - `resources/updated`: the clients subscribed to that URI (2025-11-25 `resources/subscribe`,
      2026-07-28 `subscriptions/listen`).
    - `resources/list_changed`, `prompts/list_changed`: every client.
    - `tools/list_changed`: re-fetch, re-filter (visibility), and notify every client only if
      the list a client would now see differs from before (or nobody has listed it yet).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types as types
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
    ServerEvent,
    ToolsListChanged,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import TypeAdapter

from gateway.app import GatewayApp
from gateway.errors import UpstreamError
from gateway.protocol.sessions import session_of
from gateway.protocol.waiting_call import CAPABILITY_FOR, CallLink, level_at_least, result_type_for
from gateway.upstream.client_side import Caller, not_supported

log = logging.getLogger(__name__)

UNSUBSCRIBE_WAIT_S = 5.0  # an unsubscribe is one small request; longer means the upstream is in trouble

_NOTIFICATION: TypeAdapter[Any] = TypeAdapter(types.ServerNotification)
_SERVER_REQUEST: TypeAdapter[Any] = TypeAdapter(types.ServerRequest)
_LIST_EVENTS: dict[str, ServerEvent] = {
    "notifications/resources/list_changed": ResourcesListChanged(),
    "notifications/prompts/list_changed": PromptsListChanged(),
}
_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


def tools_digest(tools: list[dict[str, Any]]) -> str:
    """A digest of a tools/list as a client sees it (order-insensitive)."""
    canonical = sorted(json.dumps(t, sort_keys=True) for t in tools)
    return hashlib.sha256("\n".join(canonical).encode()).hexdigest()


@dataclass
class Peer:
    """A connected 2025-11-25 client: its standalone channel, `setLevel` floor and subscriptions."""

    key: str
    session: Any  # mcp ServerSession: notifications without a related request use the standalone channel
    connection: Any
    log_floor: str | None = None
    uris: set[str] = field(default_factory=set)


class Router:
    """Implements `UpstreamHooks` for one gateway process (see the module docstring)."""

    def __init__(self, app: GatewayApp) -> None:
        self.app = app
        self.peers: dict[str, Peer] = {}
        self.bus = InMemorySubscriptionBus()
        self._listen = ListenHandler(self.bus)
        self._holders: dict[str, set[str]] = {}
        self._listens = 0
        self.tools_digest: str | None = None

    # -- who is connected --------------------------------------------------------------------

    def seen(self, ctx: Any) -> None:
        """Remember a 2025-11-25 client's connection so notifications can reach it outside calls."""
        connection = getattr(ctx.session, "_connection", None)
        if connection is None or ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return
        if not getattr(connection, "has_standalone_channel", False):
            return
        key = session_of(ctx)
        peer = self.peers.get(key)
        if peer is not None and peer.connection is connection:
            return
        self.peers[key] = Peer(key=key, session=ctx.session, connection=connection)
        connection.exit_stack.push_async_callback(self._forget, key, connection)

    async def _forget(self, key: str, connection: Any) -> None:
        peer = self.peers.get(key)
        if peer is None or peer.connection is not connection:
            return
        del self.peers[key]
        for uri in list(peer.uris):
            await self.release(key, uri)

    def log_floor(self, session: str) -> str | None:
        peer = self.peers.get(session)
        return peer.log_floor if peer is not None else None

    # -- server→client requests (rules 1-3) --------------------------------------------------

    def _in_flight(self) -> tuple[Caller | None, bool]:
        callers = self.app.upstream.in_flight()
        if not callers:
            return None, False
        if len({c.session for c in callers}) > 1:
            return None, True
        return callers[-1], False

    async def server_request(
        self, method: str, params: Mapping[str, Any], caller: Caller | None
    ) -> dict[str, Any] | types.ErrorData:
        """Answer a server→client request from the upstream (rules 1-3)."""
        target, ambiguous = (caller, False) if caller is not None else self._in_flight()
        if ambiguous:
            log.warning("refused the upstream's %s: calls of several clients are in flight", method)
            return types.ErrorData(
                code=types.INVALID_REQUEST,
                message=(
                    f"winmcp-gateway cannot tell which client this {method} is for: calls of several clients "
                    "are waiting on the upstream"
                ),
            )
        if target is not None:
            return await target.ask(method, params)
        if len(self.peers) == 1:
            return await self._ask_peer(next(iter(self.peers.values())), method, params)
        return types.ErrorData(
            code=types.INVALID_REQUEST,
            message=(f"winmcp-gateway has no client call to route this {method} to"),
        )

    async def _ask_peer(self, peer: Peer, method: str, params: Mapping[str, Any]) -> dict[str, Any] | types.ErrorData:
        wanted = CAPABILITY_FOR.get(method)
        if wanted is None or not peer.session.check_client_capability(wanted):
            return not_supported(method)
        request = _SERVER_REQUEST.validate_python({"method": method, "params": dict(params)})
        try:
            answer = await peer.session.send_request(request, result_type_for(method, params))
        except Exception as exc:  # noqa: BLE001 - the client's refusal goes back to the upstream
            error = getattr(exc, "error", None)
            if isinstance(error, types.ErrorData):
                return error
            return types.ErrorData(code=types.INTERNAL_ERROR, message=f"the client could not answer {method}: {exc}")
        wire: dict[str, Any] = answer.model_dump(by_alias=True, exclude_none=True, mode="json")
        return wire

    # -- notifications -----------------------------------------------------------------------

    async def _broadcast(
        self,
        method: str,
        params: Mapping[str, Any] | None,
        *,
        level: str | None = None,
        uri: str | None = None,
    ) -> None:
        note = _NOTIFICATION.validate_python({"method": method, "params": params})
        for peer in list(self.peers.values()):
            if level is not None and not level_at_least(level, peer.log_floor):
                continue
            if uri is not None and uri not in peer.uris:
                continue
            try:
                await peer.session.send_notification(note)
            except Exception:  # noqa: BLE001 - one closed client must not stop the others
                log.debug("could not notify %s of %s", peer.key, method, exc_info=True)

    async def notification(self, method: str, params: Mapping[str, Any] | None) -> None:
        """Deliver an upstream notification (see the module docstring)."""
        if method == "notifications/tools/list_changed":
            await self.refresh_tools()
            return
        if method in _LIST_EVENTS:
            await self._broadcast(method, params)
            await self.bus.publish(_LIST_EVENTS[method])
            return
        if method == "notifications/resources/updated":
            uri = str((params or {}).get("uri", ""))
            await self._broadcast(method, params, uri=uri)
            await self.bus.publish(ResourceUpdated(uri=uri))
            return
        level = str((params or {}).get("level", "")) if method == "notifications/message" else None
        target, _ = self._in_flight()
        if isinstance(target, CallLink):
            if level is None or target.wants_log(level):
                await target.notify(method, params)
            return
        await self._broadcast(method, params, level=level)

    async def refresh_tools(self) -> None:
        """Re-fetch and re-filter the tool list; tell clients only if what they see changed."""
        before = self.tools_digest
        self.app.forget_upstream_tools()
        try:
            tools = await self.app.client_tools()
        except UpstreamError:
            return
        self.tools_digest = tools_digest(tools)
        # No baseline (no client has listed tools since the gateway started, e.g. a 2026-07-28
        # client that only listens): whether the list changed cannot be told, so it is announced
        # (S-PROTO-25); a spurious list_changed costs a client one tools/list, a missed one stale tools.
        if before != self.tools_digest:
            await self._broadcast("notifications/tools/list_changed", None)
            await self.bus.publish(ToolsListChanged())

    async def connected(self, *, first: bool) -> None:
        """After a (re)connection the upstream's tools may differ from what clients were shown."""
        if self.tools_digest is not None:
            await self.refresh_tools()

    # -- subscriptions and log levels --------------------------------------------------------

    async def hold(self, holder: str, uri: str) -> None:
        """`holder` wants updates of `uri`; the upstream is subscribed while anyone does."""
        holders = self._holders.setdefault(uri, set())
        first = not holders
        holders.add(holder)
        peer = self.peers.get(holder)
        if peer is not None:
            peer.uris.add(uri)
        if first:
            try:
                await self.app.upstream.set_subscribed(uri, True)
            except BaseException:
                holders.discard(holder)
                if peer is not None:
                    peer.uris.discard(uri)
                raise

    async def release(self, holder: str, uri: str) -> None:
        """`holder` no longer wants updates of `uri`; the last one out unsubscribes upstream."""
        holders = self._holders.get(uri, set())
        peer = self.peers.get(holder)
        if peer is not None:
            peer.uris.discard(uri)
        if holder not in holders:
            return
        holders.discard(holder)
        if not holders:
            self._holders.pop(uri, None)
            # Shielded so a cancelled listener still releases upstream, but bounded: a shield without
            # a deadline would let a slow or dying upstream hang the caller past every timeout.
            with anyio.move_on_after(UNSUBSCRIBE_WAIT_S, shield=True) as scope:
                try:
                    await self.app.upstream.set_subscribed(uri, False)
                except UpstreamError as exc:
                    log.info("could not unsubscribe %s upstream: %s", uri, exc)
            if scope.cancelled_caught:
                log.info("unsubscribing %s upstream took over %s s; left to the upstream", uri, UNSUBSCRIBE_WAIT_S)

    async def set_log_floor(self, ctx: Any, level: str) -> None:
        """A 2025-11-25 client's `logging/setLevel`: its own floor; the upstream logs at the lowest floor."""
        self.seen(ctx)
        peer = self.peers.get(session_of(ctx))
        if peer is not None:
            peer.log_floor = level
        floors = [p.log_floor for p in self.peers.values() if p.log_floor in _LEVELS] or [level]
        await self.app.upstream.set_log_level(min(floors, key=_LEVELS.index))

    async def listen(self, ctx: Any, params: types.SubscriptionsListenRequestParams) -> Any:
        """A 2026-07-28 `subscriptions/listen` stream, with the upstream subscribed to its URIs meanwhile."""
        self._listens += 1
        holder = f"listen:{self._listens}"
        uris = list(params.notifications.resource_subscriptions or ())
        held: list[str] = []
        try:
            for uri in uris:
                try:
                    await self.hold(holder, uri)
                    held.append(uri)
                except UpstreamError as exc:
                    log.info("listen: the upstream refused a subscription to %s: %s", uri, exc)
            return await self._listen(ctx, params)
        finally:
            for uri in held:
                await self.release(holder, uri)
