"""`winmcp-gateway pin show` / `pin accept` (S-PIN-03, S-PIN-06)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from gateway.cli.commands import main as cli
from gateway.cli.pin import word_diff
from gateway.state.pins import PIN_FILE, PinStore
from tests._requirements import requirement
from tests.gateway._pin_world import upstream_list


def run(state: Path, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = cli(["pin", *args, "--state-dir", str(state)])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture
def no_tty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)


@requirement("S-PIN-03")
def test_word_diff_marks_what_was_removed_and_added() -> None:
    assert word_diff("click the left button", "click the right button now") == (
        "click the [-left-] {+right+} button {+now+}"
    )


@requirement("S-PIN-03")
def test_show_before_any_connection_and_when_all_is_pinned_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = run(tmp_path, "show", capsys=capsys)
    assert rc == 0 and "no tool pins" in out
    PinStore(tmp_path).record(upstream_list())
    rc, out, _ = run(tmp_path, "show", capsys=capsys)
    assert rc == 0 and "21 pinned, 0 new, 0 changed, 0 removed" in out


@requirement("S-PIN-03")
def test_show_json_names_the_severe_change_and_the_lost_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    PinStore(tmp_path).record(upstream_list())
    PinStore(tmp_path).record(upstream_list("click-rug-pull"))
    rc, out, _ = run(tmp_path, "show", "--json", capsys=capsys)
    data = json.loads(out)
    (click,) = [t for t in data["tools"] if t["status"] != "pinned"]
    assert rc == 1 and click["name"] == "Click" and click["verdict"] == "SEVERE"
    assert click["gated_lost"] == ["label"] and click["removed"] == ["label"] and "description" in click["summary"]


@requirement("S-PIN-03")
def test_accept_asks_and_a_no_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    PinStore(tmp_path).record(upstream_list())
    PinStore(tmp_path).record(upstream_list("click-reworded"))
    before = (tmp_path / PIN_FILE).read_bytes()
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return "n"

    monkeypatch.setattr("builtins.input", answer)
    rc, out, _ = run(tmp_path, "accept", capsys=capsys)
    assert rc == 1 and asked and "nothing changed" in out and "CHANGED  Click" in out
    assert (tmp_path / PIN_FILE).read_bytes() == before and not (tmp_path / "audit.jsonl").exists()


@requirement("S-PIN-03")
def test_accept_refuses_without_a_terminal_an_unchanged_tool_and_an_empty_state_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_tty: None
) -> None:
    rc, _, err = run(tmp_path, "accept", "--yes", capsys=capsys)
    assert rc == 2 and "nothing offered yet" in err
    PinStore(tmp_path).record(upstream_list())
    PinStore(tmp_path).record(upstream_list("click-reworded"))
    rc, _, err = run(tmp_path, "accept", "Snapshot", "--yes", capsys=capsys)
    assert rc == 2 and "nothing to accept for Snapshot" in err
    rc, _, err = run(tmp_path, "accept", "Click", capsys=capsys)
    assert rc == 2 and "--yes" in err
    pins = PinStore(tmp_path).read_pins()
    assert pins is not None and pins["Click"].by == "first-connection"


@requirement("S-PIN-03")
def test_accept_all_with_yes_audits_each_tool_by_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    PinStore(tmp_path).record(upstream_list())
    tools: list[dict[str, Any]] = [t for t in upstream_list("click-reworded") if t["name"] != "Wait"]
    PinStore(tmp_path).record(tools)
    rc, out, _ = run(tmp_path, "accept", "--yes", capsys=capsys)
    assert rc == 0 and "accepted 2 tool definition(s): Click, Wait" in out
    lines = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(x["event"], x["tool"], x["by"], x["code"]) for x in lines] == [
        ("approval", "Click", "cli", "TOOL_CHANGED"),
        ("approval", "Wait", "cli", "TOOL_CHANGED"),
    ]
    pins = PinStore(tmp_path).read_pins()
    assert pins is not None and lines[0]["approval"] == f"pin-{pins['Click'].digest[:16]}"
    assert lines[1]["approval"] == "pin-removed" and "Wait" not in pins
    assert cli(["audit-report", "--state-dir", str(tmp_path), "--verify"]) == 0  # chain and line schema
    rc, out, _ = run(tmp_path, "show", capsys=capsys)
    assert rc == 0 and "20 pinned" in out


@requirement("S-PIN-06")
def test_show_says_an_unusable_pin_file_is_unusable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    PinStore(tmp_path).record(upstream_list())
    (tmp_path / PIN_FILE).write_text("garbage", encoding="utf-8")
    rc, out, _ = run(tmp_path, "show", capsys=capsys)
    assert rc == 1 and "UNUSABLE" in out and "withheld" in out and "pin accept" in out
