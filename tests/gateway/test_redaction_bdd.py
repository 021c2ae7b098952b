"""Binds features/redaction.feature (S-RED-01, S-RED-02, S-RED-05 … S-RED-08).

Steps call what the unit tests call: `redact`, `redact_args`, `redact_text`,
`summarize_result` and, for what reaches the file, `AuditLog.append`.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.audit.redact.values import redact, redact_args, redact_text, summarize_result
from gateway.audit.writer import AuditLog
from tests._requirements import SAMPLES, UPSTREAM_DATA

scenarios("redaction.feature")

BASE64_RUN = re.compile(r"[A-Za-z0-9+/=]{257,}")  # S-RED-05: no longer run is ever stored
LABELLED_MASK = re.compile(r"\[REDACTED:[a-z][a-z0-9_ ]*\]")
BLOB = "QUJDRA==" * 40  # 320 base64 characters


@dataclass
class Outcome:
    """What a step redacted, and what came out."""

    given: Any = None
    before: Any = None
    out: Any = None
    log: AuditLog | None = None
    png: bytes = b""
    result: Any = None


@pytest.fixture
def outcome() -> Outcome:
    """The scenario's state."""
    return Outcome()


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _redact(outcome: Outcome, value: Any) -> None:
    outcome.given, outcome.before = value, copy.deepcopy(value)
    outcome.out = redact(value)


@when(parsers.re(r"the value (?P<value>\{.*\}) is redacted"))
def _redact_value(outcome: Outcome, value: str) -> None:
    _redact(outcome, json.loads(value))


@when(parsers.re(r"the (?P<tool>\w+) arguments (?P<value>\{.*\}) are redacted"))
def _redact_arguments(outcome: Outcome, tool: str, value: str) -> None:
    outcome.given = json.loads(value)
    outcome.out = redact_args(tool, outcome.given)


@when(parsers.parse('the text "{text}" is redacted'))
def _redact_quoted(outcome: Outcome, text: str) -> None:
    outcome.given, outcome.out = text, redact_text(text)


@when("this text is redacted")
def _redact_docstring(outcome: Outcome, docstring: str) -> None:
    outcome.given, outcome.out = docstring, redact_text(docstring)


@when(parsers.parse("a text of {n:d} characters is redacted"))
def _redact_long(outcome: Outcome, n: int) -> None:
    text = ("word " * n)[:n]
    outcome.given, outcome.out = text, redact_text(text)


class _LengthlessStr(str):
    def __len__(self) -> int:
        raise RuntimeError("no length for you")


@when(parsers.parse('a string whose length cannot be read, holding "{text}", is redacted'))
def _redact_hostile(outcome: Outcome, text: str) -> None:
    outcome.given, outcome.out = text, redact_text(_LengthlessStr(text))


@when("a structure that contains itself is redacted")
def _redact_cycle(outcome: Outcome) -> None:
    cyclic: dict[str, Any] = {"a": 1}
    cyclic["self"] = cyclic
    outcome.given, outcome.out = cyclic, redact(cyclic)


@then(parsers.parse('"{secret}" appears nowhere in it'))
def _nowhere(outcome: Outcome, secret: str) -> None:
    assert secret in _as_text(outcome.given)  # the input did hold it
    assert secret not in _as_text(outcome.out)


@then(parsers.parse('its "{key}", at the top and nested inside "outer", reads "{value}"'))
def _reads_nested(outcome: Outcome, key: str, value: str) -> None:
    assert outcome.out[key] == value
    assert outcome.out["outer"][0]["inner"][key] == value


@then(parsers.parse('its "{key}" reads "{value}"'))
def _reads(outcome: Outcome, key: str, value: str) -> None:
    assert outcome.out[key] == value


@then(parsers.parse('it no longer contains "{secret}"'))
def _no_longer(outcome: Outcome, secret: str) -> None:
    assert secret in outcome.given
    assert secret not in _as_text(outcome.out), outcome.out


@then(parsers.parse('it contains "{text}"'))
def _contains(outcome: Outcome, text: str) -> None:
    assert text in _as_text(outcome.out), outcome.out


@then("the mask names what it masked")
def _labelled(outcome: Outcome) -> None:
    assert LABELLED_MASK.search(outcome.out), outcome.out


@then("it is unchanged")
def _unchanged(outcome: Outcome) -> None:
    assert outcome.out == outcome.given


@then(parsers.parse('it is "{text}"'))
def _is(outcome: Outcome, text: str) -> None:
    assert outcome.out == text


@then(parsers.parse("it is at most {n:d} characters long"))
def _at_most(outcome: Outcome, n: int) -> None:
    assert isinstance(outcome.out, str) and len(outcome.out) <= n < len(outcome.given)


@then("the value it was given is unchanged")
def _input_unchanged(outcome: Outcome) -> None:
    assert outcome.given == outcome.before
    assert outcome.given["password"] == "p" and outcome.given["list"][0]["token"] == "t"


@then("the result is a new structure")
def _new_structure(outcome: Outcome) -> None:
    assert outcome.out is not outcome.given and outcome.out["list"] is not outcome.given["list"]
    assert outcome.out["password"] == "[REDACTED]" and "abc123def456" not in outcome.out["cmd"]


# --- results (S-RED-05) -----------------------------------------------------------------------


