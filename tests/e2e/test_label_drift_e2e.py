"""Acting by label gets the window-drift check coordinates get (issue 17; S-FRESH-05, S-FRESH-06, S-FLOW-13).

For every label-taking tool, on the simulator: after the focus moved, the window moved or the
window closed, the call is refused and the desktop's event log holds nothing; on an unchanged
desktop it lands exactly on the label's centre in the observed table (samples/01's labels.json,
which the `default` scenario reproduces byte for byte).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests._requirements import SAMPLES, requirement
from tests.e2e.harness import first_text, gateway_rig

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

NOTEPAD = "notes.txt - Notepad"
TABLE = {
    row["label"]: tuple(row["center"])
    for row in json.loads((SAMPLES / "01_snapshot_full_desktop_scale1.labels.json").read_text())
}

# (tool, arguments, the labels it acts on, the event kind upstream records)
LABEL_CALLS: list[tuple[str, dict[str, Any], list[int], str]] = [
    ("Click", {"label": 3}, [3], "click"),
    ("Type", {"label": 0, "text": "hello"}, [0], "type"),
    ("Scroll", {"label": 13}, [13], "scroll"),
    ("Move", {"label": 5}, [5], "move"),
    ("MultiSelect", {"labels": [3, 4]}, [3, 4], "multiselect"),
    ("MultiEdit", {"labels": [[0, "hello"]]}, [0], "multiedit"),
]
DRIFTS: list[tuple[str, dict[str, Any], str]] = [
    ("focus", {"window": "Example Domain - Google Chrome"}, "DENIED PROCESS_CHANGED"),
    ("move", {"window": NOTEPAD, "rect": [260, 130, 1460, 930]}, "DENIED STALE_OBSERVATION"),
    ("close", {"window": NOTEPAD}, "DENIED PROCESS_CHANGED"),
]


@requirement("S-FLOW-13")
@pytest.mark.parametrize(("tool", "args", "labels", "kind"), LABEL_CALLS, ids=[c[0] for c in LABEL_CALLS])
@pytest.mark.parametrize(("op", "fields", "refusal"), DRIFTS, ids=[d[0] for d in DRIFTS])
async def test_a_label_call_after_the_desktop_drifted_is_refused_and_reaches_nothing(
    tmp_path: Path,
    tool: str,
    args: dict[str, Any],
    labels: list[int],
    kind: str,
    op: str,
    fields: dict[str, Any],
    refusal: str,
) -> None:
    """S-FLOW-13: focus change, window move or close after the Snapshot → refused, nothing in the event log."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})
        rig.world(op, **fields)
        text = first_text(await rig.call(tool, args))
        assert text.startswith(refusal), text[:300]
        assert rig.side_effects() == [], "a refused label call reached the simulated desktop"


@requirement("S-FLOW-13")
@pytest.mark.parametrize(("tool", "args", "labels", "kind"), LABEL_CALLS, ids=[c[0] for c in LABEL_CALLS])
async def test_a_label_call_on_an_unchanged_desktop_lands_on_the_labels_centre(
    tmp_path: Path, tool: str, args: dict[str, Any], labels: list[int], kind: str
) -> None:
    """S-FLOW-13: unchanged desktop → forwarded; every event point is the label's centre in the observed table."""
    async with gateway_rig(tmp_path) as rig:
        await rig.call("Snapshot", {})
        result = await rig.call(tool, args)
        assert not first_text(result).startswith("DENIED"), first_text(result)[:300]
        events = [e for e in rig.side_effects() if e["kind"] == kind]
        assert [tuple(e["screen_point"]) for e in events] == [TABLE[n] for n in labels]
        assert all(e["window"] == NOTEPAD for e in events)
        assert "WINDOW_UNVERIFIED" not in json.dumps(result)


@requirement("S-FLOW-13")
async def test_a_label_in_a_browser_window_is_refused_with_the_loc_remedy(tmp_path: Path) -> None:
    """S-FLOW-13: a browser window holds unprinted chrome labels, so its labels cannot be verified."""
    async with gateway_rig(tmp_path, scenario="browser") as rig:
        await rig.call("Snapshot", {})
        text = first_text(await rig.call("Click", {"label": 1}))
        assert text.startswith("DENIED LABEL_UNVERIFIABLE") and "cite a loc from the tree" in text, text[:300]
        assert rig.side_effects() == []
