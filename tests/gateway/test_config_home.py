"""Where the per-user dirs are, decided in one place: `WINMCP_GATEWAY_HOME` (S-CFG-20), and the
shipped example the messages cite (S-CFG-23, S-CFG-24)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import platformdirs
import pytest

import gateway.config.docs as docs
from gateway.config.docs import EXAMPLE, PACKAGED_EXAMPLE, render_example
from gateway.config.keys import ENV_HOME, ENV_TOKEN
from gateway.config.load import default_config_file, default_state_dir, load_config, packaged_example
from gateway.errors import ConfigError
from tests._requirements import REPO, requirement
from tests.e2e.harness import gateway_stdio_params


def _no_known_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> str:
        raise AssertionError("the OS was asked for a known folder")

    monkeypatch.setattr(platformdirs, "user_config_dir", refuse)
    monkeypatch.setattr(platformdirs, "user_state_dir", refuse)


@requirement("S-CFG-20")
def test_the_home_variable_moves_both_dirs_without_asking_the_os(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CFG-20: WINMCP_GATEWAY_HOME=D → D/config.toml and D/state; platformdirs is never asked."""
    _no_known_folders(monkeypatch)
    monkeypatch.setenv(ENV_HOME, str(tmp_path / "gw"))
    assert default_config_file() == tmp_path / "gw" / "config.toml"
    assert default_state_dir() == tmp_path / "gw" / "state"
    (tmp_path / "gw").mkdir()
    (tmp_path / "gw" / "config.toml").write_text("audit_keep = 9\n", encoding="utf-8")
    loaded = load_config(environ={})  # the dirs come from the process, not from the keys' environ
    assert loaded.audit_keep == 9 and loaded.state_dir == tmp_path / "gw" / "state" and loaded.warnings == ()


@requirement("S-CFG-20")
def test_a_relative_home_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-CFG-20: a relative WINMCP_GATEWAY_HOME is taken from the working directory, once, as absolute."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ENV_HOME, "rel")
    assert default_state_dir() == tmp_path / "rel" / "state" and default_state_dir().is_absolute()


@requirement("S-CFG-20")
def test_without_the_variable_the_platform_dirs_are_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-CFG-20: unset (or empty), the per-user dirs are platformdirs' (roaming config on Windows)."""
    asked: list[tuple[str, dict[str, object]]] = []

    def fake(kind: str) -> object:
        def answer(*args: object, **kwargs: object) -> str:
            asked.append((kind, kwargs))
            return str(tmp_path / kind)

        return answer

    monkeypatch.setattr(platformdirs, "user_config_dir", fake("config"))
    monkeypatch.setattr(platformdirs, "user_state_dir", fake("state"))
    for value in (None, ""):
        if value is None:
            monkeypatch.delenv(ENV_HOME)
        else:
            monkeypatch.setenv(ENV_HOME, value)
        assert default_config_file() == tmp_path / "config" / "config.toml"
        assert default_state_dir() == tmp_path / "state"
    assert ("config", {"appauthor": False, "roaming": True}) in asked


@requirement("S-CFG-20")
def test_flags_and_the_location_variables_still_win_over_the_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CFG-20: --config / WINMCP_GATEWAY_CONFIG and --state-dir / WINMCP_GATEWAY_STATE_DIR beat the home."""
    monkeypatch.setenv(ENV_HOME, str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "config.toml").write_text("audit_keep = 1\n", encoding="utf-8")
    named = tmp_path / "named.toml"
    named.write_text("audit_keep = 2\n", encoding="utf-8")
    env = {"WINMCP_GATEWAY_CONFIG": str(named), "WINMCP_GATEWAY_STATE_DIR": str(tmp_path / "env-state")}
    assert load_config(environ=env).audit_keep == 2 and load_config(environ=env).state_dir == tmp_path / "env-state"
    assert load_config(environ={}, state_dir=tmp_path / "flag").state_dir == tmp_path / "flag"


@requirement("S-CFG-20")
def test_the_home_and_the_token_variables_are_not_config_keys(tmp_path: Path) -> None:
    """S-CFG-20: WINMCP_GATEWAY_HOME and WINMCP_GATEWAY_TOKEN give no unknown-key warning."""
    env = {ENV_HOME: str(tmp_path), ENV_TOKEN: "t" * 40}
    assert load_config(environ=env, state_dir=tmp_path).warnings == ()


@requirement("S-CFG-20")
def test_every_test_and_its_gateway_children_get_an_empty_temporary_home() -> None:
    """S-CFG-20: the suite's own isolation: a temporary home for this process and for stdio children."""
    home = Path(os.environ[ENV_HOME])
    assert home.is_absolute() and not default_config_file().exists()
    assert not home.is_relative_to(Path.home() / ".config") and not home.is_relative_to(REPO)
    (home.parent / "rig").mkdir()
    params, _, _ = gateway_stdio_params(home.parent / "rig")
    assert params.env is not None and params.env[ENV_HOME] == str(home)


@requirement("S-CFG-23")
def test_the_example_ships_in_the_package_identical_to_the_repos_and_the_table() -> None:
    """S-CFG-23: gateway/config/example.toml == render_example() == config.example.toml, and is package data."""
    assert packaged_example() == PACKAGED_EXAMPLE and PACKAGED_EXAMPLE.parent == REPO / "gateway" / "config"
    shipped = PACKAGED_EXAMPLE.read_text(encoding="utf-8")
    assert shipped == render_example() == EXAMPLE.read_text(encoding="utf-8")
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert PACKAGED_EXAMPLE.name in data["gateway.config"]


@requirement("S-CFG-23")
def test_the_messages_cite_what_an_installed_gateway_has(tmp_path: Path) -> None:
    """S-CFG-23: the unknown-key warning names the shipped example and `config show`; a missing file names init."""
    path = tmp_path / "c.toml"
    path.write_text("zzz_unlike_any_key = 1\n", encoding="utf-8")
    (warning,) = load_config(environ={}, config_file=path).warnings
    assert str(PACKAGED_EXAMPLE) in warning and "winmcp-gateway config show" in warning
    with pytest.raises(ConfigError, match="winmcp-gateway init --config"):
        load_config(environ={}, config_file=tmp_path / "missing.toml")


@requirement("S-CFG-24")
def test_the_docs_generator_outside_a_source_checkout_says_so_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-CFG-24: no README.md / config.example.toml beside the package: exit 2, the reason, nothing written."""
    monkeypatch.setattr(docs, "README", tmp_path / "README.md")
    monkeypatch.setattr(docs, "EXAMPLE", tmp_path / "config.example.toml")
    monkeypatch.setattr(docs, "PACKAGED_EXAMPLE", tmp_path / "example.toml")
    assert docs.main(["--write"]) == 2
    err = capsys.readouterr().err
    assert "source checkout only" in err and "winmcp-gateway init" in err
    assert list(tmp_path.iterdir()) == []


@requirement("S-CFG-24")
def test_the_docs_check_in_the_source_checkout_covers_the_packaged_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-CFG-24: `--check` passes on this tree and fails when the packaged copy differs from the table."""
    assert docs.main(["--check"]) == 0
    stale = tmp_path / "example.toml"
    stale.write_text(render_example().replace("audit_keep = 3", "audit_keep = 4"), encoding="utf-8")
    monkeypatch.setattr(docs, "PACKAGED_EXAMPLE", stale)
    assert docs.main(["--check"]) == 1 and "packaged example differs" in capsys.readouterr().err
