"""The pin file: which upstream tool definitions a person trusts (issue 15 item 3; S-PIN-01..08).

Two files in the state dir, both owner-only, both replaced atomically (write beside, make
owner-only, `os.replace`), every write under one cross-process file lock (`tool-pins.lock`):

    tool-pins.json          the pins: per tool its digest, the definition it was made from, who
                            pinned it (first-connection | first-sight | cli) and when. Written
                            by the gateway only when there is none (the first successful
                            connection) or a tool appears that has no pin (first sight), and by
                            a person's `winmcp-gateway pin accept`.
    tool-pins.offered.json  what the upstream offered last (so `pin show` can diff, and `pin
                            accept` accepts exactly what was shown, without an upstream).

No tool a model can call writes here: the state dir is self-protected (SELF_PROTECTION).

A pin file that cannot be read, is not JSON, has another format or holds a pin whose digest
does not match its own definition is *unusable* (`PinFileError`), and the gateway never
overwrites it: pinning whatever the upstream offers now could trust a compromised server. Every
upstream tool is then withheld until a person runs `pin accept` (which moves the bad file
aside as `tool-pins.json.bad-<time>` and re-pins the offered list) (S-PIN-06).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from gateway.files.owner_only import THIS_MACHINE, FileGuard
from gateway.files.retry import SHARING_RETRY
from policy.pins import (
    PinGate,
    PinMode,
    PinnedTool,
    PinReport,
    PinSource,
    PinStatus,
    compare,
    pin_of,
    tool_digest,
)

PIN_FILE = "tool-pins.json"
OFFERED_FILE = "tool-pins.offered.json"
LOCK_FILE = "tool-pins.lock"
FORMAT = "winmcp-pins/1"
LOCK_TIMEOUT_S = 10.0


class PinFileError(ValueError):
    """The pin file exists but cannot be used (unreadable, not JSON, wrong format, a bad pin)."""


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _tools_of(tools: Sequence[Any]) -> list[dict[str, Any]]:
    return [t for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]


def _pin_from(name: str, raw: object) -> PinnedTool:
    if not isinstance(raw, Mapping):
        raise PinFileError(f"the pin of {name!r} is not an object")
    try:
        pin = PinnedTool(
            name=name,
            digest=raw["digest"],
            definition=raw["definition"],
            by=raw.get("by", "first-connection"),
            at=str(raw.get("at", "")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise PinFileError(f"the pin of {name!r} is malformed ({exc})") from exc
    if tool_digest(pin.definition) != pin.digest or pin.definition.get("name") != name:
        raise PinFileError(f"the pin of {name!r} does not match its own definition (edited by hand?)")
    return pin


@dataclass(frozen=True, slots=True, kw_only=True)
class Recorded:
    """What one `PinStore.record` found: the report, or why the pins are unusable."""

    report: PinReport | None
    error: str | None = None
    first: bool = False  # this call wrote the first pins
    sighted: tuple[str, ...] = ()  # tools pinned on first sight by this call


class PinStore:
    """The pin files of one state dir (module docstring)."""

    def __init__(self, state_dir: Path, *, guard: FileGuard = THIS_MACHINE) -> None:
        self.dir = state_dir
        self.path = state_dir / PIN_FILE
        self.offered_path = state_dir / OFFERED_FILE
        self._guard = guard
        self._lock = FileLock(str(state_dir / LOCK_FILE), timeout=LOCK_TIMEOUT_S)

    # -- reading (no lock: files are replaced whole) -------------------------------------------

    def read_pins(self) -> dict[str, PinnedTool] | None:
        """The pins by name; None when there is no pin file yet.

        Raises:
            PinFileError: the file is there but unusable.
        """
        try:
            text = SHARING_RETRY(lambda: self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise PinFileError(f"{self.path} cannot be read: {exc}") from exc
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise PinFileError(f"{self.path} is not JSON ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("tools"), dict):
            raise PinFileError(f"{self.path} is not a {FORMAT} pin file")
        return {name: _pin_from(name, raw) for name, raw in data["tools"].items()}

    def read_offered(self) -> list[dict[str, Any]] | None:
        """What the upstream offered last (None: nothing recorded, or unreadable)."""
        try:
            data = json.loads(self.offered_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        tools = data.get("tools") if isinstance(data, dict) else None
        return _tools_of(tools) if isinstance(tools, list) else None

    def stamp(self) -> tuple[int, int] | None:
        """(mtime_ns, size) of the pin file, None when absent: a cheap "did a person accept?"."""
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    # -- writing (always under the lock) -----------------------------------------------------

    def _write(self, path: Path, data: Mapping[str, Any]) -> None:
        self._guard.ensure_private_dir(self.dir)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")
        self._guard.protect_file(tmp)  # owner-only before it is in place (S-PIN-07)
        SHARING_RETRY(lambda: os.replace(tmp, path))

    def _write_pins(self, pins: Mapping[str, PinnedTool]) -> None:
        tools = {
            name: {"digest": p.digest, "definition": dict(p.definition), "by": p.by, "at": p.at}
            for name, p in sorted(pins.items())
        }
        self._write(self.path, {"format": FORMAT, "tools": tools})

    def record(self, offered: Sequence[Any]) -> Recorded:
        """Remember what the upstream offers; pin it all if nothing is pinned yet (S-PIN-01).

        Args:
            offered: upstream's `tools/list` entries.

        Returns:
            The comparison with the pins, or the reason the pin file is unusable (it is left as it is).
        """
        tools = _tools_of(offered)
        now = utc_now()
        with self._lock:
            if self.read_offered() != tools:
                self._write(self.offered_path, {"format": FORMAT, "at": now, "tools": tools})
            try:
                pins = self.read_pins()
            except PinFileError as exc:
                return Recorded(report=None, error=str(exc))
            if pins is None and not tools:
                return Recorded(report=compare({}, []))  # nothing offered: nothing to pin yet
            first = pins is None
            sighted: tuple[str, ...] = ()
            if pins is None:
                pins = {t["name"]: pin_of(t, by="first-connection", at=now) for t in tools}
            else:
                # A tool without a pin is pinned on first sight, so a later change to it is caught;
                # it stays "new" (and as visible as the catalog says) until a person accepts it.
                sighted = tuple(t["name"] for t in tools if t["name"] not in pins)
                pins.update({t["name"]: pin_of(t, by="first-sight", at=now) for t in tools if t["name"] in sighted})
            if first or sighted:
                self._write_pins(pins)
        return Recorded(report=compare(pins, tools), first=first, sighted=sighted)

    def accept(self, names: Sequence[str] = (), *, by: PinSource = "cli") -> list[tuple[str, PinStatus, str | None]]:
        """Accept what the upstream offered last: all changes, or only `names` (S-PIN-03).

        Changed and new tools get the offered definition's pin (by `by`); a removed tool's pin
        is dropped. An unusable pin file is moved aside and everything offered is pinned — only
        when accepting all (no `names`).

        Returns:
            (tool, status it had, the digest now pinned or None for a dropped pin) per tool whose pin changed.

        Raises:
            PinFileError: nothing was ever offered, or the pin file is unusable and `names` were given.
        """
        with self._lock:
            offered = self.read_offered()
            if offered is None:
                raise PinFileError(
                    f"no offered tool list in {self.offered_path}: start the gateway (serve or doctor) once first"
                )
            try:
                pins = self.read_pins() or {}
            except PinFileError:
                if names:
                    raise
                aside = self.path.with_name(f"{PIN_FILE}.bad-{time.strftime('%Y%m%dT%H%M%S')}")
                with contextlib.suppress(OSError):
                    os.replace(self.path, aside)
                pins = {}
            report = compare(pins, offered)
            by_name = {t["name"]: t for t in offered}
            done: list[tuple[str, PinStatus, str | None]] = []
            now = utc_now()
            for change in report.tools:
                if (names and change.name not in names) or change.status is PinStatus.PINNED:
                    continue
                if change.status is PinStatus.REMOVED:
                    pins.pop(change.name, None)
                    done.append((change.name, change.status, None))
                else:
                    pins[change.name] = pin_of(by_name[change.name], by=by, at=now)
                    done.append((change.name, change.status, pins[change.name].digest))
            if done or not self.path.exists():
                self._write_pins(pins)
        return done


class PinGuard:
    """One gateway process's pin gate: recorded at each new upstream tool list, and re-read when a
    person changed the pin file (one `stat` per check; S-PIN-04)."""

    def __init__(self, state_dir: Path, *, mode: PinMode = "enforce") -> None:
        self.store = PinStore(state_dir)
        self.mode: PinMode = mode
        self._gate = PinGate(mode=mode)
        self._recorded = False
        self._stamp: tuple[int, int] | None = None  # the pin file's stamp the gate was computed from
        self._tools: list[dict[str, Any]] = []
        self.report: PinReport | None = None

    def _set(self, tools: list[dict[str, Any]], report: PinReport | None, error: str | None) -> PinGate:
        self.report = report
        withheld = frozenset(report.changed) if report is not None else frozenset()
        self._gate = PinGate(mode=self.mode, withheld=withheld, error=error)
        self._tools = tools
        self._recorded = True
        self._stamp = self.store.stamp()
        return self._gate

    def record(self, tools: list[dict[str, Any]]) -> tuple[PinGate, Recorded]:
        """Record a freshly fetched upstream tool list (blocking: call it off the event loop)."""
        try:
            recorded = self.store.record(tools)
        except Exception as exc:  # noqa: BLE001 - a pin write that fails must withhold, not crash (fail closed)
            recorded = Recorded(report=None, error=f"the pin files could not be written: {exc}")
        return self._set(tools, recorded.report, recorded.error), recorded

    def gate(self) -> PinGate:
        """The gate for the last recorded list, re-read if the pin file changed since."""
        if self._recorded and self._stamp != self.store.stamp():
            try:
                pins = self.store.read_pins() or {}
            except PinFileError as exc:
                return self._set(self._tools, None, str(exc))
            return self._set(self._tools, compare(pins, self._tools), None)
        return self._gate


def pin_notes(gate: PinGate, recorded: Recorded) -> list[tuple[str | None, str]]:
    """(tool, one line) for the log and the audit about a recorded tool list: changed definitions,
    an unusable pin file, tools pinned on first sight. Nothing when all is as pinned."""
    mode = "withheld and refused TOOL_CHANGED" if gate.mode == "enforce" else 'reported only (pin_mode = "warn")'
    if recorded.error is not None:
        return [
            (
                None,
                f"tool pins unusable, every upstream tool is {mode}: {recorded.error}; "
                "a person can run `winmcp-gateway pin show` and `winmcp-gateway pin accept`",
            )
        ]
    notes: list[tuple[str | None, str]] = []
    report = recorded.report
    for name in report.changed if report is not None else ():
        notes.append(
            (
                name,
                f"upstream changed the definition of {name} since it was pinned: {mode} until a "
                f"person runs `winmcp-gateway pin accept {name}` (see `winmcp-gateway pin show`)",
            )
        )
    for name in recorded.sighted:
        notes.append(
            (
                name,
                f"upstream offers a new tool {name}: pinned on first sight (not trusted; the catalog "
                "decides whether it is visible)",
            )
        )
    return notes
