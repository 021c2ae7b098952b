"""`winmcp-gateway install CLIENT` in process: locations, the entry, the merge, the question (S-CLI-22 … S-CLI-28).

Every test runs in a temporary home (HOME, USERPROFILE, APPDATA, XDG_CONFIG_HOME and the working
directory point into `tmp_path`), so no developer's client file can be touched. The Windows
locations are computed with `ntpath` on any platform.
"""

from __future__ import annotations

import io
import json
import ntpath
import os
import posixpath
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from gateway.cli import main
from gateway.cli._client_files import Host, client_file, find_executable, merge_entry, server_entry
from gateway.cli.install import claude_code_argv, install_claude_code, shown_command
from gateway.errors import ConfigError
from tests._requirements import requirement


@pytest.fixture(autouse=True)
def client_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of its own for every test; the working directory is an empty project folder."""
    home = tmp_path / "home"
    for var, folder in (("HOME", home), ("USERPROFILE", home), ("APPDATA", tmp_path / "appdata")):
        monkeypatch.setenv(var, str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    return home


class _Terminal:
    """A stdin that is a terminal (the answer comes from a patched `input`)."""

    def isatty(self) -> bool:
        return True


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["install", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _entry(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, _ = _run(capsys, "json", *argv)
    assert code == 0, out
    servers = json.loads(out)["mcpServers"]
    assert list(servers) == ["winmcp-gateway"]
    entry: dict[str, Any] = servers["winmcp-gateway"]
    return entry


WIN = Host(
    platform="win32",
    environ={"APPDATA": "C:\\Users\\me\\AppData\\Roaming"},
    home="C:\\Users\\me",
    cwd="C:\\work\\proj",
)


@requirement("S-CLI-23")
@pytest.mark.parametrize(
    ("client", "host", "workspace", "expected"),
    [
        ("claude-desktop", WIN, None, "C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json"),
        (
            "claude-desktop",
            Host(platform="win32", environ={}, home="C:\\Users\\me", cwd="C:\\"),
            None,
            "C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
        ),
        (
            "claude-desktop",
            Host(platform="darwin", environ={}, home="/Users/me", cwd="/"),
            None,
            "/Users/me/Library/Application Support/Claude/claude_desktop_config.json",
        ),
        (
            "claude-desktop",
            Host(platform="linux", environ={}, home="/home/me", cwd="/"),
            None,
            "/home/me/.config/Claude/claude_desktop_config.json",
        ),
        (
            "claude-desktop",
            Host(platform="linux", environ={"XDG_CONFIG_HOME": "/cfg"}, home="/home/me", cwd="/"),
            None,
            "/cfg/Claude/claude_desktop_config.json",
        ),
        ("cursor", WIN, None, "C:\\Users\\me\\.cursor\\mcp.json"),
        ("cursor", Host(platform="darwin", environ={}, home="/Users/me", cwd="/"), None, "/Users/me/.cursor/mcp.json"),
        ("vscode", WIN, None, "C:\\work\\proj\\.vscode\\mcp.json"),
        ("vscode", WIN, "..\\other", "C:\\work\\proj\\..\\other\\.vscode\\mcp.json"),
        ("vscode", WIN, "D:\\repo", "D:\\repo\\.vscode\\mcp.json"),
        ("vscode", Host(platform="linux", environ={}, home="/h", cwd="/w"), None, "/w/.vscode/mcp.json"),
    ],
)
def test_each_client_file_is_where_that_client_reads_it(
    client: str, host: Host, workspace: str | None, expected: str
) -> None:
    """S-CLI-23: Claude Desktop, Cursor and VS Code files per OS (Windows spelt with ntpath)."""
    assert client_file(client, host, workspace) == expected


PACKAGES = "C:\\Users\\me\\AppData\\Local\\Packages"
MSIX_FILE = "LocalCache\\Roaming\\Claude\\claude_desktop_config.json"


def _msix_host(packages: list[str], files: frozenset[str] = frozenset()) -> Host:
    return Host(
        platform="win32",
        environ={"APPDATA": "C:\\Users\\me\\AppData\\Roaming", "LOCALAPPDATA": "C:\\Users\\me\\AppData\\Local"},
        home="C:\\Users\\me",
        cwd="C:\\",
        list_dir=lambda path: packages if path == PACKAGES else [],
        is_file=files.__contains__,
    )


@requirement("S-CLI-23")
def test_a_packaged_claude_desktop_on_windows_gets_the_file_inside_its_package() -> None:
    """S-CLI-23: MSIX Claude Desktop reads %LOCALAPPDATA%\\Packages\\Claude_<id>\\LocalCache\\Roaming\\Claude\\…"""
    one = _msix_host(["Microsoft.WindowsTerminal_8wekyb3d8bbwe", "Claude_pzs8sxrjxfjjc"])
    assert client_file("claude-desktop", one) == f"{PACKAGES}\\Claude_pzs8sxrjxfjjc\\{MSIX_FILE}"
    two = ["Claude_aaaa", "Claude_pzs8sxrjxfjjc"]
    used = f"{PACKAGES}\\Claude_aaaa\\{MSIX_FILE}"
    assert client_file("claude-desktop", _msix_host(two, frozenset({used}))) == used, "the one whose file exists"
    with pytest.raises(ConfigError, match="several packages .*--file"):
        client_file("claude-desktop", _msix_host(two))
    assert client_file("claude-desktop", _msix_host(["Microsoft.X_1"])) == (
        "C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json"
    ), "no package: the older installer's %APPDATA% file"


@requirement("S-CLI-23")
def test_file_names_the_client_file_instead(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """S-CLI-23: --file writes a project's .cursor/mcp.json (any file client) instead of the usual place."""
    code, out, _ = _run(capsys, "cursor", "--yes", "--file", ".cursor/mcp.json")
    project = tmp_path / "project" / ".cursor" / "mcp.json"
    assert code == 0 and f"wrote {project}" in out and "winmcp-gateway" in json.loads(project.read_text())["mcpServers"]


