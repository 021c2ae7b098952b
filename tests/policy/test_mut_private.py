"""policy/private.py edge cases the mutation run (issue 12) showed no test pinned (S-PRIV-01..06).

Each test calls the public functions directly (not through `decide`, whose fail-closed wrapper turns
an exception in a step into a refusal and so hides a broken check behind a right-looking answer).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy import decide
from policy.decision import Code, Verdict
from policy.labels import label_table
from policy.observation import Capture, Element, Observation, Privacy, Window
from policy.private import (
    PLACEHOLDER,
    aimed_points,
    check_private_window,
    inside,
    placeholder,
    privacy_of,
    private_patterns,
    private_titles,
    redact_capture,
)
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, T0, call, context, probe_ok, view

PATTERNS = private_patterns()
VAULT = Window(name="Passwords.kdbx - KeePassXC", depth=3, status="Normal", width=700, height=600, handle=99)
# The vault's points give the covering rect (977, -375, 1876, 767) (S-PRIV-03).
VAULT_LINES = (
    Element(kind="window", control="window", name=VAULT.name, window=VAULT.name),
    Element(kind="element", control="button", name="Close", point=(1677, 166), depth=1, window=VAULT.name),
    Element(kind="element", control="list item", name="Bank login", point=(1175, 225), depth=1, window=VAULT.name),
)
VAULT_RECT = (977, -375, 1876, 767)


def _window_lines(win: Window, *points: tuple[int, int]) -> tuple[Element, ...]:
    head = Element(kind="window", control="window", name=win.name, window=win.name)
    buttons = (
        Element(kind="element", control="button", name=f"b{i}", point=p, depth=1, window=win.name)
        for i, p in enumerate(points)
    )
    return (head, *buttons)


def _stored(capture: Capture, *, use_dom: bool = False) -> Observation:
    """What the gateway stores: the capture redacted, with its privacy (S-PRIV-04)."""
    return Observation(
        id="obs-1",
        session="s1",
        generation=1,
        taken_at_ms=T0,
        capture=redact_capture(capture, private_titles(capture, PATTERNS)),
        private=privacy_of(capture, PATTERNS),
        use_dom=use_dom,
    )


def _background_vault(*notepad_points: tuple[int, int], use_dom: bool = False) -> Observation:
    """Notepad focused with its buttons at `notepad_points`; the vault open behind it, placed."""
    capture = Capture(
        tool="Snapshot",
        tree="present",
        focused=NOTEPAD,
        windows=(VAULT,),
        elements=_window_lines(NOTEPAD, *notepad_points) + VAULT_LINES,
        cursor=(100, 100),
    )
    return _stored(capture, use_dom=use_dom)


def _label_of(obs: Observation, window: str) -> int:
    return next(r.label for r in label_table(obs).rows if r.window == window)


def _check(the_call: object, obs: Observation) -> object:
    return check_private_window(the_call, context(view(obs)), T0)  # type: ignore[arg-type]


# --- patterns (S-PRIV-01, S-PRIV-02) ---


@requirement("S-PRIV-01")
def test_a_title_with_a_line_break_is_still_matched() -> None:
    """S-PRIV-01: a newline in a title does not hide it from a substring or a glob pattern."""
    patterns = private_patterns(["Secret*notes"])
    assert patterns.matches("vault\nKeePassXC")  # substring pattern
    assert patterns.matches("My\nBank account")  # the built-in "*bank*" glob
    assert patterns.matches("Secret\nnotes")  # a configured glob


@requirement("S-PRIV-01")
@pytest.mark.parametrize("title", ["[draft] notes.txt - Notepad", "[private windoze] - Notepad"])
def test_only_the_gateways_own_placeholder_prefix_makes_a_title_private(title: str) -> None:
    """S-PRIV-01: "[private window" starts a placeholder; a title that only resembles it is ordinary."""
    assert not PATTERNS.matches(title)
    assert PATTERNS.matches(placeholder(7)) and PATTERNS.matches(PLACEHOLDER[:-1] + " 2]")


@requirement("S-PRIV-02")
def test_each_odd_pattern_gets_its_exact_warning() -> None:
    """S-PRIV-02: the warnings the doctor and the log show, word for word."""
    assert private_patterns(["", "class:Vault"]).warnings == (
        "private_windows: an empty pattern names no window; ignored (the built-in ones still apply)",
        "private_windows: 'class:Vault' names a window class, which Windows-MCP 0.8.8 does not print; "
        "it cannot match until upstream does (use a title pattern as well)",
    )


@requirement("S-PRIV-02")
def test_a_glob_that_needs_characters_is_not_reported_as_matching_everything() -> None:
    """S-PRIV-02: "????" matches four-character titles only, so no match-all warning; "*" gets one."""
    four = private_patterns(["????"])
    assert four.warnings == () and four.matches("Keys") and not four.matches("Notes - Notepad")
    assert "matches every window title" in private_patterns(["*"]).warnings[0]


# --- which windows, where (S-PRIV-03) ---


@requirement("S-PRIV-03")
def test_a_private_window_is_found_in_the_tables_without_a_focused_window_and_in_the_tree_alone() -> None:
    """S-PRIV-03: no focused row (the desktop) still lists the opened ones; a window line alone counts."""
    no_focus = Capture(tool="Snapshot", tree="present", focused=None, windows=(NOTEPAD, VAULT))
    assert private_titles(no_focus, PATTERNS) == (VAULT.name,)
    assert privacy_of(no_focus, PATTERNS) == Privacy(count=1, everywhere=True)
    tree_only = Capture(tool="Snapshot", tree="present", focused=NOTEPAD, windows=(), elements=VAULT_LINES)
    assert private_titles(tree_only, PATTERNS) == (VAULT.name,)


def _placed(width: int, height: int, *points: tuple[int, int]) -> Privacy:
    vault = replace(VAULT, width=width, height=height)
    capture = Capture(tool="Snapshot", tree="present", focused=vault, elements=_window_lines(vault, *points))
    return privacy_of(capture, PATTERNS)


@requirement("S-PRIV-03")
def test_a_one_pixel_window_is_placed_around_its_point() -> None:
    """S-PRIV-03: a 1×1 window holding one point is placed (not masked whole)."""
    assert _placed(1, 1, (50, 60)) == Privacy(count=1, rects=((49, 59, 52, 62),), focused=True)


@requirement("S-PRIV-03")
@pytest.mark.parametrize(
    ("points", "everywhere"),
    [
        (((100, 550), (399, 600)), False),  # 299 apart fits in 300 pixels
        (((100, 550), (400, 600)), True),  # 300 apart does not
        (((100, 500), (150, 799)), False),
        (((100, 500), (150, 800)), True),
    ],
)
def test_points_as_far_apart_as_the_window_is_wide_cannot_be_one_window(
    points: tuple[tuple[int, int], ...], everywhere: bool
) -> None:
    """S-PRIV-03: W pixels hold points at most W−1 apart; further apart, it cannot be placed."""
    privacy = _placed(300, 300, *points)
    assert privacy.everywhere is everywhere and len(privacy.rects) == (0 if everywhere else 1)
    if not everywhere:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        assert privacy.rects == ((max(xs) - 300, max(ys) - 300, min(xs) + 301, min(ys) + 301),)


# --- what is stored (S-PRIV-04) ---


@requirement("S-PRIV-04")
def test_a_background_private_window_is_renamed_in_the_table_and_the_tree() -> None:
    """S-PRIV-04: the Opened Windows row, the window line and each element's window get the placeholder."""
    capture = Capture(tool="Snapshot", tree="present", focused=NOTEPAD, windows=(VAULT,), elements=VAULT_LINES)
    redacted = redact_capture(capture, private_titles(capture, PATTERNS))
    assert redacted.focused == NOTEPAD
    assert redacted.windows == (replace(VAULT, name=placeholder(1)),)
    assert [(e.kind, e.name, e.window) for e in redacted.elements] == [
        ("window", placeholder(1), placeholder(1)),
        ("element", "", placeholder(1)),
        ("element", "", placeholder(1)),
    ]


