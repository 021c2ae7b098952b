"""Decisions: small frozen values, and the shape contract that makes the gate fail closed.

A `Decision` is validated when it is built, so a malformed one cannot exist (S-DEC-01).
`ensure_decision` is the contract at every boundary where a decision is *received*:
anything that is not a well-formed `Decision` — `{}`, None, a string, a dict with an odd
verdict, a look-alike of another class — becomes DENY `POLICY_ERROR` (S-DEC-02). The prior
art's gate once received `{}` from its policy, recognised neither allow nor deny, and
skipped the whole freshness check: the contract exists so that cannot happen here.

Shadow mode (`enforce = false`, S-DEC-07) is a field, not a verdict: the decision keeps
its verdict and code, `enforced=False`, and the shell audits "would deny" and forwards.
Only gate refusals can be shadowed (`SHADOWABLE`); a stop, a hidden tool, a policy fault, a private
window, the brake and a changed tool are always enforced.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, Protocol, final

from policy.values import Approval


class Verdict(enum.Enum):
    """The outcome kind."""

    ALLOW = "allow"
    DENY = "deny"
    ASK = "ask"


class Code(enum.StrEnum):
    """The closed set of refusal codes (DESIGN.md §4, §5). The value is the text after `DENIED `."""

    NO_OBSERVATION = "NO_OBSERVATION"
    UNKNOWN_OBSERVATION = "UNKNOWN_OBSERVATION"
    STALE_OBSERVATION = "STALE_OBSERVATION"
    PROCESS_CHANGED = "PROCESS_CHANGED"
    LABEL_UNVERIFIABLE = "LABEL_UNVERIFIABLE"
    WINDOW_NOT_ALLOWED = "WINDOW_NOT_ALLOWED"
    KILLED = "KILLED"
    TOOL_NOT_ALLOWED = "TOOL_NOT_ALLOWED"
    UNKNOWN_TOOL = "UNKNOWN_TOOL"
    COMMAND_RULE = "COMMAND_RULE"
    SELF_PROTECTION = "SELF_PROTECTION"
    APPROVAL_REQUIRED = "APPROVAL_REQUIRED"
    APPROVAL_DENIED = "APPROVAL_DENIED"
    POLICY_ERROR = "POLICY_ERROR"
    RATE_LIMITED = "RATE_LIMITED"  # the session's bucket for this class is empty (policy/rate.py, S-RATE-01)
    LOOP_DETECTED = "LOOP_DETECTED"  # identical calls or refusals in a row without a look (S-RATE-03, -04)
    BAD_ARGUMENTS = "BAD_ARGUMENTS"  # refused before policy runs (gateway/pipeline/arguments.py, S-ARG-01)
    # Refused before the arguments are checked (policy/pins.py, gateway/pipeline/pin_check.py, S-PIN-04):
    # the tool's definition is not the one a person accepted. Never shadowed (pin_mode = "warn" is its switch).
    TOOL_CHANGED = "TOOL_CHANGED"
    # Input aimed at a window `private_windows` masks: a point in it, a label of its, keys while it is
    # focused (policy/private.py, S-PRIV-05). Never shadowed: what it protects is the person's secrets.
    PRIVATE_WINDOW = "PRIVATE_WINDOW"
    # Not a refusal a client sees: "everything but the window drift allows; probe, then decide
    # again" (S-FRESH-10). It is a DENY, never shadowed, so a shell that failed to probe stays closed.
    PROBE_PENDING = "PROBE_PENDING"


class Warn(enum.StrEnum):
    """Warning codes: they annotate an ALLOW and never block. A warning text starts `<CODE>: `."""

    MAPPING_INCOMPLETE = "MAPPING_INCOMPLETE"


# Gate refusals that shadow mode reports instead of enforcing (S-DEC-07). KILLED, the
# visibility codes, SELF_PROTECTION and POLICY_ERROR are never shadowed, nor BAD_ARGUMENTS:
# input that fails validation is never forwarded (S-ARG-06).
SHADOWABLE: frozenset[Code] = frozenset(
    {
        Code.NO_OBSERVATION,
        Code.UNKNOWN_OBSERVATION,
        Code.STALE_OBSERVATION,
        Code.PROCESS_CHANGED,
        Code.LABEL_UNVERIFIABLE,
        Code.WINDOW_NOT_ALLOWED,
        Code.COMMAND_RULE,
        Code.APPROVAL_REQUIRED,
        Code.APPROVAL_DENIED,
    }
)

_SPEC_ID = re.compile(r"S-[A-Z]+-\d{2,3}")


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class RuleHit:
    """What a command rule says about a call (`CommandRules.match`): deny it or ask a person."""

    rule_id: str
    action: Literal["deny", "ask"]
    risk: str
    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.rule_id, str) or not self.rule_id.strip():
            raise ValueError("RuleHit.rule_id must be a non-empty string")
        if self.action not in ("deny", "ask"):
            raise ValueError(f"RuleHit.action must be 'deny' or 'ask', not {self.action!r}")
        if not isinstance(self.risk, str) or not isinstance(self.reason, str) or not self.reason.strip():
            raise ValueError("RuleHit.risk must be a string and RuleHit.reason a non-empty string")


class CommandRules(Protocol):
    """The seam to `policy/rules/match.py`: match one call's content against the command rules."""

    def match(self, tool: str, args: Mapping[str, object], *, table: bool = True) -> RuleHit | None:
        """The first rule the call hits, or None (`table=False`: what the analysis found, no regex table)."""
        ...


