"""Process state: the observation store, and the kill switch shared through the state dir.

Observations live in memory: they belong to this process's client sessions, and another
process's ids are unknown here by construction (S-OBS-…: a session cannot cite another's).
The kill switch is a file, `STOP`, so that every gateway process sharing a state dir — and
a person with a file manager — agree on it within one call (DESIGN.md §5).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from gateway.errors import GatewayError
from gateway.files.owner_only import THIS_MACHINE, FileGuard
from gateway.files.retry import SHARING_RETRY, SharingRetry
from policy.freshness import window_known
from policy.observation import NO_PRIVACY, Capture, Mapping, Observation, Privacy
from policy.rules.keyboard import console_moves_after, line_known_after, unentered_after

STOP_FILE = "STOP"
# Ids of dropped observations are remembered (with their session) so that citing one says
# STALE rather than UNKNOWN; bounded so memory stays flat over a long run.
REMEMBERED_IDS = 10_000


class ObservationStore:
    """Observations per client session, one process-wide id counter, the capture generation.

    `generation` counts upstream captures (every call that replaces upstream's label table,
    FORMATS.md §7), across all sessions, since upstream's table is shared by all of them.
    `epoch` increases when the upstream restarts: observations of an older epoch are stale.
    """

    def __init__(self, *, history: int = 32, next_id: Callable[[], int] | None = None) -> None:
        counter = itertools.count(1)
        self._next_id = next_id or (lambda: next(counter))
        self._history = history
        self._by_session: dict[str, deque[Observation]] = {}
        self._owner: OrderedDict[str, str] = OrderedDict()
        self.generation = 0
        self.epoch = 0
        self._epoch_of: dict[str, int] = {}
        # Per session, insertion-ordered (a dict as an ordered set): `was_dropped` is one lookup.
        self._dropped: dict[str, dict[str, None]] = {}
        self.recorded = 0
        # Calls forwarded that may have changed the desktop (anything not read-only), and the newest
        # observation with what that count was when it was taken: the evidence `reusable_focus`
        # weighs (S-FRESH-11).
        self.changes = 0
        self._last_capture: tuple[Observation, int, int] | None = None
        # What the Windows clipboard holds, as far as calls through this gateway tell: the text of
        # the last Clipboard `set`, or None once anything ran that may have changed it. The
        # clipboard is the desktop's, not a session's, so one value serves every session.
        self.clipboard: str | None = None
        # Text typed (or pasted) since the last Enter: a command typed in pieces over several calls
        # (`r`, then `d /s /q C:\\x` + Enter) runs as one line, so policy/typed.py judges the pieces
        # together (`unentered` + the new text). Desktop-wide like the clipboard, and kept across clicks:
        # only Enter, Esc or a Type with `clear` ends the line (kept too long rather than too short).
        self.unentered = ""
        # Whether that line is still known: a key the gateway cannot follow (Tab completion,
        # Backspace, history) makes the next Enter where a line runs a person's call.
        self.line_known = True
        # The folder changes entered in a console (`cd C:\Windows\System32`): a console keeps its folder
        # between calls, so the next command typed is judged with them in front (S-RULE-120).
        self.console_moves: tuple[str, ...] = ()

    def note_forwarded(self, tool: str, args: dict[str, Any], *, read_only: bool, paste: bool) -> None:
        """Track the clipboard and the text typed since the last Enter across a call that reached
        upstream (policy/typed.py judges pastes and typed text by them), and count the calls that may
        have moved focus."""
        if not read_only:
            self.changes += 1
        pasted = self.clipboard if paste else None
        self.console_moves = console_moves_after(self.console_moves, self.unentered, tool, args, pasted)
        self.line_known = line_known_after(self.line_known, self.unentered, tool, args, paste=paste, pasted=pasted)
        self.unentered = unentered_after(self.unentered, tool, args, pasted)
        if tool == "Clipboard":
            mode = str(args.get("mode", "")).strip().lower()
            if mode == "set":
                text = args.get("text")
                self.clipboard = text if isinstance(text, str) else None
            elif mode != "get":
                self.clipboard = None
        elif not (read_only or paste):
            self.clipboard = None  # a command, a copy chord, a click on "Copy" … may have changed it

    def bump_generation(self) -> int:
        """An upstream capture happened (whoever asked for it); return the new generation."""
        self.generation += 1
        return self.generation

    def upstream_restarted(self) -> None:
        """The desktop state is unknown after a restart: every existing observation is stale."""
        self.epoch += 1

    def record(
        self,
        *,
        session: str,
        capture: Capture,
        mapping: Mapping | None,
        now_ms: float,
        generation: int,
        mapping_warnings: tuple[str, ...] = (),
        use_dom: bool = False,
        private: Privacy = NO_PRIVACY,
    ) -> Observation:
        """Stamp a parsed capture into a new observation of `session` and keep it."""
        obs = Observation(
            id=f"obs-{self._next_id()}",
            session=session,
            generation=generation,
            taken_at_ms=now_ms,
            capture=capture,
            mapping=mapping,
            mapping_warnings=mapping_warnings or (mapping.warnings if mapping else ()),
            use_dom=use_dom,
            private=private,
        )
        queue = self._by_session.setdefault(session, deque(maxlen=self._history))
        if len(queue) == queue.maxlen:
            dropped = self._dropped.setdefault(session, {})
            dropped[queue[0].id] = None
            if len(dropped) > REMEMBERED_IDS:
                del dropped[next(iter(dropped))]
        queue.append(obs)
        self._owner[obs.id] = session
        self._epoch_of[obs.id] = self.epoch
        while len(self._owner) > REMEMBERED_IDS:
            old, _ = self._owner.popitem(last=False)
            self._epoch_of.pop(old, None)
        self.recorded += 1
        if capture.region is None and capture.selected_displays is None and window_known(obs):
            self._last_capture = (obs, self.changes, self.epoch)
        return obs

    def reusable_focus(self, now_ms: float, within_ms: float) -> Observation | None:
        """The newest observation whose focused window still stands for "focused now", if any.

        It does when it was taken at most `within_ms` ago, in this upstream's lifetime, and no call
        that may change the desktop was forwarded since (S-FRESH-11): what upstream saw then is what
        a probe would see now, except for a change made outside the gateway inside that window (the
        person at the desk, a pop-up) — the price `probe_reuse_ms` names; 0 turns it off. A capture
        of a region or of chosen displays is not evidence: upstream lists the focused window there only
        if it intersects them.
        """
        if within_ms <= 0 or self._last_capture is None:
            return None
        obs, changes, epoch = self._last_capture
        age = now_ms - obs.taken_at_ms
        if changes != self.changes or epoch != self.epoch or not (0 <= age <= within_ms):
            return None
        return obs

    def latest(self, session: str) -> Observation | None:
        queue = self._by_session.get(session)
        return queue[-1] if queue else None

    def latest_with_image(self, session: str) -> Observation | None:
        for obs in reversed(self._by_session.get(session, ())):
            if obs.mapping is not None:
                return obs
        return None

    def get(self, session: str, obs_id: str) -> Observation | None:
        """This session's observation `obs_id`, if it is still held."""
        for obs in self._by_session.get(session, ()):
            if obs.id == obs_id:
                return obs
        return None

    def owner_of(self, obs_id: str) -> str | None:
        """Which session an id was issued to (None if never issued or long forgotten)."""
        return self._owner.get(obs_id)

    def is_current_epoch(self, obs: Observation) -> bool:
        return self._epoch_of.get(obs.id, -1) == self.epoch

    def history(self, session: str) -> tuple[Observation, ...]:
        return tuple(self._by_session.get(session, ()))

    def was_dropped(self, session: str, obs_id: str) -> bool:
        """Whether `obs_id` is one of this session's that fell out of its bounded history (the
        newest `REMEMBERED_IDS` of them are remembered)."""
        return obs_id in self._dropped.get(session, {})

    def last_dropped(self, session: str) -> str | None:
        dropped = self._dropped.get(session)
        return next(reversed(dropped)) if dropped else None

    def is_foreign(self, session: str, obs_id: str) -> bool:
        """Whether `obs_id` was issued to another session (citing one is refused without revealing
        anything); ids long forgotten are unknown, not foreign."""
        owner = self._owner.get(obs_id)
        return owner is not None and owner != session

    def sessions(self) -> list[str]:
        return list(self._by_session)


