"""decide's context checks and its approval step, in full (S-DEC-05, S-APR-01..04); found by mutation testing.

A malformed context is a POLICY_ERROR that names what is wrong (the person reads it in the audit);
an approval the config or a rule requires is an ASK that says which setting or rule asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import SimpleNamespace

import pytest

from policy import Approval, Code, Context, PolicyConfig, Verdict, approval_digest, decide
from policy.context import SessionView
from policy.decide import _MatchOnce, allow_call, check_command_rules
from policy.decision import RuleHit
from policy.observation import Observation
from policy.rules.match import load_rules
from tests._requirements import requirement
from tests.policy._world import SESSION, T0, TableRules, call, click, context, hit, observation, view
from tests.policy.test_typed import capture_of, focus_point

V = view(observation("obs-1"))
NEEDS = PolicyConfig(require_approval=True, require_approval_for_input=True, require_process_match=False)


def _with(**changes: object) -> Context:
    ctx = context(V)
    for name, value in changes.items():
        object.__setattr__(ctx, name, value)
    return ctx


@requirement("S-DEC-05")
@pytest.mark.parametrize(
    ("ctx", "error"),
    [
        ("not a context", "decide() was given str, not a Context"),
        (_with(kill={"engaged": False}), "Context.kill must be a KillState and Context.view a SessionView"),
        (_with(view={}), "Context.kill must be a KillState and Context.view a SessionView"),
        (_with(approvals=[]), "Context.approvals must be a mapping, not list"),
        (_with(rules=object()), "Context.rules has no match() method"),
        (_with(rules=SimpleNamespace(match="not callable")), "Context.rules has no match() method"),
        (_with(rules_error=5), "Context.rules_error must be None or a string"),
    ],
    ids=["not-a-context", "kill", "view", "approvals", "rules-without-match", "match-not-callable", "rules-error"],
)
def test_a_malformed_context_is_a_policy_error_that_names_the_member(ctx: object, error: str) -> None:
    """S-DEC-05: each wrong context member fails closed with a POLICY_ERROR naming that member and its type."""
    d = decide(click(), ctx, T0)  # type: ignore[arg-type]
    assert (d.verdict, d.code, d.reason) == (Verdict.DENY, Code.POLICY_ERROR, f"the policy failed: TypeError: {error}")


@requirement("S-DEC-05")
def test_a_config_of_another_class_is_read_field_by_field() -> None:
    """S-DEC-05: the shell's own config object works like a PolicyConfig with the same values."""
    shell_config = SimpleNamespace(**{f.name: getattr(NEEDS, f.name) for f in fields(PolicyConfig)})
    d = decide(call("PowerShell", command="Get-Date"), context(V, config=shell_config), T0)  # type: ignore[arg-type]
    assert (d.verdict, d.code) == (Verdict.ASK, Code.APPROVAL_REQUIRED)


@requirement("S-APR-01")
@pytest.mark.parametrize(
    ("tool_call", "reason"),
    [
        (call("PowerShell", command="Get-Date"), "PowerShell calls need a person's approval (require_approval)."),
        (click(), "Click calls need a person's approval (require_approval_for_input)."),
    ],
    ids=["system", "input"],
)
def test_an_approval_the_config_requires_asks_naming_the_setting(tool_call: object, reason: str) -> None:
    """S-APR-01: the ASK says which setting asked (SYSTEM: require_approval, INPUT: require_approval_for_input)."""
    d = decide(tool_call, context(V, config=NEEDS), T0)  # type: ignore[arg-type]
    assert (d.verdict, d.code, d.reason, d.spec, d.rule_id) == (
        Verdict.ASK,
        Code.APPROVAL_REQUIRED,
        reason,
        "S-APR-01",
        None,
    )
    assert d.remedy == "a person must approve this exact call; then repeat it unchanged with the approval_id given"


@requirement("S-APR-01")
def test_an_unknown_tools_long_name_is_cut_to_60_characters_in_the_ask() -> None:
    """S-APR-01: a let-through unknown tool's name is shown, at most 60 characters of it."""
    name = "T" * 80
    config = PolicyConfig(require_approval=True, unknown_tools="allow", require_process_match=False)
    d = decide(call(name), context(V, config=config), T0)
    assert d.verdict is Verdict.ASK and d.reason == f"{'T' * 60} calls need a person's approval (require_approval)."


