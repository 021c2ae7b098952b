"""`DemoSteps`: what a demo step module uses of `gateway.cli.demo.Demo`.

Typed structurally: `demo.py` imports every step module (`demo_audit`, `demo_pin`, `demo_private`,
`demo_protocol`, `demo_rate`), so they cannot import `Demo` back.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from mcp import Client


class DemoSteps(Protocol):
    """The demo's state dir, environment and client, and how a step prints, checks and calls."""

    root: Path
    state: Path
    env: dict[str, str]
    client: Client | None

    def title(self, text: str) -> None: ...
    def say(self, text: str) -> None: ...
    def check(self, ok: bool, what: str) -> None: ...
    def person(self, *argv: str) -> str: ...
    async def call(self, name: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]: ...
    def text(self, result: Mapping[str, Any]) -> str: ...
    def obs_id(self, result: Mapping[str, Any]) -> str: ...
