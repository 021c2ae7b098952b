"""The command line: `winmcp-gateway serve|sim|demo|doctor|audit-report|kill|approve|deny`.

`main` checks that `gateway` and `policy` are this product's own before the commands (which
import `policy`) are loaded (`gateway.cli.ownership`, S-WIN-13).
"""

import collections.abc
import sys


def main(argv: collections.abc.Sequence[str] | None = None) -> int:
    """Entry point of `winmcp-gateway`; returns the process exit code (2 when a package is not ours)."""
    from gateway.cli.ownership import ownership_problem

    problem = ownership_problem()
    if problem is not None:
        print(f"winmcp-gateway: error: {problem}", file=sys.stderr)
        return 2
    from gateway.cli.commands import main as run

    return run(argv)


__all__ = ["main"]