# --- where input is aimed (S-PRIV-05) ---


@requirement("S-PRIV-05")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("Click", {"loc": [5, 6]}, ((5, 6),)),
        ("Click", {"loc": "[5, 6]"}, ((5, 6),)),
        ("Click", {"loc": 5}, (None,)),  # a number is not a point
        ("Click", {"loc": '{"x": 1, "y": 2}'}, (None,)),
        ("Click", {"label": 3}, ()),
        ("Type", {"text": "x"}, ()),  # keys go to the focus, not the cursor
        ("MultiSelect", {"locs": [[1, 2], [3, 4]]}, ((1, 2), (3, 4))),
        ("MultiSelect", {"locs": "[[1, 2], [3, 4]]"}, ((1, 2), (3, 4))),  # upstream's JSON-string spelling
        ("MultiEdit", {"locs": '[[1, 2, "x"]]'}, ((1, 2),)),
        ("MultiSelect", {"locs": "[[1, 2"}, (None,)),  # named but unreadable
        ("MultiSelect", {"locs": {"x": 1}}, (None,)),
        ("Scroll", {"direction": "down"}, ((9, 9),)),  # at the cursor
        ("Scroll", {"loc": [5, 6]}, ((5, 6),)),
        ("Scroll", {"label": 3}, ()),
        ("Move", {"loc": [5, 6]}, ((5, 6),)),  # a plain move ends at loc
        ("Move", {"loc": [5, 6], "drag": True}, ((5, 6), (9, 9))),  # a drag starts at the cursor
        ("Move", {"loc": [5, 6], "drag": True, "from_loc": [7, 8]}, ((5, 6), (7, 8))),
    ],
)
def test_the_points_an_input_call_acts_at(tool: str, args: dict[str, object], expected: tuple[object, ...]) -> None:
    """S-PRIV-05: named points, each of locs, and the cursor only where the call acts there."""
    assert aimed_points(tool, args, (9, 9)) == expected


