"""Approvals on disk, so a person's `winmcp-gateway approve ID` reaches the gateway process.

Each request is one JSON file `<state>/approvals/<id>.json`: the `policy.Approval` value plus
a redacted description of the call for the person. Transitions are pure (`policy/approval.py`);
this module only loads, saves and asks. No tool a model can call writes here: the
gateway's own state dir is self-protected (SELF_PROTECTION).

Lifetimes (issue 12 item 3):

1. A grant binds to its session's key, which no other process or later run repeats
   (`gateway.protocol.sessions`, S-APR-09); a "session" grant also ends `approval_ttl_ms`
   after the grant (S-APR-10).
2. Each session's granted "session" approvals are listed in an index,
   `<state>/approvals/sessions/<hash of the key>.json`, so a call reads that one index and
   the approval it cites — never the whole dir (S-APR-12).
3. Files nobody can use any more are deleted (`prune`): when a request is written (at most
   once per `PRUNE_INTERVAL_MS`), after a person answers, and when `serve` starts (S-APR-11).
4. Every write happens under one file lock; spending an approval is compare-and-set under
   it, so of two processes spending one single-use approval exactly one wins (S-APR-13).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from filelock import FileLock

from gateway.audit.redact.values import redact_args, redact_text
from gateway.files.owner_only import ensure_private_dir
from policy.approval import is_expired, recheck
from policy.decision import Decision, Verdict
from policy.values import Approval, ToolCall

APPROVALS_DIR = "approvals"
SESSIONS_DIR = "sessions"
PRUNE_MARK = ".pruned"
# Ids are random (not a counter): a model cannot guess another request's id, and the format
# check below keeps any cited id from naming a path outside the approvals dir.
_ID = re.compile(r"apr-[0-9a-f]{10}")
LOCK_TIMEOUT_S = 10.0
# A sweep reads every file; a model that asks in a loop must not make every ask do that.
# Ten seconds keeps the dir within ten seconds' worth of asks of what is still usable.
PRUNE_INTERVAL_MS = 10_000.0
# How often a lost compare-and-set is retried on the stored state: a "session" grant counts
# uses, so two identical calls of one session may each move it once; one retry settles that.
SPEND_ATTEMPTS = 3


def new_approval_id() -> str:
    return f"apr-{secrets.token_hex(5)}"


def is_approval_id(value: object) -> bool:
    return isinstance(value, str) and bool(_ID.fullmatch(value))


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    # Write beside, then replace: a reader without the lock sees the old file or the new one.
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def _approval_of(record: Mapping[str, Any] | None) -> Approval | None:
    if record is None:
        return None
    try:
        return Approval(**record["approval"])
    except (KeyError, TypeError, ValueError):
        return None


class ApprovalStore:
    """The approvals dir of one state dir (cross-process safe through a file lock)."""

    def __init__(self, state_dir: Path) -> None:
        self.dir = state_dir / APPROVALS_DIR
        self._sessions = self.dir / SESSIONS_DIR
        self._lock = FileLock(str(state_dir / "approvals.lock"), timeout=LOCK_TIMEOUT_S)

    def _path(self, approval_id: str) -> Path:
        if not is_approval_id(approval_id):
            raise ValueError(f"not an approval id: {approval_id!r}")
        return self.dir / f"{approval_id}.json"

    def _index_path(self, session: str) -> Path:
        # Session keys hold ':' (not allowed in a Windows file name) and a client's declared name.
        return self._sessions / f"{hashlib.sha256(session.encode('utf-8')).hexdigest()[:32]}.json"

    # -- writing (always under the lock) -----------------------------------------------------

    def save(self, approval: Approval, *, call: Mapping[str, Any] | None = None) -> None:
        """Write `approval` (and, on creation, the redacted call it is about)."""
        self._path(approval.id)  # refuse a bad id before taking the lock
        ensure_private_dir(self.dir)  # owner-only: mode 0700, or on Windows an ACL its files inherit (S-WIN-04)
        with self._lock:
            self._store(approval, call)

    def _store(self, approval: Approval, call: Mapping[str, Any] | None) -> None:
        path = self._path(approval.id)
        record = _read_json(path) or {}
        stored = dataclasses.asdict(approval)
        if isinstance(stored.get("reason"), str):  # it may quote the command (describe_call)
            stored["reason"] = redact_text(stored["reason"])
        record["approval"] = stored
        if call is not None:
            record["call"] = dict(call)
        _write_json(path, record)
        if approval.scope == "session":
            self._index(approval)

    def _index(self, approval: Approval) -> None:
        path = self._index_path(approval.session)
        data = _read_json(path) or {}
        grants = set(data.get("grants", ())) if data.get("session") == approval.session else set()
        if approval.status == "approved":
            grants.add(approval.id)
        else:
            grants.discard(approval.id)
        if grants:
            self._sessions.mkdir(parents=True, exist_ok=True)
            _write_json(path, {"session": approval.session, "grants": sorted(grants)})
        else:
            path.unlink(missing_ok=True)

    def compare_and_set(self, before: Approval, after: Approval) -> tuple[bool, Approval | None]:
        """Store `after` only if the stored approval still equals `before` (S-APR-13).

        Args:
            before: the value the caller read and decided on.
            after: the value to store (same id).

        Returns:
            (True, after) when stored; else (False, what is stored now — None if nothing).

        Raises:
            ValueError: the two values name different approvals.
            filelock.Timeout: the lock was not free within LOCK_TIMEOUT_S.
        """
        if before.id != after.id:
            raise ValueError("compare_and_set needs two states of one approval")
        self.dir.mkdir(parents=True, exist_ok=True)
        with self._lock:
            current = self.load(before.id)
            if current != before:
                return False, current
            self._store(after, None)
            return True, after

    def spend(self, approvals: Mapping[str, Approval], call: ToolCall, decision: Decision, now_ms: float) -> Decision:
        """Record the use of the approval an ALLOW consumed, by compare-and-set (S-APR-13).

        Args:
            approvals: the approvals `decide` saw (the value before the use is among them).
            call: the call that was decided.
            decision: the ALLOW whose `approval` is the used-up state.
            now_ms: the clock now.

        Returns:
            `decision` (its approval as stored) when this call won the approval; else the
            refusal the stored state gives (e.g. APPROVAL_DENIED: already used elsewhere).
        """
        after = decision.approval
        assert after is not None
        before: Approval | None = approvals.get(after.id)
        for _ in range(SPEND_ATTEMPTS):
            won, current = self.compare_and_set(before, after) if before is not None else (False, self.load(after.id))
            if won:
                return dataclasses.replace(decision, approval=after)
            again, verdict = recheck(current, after.id, call, now_ms)
            if verdict.verdict is not Verdict.ALLOW or again is None:
                return verdict
            before, after = current, again
        _, verdict = recheck(None, after.id, call, now_ms)
        return verdict

    # -- reading (no lock: every file is replaced whole) ---------------------------------------

    def record(self, approval_id: object) -> dict[str, Any] | None:
        if not is_approval_id(approval_id):
            return None
        assert isinstance(approval_id, str)
        return _read_json(self._path(approval_id))

    def load(self, approval_id: object) -> Approval | None:
        """The approval with this id, or None (unknown, malformed id, or unreadable file)."""
        return _approval_of(self.record(approval_id))

    def session_grants(self, session: str) -> dict[str, Approval]:
        """This session's granted session-scoped approvals (they cover identical calls).

        Reads the session's index and the grants it lists: the cost does not depend on how
        many other approval files the dir holds (S-APR-12).
        """
        index = _read_json(self._index_path(session))
        out: dict[str, Approval] = {}
        if index is None or index.get("session") != session:
            return out
        for approval_id in index.get("grants", ()):
            approval = self.load(approval_id)
            if (
                approval
                and approval.session == session
                and (approval.scope, approval.status) == ("session", "approved")
            ):
                out[approval.id] = approval
        return out

    def pending(self, now_ms: float) -> list[tuple[Approval, dict[str, Any]]]:
        """Every request still waiting for a person at `now_ms`, oldest first, with what it is about.

        For `winmcp-gateway approvals` (S-APR-30): reads each request file once, without the lock
        (every file is replaced whole), and writes nothing.

        Args:
            now_ms: the clock now; an expired request is no longer pending.

        Returns:
            (approval, the redacted call description `describe_call` stored; {} if none) pairs.
        """
        if not self.dir.is_dir():
            return []
        found: list[tuple[Approval, dict[str, Any]]] = []
        for entry in os.scandir(self.dir):
            if not (entry.name.endswith(".json") and is_approval_id(entry.name[: -len(".json")])):
                continue
            record = _read_json(Path(entry.path))
            approval = _approval_of(record)
            if record is None or approval is None or approval.status != "pending" or is_expired(approval, now_ms):
                continue
            call = record.get("call")
            found.append((approval, dict(call) if isinstance(call, dict) else {}))
        found.sort(key=lambda item: (item[0].created_ms, item[0].id))
        return found

    # -- forgetting ------------------------------------------------------------------------------

    def prune(self, now_ms: float) -> int:
        """Delete every approval file nobody can use any more (S-APR-11).

        That is one past its expiry (pending, granted, used or denied alike), one without an
        expiry (a session grant of a version whose stdio sessions shared one key), an
        unreadable one, a writer's leftover temporary file, and index entries of gone files.

        Args:
            now_ms: the clock now.

        Returns:
            How many files were deleted.
        """
        if not self.dir.is_dir():
            return 0
        with self._lock:
            removed = self._sweep(now_ms)
            _write_json(self.dir / PRUNE_MARK, {"at_ms": now_ms})
        return removed

    def prune_if_due(self, now_ms: float) -> int:
        """`prune`, unless a sweep ran less than PRUNE_INTERVAL_MS ago by this clock."""
        mark = _read_json(self.dir / PRUNE_MARK)
        last = mark.get("at_ms") if mark else None
        if isinstance(last, int | float) and 0 <= now_ms - last < PRUNE_INTERVAL_MS:
            return 0
        return self.prune(now_ms)

    def _sweep(self, now_ms: float) -> int:
        removed = 0
        for entry in os.scandir(self.dir):
            name, path = entry.name, Path(entry.path)
            # Writes happen under the lock this sweep holds: a temporary file now is a crash's leftover.
            stale = name.endswith(".tmp")
            if not stale and name.startswith("apr-") and name.endswith(".json"):
                approval = _approval_of(_read_json(path))
                stale = approval is None or approval.expires_ms is None or is_expired(approval, now_ms)
            if stale and entry.is_file():
                with contextlib.suppress(OSError):  # another reader holds it open (Windows): next sweep
                    path.unlink()
                    removed += 1
        if self._sessions.is_dir():
            for entry in os.scandir(self._sessions):
                removed += self._sweep_index(Path(entry.path))
        return removed

    def _sweep_index(self, path: Path) -> int:
        if path.name.endswith(".tmp"):
            path.unlink(missing_ok=True)
            return 1
        data = _read_json(path)
        grants = data.get("grants") if data else None
        kept = [g for g in grants if is_approval_id(g) and self._path(g).exists()] if isinstance(grants, list) else []
        if not kept:
            path.unlink(missing_ok=True)
            return 1
        if data is not None and kept != grants:
            _write_json(path, {**data, "grants": kept})
        return 0


def prune_at_start(state_dir: Path, now_ms: float) -> int:
    """Prune when a gateway starts; a state dir that cannot be swept now is swept later (never raises)."""
    try:
        return ApprovalStore(state_dir).prune(now_ms)
    except Exception:  # noqa: BLE001 - a sweep is housekeeping; the gateway starts regardless
        return 0


def describe_call(tool: str, args: Mapping[str, Any], *, rule_id: str | None, reason: str) -> dict[str, Any]:
    """What a person sees about a request: tool, redacted arguments, the rule that asked, why.

    The reason is redacted too: a rule's reason may quote the command (a parse error's
    neighbourhood, a dynamic name), and the request file lies in the state dir like the audit."""
    return {"tool": tool, "args": redact_args(tool, dict(args)), "rule": rule_id, "reason": redact_text(reason)}