@requirement("S-APR-01", "S-DEC-06")
def test_a_rule_that_asks_makes_an_ask_naming_the_rule_even_without_approval_settings() -> None:
    """S-DEC-06: an `ask` hit asks, naming the rule, its risk and its reason; a `deny` hit does not ask."""
    rules = TableRules(rows=(("PowerShell", "get-date", hit("clock-read", "ask")),))
    d = decide(call("PowerShell", command="Get-Date"), context(V, rules=rules), T0)
    assert (d.verdict, d.rule_id, d.spec) == (Verdict.ASK, "clock-read", "S-APR-01")
    assert d.reason == "command rule clock-read (data loss) asks for a person's approval: recursive delete"


@requirement("S-APR-03")
def test_an_approval_id_that_is_not_a_string_is_refused_not_a_fault() -> None:
    """S-APR-03: approval_id as a list names no approval: APPROVAL_DENIED, never a POLICY_ERROR."""
    d = decide(call("PowerShell", command="Get-Date", approval_id=["apr-1"]), context(V, config=NEEDS), T0)
    assert (d.code, d.reason) == (Code.APPROVAL_DENIED, "the cited approval_id names no approval of this session.")


@requirement("S-APR-04")
def test_a_session_grant_with_an_expiry_covers_the_call_until_it_expires() -> None:
    """S-APR-04: a session grant limited by session_ttl_ms allows identical calls without approval_id until then."""
    c = call("PowerShell", command="Get-Date")
    grant = Approval(
        id="apr-1",
        digest=approval_digest("PowerShell", {"command": "Get-Date"}),
        tool="PowerShell",
        session=SESSION,
        created_ms=T0,
        expires_ms=T0 + 10,
        status="approved",
        scope="session",
        decided_ms=T0,
    )
    ctx = context(V, config=NEEDS, approvals={"apr-1": grant})
    d = decide(c, ctx, T0 + 10)
    assert d.verdict is Verdict.ALLOW and (d.approval_id, d.digest) == ("apr-1", grant.digest)
    assert decide(c, ctx, T0 + 11).verdict is Verdict.ASK


@requirement("S-DEC-05", "S-DEC-04")
@pytest.mark.parametrize(
    ("tool_call", "now", "chain", "reason", "spec"),
    [
        ("Click", T0, None, "decide() was given str, not a ToolCall", "S-DEC-05"),
        (click(), float("nan"), None, "the clock reading nan is not a finite number", "S-DEC-05"),
        (click(), T0, (), "no step of the policy chain decided (default deny)", "S-DEC-04"),
    ],
    ids=["not-a-call", "nan-clock", "empty-chain"],
)
def test_decide_fails_closed_on_a_bad_call_clock_or_chain_and_says_which(
    tool_call: object, now: float, chain: object, reason: str, spec: str
) -> None:
    """S-DEC-04/05: a non-ToolCall, a clock that is not finite, a chain where nothing decides: POLICY_ERROR."""
    kw = {} if chain is None else {"chain": chain}
    d = decide(tool_call, context(V), now, **kw)  # type: ignore[arg-type]
    assert (d.code, d.reason, d.spec) == (Code.POLICY_ERROR, reason, spec)


@requirement("S-DEC-05")
def test_a_step_that_raises_is_a_policy_error_naming_the_exception() -> None:
    """S-DEC-05: the exception's class and text are in the POLICY_ERROR reason."""

    def broken(call: object, ctx: object, now: float) -> None:
        raise ValueError("boom")

    d = decide(click(), context(V), T0, chain=(broken,))  # type: ignore[arg-type]
    assert (d.code, d.reason) == (Code.POLICY_ERROR, "the policy failed: ValueError: boom")


@requirement("S-DEC-05")
def test_rules_that_return_something_else_are_a_policy_error_naming_it() -> None:
    """S-DEC-05: a rules object whose match returns a string: POLICY_ERROR naming what it returned."""
    d = decide(call("PowerShell", command="x"), context(V, rules=SimpleNamespace(match=lambda t, a: "deny")), T0)
    assert (d.code, d.reason) == (
        Code.POLICY_ERROR,
        "the policy failed: TypeError: command rules returned str, not a RuleHit or None",
    )