@requirement("S-PRIV-05")
@pytest.mark.parametrize(
    "the_call",
    [
        call("MultiSelect", locs="[[100, 100], [1300, 400]]"),
        call("MultiEdit", locs='[[1300, 400, "hunter3"]]'),
        call("MultiSelect", locs="[[1300, 400"),
    ],
)
def test_locs_given_as_a_json_string_are_checked_like_a_list(the_call: object) -> None:
    """S-PRIV-05: upstream json.loads a string `locs` (and the gateway passes it on): its points count too.

    This was a hole: a MultiSelect or MultiEdit with string `locs` into a background private window
    was allowed by `decide`, the list spelling refused.
    """
    obs = _background_vault((228, 152))
    assert _check(the_call, obs).code is Code.PRIVATE_WINDOW  # type: ignore[attr-defined]
    decision = decide(the_call, context(view(obs)), T0 + 10)  # type: ignore[arg-type]
    assert decision.code is Code.PRIVATE_WINDOW and decision.verdict is Verdict.DENY, decision
    assert _check(call("MultiSelect", locs="[[228, 152]]"), obs) is None  # outside it: passes


@requirement("S-PRIV-05")
def test_every_edge_of_the_covering_rect_belongs_to_the_private_window() -> None:
    """S-PRIV-05: left, top, right and bottom edges are inside; one pixel beyond is not."""
    rect = (10, 20, 30, 40)
    assert all(inside(p, rect) for p in ((10, 20), (30, 20), (10, 40), (30, 40)))
    assert not any(inside(p, rect) for p in ((9, 30), (31, 30), (20, 19), (20, 41)))
    obs = _background_vault((228, 152))
    for loc in ([1876, 100], [1000, 767]):  # the right and the bottom edge
        assert _check(call("Click", loc=loc), obs) is not None


@requirement("S-PRIV-05")
def test_a_point_refusal_says_which_point_names_the_observation_and_the_rule() -> None:
    """S-PRIV-05: the reason shows the point as a list and the count; the decision names obs and spec."""
    obs = _background_vault((228, 152))
    decision = _check(call("Click", loc=[1300, 400]), obs)
    assert decision.code is Code.PRIVATE_WINDOW  # type: ignore[attr-defined]
    assert decision.reason == "the point [1300, 400] lies on a private window (obs-1 masked 1 private window(s))."  # type: ignore[attr-defined]
    assert decision.spec == "S-PRIV-05" and decision.observation == "obs-1"  # type: ignore[attr-defined]
    assert _check(call("Click", loc="[228, 152]"), obs) is None  # a JSON-string point outside it passes


