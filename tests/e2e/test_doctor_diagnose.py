"""`winmcp-gateway doctor` against upstreams that fail while they come up (tests/e2e/doctor_upstreams.py)
and against the simulator: root cause, `--timeout`, each check as it runs, serverInfo
(S-DOC-20 … S-DOC-23). The doctor runs in this process; each upstream is a real child."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import gateway.doctor.run as doctor_run
from gateway.cli import main
from tests._requirements import requirement
from tests.e2e.doctor_upstreams import CRASH_LAST_LINE, NAME, SILENT_LINE, VERSION

FIXTURE = Path(__file__).with_name("doctor_upstreams.py")
# Long enough for a Python child to import the SDK and answer the handshake on a loaded machine.
HANDSHAKE_TIMEOUT_S = 8


def upstream_cmd(mode: str) -> str:
    return shlex.join([sys.executable, str(FIXTURE), mode])


def doctor(capsys: pytest.CaptureFixture[str], tmp: Path, *args: str) -> tuple[int, str, str]:
    rc = main(["doctor", *args, "--state-dir", str(tmp / "state")])
    out, err = capsys.readouterr()
    return rc, out, err


def checks(out: str) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in json.loads(out)["checks"]}


@requirement("S-DOC-20")
def test_an_upstream_that_crashes_is_shown_with_its_root_cause_and_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-DOC-20: SEVERE naming the first real exception and the traceback's last line; no exception group."""
    rc, out, err = doctor(capsys, tmp_path, "--upstream-cmd", upstream_cmd("crash"))
    assert rc == 1
    upstream = next(line for line in out.splitlines() if line.lstrip().startswith("SEVERE") and "upstream" in line)
    assert "it did not start: MCPError: Connection closed" in out
    assert f"its stderr ends: {CRASH_LAST_LINE}" in " ".join(out.split())
    assert f"| {CRASH_LAST_LINE}" in out and "| Traceback (most recent call last):" in out
    assert "ExceptionGroup" not in out + err and "TaskGroup" not in out + err
    assert upstream.split()[1] == "upstream"
    rc, out, _ = doctor(capsys, tmp_path, "--upstream-cmd", upstream_cmd("crash"), "--json")
    found = checks(out)["upstream"]
    assert rc == 1 and found["verdict"] == "SEVERE" and CRASH_LAST_LINE in found["data"]["stderr_tail"]
    assert "MCPError: Connection closed" in found["summary"]


@requirement("S-DOC-20")
def test_a_crash_whose_stderr_arrives_late_still_shows_its_last_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-DOC-20: a failed start is reported after the child's stderr reached the log, not before.

    On a loaded machine the pump thread may write the traceback's last line after the
    connection is already known to be closed (CI saw the tail end one line short); a slow
    pump reproduces that here every time.
    """
    from gateway.upstream import stderr_log

    original = stderr_log.StderrLog.append

    def slow_append(self: stderr_log.StderrLog, data: bytes) -> None:
        time.sleep(0.1)  # four lines at most: well inside the supervisor's 1 s settle bound
        original(self, data)

    monkeypatch.setattr(stderr_log.StderrLog, "append", slow_append)
    rc, out, _ = doctor(capsys, tmp_path, "--upstream-cmd", upstream_cmd("crash"), "--json")
    found = checks(out)["upstream"]
    assert rc == 1 and found["verdict"] == "SEVERE"
    assert found["data"]["stderr_tail"].rstrip().endswith(CRASH_LAST_LINE)


@requirement("S-DOC-22")
def test_a_silent_upstream_costs_the_timeout_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-DOC-22: `--timeout 2`: no handshake in 2 s is SEVERE saying so, with what the upstream printed."""
    rc, out, _ = doctor(capsys, tmp_path, "--upstream-cmd", upstream_cmd("silent"), "--timeout", "2", "--json")
    found = checks(out)
    assert rc == 1 and found["upstream"]["verdict"] == "SEVERE"
    assert "did not finish starting (the MCP initialize handshake) within 2 s" in found["upstream"]["summary"]
    assert SILENT_LINE in found["upstream"]["summary"]
    assert [found[c]["verdict"] for c in ("schema.read_args", "mapping")] == ["UNKNOWN", "UNKNOWN"]
    assert [found[c]["verdict"] for c in ("rules", "config", "kill")] == ["OK", "OK", "OK"]


@requirement("S-DOC-22", "S-DOC-23")
def test_a_hung_tools_list_is_bounded_and_names_the_server_that_hung(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-DOC-22, S-DOC-23: a handshake then no tools/list: SEVERE within the timeout, naming serverInfo."""
    cmd = upstream_cmd("hang-list")
    rc, out, _ = doctor(capsys, tmp_path, "--upstream-cmd", cmd, "--timeout", str(HANDSHAKE_TIMEOUT_S), "--json")
    upstream = checks(out)["upstream"]
    assert rc == 1 and upstream["verdict"] == "SEVERE"
    assert f"{NAME} {VERSION} answered the handshake, but" in upstream["summary"]
    assert "tools/list" in upstream["summary"]
    assert (upstream["data"]["name"], upstream["data"]["version"]) == (NAME, VERSION)


@requirement("S-DOC-22")
def test_a_capture_that_never_answers_leaves_the_mapping_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-DOC-22: the schema checks pass; the doctor's Screenshot that hangs is UNKNOWN after the timeout."""
    cmd = upstream_cmd("hang-capture")
    rc, out, _ = doctor(capsys, tmp_path, "--upstream-cmd", cmd, "--timeout", str(HANDSHAKE_TIMEOUT_S), "--json")
    found = checks(out)
    assert found["upstream"]["verdict"] == "OK" and found["schema.read_args"]["verdict"] == "OK"
    assert rc == 1 and found["mapping"]["verdict"] == "UNKNOWN"
    assert "not checked" in found["mapping"]["summary"]


@requirement("S-DOC-21", "S-DOC-23")
def test_each_check_is_printed_as_it_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-DOC-21: header, upstream and schema lines are out before the capture starts; JSON only at the end."""
    seen: list[str] = []
    capture = doctor_run._capture_check

    async def watched(upstream: Any, tools: list[str] | None) -> Any:
        seen.append(capsys.readouterr().out)  # what the person has read by the time the capture starts
        return await capture(upstream, tools)

    monkeypatch.setattr(doctor_run, "_capture_check", watched)
    rc, out, _ = doctor(capsys, tmp_path, "--upstream", "sim")
    [before] = seen
    assert rc == 0 and before.startswith("winmcp-gateway doctor — upstream: ")
    assert [line.split()[1] for line in before.splitlines()[2:] if line.startswith("  OK")] == [
        "upstream",
        "schema.read_args",
        "schema.unknown_args",
        "schema.tools",
        "pins",
    ]
    assert "reachable: windows-mcp 4.0.10" in before and "mapping" not in before
    assert out.lstrip().startswith("OK       mapping") and "overall: OK" in out

    seen.clear()
    rc, out, _ = doctor(capsys, tmp_path, "--upstream", "sim", "--json")
    assert seen == [""], "--json prints nothing until the report is whole"
    upstream = checks(out)["upstream"]
    assert (upstream["data"]["name"], upstream["data"]["version"]) == ("windows-mcp", "4.0.10")
