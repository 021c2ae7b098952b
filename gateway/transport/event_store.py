"""Resumable streamable-HTTP streams: a bounded replay buffer per session (S-HTTP-20, S-HTTP-21).

A 2025-11-25 client whose SSE stream breaks reconnects with `GET /mcp` and `Last-Event-ID`; the
SDK's transport asks its `EventStore` for everything the stream sent after that id. The SDK keys
events by stream id, and a stream id is the JSON-RPC request id, which every session numbers from
1 — one store shared by all sessions could replay one client's messages to another. So every
session gets its own store (`ResumableSessionManager`), and the store dies with the session.

Memory is bounded per session: at most `MAX_EVENTS` events and `MAX_BYTES` of serialised
messages; the oldest go first. What is kept is therefore always a contiguous tail of what was
sent, so a replay never skips a message silently: a `Last-Event-ID` that has been dropped (or
never existed) replays nothing and the client learns it cannot resume. A message larger than
`MAX_BYTES` on its own empties the buffer. With `MAX_SESSIONS` (64) sessions the whole gateway
holds at most 64 × 1 MiB of replay data.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from typing import Any

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types import JSONRPCMessage

MAX_EVENTS = 512
MAX_BYTES = 1 << 20  # 1 MiB of serialised messages per session
# The SSE `retry:` hint (ms) sent with each priming event: how soon a dropped client tries again.
RETRY_INTERVAL_MS = 1000


class SessionEventStore(EventStore):
    """One session's replay buffer (see the module docstring for the bounds)."""

    def __init__(self, *, max_events: int = MAX_EVENTS, max_bytes: int = MAX_BYTES) -> None:
        self._max_events = max_events
        self._max_bytes = max_bytes
        self._prefix = secrets.token_hex(4)
        self._next = 0
        self._events: OrderedDict[EventId, tuple[StreamId, JSONRPCMessage | None, int]] = OrderedDict()
        self._bytes = 0

    @property
    def held(self) -> tuple[int, int]:
        """(events, bytes) held right now."""
        return len(self._events), self._bytes

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        self._next += 1
        event_id = f"{self._prefix}-{self._next}"
        size = 0 if message is None else len(message.model_dump_json(by_alias=True, exclude_unset=True))
        self._events[event_id] = (stream_id, message, size)
        self._bytes += size
        while self._events and (len(self._events) > self._max_events or self._bytes > self._max_bytes):
            _, (_, _, dropped) = self._events.popitem(last=False)
            self._bytes -= dropped
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        found = self._events.get(last_event_id)
        if found is None:
            return None
        stream_id = found[0]
        after = False
        for event_id, (stream, message, _) in list(self._events.items()):
            if after and stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
            after = after or event_id == last_event_id
        return stream_id


class ResumableSessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager, handing each new session a store of its own.

    The SDK reads `self.event_store` exactly once per new session (when it builds the session's
    transport), so a property that makes a fresh store gives every session its own buffer.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("retry_interval", RETRY_INTERVAL_MS)
        super().__init__(*args, **kwargs)

    @property
    def event_store(self) -> EventStore:
        return SessionEventStore()

    @event_store.setter
    def event_store(self, _value: EventStore | None) -> None:
        """The constructor's argument is ignored: stores are per session."""