@requirement("S-DEC-06")
def test_rules_that_failed_to_load_refuse_under_s_dec_06_with_the_load_error() -> None:
    """S-DEC-06: the load error is in the POLICY_ERROR, and the decision cites S-DEC-06."""
    d = decide(call("PowerShell", command="Get-Date"), context(V, rules_error="bad rules.toml"), T0)
    assert (d.code, d.reason, d.spec) == (
        Code.POLICY_ERROR,
        "the command rules failed to load: bad rules.toml",
        "S-DEC-06",
    )


@requirement("S-DEC-06")
def test_a_self_protection_hit_is_refused_in_full() -> None:
    """S-DEC-06: SELF_PROTECTION names the rule and says a person manages the gateway's files."""
    rules = TableRules(rows=(("PowerShell", "stop", hit("self-protection-stop", "deny")),))
    d = decide(call("PowerShell", command="rm STOP"), context(V, rules=rules), T0)
    assert (d.code, d.reason, d.remedy, d.spec, d.rule_id) == (
        Code.SELF_PROTECTION,
        "this call would touch the gateway's own state, config, audit or STOP file (rule self-protection-stop): "
        "recursive delete",
        "leave the gateway's files alone; a person manages them with the winmcp-gateway command",
        "S-DEC-06",
        "self-protection-stop",
    )


@requirement("S-DEC-06")
def test_a_denying_rule_is_refused_under_s_dec_06() -> None:
    """S-DEC-06: COMMAND_RULE cites S-DEC-06 and the rule id."""
    rules = TableRules(rows=(("PowerShell", "remove-item", hit()),))
    d = decide(call("PowerShell", command="Remove-Item x"), context(V, rules=rules), T0)
    assert (d.code, d.spec, d.rule_id) == (Code.COMMAND_RULE, "S-DEC-06", "recursive-delete")


@requirement("S-DEC-05")
def test_a_chain_that_allows_a_call_still_needing_approval_is_a_policy_error() -> None:
    """S-DEC-05: the ALLOW step will not allow what needs an approval nobody gave (a chain without that step)."""
    d = decide(call("PowerShell", command="Get-Date"), context(V, config=NEEDS), T0, chain=(allow_call,))
    assert (d.code, d.reason) == (
        Code.POLICY_ERROR,
        "the policy failed: AssertionError: allow_call reached with an approval that does not cover the call",
    )


@requirement("S-DEC-04", "S-RULE-12")
def test_each_typed_text_of_one_call_is_matched_on_its_own() -> None:
    """S-DEC-04: one decide asks the rules once per distinct text: the second MultiEdit text is matched too."""
    from policy.observation import Capture, Element, Window

    console = Window(name="Windows PowerShell", depth=2, status="Normal", width=1100, height=640, handle=9)
    elements = (
        Element(kind="window", control="window", name=console.name, window=console.name),
        Element(
            kind="element",
            control="document",
            name="Text Area",
            point=(741, 452),
            depth=1,
            window=console.name,
            flags=frozenset({"focused"}),
        ),
    )
    obs = observation("obs-1", elements=elements, focused=console)
    object.__setattr__(obs, "capture", Capture(tool="Snapshot", focused=console, tree="present", elements=elements))
    rules = TableRules(rows=(("PowerShell", "remove-item", hit()),))
    c = call("MultiEdit", locs=[[741, 452, "Get-Date"], [741, 452, "Remove-Item -Recurse C:\\data"]])
    d = decide(c, context(view(obs), rules=rules, config=PolicyConfig(require_process_match=False)), T0)
    assert (d.code, d.rule_id) == (Code.COMMAND_RULE, "recursive-delete")


@requirement("S-VIS-01", "S-VIS-03")
@pytest.mark.parametrize(
    ("tool", "config", "code", "reason", "remedy"),
    [
        (
            "U" * 70,
            PolicyConfig(),
            Code.UNKNOWN_TOOL,
            f"the gateway does not know the tool {'U' * 60!r}, so it cannot judge what it does.",
            'use one of the listed tools; a person can set unknown_tools = "allow" if this tool is trusted',
        ),
        (
            "Clipboard",
            PolicyConfig(tools_deny=("Clipboard",)),
            Code.TOOL_NOT_ALLOWED,
            "the tool 'Clipboard' is not allowed by this gateway's configuration.",
            "use one of the tools in tools/list; a person controls tools_allow, tools_deny and profile",
        ),
    ],
    ids=["unknown", "denied"],
)
def test_a_hidden_tool_is_refused_saying_why_and_who_can_change_it(
    tool: str, config: PolicyConfig, code: Code, reason: str, remedy: str
) -> None:
    """S-VIS-01: UNKNOWN_TOOL (name cut at 60) or TOOL_NOT_ALLOWED, each with its requirement and remedy."""
    d = decide(call(tool), context(V, config=config), T0)
    assert (d.code, d.reason, d.remedy) == (code, reason, remedy)
    assert d.spec == {Code.UNKNOWN_TOOL: "S-VIS-03", Code.TOOL_NOT_ALLOWED: "S-VIS-01"}[code]