@requirement("S-CLI-23")
def test_vscode_entries_carry_type_stdio_under_servers_and_the_others_under_mcpservers(
    capsys: pytest.CaptureFixture[str], client_home: Path, tmp_path: Path
) -> None:
    """S-CLI-23: VS Code's file has "servers" with "type": "stdio"; Claude Desktop's and Cursor's "mcpServers"."""
    for client in ("vscode", "cursor", "claude-desktop"):
        assert _run(capsys, client, "--yes")[0] == 0
    vscode = json.loads((tmp_path / "project" / ".vscode" / "mcp.json").read_text(encoding="utf-8"))
    cursor = json.loads((client_home / ".cursor" / "mcp.json").read_text(encoding="utf-8"))
    desktop_file = Path(client_file("claude-desktop", Host.current()))
    desktop = json.loads(desktop_file.read_text(encoding="utf-8"))
    assert list(vscode) == ["servers"] and vscode["servers"]["winmcp-gateway"]["type"] == "stdio"
    assert list(cursor) == ["mcpServers"] and "type" not in cursor["mcpServers"]["winmcp-gateway"]
    assert list(desktop) == ["mcpServers"] and desktop_file.is_relative_to(tmp_path)


@requirement("S-CLI-22")
@pytest.mark.parametrize(
    ("host", "dirs", "files", "on_path", "expected"),
    [
        (WIN, ["C:\\venv\\Scripts"], {"C:\\venv\\Scripts\\winmcp-gateway.exe"}, None,
         ("C:\\venv\\Scripts\\winmcp-gateway.exe", ())),
        (WIN, ["C:\\Python312\\Scripts", "C:\\Users\\me\\AppData\\Roaming\\Python\\Python312\\Scripts"],
         {"C:\\Users\\me\\AppData\\Roaming\\Python\\Python312\\Scripts\\winmcp-gateway.exe"}, None,
         ("C:\\Users\\me\\AppData\\Roaming\\Python\\Python312\\Scripts\\winmcp-gateway.exe", ())),
        (WIN, ["C:\\venv\\Scripts"], set(), "C:\\Users\\me\\.local\\bin\\winmcp-gateway.EXE",
         ("C:\\Users\\me\\.local\\bin\\winmcp-gateway.EXE", ())),
        (WIN, ["C:\\venv\\Scripts"], set(), "bin\\winmcp-gateway.exe", ("C:\\work\\proj\\bin\\winmcp-gateway.exe", ())),
        (WIN, ["C:\\venv\\Scripts"], set(), None, ("C:\\venv\\Scripts\\python.exe", ("-m", "gateway"))),
        (Host(platform="linux", environ={}, home="/h", cwd="/w"), ["/opt/venv/bin"], {"/opt/venv/bin/winmcp-gateway"},
         "/usr/bin/winmcp-gateway", ("/opt/venv/bin/winmcp-gateway", ())),
    ],
)  # fmt: skip
def test_the_entry_runs_this_installations_executable_by_absolute_path(
    host: Host, dirs: list[str], files: set[str], on_path: str | None, expected: tuple[str, tuple[str, ...]]
) -> None:
    """S-CLI-22: Scripts\\winmcp-gateway.exe (bin/winmcp-gateway) next to this Python, else PATH, else -m gateway."""
    found = find_executable(
        host,
        scripts_dirs=dirs,
        which=lambda name: on_path if name == "winmcp-gateway" else None,
        exists=files.__contains__,
        python="C:\\venv\\Scripts\\python.exe",
    )
    assert found == expected
    assert (ntpath if host.platform == "win32" else posixpath).isabs(found[0])


