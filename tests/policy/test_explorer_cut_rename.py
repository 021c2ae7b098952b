"""File Explorer's Cut (Ctrl+X) and Rename (F2) take the selected item out of its place (S-RULE-218).

Before, Delete on `hal.dll` in System32 was refused (S-RULE-153) while Ctrl+X there, then Ctrl+V in Downloads (a
paste of unknown files into an ordinary folder), moved it out of System32; and F2, then a new name typed into the
rename box (text in an edit box, no command) and Enter, renamed it. Either breaks Windows as the delete would.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_explorer_delete import showing
from tests.policy.test_typed import capture_of, hit_on

SYSTEM32 = capture_of("explorer-system32")


@requirement("S-RULE-218")
@pytest.mark.parametrize("key", ["ctrl+x", "Ctrl+X", "f2", "F2"])
def test_cut_and_rename_of_a_system_file_are_refused(key: str) -> None:
    """S-RULE-218: the item leaves its place at the next paste, or under the next name typed."""
    assert hit_on(SYSTEM32, "Shortcut", shortcut=key) == ("protected-place-delete", "deny")


@requirement("S-RULE-218")
@pytest.mark.parametrize(
    ("folder", "item", "expected"),
    [
        ("C:\\Users\\demo\\.ssh", "id_ed25519", ("credential-access", "deny")),
        ("C:\\Users", "demo", ("protected-place-delete", "deny")),
        ("C:\\Users\\demo\\Documents", "report.docx", None),  # one document: ordinary
        ("C:\\Users\\demo\\Downloads", None, None),  # whichever item, one of them: ordinary
    ],
)
def test_the_focused_item_or_any_item_is_judged_as_for_delete(folder: str, item: str | None, expected: object) -> None:
    """S-RULE-218: the same item S-RULE-153's Delete would take."""
    assert hit_on(showing(folder, item), "Shortcut", shortcut="ctrl+x") == expected
    assert hit_on(showing(folder, item), "Shortcut", shortcut="f2") == expected


@requirement("S-RULE-218")
def test_the_reason_says_what_the_key_does() -> None:
    """S-RULE-218: cut and rename are named as such, not as a delete."""
    from policy.context import SessionView
    from policy.observation import Observation
    from policy.typed import typed_hit
    from tests.policy._world import T0, call, context
    from tests.policy.test_typed import RULES

    obs = Observation(id="obs-1", session="s1", generation=1, taken_at_ms=T0, capture=SYSTEM32)
    view = SessionView(session="s1", observations={"obs-1": obs}, latest_id="obs-1", generation=1)
    cut = typed_hit(call("Shortcut", shortcut="ctrl+x"), context(view, rules=RULES))
    renamed = typed_hit(call("Shortcut", shortcut="f2"), context(view, rules=RULES))
    assert cut is not None and cut.reason.startswith("this key cuts what is selected in File Explorer")
    assert "the next paste anywhere moves it out of its folder" in cut.reason
    assert renamed is not None and renamed.reason.startswith("this key renames what is selected")


@requirement("S-RULE-218")
@pytest.mark.parametrize("key", ["ctrl+c", "shift+f2", "ctrl+f2", "x", "f5"])
def test_copy_and_other_keys_take_nothing(key: str) -> None:
    """S-RULE-218: a copy leaves the item where it is; other keys are not cut or rename."""
    assert hit_on(SYSTEM32, "Shortcut", shortcut=key) is None


@requirement("S-RULE-218")
def test_in_the_address_box_the_keys_edit_text() -> None:
    """S-RULE-218: with the keyboard in the address box, Ctrl+X cuts text and F2 does nothing to a file."""
    address = capture_of("explorer-address")
    assert hit_on(address, "Shortcut", shortcut="ctrl+x") is None
    assert hit_on(address, "Shortcut", shortcut="f2") is None
