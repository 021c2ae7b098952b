"""The freshness gate and the window allowlist (S-FRESH-01..09), table-driven, no mocks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from policy import (
    NOT_PROBED,
    Code,
    PolicyConfig,
    Probe,
    Verdict,
    Warn,
    check_freshness,
    check_window,
    decide,
    refusal_text,
    window_matches,
)
from policy.observation import Element
from policy.observation import Mapping as ImageMapping
from tests._requirements import requirement
from tests.policy._world import (
    NOTEPAD,
    NOTEPAD_TREE,
    OTHER,
    SETTINGS,
    T0,
    call,
    click,
    context,
    observation,
    probe_ok,
    view,
    window,
)

CFG = PolicyConfig()
OTHER_WINDOW = window("Example Domain - Google Chrome", 99)


def code_of(c: object, v: object, now: float = T0, config: PolicyConfig = CFG) -> Code | None:
    d = check_freshness(c, v, config, now)  # type: ignore[arg-type]
    return None if d is None else d.code


@requirement("S-FRESH-01")
@pytest.mark.parametrize("tool_call", [click(), call("Type", text="hi"), call("Shortcut", shortcut="ctrl+s")])
def test_an_input_call_without_any_observation_is_refused(tool_call: object) -> None:
    """S-FRESH-01: no observation in this session → NO_OBSERVATION, with a Snapshot remedy."""
    d = decide(tool_call, context(view()), T0)  # type: ignore[arg-type]
    assert d.code is Code.NO_OBSERVATION
    assert "Snapshot" in d.remedy


@requirement("S-FRESH-01")
@pytest.mark.parametrize(
    "tool_call",
    [
        call("Snapshot"),
        call("Screenshot"),
        call("Scrape", url="https://example.com"),
        call("Wait", duration=1),
        call("winmcp_state"),
        call("Notification", title="t", message="m", app_id="a"),
    ],
)
def test_non_input_tools_are_never_freshness_gated(tool_call: object) -> None:
    """S-FRESH-01: READ_ONLY, SYSTEM and own tools pass with no observation at all."""
    assert decide(tool_call, context(view()), T0).verdict is Verdict.ALLOW  # type: ignore[arg-type]


@requirement("S-FRESH-02")
@pytest.mark.parametrize(
    "based_on",
    ["obs-99", "", "   ", 3, 1.5, True, ["obs-1"], {"id": "obs-1"}, "OBS-1", "obs-1 "],
)
def test_a_citation_that_names_no_observation_of_this_session_is_refused(based_on: object) -> None:
    """S-FRESH-02: unknown ids, empty strings and non-strings are UNKNOWN_OBSERVATION."""
    v = view(observation("obs-1"))
    assert code_of(click(based_on=based_on), v) is Code.UNKNOWN_OBSERVATION


@requirement("S-FRESH-02")
def test_another_sessions_observation_is_refused_without_revealing_it() -> None:
    """S-FRESH-02: a foreign id gets the same words as an unknown one and nothing of its content."""
    v = view(observation("obs-1"), foreign=frozenset({"obs-7"}))
    foreign = check_freshness(click(based_on="obs-7"), v, CFG, T0)
    unknown = check_freshness(click(based_on="obs-8"), v, CFG, T0)
    assert foreign is not None and unknown is not None
    assert foreign.code is Code.UNKNOWN_OBSERVATION
    assert refusal_text(foreign).replace("obs-7", "X") == refusal_text(unknown).replace("obs-8", "X")
    assert ("foreign_session", "yes") in foreign.detail  # the audit may know, the model does not


@requirement("S-FRESH-02")
def test_a_foreign_observation_cannot_be_cited_even_through_decide() -> None:
    """S-FRESH-02: the other session's window title never reaches the refusal text."""
    secret = observation("obs-7", session=OTHER, focused=window("Secret Bank - Chrome", 99))
    v = view(observation("obs-1"), foreign=frozenset({secret.id}))
    d = decide(click(based_on="obs-7"), context(v), T0)
    assert d.code is Code.UNKNOWN_OBSERVATION
    assert "Secret" not in refusal_text(d)


