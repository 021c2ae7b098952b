"""The gateway's exceptions, short by design.

    GatewayError                 (exit 1)
    ├── ConfigError              (exit 2)  bad flags, unreadable or invalid config
    ├── UpstreamError            (exit 3)  upstream could not be started, died, timed out
    │   └── UpstreamTimeout
    └── AuditWriteError          (exit 4)  only raised by explicit checks; appends never raise

A denial is never an exception: it is a tool result (DESIGN.md §8). Exceptions are for
the shell's own faults, and each carries the CLI exit code it maps to.

An `UpstreamError`'s `code` says which fault it is (a call shows it as `FAILED <code>`):

    UPSTREAM_UNREACHABLE  cannot be started or reached (yet)
    UPSTREAM_DIED         the connection ended mid-request; restarted (S-UPS-02)
    UPSTREAM_TIMEOUT      no answer in `upstream_timeout_s`, but it answers a ping (S-UPS-01)
    UPSTREAM_HUNG         no answer and no ping answer either: killed and restarted (S-UPS-07)
    RESULT_TOO_LARGE      an answer over `max_result_bytes`, dropped unread (S-UPS-10)
    UPSTREAM_BAD_ANSWER   an answer the protocol does not allow
    UPSTREAM_PROTOCOL_ERROR  a JSON-RPC error of the upstream's own, passed on with its code
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
    """No answer in time (UPSTREAM_TIMEOUT); the upstream may still be alive."""

    exit_code: ClassVar[int] = 3


class AuditWriteError(GatewayError):
    exit_code: ClassVar[int] = 4
