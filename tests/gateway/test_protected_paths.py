"""Start-up resolution of the gateway's own paths (issue 12 item 2, S-SELF-04; item 1, S-SELF-01).

The Windows branch runs here with Windows facts standing in: `ntpath` rules, a fake
`realpath` (a junction on the way) and a fake `GetShortPathNameW` with the Win32 contract.
"""

from __future__ import annotations

import ntpath
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from gateway.app import SELF_COMMANDS, GatewayApp
from gateway.config.load import default_config_file, load_config
from gateway.state.protected import PathFacts, path_forms, resolve_protected_paths, short_name_with, short_path_name
from policy.rules.match import load_rules
from tests._requirements import requirement

LOCAL = "C:\\Users\\Jonathan Smith\\AppData\\Local"
# What Windows would answer for the folders that exist (8.3 names of the long components).
SHORT_NAMES = {
    "C:\\Users\\Jonathan Smith": "C:\\Users\\JONATH~1",
    LOCAL: "C:\\Users\\JONATH~1\\AppData\\Local",
    f"{LOCAL}\\guard+state": "C:\\Users\\JONATH~1\\AppData\\Local\\GUARD_~1",
}


def fake_get_short_path_name(path: str, buffer: Any, size: int) -> int:
    """`GetShortPathNameW`'s contract: 0 for a missing path, else the size needed (with the NUL) when
    the buffer is too small, else the characters written (without it)."""
    short = SHORT_NAMES.get(path)
    if short is None:
        return 0
    if buffer is None or size <= len(short):
        return len(short) + 1
    buffer.value = short
    return len(short)


def windows_facts(**overrides: Any) -> PathFacts:
    fields: dict[str, Any] = {
        "pathmod": ntpath,
        "cwd": LOCAL,
        "realpath": lambda p: p,
        "short_name": lambda p: short_name_with(fake_get_short_path_name, p),
    }
    fields.update(overrides)
    return PathFacts(**fields)


@requirement("S-SELF-04")
def test_the_win32_short_name_contract_is_followed() -> None:
    """S-SELF-04: size first, then the text; a failure or a buffer that no longer fits gives None."""
    assert short_name_with(fake_get_short_path_name, f"{LOCAL}\\guard+state") == SHORT_NAMES[f"{LOCAL}\\guard+state"]
    assert short_name_with(fake_get_short_path_name, "C:\\nowhere") is None

    def shrinking(path: str, buffer: Any, size: int) -> int:
        return 4 if buffer is None else 9  # the path grew between the two calls

    assert short_name_with(shrinking, "C:\\x") is None


@requirement("S-SELF-04")
def test_off_windows_there_is_no_short_name() -> None:
    """S-SELF-04: on Linux/macOS CI the ctypes branch is skipped cleanly."""
    if sys.platform == "win32":
        pytest.skip("Windows answers for itself")
    assert short_path_name(os.getcwd()) is None


@requirement("S-SELF-04")
def test_a_relative_state_dir_is_absolute_real_and_short() -> None:
    """S-SELF-04: `guard+state` from the cwd → absolute, through a junction → real, and Windows' 8.3 form."""
    facts = windows_facts(realpath=lambda p: p.replace("C:\\Users", "D:\\Profiles"))
    assert path_forms("guard+state", facts) == (
        f"{LOCAL}\\guard+state",
        "D:\\Profiles\\Jonathan Smith\\AppData\\Local\\guard+state",
        "C:\\Users\\JONATH~1\\AppData\\Local\\GUARD_~1",
    )


@requirement("S-SELF-04", "S-SELF-01")
def test_a_file_not_written_yet_gets_the_short_form_of_its_parent() -> None:
    """S-SELF-01/04: the default config file before its first write still has an 8.3 spelling."""
    forms = path_forms("C:\\Users\\Jonathan Smith\\AppData\\Roaming\\winmcp-gateway\\config.toml", windows_facts())
    assert forms == (
        "C:\\Users\\Jonathan Smith\\AppData\\Roaming\\winmcp-gateway\\config.toml",
        "C:\\Users\\JONATH~1\\AppData\\Roaming\\winmcp-gateway\\config.toml",
    )


@requirement("S-SELF-04")
def test_every_path_is_resolved_and_none_is_skipped() -> None:
    """S-SELF-04: all forms of all paths, in order, once; a failing realpath keeps the others."""

    def broken(path: str) -> str:
        raise OSError("no such volume")

    forms = resolve_protected_paths(
        [f"{LOCAL}\\guard+state", None, f"{LOCAL}\\guard+state\\STOP"], windows_facts(realpath=broken)
    )
    assert forms == (
        f"{LOCAL}\\guard+state",
        "C:\\Users\\JONATH~1\\AppData\\Local\\GUARD_~1",
        f"{LOCAL}\\guard+state\\STOP",
        "C:\\Users\\JONATH~1\\AppData\\Local\\GUARD_~1\\STOP",
    )


