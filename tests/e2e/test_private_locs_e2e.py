"""`locs` as a JSON string into a private window, end to end: `mcp` client ⇄ gateway ⇄ simulator (S-PRIV-05).

Upstream `json.loads` a string `locs`, and the gateway's argument check passes that spelling on. Until
the mutation run of policy/private.py (issue 12) found it, the private-window step read only a list,
so a MultiSelect or MultiEdit with string `locs` reached a private window behind the focused one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._requirements import requirement
from tests.e2e.harness import first_text, gateway_rig

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

INSIDE = (1300, 400)  # inside the scenario's private window (tests/e2e/test_private_windows_e2e.py)
NOTEPAD = (500, 450)  # inside Notepad, left of it


@requirement("S-PRIV-05")
async def test_string_locs_into_a_private_window_never_arrive(tmp_path: Path) -> None:
    """S-PRIV-05: MultiSelect/MultiEdit with string `locs` on the private window are refused; elsewhere they work."""
    async with gateway_rig(tmp_path, scenario="private-background") as rig:
        await rig.call("Snapshot", {"use_vision": True})
        for tool, locs in (
            ("MultiSelect", f"[[{NOTEPAD[0]}, {NOTEPAD[1]}], [{INSIDE[0]}, {INSIDE[1]}]]"),
            ("MultiEdit", f'[[{INSIDE[0]}, {INSIDE[1]}, "hunter3"]]'),
        ):
            text = first_text(await rig.call(tool, {"locs": locs}))
            assert text.startswith("DENIED PRIVATE_WINDOW: the point [1300, 400] "), (tool, text)
        assert rig.side_effects() == [], "a refused action reached the simulated desktop"
        done = first_text(await rig.call("MultiSelect", {"locs": f"[[{NOTEPAD[0]}, {NOTEPAD[1]}]]"}))
        assert done.startswith("Multi-selected"), done
        assert [e["kind"] for e in rig.side_effects()] == ["multiselect"]
