"""The corpus against the built-in rules (S-RULE-04, S-RULE-05, S-RULE-06, S-RULE-07)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gateway.app import SELF_COMMANDS
from policy.rules.match import builtin_rule_ids, load_rules
from tests._requirements import UPSTREAM_DATA, requirement
from tests.policy.rule_corpus import DANGEROUS, ORDINARY

# The gateway's own files somewhere the corpus never names, and its command line (gateway/app.py),
# as the gateway hands them to the rules (`GatewayApp.protected_paths`).
PROTECTED = ("D:\\gateway-state", "D:\\gateway-state\\STOP", *SELF_COMMANDS)
RULES = load_rules(protected_paths=PROTECTED)


def _schemas() -> dict[str, dict[str, Any]]:
    data = json.loads((UPSTREAM_DATA / "tools_list.json").read_text(encoding="utf-8"))
    tools = data["tools"] if isinstance(data, dict) else data
    return {t["name"]: t["inputSchema"] for t in tools}


def _id(case: tuple[Any, ...]) -> str:
    return f"{case[0]}:{json.dumps(case[1])[:60]}"


@requirement("S-RULE-04", "S-RULE-05", "S-RULE-06")
@pytest.mark.parametrize(("tool", "args", "expected"), DANGEROUS, ids=[_id(c) for c in DANGEROUS])
def test_every_dangerous_call_hits_its_rule(tool: str, args: dict[str, object], expected: str) -> None:
    """S-RULE-06: each dangerous call (bypass spellings included) hits exactly its expected rule id."""
    hit = RULES.match(tool, args)
    assert hit is not None, f"{tool} {args} hit no rule"
    assert hit.rule_id == expected


@requirement("S-RULE-06", "S-RULE-20")
@pytest.mark.parametrize(("tool", "args"), ORDINARY, ids=[_id(c) for c in ORDINARY])
def test_every_ordinary_call_passes(tool: str, args: dict[str, object]) -> None:
    """S-RULE-06: ordinary work (reads, lists, plain writes, notepad, ctrl+s …) hits no rule."""
    assert RULES.match(tool, args) is None


@requirement("S-RULE-06")
def test_the_corpus_is_big_enough_and_exercises_every_builtin_rule() -> None:
    """S-RULE-06: at least 400 dangerous and 200 ordinary calls, and every built-in id is expected somewhere."""
    assert len(DANGEROUS) >= 400
    assert len(ORDINARY) >= 200
    assert {expected for _, _, expected in DANGEROUS} == {*builtin_rule_ids(), "self-protection"}


@requirement("S-RULE-01", "S-RULE-06")
def test_the_corpus_uses_only_real_upstream_argument_names() -> None:
    """S-RULE-01: every argument in the corpus exists in that tool's upstream inputSchema (no `action`)."""
    schemas = _schemas()
    for tool, args, *_ in [*DANGEROUS, *ORDINARY]:
        assert tool in schemas, tool
        unknown = set(args) - set(schemas[tool]["properties"])
        assert not unknown, f"{tool}: {sorted(unknown)} not in upstream's inputSchema"


@requirement("S-RULE-04")
def test_every_builtin_rule_says_what_to_do() -> None:
    """S-RULE-04: each built-in rule has a unique id, deny or ask, a risk class and a substantial reason."""
    ids = builtin_rule_ids()
    assert len(ids) == len(set(ids))
    for rule in RULES.rules:
        assert rule.action in ("deny", "ask")
        assert rule.risk and " " not in rule.risk
        assert len(rule.reason) > 40 and rule.reason.endswith(".")


@requirement("S-RULE-07")
@pytest.mark.parametrize(
    ("tool", "args", "deny_id", "ask_id"),
    [
        (
            "PowerShell",
            {"command": "Stop-Process -Name winlogon -Force"},
            "kill-critical-process",
            "force-kill",
        ),
        ("Process", {"mode": "kill", "name": "lsass", "force": True}, "kill-critical-process", "force-kill"),
        (
            "Registry",
            {
                "mode": "set",
                "path": "HKLM:\\SYSTEM\\CurrentControlSet\\Services\\SharedAccess\\Parameters\\FirewallPolicy\\X",
                "name": "EnableFirewall",
                "value": "0",
            },
            "disable-firewall",
            "persistence-autostart",
        ),
    ],
)
def test_a_deny_wins_over_an_ask_on_the_same_call(
    tool: str, args: dict[str, object], deny_id: str, ask_id: str
) -> None:
    """S-RULE-07: when a deny and an ask both match, the deny is returned; exempting it exposes the ask."""
    hit = RULES.match(tool, args)
    assert hit is not None and (hit.rule_id, hit.action) == (deny_id, "deny")
    exposed = load_rules(allow_rules=[deny_id]).match(tool, args)
    assert exposed is not None and (exposed.rule_id, exposed.action) == (ask_id, "ask")
