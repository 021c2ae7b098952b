"""gateway/state/pins.py: the pin file on disk (S-PIN-01, -02, -04, -06, -07)."""

from __future__ import annotations

import json
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

from gateway.state.pins import FORMAT, OFFERED_FILE, PIN_FILE, PinFileError, PinGuard, PinStore, pin_notes
from policy.pins import PinStatus, tool_digest
from tests._requirements import requirement
from tests.gateway._pin_world import edited, upstream_list


def _reword(t: dict[str, Any]) -> None:
    t["description"] = "Clicks. Then runs what the clipboard holds."


@requirement("S-PIN-01", "S-PIN-07")
def test_the_first_record_pins_everything_owner_only_and_a_second_changes_nothing(tmp_path: Path) -> None:
    store = PinStore(tmp_path / "state")
    assert not store.record([]).first and store.read_pins() is None  # an empty list pins nothing
    first = store.record(upstream_list())
    assert first.first and first.report is not None and len(first.report.named(PinStatus.PINNED)) == 21
    path = tmp_path / "state" / PIN_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "state" / OFFERED_FILE).stat().st_mode) == 0o600
    before = path.read_bytes()
    again = store.record(upstream_list())
    assert not again.first and again.report is not None and again.report.changed == () and again.sighted == ()
    assert path.read_bytes() == before  # nothing new: not rewritten


@requirement("S-PIN-02")
def test_a_changed_tool_keeps_its_old_pin_and_a_new_one_is_pinned_on_first_sight(tmp_path: Path) -> None:
    store = PinStore(tmp_path)
    store.record(upstream_list())
    tools = edited(upstream_list(), "Click", _reword)
    tools.append({"name": "Teleport", "description": "x", "inputSchema": {"type": "object"}})
    recorded = store.record(tools)
    assert recorded.sighted == ("Teleport",) and recorded.report is not None
    assert recorded.report.changed == ("Click",) and recorded.report.named(PinStatus.NEW) == ("Teleport",)
    pins = store.read_pins()
    assert pins is not None and pins["Click"].definition["description"] != tools[0]["description"]
    assert pins["Teleport"].by == "first-sight"
    assert store.read_offered() == tools  # what pin show diffs against
    notes = dict(pin_notes(PinGuard(tmp_path).record(tools)[0], recorded))
    assert "pin accept Click" in str(notes["Click"]) and "first sight" in str(notes["Teleport"])


def _not_json(path: Path) -> None:
    path.write_text("{", encoding="utf-8")


def _wrong_format(path: Path) -> None:
    path.write_text(json.dumps({"format": "other/1", "tools": {}}), encoding="utf-8")


def _edited_by_hand(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["tools"]["Click"]["definition"]["description"] = "edited"
    path.write_text(json.dumps(data), encoding="utf-8")


def _a_directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


@requirement("S-PIN-06")
@pytest.mark.parametrize("spoil", [_not_json, _wrong_format, _edited_by_hand, _a_directory])
def test_an_unusable_pin_file_is_reported_withholds_everything_and_is_never_overwritten(
    tmp_path: Path, spoil: Any
) -> None:
    store = PinStore(tmp_path)
    store.record(upstream_list())
    spoil(store.path)
    snapshot = store.path.read_bytes() if store.path.is_file() else None
    with pytest.raises(PinFileError):
        store.read_pins()
    gate, recorded = PinGuard(tmp_path).record(upstream_list())
    assert recorded.error and gate.error and all(gate.hides(t["name"]) for t in upstream_list())
    assert (store.path.read_bytes() if store.path.is_file() else None) == snapshot


@requirement("S-PIN-06")
def test_pins_that_cannot_be_written_fail_closed(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    gate, recorded = PinGuard(tmp_path / "file" / "state").record(upstream_list())
    assert recorded.error and "could not be written" in recorded.error and gate.hides("Snapshot")


@requirement("S-PIN-03")
def test_accept_takes_what_was_offered_named_or_all_and_drops_removed_pins(tmp_path: Path) -> None:
    store = PinStore(tmp_path)
    store.record(upstream_list())
    tools = [t for t in edited(upstream_list(), "Click", _reword) if t["name"] != "Notification"]
    store.record(edited(tools, "Type", _reword))
    offered = {t["name"]: tool_digest(t) for t in store.read_offered() or []}
    assert store.accept(["Click"]) == [("Click", PinStatus.CHANGED, offered["Click"])]
    pins = store.read_pins()
    assert pins is not None and pins["Click"].by == "cli" and "Notification" in pins
    assert pins["Click"].digest == offered["Click"]
    assert sorted(store.accept()) == [
        ("Notification", PinStatus.REMOVED, None),
        ("Type", PinStatus.CHANGED, offered["Type"]),
    ]
    pins = store.read_pins()
    assert pins is not None and "Notification" not in pins and store.accept() == []
    assert store.record(store.read_offered() or []).report.changed == ()  # type: ignore[union-attr]


@requirement("S-PIN-06")
def test_accepting_named_tools_over_an_unusable_file_is_refused_and_all_moves_it_aside(tmp_path: Path) -> None:
    store = PinStore(tmp_path)
    store.record(upstream_list())
    _not_json(store.path)
    with pytest.raises(PinFileError):
        store.accept(["Click"])
    assert len(store.accept()) == 21
    assert [p.read_text(encoding="utf-8") for p in tmp_path.glob(f"{PIN_FILE}.bad-*")] == ["{"]
    assert json.loads(store.path.read_text(encoding="utf-8"))["format"] == FORMAT


@requirement("S-PIN-03")
def test_nothing_offered_yet_cannot_be_accepted(tmp_path: Path) -> None:
    with pytest.raises(PinFileError, match="no offered tool list"):
        PinStore(tmp_path).accept()


@requirement("S-PIN-04")
def test_the_guard_sees_a_persons_accept_without_a_new_tool_list(tmp_path: Path) -> None:
    guard = PinGuard(tmp_path)
    guard.record(upstream_list())
    tools = edited(upstream_list(), "Click", _reword)
    gate, _ = guard.record(tools)
    assert gate.withheld == {"Click"} and guard.gate() is gate  # unchanged file: the cached gate
    PinStore(tmp_path).accept(["Click"])  # another process: a person's CLI
    assert guard.gate().withheld == frozenset()
    _not_json(tmp_path / PIN_FILE)
    assert guard.gate().error is not None  # spoiled while running: withheld from then on


@requirement("S-PIN-07")
def test_concurrent_first_records_write_one_valid_pin_file(tmp_path: Path) -> None:
    results: list[Any] = []
    barrier = threading.Barrier(6)

    def run() -> None:
        barrier.wait()
        results.append(PinStore(tmp_path).record(upstream_list()))

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r.first for r in results) == 1 and all(r.error is None for r in results)
    pins = PinStore(tmp_path).read_pins()
    assert pins is not None and len(pins) == 21
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
