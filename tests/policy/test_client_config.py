"""An AI client's tool-server configuration is the gateway's too (S-SELF-12).

Claude Desktop, Claude Code, Cursor, VS Code, Windsurf and Cline read which MCP servers to start from
a JSON file. An agent that rewrites it can make the next start run Windows-MCP with no gateway in
front: the guard switched off for the next start. Changing, deleting, moving or copying onto such a
file is a self-protection deny; FileSystem `read` (and copying it elsewhere) stays allowed, so the
refusal's remedy is itself allowed. The rules are built as the gateway builds them.
"""

from __future__ import annotations

import pytest

from gateway.app import SELF_COMMANDS
from policy.rules.match import load_rules
from policy.rules.place_table import MCP_CLIENT_FILES
from tests._requirements import requirement

STATE = "C:\\Users\\bob\\AppData\\Local\\winmcp-gateway"
RULES = load_rules(protected_paths=[STATE, STATE + "\\STOP", *SELF_COMMANDS])
ROAMING = "C:\\Users\\bob\\AppData\\Roaming"
CONFIGS = [
    f"{ROAMING}\\Claude\\claude_desktop_config.json",
    "C:\\Users\\bob\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json",
    "C:\\Users\\bob\\.claude.json",
    "C:\\src\\app\\.mcp.json",
    "C:\\Users\\bob\\.cursor\\mcp.json",
    "C:\\src\\app\\.vscode\\mcp.json",
    f"{ROAMING}\\Code\\User\\mcp.json",
    f"{ROAMING}\\Code - Insiders\\User\\mcp.json",
    "C:\\Users\\bob\\.codeium\\windsurf\\mcp_config.json",
    f"{ROAMING}\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json",
]
SELF = ("self-protection", "deny")


def verdict(tool: str, **args: object) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-SELF-12")
@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.rsplit("\\", 2)[-2] + "/" + p.rsplit("\\", 1)[-1])
def test_changing_a_client_config_is_refused_by_every_tool(path: str) -> None:
    """S-SELF-12: FileSystem write, delete, move, copy onto it, and PowerShell naming it are self-protection."""
    assert verdict("FileSystem", mode="write", path=path, content='{"mcpServers": {}}') == SELF
    assert verdict("FileSystem", mode="delete", path=path) == SELF
    assert verdict("FileSystem", mode="move", path=path, destination="C:\\tmp\\x.json") == SELF
    assert verdict("FileSystem", mode="copy", path="C:\\tmp\\x.json", destination=path) == SELF
    assert verdict("PowerShell", command=f"Set-Content '{path}' '{{}}'") == SELF


@requirement("S-SELF-12")
@pytest.mark.parametrize(
    "command",
    [
        "$f = 'claude_desktop' + '_config.json'; Set-Content \"$env:APPDATA\\Claude\\$f\" '{}'",
        "'{}' | Out-File C:\\src\\app\\.vscode\\mcp.json",
        "[IO.File]::WriteAllText(\"$env:USERPROFILE\\.cursor\\mcp.json\", '{}')",
        "cmd /c echo {} > %APPDATA%\\Claude\\claude_desktop_config.json",
        "notepad $env:APPDATA\\Claude\\claude_desktop_config.json",  # opened to be edited by typing
    ],
)
def test_built_names_and_other_writers_are_refused(command: str) -> None:
    """S-SELF-12: a name built by folding, a redirection, .NET and cmd all name the file."""
    assert verdict("PowerShell", command=command) == SELF


@requirement("S-SELF-12")
def test_the_remedy_reading_it_with_filesystem_is_allowed_and_look_alikes_pass() -> None:
    """S-SELF-12: the refusal says to read the file with FileSystem `read`, which passes; so does a copy of it
    elsewhere, and files whose names only look alike."""
    hit = RULES.match("FileSystem", {"mode": "write", "path": CONFIGS[0], "content": "{}"})
    assert hit is not None and "FileSystem `read`" in hit.reason and "no gateway in front" in hit.reason
    assert verdict("FileSystem", mode="read", path=CONFIGS[0]) is None
    assert verdict("FileSystem", mode="copy", path=CONFIGS[0], destination="C:\\backup\\claude.json") is None
    for path in ("C:\\src\\app\\x.mcp.json", "C:\\src\\app\\notmcp.json", "C:\\src\\app\\.vscode\\settings.json"):
        assert verdict("FileSystem", mode="write", path=path, content="{}") is None, path


SITE = "C:\\Users\\bob\\AppData\\Roaming\\Python\\Python311\\site-packages"


