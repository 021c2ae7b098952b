"""The kill switch on the policy side (S-KILL-01..02)."""

from __future__ import annotations

import pytest

from policy import Code, KillState, PolicyConfig, Verdict, can_release, decide
from tests._requirements import requirement
from tests.policy._world import T0, call, context, observation, view

PERSON = KillState(engaged=True, by="person", since="2025-01-01T00:00:00.000Z", reason="stop now")
MODEL = KillState(engaged=True, by="model", reason="I am unsure")

STILL_WORKS = [
    call("Snapshot"),
    call("Screenshot"),
    call("DisplayInventory"),
    call("Wait", duration=1),
    call("WaitFor", condition="text", text="x"),
    call("ControlStatus"),
    call("winmcp_state"),
    call("winmcp_to_screen", x=1, y=2),
    call("winmcp_screen_to_image", x=1, y=2),
    call("winmcp_audit", view="summary"),
    call("winmcp_doctor"),
    call("winmcp_kill", action="release"),
]
REFUSED = [
    call("Click", loc=[1, 2]),
    call("Type", text="hi"),
    call("Shortcut", shortcut="ctrl+s"),
    call("PowerShell", command="Get-Date"),
    call("Registry", mode="get", path="HKCU:/x"),
    call("FileSystem", mode="read", path="a.txt"),
    call("Process", mode="list"),
    call("App", mode="switch", name="Notepad"),
    call("Clipboard", mode="get"),
    call("Notification", title="t", message="m", app_id="a"),
    call("Scrape", url="https://example.com"),  # READ_ONLY for freshness, but not observation
]


@requirement("S-KILL-01")
@pytest.mark.parametrize("tool_call", STILL_WORKS, ids=lambda c: c.tool)
@pytest.mark.parametrize("kill", [PERSON, MODEL], ids=["person", "model"])
def test_observation_and_the_gateways_read_only_tools_work_while_killed(tool_call: object, kill: KillState) -> None:
    """S-KILL-01: Snapshot & co. and winmcp_* read-only tools (and winmcp_kill) still run."""
    assert decide(tool_call, context(view(observation("obs-1")), kill=kill), T0).verdict is Verdict.ALLOW  # type: ignore[arg-type]


@requirement("S-KILL-01")
@pytest.mark.parametrize("tool_call", REFUSED, ids=lambda c: c.tool)
def test_everything_else_is_killed(tool_call: object) -> None:
    """S-KILL-01: input, system and Scrape calls are KILLED, naming who engaged the stop."""
    d = decide(tool_call, context(view(observation("obs-1")), kill=PERSON), T0)  # type: ignore[arg-type]
    assert d.code is Code.KILLED and d.blocks
    assert "person" in d.reason and "stop now" in d.reason and "Snapshot" in d.remedy


@requirement("S-KILL-01", "S-VIS-03")
def test_an_allowed_unknown_tool_is_killed_too() -> None:
    """S-KILL-01: unknown_tools="allow" does not exempt a tool from the stop."""
    cfg = PolicyConfig(unknown_tools="allow")
    assert decide(call("Teleport"), context(kill=MODEL, config=cfg), T0).code is Code.KILLED


@requirement("S-KILL-01", "S-DEC-07")
def test_shadow_mode_does_not_lift_the_stop() -> None:
    """S-DEC-07: KILLED is always enforced, even with enforce=false."""
    d = decide(call("Click", loc=[1, 2]), context(kill=PERSON, config=PolicyConfig(enforce=False)), T0)
    assert d.code is Code.KILLED and d.enforced and d.blocks


@requirement("S-KILL-02")
@pytest.mark.parametrize(
    ("kill", "requester", "expected"),
    [
        (PERSON, "model", False),
        (PERSON, "person", True),
        (MODEL, "model", True),
        (MODEL, "person", True),
        (KillState(), "model", True),  # nothing to release
        (PERSON, "Model", False),
        (MODEL, "someone", False),
        (MODEL, "", False),
    ],
)
def test_a_model_cannot_release_a_persons_stop(kill: KillState, requester: str, expected: bool) -> None:
    """S-KILL-02: a person releases any stop; a model only its own; anyone else none."""
    assert can_release(kill, requester) is expected


@requirement("S-KILL-02")
def test_an_engaged_stop_says_who_engaged_it() -> None:
    """S-KILL-02: an engaged KillState without a valid `by` cannot exist (release rights depend on it)."""
    with pytest.raises(ValueError):
        KillState(engaged=True)
    with pytest.raises(ValueError):
        KillState(engaged=True, by="admin")  # type: ignore[arg-type]
