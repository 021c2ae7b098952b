"""The doctor's `private` check: which windows the gateway masks, and which patterns are odd (S-PRIV-09)."""

from __future__ import annotations

from gateway.config.load import GatewayConfig
from gateway.doctor.model import Check, Finding, Verdict
from policy.private import DEFAULT_PRIVATE_WINDOWS, private_patterns

TITLE = "private windows"


def check_private(config: GatewayConfig) -> Check:
    """Report the effective `private_windows` patterns; every odd one is a WARNING (S-PRIV-09).

    Args:
        config: the loaded config (`private_windows` is read; the built-in list always applies).

    Returns:
        OK with the patterns in `data`, or WARNING naming each pattern that is not a plain title
        pattern (not a string, empty, matches every title, or a window class upstream cannot show).
    """
    configured = config.private_windows
    patterns = private_patterns(configured if isinstance(configured, list | tuple) else (configured,))
    findings = [Finding(verdict=Verdict.WARNING, message=w) for w in patterns.warnings]
    added = len(patterns.patterns) - len(DEFAULT_PRIVATE_WINDOWS)
    counts = (
        f"{len(patterns.patterns)} patterns ({len(DEFAULT_PRIVATE_WINDOWS)} built in, {added} from private_windows)"
    )
    return Check.of(
        "private",
        TITLE,
        findings,
        ok=f"{counts}; their windows are masked in every capture and refused as input targets",
        data={
            "patterns": list(patterns.patterns),
            "builtin": list(DEFAULT_PRIVATE_WINDOWS),
            "configured": [str(p) for p in configured],
        },
    )
