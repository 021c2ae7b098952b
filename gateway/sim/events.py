"""The side-effect log: one JSON line per thing the simulated desktop did (S-SIM-09).

Tests read it to prove that a refused action never reached the desktop. Every line has the keys
``seq, tool, kind, args, screen_point, window, generation`` (plus ``detail``). ``kind`` is
``capture`` for every Snapshot / Screenshot / WaitFor poll / Scrape-DOM / App refresh — then
``generation`` is the new capture generation — and names the effect otherwise (``click``,
``type``, ``scroll``, ``drag``, ``powershell``, ``file_write`` …). Refused or invalid calls
write nothing.

Lines are appended with one ``os.write`` on an ``O_APPEND`` descriptor, so readers never see a
half line from a single writer; works on Windows too (binary mode, no newline translation).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)


def append_line(path: Path, record: Mapping[str, Any]) -> None:
    """Append ``record`` as one JSON line to ``path`` with a single write.

    Args:
        path: the JSON-lines file (created when missing).
        record: a JSON-serialisable mapping.
    """
    data = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    fd = os.open(path, _APPEND_FLAGS, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def read_events(path: str | Path) -> list[dict[str, Any]]:
    """All events logged so far, oldest first (an absent file means no events).

    Args:
        path: the event log given to the simulator (``--event-log`` / ``WINMCP_SIM_EVENT_LOG``).

    Returns:
        One dict per complete line.
    """
    file = Path(path)
    if not file.exists():
        return []
    text = file.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


class EventLog:
    """Writer used by the simulator; a log without a path records nothing."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.seq = len(read_events(path)) if path is not None else 0

    def record(
        self,
        *,
        tool: str,
        kind: str,
        args: Mapping[str, Any],
        screen_point: tuple[int, int] | None,
        window: str | None,
        generation: int,
        detail: Mapping[str, Any] | None = None,
    ) -> None:
        """Append one event (no-op without a path)."""
        if self.path is None:
            return
        self.seq += 1
        append_line(
            self.path,
            {
                "seq": self.seq,
                "tool": tool,
                "kind": kind,
                "args": dict(args),
                "screen_point": None if screen_point is None else [screen_point[0], screen_point[1]],
                "window": window,
                "generation": generation,
                "detail": dict(detail or {}),
            },
        )
