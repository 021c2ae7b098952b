"""The key that signs the 2026-07-28 approval round trip's `request_state` (S-APR-08)."""

from __future__ import annotations

import hashlib
import hmac
import secrets


class StateSigner:
    """Signs and checks the `request_state` of the 2026-07-28 round trip."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key or secrets.token_bytes(32)

    def sign(self, approval_id: str, digest: str) -> str:
        mac = hmac.new(self._key, f"{approval_id}:{digest}".encode(), hashlib.sha256).hexdigest()[:32]
        return f"{approval_id}.{mac}"

    def approval_id(self, state: object, digest: str) -> str | None:
        """The approval id a state names, if the state is ours and was issued for this call."""
        if not isinstance(state, str) or "." not in state:
            return None
        approval_id, _, _ = state.partition(".")
        return approval_id if hmac.compare_digest(self.sign(approval_id, digest), state) else None
