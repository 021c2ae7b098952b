"""The command line, in process, with exit codes (S-CLI-02, S-CLI-03, S-CLI-04, S-CLI-05)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gateway.cli import main
from gateway.state.approvals import ApprovalStore, new_approval_id
from policy import ToolCall, approval_digest
from policy.values import Approval
from tests._requirements import requirement


@requirement("S-CLI-02")
def test_kill_engage_status_release_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-CLI-02: engage writes a person's STOP, status prints JSON, release removes it."""
    state = str(tmp_path)
    assert main(["kill", "engage", "--state-dir", state, "--reason", "lunch"]) == 0
    assert (tmp_path / "STOP").exists()
    capsys.readouterr()
    assert main(["kill", "status", "--json", "--state-dir", state]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["engaged"] is True and status["by"] == "person" and status["reason"] == "lunch"
    assert main(["kill", "release", "--state-dir", state]) == 0
    assert not (tmp_path / "STOP").exists()
    capsys.readouterr()
    main(["kill", "status", "--json", "--state-dir", state])
    assert json.loads(capsys.readouterr().out)["engaged"] is False
    kills = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [k["event"] for k in kills] == ["kill", "kill"], "the person's engage and release are audited"


def _pending(state: Path, tool: str = "Process", args: dict | None = None) -> str:  # type: ignore[type-arg]
    args = args or {"mode": "kill", "name": "notepad.exe", "force": True}
    approval_id = new_approval_id()
    call = ToolCall(tool=tool, args=args, session="stdio")
    approval = Approval(
        id=approval_id,
        digest=approval_digest(tool, args),
        tool=tool,
        session="stdio",
        created_ms=1e15,
        expires_ms=1e15 + 120_000,
        rule_id="force-kill",
        reason="force kill",
    )
    assert call.tool == tool
    ApprovalStore(state).save(approval, call={"tool": tool, "args": args, "rule": "force-kill", "reason": "why"})
    return approval_id


@requirement("S-CLI-04")
def test_approve_shows_the_request_and_records_the_grant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CLI-04: approve shows tool, arguments, rule and session, then grants (once, or for the session)."""
    monkeypatch.setattr("time.time", lambda: 1e12)  # before the request's expiry
    first, second = _pending(tmp_path), _pending(tmp_path)
    assert main(["approve", first, "--yes", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Process" in out and "force-kill" in out and "notepad.exe" in out and "stdio" in out
    assert ApprovalStore(tmp_path).load(first).status == "approved"  # type: ignore[union-attr]
    assert ApprovalStore(tmp_path).load(first).scope == "once"  # type: ignore[union-attr]
    assert main(["approve", second, "--session", "--yes", "--state-dir", str(tmp_path)]) == 0
    assert ApprovalStore(tmp_path).load(second).scope == "session"  # type: ignore[union-attr]


@requirement("S-CLI-04")
def test_deny_records_the_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-CLI-04: deny marks the request denied; approving it afterwards is an error."""
    monkeypatch.setattr("time.time", lambda: 1e12)
    approval_id = _pending(tmp_path)
    assert main(["deny", approval_id, "--yes", "--state-dir", str(tmp_path)]) == 0
    assert ApprovalStore(tmp_path).load(approval_id).status == "denied"  # type: ignore[union-attr]
    assert main(["approve", approval_id, "--yes", "--state-dir", str(tmp_path)]) == 2


@pytest.mark.parametrize("bad", ["apr-../../etc", "obs-1", "apr-0000000000"])
@requirement("S-CLI-04")
def test_a_malformed_or_unknown_approval_id_is_exit_2(
    tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-CLI-04: ids are checked by format before any path is built, and unknown ones say where we looked."""
    assert main(["approve", bad, "--yes", "--state-dir", str(tmp_path)]) == 2
    assert "approval" in capsys.readouterr().err


@requirement("S-CLI-04")
def test_without_a_terminal_approval_needs_yes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-CLI-04: no silent approvals from scripts: without a TTY the person must pass --yes."""
    monkeypatch.setattr("time.time", lambda: 1e12)
    approval_id = _pending(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert main(["approve", approval_id, "--state-dir", str(tmp_path)]) == 2
    assert "--yes" in capsys.readouterr().err
    assert ApprovalStore(tmp_path).load(approval_id).status == "pending"  # type: ignore[union-attr]


@pytest.mark.parametrize("content", [None, "this is = not [toml"])
@requirement("S-CLI-05")
def test_serve_with_a_missing_or_broken_config_file_is_exit_2(
    tmp_path: Path, content: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-CLI-05: an explicitly named config that is missing or not TOML stops serve, naming the file."""
    cfg = tmp_path / "gateway.toml"
    if content is not None:
        cfg.write_text(content)
    rc = main(["serve", "--upstream", "sim", "--config", str(cfg), "--state-dir", str(tmp_path / "s")])
    assert rc == 2
    assert str(cfg) in capsys.readouterr().err


@requirement("S-CLI-03", "S-CLI-45")
def test_the_demo_runs_every_incident_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """S-CLI-03: `winmcp-gateway demo` prevents each incident and says so; it exits 0 only if all checks pass."""
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    for heading in ("Incident 1", "Incident 2", "Incident 3", "Incident 4", "Command rules", "Approval"):
        assert heading in out
    assert "DENIED NO_OBSERVATION" in out and "DENIED KILLED" in out and "(-1453, 350)" in out
    assert "checks passed" in out
