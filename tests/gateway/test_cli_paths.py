"""Where things are, in process: `paths`, `config show`, `init`, and the provenance under them
(S-CLI-20, S-CLI-21, S-CFG-22).

The per-user dirs are the test's own temporary home (`WINMCP_GATEWAY_HOME`, tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from gateway.cli import main
from gateway.config.docs import render_init
from gateway.config.keys import ENV_HOME, KEYS
from gateway.config.load import default_config_file, default_state_dir, explain_config, load_config
from tests._requirements import requirement


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, _ = _run(capsys, *argv, "--json")
    assert code == 0
    return json.loads(out)


@requirement("S-CLI-20")
def test_paths_lists_every_place_under_the_state_dir_with_whether_it_exists(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CLI-20: state dir, config, audit, token, approvals, STOP and upstream log, absolute, with existence."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gw.toml").write_text("audit_keep = 4\n", encoding="utf-8")
    state = tmp_path / "state"
    state.mkdir()
    (state / "STOP").write_text("{}", encoding="utf-8")
    places = _json(capsys, "paths", "--state-dir", "state", "--config", "gw.toml")
    assert {k: v["path"] for k, v in places.items()} == {
        "state_dir": str(state),
        "config_file": str(tmp_path / "gw.toml"),
        "audit": str(state / "audit.jsonl"),
        "http_token": str(state / "http-token"),
        "approvals": str(state / "approvals"),
        "STOP_file": str(state / "STOP"),
        "upstream_log": str(state / "upstream.stderr.log"),
    }
    exists = {k for k, v in places.items() if v["exists"]}
    assert exists == {"state_dir", "config_file", "STOP_file"}
    assert "flag --state-dir" in places["state_dir"]["note"] and "flag --config" in places["config_file"]["note"]


@requirement("S-CLI-20")
def test_paths_without_a_config_file_says_the_defaults_are_used_and_where_init_would_write(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """S-CLI-20: no config file: "not found: the defaults are used", at the user config path; the default state dir."""
    code, out, _ = _run(capsys, "paths")
    assert code == 0
    assert f"config file   {default_config_file()}  (does not exist yet)" in out
    assert "not found: the defaults are used" in out and "init" in out
    assert f"state dir     {default_state_dir()}" in out and f"default, under {ENV_HOME}" in out


@requirement("S-CLI-20")
def test_paths_follows_the_environment_as_serve_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CLI-20: WINMCP_GATEWAY_STATE_DIR / _CONFIG move the places exactly as they move serve's."""
    (tmp_path / "c.toml").write_text("", encoding="utf-8")
    monkeypatch.setenv("WINMCP_GATEWAY_STATE_DIR", str(tmp_path / "env-state"))
    monkeypatch.setenv("WINMCP_GATEWAY_CONFIG", str(tmp_path / "c.toml"))
    places = _json(capsys, "paths")
    config = load_config(environ=os.environ)
    assert places["state_dir"]["path"] == str(config.state_dir) and places["config_file"]["path"] == str(
        config.config_file
    )
    assert "environment WINMCP_GATEWAY_STATE_DIR" in places["state_dir"]["note"]