@final
@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One verdict with everything the shell needs to act on it and to audit it.

    Attributes:
        verdict: ALLOW, DENY or ASK.
        code: the refusal code (None for ALLOW; APPROVAL_REQUIRED for ASK).
        reason: what is wrong, for the model (one line; the refusal text folds whitespace).
        remedy: what the model can do about it.
        spec: the spec/SYS_SPEC.md id of the rule that decided.
        warnings: `"<Warn>: text"` notes on an ALLOW; they never block.
        rule_id: the command rule that denied or asked, if any.
        enforced: False only in shadow mode: the shell audits "would deny" and forwards.
        observation: the observation id the freshness gate used as the basis (audit `obs`).
        digest: the approval digest of the call (ASK, and refusals about approvals).
        approval_id: the approval this decision asks about or consumed.
        approval: the approval's state after this decision; the shell persists it (a
            single-use approval comes back `used`) only when it forwards the call.
        detail: audit-only facts (key, value) never shown to the model.
    """

    verdict: Verdict
    code: Code | None = None
    reason: str = ""
    remedy: str = ""
    spec: str | None = None
    warnings: tuple[str, ...] = ()
    rule_id: str | None = None
    enforced: bool = True
    observation: str | None = None
    digest: str | None = None
    approval_id: str | None = None
    approval: Approval | None = None
    detail: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def blocks(self) -> bool:
        """True when the shell must not forward the call (a refusal that is enforced)."""
        return self.verdict is not Verdict.ALLOW and self.enforced


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _validate(d: Decision) -> None:
    """Raise ValueError/TypeError unless `d` is well formed (S-DEC-01)."""

    if type(d.verdict) is not Verdict:
        raise TypeError(f"verdict must be a Verdict, not {type(d.verdict).__name__}")
    if d.code is not None and type(d.code) is not Code:
        raise TypeError(f"code must be a Code, not {type(d.code).__name__}")
    if type(d.enforced) is not bool:
        raise TypeError("enforced must be a bool")
    if d.verdict is Verdict.ALLOW:
        if d.code is not None or not d.enforced:
            raise ValueError("an ALLOW carries no code and is always enforced")
    else:
        if d.code is None or not _text(d.reason) or not _text(d.remedy):
            raise ValueError(f"a {d.verdict.name} needs a code, a reason and a remedy")
        if d.verdict is Verdict.ASK and (d.code is not Code.APPROVAL_REQUIRED or not _text(d.digest)):
            raise ValueError("an ASK carries APPROVAL_REQUIRED and the call's digest")
        if not d.enforced and d.code not in SHADOWABLE:
            raise ValueError(f"{d.code} is always enforced (it cannot be shadowed)")
    if not isinstance(d.reason, str) or not isinstance(d.remedy, str):
        raise TypeError("reason and remedy must be strings")
    if d.spec is not None and not (isinstance(d.spec, str) and _SPEC_ID.fullmatch(d.spec)):
        raise ValueError(f"spec must be a requirement id like S-DEC-01, not {d.spec!r}")
    if type(d.warnings) is not tuple or not all(_text(w) for w in d.warnings):
        raise TypeError("warnings must be a tuple of non-empty strings")
    for name in ("rule_id", "observation", "digest", "approval_id"):
        value = getattr(d, name)
        if value is not None and not _text(value):
            raise TypeError(f"{name} must be None or a non-empty string")
    if d.approval is not None and type(d.approval) is not Approval:
        raise TypeError("approval must be None or an Approval")
    if type(d.detail) is not tuple or not all(
        type(p) is tuple and len(p) == 2 and all(isinstance(x, str) for x in p) for p in d.detail
    ):
        raise TypeError("detail must be a tuple of (str, str) pairs")


def allow(
    *,
    warnings: tuple[str, ...] = (),
    observation: str | None = None,
    digest: str | None = None,
    approval_id: str | None = None,
    approval: Approval | None = None,
    detail: tuple[tuple[str, str], ...] = (),
) -> Decision:
    """An ALLOW decision (the fields as in `Decision`)."""
    return Decision(
        verdict=Verdict.ALLOW,
        warnings=warnings,
        observation=observation,
        digest=digest,
        approval_id=approval_id,
        approval=approval,
        detail=detail,
    )


def refuse(
    code: Code,
    reason: str,
    remedy: str,
    *,
    spec: str,
    rule_id: str | None = None,
    observation: str | None = None,
    digest: str | None = None,
    approval_id: str | None = None,
    detail: tuple[tuple[str, str], ...] = (),
) -> Decision:
    """A DENY decision.

    Args:
        code: the refusal code.
        reason: what is wrong (names the facts the model can check).
        remedy: what to do about it, concretely.
        spec: the requirement id that decided.
        rule_id: the command rule that denied, if any.
        observation: the observation id the gate looked at, if any.
        digest: the call's approval digest, for refusals about approvals.
        approval_id: the approval the refusal is about.
        detail: audit-only facts.

    Returns:
        The decision.

    Raises:
        ValueError: the fields do not form a valid refusal (e.g. an empty remedy).
    """
    return Decision(
        verdict=Verdict.DENY,
        code=code,
        reason=reason,
        remedy=remedy,
        spec=spec,
        rule_id=rule_id,
        observation=observation,
        digest=digest,
        approval_id=approval_id,
        detail=detail,
    )


POLICY_ERROR_REMEDY = (
    "this is a fault in the gateway, not in your call: do not retry in a loop; tell the person, "
    "who can run `winmcp-gateway doctor` and read the audit log"
)


def policy_error(reason: str, *, spec: str = "S-DEC-05") -> Decision:
    """DENY `POLICY_ERROR` with `reason` (cut to 300 characters): the fail-closed answer.

    Args:
        reason: what failed, e.g. "rules failed to load: …".
        spec: the requirement id that applies.

    Returns:
        The decision (always enforced).
    """
    text = " ".join(str(reason).split())[:300] or "the policy failed"
    return Decision(verdict=Verdict.DENY, code=Code.POLICY_ERROR, reason=text, remedy=POLICY_ERROR_REMEDY, spec=spec)


def ensure_decision(value: object) -> Decision:
    """The shape contract: `value` if it is a well-formed Decision, else DENY POLICY_ERROR (S-DEC-02).

    Args:
        value: whatever a policy step returned.

    Returns:
        A Decision; never raises.
    """
    if type(value) is not Decision:
        return policy_error(f"the policy returned {type(value).__name__}, not a Decision", spec="S-DEC-02")
    try:
        _validate(value)  # a frozen value can still be tampered with via object.__setattr__
    except (TypeError, ValueError) as exc:
        return policy_error(f"the policy returned a malformed Decision: {exc}", spec="S-DEC-02")
    return value


def refusal_text(decision: Decision) -> str:
    """The first text item of a refusal: `DENIED <CODE>: <reason> Remedy: <remedy>` (S-DEC-03).

    Whitespace (including newlines a window title may smuggle in) is folded to single spaces
    so the refusal is one line that no quoted text can break out of.

    Args:
        decision: a DENY or ASK decision.

    Returns:
        The one-line refusal text.

    Raises:
        ValueError: `decision` is an ALLOW (there is nothing to refuse).
    """
    if decision.verdict is Verdict.ALLOW or decision.code is None:
        raise ValueError("an ALLOW has no refusal text")
    reason = " ".join(decision.reason.split())
    remedy = " ".join(decision.remedy.split())
    return f"DENIED {decision.code.value}: {reason} Remedy: {remedy}"
