"""The command line's small things, in process: kill in prose and JSON, help texts, one error prefix,
and the parser completion reads (S-CLI-43, S-CLI-44, S-CLI-46, S-CLI-48); completion scripts are
tests/e2e/test_cli_completion_e2e.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway.cli import main
from gateway.cli.commands import build_parser
from gateway.cli.completion import completion_parser
from tests._requirements import requirement

# The commands issue 16 item 11 covers (the others have their own tests).
OWN_COMMANDS = ("serve", "sim", "demo", "doctor", "audit-report", "kill", "approvals", "approve", "deny", "completion")


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@requirement("S-CLI-43")
def test_kill_status_speaks_prose_and_json_is_for_machines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-CLI-43: `kill status` says in words whether and why; `--json` prints the state for any action."""
    state = str(tmp_path)
    assert main(["kill", "status", "--state-dir", state]) == 0
    assert capsys.readouterr().out.startswith("kill switch not engaged")
    assert main(["kill", "engage", "--reason", "lunch", "--json", "--state-dir", state]) == 0
    engaged = json.loads(capsys.readouterr().out)
    assert engaged["engaged"] is True and engaged["by"] == "person" and engaged["reason"] == "lunch"
    assert main(["kill", "status", "--state-dir", state]) == 0
    prose = capsys.readouterr().out
    assert prose.startswith("kill switch ENGAGED by person since ") and ": lunch" in prose
    assert f"winmcp-gateway kill release --state-dir {tmp_path}" in prose
    with pytest.raises(ValueError):
        json.loads(prose)


@requirement("S-CLI-44")
def test_releasing_a_stop_that_was_not_engaged_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """S-CLI-44: `kill release` with nothing engaged says "was not engaged"; after an engage it says released."""
    state = str(tmp_path)
    assert main(["kill", "release", "--state-dir", state]) == 0
    assert capsys.readouterr().out.strip() == "kill switch was not engaged; nothing to release"
    main(["kill", "engage", "--reason", "lunch", "--state-dir", state])
    capsys.readouterr()
    assert main(["kill", "release", "--state-dir", state]) == 0
    assert capsys.readouterr().out.startswith("kill switch released (it was engaged by person: lunch)")
    assert not (tmp_path / "STOP").exists()


@requirement("S-CLI-46")
def test_every_option_named_in_the_issue_has_help_and_sim_names_itself(capsys: pytest.CaptureFixture[str]) -> None:
    """S-CLI-46: `sim --help` names `winmcp-gateway sim`; --event-log, --control, kill --reason explain themselves."""
    sim = _help(capsys, "sim")
    assert sim.startswith("usage: winmcp-gateway sim ") and "python -m gateway.sim" not in sim
    assert "--event-log FILE      append every side effect" in sim
    assert "--control FILE        a JSONL file read before every call" in sim
    kill = _help(capsys, "kill")
    assert "--reason REASON       why (engage)" in kill and "--json" in kill and "engage: stop" in kill
    unexplained = [
        f"{name} {action.option_strings or action.dest}"
        for name, sub in _subcommands().items()
        if name in OWN_COMMANDS
        for action in sub._actions  # type: ignore[attr-defined]
        if not action.help and action.dest != "help"
    ]
    assert unexplained == [], "every option and argument of these subcommands has help text"


def _subcommands() -> dict[str, object]:
    parser = completion_parser(build_parser)
    out: dict[str, object] = {}
    for action in parser._actions:
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            out.update(action.choices)
    return out


@pytest.mark.parametrize(
    "argv",
    [
        ["approve", "not-an-id", "--yes"],
        ["audit-report", "--file", "missing.jsonl"],
        ["sim", "--scenario", "no-such-scenario"],
        ["doctor", "--upstream", "sim", "--timeout", "0"],
        ["serve", "--upstream", "sim", "--config", "missing.toml"],
    ],
)
@requirement("S-CLI-48")
def test_every_error_the_cli_prints_has_one_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """S-CLI-48: approve, audit-report, sim, doctor and serve errors all start `winmcp-gateway: error: `; exit 2."""
    monkeypatch.chdir(tmp_path)
    tail = [] if argv[0] in ("audit-report", "sim") else ["--state-dir", str(tmp_path / "state")]
    assert main([*argv, *tail]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert errors and all(line.startswith("winmcp-gateway: error: ") for line in errors), errors
