"""The client-message checks themselves (gateway/transport/framing.py, S-MSG-01 … S-MSG-05)."""

from __future__ import annotations

import json

import mcp_types as types
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.config.load import load_config
from gateway.transport.framing import (
    MAX_NESTING_DEPTH,
    LineFramer,
    MessageLimits,
    Oversize,
    Refusal,
    check_frame,
    check_message,
    nesting_depth,
    top_level_scalars,
)
from tests._requirements import requirement

LIMITS = MessageLimits()


def refusal(raw: bytes, limits: MessageLimits = LIMITS) -> Refusal:
    checked = check_message(raw, limits)
    assert isinstance(checked, Refusal), checked
    return checked


@requirement("S-MSG-01", "S-MSG-02", "S-MSG-03")
@pytest.mark.parametrize(
    ("raw", "code", "rid", "answer"),
    [
        (b"nope", -32700, None, True),
        (b"\xc3\x28", -32700, None, True),
        (b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":Infinity}}', -32700, None, True),
        (rb'{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"\ud800"}}', -32700, None, True),
        (b"null", -32600, None, True),
        (b"[]", -32600, None, True),
        (b"{}", -32600, None, True),
        (b'{"jsonrpc":"2.0","id":"a"}', -32600, "a", True),
        (b'{"jsonrpc":"2.0","id":false,"method":"x"}', -32600, None, True),
        (b'{"jsonrpc":"2.0","id":2,"method":["x"]}', -32600, 2, True),
        (b'{"id":3,"method":"x"}', -32600, 3, True),
        (b'{"jsonrpc":"2.0","id":4,"method":"x","params":"p"}', -32602, 4, True),
        (b'{"jsonrpc":"2.0","method":"x","params":"p"}', -32602, None, False),
        (b'{"jsonrpc":"2.0","id":5,"result":{},"extra":[1,2]}', None, None, None),  # a response passes
        (b'{"jsonrpc":"2.0","id":{},"result":{}}', -32600, None, False),
    ],
)
def test_each_malformed_shape_earns_its_code(raw: bytes, code: int | None, rid: object, answer: bool | None) -> None:
    """S-MSG-01..03: parse errors -32700 (id null), invalid requests -32600, unusable params -32602;
    notifications and responses are refused without an answer."""
    checked = check_message(raw, LIMITS)
    if code is None:
        assert not isinstance(checked, Refusal)
        return
    assert isinstance(checked, Refusal)
    assert (checked.code, checked.id, checked.answer) == (code, rid, answer)
    wire = json.loads(checked.reply().model_dump_json(by_alias=True, exclude_unset=True))
    assert wire["id"] == rid and wire["error"]["code"] == code and "id" in wire


@requirement("S-MSG-04")
def test_depth_is_measured_without_parsing_and_brackets_in_strings_do_not_count() -> None:
    """S-MSG-04: `nesting_depth` counts structure only; 64 levels pass, 65 are refused with the id."""
    assert nesting_depth(b'{"a": "[[[[[[{{{{"}') == 1
    assert nesting_depth(b"[" * 10_000 + b"]" * 10_000) == 10_000
    ok = b'{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":' + b"[" * 62 + b"]" * 62 + b"}}"
    assert nesting_depth(ok) == MAX_NESTING_DEPTH and not isinstance(check_message(ok, LIMITS), Refusal)
    too_deep = ok.replace(b"[", b"[[", 1).replace(b"]", b"]]", 1)
    refused = refusal(too_deep)
    assert (refused.code, refused.id, refused.reason) == (-32602, 1, "too-deep")


@requirement("S-MSG-04", "S-MSG-05")
def test_the_id_is_read_even_when_it_comes_after_the_deep_part() -> None:
    """S-MSG-04/05: the id is found wherever it sits at the top level, and in an oversize prefix."""
    raw = b'{"method":"x","params":{"a":' + b"[" * 500 + b"]" * 500 + b'},"jsonrpc":"2.0","id":"late"}'
    assert top_level_scalars(raw) == {"method": "x", "jsonrpc": "2.0", "id": "late"}
    assert refusal(raw).id == "late"
    assert top_level_scalars(b'{"jsonrpc":"2.0","id":7,"params":{"id":8,"text":"xxx') == {"jsonrpc": "2.0", "id": 7}
    small = MessageLimits(max_bytes=64)
    big = refusal(b'{"jsonrpc":"2.0","id":7,"method":"x","params":{"t":"' + b"x" * 100 + b'"}}', small)
    assert (big.code, big.id, big.reason, big.data) == (-32600, 7, "too-large", {"max_message_bytes": 64})


@requirement("S-MSG-05")
def test_the_framer_never_buffers_more_than_the_limit() -> None:
    """S-MSG-05: a line over the limit comes out as `Oversize` with its true size, the next line intact."""
    framer = LineFramer(100)
    out: list[bytes | Oversize] = []
    out += framer.feed(b'{"id":1,' + b"x" * 150)
    assert len(framer._buf) == 0  # dropped, not held
    out += framer.feed(b"y" * 1000)
    out += framer.feed(b'z\n\n  \n{"ok":1}\n{"tail"')
    out += framer.feed(b"")
    assert out[0] == Oversize(prefix=b'{"id":1,' + b"x" * 150, size=8 + 150 + 1000 + 1)
    assert out[1:] == [b'{"ok":1}', b'{"tail"']
    refused = check_frame(out[0], MessageLimits(max_bytes=100))
    assert isinstance(refused, Refusal) and refused.id == 1


@requirement("S-MSG-05")
def test_max_message_bytes_is_a_documented_key_with_a_1_mib_default() -> None:
    """S-MSG-05: `max_message_bytes` defaults to 1 MiB and reads from the environment."""
    assert load_config(environ={}).max_message_bytes == 1024 * 1024
    env = {"WINMCP_GATEWAY_MAX_MESSAGE_BYTES": "65536"}
    assert load_config(environ=env).max_message_bytes == 65536


@requirement("S-MSG-07")
def test_the_log_line_is_one_line_without_the_content() -> None:
    """S-MSG-07: the stderr line names reason, size and id, never the message's text."""
    line = refusal(b'{"jsonrpc":"2.0","id":9,"method":"x","params":"secret-value\\nmore"}').log_line()
    assert "\n" not in line and "secret" not in line and "bad-params" in line and "id 9" in line


@requirement("S-MSG-09")
@settings(max_examples=3000, deadline=None)
@given(raw=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_are_judged_without_raising(raw: bytes) -> None:
    """S-MSG-09: every input yields a typed message or a refusal whose reply is a valid JSON-RPC error."""
    checked = check_message(raw, MessageLimits(max_bytes=150))
    if isinstance(checked, Refusal):
        types.JSONRPCError.model_validate_json(checked.reply().model_dump_json(by_alias=True, exclude_unset=True))
        assert "\n" not in checked.log_line()
