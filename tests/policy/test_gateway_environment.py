"""The Python environment the gateway runs in is guarded by place (S-SELF-13).

Before, the gateway's own `gateway` and `policy` folders were guarded, but not the venv they run in: a write of
`…\\.venv\\Lib\\site-packages\\mcp\\server\\lowlevel\\server.py` (every request passes through it), of `pyvenv.cfg`
(`home = C:\\evil`: another interpreter) or of a uv-managed interpreter's standard library passed, and the next start
ran the agent's code inside the guard. Windows paths, as `serve` resolves them on Windows.
"""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

VENV = "C:\\tools\\gw\\.venv"
BASE = "C:\\Users\\bob\\AppData\\Roaming\\uv\\python\\cpython-3.12.7-windows-x86_64-none"
RULES = load_rules(environment_paths=[VENV, BASE])
GUARD = ("self-protection", "deny")


def verdict(tool: str, **args: object) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


@requirement("S-SELF-13")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "write", "path": VENV + "\\Lib\\site-packages\\mcp\\server\\lowlevel\\server.py"}),
        ("FileSystem", {"mode": "write", "path": VENV + "\\pyvenv.cfg", "content": "home = C:\\evil"}),
        ("FileSystem", {"mode": "delete", "path": VENV + "\\Scripts\\python.exe"}),
        ("FileSystem", {"mode": "write", "path": BASE + "\\Lib\\encodings\\__init__.py", "content": "x"}),
        ("FileSystem", {"mode": "copy", "path": "C:\\t\\evil.py", "destination": VENV + "\\Lib\\site-packages\\x.py"}),
        ("FileSystem", {"mode": "move", "path": VENV, "destination": "C:\\t\\old"}),
        ("PowerShell", {"command": f"Set-Content '{VENV}\\Lib\\site-packages\\pydantic\\__init__.py' 'import os'"}),
        ("PowerShell", {"command": "Remove-Item C:\\tools\\gw -Recurse -Force"}),  # a folder that holds it
        ("PowerShell", {"command": f"Expand-Archive C:\\t\\x.zip -DestinationPath '{VENV}\\Lib' -Force"}),
        ("PowerShell", {"command": f"cmd /c mklink /J C:\\t\\j {VENV}"}),  # a link: later writes reach it unnamed
        ("PowerShell", {"command": "Copy-Item C:\\t\\os.py C:/TOOLS/GW/.VENV/lib/os.py"}),  # case, slashes
        ("PowerShell", {"command": "$v = 'C:\\tools\\gw\\' + '.venv'; Remove-Item \"$v\\pyvenv.cfg\""}),  # built
    ],
)
def test_a_change_of_the_environment_is_refused(tool: str, args: dict[str, object]) -> None:
    """S-SELF-13: its packages and interpreter are the code the gateway runs."""
    assert verdict(tool, **args) == GUARD


@requirement("S-SELF-13")
def test_the_reason_names_the_environment_and_a_harmless_remedy() -> None:
    """S-SELF-13: the refusal says whose environment, and the remedy (a venv of one's own) is itself allowed."""
    hit = RULES.match("FileSystem", {"mode": "write", "path": VENV + "\\pyvenv.cfg", "content": "x"})
    assert hit is not None
    assert "the Python environment the gateway runs in" in hit.reason
    assert "python -m venv" in hit.reason
    assert verdict("PowerShell", command="python -m venv C:\\work\\venv") is None


@requirement("S-SELF-13")
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("FileSystem", {"mode": "read", "path": VENV + "\\Lib\\site-packages\\mcp\\__init__.py"}),
        ("FileSystem", {"mode": "list", "path": VENV + "\\Lib\\site-packages"}),
        ("PowerShell", {"command": f"Get-Content '{VENV}\\pyvenv.cfg'"}),
        ("PowerShell", {"command": f"& '{BASE}\\python.exe' C:\\work\\report.py"}),  # running that Python
        ("PowerShell", {"command": f"Copy-Item '{VENV}\\pyvenv.cfg' C:\\t\\cfg.txt"}),  # copied from, not onto
        ("FileSystem", {"mode": "write", "path": "C:\\tools\\gw\\notes.txt", "content": "x"}),  # beside it
        ("FileSystem", {"mode": "write", "path": "C:\\tools\\gw\\.venv2\\x.py", "content": "x"}),  # another venv
    ],
)
def test_reading_and_running_it_stay_ordinary(tool: str, args: dict[str, object]) -> None:
    """S-SELF-13: guarded by place, not by name: reading it or running its Python is any program's."""
    assert verdict(tool, **args) is None


@requirement("S-SELF-13")
def test_a_root_or_a_relative_folder_is_never_an_environment() -> None:
    """S-SELF-13: `C:\\` or a bare name would make every path the gateway's."""
    rules = load_rules(environment_paths=["C:\\", "venv"])
    assert rules.match("FileSystem", {"mode": "write", "path": "C:\\work\\x.py", "content": "x"}) is None
