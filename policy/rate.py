"""The brake for runaway agents: token buckets and the loop detector, as values (S-RATE-01..09).

Pure: every function takes the clock reading `now_ms` as an argument; the shell keeps one
`BrakeState` per client session (gateway/state/rate_state.py) and hands it to `decide` inside a
`Brake`. Three transitions change a state, and the shell applies them:

- `charged`   — a call of a braked class was forwarded: one token spent, the identical-call run
                extended (or restarted), the refusal run ended;
- `refused`   — the gateway refused a call of a braked class: the refusal run grows (`COUNTED`);
                a LOOP_DETECTED refusal latches the detector;
- `observed`  — the model took a fresh observation (a Snapshot/Screenshot that became an
                `Observation` of this session): the loop detector starts over. Buckets refill
                with time only — looking does not buy actions.

What is braked: INPUT, SYSTEM and UNKNOWN calls, each class with its own bucket. Never braked:
read-only tools (observation is the remedy the brake asks for; a stopped agent must still be able
to look, DESIGN.md §5) and the gateway's own `winmcp_*` tools (`winmcp_kill` must always engage).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from policy.approval import approval_digest
from policy.catalog import ToolClass, classify
from policy.decision import Code, Decision, refuse

BRAKED_CLASSES: tuple[ToolClass, ...] = (ToolClass.INPUT, ToolClass.SYSTEM, ToolClass.UNKNOWN)

# The defaults, and why they never bother a normal agent: an LLM agent takes one turn (≥ ~1 s) per
# tool call; 10 input actions a second is ten times that, and the burst of 10 lets a scripted
# client type a form's fields back to back. A system call (a command, a file, a process) per two
# seconds sustained with a burst of 30 covers any agent that reads its results. Ten identical calls
# with no look in between, or ten refusals in a row, is not exploring: it is a loop.
DEFAULT_TABLE: Mapping[str, object] = {
    "input": "10/s",
    "system": "30/min",
    "unknown": "30/min",
    "identical_calls": 10,
    "refusals_in_a_row": 10,
}
RATE_KEYS = ("input", "system", "unknown")
COUNT_KEYS = ("identical_calls", "refusals_in_a_row")
MAX_COUNT = 10_000  # a larger rate or run length would be no brake at all: say "off" instead

_UNIT_MS = {"s": 1_000.0, "sec": 1_000.0, "second": 1_000.0, "min": 60_000.0, "minute": 60_000.0}
_UNIT_MS |= {"h": 3_600_000.0, "hour": 3_600_000.0}
_RATE = re.compile(r"\s*([0-9]+)\s*(?:/|per)\s*([a-z]+?)s?\s*", re.ASCII)

# Refusals that do not count towards "M refusals in a row" (S-RATE-04), and why:
# KILLED — a person stopped everything; an agent that retries meanwhile is waiting, not looping,
#   and must not come back from a release braked for what the person did.
# RATE_LIMITED — its remedy is "wait and retry"; counting it would turn a time-limited throttle
#   into a lock that only an observation lifts, contradicting what the model was told.
# LOOP_DETECTED — the detector is already latched; counting it changes nothing.
# APPROVAL_REQUIRED (an ask) and PROBE_PENDING — not refusals of the call: the normal road.
NOT_COUNTED: frozenset[Code] = frozenset(
    {Code.KILLED, Code.RATE_LIMITED, Code.LOOP_DETECTED, Code.APPROVAL_REQUIRED, Code.PROBE_PENDING}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rate:
    """`count` calls per `per_ms` milliseconds; also the bucket's capacity (the burst)."""

    count: int
    per_ms: float

    def __post_init__(self) -> None:
        if type(self.count) is not int or not 1 <= self.count <= MAX_COUNT:
            raise ValueError(f"Rate.count must be an int in 1..{MAX_COUNT}, not {self.count!r}")
        if not isinstance(self.per_ms, float) or not math.isfinite(self.per_ms) or self.per_ms <= 0:
            raise ValueError(f"Rate.per_ms must be a positive finite float, not {self.per_ms!r}")

    @property
    def ms_per_token(self) -> float:
        return self.per_ms / self.count


def parse_rate(text: object) -> Rate | None:
    """A rate as written in the config: `"10/s"`, `"30/min"`, `"100 per hour"`; `"off"` is None.

    Raises:
        ValueError: anything else (the caller uses the safe value and warns).
    """
    if not isinstance(text, str):
        raise ValueError('expected a string such as "10/s", "30/min" or "off"')
    if text.strip().lower() == "off":
        return None
    m = _RATE.fullmatch(text.lower())
    if m is None or m.group(2) not in _UNIT_MS:
        raise ValueError('expected <count>/<s|min|h> (e.g. "10/s") or "off"')
    count = int(m.group(1))
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f'the count must be 1..{MAX_COUNT} (write "off" for no limit)')
    return Rate(count=count, per_ms=_UNIT_MS[m.group(2)])