@requirement("S-DEC-04")
def test_one_decide_asks_the_rules_about_a_call_only_once() -> None:
    """S-DEC-04: the command-rule, approval and allow steps share one answer: match runs once per decide."""
    rules = TableRules(rows=(("PowerShell", "get-date", hit("clock-read", "ask")),))
    grant = Approval(
        id="apr-1",
        digest=approval_digest("PowerShell", {"command": "Get-Date"}),
        tool="PowerShell",
        session=SESSION,
        created_ms=T0,
        expires_ms=None,
        status="approved",
        scope="session",
        decided_ms=T0,
    )
    d = decide(call("PowerShell", command="Get-Date"), context(V, rules=rules, approvals={"apr-1": grant}), T0)
    assert d.verdict is Verdict.ALLOW
    assert rules.calls == ["PowerShell"]


@requirement("S-DEC-06")
def test_the_command_rule_step_called_on_its_own_refuses_a_denied_call() -> None:
    """S-DEC-06: check_command_rules outside decide (a plain context, no per-decide cache) judges the same."""
    from policy.decide import check_command_rules

    rules = TableRules(rows=(("PowerShell", "remove-item", hit()),))
    d = check_command_rules(call("PowerShell", command="Remove-Item x"), context(V, rules=rules), T0)
    assert d is not None and (d.code, d.rule_id) == (Code.COMMAND_RULE, "recursive-delete")
    assert check_command_rules(call("PowerShell", command="Get-Date"), context(V, rules=rules), T0) is None


@requirement("S-VIS-01")
def test_a_denied_tools_long_name_is_cut_to_60_characters() -> None:
    """S-VIS-01: TOOL_NOT_ALLOWED shows at most 60 characters of the tool's name."""
    name = "D" * 70
    d = decide(call(name), context(V, config=PolicyConfig(tools_deny=(name,))), T0)
    assert (d.code, d.reason) == (
        Code.TOOL_NOT_ALLOWED,
        f"the tool {'D' * 60!r} is not allowed by this gateway's configuration.",
    )


# -- the rules asked once per decide (`_MatchOnce`), and what they may answer ---------------------


@dataclass
class _Readings:
    """A CommandRules that answers each reading differently and records every question."""

    calls: list[tuple[str, dict[str, object], object]] = field(default_factory=list)
    typed_answer: object = None

    def match(self, tool: str, args: Mapping[str, object], *, table: object = True) -> RuleHit | None:
        self.calls.append((tool, dict(args), table))
        if tool == "PowerShell" and self.typed_answer is not None:
            return self.typed_answer  # type: ignore[return-value]
        return hit("table-reading" if table is True else "analysis-reading", "ask")


@requirement("S-RULE-27")
def test_the_table_and_the_analysis_reading_of_one_text_are_asked_and_kept_apart() -> None:
    """S-RULE-27: within one decide, the plain match and the analysis-only reading (typed text read
    as cmd) of the same call are two questions to the rules, each asked once, with its own answer."""
    rules = _Readings()
    once = _MatchOnce(rules)
    args = {"command": "dir"}
    answers = [once.match("PowerShell", args), once.match("PowerShell", args, table=False)]
    assert [a.rule_id for a in answers if a] == ["table-reading", "analysis-reading"]
    again = [once.match("PowerShell", args), once.match("PowerShell", args, table=False)]
    assert again == answers
    assert rules.calls == [("PowerShell", args, True), ("PowerShell", args, False)]


@requirement("S-RULE-27")
def test_the_same_arguments_in_another_order_are_one_question() -> None:
    """S-RULE-27: arguments are compared as a set of names and values, not in the order given."""
    rules = _Readings()
    once = _MatchOnce(rules)
    once.match("FileSystem", {"mode": "x", "path": "x"})
    once.match("FileSystem", {"path": "x", "mode": "x"})
    assert len(rules.calls) == 1


