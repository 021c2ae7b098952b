"""The freshness gate's refusals, word for word (S-FRESH-05..07); found by mutation testing.

A refusal is all the model gets: it must name the observation it judged, the requirement, what
exactly is wrong (the label range, how often the desktop was captured since, which window was in
front) and what to do instead.
"""

from __future__ import annotations

import pytest

from policy import Code, PolicyConfig, Probe, Warn, check_freshness, check_window, freshness_warnings
from policy.decision import POLICY_ERROR_REMEDY
from policy.freshness import window_known, window_matches
from tests._requirements import requirement
from tests.policy._world import NOTEPAD, NOTEPAD_TREE, T0, call, click, observation, probe_ok, view, window

CFG = PolicyConfig()
UNPROBED = PolicyConfig(require_process_match=False)
LOC_REMEDY = "cite a loc from the tree instead: the (x,y) printed before the element in obs-1 is its screen point"


def _refusal(tool_call: object, v: object, config: PolicyConfig = CFG) -> tuple[object, ...]:
    d = check_freshness(tool_call, v, config, T0)  # type: ignore[arg-type]
    assert d is not None
    return d.code, d.reason, d.remedy, d.spec, d.observation


@requirement("S-FRESH-05")
def test_a_fractional_label_is_refused_naming_the_basis_and_the_loc_remedy() -> None:
    """S-FRESH-05: a label that is not a whole number: LABEL_UNVERIFIABLE on obs-1, with the cite-a-loc remedy."""
    v = view(observation("obs-1"), probe=probe_ok(NOTEPAD, tree=NOTEPAD_TREE))
    assert _refusal(call("Click", label=1.5), v) == (
        Code.LABEL_UNVERIFIABLE,
        "a label must be a whole number.",
        LOC_REMEDY,
        "S-FRESH-05",
        "obs-1",
    )


@requirement("S-FRESH-05")
@pytest.mark.parametrize("label", [0, 13])
def test_the_first_and_the_last_label_of_the_table_are_usable(label: int) -> None:
    """S-FRESH-05: labels count from 0 to one less than the number of rows (Notepad's tree: 14 rows)."""
    v = view(observation("obs-1"), probe=probe_ok(NOTEPAD, tree=NOTEPAD_TREE))
    assert check_freshness(call("Click", label=label), v, CFG, T0) is None


@requirement("S-FRESH-05")
def test_a_label_out_of_range_is_refused_with_the_range_the_basis_has() -> None:
    """S-FRESH-05: the refusal says how many labels obs-1 has and which numbers are valid."""
    v = view(observation("obs-1"), probe=probe_ok(NOTEPAD, tree=NOTEPAD_TREE))
    assert _refusal(call("Click", label=14), v) == (
        Code.LABEL_UNVERIFIABLE,
        "label 14 is out of range: obs-1 has 14 label(s) (0-13).",
        LOC_REMEDY,
        "S-FRESH-05",
        "obs-1",
    )


@requirement("S-FRESH-05")
def test_a_probe_showing_another_label_table_is_stale_and_says_to_snapshot_again() -> None:
    """S-FRESH-05: the probe's table differs from obs-1's: STALE_OBSERVATION, a new Snapshot's labels or a loc."""
    v = view(observation("obs-1"), probe=probe_ok(NOTEPAD, tree=NOTEPAD_TREE[:-1]))
    assert _refusal(call("Click", label=3), v) == (
        Code.STALE_OBSERVATION,
        "the desktop changed since obs-1: upstream's label table now names other elements "
        "(a window moved, opened or closed, or its content changed).",
        "take a new Snapshot and use its labels, or cite a loc from it",
        "S-FRESH-05",
        "obs-1",
    )


