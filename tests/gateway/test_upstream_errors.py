"""The one mapping boundary for upstream faults, and the upstream's small helpers (S-UPS-05, S-UPS-02)."""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import InputRequiredRoundsExceededError
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from gateway.errors import UpstreamError, UpstreamTimeout
from gateway.upstream.client import UpstreamProtocolError, map_upstream_errors, tail_of
from gateway.upstream.client_side import NOT_SUPPORTED, not_supported, strip_reserved_meta
from gateway.upstream.supervisor import RESTART_BACKOFF_S, UpstreamSpec, backoff_delay
from tests._requirements import requirement


class _Shape(BaseModel):
    n: int


def _validation_error() -> ValidationError:
    try:
        _Shape.model_validate({"n": "not a number"})
    except ValidationError as exc:
        return exc
    raise AssertionError("unreachable")


# (raised inside the boundary, expected class, expected code)
CASES: list[tuple[BaseException, type[UpstreamError], str]] = [
    (MCPError(types.CONNECTION_CLOSED, "Connection closed"), UpstreamError, "UPSTREAM_DIED"),
    (MCPError(types.REQUEST_TIMEOUT, "timed out"), UpstreamTimeout, "UPSTREAM_TIMEOUT"),
    (MCPError(-32002, "Resource not found", {"uri": "x"}), UpstreamProtocolError, "UPSTREAM_PROTOCOL_ERROR"),
    (MCPError(types.METHOD_NOT_FOUND, "Method not found"), UpstreamProtocolError, "UPSTREAM_PROTOCOL_ERROR"),
    (MCPError(types.INVALID_PARAMS, "bad"), UpstreamProtocolError, "UPSTREAM_PROTOCOL_ERROR"),
    (TimeoutError(), UpstreamTimeout, "UPSTREAM_TIMEOUT"),
    (anyio.ClosedResourceError(), UpstreamError, "UPSTREAM_DIED"),
    (anyio.BrokenResourceError(), UpstreamError, "UPSTREAM_DIED"),
    (anyio.EndOfStream(), UpstreamError, "UPSTREAM_DIED"),
    (ConnectionRefusedError("refused"), UpstreamError, "UPSTREAM_UNREACHABLE"),
    (FileNotFoundError("no such command"), UpstreamError, "UPSTREAM_UNREACHABLE"),
    (_validation_error(), UpstreamError, "UPSTREAM_BAD_ANSWER"),
    (InputRequiredRoundsExceededError(10), UpstreamError, "UPSTREAM_BAD_ANSWER"),
]


@pytest.mark.parametrize(
    ("raised", "klass", "code"), CASES, ids=[type(c[0]).__name__ + str(i) for i, c in enumerate(CASES)]
)
@requirement("S-UPS-05")
def test_every_upstream_fault_maps_to_one_defined_code(
    raised: BaseException, klass: type[UpstreamError], code: str, tmp_path: Path
) -> None:
    """S-UPS-05: the most specific match wins; every fault has a defined code and class."""
    log = tmp_path / "upstream.stderr.log"
    log.write_text("line 1\nTraceback: boom\n")
    with pytest.raises(UpstreamError) as caught, map_upstream_errors("tools/call Click", log):
        raise raised
    assert type(caught.value) is klass and caught.value.code == code
    assert "tools/call Click" in str(caught.value) or klass is UpstreamProtocolError
    assert caught.value.__cause__ is raised
    if code == "UPSTREAM_DIED":
        assert caught.value.stderr_tail.endswith("Traceback: boom")


@requirement("S-UPS-05")
def test_a_protocol_error_keeps_its_json_rpc_code_message_and_data() -> None:
    """S-UPS-05: code, message and data survive the boundary unchanged."""
    with pytest.raises(UpstreamProtocolError) as caught, map_upstream_errors("resources/read"):
        raise MCPError(-32002, "Resource not found: x", {"uri": "x"})
    assert (caught.value.rpc_code, str(caught.value), caught.value.rpc_data) == (
        -32002,
        "Resource not found: x",
        {"uri": "x"},
    )


@requirement("S-UPS-05")
def test_gateway_errors_pass_through_and_bugs_are_not_disguised() -> None:
    """S-UPS-05: an UpstreamError is not wrapped again; an unrelated bug (KeyError) is not turned into an
    upstream fault."""
    original = UpstreamError("already mapped", code="UPSTREAM_DIED")
    with pytest.raises(UpstreamError) as caught, map_upstream_errors("x"):
        raise original
    assert caught.value is original
    with pytest.raises(KeyError), map_upstream_errors("x"):
        raise KeyError("bug")


@requirement("S-UPS-02")
def test_the_stderr_tail_is_the_last_bytes_of_the_log(tmp_path: Path) -> None:
    """S-UPS-02: the tail attached to a crash is the end of the upstream's stderr log ('' when there
    is none)."""
    log = tmp_path / "err.log"
    log.write_text("x" * 5000 + "\nthe last words\n")
    assert tail_of(log, 64).endswith("the last words") and len(tail_of(log, 64)) <= 64
    assert tail_of(tmp_path / "missing.log") == "" and tail_of(None) == ""


@requirement("S-UPS-02")
def test_restart_backoff_grows_from_a_fifth_of_a_second_to_five() -> None:
    """S-UPS-02: consecutive failures back off 0.2, 0.5, 1, 2, 5 s and stay at 5 s."""
    assert [backoff_delay(n) for n in range(1, 8)] == [0.2, 0.5, 1.0, 2.0, 5.0, 5.0, 5.0]
    assert RESTART_BACKOFF_S[0] == 0.2 and RESTART_BACKOFF_S[-1] == 5.0


@requirement("S-UPS-06")
def test_an_upstream_command_is_parsed_with_one_quoting_rule() -> None:
    """S-UPS-06: --upstream-cmd uses POSIX quoting on every platform; a command and a URL exclude each
    other."""
    spec = UpstreamSpec.command('uvx "windows mcp" --flag')
    assert spec.argv == ("uvx", "windows mcp", "--flag") and spec.describe() == "uvx 'windows mcp' --flag"
    with pytest.raises(ValueError):
        UpstreamSpec.command("  ")
    with pytest.raises(ValueError):
        UpstreamSpec(argv=("x",), url="http://127.0.0.1:1/mcp")


@requirement("S-PROTO-05", "S-PROTO-04")
def test_refusals_mirror_the_sdk_and_reserved_meta_stays_home() -> None:
    """S-PROTO-05/04: a client lacking a capability answers exactly the SDK's error; reserved _meta keys are
    dropped."""
    assert not_supported("sampling/createMessage") == types.ErrorData(
        code=types.INVALID_REQUEST, message="Sampling not supported"
    )
    assert set(NOT_SUPPORTED) == {"sampling/createMessage", "elicitation/create", "roots/list"}
    assert strip_reserved_meta({"progressToken": 1, "io.modelcontextprotocol/logLevel": "debug", "k": 2}) == {"k": 2}
    assert strip_reserved_meta({"progressToken": 1}) is None and strip_reserved_meta(None) is None
