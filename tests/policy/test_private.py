"""policy/private.py: which windows are private, where they are, and input aimed at them (S-PRIV-01..06)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy import decide
from policy.decision import Code, Verdict
from policy.observation import Capture, Element, Observation, Privacy, Window
from policy.private import (
    DEFAULT_PRIVATE_WINDOWS,
    PLACEHOLDER,
    check_private_window,
    placeholder,
    privacy_of,
    private_patterns,
    private_titles,
    redact_capture,
)
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, T0, call, context, probe_ok, view

VAULT = Window(name="Passwords.kdbx - KeePassXC", depth=3, status="Normal", width=700, height=600, handle=99)
VAULT_TREE = (
    Element(kind="window", control="window", name=VAULT.name, window=VAULT.name),
    Element(kind="element", control="button", name="Close", point=(1677, 166), depth=1, window=VAULT.name),
    Element(kind="element", control="list item", name="Bank login", point=(1175, 225), depth=2, window=VAULT.name),
    Element(
        kind="element",
        control="edit",
        name="Entry password",
        point=(1510, 225),
        depth=1,
        window=VAULT.name,
        flags=frozenset({"password", "focused"}),
        meta=(("value", "hunter2"),),
    ),
    Element(kind="window", control="window", name="Taskbar", window="Taskbar"),
    Element(kind="element", control="button", name="Start", point=(24, 1056), depth=1, window="Taskbar"),
)
PATTERNS = private_patterns()


def vault_capture(**kw: object) -> Capture:
    fields: dict[str, object] = {"tool": "Snapshot", "focused": VAULT, "windows": (NOTEPAD,), "tree": "present"}
    fields.update(kw)
    if "elements" not in fields:
        fields["elements"] = VAULT_TREE
    return Capture(**fields)  # type: ignore[arg-type]


def stored(capture: Capture, obs_id: str = "obs-1") -> Observation:
    """What the gateway stores: the capture redacted, with its privacy (S-PRIV-04)."""
    titles = private_titles(capture, PATTERNS)
    return Observation(
        id=obs_id,
        session="s1",
        generation=1,
        taken_at_ms=T0,
        capture=redact_capture(capture, titles),
        private=privacy_of(capture, PATTERNS),
    )


@requirement("S-PRIV-01")
@pytest.mark.parametrize(
    ("title", "private"),
    [
        ("Passwords.kdbx - KeePassXC", True),
        ("Database.kdbx - KeePass", True),
        ("1PASSWORD", True),  # case-insensitive
        ("Vault - Bitwarden", True),
        ("Online Banking - Google Chrome", True),
        ("Chase Bank statement - Notepad", True),  # the "*bank*" glob
        ("Administrator: winmcp-gateway serve", True),  # the gateway's own terminal
        ("[private window 3]", True),  # a placeholder is always private
        ("notes.txt - Notepad", False),
        ("Settings", False),
    ],
)
def test_the_built_in_list_names_password_managers_banking_and_the_gateway(title: str, private: bool) -> None:
    """S-PRIV-01: built-in patterns match case-insensitively; ordinary windows are not private."""
    assert PATTERNS.matches(title) is private


@requirement("S-PRIV-01")
def test_configured_patterns_extend_the_list_as_substring_or_whole_title_glob() -> None:
    """S-PRIV-01: a plain pattern is a substring, one with * or ? a whole-title glob; defaults stay."""
    patterns = private_patterns(["Payroll", "Secret ? - Notepad", "[x]"])
    assert patterns.patterns[: len(DEFAULT_PRIVATE_WINDOWS)] == DEFAULT_PRIVATE_WINDOWS
    assert patterns.matches("Q3 payroll.xlsx - Excel")
    assert patterns.matches("secret 1 - notepad") and not patterns.matches("secret 12 - Notepad")
    assert not patterns.matches("Top Secret 1 - Notepad x")  # a glob is anchored at both ends
    assert patterns.matches("[x] todo") and not patterns.matches("x todo")  # [ is a literal
    assert patterns.matches("Database.kdbx - KeePass") and patterns.warnings == ()


@requirement("S-PRIV-02")
def test_bad_patterns_fail_closed_with_a_warning_each() -> None:
    """S-PRIV-02: non-string kept literal, empty ignored, match-all kept (masks all), class: reported."""
    patterns = private_patterns([1234, "", "   ", "*", "class:KeePassXC_Main"])
    assert "1234" in patterns.patterns and patterns.matches("Order 1234 - Outlook")
    assert "" not in patterns.patterns and "   " not in patterns.patterns
    assert patterns.matches("notes.txt - Notepad")  # "*": every window is private now
    assert patterns.class_patterns == ("class:KeePassXC_Main",)
    assert not private_patterns(["class:Notepad"]).matches("class:Notepad")  # it names a class, not a title
    joined = "\n".join(patterns.warnings)
    for needle in ("not a string", "empty pattern", "matches every window", "window class"):
        assert needle in joined
    assert len(patterns.warnings) == 5


@requirement("S-PRIV-03")
def test_a_private_window_is_covered_by_every_placement_its_size_and_points_allow() -> None:
    """S-PRIV-03: (max_x−W, max_y−H, min_x+W+1, min_y+H+1) from the element points and the row's size."""
    privacy = privacy_of(vault_capture(), PATTERNS)
    assert privacy == Privacy(count=1, rects=((1677 - 700, 225 - 600, 1175 + 701, 166 + 601),), focused=True)
    left, top, right, bottom = privacy.rects[0]
    assert left <= 1000 and top <= 150 and right >= 1700 and bottom >= 750  # the true window, wherever it is


