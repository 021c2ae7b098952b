"""Forwarding of everything that is not a tool (S-PROTO-01 … S-PROTO-04).

Tools go through the safety pipeline (`gateway.pipeline.journey`); these requests carry no desktop
action, so they are passed to the upstream unchanged and its answer comes back unchanged:

    resources/list, resources/templates/list, prompts/list, completion/complete  → one round
    resources/read, prompts/get        → may be interactive (the upstream may ask the client)
    resources/subscribe|unsubscribe    → held per client, the upstream subscribed once (routing)
    subscriptions/listen (2026-07-28)  → the same subscriptions, on a listen stream
    logging/setLevel                   → the client's own floor; the upstream at the lowest floor
    notifications/roots/list_changed   → passed to the upstream (2025-11-25)

An upstream refusal keeps its JSON-RPC code (S-UPS-05). An upstream that is down or died is
a JSON-RPC INTERNAL_ERROR whose message starts with the gateway's code (e.g. `UPSTREAM_DIED:`)
and whose `data` holds the code and the upstream's stderr tail: a list has no isError form.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import mcp_types as types
from mcp.server.lowlevel.server import Server
from pydantic import BaseModel

from gateway.app import GatewayApp
from gateway.errors import UpstreamError
from gateway.protocol.server_requests import Router
from gateway.protocol.sessions import session_of
from gateway.protocol.waiting_call import binding_of, run_interactive
from gateway.upstream.client import client_error
from gateway.upstream.client_side import strip_reserved_meta

# Round-trip parameters of 2026-07-28 retries belong to the client ⇄ gateway exchange only.
_ROUND_KEYS = ("inputResponses", "requestState")

T = TypeVar("T")


def upstream_params(params: BaseModel | None) -> dict[str, Any]:
    """The wire params to send upstream: the client's, minus round-trip keys and reserved `_meta` keys."""
    if params is None:
        return {}
    wire: dict[str, Any] = params.model_dump(by_alias=True, exclude_none=True, mode="json")
    for key in _ROUND_KEYS:
        wire.pop(key, None)
    meta = strip_reserved_meta(wire.pop("_meta", None))
    if meta:
        wire["_meta"] = meta
    return wire


async def as_protocol_errors(op: Callable[[], Awaitable[T]]) -> T:
    """Run an upstream operation; its faults become the JSON-RPC errors the module docstring names.

    Raises:
        MCPError: the upstream's own error (code kept) or INTERNAL_ERROR naming the gateway's code.
    """
    try:
        return await op()
    except UpstreamError as exc:
        raise client_error(exc) from exc


def register_forwarding(server: Server[Any], app: GatewayApp, router: Router) -> None:
    """Add the non-tool handlers to `server` (which also decide the advertised capabilities' reach)."""

    async def relay(method: str, params: BaseModel | None) -> dict[str, Any]:
        wire = upstream_params(params)
        return await as_protocol_errors(lambda: app.upstream.forward(method, wire))

    async def interactive(ctx: Any, method: str, name: str, params: Any) -> Any:
        return await run_interactive(
            ctx,
            session_of(ctx),
            binding=binding_of(method, name, getattr(params, "arguments", None)),
            request_state=params.request_state,
            input_responses=params.input_responses,
            work=lambda: relay(method, params),
            log_floor=router.log_floor,
        )

    async def list_resources(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
        return await relay("resources/list", params)

    async def list_resource_templates(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
        return await relay("resources/templates/list", params)

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> Any:
        return await interactive(ctx, "resources/read", str(params.uri), params)

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        router.seen(ctx)
        await as_protocol_errors(lambda: router.hold(session_of(ctx), str(params.uri)))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        await router.release(session_of(ctx), str(params.uri))
        return types.EmptyResult()

    async def list_prompts(ctx: Any, params: types.PaginatedRequestParams | None) -> Any:
        return await relay("prompts/list", params)

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> Any:
        return await interactive(ctx, "prompts/get", params.name, params)

    async def complete(ctx: Any, params: types.CompleteRequestParams) -> Any:
        return await relay("completion/complete", params)

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        await as_protocol_errors(lambda: router.set_log_floor(ctx, params.level))
        return types.EmptyResult()

    async def listen(ctx: Any, params: types.SubscriptionsListenRequestParams) -> Any:
        return await router.listen(ctx, params)

    async def roots_changed(ctx: Any, params: types.NotificationParams) -> None:
        await app.upstream.notify_roots_changed()

    handlers: tuple[tuple[str, type[Any], Any], ...] = (
        ("resources/list", types.PaginatedRequestParams, list_resources),
        ("resources/templates/list", types.PaginatedRequestParams, list_resource_templates),
        ("resources/read", types.ReadResourceRequestParams, read_resource),
        ("resources/subscribe", types.SubscribeRequestParams, subscribe),
        ("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe),
        ("subscriptions/listen", types.SubscriptionsListenRequestParams, listen),
        ("prompts/list", types.PaginatedRequestParams, list_prompts),
        ("prompts/get", types.GetPromptRequestParams, get_prompt),
        ("completion/complete", types.CompleteRequestParams, complete),
        # Registered directly: the constructor's on_set_logging_level warns (deprecated at 2026-07-28).
        ("logging/setLevel", types.SetLevelRequestParams, set_level),
    )
    for method, model, handler in handlers:
        server.add_request_handler(method, model, handler)
    server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, roots_changed)