@requirement("S-FRESH-05")
def test_an_unprobed_label_call_says_how_many_captures_replaced_the_table() -> None:
    """S-FRESH-05: unprobed, two captures since obs-1 (generation 3 → 5): "2 time(s)", and the loc remedy."""
    v = view(observation("obs-1", generation=3), generation=5, probe=Probe(status="not_probed", captured=False))
    assert _refusal(call("Click", label=3), v, UNPROBED) == (
        Code.STALE_OBSERVATION,
        "upstream captured the desktop 2 time(s) since obs-1 "
        "(another session, a WaitFor, an App resize/switch or a DOM Scrape), replacing the label table "
        "the label(s) refer to.",
        "use the loc coordinates printed in obs-1, or take a new Snapshot and use its labels",
        "S-FRESH-05",
        "obs-1",
    )


@requirement("S-FRESH-06")
@pytest.mark.parametrize(
    ("now", "shown"),
    [
        (None, "no focused window"),
        (window('say "hi" - Notepad', 7), "\"say 'hi' - Notepad\" (handle 7)"),
        (window("x" * 100, 8), '"' + "x" * 80 + '" (handle 8)'),
    ],
    ids=["none", "quotes", "long"],
)
def test_a_window_change_names_both_windows_quoted_and_cut_at_80_characters(now: object, shown: str) -> None:
    """S-FRESH-06: PROCESS_CHANGED names the window before and after: quoted (" as '), at most 80 characters."""
    v = view(observation("obs-1"), probe=probe_ok(now))  # type: ignore[arg-type]
    code, reason, *_ = _refusal(click(), v)
    assert code is Code.PROCESS_CHANGED
    assert reason == f'the focused window was "notes.txt - Notepad" (handle 1706796) in obs-1 and is now {shown}.'


@requirement("S-FRESH-07")
def test_a_window_glob_star_matches_a_title_across_line_breaks() -> None:
    """S-FRESH-07: `*` matches any characters of the whole title, a line break included."""
    assert window_matches("report\nfinal - Notepad", ("*notepad",))
    assert window_matches("report\nfinal - Notepad", ("report?final*",))
    assert not window_matches("report\nfinal - Notepad", ("final*",))


@requirement("S-FRESH-06")
@pytest.mark.parametrize(("tree", "known"), [("present", True), ("skipped", False), ("absent", False)])
def test_only_an_observation_with_a_tree_knows_the_focused_window(tree: str, known: bool) -> None:
    """S-FRESH-06: a basis recorded the focused window only if upstream's tree was read."""
    assert window_known(observation("obs-1", tree=tree)) is known  # type: ignore[arg-type]


SNAP = "take a Snapshot (leave use_ui_tree on), then repeat the call citing it"
CITE0 = 'take a new Snapshot, then repeat the call with based_on="<its id>" (it replaces obs-0)'
CITE1 = 'take a new Snapshot, then repeat the call with based_on="<its id>" (it replaces obs-1)'
PENDING = Probe(status="pending", captured=False)
NOT_PROBED = Probe(status="not_probed", captured=False)


def _ok_view(**kw: object) -> object:
    return view(observation("obs-1"), **kw)  # type: ignore[arg-type]