@requirement("S-PRIV-03")
@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"status": "Minimized"}, Privacy(count=1, focused=True)),  # not shown: nothing to paint
        ({"status": "Hidden"}, Privacy(count=1, focused=True)),
        ({"width": 0}, Privacy(count=1, everywhere=True, focused=True)),  # no size: cannot place
        ({"width": 300}, Privacy(count=1, everywhere=True, focused=True)),  # points wider than the window
    ],
)
def test_a_private_window_that_cannot_be_placed_masks_everything(change: dict[str, object], expected: Privacy) -> None:
    """S-PRIV-03: hidden windows are not painted; one that cannot be placed masks the whole capture."""
    assert privacy_of(vault_capture(focused=replace(VAULT, **change)), PATTERNS) == expected  # type: ignore[arg-type]


@requirement("S-PRIV-03")
def test_a_background_private_window_without_points_cannot_be_placed() -> None:
    """S-PRIV-03: listed in Opened Windows but not traversed: everywhere (the shell then looks again)."""
    capture = vault_capture(focused=NOTEPAD, windows=(VAULT,), elements=VAULT_TREE[4:])
    assert privacy_of(capture, PATTERNS) == Privacy(count=1, everywhere=True)
    assert privacy_of(vault_capture(focused=NOTEPAD, windows=(), elements=VAULT_TREE[4:]), PATTERNS) == Privacy()


@requirement("S-PRIV-04")
def test_the_stored_capture_has_placeholders_and_no_private_names_or_values() -> None:
    """S-PRIV-04: rows and the window line renamed, element names and values blanked, points kept."""
    capture = vault_capture(windows=(NOTEPAD,))
    redacted = redact_capture(capture, private_titles(capture, PATTERNS))
    assert redacted.focused == replace(VAULT, name=placeholder(1)) and redacted.windows == (NOTEPAD,)
    assert placeholder(1).startswith(PLACEHOLDER[:-1])
    text = repr(redacted)
    for secret in (VAULT.name, "Bank login", "Entry password", "hunter2"):
        assert secret not in text
    assert [e.point for e in redacted.elements] == [e.point for e in capture.elements]
    assert redacted.elements[-1] == capture.elements[-1]  # the taskbar is untouched
    assert redact_capture(capture, ()) is capture


def _decide(the_call: object, obs: Observation, **kw: object) -> object:
    return decide(the_call, context(view(obs, **kw)), T0 + 10)  # type: ignore[arg-type]


