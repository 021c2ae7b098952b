"""A kill that would end the gateway itself (S-SELF-10): by its pid, or by its interpreter's name."""

from __future__ import annotations

import pytest

from policy.rules.match import RuleLoadError, load_rules
from policy.rules.processes import ends_own_process
from tests._requirements import requirement

OWN = ("4242", "python")
RULES = load_rules(own_processes=["4242", "C:\\Program Files\\Python311\\python.exe"])


def _hit(tool: str, args: dict[str, object]) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-SELF-10")
@pytest.mark.parametrize(
    ("name", "ends"),
    [
        ("4242", True),
        ("pid:4242", True),
        ("04242", True),
        ("python", True),
        ("PYTHON.EXE", True),
        ("C:\\Python311\\python.exe", True),
        ("py*", True),
        ("pyth?n.exe", True),
        ("python3", False),
        ("4243", False),
        ("notepad", False),
        ("n*", False),
    ],
)
def test_ends_own_process_reads_pids_names_paths_and_patterns(name: str, ends: bool) -> None:
    """S-SELF-10: a pid is compared as a number, a name on its canonical form, a pattern by what it could match."""
    assert ends_own_process(name, OWN) is ends


@requirement("S-SELF-10")
def test_nothing_is_own_when_the_gateway_named_nothing() -> None:
    """S-SELF-10: rules loaded without the gateway's processes (a test, the doctor) protect no extra process."""
    assert ends_own_process("python", ()) is False
    assert load_rules().match("Process", {"mode": "kill", "name": "python.exe"}) is None


@requirement("S-SELF-10")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Process", {"mode": "kill", "pid": 4242}),
        ("Process", {"mode": "kill", "pid": 4242, "force": True}),
        ("Process", {"mode": "kill", "name": "python.exe"}),
        ("PowerShell", {"command": "Stop-Process -Id 4242 -Force"}),
        ("PowerShell", {"command": "(Get-Process -Id 4242).Kill()"}),
        ("PowerShell", {"command": "taskkill /pid 4242"}),
        ("PowerShell", {"command": "Get-Process python | Stop-Process"}),
        ("PowerShell", {"command": "taskkill /f /im python.exe"}),
        ("PowerShell", {"command": "Stop-Process -Name py*"}),
        ("PowerShell", {"command": "$n = 'pyt' + 'hon'; Stop-Process -Name $n"}),
        ("PowerShell", {"command": "wmic process where name='python.exe' delete"}),
    ],
    ids=[
        "pid",
        "pid-forced",
        "name",
        "stop-process-id",
        "kill-method",
        "taskkill-pid",
        "pipeline",
        "taskkill-image",
        "pattern",
        "built-name",
        "wmic",
    ],
)
def test_a_kill_that_reaches_the_gateway_is_self_protection(tool: str, args: dict[str, object]) -> None:
    """S-SELF-10: every spelling that ends the gateway's pid or every process of its interpreter is denied."""
    assert _hit(tool, args) == ("self-protection", "deny")


@requirement("S-SELF-10")
@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("Process", {"mode": "kill", "name": "notepad.exe"}, None),
        ("Process", {"mode": "kill", "name": "notepad.exe", "force": True}, ("force-kill", "ask")),
        ("Process", {"mode": "kill", "name": "lsass.exe"}, ("kill-critical-process", "deny")),
        ("Process", {"mode": "kill", "pid": 4243}, ("dynamic-command", "ask")),
        ("PowerShell", {"command": "Get-Process python | Select-Object Id"}, None),
    ],
    ids=["other-name", "other-forced", "critical", "other-pid", "read-only"],
)
def test_other_kills_are_judged_as_before(tool: str, args: dict[str, object], expected: tuple[str, str] | None) -> None:
    """S-SELF-10: only a kill that reaches the gateway changes; listing its interpreter's processes is reading."""
    assert _hit(tool, args) == expected


@requirement("S-SELF-10")
def test_the_guard_on_its_own_process_is_never_exempted_and_holds_with_the_rules_off() -> None:
    """S-SELF-10: `allow_rules` cannot exempt it, and a rule set with analysis off still refuses it."""
    exempting = load_rules(allow_rules=["force-kill", "kill-critical-process"], own_processes=list(OWN))
    hit = exempting.match("PowerShell", {"command": "Stop-Process -Id 4242 -Force"})
    assert hit is not None and (hit.rule_id, hit.action) == ("self-protection", "deny")
    off = type(RULES)(rules=(), own_processes=OWN, analyse=False)
    hit = off.match("Process", {"mode": "kill", "name": "python"})
    assert hit is not None and hit.rule_id == "self-protection"
    assert "ask the user" in hit.reason


@requirement("S-SELF-10")
@pytest.mark.parametrize("bad", ["python", [4242], [None]])
def test_own_processes_must_be_a_list_of_strings(bad: object) -> None:
    """S-SELF-10: a malformed list fails loading (the gateway then refuses what it cannot judge)."""
    with pytest.raises(RuleLoadError, match="own_processes"):
        load_rules(own_processes=bad)  # type: ignore[arg-type]
