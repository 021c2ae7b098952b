"""The upstream command as one string: split and shown with the rules of the platform it runs on.

`--upstream-cmd "C:\\tools\\uvx.exe windows-mcp"` must reach Windows as `C:\\tools\\uvx.exe`;
POSIX shell rules would read the backslashes as escapes (`C:toolsuvx.exe`). So (S-UPS-20):

    Windows  the rules every Windows program's C runtime applies to its command line
             (CommandLineToArgvW; `policy.rules.shell.argv.split_command_line`, the command
             analysers' own splitter): blanks separate, `"` groups, backslashes are literal
             unless they precede a `"` (2N+1 backslashes before `"`: N and a literal quote),
             `""` inside quotes is a quote; the program name only groups by quotes.
             Shown back with `subprocess.list2cmdline`, the exact line Python hands
             CreateProcess, which that splitter reads back unchanged.
    POSIX    `shlex.split` / `shlex.join`.

`is_windows(platform)` is the one switch; tests pass `platform="win32"` on Linux.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Sequence

from gateway.files.platform import is_windows
from policy.rules.shell.argv import split_command_line


def split_command(command_line: str, *, platform: str | None = None) -> list[str]:
    """Split a command line into argv with the platform's rules (see the module docstring).

    Args:
        command_line: the program and its arguments as one string.
        platform: a `sys.platform` value; None means this machine's.

    Returns:
        The argv (empty for a blank line).

    Raises:
        ValueError: POSIX only — an unterminated quote or a trailing backslash. (Windows rules
            accept every string: an open quote runs to the end of the line.)
    """
    if is_windows(platform):
        return split_command_line(command_line)
    return shlex.split(command_line, posix=True)


def join_command(argv: Sequence[str], *, platform: str | None = None) -> str:
    """The argv as one line the same platform's `split_command` reads back unchanged.

    Args:
        argv: the program and its arguments.
        platform: a `sys.platform` value; None means this machine's.

    Returns:
        The command line: `list2cmdline` quoting on Windows, POSIX shell quoting elsewhere.
    """
    if is_windows(platform):
        return subprocess.list2cmdline(list(argv))
    return shlex.join(argv)
