"""What really went wrong: the first exception inside the groups anyio and the SDK wrap it in.

A failed start of the upstream reaches the supervisor as `ExceptionGroup: unhandled errors in a
TaskGroup (1 sub-exception)`, often a group inside a group; the sentence a person needs is the
leaf (`FileNotFoundError: … 'uvx'`, `MCPError: Connection closed`). Cancellations are the
machinery stopping the other tasks, not a cause, so a real leaf is preferred over them.
"""

from __future__ import annotations

import asyncio

# How deep a chain of groups is followed; a deeper one is described as far as it was read.
MAX_DEPTH = 32


def _leaves(exc: BaseException, depth: int = 0) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions and depth < MAX_DEPTH:
        return [leaf for sub in exc.exceptions for leaf in _leaves(sub, depth + 1)]
    return [exc]


def first_cause(exc: BaseException) -> BaseException:
    """The first exception of `exc` that is not a group (nor a cancellation, when another is there).

    Args:
        exc: any exception, a (nested) exception group included.

    Returns:
        `exc` itself when it is not a group; else its first real leaf, depth first.
    """
    leaves = _leaves(exc)
    # anyio runs on asyncio here: its cancellation is asyncio's.
    return next((leaf for leaf in leaves if not isinstance(leaf, asyncio.CancelledError)), leaves[0])


def describe_cause(exc: BaseException) -> str:
    """`Type: message` of `first_cause(exc)` (the type alone when the message is empty)."""
    root = first_cause(exc)
    text = str(root).strip()
    return f"{type(root).__name__}: {text}" if text else type(root).__name__
