"""The MCP client side: one live connection to Windows-MCP, and the one place its faults are mapped.

This is the one place upstream and library exceptions are mapped, both ways (STYLE.md §3):

- in: `map_upstream_errors` turns every upstream/library fault into an `UpstreamError` whose
  message says what happened and what to do (the most specific match wins). Nothing above
  this module sees an `MCPError` from the upstream connection; a JSON-RPC error the upstream
  answered with becomes `UpstreamProtocolError`, which keeps its code (S-UPS-05).
- out: `client_error` is the JSON-RPC error a client is given for an `UpstreamError` — the
  upstream's own error unchanged, or INTERNAL_ERROR naming the gateway's code. (A tool call's
  upstream fault is a tool result instead, `gateway.pipeline.journey.failure_result`.)

The connection's lifecycle (start, watch, lose, restart with backoff) is
`gateway.upstream.supervisor.Supervisor`; `Upstream` adds the requests. Every request is bounded by
`timeout_s` (config `upstream_timeout_s`); on timeout the SDK cancels the upstream request
and the call gets UPSTREAM_TIMEOUT (S-UPS-01) — unless the upstream does not answer a ping
either: then it is killed and restarted and the call gets UPSTREAM_HUNG (S-UPS-07). An answer
over `max_result_bytes` is RESULT_TOO_LARGE (S-UPS-10).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, InputRequiredRoundsExceededError
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter, ValidationError

from gateway.errors import UpstreamError, UpstreamTimeout
from gateway.upstream.client_side import CURRENT_CALLER
from gateway.upstream.connection import is_modern, send_quietly
from gateway.upstream.lane import call_tool as call_on_lane
from gateway.upstream.limits import RESULT_TOO_LARGE, is_too_large
from gateway.upstream.supervisor import (
    Supervisor,
    tail_of,
)

log = logging.getLogger(__name__)

# JSON-RPC codes the SDK uses for transport faults (mcp_types.jsonrpc).
_CONNECTION_CLOSED = types.CONNECTION_CLOSED
_REQUEST_TIMEOUT = types.REQUEST_TIMEOUT

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
            answered in a shape the protocol does not allow (UPSTREAM_BAD_ANSWER), or with more
            than `max_result_bytes` (RESULT_TOO_LARGE).
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
            raise UpstreamTimeout(f"the upstream did not answer {what} in time", code="UPSTREAM_TIMEOUT") from exc
        if is_too_large(exc):
            raise UpstreamError(
                f"{exc.message}: the answer to {what} was dropped unread (the upstream still runs); "
                "ask for less (a smaller region, fewer items) or raise max_result_bytes",
                code=RESULT_TOO_LARGE,
            ) from exc
        raise UpstreamProtocolError(exc.code, exc.message, exc.data) from exc
    except TimeoutError as exc:
        raise UpstreamTimeout(f"the upstream did not answer {what} in time", code="UPSTREAM_TIMEOUT") from exc
    except (ValidationError, InputRequiredRoundsExceededError) as exc:
        # The upstream answered, but not in a shape the negotiated protocol allows.
        raise UpstreamError(f"the upstream's answer to {what} is malformed: {exc}", code="UPSTREAM_BAD_ANSWER") from exc
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream) as exc:
        raise UpstreamError(
            f"the upstream connection is broken ({type(exc).__name__}) during {what}",
            stderr_tail=tail_of(stderr_path),
            code="UPSTREAM_DIED",
        ) from exc
    except OSError as exc:
        raise UpstreamError(f"the upstream cannot be reached for {what}: {exc}", code="UPSTREAM_UNREACHABLE") from exc


def client_error(exc: UpstreamError) -> MCPError:
    """The JSON-RPC error a client gets for an upstream fault (S-UPS-05; the one outbound mapping).

    Args:
        exc: the fault, as `map_upstream_errors` raised it.

    Returns:
        For an `UpstreamProtocolError` the upstream's own code, message and data; for any other
        `UpstreamError` INTERNAL_ERROR with the message `CODE: reason` and `data` holding the
        code (and the upstream's stderr tail when there is one): a list has no isError form.
    """
    if isinstance(exc, UpstreamProtocolError):
        return MCPError(exc.rpc_code, str(exc), exc.rpc_data)
    data = {"code": exc.code, "stderr_tail": exc.stderr_tail} if exc.stderr_tail else {"code": exc.code}
    return MCPError(types.INTERNAL_ERROR, f"{exc.code}: {exc}", data)


def as_wire(model: Any) -> dict[str, Any]:
    """A result model as the dict that went over the wire (aliases, no Nones, no upstream identity stamp)."""
    data: dict[str, Any] = model.model_dump(by_alias=True, exclude_none=True, mode="json")
    meta = data.get("_meta")
    if isinstance(meta, dict):
        meta.pop("io.modelcontextprotocol/serverInfo", None)
        if not meta:
            del data["_meta"]
    return data


def _if_modern(client: Client, seed: Any) -> Any:
    """Seeded input responses travel only to a 2026-07-28 upstream (a 2025-11-25 one has no rounds)."""
    return seed if is_modern(client) else None


class Upstream(Supervisor):
    """One supervised connection to the upstream: calls, forwarded requests, subscriptions, log level.

    Callers in any task use `call_tool` / `list_tools` / `forward`; the current `Caller`
    (`gateway.upstream.client_side.CURRENT_CALLER`) is registered as in flight for as long as its
    request runs, so what the upstream says back can be routed to it (S-PROTO-05).
    """

    async def _restore(self, client: Client) -> None:
        """A new 2025-11-25 connection gets the subscriptions and log level clients asked for."""
        if is_modern(client):
            return  # the listen pump re-applies the filter on its own
        for uri in sorted(self._uris):
            with contextlib.suppress(UpstreamError):
                await self.forward("resources/subscribe", {"uri": uri})
        if self._log_level is not None:
            with contextlib.suppress(UpstreamError):
                await self.forward("logging/setLevel", {"level": self._log_level})

    async def _request(self, what: str, op: Callable[[Client], Any]) -> Any:
        client = await self._ensure(what)
        sink = self._sink
        caller = CURRENT_CALLER.get()
        if caller is not None:
            self._in_flight.append(caller)
        try:
            with map_upstream_errors(what, self.stderr_path), anyio.fail_after(self.timeout_s):
                return await op(client)
        except UpstreamTimeout as exc:
            if await self.is_alive(client):
                raise
            raise self._hung(client, what) from exc
        except UpstreamError as exc:
            if exc.code == "UPSTREAM_DIED":
                self._mark_lost(client, str(exc))
                exc.stderr_tail = await self.settled_stderr_tail(sink) or exc.stderr_tail
            raise
        finally:
            if caller is not None:
                for i in range(len(self._in_flight) - 1, -1, -1):
                    if self._in_flight[i] is caller:
                        del self._in_flight[i]
                        break

    def _hung(self, client: Client, what: str) -> UpstreamError:
        """Kill the upstream that answered neither `what` nor a ping; the call's error (S-UPS-07)."""
        why = (
            f"the upstream answered neither {what} in {self.timeout_s:g} s nor a ping in "
            f"{self.ping_timeout_s:g} s: it is hung"
        )
        self.kill_hung(client, why)
        return UpstreamError(
            f"{why}; the gateway killed it and is starting it again (every observation is stale) — retry the call",
            stderr_tail=tail_of(self.stderr_path),
            code="UPSTREAM_HUNG",
        )

    async def list_tools(self) -> list[dict[str, Any]]:
        """All upstream tools as wire dicts (every page)."""

        async def op(client: Client) -> list[dict[str, Any]]:
            tools: list[dict[str, Any]] = []
            cursor: str | None = None
            while True:
                page = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
                tools.extend(as_wire(t) for t in page.tools)
                cursor = page.next_cursor
                if not cursor:
                    return tools

        result: list[dict[str, Any]] = await self._request("tools/list", op)
        return result

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Call one upstream tool and return its result as the wire dict.

        The current `Caller` (if any) receives the upstream's progress under its own token and
        contributes its own `_meta` keys (S-PROTO-04). A 2025-11-25 stdio upstream is called on
        the connection's lean lane when nothing needs the SDK's request machinery (S-PERF-05).
        """
        caller = CURRENT_CALLER.get()
        progress = caller.progress if caller is not None else None
        meta: Any = dict(caller.forward_meta) if caller is not None and caller.forward_meta else None
        # The SDK ties progress to its own request ids: a client that asked for progress keeps it.
        # A caller that cannot say whether its client asked is taken to have asked.
        wants_progress = caller is not None and getattr(caller, "wants_progress", True)

        # A first round's own inputResponses, when the client sent some without a requestState (S-PROTO-27).
        take_seed = getattr(caller, "take_seed", None)
        seed = take_seed(name) if callable(take_seed) else None

        async def op(client: Client) -> dict[str, Any]:
            lane = self.lane_for(client)
            # 2026-07-28 calls may come back input_required: those rounds are the SDK's to drive.
            if lane is not None and not wants_progress and seed is None and not is_modern(client):
                return await call_on_lane(lane, client.session, name, dict(arguments), meta)
            result = await client.call_tool(
                name,
                dict(arguments),
                progress_callback=progress,
                meta=meta,
                input_responses=seed if is_modern(client) else None,
            )
            return as_wire(result)

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
        take_seed = getattr(CURRENT_CALLER.get(), "take_seed", None)
        op: Callable[[Client], Any]
        if method == "resources/read":
            seed = take_seed(str(body["uri"])) if callable(take_seed) else None
            op = lambda c: c.read_resource(body["uri"], meta=meta, input_responses=_if_modern(c, seed))  # noqa: E731
        elif method == "prompts/get":
            seed = take_seed(str(body["name"])) if callable(take_seed) else None
            op = lambda c: c.get_prompt(  # noqa: E731
                body["name"], body.get("arguments"), meta=meta, input_responses=_if_modern(c, seed)
            )
        elif method in _PLAIN_RESULTS:
            request = _CLIENT_REQUEST.validate_python({"method": method, "params": body})
            op = lambda c: send_quietly(c, request, _PLAIN_RESULTS[method])  # noqa: E731
        else:
            raise UpstreamProtocolError(types.METHOD_NOT_FOUND, "Method not found", method)
        result: dict[str, Any] = as_wire(await self._request(method, op))
        return result

    async def set_subscribed(self, uri: str, subscribed: bool) -> None:
        """Hold (or drop) the upstream's subscription to `uri` (resources/subscribe, or the listen filter)."""
        previous = set(self._uris)
        (self._uris.add if subscribed else self._uris.discard)(uri)
        client = await self._ensure("resources/subscribe")
        if is_modern(client):
            # In force once the upstream acknowledged a listen stream carrying it (bounded: best effort).
            version = self._listen_filter.update(self._uris)
            if not await self._listen_filter.wait_applied(version, min(self.timeout_s, 10.0)):
                log.warning("the upstream did not acknowledge the subscription to %s in time", uri)
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
