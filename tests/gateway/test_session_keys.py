"""Session keys are unique per session and per process, never the constant "stdio" (S-APR-09)."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace
from typing import Any

from mcp.server.connection import Connection

from gateway.protocol.sessions import PROCESS_NONCE, STDIO_PREFIX, session_of
from tests._requirements import requirement
from tests.e2e.approval_lifetimes_flows import STDIO_KEY

LOOP_ERA, MODERN_ERA = "2025-11-25", "2026-07-28"


def _ctx(connection: Any, *, era: str = LOOP_ERA, request: object | None = None, name: str | None = None) -> Any:
    params = SimpleNamespace(client_info=SimpleNamespace(name=name)) if name else None
    return SimpleNamespace(
        session=SimpleNamespace(_connection=connection, client_params=params), request=request, protocol_version=era
    )


def _connection(session_id: str | None = None, era: str = LOOP_ERA) -> Connection:
    return Connection(SimpleNamespace(), protocol_version=era, session_id=session_id)


@requirement("S-APR-09")
def test_each_stdio_connection_has_its_own_random_key_kept_for_its_life() -> None:
    """S-APR-09: one key per connection, stable across its requests; never the bare "stdio"."""
    first, second = _connection(), _connection()
    key = session_of(_ctx(first))
    assert STDIO_KEY.fullmatch(key) and key != "stdio"
    assert session_of(_ctx(first)) == key, "every request of the connection is the same session"
    assert session_of(_ctx(second)) != key
    assert len({session_of(_ctx(_connection())) for _ in range(200)}) == 200


def _nonce_of_a_new_process() -> str:
    code = "from gateway.protocol.sessions import PROCESS_NONCE; print(PROCESS_NONCE)"
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.strip()


@requirement("S-APR-09")
def test_the_sessionless_era_keys_on_a_nonce_of_the_process() -> None:
    """S-APR-09: 2026-07-28 builds a connection per request: stdio keys on this process's nonce, which
    another process does not share; 2026-07-28 HTTP keys carry it before the client's declared name."""
    key = session_of(_ctx(_connection(era=MODERN_ERA), era=MODERN_ERA))
    assert key == STDIO_PREFIX + PROCESS_NONCE and STDIO_KEY.fullmatch(key)
    assert session_of(_ctx(_connection(era=MODERN_ERA), era=MODERN_ERA)) == key
    others = {_nonce_of_a_new_process(), _nonce_of_a_new_process()}
    assert len(others) == 2 and PROCESS_NONCE not in others
    modern = session_of(_ctx(_connection(era=MODERN_ERA), era=MODERN_ERA, request=object(), name="agent-a"))
    assert modern == f"http-modern:{PROCESS_NONCE}:agent-a"


@requirement("S-APR-09")
def test_streamable_http_sessions_keep_their_own_ids() -> None:
    """S-APR-09: a 2025-11-25 HTTP session keys on (a hash of) its own Mcp-Session-Id, as before."""
    key = session_of(_ctx(_connection("3f2a9c0d1e"), request=object()))
    assert key.startswith("http:") and "3f2a9c0d1e" not in key
    assert session_of(_ctx(_connection("3f2a9c0d1e"), request=object())) == key
    assert session_of(_ctx(_connection("another"), request=object())) != key