@requirement("S-SELF-14")
@pytest.mark.parametrize(
    "path",
    [
        f"{SITE}\\usercustomize.py",
        "C:\\Program Files\\Python311\\Lib\\site-packages\\sitecustomize.py",
        f"{SITE}\\zz-hook.pth",
        "C:\\Users\\bob\\pipx\\venvs\\winmcp-gateway\\Lib\\site-packages\\a.pth",
    ],
)
def test_a_file_python_runs_at_every_start_is_the_gateways_too(path: str) -> None:
    """S-SELF-14: `sitecustomize.py`, `usercustomize.py` and a site-packages `.pth` run inside every Python
    program at its start, the gateway included: writing, deleting or naming one in PowerShell is refused."""
    assert verdict("FileSystem", mode="write", path=path, content="import evil") == SELF
    assert verdict("FileSystem", mode="delete", path=path) == SELF
    assert verdict("PowerShell", command=f"Add-Content '{path}' 'import evil'") == SELF
    hit = RULES.match("FileSystem", {"mode": "write", "path": path, "content": "x"})
    assert hit is not None and "every start" in hit.reason and "FileSystem `read`" in hit.reason


@requirement("S-SELF-14")
def test_installing_packages_and_files_that_only_look_alike_pass() -> None:
    """S-SELF-14: pip itself, a `.pth` outside site-packages, another `site.py`, and reading one pass."""
    assert verdict("PowerShell", command="python -m pip install requests") is None
    assert verdict("FileSystem", mode="write", path="C:\\proj\\notes.pth", content="x") is None
    assert verdict("FileSystem", mode="write", path="C:\\proj\\src\\site.py", content="x") is None
    assert verdict("FileSystem", mode="read", path=f"{SITE}\\distutils-precedence.pth") is None


@requirement("S-SELF-15")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("PowerShell", {"command": "setx PYTHONPATH C:\\evil"}),
        ("PowerShell", {"command": "[Environment]::SetEnvironmentVariable('PYTHONPATH', 'C:\\evil', 'User')"}),
        ("PowerShell", {"command": "Set-ItemProperty HKCU:\\Environment -Name PYTHONHOME -Value C:\\evil"}),
        ("Registry", {"mode": "set", "path": "HKCU:\\Environment", "name": "PYTHONUSERBASE", "value": "C:\\evil"}),
        (
            "Registry",
            {
                "mode": "set",
                "path": "HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment",
                "name": "PythonPath",
                "value": "C:\\evil",
            },
        ),
        ("Registry", {"mode": "delete", "path": "HKCU:\\Environment", "name": "PYTHON*"}),
        ("PowerShell", {"command": "setx PYTHONPYCACHEPREFIX C:\\evil\\pyc"}),  # a planted `.pyc` is loaded
        ("Registry", {"mode": "set", "path": "HKCU:\\Environment", "name": "PythonPycachePrefix", "value": "C:\\e"}),
    ],
)
def test_a_persistent_python_loader_variable_is_the_gateways_setting_too(tool: str, args: dict[str, object]) -> None:
    """S-SELF-15: PYTHONPATH, PYTHONHOME, PYTHONUSERBASE … decide which code every Python program loads at its
    start, the gateway included: set for the next start by any route, they are a self-protection deny."""
    hit = RULES.match(tool, args)
    assert hit is not None and (hit.rule_id, hit.action) == SELF
    assert "which code every Python program loads" in hit.reason


@requirement("S-SELF-15")
@pytest.mark.parametrize(
    "command",
    ["$env:PYTHONPATH = 'C:\\src'", "Get-ChildItem Env:PYTHONPATH", "python -c 'import sys; print(sys.path)'"],
)
def test_this_process_s_own_value_and_reading_it_pass(command: str) -> None:
    """S-SELF-15: `$env:` lasts one process; reading passes (inline Python still asks on its own rule)."""
    hit = RULES.match("PowerShell", {"command": command})
    assert hit is None or hit.rule_id != "self-protection"


def _realised(folder: str, file: str) -> str:
    """A path the (folder, file) entry stands for: bob's profile for `~`, the first `{…}` choice, a name for `*`."""
    path = f"{folder}\\{file}".replace("~", "C:\\Users\\bob", 1)
    while "{" in path:
        start, end = path.index("{"), path.index("}")
        path = path[:start] + path[start + 1 : end].split(",")[0] + path[end + 1 :]
    return path.replace("*mcp*", "cline_mcp_settings").replace("*", "pkg_1")


@requirement("S-SELF-12")
@pytest.mark.parametrize(("folder", "file"), MCP_CLIENT_FILES, ids=lambda v: str(v))
def test_every_client_file_is_named_by_the_text_check_and_is_the_place(folder: str | None, file: str) -> None:
    """S-SELF-12: the text check and the place come from one list (place_table.MCP_CLIENT_FILES): a script that
    names the file under a folder the judge cannot know is refused, and so is a write to where it lives."""
    assert verdict("PowerShell", command=f"Set-Content \"$d\\{_realised('x', file)[2:]}\" '{{}}'") == SELF
    if folder is not None:
        path = _realised(folder, file)
        assert verdict("FileSystem", mode="write", path=path, content="{}") == SELF, path
        assert verdict("FileSystem", mode="read", path=path) is None, path
