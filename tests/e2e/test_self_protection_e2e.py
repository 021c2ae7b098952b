"""Nothing the agent can reach lifts the guard (issue 12 items 1–2), end to end through the gateway.

client ⇄ gateway ⇄ simulator (standing in for Windows), the state dir under a custom name
(`guard`): every spelling below is `DENIED SELF_PROTECTION` and the simulator's event log stays
empty — then one ordinary call shows the log does record what reaches the system. The gateway
on Linux has POSIX state dirs, which the policy reads as rooted on the system drive
(`/tmp/x` is `C:\\tmp\\x`), so UNC, drive-relative and trailing-dot spellings apply to them too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from gateway.config.load import default_config_file
from policy.rules.processes import canonical_process
from tests._requirements import requirement
from tests.e2e.harness import Rig, first_text, gateway_rig

pytestmark = pytest.mark.anyio

Call = tuple[str, dict[str, Any]]


def _win(path: Path | str) -> str:
    return str(path).replace("/", "\\")


def _no_drive(path: Path | str) -> str:
    return _win(path).lstrip("\\")


def spellings(parent: Path, name: str) -> list[Call]:
    """Every spelling of items 1–2 against a state dir `parent/name` (and this run's default config)."""
    state = parent / name
    p, w = str(parent), _win(parent)
    config = default_config_file()

    def ps(command: str) -> Call:
        return ("PowerShell", {"command": command})

    def fs(mode: str, path: Path | str, **more: Any) -> Call:
        return ("FileSystem", {"mode": mode, "path": str(path), **more})

    def reg(path: str, name_: str | None, mode: str = "set") -> Call:
        return ("Registry", {"mode": mode, "path": path, "name": name_, "value": "false", "type": "String"})

    return [
        # item 1: the default config path (no file there yet), the WINMCP_GATEWAY_* namespace, profiles
        fs("write", config, content="enforce = false"),
        fs("read", config),
        ps(f"New-Item -ItemType Junction -Path '{config.parent}' -Target C:\\Users\\me\\Desktop\\cfg"),
        ps("setx WINMCP_GATEWAY_ENFORCE false"),
        ps("[Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_ENFORCE', 'false', 'User')"),
        ps("[Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_COMMAND_RULES_ENABLED', '0', 'Machine')"),
        ps("Add-Content $PROFILE '$env:WINMCP_GATEWAY_ENFORCE = \"false\"'"),
        ps("'Set-Alias ls Remove-Item' >> $PROFILE"),
        ps("reg add HKCU\\Environment /v WINMCP_GATEWAY_ENFORCE /d false /f"),
        ps("$env:WINMCP_GATEWAY_ENFORCE = 'false'"),
        ps("[Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_ENFORCE', 'false')"),
        ps("Add-Content C:\\Users\\me\\Desktop\\setup.ps1 '$env:WINMCP_GATEWAY_ENFORCE = 0'"),
        reg("HKCU:\\Environment", "WINMCP_GATEWAY_ENFORCE"),
        reg("HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment", "WINMCP_GATEWAY_PROFILE"),
        reg("HKCU:\\Environment", None, mode="delete"),
        fs("write", "C:\\Users\\me\\Documents\\WindowsPowerShell\\profile.ps1", content="$env:WINMCP_GATEWAY_X=1"),
        # item 2: FileSystem by other names
        fs("delete", state / "STOP"),
        fs("write", f"{p}/{name}./STOP", content=""),
        fs("delete", f"{p}/{name} /STOP"),
        fs("delete", f"\\\\localhost\\c$\\{_no_drive(state)}\\STOP"),
        fs("delete", f"\\\\127.0.0.1\\C$\\{_no_drive(state)}\\STOP"),
        fs("delete", f"\\\\?\\UNC\\localhost\\c$\\{_no_drive(state)}\\STOP"),
        fs("delete", f"C:{_no_drive(state)}\\STOP"),
        fs("delete", f"{p}/{name[:2]}?{name[3:]}/ST*"),
        fs("write", f"{p}/{name[:3]}*/audit.jsonl", content="{}"),
        fs("move", state, destination=str(parent / "elsewhere")),
        fs("read", state / "audit.jsonl"),
        # item 2: PowerShell with the custom name, by canonical comparison
        ps(f"cd '{p}'; rm {name}\\STOP"),
        ps(f"Set-Location '{p}'; Remove-Item .\\{name}\\STOP -Force"),
        ps(f"Remove-Item (Join-Path '{p}' '{name}\\STOP')"),
        ps(f"Remove-Item (Join-Path '{p}' {name} STOP)"),
        ps(f"Remove-Item '\\\\localhost\\c$\\{_no_drive(state)}\\STOP'"),
        ps(f"Clear-Content '{w}\\{name}.\\audit.jsonl'"),
        ps(f"cmd /c del {w}\\{name}\\STOP"),
        # item 2: links to a parent, to the folder, and subst
        ps(f"cmd /c mklink /J C:\\Users\\me\\Desktop\\x {w}"),
        ps(f"New-Item -ItemType Junction -Path C:\\Users\\me\\Desktop\\x -Target '{state}'"),
        ps(f"New-Item -ItemType SymbolicLink -Path C:\\Users\\me\\Desktop\\x -Value '{p}'"),
        ps(f"subst X: {w}"),
        # S-SELF-10: the gateway's own process (the rig serves in this process)
        ("Process", {"mode": "kill", "pid": os.getpid()}),
        ("Process", {"mode": "kill", "name": f"{_interpreter()}.exe", "force": True}),
        ps(f"Stop-Process -Id {os.getpid()} -Force"),
        ps(f"Get-Process {_interpreter()} | Stop-Process"),
        ps(f"taskkill /im {_interpreter()}.exe"),
        ps(f"Stop-Process -Name {_interpreter()[:2]}*"),
    ]


def _interpreter() -> str:
    """The name a kill by name would use for the interpreter this process runs in (`python`)."""
    return canonical_process(sys.executable)


async def assert_all_refused(rig: Rig, calls: list[Call]) -> None:
    passed: list[tuple[str, Mapping[str, Any], str]] = []
    for tool, args in calls:
        text = first_text(await rig.call(tool, args))
        if not text.startswith("DENIED SELF_PROTECTION: "):
            passed.append((tool, args, text[:200]))
    assert not passed, f"{len(passed)} of {len(calls)} were not SELF_PROTECTION: {passed}"
    assert rig.side_effects() == [], "a refused call reached the simulated system"
    # The simulator's sandbox would also turn away a forwarded call on a path outside its fake home
    # (without an event), so the gateway's own count proves none was forwarded at all.
    assert rig.app.counters.allowed == 0


async def assert_the_log_records(rig: Rig) -> None:
    # The control: an ordinary write does reach the simulator, so an empty log above means something.
    text = first_text(await rig.call("FileSystem", {"mode": "write", "path": "notes.txt", "content": "x"}))
    assert text.startswith("Written to"), text
    assert [e.get("kind") for e in rig.side_effects()] == ["file_write"]
    assert rig.app.counters.allowed == 1


@requirement("S-SELF-09", "S-SELF-01", "S-SELF-02", "S-SELF-03", "S-SELF-05", "S-SELF-06", "S-SELF-07", "S-SELF-08")
@pytest.mark.parametrize("rules_on", [True, False], ids=["rules-on", "rules-off"])
async def test_no_spelling_of_the_guards_files_or_settings_reaches_the_system(tmp_path: Path, rules_on: bool) -> None:
    """S-SELF-09: every item 1–2 spelling is DENIED SELF_PROTECTION with nothing in the simulator's log."""
    calls = spellings(tmp_path, "guard")
    assert len(calls) >= 35
    async with gateway_rig(tmp_path, state_dir=tmp_path / "guard", config={"command_rules_enabled": rules_on}) as rig:
        await assert_all_refused(rig, calls)
        await assert_the_log_records(rig)


@requirement("S-SELF-04", "S-SELF-06")
async def test_a_relative_state_dir_is_guarded_by_place_not_by_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-SELF-04/06: `state_dir = "guard"` is resolved against the cwd: its absolute spellings are refused,
    and a command that merely says the word `guard` is not."""
    monkeypatch.chdir(tmp_path)
    async with gateway_rig(tmp_path, state_dir=Path("guard")) as rig:
        await assert_all_refused(
            rig,
            [
                ("FileSystem", {"mode": "delete", "path": str(tmp_path / "guard" / "STOP")}),
                ("PowerShell", {"command": f"Remove-Item '{_win(tmp_path)}\\guard\\STOP'"}),
            ],
        )
        text = first_text(await rig.call("PowerShell", {"command": "Write-Output 'guard duty'"}))
        assert not text.startswith("DENIED"), text


@requirement("S-SELF-04")
async def test_the_real_path_behind_a_linked_state_dir_is_guarded(tmp_path: Path) -> None:
    """S-SELF-04: a state dir reached through a symlink is also refused under its real name."""
    (tmp_path / "real-guard").mkdir()
    os.symlink(tmp_path / "real-guard", tmp_path / "guard", target_is_directory=True)
    async with gateway_rig(tmp_path, state_dir=tmp_path / "guard") as rig:
        await assert_all_refused(
            rig,
            [
                ("FileSystem", {"mode": "delete", "path": str(tmp_path / "real-guard" / "STOP")}),
                ("PowerShell", {"command": f"Remove-Item '{_win(tmp_path)}\\real-guard\\STOP'"}),
            ],
        )


@requirement("S-SELF-04")
async def test_the_short_name_windows_gives_the_state_dir_is_guarded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-SELF-04: with Windows standing in (`GetShortPathNameW` says `guard+state` is `GUARD_~1`), the
    8.3 spelling — which no guess from the long name finds — is refused end to end."""
    state = tmp_path / "guard+state"
    monkeypatch.setattr(
        "gateway.state.protected.short_path_name",
        lambda path: str(tmp_path / "GUARD_~1") if path == str(state) else None,
    )
    async with gateway_rig(tmp_path, state_dir=state) as rig:
        await assert_all_refused(
            rig,
            [
                ("FileSystem", {"mode": "delete", "path": str(tmp_path / "GUARD_~1" / "STOP")}),
                ("PowerShell", {"command": f"Remove-Item {_win(tmp_path)}\\GUARD_~1\\audit.jsonl"}),
            ],
        )
        await assert_the_log_records(rig)
