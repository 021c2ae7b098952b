"""policy/rules/match.py: argument names, custom rules, exemptions, totality (S-RULE-01, -07, -08, -09, -11)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policy.decision import RuleHit
from policy.rules.match import (
    BUILTIN_RULES,
    Rule,
    RuleLoadError,
    RuleSet,
    builtin_rule_ids,
    load_rules,
    rules_read_args,
    tool_views,
)
from tests._requirements import UPSTREAM_DATA, requirement
from tests.policy.rule_corpus import DANGEROUS, ORDINARY


def _schemas() -> dict[str, dict[str, Any]]:
    data = json.loads((UPSTREAM_DATA / "tools_list.json").read_text(encoding="utf-8"))
    tools = data["tools"] if isinstance(data, dict) else data
    return {t["name"]: t["inputSchema"] for t in tools}


class RecordingArgs(Mapping[str, object]):
    """A call's arguments that remember every key a rule asked for (present or not)."""

    def __init__(self, data: Mapping[str, object]) -> None:
        self._data = dict(data)
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> object:
        self.asked.add(key)
        return self._data[key]

    def get(self, key: str, default: object = None) -> object:
        self.asked.add(key)
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.asked.add(key)
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        self.asked.add("*")  # iterating means reading names the rules never declared
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


# ------------------------------------------------------------------------------ S-RULE-01


@requirement("S-RULE-01")
def test_rules_read_exactly_these_real_argument_names() -> None:
    """S-RULE-01: the read-args table is the documented one and every name is in upstream's inputSchema."""
    expected = {
        "PowerShell": {"command"},
        "Registry": {"mode", "path", "name", "value", "type"},
        "FileSystem": {"mode", "path", "destination", "recursive", "append", "content"},  # content: scripts (S-RULE-28)
        "Process": {"mode", "name", "pid", "force"},
        "App": {"mode", "name", "executable", "args", "cwd"},
        "Shortcut": {"shortcut"},
        "Notification": {"title", "message", "app_id"},
        "Scrape": {"url"},  # S-RULE-144
    }
    assert {tool: set(names) for tool, names in rules_read_args().items()} == expected
    schemas = _schemas()
    for tool, names in rules_read_args().items():
        missing = names - set(schemas[tool]["properties"])
        assert not missing, f"{tool}: rules read {sorted(missing)}, which upstream does not have (a dead rule)"


@requirement("S-RULE-01")
@pytest.mark.parametrize("case", [*DANGEROUS, *ORDINARY], ids=lambda c: f"{c[0]}:{json.dumps(c[1])[:50]}")
def test_no_rule_reads_an_argument_it_did_not_declare(case: tuple[Any, ...]) -> None:
    """S-RULE-01: matching a corpus call asks only for declared names, never a guessed one like `action`."""
    tool, args = case[0], case[1]
    recorder = RecordingArgs(args)
    load_rules().match(tool, recorder)
    assert recorder.asked <= set(rules_read_args().get(tool, frozenset())), recorder.asked


@requirement("S-RULE-01")
@pytest.mark.parametrize(
    ("tool", "real", "guessed"),
    [
        ("FileSystem", {"mode": "delete", "path": "x", "recursive": True}, {"action": "delete", "path": "x"}),
        ("Registry", {"mode": "delete", "path": "HKLM:\\X"}, {"action": "delete", "path": "HKLM:\\X"}),
        ("Process", {"mode": "kill", "name": "lsass"}, {"action": "kill", "name": "lsass"}),
    ],
)
def test_rules_key_on_mode_and_not_on_a_guessed_action(
    tool: str, real: dict[str, object], guessed: dict[str, object]
) -> None:
    """S-RULE-01: the real `mode` argument triggers the rule; the prior art's guessed `action` does not."""
    assert load_rules().match(tool, real) is not None
    assert load_rules().match(tool, guessed) is None


# ------------------------------------------------------------------------------ S-RULE-08


def _custom(**over: object) -> dict[str, object]:
    rule: dict[str, object] = {
        "id": "no-secrets",
        "pattern": r"c:/secrets\b",
        "risk": "data-exposure",
        "reason": "The secrets folder is off limits.",
    }
    rule.update(over)
    return {k: v for k, v in rule.items() if v is not None}


@requirement("S-RULE-08")
def test_a_valid_custom_rule_is_appended_and_matches_normalised_text() -> None:
    """S-RULE-08: a custom rule matches every spelling that normalises to its pattern, after the built-ins."""
    rules = load_rules([_custom()])
    assert rules.rules[: len(BUILTIN_RULES)] == BUILTIN_RULES
    hit = rules.match("PowerShell", {"command": "Get-Content 'C:\\Secrets\\key.txt'"})
    assert hit == RuleHit(
        rule_id="no-secrets", action="deny", risk="data-exposure", reason="The secrets folder is off limits."
    )
    assert rules.match("PowerShell", {"command": "Get-Content C:\\Public\\a.txt"}) is None


