"""A registry key tree's delete is `recursive-delete` in every spelling (S-RULE-191).

Before, `Remove-Item HKCU:\\Software\\Acme -Recurse` was refused by the text rules while `reg delete
HKCU\\Software\\Acme /f`, `DeleteSubKeyTree` and the Registry tool's key delete — each as recursive —
passed: three spellings, three verdicts. Now the effect table refuses the tree in each.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import RECURSIVE
from policy.rules.match import load_rules
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.test_typed import capture_of, focus_point, hit_of
from tests.policy.verdicts import ps, ps_effects, verdict

TREE = ("recursive-delete", "deny")


@requirement("S-RULE-191")
@pytest.mark.parametrize(
    "command",
    [
        r"reg delete HKCU\Software\Acme /f",
        r"reg delete HKCU\Software\Acme",
        r'reg.exe DELETE "hkcu\software\acme" /F',
        r"cmd /c reg delete HKEY_CURRENT_USER\Software\Acme /f",
        r'cmd /c "reg del^ete HKCU\Software\Acme /f"',
        r"[Microsoft.Win32.Registry]::CurrentUser.DeleteSubKeyTree('Software\Acme')",
        r"[Microsoft.Win32.Registry]::CurrentUser.DeleteSubKeyTree('Software\Acme', $false)",
        r"$k = [Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Software', $true); $k.DeleteSubKeyTree('Acme')",
        r"Remove-Item HKCU:\Software\Acme -Recurse",
        r"Remove-Item Registry::HKEY_CURRENT_USER\Software\Acme -Recurse -Force",
        r"Get-Item HKCU:\Software\Acme | Remove-Item -Recurse",
        r"$t = 'HKCU\Software\' + 'Acme'; reg delete $t /f",
    ],
)
def test_a_key_tree_is_refused_in_every_spelling(command: str) -> None:
    """S-RULE-191: the key with everything below it, however it is spelled."""
    assert ps(command) == TREE


@requirement("S-RULE-191")
@pytest.mark.parametrize(
    "args",
    [
        {"mode": "delete", "path": "HKCU:\\Software\\Demo"},
        {"mode": "delete", "path": "HKCU:\\Software\\MyApp\\Cache"},
        {"mode": "delete", "path": "hkcu:/software/acme"},
        {"mode": "DELETE", "path": "HKEY_CURRENT_USER\\Software\\Acme"},
    ],
)
def test_the_registry_tools_key_delete_is_a_tree(args: dict[str, object]) -> None:
    """S-RULE-191: upstream removes the whole key when no value is named."""
    assert verdict("Registry", **args) == TREE


@requirement("S-RULE-191")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("PowerShell", {"command": r"reg delete HKCU\Software\Acme /v Theme /f"}),
        ("PowerShell", {"command": r"reg delete HKCU\Software\Acme /ve /f"}),
        ("PowerShell", {"command": r"reg delete HKCU\Software\Acme /va /f"}),
        ("PowerShell", {"command": r"reg query HKCU\Software\Acme /s"}),
        ("PowerShell", {"command": r"[Microsoft.Win32.Registry]::CurrentUser.DeleteSubKey('Software\Acme\Empty')"}),
        ("PowerShell", {"command": r"Remove-Item HKCU:\Software\Acme"}),
        ("PowerShell", {"command": r"Remove-ItemProperty HKCU:\Software\Acme -Name Theme"}),
        ("Registry", {"mode": "delete", "path": "HKCU:\\Software\\Demo", "name": "Value1"}),
        ("Registry", {"mode": "list", "path": "HKCU:\\Software\\Demo"}),
    ],
)
def test_one_value_an_empty_key_and_reading_stay_ordinary(tool: str, args: dict[str, object]) -> None:
    """S-RULE-191: what removes no tree is not refused as one."""
    assert verdict(tool, **args) is None


@requirement("S-RULE-191")
def test_machine_hives_and_top_keys_keep_their_own_rows() -> None:
    """S-RULE-191: the new row comes after the broader refusals, whose reasons say more."""
    assert ps(r"reg delete HKLM\SOFTWARE\Contoso /f") == ("registry-delete-machine-hive", "deny")
    assert ps(r"reg delete HKCU\Software /f") == ("registry-delete-top-key", "deny")
    assert verdict("Registry", mode="delete", path="HKCU:\\Software\\Microsoft") == ("registry-delete-top-key", "deny")


@requirement("S-RULE-191")
def test_reg_delete_without_a_value_is_recorded_as_recursive() -> None:
    """S-RULE-191: the effect says what `reg` does: the key and its subkeys."""
    (tree,) = ps_effects(r"reg delete HKCU\Software\Acme /f")
    assert tree.kind is EffectKind.REGISTRY_DELETE and RECURSIVE[0] in tree.extra
    (one,) = ps_effects(r"reg delete HKCU\Software\Acme /v Theme /f")
    assert RECURSIVE[0] not in one.extra and one.value_name == "Theme"


@requirement("S-RULE-191")
def test_the_reason_names_the_key_and_one_exemption_covers_both_trees() -> None:
    """S-RULE-191: the refusal says which key; `allow_rules = ["recursive-delete"]` lets a folder tree and a
    key tree through alike (and nothing else)."""
    hit = load_rules().match("PowerShell", {"command": r"reg delete HKCU\Software\Acme /f"})
    assert hit is not None and "registry key hkcu\\software\\acme" in hit.reason.lower()
    exempt = load_rules(allow_rules=["recursive-delete"])
    assert exempt.match("Registry", {"mode": "delete", "path": "HKCU:\\Software\\Demo"}) is None
    assert exempt.match("FileSystem", {"mode": "delete", "path": "C:\\t\\build", "recursive": True}) is None
    still = exempt.match("PowerShell", {"command": r"reg delete HKCU\Software /f"})
    assert still is not None and still.rule_id == "registry-delete-top-key"


@requirement("S-RULE-191")
@pytest.mark.parametrize(
    ("scenario", "text", "enter"),
    [
        ("console-cmd", r"reg delete HKCU\Software\Acme /f", True),
        ("console-powershell", r"[Microsoft.Win32.Registry]::CurrentUser.DeleteSubKeyTree('Software\Acme')", False),
        ("run-box", r"reg delete HKCU\Software\Acme /f", True),
    ],
)
def test_a_key_tree_typed_into_a_shell_is_refused_as_sent(scenario: str, text: str, enter: bool) -> None:
    """S-RULE-191: the keyboard is a shell (issue 18 item 4): the same verdict typed as sent."""
    loc = focus_point(capture_of(scenario))
    assert hit_of(scenario, "Type", loc=loc, text=text, press_enter=enter) == TREE
    assert hit_of(scenario, "Type", loc=loc, text=r"reg query HKCU\Software\Acme", press_enter=True) is None
