"""The upstream (Windows-MCP) connection: its requests, its lifecycle, and the mapping of its faults.

`Upstream` (`client`) is one supervised connection, described by an `UpstreamSpec` and opened by
a `Connector` (`connection`; `in_process` serves an MCP server object in this process). What the
rooms above use of it is `UpstreamConnection` (`seams`). Faults are mapped in one place, both
ways: `map_upstream_errors` in, `client_error` out. `Caller`, `CURRENT_CALLER` and
`UpstreamHooks` are the client-facing side's seams (`client_side`).
"""

from gateway.upstream.client import Upstream, UpstreamProtocolError, client_error, map_upstream_errors
from gateway.upstream.client_side import CURRENT_CALLER, Caller, UpstreamHooks
from gateway.upstream.connection import Connector
from gateway.upstream.in_process import in_process
from gateway.upstream.seams import UpstreamConnection
from gateway.upstream.supervisor import UpstreamSpec

__all__ = [
    "CURRENT_CALLER",
    "Caller",
    "Connector",
    "Upstream",
    "UpstreamConnection",
    "UpstreamHooks",
    "UpstreamProtocolError",
    "UpstreamSpec",
    "client_error",
    "in_process",
    "map_upstream_errors",
]
