"""Clients and places end to end (issue 16 items 4, 5, 7): real children, the package as installed.

- the entry `install json` prints is started the way a client starts it and serves the gateway
  (S-CLI-22);
- a gateway child started through the SDK's stdio client reads the test's temporary home and
  nothing else (S-CFG-20), and an agent that tries to move that home is refused with nothing
  reaching the simulated desktop (S-CFG-21);
- `paths`, `config show`, `install json` and `init` work from the files a wheel holds (the
  packages' modules and declared package data only, `python -S`, no source tree on the path),
  and `init` writes there what the key table renders (S-CFG-23, S-CFG-24, S-CLI-21).
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from gateway.config.docs import render_init
from gateway.config.keys import ENV_HOME
from tests._requirements import REPO, requirement
from tests.e2e.harness import first_text, gateway_rig, gateway_stdio_params

pytestmark = pytest.mark.anyio
TIMEOUT_S = 60


def _cli(*argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gateway", *argv],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
        stdin=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )


@requirement("S-CLI-22")
async def test_the_printed_entry_starts_the_gateway_the_way_a_client_starts_it(tmp_path: Path) -> None:
    """S-CLI-22: command + args + env from `install json --upstream sim` serve 21 + 6 tools over stdio."""
    done = _cli("install", "json", "--upstream", "sim", "--state-dir", str(tmp_path / "state"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["mcpServers"]["winmcp-gateway"]
    assert Path(entry["command"]).is_absolute() and entry["env"] == {
        "WINMCP_GATEWAY_STATE_DIR": str(tmp_path / "state")
    }
    # What a client passes: its own minimal environment plus the entry's env block (and the test's home).
    params = StdioServerParameters(
        command=entry["command"], args=entry["args"], env={**entry["env"], ENV_HOME: os.environ[ENV_HOME]}
    )
    with anyio.fail_after(TIMEOUT_S):
        async with Client(params, mode="legacy") as client:
            tools = (await client.list_tools()).tools
    assert len(tools) == 27 and (tmp_path / "state").is_dir()


@requirement("S-CFG-20")
async def test_a_stdio_gateway_child_reads_the_tests_home_and_nothing_else(tmp_path: Path) -> None:
    """S-CFG-20: a config.toml in the temporary home reaches a child started through the SDK's stdio client."""
    home = Path(os.environ[ENV_HOME])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text('tools_deny = ["Click"]\n', encoding="utf-8")
    params, _, _ = gateway_stdio_params(tmp_path)
    with anyio.fail_after(TIMEOUT_S):
        async with Client(params, mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
    assert "Click" not in names and "Snapshot" in names


@requirement("S-CFG-21")
async def test_an_agent_cannot_move_the_gateway_home_and_nothing_reaches_the_desktop(tmp_path: Path) -> None:
    """S-CFG-21: setx, SetEnvironmentVariable, HKCU\\Environment for WINMCP_GATEWAY_HOME: DENIED SELF_PROTECTION."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("PowerShell", {"command": "setx WINMCP_GATEWAY_HOME C:\\Users\\me\\Desktop\\cfg"}),
        ("PowerShell", {"command": "[Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_HOME', 'C:\\x', 'User')"}),
        ("PowerShell", {"command": "reg add HKCU\\Environment /v WINMCP_GATEWAY_HOME /d C:\\x /f"}),
        (
            "Registry",
            {"mode": "set", "path": "HKCU:\\Environment", "name": "WINMCP_GATEWAY_HOME", "value": "C:\\x"},
        ),
    ]
    with anyio.fail_after(TIMEOUT_S):
        async with gateway_rig(tmp_path) as rig:
            answers = [await rig.call(tool, args) for tool, args in calls]
            assert rig.side_effects() == [], "nothing reached the simulated system"
            ordinary = await rig.call("PowerShell", {"command": "Get-Date"})
            reached = rig.side_effects()
    for answer in answers:
        assert answer["isError"] is True and first_text(answer).startswith("DENIED SELF_PROTECTION"), answer
    assert ordinary["isError"] is False and [e["kind"] for e in reached] == ["powershell"], "the log does record"


def _installed_copy(tmp_path: Path) -> Path:
    """The files a wheel of this tree holds, laid out as installed: the modules of every package
    `[tool.setuptools.packages.find]` includes, plus the `package-data` globs pyproject declares.

    Done here rather than by setuptools' build_py so that the test does not depend on the
    venv's setuptools being new enough for the build-system pin, and writes nothing into the tree.
    """
    tool = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    include = tool["packages"]["find"]["include"]
    site = tmp_path / "site"
    packages = [
        ".".join(init.parent.relative_to(REPO).parts)
        for init in sorted(REPO.glob("*/**/__init__.py"))
        if init.parent.relative_to(REPO).parts[0] in ("gateway", "policy")
    ]
    for package in packages:
        if not any(fnmatch.fnmatch(package, pattern) for pattern in include):
            continue
        folder = REPO.joinpath(*package.split("."))
        globs = ["*.py", *tool.get("package-data", {}).get(package, [])]
        for pattern in globs:
            for source in folder.glob(pattern):
                target = site / source.relative_to(REPO)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
    return site


@requirement("S-CFG-23", "S-CFG-24", "S-CLI-21")
def test_paths_config_show_install_and_init_work_from_the_installed_package(tmp_path: Path) -> None:
    """S-CFG-23: with only a wheel's files, outside the source tree, the commands work and init/example ship."""
    site = _installed_copy(tmp_path)
    shipped = (site / "gateway" / "config" / "example.toml").read_text(encoding="utf-8")
    assert shipped == (REPO / "gateway" / "config" / "example.toml").read_text(
        encoding="utf-8"
    )  # == the table: S-CFG-23
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # -S: no site-packages processing, so the editable install's finder cannot bring the source tree back.
    env = {
        "PYTHONPATH": os.pathsep.join([str(site), sysconfig.get_path("purelib"), sysconfig.get_path("platlib")]),
        ENV_HOME: str(tmp_path / "home"),
        "HOME": str(tmp_path / "userhome"),
        "PATH": os.environ.get("PATH", ""),
    }

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-S", "-m", "gateway", *argv],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
            env=env,
            cwd=elsewhere,
        )

    probe = subprocess.run(
        [sys.executable, "-S", "-c", "import gateway; print(gateway.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=elsewhere,
        check=False,
        timeout=TIMEOUT_S,
    )
    assert probe.stdout.strip() == str(site / "gateway" / "__init__.py"), (probe.stdout, probe.stderr)
    paths = run("paths", "--json")
    assert paths.returncode == 0, paths.stderr
    assert json.loads(paths.stdout)["state_dir"]["path"] == str(tmp_path / "home" / "state")
    shown = run("config", "show", "--json")
    assert shown.returncode == 0 and len(json.loads(shown.stdout)["keys"]) > 20, shown.stderr
    printed = run("install", "json")
    assert printed.returncode == 0 and "winmcp-gateway" in json.loads(printed.stdout)["mcpServers"], printed.stderr
    init = run("init")
    assert init.returncode == 0, init.stderr
    assert (tmp_path / "home" / "config.toml").read_text(encoding="utf-8") == render_init()
    bogus = tmp_path / "bogus.toml"
    bogus.write_text("zzz_unlike_any_key = 1\n", encoding="utf-8")
    warned = run("paths", "--config", str(bogus))
    cited = str(site / "gateway" / "config" / "example.toml")
    assert warned.returncode == 0 and cited in warned.stderr, warned.stderr
    # The generator rewrites the source tree's README: from the installed copy it says so (S-CFG-24).
    generator = subprocess.run(
        [sys.executable, "-S", "-m", "gateway.config.docs", "--check"],
        capture_output=True,
        text=True,
        env=env,
        cwd=elsewhere,
        check=False,
        timeout=TIMEOUT_S,
    )
    assert generator.returncode == 2 and "source checkout only" in generator.stderr, generator.stderr
