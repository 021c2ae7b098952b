"""The doctor's diagnosis, in process: the root cause inside exception groups, the upstream's last
words, its serverInfo, and the text printed check by check (S-DOC-20, S-DOC-21, S-DOC-23).

The real misbehaving upstreams are tests/e2e/test_doctor_diagnose.py."""

from __future__ import annotations

import asyncio

import pytest
from mcp.shared.exceptions import MCPError

from gateway.doctor.checks import check_kill, check_upstream
from gateway.doctor.model import CHECK_IDS, Check, Report, render_check, render_footer, render_header
from gateway.state.store import KillStatus
from gateway.upstream.causes import describe_cause, first_cause
from tests._requirements import requirement

TRACE = (
    "--- winmcp-gateway starts the upstream `uvx windows-mcp` ---\n"
    "Traceback (most recent call last):\n"
    '  File "x.py", line 1, in <module>\n'
    "ModuleNotFoundError: No module named 'windows_mcp'\n"
)


def _group() -> BaseExceptionGroup[BaseException]:
    closed = MCPError(-32000, "Connection closed")
    inner = BaseExceptionGroup("unhandled errors in a TaskGroup", [asyncio.CancelledError(), closed])
    return BaseExceptionGroup("unhandled errors in a TaskGroup", [inner])


@requirement("S-DOC-20")
def test_the_root_cause_is_the_first_real_exception_inside_the_groups() -> None:
    """S-DOC-20: nested groups are unwrapped, cancellations passed over; a plain exception is itself."""
    group = _group()
    assert isinstance(first_cause(group), MCPError)
    assert describe_cause(group) == "MCPError: Connection closed"
    assert "TaskGroup" not in describe_cause(group) and "ExceptionGroup" not in describe_cause(group)
    missing = FileNotFoundError(2, "No such file or directory", "uvx")
    assert describe_cause(missing) == "FileNotFoundError: [Errno 2] No such file or directory: 'uvx'"
    assert describe_cause(BaseExceptionGroup("g", [asyncio.CancelledError()])) == "CancelledError"


@requirement("S-DOC-20")
def test_an_upstream_that_did_not_start_is_severe_with_its_last_words() -> None:
    """S-DOC-20: the message names the cause and the last stderr line; the text shows the tail, marker removed."""
    down = check_upstream(
        "uvx windows-mcp",
        tool_count=None,
        error="it did not start: MCPError: Connection closed",
        protocol=None,
        server=None,
        stderr_tail=TRACE,
    )
    assert down.verdict.value == "SEVERE"
    assert "it did not start: MCPError: Connection closed" in down.summary
    assert "its stderr ends: ModuleNotFoundError: No module named 'windows_mcp'" in down.summary
    text = "\n".join(render_check(down))
    assert "its stderr, last 3 line(s):" in text and "| Traceback (most recent call last):" in text
    assert "winmcp-gateway starts the upstream" not in text
    quiet = check_upstream(
        "u", tool_count=None, error="e", protocol=None, server=None, stderr_tail=TRACE.split("\n")[0]
    )
    assert "stderr" not in quiet.summary and "stderr_tail" not in quiet.data


@requirement("S-DOC-23")
def test_the_upstream_check_reports_the_servers_own_name_and_version() -> None:
    """S-DOC-23: serverInfo's name and version are in the summary and, apart, in `data`."""
    ok = check_upstream(
        "uvx windows-mcp",
        tool_count=21,
        error=None,
        protocol="2025-11-25",
        server="windows-mcp 4.0.10",
        name="windows-mcp",
        version="4.0.10",
    )
    assert ok.summary.startswith("reachable: windows-mcp 4.0.10, protocol 2025-11-25, 21 tools")
    assert (ok.data["name"], ok.data["version"]) == ("windows-mcp", "4.0.10")


@requirement("S-DOC-21")
def test_the_text_printed_piece_by_piece_is_the_whole_report() -> None:
    """S-DOC-21: header + each check's lines + footer, as the CLI streams them, equal `render_text`."""
    checks = tuple(
        check_kill(KillStatus(engaged=False)) if cid == "kill" else Check.unknown(cid, cid, "not checked")
        for cid in CHECK_IDS
    )
    report = Report(upstream="uvx windows-mcp", checks=checks)
    streamed = render_header(report.upstream) + [line for c in checks for line in render_check(c)]
    assert "\n".join(streamed + render_footer(checks)) == report.render_text()
    with pytest.raises(ValueError):
        Report(upstream="x", checks=checks[:-1])