@requirement("S-FRESH-03")
@pytest.mark.parametrize(
    ("max_age", "age", "stale"),
    [
        (60_000, 0, False),
        (60_000, 59_999, False),
        (60_000, 60_000, False),  # "older than" the limit: equal is still fresh
        (60_000, 60_001, True),
        (60_000, 3_600_000, True),
        (60_000, -1, True),  # stamped after now: the clock moved, do not trust it
        (0, 0, False),
        (0, 1, True),
    ],
)
def test_an_observation_older_than_the_limit_is_stale(max_age: int, age: int, stale: bool) -> None:
    """S-FRESH-03: age > max_observation_age_ms (or negative) → STALE_OBSERVATION."""
    cfg = PolicyConfig(max_observation_age_ms=max_age)
    v = view(observation("obs-1", taken_at_ms=T0))
    assert code_of(click(), v, T0 + age, cfg) is (Code.STALE_OBSERVATION if stale else None)


@requirement("S-FRESH-04")
def test_citing_a_superseded_observation_is_stale_and_the_latest_is_the_default_basis() -> None:
    """S-FRESH-04: obs-1 after obs-2 is STALE; no based_on uses obs-2; citing obs-2 passes."""
    v = view(observation("obs-1"), observation("obs-2", generation=2))
    old = check_freshness(click(based_on="obs-1"), v, CFG, T0)
    assert old is not None and old.code is Code.STALE_OBSERVATION and "obs-2" in old.reason
    assert check_freshness(click(based_on="obs-2"), v, CFG, T0) is None
    d = decide(click(), context(v), T0)
    assert d.verdict is Verdict.ALLOW and d.observation == "obs-2"


@requirement("S-FRESH-04")
@pytest.mark.parametrize("cite", [True, False])
def test_retired_observations_are_stale(cite: bool) -> None:
    """S-FRESH-04: an id the shell retired (upstream restarted, dropped) is STALE, cited or latest."""
    v = view(latest="obs-2", retired={"obs-2": "upstream restarted since"}, probe=probe_ok(NOTEPAD))
    d = check_freshness(click(based_on="obs-2" if cite else None), v, CFG, T0)
    assert d is not None and d.code is Code.STALE_OBSERVATION and "restarted" in d.reason


UNPROBED = PolicyConfig(require_process_match=False)
MOVED = tuple(replace(e, point=(e.point[0] + 40, e.point[1])) if e.point else e for e in NOTEPAD_TREE)
SCROLLED_ELSEWHERE = tuple(replace(e, point=(900, 600)) if e.meta else e for e in NOTEPAD_TREE)
TYPED = tuple(
    replace(e, meta=(("value", "hello"),)) if e.control == "document" and not e.meta else e for e in NOTEPAD_TREE
)


@requirement("S-FRESH-05")
@pytest.mark.parametrize(
    ("tool_call", "obs_gen", "now_gen", "probe", "config", "expected"),
    [
        # unprobed (require_process_match off): the generation says whether the table is still the one seen
        (call("Click", label=3), 3, 4, NOT_PROBED, UNPROBED, Code.STALE_OBSERVATION),  # someone captured since
        (call("Click", label=3), 3, 3, NOT_PROBED, UNPROBED, None),
        (call("MultiSelect", labels=[1, 2]), 3, 5, NOT_PROBED, UNPROBED, Code.STALE_OBSERVATION),
        (call("MultiEdit", labels=[[1, "a"]]), 3, 4, NOT_PROBED, UNPROBED, Code.STALE_OBSERVATION),
        (call("Type", label=1, text="x"), 3, 4, NOT_PROBED, UNPROBED, Code.STALE_OBSERVATION),
        (call("Click", loc=[1, 2]), 3, 9, probe_ok(NOTEPAD), CFG, None),  # coordinates do not use the table
        # probed with the full tree: the probe's table must be the observed one
        (call("Click", label=3), 3, 4, probe_ok(NOTEPAD, tree=NOTEPAD_TREE), CFG, None),
        (call("Click", label=3), 3, 9, probe_ok(NOTEPAD, tree=NOTEPAD_TREE), CFG, None),  # re-established
        (call("Click", label=3), 3, 4, probe_ok(NOTEPAD, tree=MOVED), CFG, Code.STALE_OBSERVATION),
        (call("Click", label=3), 3, 4, probe_ok(NOTEPAD, tree=NOTEPAD_TREE[:-1]), CFG, Code.STALE_OBSERVATION),
        (call("Click", label=3), 3, 4, probe_ok(NOTEPAD, tree=SCROLLED_ELSEWHERE), CFG, None),  # random points
        (call("Click", label=3), 3, 4, probe_ok(NOTEPAD, tree=TYPED), CFG, None),  # values move no label
        (call("Click", label=3), 3, 4, probe_ok(NOTEPAD), CFG, Code.STALE_OBSERVATION),  # a region probe
        (call("Click", label=3), 3, 4, probe_ok(OTHER_WINDOW, tree=NOTEPAD_TREE), CFG, Code.PROCESS_CHANGED),
        (call("Click", label=3), 3, 3, Probe(status="failed", detail="x"), CFG, Code.PROCESS_CHANGED),
        (call("Click", label=3), 3, 3, NOT_PROBED, CFG, Code.POLICY_ERROR),  # the shell must probe labels too
        (
            call("MultiSelect", labels=[1], locs=[[5, 5]]),
            3,
            4,
            probe_ok(NOTEPAD, tree=MOVED),
            CFG,
            Code.STALE_OBSERVATION,
        ),
    ],
)
def test_a_label_acts_only_on_the_table_the_model_saw(
    tool_call: object, obs_gen: int, now_gen: int, probe: Probe, config: PolicyConfig, expected: Code | None
) -> None:
    """S-FRESH-05: unprobed, a capture since is STALE; probed, the probe's table must equal the observed one."""
    v = view(observation("obs-1", generation=obs_gen), generation=now_gen, probe=probe)
    assert code_of(tool_call, v, config=config) is expected


