"""Every corpus call's whole judgement equals its recorded line (S-RULE-62; tests/policy/golden.py)."""

from __future__ import annotations

import difflib
import json

from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy import golden


@requirement("S-RULE-62")
def test_every_corpus_judgement_equals_its_recorded_line() -> None:
    """S-RULE-62: rule, action, reason and effects of each corpus call are as recorded; a difference is shown
    as a diff of the first calls that changed (regenerate with UPDATE_GOLDEN=1 and review it)."""
    now = golden.current_lines(load_rules())
    if golden.update_requested():
        golden.write(now)
    recorded = golden.recorded_lines()
    assert recorded, f"{golden.GOLDEN} is missing: run with {golden.UPDATE_ENV}=1 and review it"
    if now != recorded:
        diff = list(difflib.unified_diff(recorded, now, "recorded", "now", n=0, lineterm=""))
        raise AssertionError(f"{len(diff)} diff lines; first ones:\n" + "\n".join(diff[:12]))


@requirement("S-RULE-62")
def test_the_record_covers_the_whole_corpus_in_order_and_every_line_is_one_json_object() -> None:
    """S-RULE-62: one line per corpus call, in corpus order, each a JSON object naming its tool and arguments."""
    calls = list(golden.corpus_calls())
    recorded = [json.loads(x) for x in golden.recorded_lines()]
    assert len(recorded) == len(calls)
    assert [(r["tool"], r["args"]) for r in recorded] == [(t, json.loads(json.dumps(a))) for t, a in calls]
    assert all(r["hit"] is None or len(r["hit"]) == 4 for r in recorded)
