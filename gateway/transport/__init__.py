"""How clients connect: the client-facing MCP server over stdio; streamable HTTP and its guard.

`build_server` makes the server that fronts a `GatewayApp`; `run_stdio` serves it on stdin/stdout.
The HTTP side (`http`, `http_guard`, `event_store`: the replay buffer behind `Last-Event-ID`) is
imported only when `serve --http` asks for it, so starlette and uvicorn stay out of a stdio gateway's
start.
"""

from gateway.transport.server import build_server, run_stdio, serve_stdio

__all__ = ["build_server", "run_stdio", "serve_stdio"]