BROWSER = "Example Domain - Google Chrome"
WITH_BROWSER = (
    Element(kind="window", control="window", name=BROWSER, window=BROWSER),
    Element(kind="element", control="link", name="Learn more", point=(650, 330), depth=1, window=BROWSER),
    Element(kind="text", control="text", name="Example Domain", depth=1, window=BROWSER),
    *NOTEPAD_TREE,
)


@requirement("S-FRESH-05")
@pytest.mark.parametrize(
    ("basis", "tool_call", "expected", "words"),
    [
        (observation("obs-1"), call("Click", label=13), None, ""),  # the last one: the scrollable document
        (observation("obs-1"), call("Click", label=14), Code.LABEL_UNVERIFIABLE, "out of range"),
        (observation("obs-1"), call("Click", label=-1), Code.LABEL_UNVERIFIABLE, "out of range"),
        (observation("obs-1"), call("Click", label="2"), None, ""),
        (observation("obs-1"), call("Click", label=1.5), Code.LABEL_UNVERIFIABLE, "whole number"),
        (observation("obs-1"), call("MultiSelect", labels="1,2"), Code.LABEL_UNVERIFIABLE, "whole number"),
        (observation("obs-1"), call("MultiEdit", labels=[[2, "a"], [99, "b"]]), Code.LABEL_UNVERIFIABLE, "99"),
        (observation("obs-1", elements=WITH_BROWSER), call("Click", label=0), Code.LABEL_UNVERIFIABLE, "browser"),
        (observation("obs-1", use_dom=True), call("Click", label=0), Code.LABEL_UNVERIFIABLE, "DOM"),
        (observation("obs-1", elements=()), call("Click", label=0), Code.LABEL_UNVERIFIABLE, "out of range"),
    ],
)
def test_a_label_the_observation_cannot_place_is_refused_with_the_loc_remedy(
    basis: object, tool_call: object, expected: Code | None, words: str
) -> None:
    """S-FRESH-05: out of range, a browser window's unprinted chrome, a DOM capture: LABEL_UNVERIFIABLE, cite a loc."""
    tree = basis.capture.elements  # type: ignore[attr-defined]
    v = view(basis, probe=probe_ok(NOTEPAD, tree=tree))  # type: ignore[arg-type]
    d = check_freshness(tool_call, v, CFG, T0)  # type: ignore[arg-type]
    assert (None if d is None else d.code) is expected
    if d is not None:
        assert words in d.reason and "cite a loc from the tree" in d.remedy


@requirement("S-FRESH-06")
@pytest.mark.parametrize(
    ("basis_window", "probe", "expected"),
    [
        (NOTEPAD, probe_ok(NOTEPAD), None),
        (
            NOTEPAD,
            probe_ok(window("notes.txt - Notepad", 4242)),
            Code.PROCESS_CHANGED,
        ),  # same title, new handle
        (
            NOTEPAD,
            probe_ok(window("Untitled - Notepad", NOTEPAD.handle)),
            Code.PROCESS_CHANGED,
        ),  # same handle
        (NOTEPAD, probe_ok(SETTINGS), Code.PROCESS_CHANGED),
        (NOTEPAD, probe_ok(None), Code.PROCESS_CHANGED),  # nothing focused any more
        (None, probe_ok(NOTEPAD), Code.PROCESS_CHANGED),
        (None, probe_ok(None), None),
        (NOTEPAD, Probe(status="failed", detail="timeout"), Code.PROCESS_CHANGED),  # fail closed
        (NOTEPAD, NOT_PROBED, Code.POLICY_ERROR),  # a gateway that skipped the probe is at fault
    ],
)
def test_a_changed_focused_window_is_refused(basis_window: object, probe: Probe, expected: Code | None) -> None:
    """S-FRESH-06: handle or name differing from the basis, a failed or missing probe → refused."""
    v = view(observation("obs-1", focused=basis_window), probe=probe)  # type: ignore[arg-type]
    assert code_of(click(), v) is expected


