"""A person's side of approvals, in process: the listing, the state dir in the remedy, the audit line
of an answer (S-APR-30, S-APR-31, S-APR-32). No gateway runs here; the requests are written as the
gateway writes them (`ApprovalStore.save` with `describe_call`)."""

from __future__ import annotations

import json
import ntpath
import time
from pathlib import Path

import pytest

from gateway.cli import main
from gateway.cli.approvals import render_pending
from gateway.config.load import default_state_dir
from gateway.state.approvals import ApprovalStore, describe_call, new_approval_id
from gateway.state.command_line import quote_args, state_dir_hint, state_dir_options
from policy import ToolCall, Verdict, approval_digest, request_approval
from policy.decision import Code, Decision
from policy.values import Approval
from tests._requirements import requirement

KILL = {"mode": "kill", "name": "notepad.exe", "force": True}
TOKEN_ARGS = {"command": "curl -H 'Authorization: Bearer sk-live-0123456789abcdef0123456789abcdef' x"}


def _request(
    state: Path,
    *,
    tool: str = "Process",
    args: dict[str, object] | None = None,
    age_s: float = 5.0,
    status: str = "pending",
    ttl_s: float = 600.0,
    session: str = "stdio:1f2e3d4c5b6a7988",
) -> str:
    args = dict(args or KILL)
    created = time.time() * 1000.0 - age_s * 1000.0
    approval = Approval(
        id=new_approval_id(),
        digest=approval_digest(tool, args),
        tool=tool,
        session=session,
        created_ms=created,
        expires_ms=created + ttl_s * 1000.0,
        rule_id="force-kill",
        reason="force kill",
        status=status,  # type: ignore[arg-type]
    )
    call = describe_call(tool, args, rule_id="force-kill", reason="Force-killing discards unsaved work.")
    ApprovalStore(state).save(approval, call=call)
    return approval.id


def _audit(state: Path) -> list[dict[str, object]]:
    path = state / "audit.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


@requirement("S-APR-30")
def test_approvals_lists_what_waits_for_a_person_oldest_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-APR-30: id, age, tool, summary and session of each pending request; answered and expired ones are left out."""
    older = _request(tmp_path, age_s=300)
    newer = _request(tmp_path, tool="PowerShell", args=TOKEN_ARGS, age_s=3, session="stdio:aaaabbbbccccdddd")
    _request(tmp_path, status="approved")
    _request(tmp_path, age_s=500, ttl_s=120)  # expired
    assert main(["approvals", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("apr-")]
    assert [r.split()[0] for r in rows] == [older, newer], "pending only, oldest first"
    assert "5 min" in rows[0] and "Process" in rows[0] and "stdio:1f2e3d4c5b6a7988" in rows[0]
    assert 'force-kill: mode="kill" name="notepad.exe" force=true' in rows[0]
    assert "3 s" in rows[1] and "PowerShell" in rows[1] and "stdio:aaaabbbbccccdddd" in rows[1]
    assert "sk-live" not in out, "the summary shows the redacted arguments"
    assert f"approve ID --state-dir {tmp_path}" in out


@requirement("S-APR-30")
def test_approvals_json_is_for_machines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-APR-30: `--json` prints the state dir and each pending request with its fields."""
    approval_id = _request(tmp_path, age_s=12)
    assert main(["approvals", "--json", "--state-dir", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["state_dir"] == str(tmp_path)
    [item] = data["pending"]
    assert item["id"] == approval_id and item["tool"] == "Process" and item["session"] == "stdio:1f2e3d4c5b6a7988"
    assert 11 <= item["age_s"] <= 60 and item["rule"] == "force-kill" and item["args"] == KILL
    assert 0 < item["expires_in_s"] <= 600
    assert render_pending(tmp_path / "empty", time.time() * 1000.0).startswith("no approval request is waiting")


def _ask(call: ToolCall) -> Decision:
    return Decision(
        verdict=Verdict.ASK,
        code=Code.APPROVAL_REQUIRED,
        reason="r",
        remedy="ask",
        digest=approval_digest(call.tool, call.args),
    )


@requirement("S-APR-31")
def test_the_remedy_names_the_state_dir_unless_it_is_the_default(tmp_path: Path) -> None:
    """S-APR-31: the hint is empty for the default state dir, and `--state-dir <dir>` in both commands otherwise."""
    assert state_dir_hint(default_state_dir()) == ""
    assert state_dir_options(tmp_path / "agent") == ("--state-dir", str(tmp_path / "agent"))
    call = ToolCall(tool="Process", args=KILL, session="s")
    hint = state_dir_hint(tmp_path / "agent state", platform="linux")
    _, decision = request_approval("apr-0123456789", call, _ask(call), 0.0, 120_000, cli_options=hint)
    assert decision.remedy is not None
    assert f"`winmcp-gateway approve apr-0123456789 --state-dir '{tmp_path}/agent state'`" in decision.remedy
    assert f"`deny apr-0123456789 --state-dir '{tmp_path}/agent state'`" in decision.remedy
    _, plain = request_approval("apr-0123456789", call, _ask(call), 0.0, 120_000)
    assert plain.remedy is not None and "`winmcp-gateway approve apr-0123456789` (or" in plain.remedy


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        (
            r"C:\Users\Ada Lovelace\AppData\Local\winmcp-gateway",
            r'"C:\Users\Ada Lovelace\AppData\Local\winmcp-gateway"',
        ),
        (r"D:\agent\state", r"D:\agent\state"),
        ("\\\\server\\share\\state dir\\", '"\\\\server\\share\\state dir\\\\"'),
    ],
)
@requirement("S-APR-31", "S-CLI-42")
def test_windows_commands_are_quoted_by_the_c_runtime_rules(path: str, shown: str) -> None:
    """S-APR-31, S-CLI-42: on Windows a path with a blank is double-quoted, a final backslash doubled inside quotes."""
    assert ntpath.isabs(path)
    assert quote_args(["--state-dir", path], platform="win32") == f"--state-dir {shown}"
    assert (
        quote_args(["kill", "engage", "--reason", "demo: stop"], platform="win32")
        == 'kill engage --reason "demo: stop"'
    )
    assert (
        quote_args(["kill", "engage", "--reason", "demo: stop"], platform="linux")
        == "kill engage --reason 'demo: stop'"
    )


@pytest.mark.parametrize(("verb", "extra", "answer"), [("approve", [], "once"), ("approve", ["--session"], "session"),
                                                       ("deny", [], "deny")])  # fmt: skip
@requirement("S-APR-32")
def test_an_answer_from_the_command_line_is_audited_by_cli(
    tmp_path: Path, verb: str, extra: list[str], answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-APR-32: approve/deny write one `approval` event: by "cli", the answer, the id, tool and session."""
    approval_id = _request(tmp_path)
    assert main([verb, approval_id, *extra, "--yes", "--state-dir", str(tmp_path)]) == 0
    [line] = _audit(tmp_path)
    assert line["event"] == "approval" and line["by"] == "cli" and line["answer"] == answer
    assert line["approval"] == approval_id and line["tool"] == "Process" and line["session"] == "stdio:1f2e3d4c5b6a7988"
    assert "command line" in str(line["reason"])


@requirement("S-APR-32", "S-CLI-48")
def test_an_answer_that_changes_nothing_writes_no_audit_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-APR-32: an answer refused (already answered) writes nothing; its error has the one prefix (S-CLI-48)."""
    approval_id = _request(tmp_path, status="approved")
    assert main(["approve", approval_id, "--yes", "--state-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("winmcp-gateway: error: ")
    assert _audit(tmp_path) == []
