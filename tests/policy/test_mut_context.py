"""The world handed to policy refuses values it cannot hold, and says which field (S-DEC-05); found by mutation testing.

The shell builds PolicyConfig and SessionView from its config file and its state files; a wrong value
must fail at construction with a message that names the field, so the shell's own error (and the
POLICY_ERROR denial it turns into) tells a person what to fix.
"""

from __future__ import annotations

import math
import re
from dataclasses import fields
from types import SimpleNamespace

import pytest

from policy import PolicyConfig, SessionView
from tests._requirements import requirement
from tests.policy._world import OTHER, SESSION, observation


def _raises(error: type[Exception], message: str) -> pytest.RaisesContext[Exception]:
    return pytest.raises(error, match="^" + re.escape(message) + "$")


@requirement("S-DEC-05")
@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"enforce": "false"}, TypeError, "PolicyConfig.enforce must be a bool, not 'false'"),
        ({"require_approval_for_input": 1}, TypeError, "PolicyConfig.require_approval_for_input must be a bool, not 1"),
        ({"tools_deny": ["Click"]}, TypeError, "PolicyConfig.tools_deny must be a tuple of strings"),
        ({"allowed_windows": ("a", 1)}, TypeError, "PolicyConfig.allowed_windows must be a tuple of strings"),
        (
            {"max_observation_age_ms": math.inf},
            TypeError,
            "PolicyConfig.max_observation_age_ms must be a finite number, not inf",
        ),
        ({"approval_ttl_ms": math.nan}, TypeError, "PolicyConfig.approval_ttl_ms must be a finite number, not nan"),
        ({"approval_ttl_ms": "5"}, TypeError, "PolicyConfig.approval_ttl_ms must be a finite number, not '5'"),
        ({"approval_ttl_ms": True}, TypeError, "PolicyConfig.approval_ttl_ms must be a finite number, not True"),
        ({"max_observation_age_ms": -1}, ValueError, "PolicyConfig.max_observation_age_ms out of range: -1"),
        ({"approval_ttl_ms": -0.5}, ValueError, "PolicyConfig.approval_ttl_ms out of range: -0.5"),
        ({"approval_ttl_ms": 0}, ValueError, "PolicyConfig.approval_ttl_ms out of range: 0"),
        (
            {"profile": "read-only"},
            ValueError,
            "PolicyConfig.profile must be 'default' or 'observe-only', not 'read-only'",
        ),
        ({"unknown_tools": "ask"}, ValueError, "PolicyConfig.unknown_tools must be 'deny' or 'allow', not 'ask'"),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else None,
)
def test_a_policy_config_with_an_unusable_value_cannot_be_built(
    changes: dict[str, object], error: type[Exception], message: str
) -> None:
    """S-DEC-05: each field is checked for its type and range, and the error names the field and the value."""
    with _raises(error, message):
        PolicyConfig(**changes)  # type: ignore[arg-type]


@requirement("S-DEC-05")
def test_the_edges_of_the_ranges_are_accepted() -> None:
    """S-DEC-05: an age limit of 0 (every observation too old) and a one-millisecond approval lifetime are valid."""
    config = PolicyConfig(max_observation_age_ms=0, approval_ttl_ms=1)
    assert (config.max_observation_age_ms, config.approval_ttl_ms) == (0, 1)


@requirement("S-DEC-05")
def test_from_attrs_turns_the_shells_lists_into_tuples() -> None:
    """S-DEC-05: a loaded config holds lists (TOML arrays); the policy config holds the same names as tuples."""
    values = {f.name: getattr(PolicyConfig(), f.name) for f in fields(PolicyConfig)}
    source = SimpleNamespace(**{**values, "allowed_windows": ["* - Notepad"], "tools_deny": ["Click", "Type"]})
    config = PolicyConfig.from_attrs(source)
    assert config.allowed_windows == ("* - Notepad",)
    assert config.tools_deny == ("Click", "Type")


@requirement("S-DEC-05")
@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"session": None}, TypeError, "SessionView.session must be a string"),
        ({"clipboard": b"x"}, TypeError, "SessionView.clipboard must be None or a string"),
        ({"latest_id": "obs-9"}, ValueError, "SessionView.latest_id 'obs-9' is neither held nor retired"),
        (
            {"observations": {"obs-1": observation("obs-1")}},
            ValueError,
            "SessionView has observations but no latest_id",
        ),
        (
            {"observations": {"obs-2": observation("obs-1")}, "latest_id": "obs-2"},
            ValueError,
            "SessionView.observations['obs-2'] is not this session's observation 'obs-2'",
        ),
        (
            {"observations": {"obs-1": observation("obs-1", session=OTHER)}, "latest_id": "obs-1"},
            ValueError,
            "SessionView.observations['obs-1'] is not this session's observation 'obs-1'",
        ),
        ({"generation": 1.0}, TypeError, "SessionView.generation must be an int"),
        ({"probe": "ok"}, TypeError, "SessionView.probe must be a Probe"),
        ({"unentered": None}, TypeError, "SessionView.unentered must be a string"),
    ],
    ids=[
        "session",
        "clipboard",
        "latest",
        "no-latest",
        "wrong-id",
        "other-session",
        "generation",
        "probe",
        "unentered",
    ],
)
def test_a_session_view_that_contradicts_itself_cannot_be_built(
    changes: dict[str, object], error: type[Exception], message: str
) -> None:
    """S-DEC-05: observations are this session's under their own ids, and the latest id is held or retired."""
    with _raises(error, message):
        SessionView(**{"session": SESSION, **changes})  # type: ignore[arg-type]


@requirement("S-DEC-05")
def test_a_session_view_with_its_own_observation_and_a_retired_latest_id_is_valid() -> None:
    """S-DEC-05: the newest id may be retired while older observations are still held."""
    held = observation("obs-1")
    v = SessionView(session=SESSION, observations={"obs-1": held}, latest_id="obs-2", retired={"obs-2": "dropped"})
    assert (dict(v.observations), v.latest_id) == ({"obs-1": held}, "obs-2")