@requirement("S-FRESH-06")
@pytest.mark.parametrize(("tool", "tree"), [("Screenshot", "skipped"), ("Snapshot", "no_elements")])
@pytest.mark.parametrize("now_focused", [NOTEPAD, None], ids=["window-now", "no-window-now"])
def test_a_basis_that_recorded_no_window_cannot_vouch_for_the_window(tool: str, tree: str, now_focused: object) -> None:
    """S-FRESH-06: a basis without window info (Screenshot, no UI tree) → PROCESS_CHANGED, whatever is now."""
    basis = observation("obs-1", tool=tool, tree=tree, focused=None)  # type: ignore[arg-type]
    d = check_freshness(click(), view(basis, probe=probe_ok(now_focused)), CFG, T0)  # type: ignore[arg-type]
    assert d is not None and d.code is Code.PROCESS_CHANGED
    assert "did not record the focused window" in d.reason and "Snapshot" in d.remedy


@requirement("S-FRESH-06")
def test_a_failed_probe_is_refused_and_says_why() -> None:
    """S-FRESH-06: fail closed — a probe without an answer is PROCESS_CHANGED naming the probe failure."""
    v = view(observation("obs-1"), probe=Probe(status="failed", detail="upstream timed out\nafter 5 s"))
    d = check_freshness(click(), v, CFG, T0)
    assert d is not None and d.code is Code.PROCESS_CHANGED
    assert "probe failed (upstream timed out after 5 s)" in d.reason


@requirement("S-FRESH-06")
@pytest.mark.parametrize(
    "tool_call", [call("Click", label=2), call("Type", label=6, text="x"), call("MultiSelect", labels=[1])]
)
def test_a_label_call_gets_the_window_drift_check_coordinates_get(tool_call: object) -> None:
    """S-FRESH-06: no exception for labels — focus moved since the basis is PROCESS_CHANGED, unprobed a fault."""
    moved = view(observation("obs-1"), probe=probe_ok(OTHER_WINDOW, tree=NOTEPAD_TREE))
    assert code_of(tool_call, moved) is Code.PROCESS_CHANGED
    assert code_of(tool_call, view(observation("obs-1"), probe=NOT_PROBED)) is Code.POLICY_ERROR
    same = view(observation("obs-1"), probe=probe_ok(NOTEPAD, tree=NOTEPAD_TREE))
    d = decide(tool_call, context(same), T0)  # type: ignore[arg-type]
    assert d.verdict is Verdict.ALLOW and d.warnings == ()


@requirement("S-FRESH-07")
@pytest.mark.parametrize(
    ("title", "patterns", "expected"),
    [
        ("notes.txt - Notepad", ("* - Notepad",), True),
        ("notes.txt - Notepad", ("NOTES.TXT - notepad",), True),  # case-insensitive
        ("notes.txt - Notepad", ("Notepad",), False),  # whole title, not a substring
        ("Notepad-lookalike phishing", ("Notepad",), False),
        ("notes.txt - Notepad", ("?otes.txt - Notepad",), True),
        ("notes.txt - Notepad", ("notes.txt - Notepad?",), False),
        ("a.c", ("a.c",), True),
        ("abc", ("a.c",), False),  # regex characters are literal
        ("[x] editor", ("[x] editor",), True),
        ("Settings", ("* - Notepad", "Settings"), True),
        ("", ("*",), True),
    ],
)
def test_allowed_windows_are_whole_title_case_insensitive_globs(
    title: str, patterns: tuple[str, ...], expected: bool
) -> None:
    """S-FRESH-07: `*` and `?` are wildcards, everything else is literal, case is ignored."""
    assert window_matches(title, patterns) is expected


