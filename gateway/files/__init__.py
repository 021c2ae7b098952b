"""Files the gateway keeps for one user: owner-only protection and retries past Windows' sharing locks.

A leaf package (it imports only the standard library), so the audit, the state and the
transport layers can all use it.
"""

from gateway.files.owner_only import (
    FileGuard,
    Identity,
    Protection,
    ProtectionKind,
    ensure_private_dir,
    inspect,
    protect_dir,
    protect_file,
)
from gateway.files.platform import WINDOWS, is_windows
from gateway.files.retry import SHARING_RETRY, SharingRetry

__all__ = [
    "SHARING_RETRY",
    "WINDOWS",
    "FileGuard",
    "Identity",
    "Protection",
    "ProtectionKind",
    "SharingRetry",
    "ensure_private_dir",
    "inspect",
    "is_windows",
    "protect_dir",
    "protect_file",
]
