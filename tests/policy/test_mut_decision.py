"""The fail-closed POLICY_ERROR decision, exactly (S-DEC-05); found by mutation testing."""

from __future__ import annotations

import re

import pytest

from policy import Code, Decision, Verdict
from policy.decision import POLICY_ERROR_REMEDY, RuleHit, allow, ensure_decision, policy_error, refusal_text, refuse
from tests._requirements import requirement


@requirement("S-DEC-05")
@pytest.mark.parametrize(
    ("reason", "text"),
    [
        ("rules failed\n to  load", "rules failed to load"),
        ("", "the policy failed"),
        (" \n ", "the policy failed"),
        ("e" * 400, "e" * 300),
    ],
    ids=["folded", "empty", "blank", "cut-at-300"],
)
def test_a_policy_error_is_one_line_of_at_most_300_characters_and_never_empty(reason: str, text: str) -> None:
    """S-DEC-05: the reason is folded to one line and cut at 300 characters; an empty one says "the policy failed"."""
    d = policy_error(reason)
    assert (d.verdict, d.code, d.reason, d.remedy, d.spec) == (
        Verdict.DENY,
        Code.POLICY_ERROR,
        text,
        POLICY_ERROR_REMEDY,
        "S-DEC-05",
    )


@requirement("S-DEC-05")
def test_a_policy_error_carries_the_requirement_that_applies() -> None:
    """S-DEC-05: a caller's spec id (e.g. the freshness gate's S-FRESH-06) is kept on the decision."""
    assert policy_error("no probe", spec="S-FRESH-06").spec == "S-FRESH-06"


@requirement("S-DEC-02")
def test_a_step_returning_something_else_is_a_policy_error_naming_its_type() -> None:
    """S-DEC-02: `{}` from a step: POLICY_ERROR under S-DEC-02 that says a dict came back."""
    d = ensure_decision({})
    assert (d.code, d.reason, d.spec) == (Code.POLICY_ERROR, "the policy returned dict, not a Decision", "S-DEC-02")


@requirement("S-DEC-02")
def test_a_tampered_decision_is_a_policy_error_saying_what_is_malformed() -> None:
    """S-DEC-02: a Decision emptied after it was built: POLICY_ERROR under S-DEC-02 naming the fault."""
    d = refuse(Code.KILLED, "stopped", "wait", spec="S-KILL-01")
    object.__setattr__(d, "remedy", "")
    out = ensure_decision(d)
    assert out.code is Code.POLICY_ERROR and out.spec == "S-DEC-02"
    assert out.reason.startswith("the policy returned a malformed Decision: ") and len(out.reason) > 45


@requirement("S-DEC-03")
def test_an_allow_has_no_refusal_text() -> None:
    """S-DEC-03: asking for the refusal line of an ALLOW is an error that says so."""
    with pytest.raises(ValueError, match=r"^an ALLOW has no refusal text$"):
        refusal_text(allow())


@requirement("S-DEC-01")
def test_allow_and_refuse_keep_the_audit_fields_they_are_given() -> None:
    """S-DEC-01: the digest, observation and audit detail given to allow/refuse are on the decision."""
    a = allow(observation="obs-1", digest="d" * 64, detail=(("k", "v"),))
    assert (a.observation, a.digest, a.detail) == ("obs-1", "d" * 64, (("k", "v"),))
    r = refuse(Code.STALE_OBSERVATION, "old", "snap", spec="S-FRESH-03", observation="obs-2", detail=(("k", "v"),))
    assert (r.observation, r.detail) == ("obs-2", (("k", "v"),))


def _d(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {"verdict": Verdict.DENY, "code": Code.KILLED, "reason": "r", "remedy": "x"}
    base.update(changes)
    return base


@requirement("S-DEC-01")
@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        (_d(verdict="deny"), TypeError, "verdict must be a Verdict, not str"),
        (_d(code="KILLED"), TypeError, "code must be a Code, not str"),
        (_d(enforced=1), TypeError, "enforced must be a bool"),
        (
            {"verdict": Verdict.ALLOW, "code": Code.KILLED},
            ValueError,
            "an ALLOW carries no code and is always enforced",
        ),
        ({"verdict": Verdict.ALLOW, "enforced": False}, ValueError, "an ALLOW carries no code and is always enforced"),
        (_d(reason=" "), ValueError, "a DENY needs a code, a reason and a remedy"),
        (
            _d(verdict=Verdict.ASK, code=Code.APPROVAL_REQUIRED),
            ValueError,
            "an ASK carries APPROVAL_REQUIRED and the call's digest",
        ),
        (_d(verdict=Verdict.ASK, digest="d"), ValueError, "an ASK carries APPROVAL_REQUIRED and the call's digest"),
        (_d(enforced=False), ValueError, "KILLED is always enforced (it cannot be shadowed)"),
        (_d(spec="DEC-1"), ValueError, "spec must be a requirement id like S-DEC-01, not 'DEC-1'"),
        (_d(warnings=["w"]), TypeError, "warnings must be a tuple of non-empty strings"),
        (_d(rule_id=""), TypeError, "rule_id must be None or a non-empty string"),
        (_d(approval="apr-1"), TypeError, "approval must be None or an Approval"),
        (_d(detail=(("k",),)), TypeError, "detail must be a tuple of (str, str) pairs"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_an_invalid_decision_cannot_be_built_and_the_error_says_which_field(
    fields: dict[str, object], error: type[Exception], message: str
) -> None:
    """S-DEC-01: each malformed field is refused when the Decision is built, with a message naming it."""
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        Decision(**fields)  # type: ignore[arg-type]


@requirement("S-DEC-06")
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rule_id": " "}, "RuleHit.rule_id must be a non-empty string"),
        ({"rule_id": 7}, "RuleHit.rule_id must be a non-empty string"),
        ({"action": "allow"}, "RuleHit.action must be 'deny' or 'ask', not 'allow'"),
        ({"risk": None}, "RuleHit.risk must be a string and RuleHit.reason a non-empty string"),
        ({"reason": 3}, "RuleHit.risk must be a string and RuleHit.reason a non-empty string"),
        ({"reason": "  "}, "RuleHit.risk must be a string and RuleHit.reason a non-empty string"),
    ],
    ids=["blank-id", "int-id", "allow", "risk", "int-reason", "blank-reason"],
)
def test_a_rule_hit_that_could_not_be_explained_cannot_be_built(fields: dict[str, object], message: str) -> None:
    """S-DEC-06: a hit names its rule, deny or ask, a risk and a reason; anything else is refused when built."""
    base: dict[str, object] = {"rule_id": "r", "action": "deny", "risk": "x", "reason": "why"}
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        RuleHit(**{**base, **fields})  # type: ignore[arg-type]
    assert RuleHit(**base).action == "deny"  # type: ignore[arg-type]


@requirement("S-DEC-01")
@pytest.mark.parametrize("fields", [{"reason": 5}, {"remedy": 5}], ids=["reason", "remedy"])
def test_an_allow_with_a_reason_or_remedy_that_is_not_text_cannot_be_built(fields: dict[str, object]) -> None:
    """S-DEC-01: reason and remedy are strings on every decision, an ALLOW included."""
    with pytest.raises(TypeError, match=r"^reason and remedy must be strings$"):
        Decision(verdict=Verdict.ALLOW, **fields)  # type: ignore[arg-type]