@requirement("S-RULE-08")
def test_a_custom_rule_can_ask_and_target_a_structured_tool() -> None:
    """S-RULE-08: `action = "ask"` and `tools` select the verdict and the tool; its view is key=value text."""
    rules = load_rules(
        [_custom(id="demo-key", pattern=r"path=hkcu:/software/demo\b", action="ask", tools=["Registry"])]
    )
    call = {"mode": "set", "path": "HKCU:\\Software\\Demo", "name": "a", "value": "1"}
    assert tool_views("Registry", call) == ("mode=set path=hkcu:/software/demo name=a value=1",)
    hit = rules.match("Registry", call)
    assert hit is not None and (hit.rule_id, hit.action) == ("demo-key", "ask")
    assert rules.match("PowerShell", {"command": "echo path=hkcu:/software/demo"}) is None


@requirement("S-RULE-08")
@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("Remove-Item", "upper case"),
        (r"c:\\secrets", "backslash"),
        (r"rm\t-r", r"\t"),
        ("rm  -r", "two spaces"),
        ("re`move", "backtick"),
        (r"\Qx", "escape"),
        (r"(\(?P=x)", "upper case 'P'"),  # an escaped bracket opens no group: `?P=x` is text
        (r"a(\(?P<x>b)", "upper case 'P'"),
    ],
)
def test_a_pattern_not_in_normalised_form_is_rejected_naming_the_rule(pattern: str, problem: str) -> None:
    """S-RULE-08: a pattern that can never match normalised text fails, naming index, id and problem."""
    with pytest.raises(RuleLoadError) as err:
        load_rules([_custom(), _custom(id="bad-one", pattern=pattern)])
    message = str(err.value)
    assert "#1" in message and "bad-one" in message and problem in message


@requirement("S-RULE-08")
def test_case_free_escapes_and_group_names_are_accepted() -> None:
    """S-RULE-08: \\S, \\W, \\d, \\b and a named group with capitals are fine in a normalised pattern."""
    rules = load_rules([_custom(pattern=r"(?P<Verb>remove-item)\s\S+\W?\d*\b")])
    assert rules.match("PowerShell", {"command": "Remove-Item x1"}) is not None


@requirement("S-RULE-08")
@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ([_custom(pattern="(unclosed")], ["#0", "no-secrets", "not a valid regex"]),
        ([_custom(action="block")], ["no-secrets", "unknown action", "block"]),
        ([_custom(tools=["PowerShell", "Bash"])], ["no-secrets", "unknown tool", "Bash"]),
        ([_custom(tools="PowerShell")], ["no-secrets", "tools"]),
        ([_custom(), _custom()], ["#1", "duplicate"]),
        ([_custom(id="recursive-delete")], ["recursive-delete", "duplicate"]),
        ([_custom(id="self-protection")], ["self-protection", "duplicate"]),
        ([_custom(acton="ask")], ["no-secrets", "unknown key", "acton"]),
        ([_custom(reason=None)], ["no-secrets", "reason"]),
        ([_custom(risk="  ")], ["no-secrets", "risk"]),
        ([_custom(id="Bad Id")], ["#0", "id"]),
        ([_custom(pattern="x|")], ["no-secrets", "empty"]),
        (["rm -r"], ["#0", "table"]),
    ],
)
def test_malformed_custom_rules_fail_loading_naming_the_rule(rules: list[Any], words: list[str]) -> None:
    """S-RULE-08: each malformation is a RuleLoadError whose message names the rule and the problem."""
    with pytest.raises(RuleLoadError) as err:
        load_rules(rules)
    for word in words:
        assert word in str(err.value)


@requirement("S-RULE-08")
@pytest.mark.parametrize("custom", ["rm -r", {"id": "x"}, 3])
def test_custom_must_be_a_list(custom: Any) -> None:
    """S-RULE-08: a single table or a string where a list belongs is an error, not a silent no-op."""
    with pytest.raises(RuleLoadError):
        load_rules(custom)


@requirement("S-RULE-08")
def test_a_rule_value_validates_itself() -> None:
    """S-RULE-08: a Rule with a bad action, no pattern and no predicate, or no tools cannot exist."""
    base: dict[str, Any] = {
        "id": "x",
        "action": "deny",
        "risk": "r",
        "reason": "why",
        "tools": frozenset({"App"}),
    }
    with pytest.raises(ValueError, match="pattern or a predicate"):
        Rule(**base)
    with pytest.raises(ValueError, match="action"):
        Rule(**{**base, "action": "block", "pattern": re.compile("x")})
    with pytest.raises(ValueError, match="no tool"):
        Rule(**{**base, "tools": frozenset(), "pattern": re.compile("x")})


# ------------------------------------------------------------------------------ S-RULE-07 / S-RULE-09