@requirement("S-FRESH-07")
@pytest.mark.parametrize(
    ("basis_window", "probe", "tool_call", "expected"),
    [
        (NOTEPAD, probe_ok(NOTEPAD), click(), None),
        (SETTINGS, probe_ok(SETTINGS), click(), Code.WINDOW_NOT_ALLOWED),
        (NOTEPAD, probe_ok(None), click(), Code.WINDOW_NOT_ALLOWED),  # nothing focused: not allowed
        (NOTEPAD, NOT_PROBED, call("Click", label=1), None),  # basis window when there is no probe
        (SETTINGS, NOT_PROBED, call("Click", label=1), Code.WINDOW_NOT_ALLOWED),
        (SETTINGS, probe_ok(SETTINGS), call("PowerShell", command="x"), None),  # SYSTEM: not window-bound
    ],
)
def test_the_window_allowlist_checks_the_focused_window(
    basis_window: object, probe: Probe, tool_call: object, expected: Code | None
) -> None:
    """S-FRESH-07: INPUT calls need the focused window (probe, else basis) to match allowed_windows."""
    cfg = PolicyConfig(allowed_windows=("* - Notepad",))
    v = view(observation("obs-1", focused=basis_window), probe=probe)  # type: ignore[arg-type]
    d = check_window(tool_call, v, cfg)  # type: ignore[arg-type]
    assert (None if d is None else d.code) is expected


@requirement("S-FRESH-07")
def test_an_unknown_focused_window_is_not_allowed() -> None:
    """S-FRESH-07: a basis without window info and no probe answer matches no pattern (fail closed)."""
    cfg = PolicyConfig(allowed_windows=("*",))
    v = view(observation("obs-1", tool="Screenshot", tree="skipped", focused=None), probe=NOT_PROBED)
    d = check_window(call("Click", label=1), v, cfg)
    assert d is not None and d.code is Code.WINDOW_NOT_ALLOWED and "unknown" in d.reason


MAPPED = ImageMapping(origin=(0.0, 0.0), scale=(1.333333, 1.333333), image_size=(1920, 1080), source_size=(2560, 1440))


@requirement("S-FRESH-08")
@pytest.mark.parametrize(
    ("image_size", "mapping", "tool", "tool_call", "require", "warned"),
    [
        ((1920, 1080), None, "Snapshot", click(), True, True),
        (None, None, "Screenshot", click(), True, True),  # a Screenshot always had an image
        ((1920, 1080), MAPPED, "Snapshot", click(), True, False),
        ((1920, 1080), None, "Snapshot", click(), False, False),  # require_coordinate_mapping = false
        (None, None, "Snapshot", click(), True, False),  # no image: coordinates came from the UI tree
        ((1920, 1080), None, "Snapshot", call("Click", label=1), True, False),  # no coordinates used
    ],
)
def test_a_missing_mapping_only_warns(
    image_size: tuple[int, int] | None,
    mapping: ImageMapping | None,
    tool: str,
    tool_call: object,
    require: bool,
    warned: bool,
) -> None:
    """S-FRESH-08: MAPPING_INCOMPLETE is a warning on an ALLOW, never a refusal."""
    tree = "skipped" if tool == "Screenshot" else "present"
    obs = observation("obs-1", tool=tool, tree=tree, image_size=image_size, mapping=mapping)  # type: ignore[arg-type]
    cfg = PolicyConfig(require_coordinate_mapping=require, require_process_match=tool != "Screenshot")
    d = decide(tool_call, context(view(obs, probe=probe_ok(NOTEPAD, captured=False)), config=cfg), T0)  # type: ignore[arg-type]
    assert d.verdict is Verdict.ALLOW
    assert any(w.startswith(f"{Warn.MAPPING_INCOMPLETE}:") for w in d.warnings) is warned


@requirement("S-FRESH-09")
def test_require_observation_false_lets_uncited_calls_through_but_still_checks_citations() -> None:
    """S-FRESH-09: with require_observation=false nothing cited passes; a fake citation is still refused."""
    cfg = PolicyConfig(require_observation=False)
    assert decide(click(), context(view(), config=cfg), T0).verdict is Verdict.ALLOW
    assert decide(click(based_on="obs-9"), context(view(), config=cfg), T0).code is Code.UNKNOWN_OBSERVATION
    assert PolicyConfig().require_observation is True  # the default gates


@requirement("S-FRESH-09")
def test_require_process_match_false_skips_the_window_drift_check() -> None:
    """S-FRESH-09: with require_process_match=false a changed window is not refused (nor probed)."""
    v = view(observation("obs-1", focused=NOTEPAD), probe=probe_ok(SETTINGS))
    assert code_of(click(), v, config=PolicyConfig(require_process_match=False)) is None
    assert (
        code_of(
            click(),
            view(observation("obs-1"), probe=NOT_PROBED),
            config=PolicyConfig(require_process_match=False),
        )
        is None
    )
    assert code_of(click(), v) is Code.PROCESS_CHANGED