@requirement("S-DEC-05")
def test_a_rules_object_that_answers_typed_text_with_nonsense_is_a_policy_error() -> None:
    """S-DEC-05: the typed-text reading is checked like the call's own: an answer that is not a RuleHit
    or None fails closed, naming its type."""
    capture = capture_of("console-powershell")
    obs = Observation(id="obs-1", session=SESSION, generation=1, taken_at_ms=T0, capture=capture)
    typed_view = SessionView(session=SESSION, observations={"obs-1": obs}, latest_id="obs-1", generation=1)
    rules = _Readings(typed_answer=_LookAlike(rule_id="x", action="deny", risk="x", reason="x"))
    rules_for_call = _NoneForType(rules)
    args = {"text": "dir", "loc": focus_point(capture), "press_enter": True}
    d = decide(call("Type", based_on="obs-1", **args), context(typed_view, rules=rules_for_call), T0)  # type: ignore[arg-type]
    assert (d.verdict, d.code) == (Verdict.DENY, Code.POLICY_ERROR)
    assert d.reason == "the policy failed: TypeError: command rules returned _LookAlike, not a RuleHit or None"


@dataclass(frozen=True)
class _LookAlike:
    """Has a RuleHit's fields (typed text's own handling works on it) but is not one."""

    rule_id: str
    action: str
    risk: str
    reason: str


@dataclass
class _NoneForType:
    """No rule for the Type call itself; the typed text's readings go to `inner`."""

    inner: _Readings

    def match(self, tool: str, args: Mapping[str, object], *, table: bool = True) -> RuleHit | None:
        return None if tool == "Type" else self.inner.match(tool, args, table=table)


@requirement("S-RULE-12")
def test_the_command_rules_step_reads_typed_text_with_the_context_it_is_given() -> None:
    """S-RULE-12: the step works on an unchecked context too (a direct caller): the typed text is
    judged with that context's view, so a deletion typed into a console is refused."""
    capture = capture_of("console-powershell")
    obs = Observation(id="obs-1", session=SESSION, generation=1, taken_at_ms=T0, capture=capture)
    typed_view = SessionView(session=SESSION, observations={"obs-1": obs}, latest_id="obs-1", generation=1)
    ctx = context(typed_view, rules=load_rules())
    typed = call("Type", based_on="obs-1", text="Remove-Item -Recurse -Force C:\\Users", loc=focus_point(capture))
    d = check_command_rules(typed, ctx, T0)
    assert d is not None and d.verdict is not Verdict.ALLOW


@requirement("S-DEC-05")
def test_a_brake_that_is_not_a_brake_is_a_policy_error() -> None:
    """S-DEC-05: Context.brake must be None or a Brake; anything else fails closed and says so."""
    d = decide(click(), _with(brake={"limit": 1}), T0)
    assert (d.verdict, d.code, d.reason) == (
        Verdict.DENY,
        Code.POLICY_ERROR,
        "the policy failed: TypeError: Context.brake must be None or a Brake",
    )


@requirement("S-DEC-05")
def test_a_config_of_another_class_with_an_unusable_value_is_a_policy_error() -> None:
    """S-DEC-05: the shell's config object is validated as it is copied: `enforce = "no"` is not read as on."""
    shell_config = SimpleNamespace(**{f.name: getattr(NEEDS, f.name) for f in fields(PolicyConfig)})
    shell_config.enforce = "no"
    d = decide(click(), context(V, config=shell_config), T0)  # type: ignore[arg-type]
    assert (d.verdict, d.code) == (Verdict.DENY, Code.POLICY_ERROR)
    assert "PolicyConfig.enforce must be a bool" in d.reason


@requirement("S-DEC-05")
def test_a_config_of_another_class_is_read_once_per_decision() -> None:
    """S-DEC-05: the shell's config is copied once, so one decision never sees two values of a setting
    (here a live object whose `enforce` changes after its first read: the refusal stays enforced)."""

    class Changing(SimpleNamespace):
        reads = 0

        @property
        def enforce(self) -> bool:
            Changing.reads += 1
            return Changing.reads == 1

    defaults = PolicyConfig()
    shell_config = Changing(**{f.name: getattr(defaults, f.name) for f in fields(PolicyConfig) if f.name != "enforce"})
    d = decide(click(), context(view(), config=shell_config), T0)  # type: ignore[arg-type]
    assert (d.verdict, d.enforced) == (Verdict.DENY, True)
    assert Changing.reads == 1