@dataclass(frozen=True, slots=True, kw_only=True)
class RateLimits:
    """The effective limits: a rate per braked class (None: off) and the loop thresholds (0: off)."""

    input: Rate | None = parse_rate(DEFAULT_TABLE["input"])
    system: Rate | None = parse_rate(DEFAULT_TABLE["system"])
    unknown: Rate | None = parse_rate(DEFAULT_TABLE["unknown"])
    identical_calls: int = 10
    refusals_in_a_row: int = 10

    def __post_init__(self) -> None:
        for name in RATE_KEYS:
            value = getattr(self, name)
            if value is not None and type(value) is not Rate:
                raise TypeError(f"RateLimits.{name} must be a Rate or None")
        for name in COUNT_KEYS:
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value <= MAX_COUNT:
                raise ValueError(f"RateLimits.{name} must be an int in 0..{MAX_COUNT}, not {value!r}")

    def rate_of(self, cls: ToolClass) -> Rate | None:
        return getattr(self, cls.value) if cls in BRAKED_CLASSES else None


def read_limits(table: object) -> tuple[dict[str, object], tuple[str, ...]]:
    """The `rate_limits` table as used, and what was wrong with it (fail closed, S-RATE-07).

    An entry that cannot be used is replaced by its default (a brake that is on) and named in a
    problem; an unknown entry is named and ignored; a missing one takes its default.

    Args:
        table: what the config said (a mapping, normally).

    Returns:
        (every entry with the value used, problems as "entry: why; received R, using U").
    """
    used: dict[str, object] = dict(DEFAULT_TABLE)
    problems: list[str] = []
    if not isinstance(table, Mapping):
        return used, (f"expected a table; received {table!r}, using the defaults",)
    for name, value in table.items():
        if name in RATE_KEYS:
            try:
                parse_rate(value)
                used[name] = value.strip() if isinstance(value, str) else value
            except ValueError as exc:
                problems.append(f"{name}: {exc}; received {value!r}, using {DEFAULT_TABLE[name]!r}")
        elif name in COUNT_KEYS:
            if type(value) is int and 0 <= value <= MAX_COUNT:
                used[name] = value
            else:
                why = f"expected an integer 0..{MAX_COUNT} (0 = off)"
                problems.append(f"{name}: {why}; received {value!r}, using {DEFAULT_TABLE[name]!r}")
        else:
            problems.append(f"{name}: unknown entry (one of {', '.join(RATE_KEYS + COUNT_KEYS)}); ignored")
    return used, tuple(problems)


def limits_of(table: object) -> RateLimits:
    """`RateLimits` from a `rate_limits` table (unusable entries take their defaults, as in `read_limits`)."""
    used, _ = read_limits(table)
    counts = {name: used[name] for name in COUNT_KEYS}
    return RateLimits(
        input=parse_rate(used["input"]),
        system=parse_rate(used["system"]),
        unknown=parse_rate(used["unknown"]),
        **counts,  # type: ignore[arg-type]
    )


def describe_rate(rate: Rate | None) -> str:
    """`"10/s"`-style text for a rate (also "off")."""
    if rate is None:
        return "off"
    unit = {1_000.0: "s", 60_000.0: "min", 3_600_000.0: "h"}.get(rate.per_ms, f"{rate.per_ms:g} ms")
    return f"{rate.count}/{unit}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Bucket:
    """Tokens left at time `at_ms`; between calls it refills at the class's rate up to the burst."""

    level: float
    at_ms: float


def level_at(bucket: Bucket | None, rate: Rate, now_ms: float) -> float:
    """Tokens available at `now_ms`. A clock that went backwards refills nothing (fail closed)."""
    if bucket is None:
        return float(rate.count)
    elapsed = max(0.0, now_ms - bucket.at_ms)
    return min(float(rate.count), bucket.level + elapsed / rate.ms_per_token)


