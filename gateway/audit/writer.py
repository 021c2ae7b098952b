"""The audit writer: append-only, redacted, hash-chained JSONL (S-AUD-01 … S-AUD-07, S-AUD-12).

One event per line. Each line is canonical JSON (`to_json_line`) and carries ``seq`` (+1 per
line, across processes, restarts and rotation), ``prev`` (the previous line's ``hash``; 64
zeros for the first line ever) and ``hash`` = SHA-256 of the canonical line without ``hash``.

Writing, step by step, all under one `filelock.FileLock` on ``<dir>/audit.jsonl.lock`` so
several gateway processes never interleave lines or fork the chain (S-AUD-03):

1. Find the chain tail: the last good line of the current file (or of the newest rotated
   file when the current one is empty). A cache keyed on the file's identity and size
   skips the read when nobody else wrote since our last append.
2. Torn line (S-AUD-05): a process killed mid-write leaves a final fragment without
   ``\\n`` (we write each line with a single ``write`` whose last byte is the newline, so
   a fragment can never end with one). The next writer terminates the fragment with
   ``\\n`` and writes a ``failure`` event whose ``torn`` field names it (line number,
   byte count, SHA-256 of the fragment). The chain continues from the last GOOD line, so
   `gateway.audit.report.verify_chain` can tell a crash (a fragment acknowledged by the
   very next line) from tampering (any other unparseable or altered line).
3. Rotate when the new line would push the file past ``max_bytes``: ``audit.jsonl`` →
   ``.1`` → … → ``.keep``; older files are dropped (S-AUD-04). The chain carries on.
4. Append the line with ``os.write`` on an ``O_APPEND`` descriptor; ``fsync`` if asked.
   `append_batch` does steps 1–4 once for several lines (one lock, one write, one fsync):
   the gateway's background writer (`gateway/audit/background.py`) hands it what queued up.

The canonical line and its hash are `_audit_json`; reading the tail is `_audit_chain`.
`AuditLog.append` never raises (S-AUD-06): a failure is counted, kept in ``last_error``
and logged through `logging` (stderr), because a failed audit write must never change a
tool's result. ``enabled=False`` writes nothing, creates nothing.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from filelock import FileLock

from gateway.audit.chain import Tail, count_lines, read_chain_tail
from gateway.audit.line import chain_hash, dumps, format_ts, jsonable, to_json_line
from gateway.audit.redact.scrub import masked_tokens, scrub_echoes, scrub_literals, typed_texts
from gateway.audit.redact.values import redact, redact_args, summarize_result
from gateway.audit.rotation import rotate
from gateway.audit.seams import Clock
from gateway.config.load import GatewayConfig

log = logging.getLogger(__name__)

# `allow` with phase "intent" is written before an input or system call is forwarded; `outcome`
# (pointing at it with `intent`: its seq) says what came of it (S-AUD-15).
EVENTS = ("observation", "allow", "outcome", "deny", "ask", "approval", "failure", "kill", "config")
FILE_NAME = "audit.jsonl"
DEFAULT_MAX_BYTES = 8 * 1024 * 1024  # DESIGN §6 / config `audit_max_bytes`
DEFAULT_KEEP = 3  # config `audit_keep`
LOCK_TIMEOUT_S = 10.0  # a writer holds the lock for one append (~ms); longer means a stuck peer
# Fields the writer owns; a caller's value for them is ignored (the chain must stay ours).
CHAIN_FIELDS = frozenset({"ts", "seq", "prev", "hash", "policy"})
# Fields that cannot echo typed text; scrubbing a short password from them would only mangle them.
_NOT_SCRUBBED = frozenset({"args", "tool", "class", "session", "code", "obs", "based_on", "point", "password_field"})
_FILE_MODE = 0o600  # owner-only (S-AUD-07); ignored by Windows, where ACLs come from the profile dir
_OPEN_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)


# ---------------------------------------------------------------------------------------
# The writer


class AuditLog:
    """An append-only, hash-chained, redacted JSONL audit file (DESIGN §6).

    Args:
        directory: where ``audit.jsonl`` (and its rotations and lock) live — the state dir.
        file_name: the current file's name.
        max_bytes: rotate before a line would push the current file past this size.
        keep: rotated files to keep (``.1`` newest … ``.keep`` oldest).
        enabled: False writes nothing and creates nothing.
        fsync: fsync after every line (survives power loss; slower, see scripts/bench_audit.py).
        policy_hash: stamped on every event as ``policy``.
        clock: seconds since the epoch (injectable for tests).
    """

    def __init__(
        self,
        directory: Path,
        *,
        file_name: str = FILE_NAME,
        max_bytes: int = DEFAULT_MAX_BYTES,
        keep: int = DEFAULT_KEEP,
        enabled: bool = True,
        fsync: bool = False,
        policy_hash: str = "",
        clock: Clock = time.time,
    ) -> None:
        self.directory = Path(directory)
        self.path = self.directory / file_name
        self.lock_path = self.directory / f"{file_name}.lock"
        self.max_bytes = max(1, int(max_bytes))
        self.keep = max(0, int(keep))
        self.enabled = enabled
        self.fsync = fsync
        self.policy_hash = policy_hash
        self.clock = clock
        self.written = 0
        self.failures = 0
        self.torn_repaired = 0
        self.rotations = 0
        self.last_error: str | None = None
        self._mutex = threading.Lock()  # threads of one process; the file lock covers processes
        self._lock: FileLock | None = None
        self._cache: tuple[tuple[int, int, int, int], Tail] | None = None

    @classmethod
    def for_config(cls, config: GatewayConfig, *, policy_hash: str = "") -> AuditLog:
        """The audit log of `config`'s state dir, with its rotation, enable and fsync settings."""
        return cls(
            config.state_dir,
            max_bytes=config.audit_max_bytes,
            keep=config.audit_keep,
            enabled=config.auto_audit,
            fsync=config.audit_fsync,
            policy_hash=policy_hash,
        )

    def append(self, event: str, **fields: Any) -> None:
        """Write one event; never raises (S-AUD-06).

        Args:
            event: observation | allow | deny | ask | approval | failure | kill | config.
            **fields: ``session``, ``tool``, ``class`` (or ``cls``), ``code``, ``reason``,
                ``args``, ``obs``, ``based_on``, ``window``, ``point``, ``duration_ms``,
                ``upstream_ms``, ``result`` and any extra field. None values are omitted.
                ``password_field=True`` with Type/MultiEdit ``args`` masks the typed text
                and scrubs it from every other field (S-RED-04). Every value is redacted
                here, even if the caller already did (S-AUD-12). ``ts``, ``seq``, ``prev``,
                ``hash`` and ``policy`` belong to the writer and are ignored.
        """
        if not self.enabled:
            return
        try:
            record = self._build(event, fields)
            with self._mutex:
                self._write(record)
                self.written += 1
        except Exception as exc:  # noqa: BLE001 - an audit failure must never change a tool result
            with self._mutex:
                self._failed(exc)

    def append_batch(self, entries: Sequence[tuple[str, Mapping[str, Any], float]]) -> list[int | None]:
        """Write several events under one lock acquisition and one write; never raises (S-AUD-14).

        Args:
            entries: (event, fields, ts) in order; `ts` is when the event happened (seconds since
                the epoch), taken by the caller, because a queued event is written a little later.

        Returns:
            The `seq` each event got, in order; None for an event that could not be written.
        """
        if not self.enabled or not entries:
            return [None] * len(entries)
        return self.append_prepared([self.prepare(event, fields, ts) for event, fields, ts in entries])

    def prepare(self, event: str, fields: Mapping[str, Any], ts: float) -> dict[str, Any] | None:
        """One event's record without its place in the chain (redacted, summarised, stamped with
        `ts`): the costly part of a write, which needs no lock. None if it cannot be built (counted
        as a failure; it costs only itself)."""
        if not self.enabled:
            return None
        try:
            return self._build(event, dict(fields), ts=ts)
        except Exception as exc:  # noqa: BLE001 - one bad event must not cost the others
            with self._mutex:
                self._failed(exc)
            return None

    def append_prepared(self, records: Sequence[dict[str, Any] | None]) -> list[int | None]:
        """Chain and write records from `prepare` under one lock acquisition and one write; never
        raises. A None (an event that could not be built) stays None in the answer."""
        ready = [r for r in records if r is not None]
        if not self.enabled or not ready:
            return [None] * len(records)
        try:
            with self._mutex:
                self._write_all(ready)
                self.written += len(ready)
        except Exception as exc:  # noqa: BLE001 - an audit failure must never change a tool result
            with self._mutex:
                self._failed(exc)
            return [None] * len(records)
        return [r["seq"] if r is not None else None for r in records]

    def stats(self) -> dict[str, Any]:
        """Health for `winmcp_state` and the doctor.

        Returns:
            ``written``, ``failures``, ``last_error``, ``path``, ``enabled``,
            ``torn_repaired`` and ``rotations`` (this process's counts).
        """
        return {
            "enabled": self.enabled,
            "path": str(self.path),
            "written": self.written,
            "failures": self.failures,
            "last_error": self.last_error,
            "torn_repaired": self.torn_repaired,
            "rotations": self.rotations,
        }

    # -- building a record ---------------------------------------------------------------

    def _build(self, event: str, fields: dict[str, Any], *, ts: float | None = None) -> dict[str, Any]:
        fields = dict(fields)
        if "cls" in fields and "class" not in fields:
            fields["class"] = fields.pop("cls")
        password_field = bool(fields.pop("password_field", False))
        tool = fields.get("tool")
        raw_args = fields.get("args")
        secrets: tuple[str, ...] = ()
        record: dict[str, Any] = {}
        for key, value in fields.items():
            if value is None or key in CHAIN_FIELDS:
                continue
            if key == "args" and isinstance(value, Mapping):
                record[key] = redact_args(str(tool), value, password_field=password_field)
            elif key == "result" and _is_raw_result(value):
                record[key] = summarize_result(value)
            else:
                record[key] = redact(value)
        if isinstance(raw_args, Mapping) and isinstance(record.get("args"), Mapping):
            echoed = masked_tokens(dict(raw_args), record["args"])
            if echoed:
                record = {
                    k: (v if k == "args" or k in _NOT_SCRUBBED else scrub_echoes(v, echoed)) for k, v in record.items()
                }
        if password_field:
            record["password_field"] = True
            if isinstance(raw_args, Mapping):
                secrets = typed_texts(str(tool), raw_args)
            record = {k: (v if k in _NOT_SCRUBBED else scrub_literals(v, secrets)) for k, v in record.items()}
        record["event"] = str(event)
        record["ts"] = format_ts(self.now() if ts is None else ts)
        if self.policy_hash:
            record["policy"] = self.policy_hash
        plain: dict[str, Any] = jsonable(record, 0)
        return plain

    def now(self) -> float:
        """Seconds since the epoch from the injected clock (time.time if it fails or lies)."""
        try:
            value = float(self.clock())
            if math.isfinite(value):
                return value
        except Exception:  # noqa: BLE001 - a broken injected clock must not cost the event
            pass
        return time.time()

    # -- writing ---------------------------------------------------------------------------

    def _write(self, record: dict[str, Any]) -> None:
        self._write_all([record])

    def _write_all(self, records: list[dict[str, Any]]) -> None:
        # One lock, one tail read, one write per batch; a rotation due mid-batch writes what came
        # before it first, so every line still lands in the file its size allows (S-AUD-04).
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        if self._lock is None:
            self._lock = FileLock(str(self.lock_path), timeout=LOCK_TIMEOUT_S, mode=_FILE_MODE)
        with self._lock:
            tail = self._tail()
            seq, prev = tail.seq, tail.hash
            if tail.torn is not None:
                seq, prev = self._repair_torn(tail, seq, prev)
            pending = bytearray(b"\n" if tail.needs_newline else b"")
            size = _size(self.path) + len(pending)
            for record in records:
                record["seq"] = seq = seq + 1
                record["prev"] = prev
                # `record` is plain JSON already (`_build`), so dumping it is the canonical form.
                record["hash"] = prev = hashlib.sha256(dumps(record).encode("utf-8")).hexdigest()
                data = (dumps(record) + "\n").encode("utf-8")
                if size > 0 and size + len(data) > self.max_bytes:
                    if pending:
                        self._append_bytes(bytes(pending))
                        pending.clear()
                    self._rotate()
                    size = _size(self.path)
                pending += data
                size += len(data)
            if pending:
                self._append_bytes(bytes(pending))
            self._remember(Tail(seq=seq, hash=prev, torn=None))

    def _tail(self) -> Tail:
        identity = _identity(self.path)
        if self._cache is not None and identity is not None and self._cache[0] == identity:
            return self._cache[1]
        return read_chain_tail(self.path, self.keep)

    def _remember(self, tail: Tail) -> None:
        identity = _identity(self.path)
        self._cache = (identity, tail) if identity is not None else None

    def _repair_torn(self, tail: Tail, seq: int, prev: str) -> tuple[int, str]:
        # S-AUD-05: end the fragment, then say so in the chain (the next line after it).
        assert tail.torn is not None
        fragment = tail.torn
        note: dict[str, Any] = {
            "event": "failure",
            "code": "AUDIT_TORN_LINE",
            "reason": "a previous writer stopped mid-line (crash or kill); the fragment above is kept "
            "as it was and the chain continues from the last complete line",
            "torn": {
                "line": count_lines(self.path),
                "bytes": len(fragment),
                "sha256": hashlib.sha256(fragment).hexdigest(),
            },
            "ts": format_ts(self.now()),
            "seq": seq + 1,
            "prev": prev,
        }
        if self.policy_hash:
            note["policy"] = self.policy_hash
        note["hash"] = chain_hash(note)
        self._append_bytes(b"\n" + (to_json_line(note) + "\n").encode("utf-8"))
        self.torn_repaired += 1
        log.warning("audit: repaired a torn final line in %s (%d bytes)", self.path, len(fragment))
        return note["seq"], note["hash"]

    def _rotate(self) -> None:
        # S-AUD-04: audit.jsonl → .1 → … → .keep (the old .keep is overwritten, i.e. dropped).
        try:
            rotate(self.path, self.keep)
            self.rotations += 1
        except OSError as exc:
            # On Windows a reader holding the file open blocks the rename: keep appending to
            # the current file rather than lose the event; the next append tries again.
            log.warning("audit: rotation of %s failed (%s); appending to the current file", self.path, exc)

    def _append_bytes(self, data: bytes) -> None:
        fd = os.open(self.path, _OPEN_FLAGS, _FILE_MODE)
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            if self.fsync:
                os.fsync(fd)
        finally:
            os.close(fd)

    def _failed(self, exc: BaseException) -> None:
        self.failures += 1
        message = f"{type(exc).__name__}: {exc}"
        if message != self.last_error or self.failures == 1:
            log.warning("audit: write to %s failed (%d so far): %s", self.path, self.failures, message)
        self.last_error = message
        self._cache = None


def _is_raw_result(value: Any) -> bool:
    # A CallToolResult (items carry "type"), as opposed to a `summarize_result` summary.
    if not isinstance(value, Mapping) or not isinstance(value.get("content"), list):
        return False
    if "isError" in value or "structuredContent" in value:
        return True
    return any(isinstance(item, Mapping) and "type" in item for item in value["content"])


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _identity(path: Path) -> tuple[int, int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