@requirement("S-CLI-21")
def test_init_writes_a_commented_config_that_changes_nothing_until_a_line_is_uncommented(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """S-CLI-21: init writes render_init() to the user config file; it loads to the defaults, no warning."""
    target = default_config_file()
    assert not target.exists()
    code, out, _ = _run(capsys, "init")
    assert code == 0 and f"wrote {target}" in out
    text = target.read_text(encoding="utf-8")
    assert text == render_init()
    loaded = load_config(environ={})
    assert loaded.config_file == target and loaded.warnings == ()
    assert [getattr(loaded, k.name) for k in KEYS] == [k.default for k in KEYS]


@requirement("S-CLI-21")
def test_every_key_is_in_the_init_file_and_its_uncommented_line_sets_the_default() -> None:
    """S-CLI-21: each `#key = value` line, uncommented, is valid TOML giving that key its default."""
    lines = {m[1]: m[0][1:] for m in re.finditer(r"^#([a-z_]+) = .*$", render_init(), re.MULTILINE)}
    assert set(lines) == {k.name for k in KEYS}
    assert tomllib.loads(render_init()) == {}, "nothing is set until a line is uncommented"
    for key in KEYS:
        value = tomllib.loads(lines[key.name])[key.name]
        assert (tuple(value) if isinstance(value, list) else value) == key.default, key.name


@requirement("S-CLI-21")
def test_init_never_overwrites_and_says_where_the_file_is(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """S-CLI-21: an existing file is exit 2, named in the message, and left byte for byte."""
    target = tmp_path / "deep" / "er" / "gw.toml"
    assert _run(capsys, "init", "--config", str(target))[0] == 0, "the folders are created"
    target.write_text("enforce = true  # mine\n", encoding="utf-8")
    code, out, err = _run(capsys, "init", "--config", str(target))
    assert code == 2 and str(target) in err and "never overwrites" in err and out == ""
    assert target.read_text(encoding="utf-8") == "enforce = true  # mine\n"


@requirement("S-CLI-21")
def test_init_writes_where_winmcp_gateway_config_points(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CLI-21: without --config, WINMCP_GATEWAY_CONFIG names the target (the file serve would read)."""
    monkeypatch.setenv("WINMCP_GATEWAY_CONFIG", str(tmp_path / "env.toml"))
    assert _run(capsys, "init")[0] == 0
    assert (tmp_path / "env.toml").read_text(encoding="utf-8") == render_init()
    assert not default_config_file().exists()


CASES = [
    ({}, "", None),
    ({"WINMCP_GATEWAY_AUDIT_KEEP": "9", "WINMCP_GATEWAY_ENFORCE": "nope"}, "audit_keep = 2\nprofile = 3\n", None),
    ({"WINMCP_GATEWAY_TOOLS_DENY": "Click, Type"}, 'tools_deny = ["PowerShell"]\nbogus = 1\n', {"audit_keep": 5}),
    ({"WINMCP_GATEWAY_STATE_DIR": "/x/state"}, 'command_rules = [{id = "r", pattern = "x"}]\n', {"enforce": False}),
]


@requirement("S-CFG-22")
@pytest.mark.parametrize(("env", "text", "flags"), CASES)
def test_explaining_loads_exactly_what_load_config_loads(
    tmp_path: Path, env: dict[str, str], text: str, flags: dict[str, Any] | None
) -> None:
    """S-CFG-22: explain_config(...).config == load_config(...), warnings included, for the same arguments."""
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    for config_file in (path, None):
        args: dict[str, Any] = {"environ": env, "config_file": config_file, "overrides": flags}
        explained = explain_config(**args)
        assert explained.config == load_config(**args)
        assert set(explained.sources) == {k.name for k in KEYS} | {"state_dir", "config_file"}


@requirement("S-CFG-22")
def test_each_value_says_where_it_came_from(tmp_path: Path) -> None:
    """S-CFG-22: default, file (its path), environment (the variable), flag; an adjusted value is marked."""
    path = tmp_path / "c.toml"
    path.write_text('audit_keep = 2\napproval_wait_s = 7\ntools_deny = "Click"\n', encoding="utf-8")
    env = {"WINMCP_GATEWAY_APPROVAL_WAIT_S": "8", "WINMCP_GATEWAY_STATE_DIR": str(tmp_path / "s")}
    sources = explain_config(environ=env, config_file=path, overrides={"audit_fsync": True}).sources
    assert sources["enforce"].describe() == "default"
    assert sources["audit_keep"].describe() == f"file {path}"
    assert sources["approval_wait_s"].describe() == "environment WINMCP_GATEWAY_APPROVAL_WAIT_S"
    assert sources["audit_fsync"].describe() == "flag"
    assert sources["tools_deny"].adjusted and "adjusted" in sources["tools_deny"].describe()
    assert sources["config_file"].describe() == "flag --config"
    assert sources["state_dir"].describe() == "environment WINMCP_GATEWAY_STATE_DIR"
    assert explain_config(environ={}, state_dir=tmp_path).sources["state_dir"].describe() == "flag --state-dir"


@requirement("S-CFG-22")
def test_config_show_prints_every_key_its_value_and_its_source(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CFG-22: `config show` lists all keys in KEYS order with value and source, flags weakening, warns on stderr."""
    path = tmp_path / "c.toml"
    path.write_text("max_observation_age_ms = 1000\nrequire_observation = false\nbogus = 1\n", encoding="utf-8")
    monkeypatch.setenv("WINMCP_GATEWAY_AUDIT_KEEP", "6")
    code, out, err = _run(capsys, "config", "show", "--config", str(path))
    assert code == 0
    rows = [line.split() for line in out.splitlines()[3:] if line and line.split()[0] in {k.name for k in KEYS}]
    assert [r[0] for r in rows] == [k.name for k in KEYS]
    by_name = {r[0]: r for r in rows}
    assert by_name["max_observation_age_ms"][1:] == ["1000", "file", str(path)]
    assert by_name["audit_keep"][1:] == ["6", "environment", "WINMCP_GATEWAY_AUDIT_KEEP"]
    assert by_name["enforce"][1:] == ["true", "default"]
    assert "switches a check of the gate off" in " ".join(by_name["require_observation"])
    assert "unknown key 'bogus'" in err and err.startswith("winmcp-gateway: warning: config")


@requirement("S-CFG-22")
def test_config_show_json_is_the_same_table_for_machines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """S-CFG-22: --json has the config file, state dir, every key with value and source, weakened keys, warnings."""
    path = tmp_path / "c.toml"
    path.write_text('enforce = false\ntools_allow = ["Snapshot"]\n', encoding="utf-8")
    shown = _json(capsys, "config", "show", "--config", str(path), "--state-dir", str(tmp_path / "s"))
    assert shown["config_file"] == str(path) and shown["state_dir"] == str(tmp_path / "s")
    assert shown["state_dir_source"] == "flag --state-dir" and shown["weakened"] == ["enforce"]
    keys = {row["key"]: row for row in shown["keys"]}
    assert list(keys) == [k.name for k in KEYS]
    assert keys["tools_allow"] == {
        "key": "tools_allow",
        "value": ["Snapshot"],
        "source": "file",
        "detail": str(path),
        "adjusted": False,
    }
    assert keys["profile"]["value"] == "default" and keys["profile"]["source"] == "default"
    assert shown["warnings"] == []
