"""Streamable HTTP downstream: `winmcp-gateway serve --http HOST:PORT` (S-HTTP-*).

Every HTTP request passes one guard before anything else sees it, in this order:

    1. Host      — must be one this server answers to (the bound host:port, its loopback
                   names, and `--allow-host`); else 421 Misdirected Request. This and step 2
                   stop DNS rebinding: a web page cannot make a browser talk to the gateway.
    2. Origin    — absent (non-browser clients), or one of the allowed hosts' http/https
                   origins, or `--allow-origin`; else 403.
    3. /healthz  — GET answers {"status": "ok", "upstream": "up"|"down"} without a token
                   (nothing else: no version, paths, sessions or counts).
    4. Token     — `Authorization: Bearer <token>`, compared in constant time
                   (`hmac.compare_digest`); missing or wrong is 401 with `WWW-Authenticate`.
                   Skipped only with `--no-auth`, which is refused on a non-loopback bind.
    5. Body      — a POST to /mcp is read up to `max_message_bytes` and checked like a stdio
                   line (`gateway.transport.framing`, S-MSG-08): too large is 413, any other
                   malformed message 400, each with its JSON-RPC error as the body (-32700 for
                   a body that is not JSON) and one stderr line.
    6. /mcp      — the SDK's streamable-HTTP session manager (both protocol eras; it checks
                   Host/Origin again with the same lists, and the Content-Type of a POST),
                   with a bounded replay buffer per session (`gateway.transport.event_store`).

The token comes from `--token`, else `WINMCP_GATEWAY_TOKEN`, else the state dir file
`http-token` (created with mode 0600 and printed once to stderr the first time). Binding
anything but a loopback address needs a token and prints a warning: plain HTTP carries
the token in the clear.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import TextIO

import anyio
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecurityMiddleware
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.app import GatewayApp, open_gateway
from gateway.config.load import GatewayConfig
from gateway.errors import ConfigError
from gateway.transport.event_store import ResumableSessionManager
from gateway.transport.framing import OVERSIZE_PREFIX_BYTES, MessageLimits, Refusal, check_message, oversize
from gateway.transport.http_guard import HttpSettings, resolve_settings
from gateway.transport.server import build_server, message_limits
from gateway.transport.stdio import log_refusal
from gateway.upstream.supervisor import UpstreamSpec

log = logging.getLogger(__name__)

MCP_PATH = "/mcp"
HEALTH_PATH = "/healthz"
# Idle 2025-11-25 sessions end after 30 minutes (the SDK default), and at most this many are open.
MAX_SESSIONS = 64
# How long a stopping server waits for open streams before it cancels them.
GRACEFUL_SHUTDOWN_S = 3


def _refusal(status: int, error: str, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    return JSONResponse({"error": error, "detail": detail}, status_code=status, headers=dict(headers or {}))


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, int, bool]:
    """The request body, read until it ends or passes `limit` (then only its first bytes are kept).

    Returns:
        The body (or its first bytes), its size so far, and whether it was read whole.
    """
    body = bytearray()
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            return bytes(body), size, False
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return bytes((body + chunk)[:OVERSIZE_PREFIX_BYTES]), size, False
        body += chunk
        if not message.get("more_body", False):
            return bytes(body), size, True


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands the already read body to the app, then the client's own events."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _rpc_refusal(refusal: Refusal) -> Response:
    status = 413 if refusal.reason == "too-large" else 400
    return Response(
        refusal.reply().model_dump_json(by_alias=True, exclude_unset=True),
        status_code=status,
        media_type="application/json",
    )


class Guard:
    """The ASGI guard in front of the whole app (steps 1-5 of the module docstring)."""

    def __init__(
        self,
        inner: ASGIApp,
        settings: HttpSettings,
        *,
        upstream_alive: Callable[[], bool],
        limits: MessageLimits | None = None,
    ) -> None:
        self._inner = inner
        self._settings = settings
        self._security = TransportSecurityMiddleware(settings.transport_security())
        self._upstream_alive = upstream_alive
        self._limits = limits or MessageLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # nothing is served over websockets: refuse before any check
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":  # lifespan
            await self._inner(scope, receive, send)
            return
        request = Request(scope, receive)
        refused = await self._security.validate_request(request, is_post=False)
        if refused is not None:
            status = refused.status_code
            what = "Host" if status == 421 else "Origin"
            await _refusal(
                status,
                "misdirected_request" if status == 421 else "forbidden",
                f"{what} header not allowed for this gateway (DNS rebinding protection)",
            )(scope, receive, send)
            return
        if request.url.path == HEALTH_PATH:
            await self._health(request)(scope, receive, send)
            return
        problem = self._auth_problem(request)
        if problem is not None:
            await _refusal(401, "invalid_token", problem, {"WWW-Authenticate": 'Bearer realm="winmcp-gateway"'})(
                scope, receive, send
            )
            return
        if request.url.path == MCP_PATH and request.method == "POST":
            body, size, whole = await _read_body(receive, self._limits.max_bytes)
            turned_away: Refusal | None
            if size > self._limits.max_bytes:
                turned_away = oversize(body, size, self._limits)
            elif not whole:
                return  # the client disconnected mid-body: nobody to answer
            else:
                checked = check_message(body, self._limits)
                turned_away = checked if isinstance(checked, Refusal) else None
            if turned_away is not None:
                log_refusal(turned_away)
                await _rpc_refusal(turned_away)(scope, receive, send)
                return
            receive = _replay(body, receive)
        await self._inner(scope, receive, send)

    def _auth_problem(self, request: Request) -> str | None:
        token = self._settings.token
        if token is None:
            return None
        header = request.headers.get("authorization", "")
        scheme, _, presented = header.partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            return "send Authorization: Bearer <token> (the token is in the state dir file http-token)"
        if not hmac.compare_digest(presented.strip().encode("utf-8"), token.encode("utf-8")):
            return "wrong bearer token"
        return None

    def _health(self, request: Request) -> Response:
        if request.method != "GET":
            return Response(status_code=405, headers={"Allow": "GET"})
        return JSONResponse({"status": "ok", "upstream": "up" if self._upstream_alive() else "down"})


def build_http_app(app: GatewayApp, settings: HttpSettings) -> ASGIApp:
    """The guarded ASGI app serving `app` on streamable HTTP (its lifespan runs the session manager)."""
    server = build_server(app)
    limits = message_limits(app)
    # Each 2025-11-25 session has its own bounded replay buffer (Last-Event-ID, S-HTTP-20).
    manager = ResumableSessionManager(
        app=server,
        security_settings=settings.transport_security(),
        max_sessions=MAX_SESSIONS,
        max_request_body_size=limits.max_bytes,  # the Guard refuses a larger body first (step 5)
    )
    routes = [Route(MCP_PATH, endpoint=StreamableHTTPASGIApp(manager))]

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    inner = Starlette(routes=routes, lifespan=lifespan)
    return Guard(inner, settings, upstream_alive=lambda: app.upstream.alive, limits=limits)


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket (port 0: the system picks one; read it from `getsockname`)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    if os.name == "nt":
        # On Windows SO_REUSEADDR would let another process bind the same port; claim it exclusively.
        sock.setsockopt(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", socket.SO_REUSEADDR), 1)
    else:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {exc}") from exc
    sock.listen(128)
    sock.setblocking(False)
    return sock


async def serve_http(
    app: GatewayApp,
    settings: HttpSettings,
    sock: socket.socket,
    *,
    started: Callable[[], Awaitable[None] | None] | None = None,
) -> None:
    """Serve on an already bound socket until cancelled or signalled (uvicorn; logs go to stderr).

    Cancelling this coroutine stops the server gracefully: uvicorn is told to exit and given
    `GRACEFUL_SHUTDOWN_S` (+2 s) to close its streams and run the lifespan shutdown.
    """
    import uvicorn

    config = uvicorn.Config(
        build_http_app(app, settings),
        log_config=None,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    done = anyio.Event()

    async def run() -> None:
        try:
            with anyio.CancelScope(shield=True):  # stopped by should_exit, never torn mid-shutdown
                await server.serve([sock])
        finally:
            done.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(run)
        try:
            while not server.started and not done.is_set():
                await anyio.sleep(0.01)
            if started is not None and server.started:
                outcome = started()
                if outcome is not None:
                    await outcome
            await done.wait()
        finally:
            server.should_exit = True
            with anyio.move_on_after(GRACEFUL_SHUTDOWN_S + 2, shield=True):
                await done.wait()
            server.force_exit = True


def run_http(
    config: GatewayConfig,
    spec: UpstreamSpec,
    bind: str,
    *,
    mode: str = "legacy",
    token: str | None = None,
    no_auth: bool = False,
    allow_hosts: tuple[str, ...] = (),
    allow_origins: tuple[str, ...] = (),
    environ: Mapping[str, str] | None = None,
    stderr: TextIO | None = None,
) -> int:
    """`winmcp-gateway serve --http HOST:PORT`: serve until interrupted; returns the exit code.

    Raises:
        ConfigError: a bad bind, a refused combination (--no-auth off loopback, a wildcard
            bind without --allow-host), a too-short token, or an unusable token file.
    """
    err = stderr or sys.stderr
    settings = resolve_settings(
        config,
        bind,
        token=token,
        no_auth=no_auth,
        allow_hosts=allow_hosts,
        allow_origins=allow_origins,
        environ=os.environ if environ is None else environ,
        stderr=err,
    )
    sock = bind_socket(settings.host, settings.port)
    settings = settings.with_port(sock.getsockname()[1])

    async def main() -> None:
        async with open_gateway(config, spec, mode=mode) as app:

            def announce() -> None:
                auth = "bearer token required" if settings.token else "NO AUTHENTICATION (--no-auth, loopback only)"
                print(f"winmcp-gateway: serving MCP on {settings.url(MCP_PATH)} ({auth})", file=err, flush=True)

            await serve_http(app, settings, sock, started=announce)

    try:
        anyio.run(main)
    except KeyboardInterrupt:
        return 130
    return 0
