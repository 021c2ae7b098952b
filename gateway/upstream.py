"""The MCP client side: one live connection to Windows-MCP, restarted when it dies.

This is the one place upstream and library exceptions are mapped (`map_upstream_errors`,
STYLE.md §3): the most specific match wins, and everything else is an `UpstreamError`
whose message says what happened and what to do. Nothing above this module sees an
`MCPError` from the upstream connection except a protocol error that must be passed on
with its JSON-RPC code (`UpstreamProtocolError`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from gateway.errors import UpstreamError, UpstreamTimeout

log = logging.getLogger(__name__)

# JSON-RPC codes the SDK uses for transport faults (mcp_types.jsonrpc).
_CONNECTION_CLOSED = types.CONNECTION_CLOSED
_REQUEST_TIMEOUT = types.REQUEST_TIMEOUT
# Backoff between restarts: 0.2 s doubling to 5 s, so a crash loop costs little but recovers fast.
RESTART_BACKOFF_S = (0.2, 0.5, 1.0, 2.0, 5.0)
STDERR_TAIL_BYTES = 2048


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
        raise UpstreamProtocolError(exc.code, exc.message, exc.data) from exc
    except TimeoutError as exc:
        raise UpstreamTimeout(f"the upstream did not answer {what} in time", code="UPSTREAM_TIMEOUT") from exc
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream) as exc:
        raise UpstreamError(
            f"the upstream connection is broken ({type(exc).__name__}) during {what}",
            stderr_tail=tail_of(stderr_path),
            code="UPSTREAM_DIED",
        ) from exc
    except OSError as exc:
        raise UpstreamError(f"the upstream cannot be reached for {what}: {exc}", code="UPSTREAM_UNREACHABLE") from exc


def _wire(model: Any) -> dict[str, Any]:
    """A result model as the dict that went over the wire (aliases, no Nones)."""
    data: dict[str, Any] = model.model_dump(by_alias=True, exclude_none=True, mode="json")
    return data


class Upstream:
    """One supervised connection to the upstream.

    A dedicated task owns the SDK `Client` context (anyio scopes must be exited by the task
    that entered them); callers in any task use `call_tool` / `list_tools`. When the
    connection dies, the next call restarts it with backoff, and `restarts` counts how often —
    the gateway marks every observation stale after a restart (the desktop state is unknown).
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
        self._client: Client | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self._stop: anyio.Event | None = None
        self._lock = anyio.Lock()
        self._failures = 0
        self.restarts = 0
        self.connects = 0
        self.last_error: str | None = None

    async def __aenter__(self) -> Upstream:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        await self._ensure()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._stop.set()
        assert self._tg is not None
        await self._tg.__aexit__(None, None, None)

    @property
    def protocol_version(self) -> str | None:
        return self._client.protocol_version if self._client is not None else None

    @property
    def server_info(self) -> types.Implementation | None:
        return self._client.server_info if self._client is not None else None

    @property
    def alive(self) -> bool:
        return self._client is not None

    def _open_errlog(self) -> TextIO:
        if self.stderr_path is None:
            return sys.stderr
        self.stderr_path.parent.mkdir(parents=True, exist_ok=True)
        return self.stderr_path.open("a", encoding="utf-8")

    def _make_client(self, errlog: TextIO) -> Client:
        if self.spec.url:
            return Client(self.spec.url, mode=self._mode)
        from mcp.client.stdio import stdio_client

        params = StdioServerParameters(command=self.spec.argv[0], args=list(self.spec.argv[1:]), env=self._environ)
        return Client(stdio_client(params, errlog=errlog), mode=self._mode)

    async def _own_connection(self, ready: anyio.Event, box: dict[str, Any], stop: anyio.Event) -> None:
        errlog = self._open_errlog()
        try:
            async with self._make_client(errlog) as client:
                box["client"] = client
                ready.set()
                await stop.wait()
        except BaseException as exc:  # noqa: BLE001 - reported to the waiting caller, never lost
            box["error"] = exc
            ready.set()
            if not isinstance(exc, Exception):
                raise
        finally:
            if errlog is not sys.stderr:
                errlog.close()

    async def _ensure(self) -> Client:
        """Return a live client, (re)connecting with backoff when there is none."""
        async with self._lock:
            if self._client is not None:
                return self._client
            if self.connects:
                delay = RESTART_BACKOFF_S[min(self._failures, len(RESTART_BACKOFF_S) - 1)]
                await anyio.sleep(delay)
            assert self._tg is not None, "use Upstream as an async context manager"
            ready, stop, box = anyio.Event(), anyio.Event(), {}
            self._tg.start_soon(self._own_connection, ready, box, stop)
            with anyio.move_on_after(self.timeout_s):
                await ready.wait()
            if "client" not in box:
                stop.set()
                self._failures += 1
                err = box.get("error")
                detail = f"{type(err).__name__}: {err}" if err is not None else f"no answer in {self.timeout_s:g} s"
                self.last_error = detail
                raise UpstreamError(
                    f"cannot start the upstream `{self.spec.describe()}` ({detail}); check the command or URL "
                    "and that Windows-MCP runs on its own (`uvx windows-mcp`)",
                    stderr_tail=tail_of(self.stderr_path),
                    code="UPSTREAM_UNREACHABLE",
                )
            if self.connects:
                self.restarts += 1
            self.connects += 1
            self._failures = 0
            self._client, self._stop = box["client"], stop
            return self._client

    def _drop(self, client: Client) -> None:
        if self._client is client:
            self._client = None
            if self._stop is not None:
                self._stop.set()

    async def _request(self, what: str, op: Any) -> Any:
        client = await self._ensure()
        try:
            with map_upstream_errors(what, self.stderr_path), anyio.fail_after(self.timeout_s):
                return await op(client)
        except UpstreamError as exc:
            if exc.code == "UPSTREAM_DIED":
                self.last_error = str(exc)
                self._drop(client)
            raise

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
        """Call one upstream tool and return its result as the wire dict."""

        async def op(client: Client) -> dict[str, Any]:
            return _wire(await client.call_tool(name, dict(arguments)))

        result: dict[str, Any] = await self._request(f"tools/call {name}", op)
        result.get("_meta", {}).pop("io.modelcontextprotocol/serverInfo", None)
        if result.get("_meta") == {}:
            del result["_meta"]
        return result


def upstream_argv_for_sim(scenario: str | None, extra: Sequence[str] = ()) -> UpstreamSpec:
    """The simulator as an upstream, optionally with a scenario."""
    args = ["--scenario", scenario] if scenario else []
    return UpstreamSpec.simulator(*args, *extra)


__all__ = [
    "Upstream",
    "UpstreamProtocolError",
    "UpstreamSpec",
    "map_upstream_errors",
    "tail_of",
    "upstream_argv_for_sim",
]