@requirement("S-PRIV-05")
@pytest.mark.parametrize("loc", [[5, 5], "not a point"])
def test_a_capture_masked_whole_says_so_instead_of_a_point(loc: object) -> None:
    """S-PRIV-05: masked whole, or a point policy cannot read: the reason says where it had to mask."""
    obs = replace(_background_vault((228, 152)), private=Privacy(count=2, everywhere=(loc == [5, 5])))
    decision = _check(call("Click", loc=loc), obs)
    assert decision.reason == (  # type: ignore[attr-defined]
        "the point somewhere the gateway had to mask whole lies on a private window (obs-1 masked 2 private window(s))."
    )


@requirement("S-PRIV-05")
def test_a_label_of_an_ordinary_window_outside_every_private_rect_passes() -> None:
    """S-PRIV-05: a label whose window and every candidate point are ordinary is not refused."""
    obs = _background_vault((228, 152), (268, 152))
    assert _check(call("Click", label=_label_of(obs, NOTEPAD.name)), obs) is None
    assert _check(call("Click", loc=[100, 100]), obs) is None


@requirement("S-PRIV-05")
def test_a_label_whose_element_may_lie_under_the_private_window_is_refused() -> None:
    """S-PRIV-05: a Notepad label with a candidate point inside the vault's rect could hit the vault."""
    obs = _background_vault((228, 152), (1300, 400))
    decision = _check(call("Click", label=_label_of(obs, NOTEPAD.name)), obs)
    assert decision.code is Code.PRIVATE_WINDOW  # type: ignore[attr-defined]
    assert decision.reason == (  # type: ignore[attr-defined]
        "the label is an element of a private window (or cannot be told apart from one) "
        "(obs-1 masked 1 private window(s))."
    )


@requirement("S-PRIV-05")
def test_a_multiedit_label_of_the_private_window_is_refused() -> None:
    """S-PRIV-05: MultiEdit cites labels as [[label, text], …]; one of the vault's is refused."""
    obs = _background_vault((228, 152))
    vault_label = _label_of(obs, placeholder(1))
    assert _check(call("MultiEdit", labels=[[vault_label, "x"]]), obs) is not None
    assert _check(call("MultiEdit", labels=[[_label_of(obs, NOTEPAD.name), "x"]]), obs) is None


@requirement("S-PRIV-05")
def test_any_label_of_a_dom_capture_is_refused_while_a_private_window_is_open() -> None:
    """S-PRIV-05: a use_dom capture's labels cannot be placed, so none can be shown to be ordinary."""
    obs = _background_vault((228, 152), use_dom=True)
    assert _check(call("Click", label=0), obs) is not None


@requirement("S-PRIV-05")
def test_a_window_that_only_resembles_a_placeholder_is_not_refused_by_label_or_keys() -> None:
    """S-PRIV-05, S-PRIV-06: "[draft]…" / "[private windoze]…" are ordinary windows for labels and keys."""
    for name in ("[draft] notes.txt - Notepad", "[private windoze] - Notepad"):
        other = replace(NOTEPAD, name=name)
        capture = Capture(
            tool="Snapshot",
            tree="present",
            focused=other,
            windows=(VAULT,),
            elements=_window_lines(other, (228, 152)) + VAULT_LINES,
        )
        obs = _stored(capture)
        assert _check(call("Click", label=_label_of(obs, name)), obs) is None
        ctx = context(view(obs, probe=probe_ok(other)))
        assert check_private_window(call("Type", text="hi"), ctx, T0) is None


@requirement("S-PRIV-06")
def test_keys_refused_on_the_probe_alone_name_the_probe() -> None:
    """S-PRIV-06: no observation yet, the probe sees a private window in front: refused, no obs id."""
    ctx = context(view(probe=probe_ok(replace(VAULT, name=placeholder(1)))))
    decision = check_private_window(call("Type", text="hi"), ctx, T0)
    assert decision is not None and decision.observation is None
    assert decision.reason == (
        "Type sends keys to the focused window, which is private (the probe masked 1 private window(s))."
    )
