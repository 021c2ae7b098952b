"""Commands the gateway prints for a person to paste: quoted by the platform's rules, and naming
the state dir when it is not the default one.

A refusal that says "run `winmcp-gateway approve ID`" is useless when the gateway runs on a state
dir the person's terminal does not know (a client config's `--state-dir` or
`WINMCP_GATEWAY_STATE_DIR`): the command would look in the default dir and find nothing. So every
such hint carries `--state-dir <dir>` then (S-APR-31), quoted as the platform's shell reads it:
`subprocess.list2cmdline` on Windows (the C runtime's rules, which cmd and PowerShell hand on to
every native program), `shlex.join` elsewhere — the same rules `gateway.upstream.command_line`
reads an upstream command with.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path

from gateway.config.load import default_state_dir
from gateway.files.platform import is_windows


def quote_args(argv: Sequence[str], *, platform: str | None = None) -> str:
    """One command line whose words, pasted into the platform's shell, are `argv` again.

    Args:
        argv: the words.
        platform: a `sys.platform` value ("win32": Windows rules); None means this machine's.

    Returns:
        The quoted command line.
    """
    return subprocess.list2cmdline(list(argv)) if is_windows(platform) else shlex.join(argv)


def _same_path(a: Path, b: Path) -> bool:
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def state_dir_options(state_dir: Path) -> tuple[str, ...]:
    """`("--state-dir", <dir>)` when `state_dir` is not the default state dir, else `()`."""
    if _same_path(state_dir, default_state_dir()):
        return ()
    return ("--state-dir", os.path.abspath(state_dir))


def state_dir_hint(state_dir: Path, *, platform: str | None = None) -> str:
    """The state dir option as text to append to a printed command (" --state-dir …", or "")."""
    options = state_dir_options(state_dir)
    return " " + quote_args(options, platform=platform) if options else ""
