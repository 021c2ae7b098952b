"""The command line: `winmcp-gateway serve|sim|demo|doctor|audit-report|kill|approve|deny`."""

from gateway.cli.commands import main

__all__ = ["main"]
