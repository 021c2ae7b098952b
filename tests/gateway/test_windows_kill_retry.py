"""STOP and the audit rotation past Windows' sharing locks: retried, bounded, and failing closed.

Linux cannot produce a Windows sharing violation, so a reader "holding the file open" is a
patched `open`/`os.replace`/`unlink` that raises `PermissionError` N times for that one path,
as Windows does while another process has it open (S-WIN-07 … S-WIN-09). No test sleeps: the
retry's waits are recorded, not slept.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gateway.audit.rotation import rotate
from gateway.errors import GatewayError
from gateway.files.retry import SHARING_DELAYS_S, SharingRetry
from gateway.state.store import STOP_FILE, KillSwitch
from tests._requirements import requirement

ALWAYS = 10**6


class Held:
    """`times` PermissionErrors for `target`, then the real call: a reader that lets go."""

    def __init__(self, target: Path, times: int) -> None:
        self.target, self.left, self.refused = target, times, 0

    def wrap(self, real: Callable[..., Any], pick: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if Path(pick(*args)) == self.target and self.left > 0:
                self.left -= 1
                self.refused += 1
                raise PermissionError(
                    13, "The process cannot access the file because it is being used by another process"
                )
            return real(*args, **kwargs)

        return call


def _switch(tmp_path: Path) -> tuple[KillSwitch, list[float]]:
    waits: list[float] = []
    return KillSwitch(tmp_path, retry=SharingRetry(sleep=waits.append)), waits


def _hold_reads(monkeypatch: pytest.MonkeyPatch, path: Path, times: int) -> Held:
    held = Held(path, times)
    monkeypatch.setattr(Path, "read_text", held.wrap(Path.read_text, lambda self, *a: self))
    return held


def _hold_replace(monkeypatch: pytest.MonkeyPatch, path: Path, times: int) -> Held:
    held = Held(path, times)
    monkeypatch.setattr(os, "replace", held.wrap(os.replace, lambda src, dst, *a: dst))
    return held


def _hold_unlink(monkeypatch: pytest.MonkeyPatch, path: Path, times: int) -> Held:
    held = Held(path, times)
    monkeypatch.setattr(Path, "unlink", held.wrap(Path.unlink, lambda self, *a: self))
    return held


@requirement("S-WIN-07")
def test_the_retry_is_bounded_and_passes_other_errors_at_once() -> None:
    """S-WIN-07: 8 tries over 0.535 s for PermissionError only; the last one's error is raised."""
    waits: list[float] = []
    retry = SharingRetry(sleep=waits.append)
    tries: list[int] = []

    def refuse() -> None:
        tries.append(1)
        raise PermissionError("held")

    with pytest.raises(PermissionError):
        retry(refuse)
    assert len(tries) == retry.attempts == 8 and waits == list(SHARING_DELAYS_S)
    assert sum(SHARING_DELAYS_S) == pytest.approx(0.535)
    waits.clear()
    with pytest.raises(FileNotFoundError):
        retry(lambda: (_ for _ in ()).throw(FileNotFoundError("gone")))
    assert waits == [], "only a sharing refusal is retried"


@requirement("S-WIN-08")
def test_a_stop_read_while_another_process_holds_it_recovers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-WIN-08: a read refused 3 times succeeds on the 4th and reports the person's stop as written."""
    switch, waits = _switch(tmp_path)
    switch.engage(by="person", reason="lunch")
    held = _hold_reads(monkeypatch, tmp_path / STOP_FILE, 3)
    status = switch.status()
    assert held.refused == 3 and waits == list(SHARING_DELAYS_S[:3])
    assert status.engaged and status.by == "person" and status.reason == "lunch"


@requirement("S-WIN-09")
def test_a_stop_that_stays_unreadable_fails_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-WIN-09: refused on every try, STOP counts as a person's stop, and the reason says why."""
    switch, waits = _switch(tmp_path)
    switch.engage(by="model", reason="the model stopped itself")
    _hold_reads(monkeypatch, tmp_path / STOP_FILE, ALWAYS)
    status = switch.status()
    assert status.engaged and status.by == "person", "fail closed: a model cannot release what it cannot read"
    assert status.reason is not None and "unreadable after 8 tries" in status.reason
    assert len(waits) == len(SHARING_DELAYS_S), "bounded"
    released, after = switch.release(by="model")
    assert not released and after.engaged and (tmp_path / STOP_FILE).exists()


@requirement("S-WIN-08")
def test_engaging_while_readers_hold_stop_retries_the_replace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-WIN-08: the person's engage over a model's STOP gets through after 5 refused replaces."""
    switch, _ = _switch(tmp_path)
    switch.engage(by="model", reason="model")
    held = _hold_replace(monkeypatch, tmp_path / STOP_FILE, 5)
    status = switch.engage(by="person", reason="the person pressed stop")
    assert held.refused == 5 and status.by == "person" and status.reason == "the person pressed stop"
    assert not list(tmp_path.glob(f".{STOP_FILE}.*")), "no temporary file left"


@requirement("S-WIN-09")
def test_an_engage_that_cannot_replace_stop_says_so_and_leaves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-WIN-09: still refused after the retries: an error naming the file, the old STOP intact, no temp left."""
    switch, _ = _switch(tmp_path)
    switch.engage(by="model", reason="model")
    before = (tmp_path / STOP_FILE).read_bytes()
    _hold_replace(monkeypatch, tmp_path / STOP_FILE, ALWAYS)
    with pytest.raises(GatewayError, match="after 8 tries.*still stops every gateway"):
        switch.engage(by="person", reason="stop")
    assert (tmp_path / STOP_FILE).read_bytes() == before and switch.status().engaged
    assert not list(tmp_path.glob(f".{STOP_FILE}.*"))


@requirement("S-WIN-08", "S-WIN-09")
def test_release_retries_the_delete_and_stays_engaged_when_it_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-WIN-08/09: a delete refused twice then done releases; refused every time, the stop stays."""
    switch, _ = _switch(tmp_path)
    switch.engage(by="person", reason="x")
    with monkeypatch.context() as m:
        held = _hold_unlink(m, tmp_path / STOP_FILE, 2)
        assert switch.release(by="person") == (True, switch.status()) and held.refused == 2
    assert not switch.status().engaged
    switch.engage(by="person", reason="y")
    _hold_unlink(monkeypatch, tmp_path / STOP_FILE, ALWAYS)
    released, status = switch.release(by="person")
    assert not released and status.engaged and status.reason == "y"


@requirement("S-WIN-07")
def test_the_audit_rotation_uses_the_same_retry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-WIN-07: a rename the reader blocks 4 times goes through; blocked for good, rotation raises."""
    log = tmp_path / "audit.jsonl"
    log.write_text("a\n")
    waits: list[float] = []
    with monkeypatch.context() as m:
        held = _hold_replace(m, tmp_path / "audit.jsonl.1", 4)
        rotate(log, 2, retry=SharingRetry(sleep=waits.append))
    assert held.refused == 4 and (tmp_path / "audit.jsonl.1").read_text() == "a\n" and not log.exists()
    log.write_text("b\n")
    _hold_replace(monkeypatch, tmp_path / "audit.jsonl.2", ALWAYS)
    with pytest.raises(PermissionError):
        rotate(log, 2, retry=SharingRetry(sleep=waits.append))
    assert log.read_text() == "b\n", "the current file stays; the writer keeps appending to it"
