"""`winmcp-gateway completion bash|zsh|powershell` (S-CLI-47): the scripts come from the parser, and bash,
run on the script, completes subcommands, choices and the pass-through commands' own options."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from gateway.cli import main
from gateway.cli.commands import build_parser
from gateway.cli.completion import completion_script
from tests._requirements import requirement
from tests.gateway.test_cli_papercuts import _subcommands


@requirement("S-CLI-47")
def test_completion_scripts_cover_every_subcommand_and_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    """S-CLI-47: bash, zsh and PowerShell scripts come from the parser: every subcommand, sim's own options."""
    names = [n for n in _subcommands() if n != "show"]
    assert {"serve", "doctor", "kill", "approvals", "approve", "deny", "completion", "sim", "audit-report"} <= set(
        names
    )
    bash, zsh, ps = (completion_script(shell, build_parser) for shell in ("bash", "zsh", "powershell"))
    assert zsh.startswith("#compdef winmcp-gateway")
    assert "Register-ArgumentCompleter -Native -CommandName winmcp-gateway" in ps
    for script in (bash, zsh, ps):
        assert all(name in script for name in names)
        assert "--event-log" in script and "--timeout" in script and "--state-dir" in script
        assert "engage" in script and "powershell" in script
    assert main(["completion", "bash"]) == 0
    assert capsys.readouterr().out == bash
    with pytest.raises(SystemExit):
        build_parser().parse_args(["completion", "fish"])


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("winmcp-gateway ki", "kill"),
        ("winmcp-gateway kill ", "engage release status"),
        ("winmcp-gateway sim --ev", "--event-log"),
        ("winmcp-gateway config s", "show"),
        ("winmcp-gateway completion ", "bash zsh powershell"),
        ("winmcp-gateway doctor --time", "--timeout"),
    ],
)
@requirement("S-CLI-47")
def test_bash_completes_from_the_generated_script(tmp_path: Path, line: str, offered: str) -> None:
    """S-CLI-47: sourced into bash, the script offers subcommands, choices and sim's own options."""
    script = tmp_path / "winmcp-gateway.bash"
    script.write_text(completion_script("bash", build_parser), encoding="utf-8")
    words = line.split(" ")
    program = (
        f"source {shlex.quote(str(script))}; COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); "
        f'COMP_CWORD={len(words) - 1}; _shtab_winmcp_gateway; echo "${{COMPREPLY[@]}}"'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30, check=True)
    assert done.stdout.strip() == offered
