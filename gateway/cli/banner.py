"""What `winmcp-gateway serve` says once, on stderr, when it starts (issue 16 item 6; S-CLI-40).

A client's log (Claude Desktop's `mcp-server-*.log`, VS Code's output panel) shows a server's
stderr; these lines tell whoever reads it what is running: the version, the upstream and how
the gateway talks to it, where the state, config and audit are, and whether refusals are
enforced. stdout is never written here: over stdio it carries protocol messages only.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from gateway import __version__
from gateway.audit.writer import FILE_NAME as AUDIT_FILE
from gateway.config.load import GatewayConfig, weakened_settings
from gateway.upstream.supervisor import UpstreamSpec

PREFIX = "winmcp-gateway:"
_PROTOCOL = {
    "legacy": "legacy (the initialize handshake)",
    "auto": "auto (the era the upstream answers)",
}


def _mode(config: GatewayConfig) -> str:
    weakened = [setting for setting in weakened_settings(config) if not setting.startswith("enforce ")]
    mode = (
        "SHADOW MODE (enforce = false): refusals are audited as would-deny, NOT enforced"
        if not config.enforce
        else "enforcing"
    )
    return mode + (f"; weakened: {', '.join(weakened)}" if weakened else "")


def serve_banner(config: GatewayConfig, spec: UpstreamSpec, *, http: str | None, mode: str) -> list[str]:
    """The start-up lines of `serve`, each starting `winmcp-gateway:`.

    Args:
        config: the effective config.
        spec: the upstream.
        http: `--http HOST:PORT`, or None for stdio.
        mode: `--protocol` (how the gateway talks to the upstream).

    Returns:
        The lines, in order: version and transport, upstream, protocol, state dir, config file
        (or "none, defaults"), audit path (or off), enforcement mode.
    """
    serving = f"streamable HTTP on {http}" if http else "stdio (stdout carries protocol messages only)"
    kind = "URL" if spec.url else "command"
    config_file = str(config.config_file) if config.config_file else "none, defaults"
    audit = (
        os.path.join(os.path.abspath(config.state_dir), AUDIT_FILE)
        if config.auto_audit
        else "off (auto_audit = false): nothing is recorded"
    )
    return [
        f"{PREFIX} version {__version__}, serving MCP over {serving}",
        f"{PREFIX}   upstream:  {spec.describe()} ({kind})",
        f"{PREFIX}   protocol:  {_PROTOCOL.get(mode, mode)} to the upstream",
        f"{PREFIX}   state dir: {os.path.abspath(config.state_dir)}",
        f"{PREFIX}   config:    {config_file}",
        f"{PREFIX}   audit:     {audit}",
        f"{PREFIX}   mode:      {_mode(config)}",
    ]


def print_banner(
    config: GatewayConfig, spec: UpstreamSpec, *, http: str | None, mode: str, stream: TextIO | None = None
) -> None:
    """Write `serve_banner` to stderr (or `stream`), flushed: a client may read it before anything else."""
    out = stream or sys.stderr
    out.write("\n".join(serve_banner(config, spec, http=http, mode=mode)) + "\n")
    out.flush()
