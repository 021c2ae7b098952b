"""Step definitions binding features/malformed_messages.feature (S-MSG-01 … S-MSG-05, S-MSG-07).

The steps call the same public function the transports call, `check_message`; the stdio and
HTTP wire are proven end to end in tests/e2e/test_malformed_messages.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.transport.framing import MessageLimits, Refusal, check_message

scenarios("malformed_messages.feature")


class World:
    def __init__(self) -> None:
        self.limits = MessageLimits()
        self.sent = b""
        self.checked: Any = None


@pytest.fixture
def world() -> World:
    return World()


@given(parsers.parse("max_message_bytes is {size:d}"), target_fixture="world")
def _limit(size: int) -> World:
    world = World()
    world.limits = MessageLimits(max_bytes=size)
    return world


def _send(world: World, raw: bytes) -> None:
    world.sent = raw
    world.checked = check_message(raw, world.limits)


@when(parsers.parse("the client sends a tools/call with id {rid:d} whose arguments nest {levels:d} levels deep"))
def _deep(world: World, rid: int, levels: int) -> None:
    head = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"Click","arguments":{"loc":' % rid
    _send(world, head + b"[" * levels + b"]" * levels + b"}}}")


@when(parsers.parse("the client sends a ping with id {rid:d} padded to {size:d} bytes"))
def _padded(world: World, rid: int, size: int) -> None:
    head = b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"' % rid
    _send(world, head + b"x" * (size - len(head) - 4) + b'"}}')


@when(parsers.re(r"the client sends (?P<message>[\[{0-9n].*)"))
def _message(world: World, message: str) -> None:
    _send(world, message.encode())


@then(parsers.parse("it is refused with code {code:d} and id {rid}"))
def _refused(world: World, code: int, rid: str) -> None:
    assert isinstance(world.checked, Refusal), world.checked
    assert world.checked.answer
    wire = json.loads(world.checked.reply().model_dump_json(by_alias=True, exclude_unset=True))
    assert (wire["error"]["code"], wire["id"]) == (code, json.loads(rid))


@then("it is refused without an answer")
def _unanswered(world: World) -> None:
    assert isinstance(world.checked, Refusal) and not world.checked.answer


@then("one log line says why without the message's content")
def _logged(world: World) -> None:
    line = world.checked.log_line()
    assert "\n" not in line and world.checked.reason in line
    assert world.sent.decode("utf-8", "replace") not in line
