"""The Python tools and interpreters uv and pipx installed are program folders (S-RULE-216).

Before, a write into uv's cache of unpacked packages (`%LOCALAPPDATA%\\uv\\cache\\archive-v0\\…`, where every
`uvx windows-mcp` loads its dependencies from), into a uv-managed interpreter's standard library, a uv tool or a
pipx venv passed: S-RULE-201 guards Windows-MCP's own package, not the code it imports, nor the Python it runs on.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import ps, verdict

WRITE = ("protected-place-write", "deny")
LOCAL = "C:\\Users\\me\\AppData\\Local"
ROAMING = "C:\\Users\\me\\AppData\\Roaming"
FILES = [
    LOCAL + "\\uv\\cache\\archive-v0\\Xy12ab\\Lib\\site-packages\\fastmcp\\server.py",
    ROAMING + "\\uv\\python\\cpython-3.12.7-windows-x86_64-none\\Lib\\encodings\\__init__.py",
    ROAMING + "\\uv\\tools\\some-tool\\Lib\\site-packages\\x.py",
    "C:\\Users\\me\\pipx\\venvs\\windows-mcp\\Lib\\site-packages\\uiautomation\\__init__.py",
    "C:\\Users\\me\\.local\\pipx\\venvs\\windows-mcp\\pyvenv.cfg",
    LOCAL + "\\pipx\\pipx\\venvs\\windows-mcp\\Scripts\\python.exe",
]


@requirement("S-RULE-216")
@pytest.mark.parametrize("path", FILES)
def test_a_write_into_an_installed_python_tool_is_refused(path: str) -> None:
    """S-RULE-216: the next `uvx`, uv tool or pipx run loads what was written there."""
    assert verdict("FileSystem", mode="write", path=path, content="x") == WRITE


@requirement("S-RULE-216")
@pytest.mark.parametrize(
    "command",
    [
        f"Set-Content '{FILES[0]}' 'import os'",
        'Copy-Item C:\\t\\evil.py "$env:LOCALAPPDATA\\uv\\cache\\archive-v0\\Xy12ab\\Lib\\site-packages\\x.py"',
        "Expand-Archive C:\\t\\x.zip -DestinationPath $env:APPDATA\\uv\\python\\cpython-3.12.7\\Lib -Force",
        'cmd /c "echo x > %APPDATA%\\uv\\tools\\some-tool\\Lib\\site-packages\\x.pth"',
    ],
)
def test_shell_writes_are_refused_the_same(command: str) -> None:
    """S-RULE-216: every spelling of the folder, every writer."""
    assert ps(command) == WRITE


@requirement("S-RULE-216")
def test_typed_into_a_console_is_refused() -> None:
    """S-RULE-216: the keyboard is a shell."""
    assert typed_in_console(f"Set-Content '{FILES[0]}' 'import os'") == WRITE


@requirement("S-RULE-216")
def test_deleting_the_whole_cache_is_a_protected_delete() -> None:
    """S-RULE-216: a program folder's delete; uv's own `uv cache clean` is the way (ordinary)."""
    assert ps("Remove-Item $env:LOCALAPPDATA\\uv\\cache -Recurse -Force") == ("protected-place-delete", "deny")
    assert ps("uv cache clean") is None


@requirement("S-RULE-216")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "read", "path": FILES[0]}),
        ("PowerShell", {"command": f"Get-Content '{FILES[1]}'"}),
        (
            "PowerShell",
            {"command": '& "$env:APPDATA\\uv\\python\\cpython-3.12.7-windows-x86_64-none\\python.exe" x.py'},
        ),
        ("PowerShell", {"command": "uv tool install ruff"}),
        ("PowerShell", {"command": "pipx install black"}),
        ("FileSystem", {"mode": "write", "path": LOCAL + "\\uv\\cachex\\notes.txt", "content": "x"}),  # another folder
        ("FileSystem", {"mode": "write", "path": "C:\\work\\.venv\\Lib\\site-packages\\x.py", "content": "x"}),
    ],
)
def test_reading_running_and_installing_stay_ordinary(tool: str, args: dict[str, object]) -> None:
    """S-RULE-216: a program folder is read and run freely; uv and pipx install into it themselves."""
    assert verdict(tool, **args) is None