# (case id, call, view, config, now, (code, reason, remedy, spec, observation))
REFUSALS = [
    (
        "no-observation",
        click(),
        view(),
        CFG,
        T0,
        (
            Code.NO_OBSERVATION,
            "this session has no observation to base an input action on.",
            'take a Snapshot first, then repeat the call with based_on="<the obs id it prints>"',
            "S-FRESH-01",
            None,
        ),
    ),
    (
        "based-on-not-a-string",
        click(based_on=[1] * 30),
        _ok_view(),
        CFG,
        T0,
        (
            Code.UNKNOWN_OBSERVATION,
            "based_on must be an observation id string like \"obs-3\", not list '[1, 1, 1, 1, 1, 1, 1'.",
            SNAP,
            "S-FRESH-02",
            None,
        ),
    ),
    (
        "retired",
        click(based_on="obs-0"),
        view(observation("obs-1"), retired={"obs-0": "the window\n  closed"}),
        CFG,
        T0,
        (Code.STALE_OBSERVATION, "observation obs-0 is stale: the window closed.", CITE0, "S-FRESH-04", None),
    ),
    (
        "retired-long",
        click(based_on="obs-0"),
        view(observation("obs-1"), retired={"obs-0": "w" * 200}),
        CFG,
        T0,
        (Code.STALE_OBSERVATION, f"observation obs-0 is stale: {'w' * 120}.", CITE0, "S-FRESH-04", None),
    ),
    (
        "retired-no-reason",
        click(based_on="obs-0"),
        view(observation("obs-1"), retired={"obs-0": " "}),
        CFG,
        T0,
        (Code.STALE_OBSERVATION, "observation obs-0 is stale: it can no longer be used.", CITE0, "S-FRESH-04", None),
    ),
    (
        "unknown",
        click(based_on="obs-9"),
        _ok_view(),
        CFG,
        T0,
        (Code.UNKNOWN_OBSERVATION, 'based_on "obs-9" names no observation of this session.', SNAP, "S-FRESH-02", None),
    ),
    (
        "superseded",
        click(based_on="obs-1"),
        view(observation("obs-1"), observation("obs-2", generation=2)),
        CFG,
        T0,
        (
            Code.STALE_OBSERVATION,
            "observation obs-1 was superseded by obs-2, a newer observation of this session.",
            'look at obs-2 and repeat the call with based_on="obs-2", or take a new Snapshot',
            "S-FRESH-04",
            "obs-1",
        ),
    ),
    (
        "too-old",
        click(),
        _ok_view(),
        CFG,
        T0 + 60_001,
        (
            Code.STALE_OBSERVATION,
            "observation obs-1 is 60001 ms old; the limit is 60000 ms.",
            CITE1,
            "S-FRESH-03",
            "obs-1",
        ),
    ),
    (
        "probe-pending",
        click(),
        _ok_view(probe=PENDING),
        CFG,
        T0,
        (
            Code.PROBE_PENDING,
            "the focused window has not been read yet; the gateway reads it and decides again.",
            "none: the gateway does this itself",
            "S-FRESH-10",
            "obs-1",
        ),
    ),
    (
        "not-probed",
        click(),
        _ok_view(probe=NOT_PROBED),
        CFG,
        T0,
        (
            Code.POLICY_ERROR,
            "the gateway did not probe the focused window before this input action.",
            POLICY_ERROR_REMEDY,
            "S-FRESH-06",
            None,
        ),
    ),
    (
        "probe-failed",
        click(),
        _ok_view(probe=Probe(status="failed", detail="time\n  out")),
        CFG,
        T0,
        (
            Code.PROCESS_CHANGED,
            "the focused window could not be verified: the probe failed (time out).",
            SNAP,
            "S-FRESH-06",
            "obs-1",
        ),
    ),
    (
        "probe-failed-long",
        click(),
        _ok_view(probe=Probe(status="failed", detail="d" * 200)),
        CFG,
        T0,
        (
            Code.PROCESS_CHANGED,
            f"the focused window could not be verified: the probe failed ({'d' * 120}).",
            SNAP,
            "S-FRESH-06",
            "obs-1",
        ),
    ),
    (
        "probe-failed-silently",
        click(),
        _ok_view(probe=Probe(status="failed")),
        CFG,
        T0,
        (
            Code.PROCESS_CHANGED,
            "the focused window could not be verified: the probe failed (no detail).",
            SNAP,
            "S-FRESH-06",
            "obs-1",
        ),
    ),
    (
        "no-window-recorded",
        click(),
        view(observation("obs-1", tree="skipped"), probe=probe_ok(NOTEPAD)),
        CFG,
        T0,
        (
            Code.PROCESS_CHANGED,
            "obs-1 (Snapshot) did not record the focused window, so a window change cannot be ruled out.",
            SNAP,
            "S-FRESH-06",
            "obs-1",
        ),
    ),
    (
        "window-changed",
        click(),
        _ok_view(probe=probe_ok(window("Settings", 5))),
        CFG,
        T0,
        (
            Code.PROCESS_CHANGED,
            'the focused window was "notes.txt - Notepad" (handle 1706796) in obs-1 and is now "Settings" (handle 5).',
            "take a new Snapshot, check that the window you mean is in front, and act on that observation",
            "S-FRESH-06",
            "obs-1",
        ),
    ),
]


