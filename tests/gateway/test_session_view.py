"""The session view one call is decided on, and what it costs to build (S-PERF-07, S-FRESH-02, S-FRESH-04).

The store remembers up to `REMEMBERED_IDS` dropped ids per session and as many owners: the view
must answer for the id a call names without listing them, and answer the same as before.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gateway.pipeline.policy_world import session_view
from gateway.state.store import REMEMBERED_IDS, ObservationStore
from policy import PROBE_PENDING, ToolCall
from policy.decision import Code
from policy.freshness import basis_of
from policy.observation import Capture
from tests._requirements import requirement


def _store(per_session: int, history: int = 4) -> ObservationStore:
    store = ObservationStore(history=history)
    for _ in range(per_session):
        for session in ("a", "b"):  # interleaved: a's ids are obs-1, obs-3, …; b's obs-2, obs-4, …
            store.record(session=session, capture=Capture(tool="Snapshot"), mapping=None, now_ms=0.0, generation=1)
    return store


def _cite(store: ObservationStore, cited: object) -> tuple[Code | None, dict[str, str]]:
    view = session_view(SimpleNamespace(store=store), "a", PROBE_PENDING, cited)  # type: ignore[arg-type]
    call = ToolCall(tool="Click", args={"loc": [1, 1]}, session="a", based_on=cited)  # type: ignore[arg-type]
    basis, refusal = basis_of(call, view)
    detail = dict(refusal.detail) if refusal is not None else {}
    return (None if refusal is None else refusal.code), detail | ({"basis": basis.id} if basis else {})


@requirement("S-FRESH-04", "S-FRESH-02")
@pytest.mark.parametrize(
    ("cited", "code", "detail"),
    [
        ("obs-599", None, {"basis": "obs-599"}),  # a's newest: held
        ("obs-1", Code.STALE_OBSERVATION, {}),  # a's first: dropped from its history
        ("obs-2", Code.UNKNOWN_OBSERVATION, {"foreign_session": "yes"}),  # b's
        ("obs-600", Code.UNKNOWN_OBSERVATION, {"foreign_session": "yes"}),  # b's newest
        ("obs-99999", Code.UNKNOWN_OBSERVATION, {"foreign_session": "no"}),  # never issued
        (None, None, {"basis": "obs-599"}),  # no based_on: the newest
    ],
    ids=["held", "dropped", "foreign", "foreign-newest", "never-issued", "uncited"],
)
def test_a_cited_id_is_judged_as_held_dropped_foreign_or_unknown(
    cited: object, code: Code | None, detail: dict
) -> None:
    """S-FRESH-04, S-FRESH-02: the narrowed view still tells a dropped id (STALE) from another session's and a
    never-issued one (UNKNOWN, foreign only in the audit detail)."""
    got_code, got_detail = _cite(_store(300), cited)
    assert got_code == code
    assert {k: v for k, v in got_detail.items() if k in detail} == detail


@requirement("S-PERF-07")
def test_the_view_of_one_call_holds_only_what_that_call_can_name_however_long_the_run() -> None:
    """S-PERF-07: after more observations than the store remembers, a call's view lists at most the cited id and
    the newest as retired and at most the cited id as foreign; the held history stays its bounded size."""
    store = _store(REMEMBERED_IDS // 2 + 50)
    for cited in ("obs-1", "obs-3", "obs-2", None):
        view = session_view(SimpleNamespace(store=store), "a", PROBE_PENDING, cited)  # type: ignore[arg-type]
        assert len(view.observations) == 4 and len(view.retired) <= 2 and len(view.foreign_ids) <= 1
    view = session_view(SimpleNamespace(store=store), "a", PROBE_PENDING, "obs-3")  # type: ignore[arg-type]
    assert "obs-3" in view.retired  # dropped long ago, still remembered


@requirement("S-PERF-07")
def test_the_oldest_dropped_ids_are_forgotten_past_the_bound() -> None:
    """S-PERF-07: memory stays flat: past `REMEMBERED_IDS` dropped ids of a session, the oldest is forgotten
    (citing it is then UNKNOWN, not STALE) and the newest dropped one is still known."""
    store = ObservationStore(history=1)
    for _ in range(REMEMBERED_IDS + 3):
        store.record(session="a", capture=Capture(tool="Snapshot"), mapping=None, now_ms=0.0, generation=1)
    assert not store.was_dropped("a", "obs-1") and store.was_dropped("a", "obs-4")
    assert store.last_dropped("a") == f"obs-{REMEMBERED_IDS + 2}"
    assert not store.is_foreign("a", "obs-4") and not store.is_foreign("b", "obs-1")  # obs-1 long forgotten
