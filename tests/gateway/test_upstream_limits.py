"""The pieces behind the upstream-fault requirements, one at a time (S-UPS-07, S-UPS-10 … S-UPS-12):
the line splitter, the oversize id finder, the parsed-answer check, the fault mapping, the
liveness check and the rotated stderr log."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from gateway.errors import UpstreamError
from gateway.upstream.client import map_upstream_errors
from gateway.upstream.limits import LineSplitter, Oversize, approx_size, oversized, too_large_error
from gateway.upstream.stderr_log import PUMP_CHUNK, StderrLog
from gateway.upstream.stdio_bounded import parse_line
from gateway.upstream.supervisor import Supervisor, UpstreamSpec
from tests._requirements import requirement


def _feed(splitter: LineSplitter, data: bytes, step: int) -> list[Any]:
    out: list[Any] = []
    for i in range(0, len(data), step):
        out.extend(splitter.feed(data[i : i + step]))
    return out


@pytest.mark.parametrize("step", [1, 3, 64, 4096, 1 << 20])
@requirement("S-UPS-12")
def test_lines_come_out_whole_whatever_the_chunking(step: int) -> None:
    """S-UPS-12: every line under the limit comes out byte for byte, blank lines included, in any chunking."""
    lines = [b"a", b"", b"b" * 999, b'{"x": 1}\r', b"c" * 1000]
    assert _feed(LineSplitter(limit=1000), b"\n".join(lines) + b"\n", step) == lines


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        (b'{"jsonrpc":"2.0","id":7,"result":{"t":"' + b"x" * 5000 + b'"}}', 7),
        (b'{"jsonrpc":"2.0","id":"r-1","result":{"id":3,"t":"' + b"x" * 5000 + b'"}}', "r-1"),
        (b'{"result":{"id":3,"t":"' + b"x" * 5000 + b'"},"jsonrpc":"2.0","id":9}', 9),
        (b'{"jsonrpc":"2.0","method":"notifications/message","params":{"d":"' + b"x" * 5000 + b'"}}', None),
        (b'{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"d":"' + b"x" * 5000 + b'"}}', None),
        (b"x" * 5000, None),
    ],
)
@requirement("S-UPS-10")
def test_an_oversized_line_is_answered_for_its_request_only(line: bytes, wanted: int | str | None) -> None:
    """S-UPS-10: the id of an oversized answer is found at its start or end; a request, a notification
    or junk has none (it is dropped, never answered for)."""
    [over] = _feed(LineSplitter(limit=1000), line + b"\n", 700)
    assert isinstance(over, Oversize) and over.size == len(line)
    assert over.request_id() == wanted
    message = parse_line(over, 1000)
    if wanted is None:
        assert message is None
    else:
        assert isinstance(message, SessionMessage)
        assert message.message == too_large_error(wanted, len(line), 1000)


@requirement("S-UPS-10")
def test_a_parsed_answer_over_the_limit_is_replaced_and_one_under_is_kept() -> None:
    """S-UPS-10: transports that hand over parsed messages are checked by their strings' size."""
    big = SessionMessage(
        types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"content": [{"type": "text", "text": "x" * 2000}]})
    )
    small = SessionMessage(types.JSONRPCResponse(jsonrpc="2.0", id=2, result={"content": []}))
    replaced = oversized(big, 1000)
    assert replaced is not None and replaced.id == 1
    assert oversized(small, 1000) is None
    assert approx_size({"a": ["x" * 10, {"b": "y" * 5}]}, 10**9) == 1 + 10 + 1 + 5


@requirement("S-UPS-10")
def test_the_stand_in_error_maps_to_result_too_large_and_an_upstream_error_with_its_code_does_not() -> None:
    """S-UPS-10: only the gateway's own stand-in (its code and marker) is RESULT_TOO_LARGE."""
    error = too_large_error(1, 5000, 1000).error
    with pytest.raises(UpstreamError) as caught, map_upstream_errors("tools/call Big"):
        raise MCPError(error.code, error.message, error.data)
    assert caught.value.code == "RESULT_TOO_LARGE" and "5000 bytes" in str(caught.value)
    with pytest.raises(UpstreamError) as other, map_upstream_errors("tools/call Big"):
        raise MCPError(error.code, "the upstream's own error", None)
    assert other.value.code == "UPSTREAM_PROTOCOL_ERROR"


class _SilentSession:
    """A session whose ping is never answered; `chatter` bytes arrive meanwhile."""

    def __init__(self, supervisor: Supervisor, chatter: bool) -> None:
        self._supervisor, self._chatter = supervisor, chatter

    async def send_ping(self) -> None:
        if self._chatter:
            self._supervisor.activity.touch(65536)  # a long answer still arriving ahead of the ping
        await anyio.sleep_forever()


class _Client:
    def __init__(self, session: _SilentSession) -> None:
        self.session = session


@pytest.mark.parametrize(("chatter", "alive"), [(False, False), (True, True)])
@pytest.mark.anyio
@requirement("S-UPS-07")
async def test_an_unanswered_ping_is_a_dead_upstream_unless_bytes_are_still_arriving(
    chatter: bool, alive: bool
) -> None:
    """S-UPS-07: the liveness check gives up at its deadline; bytes arriving meanwhile mean alive."""
    supervisor = Supervisor(UpstreamSpec(argv=("unused",)), ping_timeout_s=0.05)
    client: Any = _Client(_SilentSession(supervisor, chatter))
    supervisor._client = client
    with anyio.fail_after(5):
        assert await supervisor.is_alive(client) is alive


@requirement("S-UPS-11")
def test_the_stderr_log_rotates_and_keeps_audit_keep_files(tmp_path: Path) -> None:
    """S-UPS-11: appends rotate before the file would pass max_bytes; `.keep` is the oldest kept."""
    log = StderrLog(tmp_path / "upstream.stderr.log", max_bytes=PUMP_CHUNK, keep=2)
    for i in range(10):
        log.append(bytes([65 + i]) * (PUMP_CHUNK // 2))
    names = sorted(p.name for p in log.files())
    assert names == ["upstream.stderr.log", "upstream.stderr.log.1", "upstream.stderr.log.2"]
    assert all(p.stat().st_size <= PUMP_CHUNK for p in log.files())
    assert (tmp_path / "upstream.stderr.log").read_bytes().endswith(b"J" * 10)
    assert log.rotations == 4


@requirement("S-UPS-11")
def test_a_childs_stderr_reaches_the_log_through_the_pipe(tmp_path: Path) -> None:
    """S-UPS-11: what is written into the sink's file arrives in the log, after the header."""
    log = StderrLog(tmp_path / "upstream.stderr.log")
    sink = log.open_sink("--- header ---\n")
    sink.file.write("a line from the child\n")
    sink.close()
    assert sink.drained.wait(5)
    assert log.path.read_text(encoding="utf-8") == "--- header ---\na line from the child\n"
    assert sorted(os.listdir(tmp_path)) == ["upstream.stderr.log", "upstream.stderr.log.lock"]