class SharedCounter:
    """A counter in the state dir shared by every gateway process using it (file-locked).

    Observation ids come from here, so `obs-N` names one observation across all processes
    that write the same audit: a session of one process can never cite another's id.

    Ids are reserved in blocks of `block` (S-OBS-35): the file holds the last id any process
    reserved, and one lock acquisition hands this process the next `block` of them. The next
    block is reserved on a thread while a quarter of the current one is left, so taking an id on
    the event loop is a list pop, not a file lock. Ids stay unique across processes; they are
    no longer consecutive between processes (nothing relies on that: ids are compared for
    equality only).
    """

    def __init__(self, path: Path, *, block: int = 64) -> None:
        self.path = path
        self.block = max(1, block)
        self._lock = FileLock(str(path.with_name(path.name + ".lock")), timeout=10)
        self._ids: deque[int] = deque()
        self._guard = threading.Lock()
        self._refill: threading.Thread | None = None
        self._refill_error: BaseException | None = None
        self._start_refill()

    def __call__(self) -> int:
        with self._guard:
            if len(self._ids) <= self.block // 4:
                self._start_refill_locked()
            if self._ids:
                return self._ids.popleft()
            pending = self._refill
        if pending is not None:
            pending.join()  # only when ids run out faster than a block is reserved (or at the first id)
        with self._guard:
            if not self._ids:
                self._ids.extend(self._reserve())  # the refill failed: try once more, here, and let it raise
            return self._ids.popleft()

    def _start_refill(self) -> None:
        with self._guard:
            self._start_refill_locked()

    def _start_refill_locked(self) -> None:
        if self._refill is not None and self._refill.is_alive():
            return
        self._refill = threading.Thread(target=self._refill_now, name="winmcp-id-block", daemon=True)
        self._refill.start()

    def _refill_now(self) -> None:
        try:
            ids = self._reserve()
        except Exception as exc:  # noqa: BLE001 - the next id taken retries in line and raises
            self._refill_error = exc
            return
        with self._guard:
            self._ids.extend(ids)

    def _reserve(self) -> range:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            try:
                current = int(self.path.read_text(encoding="utf-8").strip() or 0)
            except (FileNotFoundError, ValueError):
                current = 0
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_text(str(current + self.block), encoding="utf-8")
            os.replace(tmp, self.path)
            return range(current + 1, current + self.block + 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class KillStatus:
    """What the STOP file says: engaged or not, by whom ("person" | "model"), since when, why."""

    engaged: bool
    by: str | None = None
    since: str | None = None
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"engaged": self.engaged, "by": self.by, "since": self.since, "reason": self.reason}