@requirement("S-SELF-04")
def test_this_machines_facts_give_absolute_real_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-SELF-04: with the real OS, a relative path and a symlinked folder come out absolute and real."""
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    forms = path_forms("link")
    assert forms[:2] == (str(tmp_path / "link"), str((tmp_path / "real").resolve()))
    assert all(os.path.isabs(f) for f in forms)


class _NoUpstream:
    def __init__(self) -> None:
        self.restarts = 0
        self.on_lost: list[Any] = []


@requirement("S-SELF-01", "S-SELF-04")
def test_the_app_protects_its_resolved_paths_and_the_default_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-SELF-01/04: GatewayApp hands the rules absolute forms only, the default config folder (no file in
    it) among them, and its own command line; a relative state dir never reaches them as a bare word."""
    monkeypatch.chdir(tmp_path)
    config = load_config(environ={}, state_dir=Path("guard"))
    app = GatewayApp(config, _NoUpstream(), audit=[])  # type: ignore[arg-type]
    paths = app.protected_paths
    assert not default_config_file().exists()
    assert str(default_config_file().parent) in paths
    assert str(tmp_path / "guard") in paths and str(tmp_path / "guard" / "STOP") in paths
    assert "guard" not in paths
    assert paths[-len(SELF_COMMANDS) :] == SELF_COMMANDS
    assert all(os.path.isabs(p) for p in paths[: -len(SELF_COMMANDS)])
    assert app.protected_paths is paths, "resolved once"


@requirement("S-SELF-04")
def test_a_relative_state_dir_is_made_absolute_when_the_config_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-SELF-04: `--state-dir guard` names `<cwd at start>/guard`; a later chdir (a test's teardown, a
    background id-block thread still running) writes nothing into the new working directory."""
    monkeypatch.chdir(tmp_path)
    config = load_config(environ={}, state_dir=Path("guard"))
    assert config.state_dir == tmp_path / "guard"
    assert config.state_dir.is_absolute()


@requirement("S-SELF-13")
def test_the_app_protects_the_folders_of_its_own_code(tmp_path: Path) -> None:
    """S-SELF-13: the `gateway` and `policy` packages' folders (where this process imported them from) are
    protected paths, and a rule set built from them refuses a write into either one."""
    import gateway
    import policy
    from gateway.app import own_code_dirs

    config = load_config(environ={}, state_dir=tmp_path / "state")
    app = GatewayApp(config, _NoUpstream(), audit=[])  # type: ignore[arg-type]
    dirs = own_code_dirs()
    assert dirs == (
        os.path.dirname(os.path.realpath(gateway.__file__)),
        os.path.dirname(os.path.realpath(policy.__file__)),
    )
    assert set(dirs) <= set(app.protected_paths)
    rules = load_rules(protected_paths=app.protected_paths)
    for folder in dirs:
        hit = rules.match("FileSystem", {"mode": "write", "path": os.path.join(folder, "decide.py"), "content": "x"})
        assert hit is not None and hit.rule_id == "self-protection", folder
    assert rules.match("FileSystem", {"mode": "write", "path": str(tmp_path / "notes.txt"), "content": "x"}) is None


@requirement("S-SELF-13")
def test_the_app_protects_the_python_environment_it_runs_in(tmp_path: Path) -> None:
    """S-SELF-13: its venv (every dependency it imports) and the interpreter's own files are guarded by place: a
    rewritten `mcp` or standard-library module would run inside the guard at the next start. Reading them and
    running that Python stay ordinary (they are any program's)."""
    import sys

    import mcp

    from gateway.app import own_environment_dirs

    config = load_config(environ={}, state_dir=tmp_path / "state")
    app = GatewayApp(config, _NoUpstream(), audit=[])  # type: ignore[arg-type]
    dirs = own_environment_dirs()
    assert os.path.realpath(sys.prefix) in dirs
    assert os.path.realpath(sys.base_prefix) in dirs
    assert all(os.path.dirname(d) != d for d in dirs)  # a filesystem root is never one
    assert set(dirs) <= set(app.environment_paths)
    assert not set(dirs) & set(app.protected_paths)  # not named-is-refused: reading and running stay ordinary
    rules, _ = app.rules()
    assert rules is not None
    dependency = os.path.join(os.path.dirname(os.path.realpath(mcp.__file__)), "server", "lowlevel", "server.py")
    stdlib = os.path.realpath(os.__file__)
    venv_cfg = os.path.join(os.path.realpath(sys.prefix), "pyvenv.cfg")
    for path in (dependency, stdlib, venv_cfg):
        for args in ({"mode": "write", "path": path, "content": "x"}, {"mode": "delete", "path": path}):
            hit = rules.match("FileSystem", args)
            assert hit is not None and (hit.rule_id, hit.action) == ("self-protection", "deny"), (path, args)
            assert "the Python environment the gateway runs in" in hit.reason
    assert rules.match("FileSystem", {"mode": "read", "path": dependency}) is None
    assert rules.match("PowerShell", {"command": f"Get-Content '{dependency}'"}) is None
    ran = rules.match("PowerShell", {"command": f"& '{os.path.realpath(sys.executable)}' script.py"})
    assert ran is None or ran.rule_id != "self-protection"  # running its Python is any program's
    assert rules.match("FileSystem", {"mode": "write", "path": str(tmp_path / "notes.txt"), "content": "x"}) is None
    off = GatewayApp(
        load_config(environ={"WINMCP_GATEWAY_COMMAND_RULES_ENABLED": "false"}, state_dir=tmp_path / "s2"),
        _NoUpstream(),
        audit=[],
    )  # type: ignore[arg-type]
    guard_only, _ = off.rules()
    assert guard_only is not None and guard_only.analyse is False
    hit = guard_only.match("FileSystem", {"mode": "write", "path": dependency, "content": "x"})
    assert hit is not None and hit.rule_id == "self-protection"  # rules switched off keep the guard