@requirement("S-CLI-22")
def test_json_prints_the_entry_with_this_installations_command_and_the_default_upstream(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """S-CLI-22: the default entry is `<absolute executable> serve --upstream-cmd "uvx windows-mcp"`, no env."""
    entry = _entry(capsys)
    assert Path(entry["command"]).is_absolute()
    lead = ["-m", "gateway"] if entry["command"] == sys.executable else []
    assert Path(entry["command"]).name.startswith("winmcp-gateway") or lead
    assert entry["args"] == [*lead, "serve", "--upstream-cmd", "uvx windows-mcp"]
    assert "env" not in entry


WIN_UVX = "C:\\tools\\uvx.exe windows-mcp"


@requirement("S-CLI-22")
@pytest.mark.parametrize(
    ("flags", "args"),
    [
        (["--upstream-cmd", WIN_UVX], ["serve", "--upstream-cmd", WIN_UVX]),
        (["--upstream-url", "http://127.0.0.1:8000/mcp"], ["serve", "--upstream-url", "http://127.0.0.1:8000/mcp"]),
        (["--upstream", "sim"], ["serve", "--upstream", "sim"]),
        (["--upstream", "sim", "--scenario", "consoles"], ["serve", "--upstream", "sim", "--scenario", "consoles"]),
    ],
)  # fmt: skip
def test_the_upstream_flags_are_serves_own_and_reach_the_entry(
    capsys: pytest.CaptureFixture[str], flags: list[str], args: list[str]
) -> None:
    """S-CLI-22: --upstream-cmd (as typed), --upstream-url and --upstream sim become serve's arguments."""
    entry = _entry(capsys, *flags)
    assert entry["args"][-len(args) :] == args


@requirement("S-CLI-22")
def test_state_dir_and_config_go_into_the_env_block_as_absolute_paths(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """S-CLI-22: --state-dir and --config become WINMCP_GATEWAY_STATE_DIR / _CONFIG, absolute."""
    (tmp_path / "project" / "gw.toml").write_text("audit_keep = 5\n", encoding="utf-8")
    entry = _entry(capsys, "--state-dir", "state", "--config", "gw.toml")
    assert entry["env"] == {
        "WINMCP_GATEWAY_STATE_DIR": str(tmp_path / "project" / "state"),
        "WINMCP_GATEWAY_CONFIG": str(tmp_path / "project" / "gw.toml"),
    }


@requirement("S-CLI-22")
@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--config", "missing.toml"], "does not exist"),
        (["--scenario", "consoles"], "--scenario only applies to --upstream sim"),
    ],
)
def test_an_entry_that_would_not_start_is_refused_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], client_home: Path, flags: list[str], says: str
) -> None:
    """S-CLI-22: a missing --config or a --scenario without sim is exit 2 and no file is written."""
    code, out, err = _run(capsys, "cursor", "--yes", *flags)
    assert code == 2 and says in err and out == ""
    assert not (client_home / ".cursor").exists()


def _cursor_file(client_home: Path, text: str) -> Path:
    path = client_home / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("utf-8"))
    return path


OTHER = {
    "theme": "dark",
    "mcpServers": {
        "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"T": "x"}},
        "winmcp-gateway": {"command": "old", "args": []},
        "zeta": {"url": "http://example/mcp"},
    },
    "z_last": [1, 2, 3],
}