def _utc_now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class KillSwitch:
    """The STOP file in the state dir. Its mere existence engages the stop (fail closed).

    A file a person made by hand (empty or not JSON) counts as engaged by a person; only a
    stop whose file says `"by": "model"` may be released by a model (S-KILL-…).

    Other gateways read STOP on every call without a lock, and on Windows an open reader makes
    replacing or deleting it fail with `PermissionError` (and a pending delete makes reading it
    fail): every read, replace and delete is retried (`SharingRetry`, S-WIN-07, S-WIN-08). A read that
    still fails counts as engaged, with the reason; a replace that still fails raises, the
    file left as it was (S-WIN-09). The file is made owner-only before it is put in place.
    """

    def __init__(
        self, state_dir: Path, *, retry: SharingRetry = SHARING_RETRY, guard: FileGuard = THIS_MACHINE
    ) -> None:
        self.path = state_dir / STOP_FILE
        self._retry = retry
        self._guard = guard

    def status(self) -> KillStatus:
        try:
            raw = self._retry(lambda: self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return KillStatus(engaged=False)
        except PermissionError as exc:
            # Still refused after every retry: a stop (fail closed), and the reason says why.
            return KillStatus(
                engaged=True,
                by="person",
                reason=f"STOP file unreadable after {self._retry.attempts} tries: {exc}",
            )
        except OSError as exc:
            # Present but unreadable: still a stop, and the reason says why we could not read it.
            return KillStatus(engaged=True, by="person", reason=f"STOP file unreadable: {exc}")
        try:
            data = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        by = data.get("by") if data.get("by") in ("person", "model") else "person"
        return KillStatus(
            engaged=True,
            by=by,
            since=str(data["since"]) if "since" in data else None,
            reason=str(data["reason"]) if data.get("reason") else ("STOP file present" if not data else None),
        )

    def engage(self, *, by: str, reason: str = "") -> KillStatus:
        """Engage (or re-assert) the stop. A person's stop is never downgraded to a model's.

        Raises:
            GatewayError: STOP could not be replaced even after the retries (another process
                keeps it open); an existing STOP still stops every gateway.
        """
        current = self.status()
        if current.engaged and current.by == "person" and by == "model":
            return current
        self._guard.ensure_private_dir(self.path.parent)
        payload = {"by": by, "since": _utc_now_iso(), "reason": reason or f"engaged by {by}"}
        tmp = self.path.with_name(f".{STOP_FILE}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(payload), encoding="utf-8")
        self._guard.protect_file(tmp)  # the ACL travels with the file into place
        try:
            # atomic on Windows and POSIX: readers see old or new, never half
            self._retry(lambda: os.replace(tmp, self.path))
        except PermissionError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            state = (
                "the STOP file that is there still stops every gateway" if self.path.exists() else "nothing is stopped"
            )
            raise GatewayError(
                f"could not write {self.path} after {self._retry.attempts} tries ({exc}): {state}; "
                "another program holds it open — try again"
            ) from exc
        return self.status()

    def release(self, *, by: str) -> tuple[bool, KillStatus]:
        """Release the stop. Returns (released, status). A model cannot release a person's stop.

        A STOP file that cannot be deleted even after the retries stays: (False, engaged).
        """
        current = self.status()
        if not current.engaged:
            return True, current
        if by == "model" and current.by != "model":
            return False, current
        try:
            with contextlib.suppress(FileNotFoundError):
                self._retry(self.path.unlink)
        except PermissionError:
            return False, self.status()
        return True, self.status()
