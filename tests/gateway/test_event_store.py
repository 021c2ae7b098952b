"""The bounded per-session replay buffer of streamable HTTP (S-HTTP-21)."""

from __future__ import annotations

import mcp_types as types
import pytest
from mcp.server.streamable_http import EventMessage

from gateway.transport.event_store import MAX_BYTES, MAX_EVENTS, ResumableSessionManager, SessionEventStore
from tests._requirements import requirement

pytestmark = pytest.mark.anyio


def note(n: int, pad: int = 0) -> types.JSONRPCNotification:
    return types.JSONRPCNotification(jsonrpc="2.0", method="notifications/message", params={"n": n, "pad": "x" * pad})


async def replayed(store: SessionEventStore, after: str) -> tuple[str | None, list[int]]:
    got: list[int] = []

    async def send(event: EventMessage) -> None:
        params = getattr(event.message, "params", None) or {}
        got.append(int(params["n"]))

    stream = await store.replay_events_after(after, send)
    return stream, got


@requirement("S-HTTP-21")
async def test_the_buffer_never_holds_more_than_its_event_and_byte_bounds() -> None:
    store = SessionEventStore()
    ids = [await store.store_event("1", note(n)) for n in range(MAX_EVENTS * 3)]
    events, size = store.held
    assert events == MAX_EVENTS and size <= MAX_BYTES
    # Only a contiguous tail is kept: a dropped id replays nothing, a kept one replays all after it.
    assert await replayed(store, ids[0]) == (None, [])
    stream, got = await replayed(store, ids[-4])
    assert stream == "1" and got == [MAX_EVENTS * 3 - 3, MAX_EVENTS * 3 - 2, MAX_EVENTS * 3 - 1]
    big = SessionEventStore()
    for n in range(40):
        await big.store_event("1", note(n, pad=64 * 1024))
        assert big.held[1] <= MAX_BYTES
    assert big.held[0] < 40


@requirement("S-HTTP-21")
async def test_a_message_larger_than_the_bound_empties_the_buffer_and_replays_stay_honest() -> None:
    store = SessionEventStore(max_bytes=1000)
    first = await store.store_event("1", note(1))
    await store.store_event("1", note(2, pad=2000))
    after = await store.store_event("1", note(3))
    assert store.held[0] == 1
    assert await replayed(store, first) == (None, [])  # cannot resume across the gap: nothing, not a hole
    assert await replayed(store, after) == ("1", [])


@requirement("S-HTTP-21")
async def test_replay_is_per_stream_and_priming_events_are_not_replayed() -> None:
    store = SessionEventStore()
    prime_a = await store.store_event("a", None)
    await store.store_event("b", note(10))
    await store.store_event("a", note(1))
    await store.store_event("a", note(2))
    assert await replayed(store, prime_a) == ("a", [1, 2])
    assert await replayed(store, "unknown") == (None, [])


@requirement("S-HTTP-21")
def test_every_session_gets_a_store_of_its_own() -> None:
    manager = ResumableSessionManager(app=object())  # type: ignore[arg-type]
    first, second = manager.event_store, manager.event_store
    assert isinstance(first, SessionEventStore) and first is not second
    assert manager.retry_interval == 1000