@requirement("S-CLI-24")
def test_merging_keeps_every_other_server_and_key_and_keeps_a_backup(
    capsys: pytest.CaptureFixture[str], client_home: Path
) -> None:
    """S-CLI-24: other servers and keys stay as they were, the entry is replaced in place, FILE.bak is the old file."""
    before = json.dumps(OTHER, indent=4) + "\n"
    path = _cursor_file(client_home, before)
    code, out, _ = _run(capsys, "cursor", "--yes")
    assert code == 0 and f"wrote {path}" in out
    after = json.loads(path.read_text(encoding="utf-8"))
    assert (
        list(after) == ["theme", "mcpServers", "z_last"] and after["theme"] == "dark" and after["z_last"] == [1, 2, 3]
    )
    assert list(after["mcpServers"]) == ["github", "winmcp-gateway", "zeta"]
    assert after["mcpServers"]["github"] == OTHER["mcpServers"]["github"]
    assert after["mcpServers"]["zeta"] == OTHER["mcpServers"]["zeta"]
    assert after["mcpServers"]["winmcp-gateway"]["command"] != "old"
    assert path.with_name("mcp.json.bak").read_text(encoding="utf-8") == before
    assert path.read_text(encoding="utf-8").startswith('{\n    "theme"'), "the file's own indentation is kept"
    names = sorted(p.name for p in path.parent.iterdir())
    assert names == ["mcp.json", "mcp.json.bak"], "no temporary file is left behind"


@requirement("S-CLI-24")
def test_line_ends_and_a_byte_order_mark_are_kept(capsys: pytest.CaptureFixture[str], client_home: Path) -> None:
    """S-CLI-24: a CRLF file stays CRLF and a UTF-8 BOM stays (Notepad writes both)."""
    path = _cursor_file(client_home, '\ufeff{\r\n  "mcpServers": {}\r\n}\r\n')
    assert _run(capsys, "cursor", "--yes")[0] == 0
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf{\r\n") and b"\n" not in raw.replace(b"\r\n", b"")
    assert "winmcp-gateway" in json.loads(raw.decode("utf-8-sig"))["mcpServers"]


@requirement("S-CLI-24")
def test_a_file_that_is_not_json_is_refused_and_left_alone(
    capsys: pytest.CaptureFixture[str], client_home: Path
) -> None:
    """S-CLI-24: invalid JSON is exit 2 naming the file and where it breaks; nothing is written."""
    text = '{"mcpServers": {}, // my servers\n}'
    path = _cursor_file(client_home, text)
    code, out, err = _run(capsys, "cursor", "--yes")
    assert code == 2 and str(path) in err and "is not valid JSON (line 1" in err and "nothing was written" in err
    assert path.read_text(encoding="utf-8") == text and sorted(p.name for p in path.parent.iterdir()) == ["mcp.json"]
    assert "wrote" not in out


@requirement("S-CLI-24")
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"mcpServers": {"a": 1},}', "is not valid JSON"),
        ("[1, 2]", "the top level is not a JSON object"),
        ('{"mcpServers": []}', '"mcpServers" is not a JSON object'),
    ],
)
def test_a_file_of_the_wrong_shape_cannot_be_merged(text: str, says: str) -> None:
    """S-CLI-24: a trailing comma, a top level that is not an object, servers that are not an object."""
    with pytest.raises(ConfigError, match=re.escape(says)) as refused:
        merge_entry("C:\\Users\\me\\.cursor\\mcp.json", text, "mcpServers", "gw", {})
    assert "nothing was written" in str(refused.value)


@requirement("S-CLI-24")
def test_a_file_that_already_has_the_entry_is_not_rewritten(
    capsys: pytest.CaptureFixture[str], client_home: Path
) -> None:
    """S-CLI-24: the same JSON as the merge would write → "nothing to change", no write, no backup."""
    assert _run(capsys, "cursor", "--yes")[0] == 0
    path = client_home / ".cursor" / "mcp.json"
    reformatted = json.dumps(json.loads(path.read_text(encoding="utf-8")), indent=8)
    path.write_text(reformatted, encoding="utf-8")
    code, out, _ = _run(capsys, "cursor", "--yes")
    assert code == 0 and "nothing to change" in out
    assert path.read_text(encoding="utf-8") == reformatted and not path.with_name("mcp.json.bak").exists()