@requirement("S-FRESH-01", "S-FRESH-02", "S-FRESH-03", "S-FRESH-04", "S-FRESH-06", "S-FRESH-10")
@pytest.mark.parametrize(
    ("tool_call", "v", "config", "now", "expected"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_each_freshness_refusal_names_its_requirement_its_basis_and_what_to_do(
    tool_call: object, v: object, config: PolicyConfig, now: float, expected: tuple[object, ...]
) -> None:
    """S-FRESH-01..06, S-FRESH-10: every refusal of the gate, in full: code, reason, remedy, spec and basis."""
    d = check_freshness(tool_call, v, config, now)  # type: ignore[arg-type]
    assert d is not None
    assert (d.code, d.reason, d.remedy, d.spec, d.observation) == expected


@requirement("S-FRESH-02")
@pytest.mark.parametrize(("foreign", "audited"), [(frozenset({"obs-9"}), "yes"), (frozenset(), "no")])
def test_an_unknown_and_a_foreign_id_differ_only_in_the_audit_detail(foreign: frozenset[str], audited: str) -> None:
    """S-FRESH-02: the same words for the model; the audit-only detail says whether the id was another session's."""
    d = check_freshness(click(based_on="obs-9"), view(observation("obs-1"), foreign=foreign), CFG, T0)
    assert d is not None and d.detail == (("foreign_session", audited),)


ALLOW_NOTES = PolicyConfig(allowed_windows=("Settings",))


@requirement("S-FRESH-07")
@pytest.mark.parametrize(
    ("v", "config", "what"),
    [
        (_ok_view(), ALLOW_NOTES, '"notes.txt - Notepad" (handle 1706796)'),  # the probe's window
        (_ok_view(probe=NOT_PROBED), ALLOW_NOTES, '"notes.txt - Notepad" (handle 1706796)'),  # else the basis's
        (view(observation("obs-1", tree="skipped"), probe=NOT_PROBED), ALLOW_NOTES, "unknown"),
        (_ok_view(probe=probe_ok(None)), ALLOW_NOTES, "no focused window"),
    ],
    ids=["probed", "basis", "unknown", "none"],
)
def test_a_window_outside_the_allowlist_is_named_with_the_allowlist(v: object, config: PolicyConfig, what: str) -> None:
    """S-FRESH-07: WINDOW_NOT_ALLOWED names the focused window (or "unknown") and the patterns it missed."""
    d = check_window(click(), v, config)  # type: ignore[arg-type]
    assert d is not None
    assert (d.code, d.reason, d.remedy, d.spec) == (
        Code.WINDOW_NOT_ALLOWED,
        f"the focused window is {what}, which matches none of allowed_windows ['Settings'].",
        "bring an allowed window to the front, take a Snapshot, and repeat the call citing it",
        "S-FRESH-07",
    )


@requirement("S-FRESH-08")
def test_an_image_without_a_mapping_warns_in_full() -> None:
    """S-FRESH-08: the MAPPING_INCOMPLETE warning says why coordinates may be off and that tree ones are not."""
    v = view(observation("obs-1", image_size=(1920, 1080)))
    assert freshness_warnings(click(), v, CFG) == (
        f"{Warn.MAPPING_INCOMPLETE}: obs-1 has an image but no image-to-screen mapping; coordinates read off that "
        "image may be off. UI-tree coordinates are screen coordinates already.",
    )
