"""Step definitions binding features/windows.feature (S-UPS-20 … S-UPS-22, S-WIN-02 … S-WIN-13).

In process, no child processes: Windows is a fake command runner (whoami, icacls) and a reader
holding STOP open is a patched `Path.read_text`; the same public functions the gateway calls.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from gateway.audit.rotation import rotate
from gateway.cli import main, ownership
from gateway.doctor.checks_files import check_files
from gateway.doctor.model import Verdict
from gateway.files.owner_only import FileGuard
from gateway.files.retry import SharingRetry
from gateway.state.store import STOP_FILE, KillSwitch
from gateway.transport.http_guard import TOKEN_FILE, load_or_create_token
from gateway.upstream.command_line import split_command
from gateway.upstream.supervisor import UpstreamSpec
from tests.gateway.test_windows_kill_retry import ALWAYS, Held
from tests.gateway.test_windows_owner_only import ICACLS, FakeWindows, guard

scenarios("windows.feature")


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Any]:
    return {"tmp": tmp_path}


# -- splitting and showing ---------------------------------------------------------------------


@when(parsers.parse("the upstream command line {line} is split with Windows rules"))
def _split(world: dict[str, Any], line: str) -> None:
    world["argv"] = list(UpstreamSpec.command(line, platform="win32").argv)


@then(parsers.parse("there are {count:d} words, the program is {program} and the last word is {last}"))
def _words(world: dict[str, Any], count: int, program: str, last: str) -> None:
    assert len(world["argv"]) == count and world["argv"][0] == program and world["argv"][-1] == last
    if program.startswith("\\"):
        assert program.startswith("\\\\"), "a UNC path keeps both leading backslashes"


@given(parsers.parse('the upstream words "{words}"'))
def _given_words(world: dict[str, Any], words: str) -> None:
    world["argv"] = words.split("|")


@then(parsers.parse("on Windows it is shown as {shown}"))
def _shown(world: dict[str, Any], shown: str) -> None:
    world["shown"] = UpstreamSpec(argv=tuple(world["argv"]), platform="win32").describe()
    assert world["shown"] == shown


@then("splitting that line with Windows rules gives the same words")
def _round_trip(world: dict[str, Any]) -> None:
    assert split_command(world["shown"], platform="win32") == world["argv"]


# -- the `--` form ---------------------------------------------------------------------------------


@when(parsers.parse('the doctor is started with the upstream after -- as "{words}"'))
def _doctor_after(world: dict[str, Any], words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    world["argv"] = words.split("|")
    monkeypatch.setattr(
        "gateway.doctor.run.run_doctor_cli", lambda config, spec, **_: world.setdefault("spec", spec) and 0
    )
    world["code"] = main(["doctor", "--state-dir", str(world["tmp"]), "--", *world["argv"]])


@then("the doctor checks exactly those words")
def _doctor_words(world: dict[str, Any]) -> None:
    assert world["code"] == 0 and list(world["spec"].argv) == world["argv"]


@when(parsers.parse('serve is started with --upstream-cmd "{cmd}" and the upstream after -- as "{words}"'))
def _serve_twice(world: dict[str, Any], cmd: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    world["code"] = main(["serve", "--state-dir", str(world["tmp"]), "--upstream-cmd", cmd, "--", *words.split("|")])
    world["err"] = capsys.readouterr().err


@then(parsers.parse('it exits {code:d} saying "{text}"'))
def _exits(world: dict[str, Any], code: int, text: str) -> None:
    assert world["code"] == code and text in world["err"]


# -- owner-only files ------------------------------------------------------------------------------


@given(parsers.parse('a Windows machine whose user is "{user}"'))
def _windows(world: dict[str, Any], user: str) -> None:
    world["fake"] = FakeWindows()
    assert user.lower() in world["fake"].whoami[1]


@given(parsers.parse('a Windows machine whose ACLs also list "{who}"'))
def _windows_open(world: dict[str, Any], who: str) -> None:
    world["fake"] = FakeWindows(listing=f"{who}:(I)(RX)\n    DESKTOP-X\\alice:(I)(F)")


@when(parsers.parse('the gateway makes "{path}" owner-only'))
def _protect(world: dict[str, Any], path: str) -> None:
    world["protection"] = guard(world["fake"]).protect_file(path)


@then(parsers.parse("icacls ran as {line}"))
def _icacls_ran(world: dict[str, Any], line: str) -> None:
    sets = [c for c in world["fake"].calls if c[0] == ICACLS and len(c) > 2]
    assert [subprocess.list2cmdline(c) for c in sets] == [line]


@then(parsers.parse('the file\'s protection reads "{text}"'))
def _reads(world: dict[str, Any], text: str) -> None:
    assert str(world["protection"]) == text


@when("a new HTTP token is generated")
def _token(world: dict[str, Any]) -> None:
    err = io.StringIO()
    load_or_create_token(world["tmp"] / TOKEN_FILE, err, guard=guard(world["fake"]))
    world["err"] = err.getvalue()


@then(parsers.parse('the message says "{said}" and never "{never}"'))
def _message(world: dict[str, Any], said: str, never: str) -> None:
    assert said in world["err"] and never not in world["err"]


@given("the state dir holds an HTTP token")
def _has_token(world: dict[str, Any]) -> None:
    (world["tmp"] / TOKEN_FILE).write_text("t" * 40)


@when("the doctor's files check runs")
def _files_check(world: dict[str, Any]) -> None:
    world["check"] = check_files(world["tmp"], guard=guard(world["fake"]))


@then(parsers.parse('the check is SEVERE naming "{label}" and "{tool}"'))
def _severe(world: dict[str, Any], label: str, tool: str) -> None:
    check = world["check"]
    severe = [f for f in check.findings if f.verdict is Verdict.SEVERE]
    assert check.verdict is Verdict.SEVERE and len(severe) == 1
    assert severe[0].message.startswith(label) and tool in severe[0].message


# -- the kill switch past a sharing lock ------------------------------------------------------------


def _switch(world: dict[str, Any]) -> KillSwitch:
    return KillSwitch(world["tmp"], retry=SharingRetry(sleep=lambda s: None))


@given(parsers.parse('a person engaged the kill switch because "{reason}"'))
def _person(world: dict[str, Any], reason: str) -> None:
    _switch(world).engage(by="person", reason=reason)


@given(parsers.parse('the model engaged the kill switch because "{reason}"'))
def _model(world: dict[str, Any], reason: str) -> None:
    _switch(world).engage(by="model", reason=reason)


@when(parsers.re(r"another process holds STOP open (for (?P<times>\d+) tries|for good)"))
def _held(world: dict[str, Any], monkeypatch: pytest.MonkeyPatch, times: str | None) -> None:
    held = Held(world["tmp"] / STOP_FILE, int(times) if times else ALWAYS)
    monkeypatch.setattr(Path, "read_text", held.wrap(Path.read_text, lambda self, *a: self))


@then(parsers.parse('the kill switch reads engaged by {by} because "{reason}"'))
def _reads_engaged(world: dict[str, Any], by: str, reason: str) -> None:
    status = _switch(world).status()
    assert status.engaged and status.by == by and status.reason is not None and status.reason.startswith(reason)


@then("the model cannot release it")
def _no_release(world: dict[str, Any]) -> None:
    released, status = _switch(world).release(by="model")
    assert not released and status.engaged and (world["tmp"] / STOP_FILE).exists()


# -- this product's own packages --------------------------------------------------------------------


@given(parsers.parse('a "policy" package without the marker is what Python finds'))
def _foreign(world: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    init = world["tmp"] / "site" / "policy" / "__init__.py"
    init.parent.mkdir(parents=True)
    init.write_text("HELPERS = True\n")
    import importlib.util
    import sys

    finder = lambda name: importlib.util.spec_from_file_location(name, init)  # noqa: E731
    monkeypatch.delitem(sys.modules, "policy")
    monkeypatch.setattr(ownership, "owners_of", lambda path, dists=None: [])
    real = ownership.ownership_problem
    monkeypatch.setattr(ownership, "ownership_problem", lambda: real(find_spec=finder))
    world["init"] = init


@when("winmcp-gateway --version runs")
def _version(world: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    world["code"] = main(["--version"])
    captured = capsys.readouterr()
    world["err"], world["out"] = captured.err, captured.out


@then(parsers.parse('it stops with exit 2 saying "{first}" and "{second}"'))
def _stopped(world: dict[str, Any], first: str, second: str) -> None:
    assert world["code"] == 2 and world["out"] == ""
    assert first in world["err"] and second in world["err"] and str(world["init"]) in world["err"]
    assert os.fspath(world["init"]).endswith("__init__.py")


# -- POSIX modes, STOP's ACL, the rotation's retry ----------------------------------------------------


@given("a state file of mode 0644")
def _file_0644(world: dict[str, Any]) -> None:
    world["file"] = world["tmp"] / "audit.jsonl"
    world["file"].write_text("x")
    world["file"].chmod(0o644)


@when("the gateway makes it owner-only on Linux")
def _protect_linux(world: dict[str, Any]) -> None:
    world["protection"] = FileGuard(platform="linux").protect_file(world["file"])


@then(parsers.parse('its mode is 0600 and its protection reads "{text}"'))
def _mode_600(world: dict[str, Any], text: str) -> None:
    assert stat.S_IMODE(world["file"].stat().st_mode) == 0o600 and str(world["protection"]) == text


@when("a person engages the kill switch on that machine")
def _engage_windows(world: dict[str, Any]) -> None:
    KillSwitch(world["tmp"], guard=guard(world["fake"])).engage(by="person", reason="stop now")


@then("icacls set STOP's temporary file, which already held the stop, and STOP is there")
def _stop_acl(world: dict[str, Any]) -> None:
    sets = [c for c in world["fake"].calls if c[0] == ICACLS and len(c) > 2]
    assert len(sets) == 1 and Path(sets[0][1]).name.startswith(f".{STOP_FILE}.")
    assert b"stop now" in world["fake"].seen_content[sets[0][1]]
    assert KillSwitch(world["tmp"]).status().reason == "stop now"


@given("an audit file due for rotation")
def _audit_file(world: dict[str, Any]) -> None:
    world["log"] = world["tmp"] / "audit.jsonl"
    world["log"].write_text("line\n")


@when(parsers.parse("a reader holds the rotated name for {times:d} tries"))
def _hold_rotated(world: dict[str, Any], times: int, monkeypatch: pytest.MonkeyPatch) -> None:
    held = Held(world["tmp"] / "audit.jsonl.1", times)
    monkeypatch.setattr(os, "replace", held.wrap(os.replace, lambda src, dst, *a: dst))
    world["waits"] = []
    rotate(world["log"], 2, retry=SharingRetry(sleep=world["waits"].append))


@then(parsers.parse("the rotation still moves the file after {times:d} waits"))
def _rotated(world: dict[str, Any], times: int) -> None:
    assert len(world["waits"]) == times and (world["tmp"] / "audit.jsonl.1").read_text() == "line\n"
    assert not world["log"].exists()