@given(parsers.parse('the upstream result of sample "{stem}" with its PNG'))
def _sample(outcome: Outcome, stem: str) -> None:
    doc = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))
    outcome.png = (SAMPLES / f"{stem}.png").read_bytes()
    for item in doc["result"]["content"]:
        if item["type"] == "image":
            item["data"] = base64.b64encode(outcome.png).decode("ascii")
    outcome.result = doc["result"]


@when("the result is summarised for the audit")
def _summarise_sample(outcome: Outcome) -> None:
    outcome.out = summarize_result(outcome.result)


@when(parsers.re(r"the result (?P<value>\{.*\}) is summarised for the audit"))
def _summarise(outcome: Outcome, value: str) -> None:
    outcome.out = summarize_result(json.loads(value))


@then("the image item is the PNG's mime type, byte size and SHA-256")
def _image_item(outcome: Outcome) -> None:
    images = [item["image"] for item in outcome.out["content"] if "image" in item]
    expected = {
        "mimeType": "image/png",
        "bytes": len(outcome.png),
        "sha256": hashlib.sha256(outcome.png).hexdigest(),
    }
    assert images == [expected]


@then("no run of base64 characters longer than 256 remains")
def _no_run(outcome: Outcome) -> None:
    assert not BASE64_RUN.search(json.dumps(outcome.out))


@then(parsers.parse("every text item is at most {n:d} characters long"))
def _text_items(outcome: Outcome, n: int) -> None:
    texts = [item["text"] for item in outcome.out["content"] if "text" in item]
    assert texts and all(len(t) <= n for t in texts)
    original = next(i["text"] for i in outcome.result["content"] if i["type"] == "text")
    assert len(original) > n and texts[0].startswith(original[:40])  # cut, not replaced


@then(parsers.re(r"is_error is (?P<value>true|false)"))
def _is_error(outcome: Outcome, value: str) -> None:
    assert outcome.out["is_error"] is (value == "true")


@then("the summary has no structured content")
def _no_structured(outcome: Outcome) -> None:
    assert "structured" not in outcome.out and outcome.out["content"] == [{"text": "ok"}]


@then(parsers.re(r"the summary's structured content is (?P<value>\{.*\})"))
def _structured(outcome: Outcome, value: str) -> None:
    assert outcome.out["structured"] == json.loads(value)


# --- what reaches the file (S-RED-05, S-RED-08) -----------------------------------------------


@given("an audit log in a fresh state dir")
def _audit_log(outcome: Outcome, tmp_path: Path) -> None:
    outcome.log = AuditLog(tmp_path / "state")


def _file(outcome: Outcome) -> bytes:
    assert outcome.log is not None and outcome.log.stats()["failures"] == 0
    return outcome.log.path.read_bytes()


def _recorded_text(outcome: Outcome) -> str:
    record = json.loads(_file(outcome).splitlines()[-1])
    text: str = record["result"]["content"][0]["text"]
    return text


@when("the gateway records the result of a Snapshot call")
def _record_snapshot(outcome: Outcome) -> None:
    assert outcome.log is not None
    outcome.log.append("observation", tool="Snapshot", args={"use_vision": True}, result=outcome.result)


@when(
    "the gateway records a Clipboard set of a 320-character base64 blob whose result echoes "
    'its first 100 characters and "..."'
)
def _record_clipboard(outcome: Outcome) -> None:
    assert outcome.log is not None
    echo = f"Clipboard set to: data {BLOB}"[:100] + "..."
    outcome.log.append(
        "allow",
        tool="Clipboard",
        args={"mode": "set", "text": f"data {BLOB} end"},
        result={"content": [{"type": "text", "text": echo}], "isError": False},
    )


@when(parsers.parse('the gateway records PowerShell "{command}" whose result says "{text}"'))
def _record_powershell(outcome: Outcome, command: str, text: str) -> None:
    assert outcome.log is not None
    outcome.log.append(
        "allow",
        tool="PowerShell",
        args={"command": command},
        result={"content": [{"type": "text", "text": text}], "isError": False},
    )


@then("the audit file holds no run of base64 characters longer than 256")
def _file_no_run(outcome: Outcome) -> None:
    assert not BASE64_RUN.search(_file(outcome).decode("utf-8"))


@then("the audit file does not hold the first 64 base64 characters of the PNG")
def _file_no_png(outcome: Outcome) -> None:
    assert base64.b64encode(outcome.png)[:64] not in _file(outcome)


@then(parsers.parse('the audit file does not contain "{text}"'))
def _file_lacks(outcome: Outcome, text: str) -> None:
    assert text.encode("utf-8") not in _file(outcome)


@then(parsers.parse('the recorded result text starts with "{prefix}"'))
def _recorded_starts(outcome: Outcome, prefix: str) -> None:
    assert _recorded_text(outcome).startswith(prefix), _recorded_text(outcome)


@then(parsers.parse('the recorded result text is "{text}"'))
def _recorded_is(outcome: Outcome, text: str) -> None:
    assert _recorded_text(outcome) == text


# --- real upstream calls (S-RED-07) -----------------------------------------------------------


@given("the recorded upstream calls in tool_outputs.json")
def _recorded_calls(outcome: Outcome) -> None:
    outcome.given = json.loads((UPSTREAM_DATA / "tool_outputs.json").read_text(encoding="utf-8"))
    assert len(outcome.given) > 40


@then("redacting each call's arguments changes nothing")
def _calls_unchanged(outcome: Outcome) -> None:
    for entry in outcome.given:
        assert redact_args(entry["tool"], entry["arguments"]) == entry["arguments"], entry["tool"]