@requirement("S-PRIV-05")
@pytest.mark.parametrize(
    "the_call",
    [
        call("Click", loc=[1300, 400]),
        call("Click", loc="[1300, 400]"),  # upstream's JSON-string spelling
        call("Click", loc=[977, -375]),  # the covering rectangle's corner: border included
        call("Move", loc=[1300, 400]),
        call("Move", loc=[100, 100], drag=True, from_loc=[1300, 400]),
        call("MultiSelect", locs=[[100, 100], [1300, 400]]),
        call("Click", label=2),  # a label of the private window's elements (labels count its lines)
        call("Click", label=40),  # a label the observation cannot place
        call("Type", text="hi", loc=[100, 100]),  # the keys go to the focused private window
        call("Shortcut", shortcut="ctrl+v"),
        call("MultiEdit", locs=[[100, 100, "x"]]),
        call("Scroll", direction="down"),  # at the cursor, which is on it
    ],
)
def test_input_aimed_at_a_private_window_is_refused_without_naming_it(the_call: object) -> None:
    """S-PRIV-05: points, labels, drags, keys while focused: PRIVATE_WINDOW, the title never shown."""
    obs = stored(vault_capture(cursor=(1200, 400)))
    decision = _decide(the_call, obs)
    assert decision.code is Code.PRIVATE_WINDOW and decision.verdict is Verdict.DENY, decision  # type: ignore[attr-defined]
    assert VAULT.name not in decision.reason and decision.enforced  # type: ignore[attr-defined]


@requirement("S-PRIV-05")
def test_input_elsewhere_and_observation_are_not_refused() -> None:
    """S-PRIV-05: a click outside the window passes this step; observation and own tools are never stopped."""
    obs = stored(vault_capture(focused=NOTEPAD, windows=(VAULT,), cursor=(100, 100)))
    obs = replace(obs, private=Privacy(count=1, rects=((977, -375, 1876, 767),)))
    ctx = context(view(obs))
    assert check_private_window(call("Click", loc=[100, 200]), ctx, T0) is None
    assert check_private_window(call("Click", loc=[976, 200]), ctx, T0) is None  # one pixel left of it
    assert check_private_window(call("Click", loc=[977, 200]), ctx, T0) is not None
    assert check_private_window(call("Type", text="x", loc=[100, 200]), ctx, T0) is None  # not focused
    assert check_private_window(call("Scroll", direction="down"), ctx, T0) is None  # the cursor is elsewhere
    for tool in ("Snapshot", "Screenshot", "WaitFor", "winmcp_state"):
        assert check_private_window(call(tool), ctx, T0) is None


@requirement("S-PRIV-05")
def test_a_capture_masked_whole_refuses_every_point() -> None:
    """S-PRIV-05: when a private window could not be placed, no point can be shown to be outside it."""
    obs = replace(stored(vault_capture(focused=NOTEPAD)), private=Privacy(count=1, everywhere=True))
    ctx = context(view(obs))
    assert check_private_window(call("Click", loc=[5, 5]), ctx, T0) is not None
    assert check_private_window(call("Click", loc="not a point"), ctx, T0) is not None


@requirement("S-PRIV-06")
def test_the_probe_finding_a_private_window_focused_refuses_keys() -> None:
    """S-PRIV-06: observed Notepad, the probe now sees a (redacted) private window in front: no keys."""
    obs = stored(vault_capture(focused=NOTEPAD, windows=(), elements=VAULT_TREE[4:]))
    assert obs.private == Privacy()
    now = replace(VAULT, name=placeholder(1))
    decision = decide(call("Type", text="hi", loc=[100, 100]), context(view(obs, probe=probe_ok(now))), T0 + 10)
    assert decision.code is Code.PRIVATE_WINDOW
    click = decide(call("Click", loc=[100, 100]), context(view(obs, probe=probe_ok(now))), T0 + 10)
    assert click.code is Code.PROCESS_CHANGED and VAULT.name not in click.reason
