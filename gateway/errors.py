"""The gateway's exceptions, short by design.

    GatewayError                 (exit 1)
    ├── ConfigError              (exit 2)  bad flags, unreadable or invalid config
    ├── UpstreamError            (exit 3)  upstream could not be started, died, timed out
    │   └── UpstreamTimeout
    └── AuditWriteError          (exit 4)  only raised by explicit checks; appends never raise

A denial is never an exception: it is a tool result (DESIGN.md §8). Exceptions are for
the shell's own faults, and each carries the CLI exit code it maps to.
"""

from __future__ import annotations

from typing import ClassVar


class GatewayError(Exception):
    """Base of every gateway fault; `exit_code` is what the CLI returns for it."""

    exit_code: ClassVar[int] = 1


class ConfigError(GatewayError):
    exit_code: ClassVar[int] = 2


class UpstreamError(GatewayError):
    """The upstream cannot answer. `stderr_tail` holds the last lines it printed, if any."""

    exit_code: ClassVar[int] = 3

    def __init__(self, message: str, *, stderr_tail: str = "", code: str = "UPSTREAM_FAILED") -> None:
        super().__init__(message)
        self.stderr_tail = stderr_tail
        self.code = code


class UpstreamTimeout(UpstreamError):
    exit_code: ClassVar[int] = 3


class AuditWriteError(GatewayError):
    exit_code: ClassVar[int] = 4
