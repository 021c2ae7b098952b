"""Step definitions binding features/clients.feature (S-CLI-20 … S-CLI-28, S-CFG-20 … S-CFG-24).

The steps run the CLI's `main` in process, in a temporary home (HOME, USERPROFILE, APPDATA,
XDG_CONFIG_HOME, the working directory, and `WINMCP_GATEWAY_HOME` from tests/conftest.py), and
call the same public functions as the unit tests: `client_file`, `load_config`, `load_rules`,
`render_example`, `gateway.config.docs.main`.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

import gateway.config.docs as docs
from gateway.cli import main
from gateway.cli._client_files import Host, client_file
from gateway.config.keys import ENV_HOME, KEYS
from gateway.config.load import default_config_file, load_config
from policy.rules.match import load_rules
from tests._requirements import REPO

scenarios("clients.feature")

RULES = load_rules(protected_paths=("C:\\Users\\me\\AppData\\Local\\winmcp-gateway",))


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    home = tmp_path / "home"
    for var, folder in (("HOME", home), ("USERPROFILE", home), ("APPDATA", tmp_path / "appdata")):
        monkeypatch.setenv(var, str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    return {"tmp": tmp_path, "home": home, "monkeypatch": monkeypatch}


def _cursor(world: dict[str, Any]) -> Path:
    return Path(client_file("cursor", Host.current()))


def _all_files(world: dict[str, Any]) -> list[str]:
    return sorted(str(p) for p in world["tmp"].rglob("*") if p.is_file())


@given("an empty home")
def _empty(world: dict[str, Any]) -> None:
    world["before"] = _all_files(world)


@given(parsers.parse('the user config file says "{line}"'))
def _user_config(world: dict[str, Any], line: str) -> None:
    default_config_file().parent.mkdir(parents=True, exist_ok=True)
    default_config_file().write_text(line + "\n", encoding="utf-8")


@given(parsers.parse('the environment variable "{name}" is "{value}"'))
def _env(world: dict[str, Any], name: str, value: str) -> None:
    world["monkeypatch"].setenv(name, value)


def _write_cursor(world: dict[str, Any], text: str) -> None:
    path = _cursor(world)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    world["cursor_before"] = text


@given(parsers.parse('Cursor\'s file has a server "{name}" and a top-level key "{key}"'))
def _cursor_with(world: dict[str, Any], name: str, key: str) -> None:
    _write_cursor(world, json.dumps({key: 1, "mcpServers": {name: {"command": "npx", "args": ["x"]}}}, indent=2))


@given(parsers.parse('Cursor\'s file has a server "{name}" running "{command}"'))
def _cursor_running(world: dict[str, Any], name: str, command: str) -> None:
    program, *rest = command.split()
    _write_cursor(world, json.dumps({"mcpServers": {name: {"command": program, "args": rest}}}))


@given(parsers.parse('Cursor\'s file holds "{text}"'))
def _cursor_holds(world: dict[str, Any], text: str) -> None:
    _write_cursor(world, text)


@given(parsers.parse('"{program}" is not on PATH'))
def _not_on_path(world: dict[str, Any], program: str) -> None:
    real = shutil.which
    world["monkeypatch"].setattr(shutil, "which", lambda name, *a, **k: None if name == program else real(name))


@given(parsers.parse('a Windows machine with home "{home}" and APPDATA "{appdata}"'))
def _windows(world: dict[str, Any], home: str, appdata: str) -> None:
    world["host"] = Host(
        platform="win32", environ={"APPDATA": appdata}, home=home, cwd="C:\\work\\proj", list_dir=lambda _: []
    )  # the older installer: no Claude_* package under %LOCALAPPDATA%\Packages


@given(parsers.parse('Claude Desktop is installed there as the package "{package}"'))
def _msix(world: dict[str, Any], package: str) -> None:
    packages = "C:\\Users\\me\\AppData\\Local\\Packages"
    host = world["host"]
    world["host"] = Host(
        platform=host.platform,
        environ=host.environ,
        home=host.home,
        cwd=host.cwd,
        list_dir=lambda path: [package] if path == packages else [],
    )


@given("a package without a source checkout around it")
def _no_checkout(world: dict[str, Any]) -> None:
    bare = world["tmp"] / "site-packages"
    bare.mkdir()
    for name, value in (("README", "README.md"), ("EXAMPLE", "config.example.toml"), ("PACKAGED_EXAMPLE", "x.toml")):
        world["monkeypatch"].setattr(docs, name, bare / value)
    world["bare"] = bare


def _cli(world: dict[str, Any], command: str) -> None:
    code = main(command.split())
    out, err = world["capsys"].readouterr()
    world.update(code=code, out=out, err=err)


@pytest.fixture(autouse=True)
def _capsys_in_world(world: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    world["capsys"] = capsys


@when(parsers.parse('the person runs "{command}"'))
def _runs(world: dict[str, Any], command: str) -> None:
    _cli(world, command)


@when(parsers.parse('the person runs "{command}" without a terminal'))
def _runs_piped(world: dict[str, Any], command: str) -> None:
    world["monkeypatch"].setattr(sys, "stdin", io.StringIO("y\n"))
    _cli(world, command)


@when(parsers.parse('the agent\'s PowerShell call is "{command}"'))
def _agent_ps(world: dict[str, Any], command: str) -> None:
    world["hit"] = RULES.match("PowerShell", {"command": command})


@when(parsers.parse('the agent\'s Registry call sets "{name}" in "{key}"'))
def _agent_reg(world: dict[str, Any], name: str, key: str) -> None:
    args = {"mode": "set", "path": key, "name": name, "value": "C:\\Users\\me\\Desktop\\cfg", "type": "String"}
    world["hit"] = RULES.match("Registry", args)


@when(parsers.parse('the docs generator runs with "{flag}"'))
def _docs_run(world: dict[str, Any], flag: str) -> None:
    world["code"] = docs.main([flag])
    world["err"] = world["capsys"].readouterr().err


@then(parsers.parse("the command exits {code:d}"))
def _exits(world: dict[str, Any], code: int) -> None:
    assert world["code"] == code, (world["out"], world["err"])


@then(parsers.parse("the output names the state dir and {names} in it"))
def _names_places(world: dict[str, Any], names: str) -> None:
    state = world["tmp"] / "project" / "state"
    assert f"state dir     {state}" in world["out"]
    for name in (n.strip(' "') for n in names.replace(" and ", ", ").split(",")):
        assert str(state / name) in world["out"], name


@then("the output says the config file is not found and the defaults are used")
def _no_config(world: dict[str, Any]) -> None:
    assert "not found: the defaults are used" in world["out"]


@then("the user config file loads to the defaults without a warning")
def _loads_defaults(world: dict[str, Any]) -> None:
    loaded = load_config(environ={})
    assert loaded.config_file == default_config_file() and loaded.warnings == ()
    assert [getattr(loaded, k.name) for k in KEYS] == [k.default for k in KEYS]


@then("stderr names the user config file")
def _err_names_config(world: dict[str, Any]) -> None:
    assert str(default_config_file()) in world["err"]


@then(parsers.parse('"{key}" is {value} from the "{source}"'))
def _from(world: dict[str, Any], key: str, value: str, source: str) -> None:
    rows = {r["key"]: r for r in json.loads(world["out"])["keys"]}
    assert json.dumps(rows[key]["value"]) == value and rows[key]["source"] == source


def _printed_entry(world: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads(world["out"])["mcpServers"]["winmcp-gateway"]
    return entry


@then(parsers.parse('the printed entry runs an absolute command with "{flag}" and "{upstream}"'))
def _entry_command(world: dict[str, Any], flag: str, upstream: str) -> None:
    entry = _printed_entry(world)
    assert Path(entry["command"]).is_absolute()
    assert entry["args"][-3:] == [*flag.split(), upstream]


@then("the printed entry's env names the absolute state dir")
def _entry_env(world: dict[str, Any]) -> None:
    assert _printed_entry(world)["env"] == {"WINMCP_GATEWAY_STATE_DIR": str(world["tmp"] / "project" / "state")}


@then("no client file was written")
def _nothing_written(world: dict[str, Any]) -> None:
    assert _all_files(world) == world["before"]


@then("the output is a unified diff of Cursor's file")
def _diff(world: dict[str, Any]) -> None:
    path = _cursor(world)
    assert world["out"].startswith(f"--- {path} (now)\n+++ {path} (after)\n@@ ")
    assert '+    "winmcp-gateway": {' in world["out"]


@then(parsers.parse('Cursor\'s file still has "{name}" and "{key}" and now has "{added}"'))
def _kept(world: dict[str, Any], name: str, key: str, added: str) -> None:
    data = json.loads(_cursor(world).read_text(encoding="utf-8"))
    assert key in data and list(data["mcpServers"]) == [name, added]


@then("Cursor's previous file is kept as a backup")
def _backup(world: dict[str, Any]) -> None:
    backup = _cursor(world).with_name("mcp.json.bak")
    assert backup.read_text(encoding="utf-8") == world["cursor_before"]


@then(parsers.parse('stderr says "{text}"'))
def _err_says(world: dict[str, Any], text: str) -> None:
    assert text in world["err"]


@then(parsers.parse('Cursor\'s file still holds "{text}"'))
def _still_holds(world: dict[str, Any], text: str) -> None:
    path = _cursor(world)
    assert path.read_text(encoding="utf-8") == text and sorted(p.name for p in path.parent.iterdir()) == ["mcp.json"]


@then(parsers.parse('the workspace\'s VS Code file has "{name}" under "{key}" with type "{kind}"'))
def _vscode(world: dict[str, Any], name: str, key: str, kind: str) -> None:
    data = json.loads((world["tmp"] / "project" / ".vscode" / "mcp.json").read_text(encoding="utf-8"))
    assert list(data) == [key] and data[key][name]["type"] == kind


@then(parsers.parse('the file of "{client}" is "{path}"'))
def _file_of(world: dict[str, Any], client: str, path: str) -> None:
    assert client_file(client, world["host"]) == path


@then(parsers.parse('the output starts with "{text}"'))
def _starts(world: dict[str, Any], text: str) -> None:
    assert world["out"].startswith(text)


@then(parsers.parse('the output says "{text}"'))
def _says(world: dict[str, Any], text: str) -> None:
    assert text in world["out"]


@then(parsers.parse('stderr warns that "{name}" starts Windows-MCP itself'))
def _warns(world: dict[str, Any], name: str) -> None:
    assert f"server {name!r} in {_cursor(world)} starts Windows-MCP itself" in world["err"]


@then(
    parsers.parse('the state dir is "{state}" and the config file "{config}" in the folder WINMCP_GATEWAY_HOME names')
)
def _home_places(world: dict[str, Any], state: str, config: str) -> None:
    places = json.loads(world["out"])
    home = Path(os.environ[ENV_HOME])
    assert places["state_dir"]["path"] == str(home / state)
    assert places["config_file"]["path"] == str(home / config)


@then("the rules refuse it as self-protection")
def _refused(world: dict[str, Any]) -> None:
    hit = world["hit"]
    assert hit is not None and (hit.rule_id, hit.action) == ("self-protection", "deny")


@then("the package's example.toml is what the key table renders and the repository's config.example.toml")
def _shipped() -> None:
    shipped = (REPO / "gateway" / "config" / "example.toml").read_text(encoding="utf-8")
    assert shipped == docs.render_example() == (REPO / "config.example.toml").read_text(encoding="utf-8")


@then("it exits 2 and says it works in a source checkout only")
def _checkout_only(world: dict[str, Any]) -> None:
    assert world["code"] == 2 and "source checkout only" in world["err"]


@then("the generator wrote nothing")
def _wrote_nothing(world: dict[str, Any]) -> None:
    assert list(world["bare"].iterdir()) == []