@dataclass(frozen=True, slots=True, kw_only=True)
class BrakeState:
    """One session's brake: its buckets (None: full) and the loop detector's runs.

    Attributes:
        buckets: class value ("input", "system", "unknown") → bucket; a missing class is full.
        last_digest: the digest of the last forwarded braked call since the last observation.
        identical_run: how many forwarded calls in a row had `last_digest`.
        refusal_run: counted refusals in a row (since the last forwarded call or observation).
        loop: why the detector is latched ("" when it is not): every braked call is refused
            LOOP_DETECTED until the next observation.
    """

    buckets: tuple[tuple[str, Bucket], ...] = ()
    last_digest: str | None = None
    identical_run: int = 0
    refusal_run: int = 0
    loop: str = ""

    def bucket(self, cls: ToolClass) -> Bucket | None:
        return dict(self.buckets).get(cls.value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Brake:
    """What `decide` reads about the brake: the limits and this session's state."""

    limits: RateLimits
    state: BrakeState

    def __post_init__(self) -> None:
        if type(self.limits) is not RateLimits or type(self.state) is not BrakeState:
            raise TypeError("Brake needs a RateLimits and a BrakeState")


def braked(tool: str) -> ToolClass | None:
    """The class whose bucket `tool` draws on, or None for tools the brake never touches."""
    cls = classify(tool)
    return cls if cls in BRAKED_CLASSES else None


_OBSERVE = "take a Snapshot (or Screenshot), look at what your last actions actually did, and rethink the plan"


def brake_refusal(brake: Brake, tool: str, args: Mapping[str, object], now_ms: float) -> Decision | None:
    """The brake's answer for one call: LOOP_DETECTED, RATE_LIMITED, or None (S-RATE-01, -03, -04).

    The loop detector is asked first: it needs an observation, which waiting does not give.

    Args:
        brake: the limits and the session's state.
        tool: the tool called.
        args: its arguments (the gateway's own are ignored by the digest).
        now_ms: the clock now.

    Returns:
        A refusal, or None when the brake lets the call on down the chain.
    """
    cls = braked(tool)
    if cls is None:
        return None
    limits, state = brake.limits, brake.state
    loop, spec = state.loop, "S-RATE-03"
    if not loop and limits.refusals_in_a_row and state.refusal_run >= limits.refusals_in_a_row:
        loop, spec = f"{state.refusal_run} calls in a row were refused", "S-RATE-04"
    repeats = limits.identical_calls and state.identical_run >= limits.identical_calls
    if not loop and repeats and state.last_digest == approval_digest(tool, args):
        loop = f"the same call already went through {state.identical_run} times in a row with no observation"
    if loop:
        return refuse(
            Code.LOOP_DETECTED,
            f"the gateway sees a loop: {loop}. Every input and system call of this session is refused "
            "until it observes.",
            f"stop repeating; {_OBSERVE} before acting again. Tell the person if you are stuck",
            spec=spec,
            detail=(("loop", loop),),
        )
    rate = limits.rate_of(cls)
    if rate is None:
        return None
    level = level_at(state.bucket(cls), rate, now_ms)
    if level >= 1.0:
        return None
    wait_ms = math.ceil((1.0 - level) * rate.ms_per_token)
    return refuse(
        Code.RATE_LIMITED,
        f"this session is making {cls.value} calls faster than {describe_rate(rate)} (rate_limits.{cls.value}).",
        f"wait at least {wait_ms} ms before the next {cls.value} call; meanwhile {_OBSERVE}: a burst of "
        "actions without looking is usually a sign that they do not do what you expect",
        spec="S-RATE-01",
        detail=(("retry_after_ms", str(wait_ms)), ("rate", describe_rate(rate))),
    )


def charged(state: BrakeState, limits: RateLimits, tool: str, args: Mapping[str, object], now_ms: float) -> BrakeState:
    """The state after a braked call was forwarded: a token spent, the runs updated (S-RATE-02, -03).

    A token is spent only here — by a call that reaches the upstream. A refusal or an ask costs
    none, so a call that waited for an approval and came back with its approval id pays once.
    The level never goes below zero: a call a person approved while the bucket emptied still goes.
    """
    cls = braked(tool)
    if cls is None:
        return state
    buckets = dict(state.buckets)
    rate = limits.rate_of(cls)
    if rate is not None:
        level = max(0.0, level_at(state.bucket(cls), rate, now_ms) - 1.0)
        held = state.bucket(cls)
        # A clock that went backwards keeps the old reading, so the time is not refilled twice.
        buckets[cls.value] = Bucket(level=level, at_ms=now_ms if held is None else max(now_ms, held.at_ms))
    digest = approval_digest(tool, args)
    run = state.identical_run + 1 if digest == state.last_digest else 1
    return replace(state, buckets=tuple(sorted(buckets.items())), last_digest=digest, identical_run=run, refusal_run=0)


def refused(state: BrakeState, tool: str, code: Code | str | None, *, loop: str = "") -> BrakeState:
    """The state after the gateway refused a braked call with `code` (S-RATE-04).

    Args:
        state: the session's state.
        tool: the tool refused.
        code: the refusal code.
        loop: for LOOP_DETECTED, what the detector saw (the latch keeps saying it).
    """
    if braked(tool) is None or code is None:
        return state
    if code == Code.LOOP_DETECTED:
        return state if state.loop else replace(state, loop=loop or "an earlier call was refused LOOP_DETECTED")
    if code in NOT_COUNTED:
        return state
    return replace(state, refusal_run=state.refusal_run + 1)


def observed(state: BrakeState) -> BrakeState:
    """The state after a fresh observation of the session: the loop detector starts over (S-RATE-05)."""
    return replace(state, last_digest=None, identical_run=0, refusal_run=0, loop="")


def levels(state: BrakeState, limits: RateLimits, now_ms: float) -> dict[str, object]:
    """What `winmcp_state` shows: tokens left per class (None: off) and the loop detector (S-RATE-08)."""
    out: dict[str, object] = {}
    for cls in BRAKED_CLASSES:
        rate = limits.rate_of(cls)
        out[cls.value] = (
            None
            if rate is None
            else {
                "tokens": round(level_at(state.bucket(cls), rate, now_ms), 3),
                "rate": describe_rate(rate),
            }
        )
    out["identical_run"] = state.identical_run
    out["refusal_run"] = state.refusal_run
    out["loop"] = state.loop or None
    return out
