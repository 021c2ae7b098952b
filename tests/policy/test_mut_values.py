"""The policy's input values refuse what they cannot hold, and say why (S-PRX-03, S-APR-05, S-DEC-05).

Found by mutation testing: the shell builds these values from what the client and its own state
files give it; a wrong one must fail at once with a message that names the field.
"""

from __future__ import annotations

import re

import pytest

from policy import Approval, KillState, Probe, ToolCall
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, T0


@requirement("S-PRX-03")
def test_the_clients_arguments_lose_the_gateways_own_before_forwarding() -> None:
    """S-PRX-03: based_on and approval_id move out of args; everything else stays, and the tool and session are kept."""
    c = ToolCall.from_client("Click", {"loc": [1, 2], "based_on": "obs-3", "approval_id": "apr-1"}, "s9")
    assert (c.tool, dict(c.args), c.session, c.based_on, c.approval_id) == (
        "Click",
        {"loc": [1, 2]},
        "s9",
        "obs-3",
        "apr-1",
    )
    bare = ToolCall.from_client("Snapshot", None, "s9")
    assert (dict(bare.args), bare.based_on, bare.approval_id) == ({}, None, None)


@requirement("S-DEC-05")
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"tool": 1, "session": "s"}, "ToolCall.tool and ToolCall.session must be strings"),
        ({"tool": "Click", "session": None}, "ToolCall.tool and ToolCall.session must be strings"),
        ({"tool": "Click", "session": "s", "args": [("loc", 1)]}, "ToolCall.args must be a mapping with string keys"),
        ({"tool": "Click", "session": "s", "args": {1: "x"}}, "ToolCall.args must be a mapping with string keys"),
    ],
    ids=["tool", "session", "not-a-mapping", "int-key"],
)
def test_a_tool_call_with_a_wrong_field_cannot_be_built(fields: dict[str, object], message: str) -> None:
    """S-DEC-05: tool and session are strings, args a mapping with string keys; anything else is a TypeError."""
    with pytest.raises(TypeError, match="^" + re.escape(message) + "$"):
        ToolCall(**fields)  # type: ignore[arg-type]


def _approval(**changes: object) -> Approval:
    fields: dict[str, object] = {
        "id": "apr-1",
        "digest": "d" * 64,
        "tool": "Click",
        "session": "s1",
        "created_ms": T0,
        "expires_ms": T0 + 1,
    }
    return Approval(**{**fields, **changes})  # type: ignore[arg-type]


@requirement("S-APR-05")
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"id": ""}, "Approval.id must be a non-empty string"),
        ({"digest": None}, "Approval.digest must be a non-empty string"),
        ({"tool": ""}, "Approval.tool must be a non-empty string"),
        ({"session": None}, "Approval.session must be a non-empty string"),
        ({"status": "granted"}, "Approval.status 'granted' is not a known status"),
        ({"scope": "always"}, "Approval.scope 'always' must be 'once' or 'session'"),
        ({"expires_ms": None}, "only a granted session-scoped approval has no expiry"),
        ({"expires_ms": None, "status": "approved"}, "only a granted session-scoped approval has no expiry"),
        ({"expires_ms": None, "scope": "session"}, "only a granted session-scoped approval has no expiry"),
    ],
    ids=["id", "digest", "tool", "session", "status", "scope", "no-expiry", "once-grant", "session-request"],
)
def test_an_approval_read_back_wrong_cannot_be_built(changes: dict[str, object], message: str) -> None:
    """S-APR-05: each field is checked; only an approved session-scoped grant may lack an expiry."""
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        _approval(**changes)


@requirement("S-APR-05")
def test_an_approval_may_have_an_empty_session_key_and_a_session_grant_no_expiry() -> None:
    """S-APR-05: the session key may be "" (it is compared, not shown); a session grant may run without expiry."""
    assert _approval(session="").session == ""
    assert _approval(expires_ms=None, status="approved", scope="session").expires_ms is None


@requirement("S-FRESH-06")
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"status": "done"}, "Probe.status must be ok/failed/not_probed/pending, not 'done'"),
        ({"status": "failed", "focused": NOTEPAD}, "only an ok probe carries a focused Window"),
        ({"status": "ok", "focused": "Notepad"}, "only an ok probe carries a focused Window"),
    ],
    ids=["status", "failed-with-window", "not-a-window"],
)
def test_a_probe_says_what_it_saw_only_when_it_answered(fields: dict[str, object], message: str) -> None:
    """S-FRESH-06: a probe has a known status, and only an answered one names the focused window."""
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        Probe(**fields)  # type: ignore[arg-type]
    assert Probe(status="pending", captured=False).status == "pending"


@requirement("S-KILL-01")
@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"engaged": 1, "by": "person"}, TypeError, "KillState.engaged must be a bool"),
        ({"engaged": True}, ValueError, "an engaged KillState says who engaged it: 'person' or 'model'"),
        ({"engaged": True, "by": "admin"}, ValueError, "an engaged KillState says who engaged it: 'person' or 'model'"),
        ({"reason": 5}, TypeError, "KillState.reason and KillState.since must be strings"),
        ({"since": 1700000000}, TypeError, "KillState.reason and KillState.since must be strings"),
    ],
    ids=["engaged-int", "no-by", "unknown-by", "reason-int", "since-number"],
)
def test_a_kill_state_read_back_wrong_cannot_be_built(
    fields: dict[str, object], error: type[Exception], message: str
) -> None:
    """S-KILL-01: the STOP file's reading is checked field by field, and the error names the field."""
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        KillState(**fields)  # type: ignore[arg-type]


@requirement("S-KILL-01")
def test_a_stop_file_without_a_reason_reads_as_an_empty_reason() -> None:
    """S-KILL-01: a missing (None) reason becomes "", so the refusal text never shows None."""
    state = KillState(engaged=True, by="model", reason=None)  # type: ignore[arg-type]
    assert state.reason == ""
    assert KillState(engaged=True, by="person", since="2026-01-01T00:00:00Z", reason="r").reason == "r"
