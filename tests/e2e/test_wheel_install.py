"""The product as a user gets it: a built wheel in a fresh venv, run from outside the source tree.

One module-scoped fixture builds the wheel (`pip wheel . --no-deps`, with build isolation, so
the build backend is the one pyproject asks for) and installs it into a fresh venv in a temp
dir (pip's cache makes the second run quick). Then:

- every command in `COMMANDS` runs from that venv with a temporary home and its cwd outside the
  source tree, and its exit code and output fragments are checked — others add theirs to the
  list (`paths`, `config show`, `install json` …) (S-WIN-14);
- the installed `gateway` and `policy` are the venv's, not the source tree's;
- the sdist holds the packages, LICENSE, README, pyproject and config.example.toml and none of
  the tree's tests or tools (S-WIN-12);
- an unrelated distribution that ships `policy/__init__.py`, installed into the same venv,
  stops the CLI with a message naming it and the remedy; reinstalling the wheel repairs it
  (S-WIN-13).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests._requirements import REPO, requirement

pytestmark = pytest.mark.e2e
BUILD_TIMEOUT_S = 300
RUN_TIMEOUT_S = 180
VERSION = "0.1.0"


@dataclass(frozen=True)
class Command:
    """One command run from the installed venv: its arguments, exit code and what its output holds."""

    argv: tuple[str, ...]
    code: int = 0
    says: tuple[str, ...] = ()


# Add a command here to have it checked from the installed wheel (the Done-when of issue 16).
COMMANDS = (
    Command(("--version",), says=(f"winmcp-gateway {VERSION}",)),
    Command(("demo",), says=("checks passed: each incident was prevented", "audit-report --verify")),
    Command(("serve", "--help"), says=("upstream after --",)),
    Command(("paths",), says=("state dir", "config file", "audit", "http token", "approvals", "STOP file")),
    Command(("config", "show"), says=("none, the defaults are used", "enforce", "max_observation_age_ms")),
    Command(("kill", "status"), says=("kill switch not engaged",)),
    Command(("approvals",), says=("no approval request is waiting",)),
    Command(("pin", "show"), says=("no tool pins",)),
    Command(("completion", "bash"), says=("winmcp-gateway",)),
    Command(("sim", "--help"), says=("--scenario",)),
    Command(("doctor", "--upstream", "sim"), says=("overall: OK",)),
    Command(("audit-report",), code=2, says=("no audit file at", "--state-dir")),
)


@dataclass(frozen=True)
class Installed:
    venv: Path
    wheel: Path
    build_log: str
    home: Path
    outside: Path

    @property
    def python(self) -> Path:
        return self.venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

    @property
    def exe(self) -> Path:
        return self.venv / ("Scripts/winmcp-gateway.exe" if os.name == "nt" else "bin/winmcp-gateway")

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WINMCP_", "WINDOWS_MCP_", "PYTHON"))}
        env["WINMCP_GATEWAY_HOME"] = str(self.home)  # the user's dirs, isolated (S-CFG-20)
        return env

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.exe), *argv],
            cwd=self.outside,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )

    def pip(self, *argv: str) -> subprocess.CompletedProcess[str]:
        # The test venv's pip drives the fresh venv (`--python`), which then needs no pip of its own.
        return subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(self.python), *argv],
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
            check=False,
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("wheel")
    dist = root / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-w", str(dist)],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = dist.glob("winmcp_gateway-*.whl")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=BUILD_TIMEOUT_S)
    home, outside = root / "home", root / "elsewhere"
    outside.mkdir()
    got = Installed(venv=venv, wheel=wheel, build_log=built.stdout + built.stderr, home=home, outside=outside)
    done = got.pip("install", "--quiet", str(wheel))
    assert done.returncode == 0, done.stdout + done.stderr
    return got


@requirement("S-WIN-14")
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c.argv))
def test_the_installed_wheel_runs_each_command_outside_the_source_tree(installed: Installed, command: Command) -> None:
    """S-WIN-14: from a fresh venv and another cwd, each listed command exits as expected and says what it should."""
    done = installed.run(*command.argv)
    output = done.stdout + done.stderr
    assert done.returncode == command.code, output
    for fragment in command.says:
        assert fragment in output, f"{command.argv}: {fragment!r} not in\n{output}"
    assert "Traceback" not in output


@requirement("S-WIN-14", "S-WIN-10")
def test_the_venv_runs_its_own_copy_not_the_source_tree(installed: Installed) -> None:
    """S-WIN-14: `gateway` and `policy` come from the venv's site-packages; the build printed no deprecation box."""
    done = subprocess.run(
        [str(installed.python), "-c", "import gateway, policy; print(gateway.__file__); print(policy.__file__)"],
        cwd=installed.outside,
        env=installed.env(),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=True,
    )
    for line in done.stdout.splitlines():
        assert Path(line).is_relative_to(installed.venv) and not Path(line).is_relative_to(REPO), line
    assert "Deprecat" not in installed.build_log and "license" not in installed.build_log.lower(), installed.build_log
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = wheel.namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "the licence travels in the wheel"
    assert {n.split("/")[0] for n in names} == {"gateway", "policy", f"winmcp_gateway-{VERSION}.dist-info"}


