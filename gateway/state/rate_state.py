"""Each client session's brake state, in memory (policy/rate.py decides; this holds; S-RATE-01..08).

In memory and per process, unlike the kill switch and approvals: a brake is about one session's
pace, and a session lives in one gateway process. A restarted gateway starts with full buckets,
which is no weaker than a new session.

Exactness under concurrent calls of one session: `decide` reads the state, and the pipeline
applies `after_decision` right after the final `decide` with no `await` in between
(gateway/pipeline/journey.py), so two calls cannot both spend the last token. A call decided
twice (probe pending, then with the probe) reads the state again for its second decision.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from policy.decision import Decision, Verdict
from policy.rate import Brake, BrakeState, RateLimits, braked, charged, levels, observed, refused

# Sessions kept; the oldest-touched are dropped beyond this (a dropped session starts over with
# full buckets, like a new one). Far above the sessions one gateway serves at once.
MAX_SESSIONS = 4096


class RateStates:
    """The brake state of every session of this process, and the limits they share."""

    def __init__(self, limits: RateLimits) -> None:
        self.limits = limits
        self._states: dict[str, BrakeState] = {}
        self._lock = threading.Lock()

    def brake(self, session: str) -> Brake:
        """What `decide` reads for `session` now."""
        with self._lock:
            return Brake(limits=self.limits, state=self._states.get(session, BrakeState()))

    def _put(self, session: str, state: BrakeState) -> None:
        self._states.pop(session, None)
        self._states[session] = state  # most recently touched last
        while len(self._states) > MAX_SESSIONS:
            self._states.pop(next(iter(self._states)))

    def after_decision(
        self, session: str, tool: str, args: Mapping[str, Any], decision: Decision, now_ms: float
    ) -> None:
        """Apply one decided call: a forwarded one spends a token, an enforced refusal may count.

        An ASK (waiting for a person) changes nothing; the call pays when it is forwarded.
        A shadowed refusal (`enforce = false`) is forwarded, so it pays like an allowed call.
        """
        if braked(tool) is None:
            return
        with self._lock:
            state = self._states.get(session, BrakeState())
            if not decision.blocks:
                self._put(session, charged(state, self.limits, tool, args, now_ms))
            elif decision.verdict is Verdict.DENY:
                self._put(session, refused(state, tool, decision.code, loop=dict(decision.detail).get("loop", "")))

    def observed(self, session: str) -> None:
        """A fresh observation of `session` was recorded: its loop detector starts over (S-RATE-05)."""
        with self._lock:
            state = self._states.get(session)
            if state is not None:
                self._put(session, observed(state))

    def levels(self, session: str, now_ms: float) -> dict[str, object]:
        """Tokens left per class and the loop detector's runs, for `winmcp_state` (S-RATE-08)."""
        with self._lock:
            state = self._states.get(session, BrakeState())
        return levels(state, self.limits, now_ms)