@requirement("S-CLI-24")
def test_a_failed_replace_leaves_the_file_as_it_was_and_no_temporary_file(
    capsys: pytest.CaptureFixture[str], client_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CLI-24: the write is temp + os.replace: when the replace fails the old file is intact."""
    before = json.dumps(OTHER)
    path = _cursor_file(client_home, before)

    def locked(src: str, dst: str) -> None:
        raise PermissionError(13, "The process cannot access the file", dst)

    monkeypatch.setattr(os, "replace", locked)
    code, _, err = _run(capsys, "cursor", "--yes")
    assert code == 2 and "cannot write" in err and "unchanged" in err
    assert path.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["mcp.json", "mcp.json.bak"]


@requirement("S-CLI-24")
def test_merge_entry_replaces_only_the_named_server() -> None:
    """S-CLI-24: the merge itself, on text: a new servers key is added at the end, others untouched."""
    merged, text = merge_entry(
        "f.json", '{"a": 1}', "servers", "gw", server_entry("vscode", "C:\\gw.exe", ["serve"], {})
    )
    assert merged == {"a": 1, "servers": {"gw": {"type": "stdio", "command": "C:\\gw.exe", "args": ["serve"]}}}
    assert json.loads(text) == merged and text.endswith("\n")
    with pytest.raises(ConfigError, match="not valid JSON"):
        merge_entry("f.json", "{", "servers", "gw", {})


@requirement("S-CLI-25")
def test_the_diff_is_shown_and_without_a_terminal_nothing_is_written(
    capsys: pytest.CaptureFixture[str], client_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CLI-25: no terminal and no --yes: the diff is printed, exit 2 with the remedy, no file."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))  # not a terminal: the "y" is never read
    code, out, err = _run(capsys, "cursor")
    path = client_home / ".cursor" / "mcp.json"
    assert code == 2 and "--yes" in err and "install json" in err and "nothing was done" in err
    assert out.startswith(f"--- {path} (does not exist yet)\n+++ {path} (after)\n")
    assert '+    "winmcp-gateway": {' in out
    assert not path.exists()


@requirement("S-CLI-25")
@pytest.mark.parametrize(
    ("answer", "code", "written"), [("y", 0, True), ("yes", 0, True), ("n", 1, False), ("", 1, False)]
)
def test_a_person_at_a_terminal_is_asked_before_the_file_changes(
    capsys: pytest.CaptureFixture[str],
    client_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
    code: int,
    written: bool,
) -> None:
    """S-CLI-25: at a terminal, y/yes writes; anything else writes nothing (exit 1)."""
    path = _cursor_file(client_home, json.dumps(OTHER))
    asked: list[str] = []
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or answer)
    got, out, _ = _run(capsys, "cursor")
    assert got == code and asked == [f"Write {path}? [y/N] "]
    assert ("winmcp-gateway" in json.loads(path.read_text(encoding="utf-8"))["mcpServers"]) is True
    changed = json.loads(path.read_text(encoding="utf-8"))["mcpServers"]["winmcp-gateway"]["command"] != "old"
    assert changed is written and path.with_name("mcp.json.bak").exists() is written
    assert ("nothing written" in out) is not written


@requirement("S-CLI-26")
def test_json_only_prints(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """S-CLI-26: `install json` prints the entry and writes no file anywhere."""
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    code, out, _ = _run(capsys, "json", "--yes", "--state-dir", "s")
    assert code == 0 and set(json.loads(out)) == {"mcpServers"}
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


@requirement("S-CLI-27")
def test_claude_mcp_add_puts_the_name_before_env_and_ends_options_before_the_command() -> None:
    """S-CLI-27: `claude mcp add --transport stdio --scope S NAME --env K=V -- COMMAND ARGS` (claude-code#62332)."""
    argv = claude_code_argv("gw", "user", "C:\\Program Files\\gw\\winmcp-gateway.exe", ["serve"], {"A": "1", "B": "2"})
    assert argv == [
        "claude", "mcp", "add", "--transport", "stdio", "--scope", "user", "gw",
        "--env", "A=1", "--env", "B=2", "--", "C:\\Program Files\\gw\\winmcp-gateway.exe", "serve",
    ]  # fmt: skip
    shown = shown_command(argv, "win32")
    assert "'--'" in shown and "'C:\\Program Files\\gw\\winmcp-gateway.exe'" in shown and " gw --env A=1 " in shown
    assert shown_command(["claude", "--", "/a b/gw"], "linux") == "claude -- '/a b/gw'"


class _Ran:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, argv: list[str], check: bool) -> Any:
        self.calls.append(argv)
        return type("Done", (), {"returncode": 0})()


@requirement("S-CLI-27")
@pytest.mark.parametrize(
    ("yes", "claude", "code", "ran"),
    [
        (False, "/usr/bin/claude", 0, False),
        (False, None, 0, False),
        (True, None, 1, False),
        (True, "/usr/bin/claude", 0, True),
        (True, "C:\\npm\\claude.cmd", 1, False),  # an argument with "&" would be read by cmd.exe
    ],
)
def test_claude_code_is_run_only_with_yes_and_when_claude_is_on_path(
    capsys: pytest.CaptureFixture[str], yes: bool, claude: str | None, code: int, ran: bool
) -> None:
    """S-CLI-27: printed always; run (without a shell) only with --yes, `claude` on PATH and safe arguments."""
    argv = claude_code_argv("gw", "user", "/opt/R&D/winmcp-gateway", ["serve"], {})
    run = _Ran()
    host = Host(platform="linux", environ={}, home="/h", cwd="/w")
    assert install_claude_code(argv, host=host, assume_yes=yes, which=lambda _: claude, run=run) == code
    assert capsys.readouterr().out.startswith(shown_command(argv, "linux") + "\n")
    assert run.calls == ([[claude, *argv[1:]]] if ran else [])


@requirement("S-CLI-27")
def test_install_claude_code_without_claude_on_path_prints_the_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CLI-27: through the CLI, with `claude` not on PATH: the command is printed and nothing is run."""
    real_which = __import__("shutil").which
    monkeypatch.setattr("shutil.which", lambda name: None if name == "claude" else real_which(name))
    code, out, _ = _run(capsys, "claude-code", "--state-dir", "s")
    first = out.splitlines()[0]
    assert code == 0 and first.startswith("claude mcp add --transport stdio --scope user winmcp-gateway --env ")
    assert " -- " in first and "serve --upstream-cmd 'uvx windows-mcp'" in first and "not on PATH" in out


@requirement("S-CLI-28")
def test_a_server_that_starts_windows_mcp_around_the_gateway_is_warned_about(
    capsys: pytest.CaptureFixture[str], client_home: Path
) -> None:
    """S-CLI-28: another entry running windows-mcp itself is named on stderr; the gateway's own is not."""
    servers = {
        "windows": {"command": "uvx", "args": ["windows-mcp"]},
        "old-gw": {"command": sys.executable, "args": ["-m", "gateway", "serve", "--upstream-cmd", "uvx windows-mcp"]},
        "win2": {"command": "C:\\tools\\Windows-MCP.exe"},
        "github": {"command": "npx", "args": ["server-github"]},
    }
    _cursor_file(client_home, json.dumps({"mcpServers": servers}))
    code, _, err = _run(capsys, "cursor", "--yes")
    assert code == 0
    warned = [line for line in err.splitlines() if "starts Windows-MCP itself" in line]
    assert len(warned) == 2 and "'windows'" in warned[0] and "'win2'" in warned[1]


@requirement("S-CLI-22")
def test_an_upstream_given_after_double_dash_is_passed_on_as_separate_arguments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """S-CLI-22: `install json -- C:\\tools\\uvx.exe windows-mcp` → args `serve -- C:\\tools\\uvx.exe windows-mcp`."""
    entry = _entry(capsys, "--", "C:\\tools\\uvx.exe", "windows-mcp", "--verbose")
    assert entry["args"][-5:] == ["serve", "--", "C:\\tools\\uvx.exe", "windows-mcp", "--verbose"]
    assert _entry(capsys, "--", "uvx", "windows-mcp")["args"][-3:] == ["serve", "--upstream-cmd", "uvx windows-mcp"]
    code, _, err = _run(capsys, "json", "--upstream-url", "http://x/mcp", "--", "uvx", "windows-mcp")
    assert code == 2 and "named twice" in err