@requirement("S-RULE-07")
def test_a_custom_deny_beats_a_builtin_ask_and_a_builtin_deny_beats_a_custom_one() -> None:
    """S-RULE-07: deny before ask regardless of origin; among denies the built-ins come first."""
    rules = load_rules([_custom(id="no-taskkill", pattern=r"\btaskkill\b")])
    hit = rules.match("PowerShell", {"command": "taskkill /f /im notepad.exe"})
    assert hit is not None and hit.rule_id == "no-taskkill"  # built-in force-kill only asks
    hit = rules.match("PowerShell", {"command": "taskkill /f /im lsass.exe"})
    assert hit is not None and hit.rule_id == "kill-critical-process"


@requirement("S-RULE-09")
def test_allow_rules_exempts_a_builtin_and_reports_it() -> None:
    """S-RULE-09: an exempted rule no longer hits, and exempted_by names it for the audit."""
    call = {"mode": "kill", "name": "notepad.exe", "force": True}
    plain = load_rules()
    assert plain.match("Process", call) is not None
    assert plain.exempted_by("Process", call) == ()
    exempt = load_rules(allow_rules=["force-kill"])
    assert exempt.match("Process", call) is None
    assert exempt.exempted_by("Process", call) == ("force-kill",)
    assert exempt.exempted_by("Process", {"mode": "kill", "name": "notepad.exe"}) == ()


@requirement("S-RULE-09")
def test_an_exemption_covers_only_its_own_rule() -> None:
    """S-RULE-09: exempting recursive-delete leaves the other rules that match the same call in force."""
    rules = load_rules(allow_rules=["recursive-delete"])
    call = {"command": "Remove-Item -Recurse C:\\data; Stop-Computer"}
    hit = rules.match("PowerShell", call)
    assert hit is not None and hit.rule_id == "shutdown-restart"
    assert rules.exempted_by("PowerShell", call) == ("recursive-delete",)


@requirement("S-RULE-09")
@pytest.mark.parametrize("allow", [["recursive-delet"], ["no-secrets"], ["self-protection"], "recursive-delete"])
def test_allow_rules_must_name_builtin_ids(allow: Any) -> None:
    """S-RULE-09: an id that is not a built-in (a typo, a custom id, or a bare string) fails loading."""
    with pytest.raises(RuleLoadError, match="allow_rules"):
        load_rules([_custom()], allow_rules=allow)


@requirement("S-RULE-09")
def test_builtin_ids_are_stable_and_in_table_order() -> None:
    """S-RULE-09: the ids allow_rules may name; renaming one is a breaking change this test catches."""
    assert builtin_rule_ids() == (
        "uninspectable-command",
        "app-launch-interpreter",
        "registry-delete-machine-hive",
        "registry-delete-top-key",
        "recursive-delete",
        "format-disk",
        "delete-backups",
        "kill-critical-process",
        "shutdown-restart",
        "weaken-execution-policy",
        "disable-firewall",
        "disable-defender",
        "disable-uac",
        "persistence-hijack",
        "download-execute",
        "encoded-command",
        "force-kill",
        "kill-desktop-shell",
        "persistence-autostart",
        "credential-prompt-command",
        "shortcut-command-launcher",
        "notification-injection",
        # the effect table's ids (policy/rules/judge.py) and the analyser's own (policy/rules/command.py)
        "log-clear",
        "protected-place-delete",
        "credential-access",
        "security-weakening",
        "account-change",
        "kill-all",
        "disk-encryption",
        "protected-place-write",
        "wildcard-delete",
        "unpack-over-protected",
        "copy-over-protected",
        "environment-change",
        "remote-code",
        "unread-script",
        "upload-file",
        "network-change",
        "device-change",
        "permission-change",
        "mark-of-the-web",
        "admin-console",
        "external-delete",
        "agent-unattended",
        "agent-approvals-off",
        "agent-delegation",
        "remote-control",
        "dynamic-command",
        "unparsed-command",
    )


# ------------------------------------------------------------------------------ S-RULE-11

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
_TOOLS = st.sampled_from([*rules_read_args(), "Type", "Clipboard", "Snapshot", "Nope"])


@requirement("S-RULE-11")
@settings(max_examples=400, deadline=None)
@given(_TOOLS, st.data())
def test_match_is_total_over_any_argument_shape(tool: str, data: st.DataObject) -> None:
    """S-RULE-11: missing, null, numeric, list, dict or odd-string arguments never make match raise."""
    names = [*rules_read_args().get(tool, ()), "extra"]
    args = data.draw(st.dictionaries(st.sampled_from(names), _VALUES, max_size=len(names)))
    rules = load_rules([_custom(tools=["PowerShell", "Registry", "Clipboard"])], allow_rules=["force-kill"])
    hit = rules.match(tool, args)
    assert hit is None or type(hit) is RuleHit
    assert isinstance(rules.exempted_by(tool, args), tuple)


@requirement("S-RULE-11")
def test_the_default_rule_set_is_the_builtin_table() -> None:
    """S-RULE-11: RuleSet() and load_rules() are the same rules with nothing exempted."""
    assert RuleSet() == load_rules()
    assert RuleSet().rules == BUILTIN_RULES
