"""A second, independent MCP client — the MCP Inspector CLI (npm) — drives the gateway over stdio
and over streamable HTTP (S-PROTO-11, S-HTTP-01).

`scripts/test` installs the inspector into `.tools/`; without it (or without `node` to run it)
these tests FAIL — they do not skip: an interoperability claim nobody checked is not a claim —
with one line that names the install step, not a traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import pytest
from anyio.streams.text import TextReceiveStream

from tests._requirements import REPO, UPSTREAM_DATA, requirement

pytestmark = pytest.mark.anyio

INSPECTOR = REPO / ".tools" / "node_modules" / ".bin" / ("mcp-inspector.cmd" if os.name == "nt" else "mcp-inspector")
INSPECTOR_VERSION = "2.12.0"  # the one scripts/test installs
INSTALL_STEP = (
    "run `sh scripts/test` (it installs the Inspector into .tools/), or just that step: "
    f"`npm install --prefix .tools @modelcontextprotocol/inspector@{INSPECTOR_VERSION}`"
)
UPSTREAM_TOOLS = {t["name"] for t in json.loads((UPSTREAM_DATA / "tools_list.json").read_text())["tools"]}
OWN_TOOLS = {
    "winmcp_state",
    "winmcp_to_screen",
    "winmcp_screen_to_image",
    "winmcp_kill",
    "winmcp_audit",
    "winmcp_doctor",
}
TOKEN = "inspector-token-0123456789abcdef"
SERVING = re.compile(r"serving MCP on (http://\S+/mcp)")


def missing_inspector(path: Path, which: Callable[[str], str | None] | None = None) -> str | None:
    """Why the inspector at `path` cannot run here (None when it can); the reason names the install step."""
    which = which or shutil.which
    if not path.exists():
        where = path.relative_to(REPO) if path.is_relative_to(REPO) else path
        return f"the MCP Inspector CLI is missing ({where}): {INSTALL_STEP}"
    if which("node") is None:
        return f"the MCP Inspector CLI is installed but `node` is not on PATH: install Node.js, then {INSTALL_STEP}"
    return None


def inspector() -> Path:
    """The installed inspector CLI, or a one-line failure (no traceback) that says how to get it."""
    why = missing_inspector(INSPECTOR)
    if why is not None:
        pytest.fail(why, pytrace=False)
    return INSPECTOR


def gateway_argv(state: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "gateway", "serve", "--upstream", "sim", "--state-dir", str(state), *extra]


async def run_inspector(tmp: Path, *args: str) -> dict[str, Any]:
    """Run `mcp-inspector --cli ARGS` and return its JSON answer."""
    env = {**os.environ, "MCP_CATALOG_PATH": str(tmp / "inspector-catalog.json")}
    with anyio.fail_after(120):
        done = await anyio.run_process([str(inspector()), "--cli", *args], env=env, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@requirement("S-PROTO-11")
@pytest.mark.parametrize(
    ("present", "node", "says"),
    [
        (False, "/usr/bin/node", "the MCP Inspector CLI is missing (.tools/"),
        (True, None, "`node` is not on PATH"),
    ],
)
def test_a_missing_inspector_fails_in_one_line_naming_the_install_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, present: bool, node: str | None, says: str
) -> None:
    """S-PROTO-11: without the inspector (or node) the test fails — not skips — naming `sh scripts/test`."""
    fake = REPO / ".tools" / "node_modules" / ".bin" / "no-such-inspector"
    if present:
        fake = tmp_path / "mcp-inspector"
        fake.write_text("#!/usr/bin/env node\n")
    monkeypatch.setattr(sys.modules[__name__], "INSPECTOR", fake)
    monkeypatch.setattr(shutil, "which", lambda name: node)
    with pytest.raises(pytest.fail.Exception) as failed:
        inspector()
    assert says in str(failed.value)
    assert "`sh scripts/test`" in str(failed.value)
    assert failed.value.pytrace is False  # the reason alone, no traceback to read past


def _texts(result: dict[str, Any]) -> list[str]:
    return [item.get("text", "") for item in result.get("content", []) if item.get("type") == "text"]


@requirement("S-PROTO-11")
async def test_the_inspector_lists_and_calls_tools_over_stdio(tmp_path: Path) -> None:
    """S-PROTO-11: over stdio the inspector sees the 21 upstream tools plus the 6 own ones and gets an
    observation."""
    listed = await run_inspector(tmp_path, "--method", "tools/list", "--", *gateway_argv(tmp_path / "state"))
    assert {t["name"] for t in listed["tools"]} == UPSTREAM_TOOLS | OWN_TOOLS
    called = await run_inspector(
        tmp_path, "--method", "tools/call", "--tool-name", "Snapshot", "--", *gateway_argv(tmp_path / "state")
    )
    assert not called.get("isError")
    assert _texts(called)[-1].startswith("[gateway] obs=obs-")


async def _serving_url(process: anyio.abc.Process, seen: list[str]) -> str:
    assert process.stderr is not None
    async for chunk in TextReceiveStream(process.stderr):
        seen.append(chunk)
        if match := SERVING.search("".join(seen)):
            return match.group(1)
    raise AssertionError("the gateway exited before serving: " + "".join(seen))


@requirement("S-PROTO-11", "S-HTTP-01")
async def test_the_inspector_lists_and_calls_tools_over_http(tmp_path: Path) -> None:
    """S-PROTO-11/S-HTTP-01: `serve --http 127.0.0.1:0 --token T` prints its URL; the inspector uses it with
    the token."""
    inspector()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WINMCP_")}
    argv = gateway_argv(tmp_path / "state", "--http", "127.0.0.1:0", "--token", TOKEN)
    seen: list[str] = []
    async with await anyio.open_process(argv, env=env) as process:
        try:
            with anyio.fail_after(60):
                url = await _serving_url(process, seen)
            assert url.startswith("http://127.0.0.1:")
            header = f"Authorization: Bearer {TOKEN}"
            listed = await run_inspector(
                tmp_path, url, "--transport", "http", "--header", header, "--method", "tools/list"
            )
            assert {t["name"] for t in listed["tools"]} == UPSTREAM_TOOLS | OWN_TOOLS
            called = await run_inspector(
                tmp_path,
                url,
                "--transport",
                "http",
                "--header",
                header,
                "--method",
                "tools/call",
                "--tool-name",
                "Snapshot",
            )
            assert _texts(called)[-1].startswith("[gateway] obs=obs-")
        finally:
            process.terminate()
            with anyio.fail_after(30):
                await process.wait()
    assert TOKEN not in "".join(seen)  # a token given on the command line is not echoed
