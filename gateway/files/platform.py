"""Which platform's rules apply: the one switch the Windows-specific code paths read.

Windows is the only production platform, but the tests run on Linux: every function that
behaves differently on Windows (command-line quoting, owner-only files) takes `platform`
(a `sys.platform` value) and asks `is_windows`, so a test forces the Windows branch by
passing "win32" instead of patching `sys.platform` for the whole process.
"""

from __future__ import annotations

import sys

WINDOWS = "win32"


def is_windows(platform: str | None = None) -> bool:
    """Whether Windows rules apply.

    Args:
        platform: a `sys.platform` value; None means this machine's.

    Returns:
        True for "win32".
    """
    return (sys.platform if platform is None else platform) == WINDOWS