@requirement("S-WIN-14", "S-CLI-22")
def test_install_json_names_the_installed_executable(installed: Installed) -> None:
    """S-WIN-14: `install json` from the wheel's venv names that venv's own executable, absolute."""
    done = installed.run("install", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    entry = json.loads(done.stdout)["mcpServers"]["winmcp-gateway"]
    assert Path(entry["command"]) == installed.exe and Path(entry["command"]).is_absolute()
    assert entry["args"][0] == "serve"


@requirement("S-WIN-14")
def test_pipx_installs_the_wheel_and_runs_the_demo(installed: Installed, tmp_path: Path) -> None:
    """S-WIN-14: the isolated install the README recommends: `pipx install <wheel>`, then the demo from its shim."""
    home, bin_dir = tmp_path / "pipx-home", tmp_path / "pipx-bin"
    env = {**installed.env(), "PIPX_HOME": str(home), "PIPX_BIN_DIR": str(bin_dir), "PIPX_MAN_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "pipx", "install", str(installed.wheel)],
        cwd=installed.outside,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    shim = bin_dir / ("winmcp-gateway.exe" if os.name == "nt" else "winmcp-gateway")
    ran = subprocess.run(
        [str(shim), "demo"],
        cwd=installed.outside,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "checks passed: each incident was prevented" in ran.stdout


SDIST_TOP = {"gateway", "policy", "LICENSE", "README.md", "pyproject.toml", "config.example.toml"}
SDIST_METADATA = {"PKG-INFO", "setup.cfg", "MANIFEST.in", "winmcp_gateway.egg-info"}


def sdist_files(outdir: Path) -> list[str]:
    """Build the sdist from the tree into `outdir` and list its files, relative to its top folder."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(outdir), str(REPO)],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (sdist,) = outdir.glob("winmcp_gateway-*.tar.gz")
    with tarfile.open(sdist) as tar:
        return [m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name and m.isfile()]


def bytecode_in(names: list[str]) -> list[str]:
    return [n for n in names if n.endswith((".pyc", ".pyo")) or "__pycache__" in n]


@requirement("S-WIN-12")
def test_the_sdist_holds_the_product_and_nothing_of_the_tree(tmp_path: Path) -> None:
    """S-WIN-12: packages, LICENSE, README, pyproject, config.example.toml (+ the metadata setuptools writes)."""
    names = sdist_files(tmp_path)
    assert {n.split("/")[0] for n in names} == SDIST_TOP | SDIST_METADATA
    assert not bytecode_in(names)


def _foreign_wheel(where: Path) -> Path:
    """A wheel of an unrelated distribution `policy-helpers` that ships its own `policy/__init__.py`."""
    files = {
        "policy/__init__.py": b"HELPERS = True\n",
        "policy_helpers-9.9.dist-info/METADATA": b"Metadata-Version: 2.1\nName: policy-helpers\nVersion: 9.9\n",
        "policy_helpers-9.9.dist-info/WHEEL": (
            b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append("policy_helpers-9.9.dist-info/RECORD,,")
    path = where / "policy_helpers-9.9-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
        wheel.writestr("policy_helpers-9.9.dist-info/RECORD", "\n".join(record) + "\n")
    return path


@requirement("S-WIN-13")
def test_a_policy_distribution_installed_over_ours_stops_the_cli_by_name(installed: Installed, tmp_path: Path) -> None:
    """S-WIN-13: `pip install policy-helpers` overwrites policy/__init__.py; the CLI names it and the remedy."""
    added = installed.pip("install", "--quiet", "--no-index", "--no-deps", str(_foreign_wheel(tmp_path)))
    assert added.returncode == 0, added.stdout + added.stderr
    try:
        done = installed.run("--version")
        assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
        assert "`policy` package" in done.stderr and "installed by policy-helpers 9.9" in done.stderr
        assert "pipx install winmcp-gateway" in done.stderr and "Traceback" not in done.stderr
    finally:
        repaired = installed.pip("install", "--quiet", "--no-deps", "--force-reinstall", str(installed.wheel))
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert installed.run("--version").returncode == 0


@requirement("S-WIN-13")
def test_a_policy_folder_first_on_the_path_stops_the_cli(tmp_path: Path) -> None:
    """S-WIN-13: a `policy` folder shadowing ours (cwd, PYTHONPATH) is refused, and no distribution is blamed."""
    fake = tmp_path / "shadow" / "policy"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise RuntimeError('someone else's policy ran')\n")
    code = (
        f"import sys; sys.path.insert(0, {str(fake.parent)!r}); "
        "from gateway.cli import main; sys.exit(main(['--version']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False
    )
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert str(fake / "__init__.py") in done.stderr and "no installed distribution claims it" in done.stderr
    assert "someone else" not in done.stderr, "the foreign package is never imported"
