"""The upstream command on Windows: Windows command-line rules, the `--` form, the same quoting shown back.

Every test here runs on Linux too: the platform is passed (`platform="win32"`), never taken
from the machine, and paths are judged with `ntpath` (S-UPS-20 … S-UPS-22).
"""

from __future__ import annotations

import ntpath
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.cli import main
from gateway.cli.commands import split_upstream_argv
from gateway.upstream.command_line import join_command, split_command
from gateway.upstream.supervisor import UpstreamSpec
from tests._requirements import requirement

WIN = "win32"

# (command line as typed, argv Windows programs receive) — the C runtime's documented rules.
WINDOWS_LINES = [
    (r"C:\tools\uvx.exe windows-mcp", [r"C:\tools\uvx.exe", "windows-mcp"]),
    (r'"C:\Program Files\uv\uvx.exe" windows-mcp', [r"C:\Program Files\uv\uvx.exe", "windows-mcp"]),
    # Unquoted, a path with a space is two words: the reason the quotes (or `--`) matter.
    (r"C:\Program Files\uv\uvx.exe windows-mcp", [r"C:\Program", r"Files\uv\uvx.exe", "windows-mcp"]),
    # A backslash before the closing quote escapes it: the argument runs on (the classic trap) …
    (r'uvx.exe --dir "C:\My Dir\" next', ["uvx.exe", "--dir", 'C:\\My Dir" next']),
    # … and doubled it is one backslash and the quote closes.
    (r'uvx.exe --dir "C:\My Dir\\" next', ["uvx.exe", "--dir", "C:\\My Dir\\", "next"]),
    (
        r"\\server\share\tools\uvx.exe windows-mcp --root \\server\share\data",
        [r"\\server\share\tools\uvx.exe", "windows-mcp", "--root", r"\\server\share\data"],
    ),
    (r'"\\server\share\my tools\uvx.exe" windows-mcp', [r"\\server\share\my tools\uvx.exe", "windows-mcp"]),
    (r'python.exe -c "print(""hi"")"', ["python.exe", "-c", 'print("hi")']),
    (r'a.exe "say \"hi\""', ["a.exe", 'say "hi"']),
    (r"a.exe C:\a\\b\\\c", ["a.exe", r"C:\a\\b\\\c"]),
    ('a.exe\t"" b', ["a.exe", "", "b"]),
]


@requirement("S-UPS-20")
@pytest.mark.parametrize(("line", "argv"), WINDOWS_LINES)
def test_windows_rules_split_an_upstream_command_as_windows_programs_do(line: str, argv: list[str]) -> None:
    """S-UPS-20: on Windows `--upstream-cmd` is split by the C runtime's rules (backslashes literal)."""
    spec = UpstreamSpec.command(line, platform=WIN)
    assert list(spec.argv) == argv
    assert split_command(line, platform=WIN) == argv


@requirement("S-UPS-20")
def test_a_windows_path_stays_a_path_and_posix_rules_apply_elsewhere() -> None:
    """S-UPS-20: `C:\\tools\\uvx.exe` reaches Windows whole; POSIX rules (Linux, macOS) eat its backslashes."""
    program = UpstreamSpec.command(r"C:\tools\uvx.exe windows-mcp", platform=WIN).argv[0]
    assert ntpath.isabs(program) and ntpath.basename(program) == "uvx.exe" and ntpath.dirname(program) == r"C:\tools"
    assert UpstreamSpec.command(r"C:\tools\uvx.exe windows-mcp", platform="linux").argv[0] == "C:toolsuvx.exe"
    assert UpstreamSpec.command('uvx "windows mcp" --flag', platform="darwin").argv == ("uvx", "windows mcp", "--flag")
    with pytest.raises(ValueError, match="empty"):
        UpstreamSpec.command("  \t ", platform=WIN)
    with pytest.raises(ValueError):
        UpstreamSpec.command('uvx "open', platform="linux")


@requirement("S-UPS-22")
@pytest.mark.parametrize(
    ("argv", "platform", "shown"),
    [
        ((r"C:\Program Files\uv\uvx.exe", "windows-mcp"), WIN, r'"C:\Program Files\uv\uvx.exe" windows-mcp'),
        ((r"C:\tools\uvx.exe", "--dir", "C:\\My Dir\\"), WIN, r'C:\tools\uvx.exe --dir "C:\My Dir\\"'),
        ((r"\\server\share\uvx.exe", 'say "hi"', ""), WIN, r'\\server\share\uvx.exe "say \"hi\"" ""'),
        (("uvx", "windows mcp", "--flag"), "linux", "uvx 'windows mcp' --flag"),
    ],
)
def test_the_command_is_shown_in_the_quoting_that_split_it(argv: tuple[str, ...], platform: str, shown: str) -> None:
    """S-UPS-22: `describe` quotes as the platform reads it back (list2cmdline on Windows, shlex elsewhere)."""
    spec = UpstreamSpec(argv=argv, platform=platform)
    assert spec.describe() == shown
    assert UpstreamSpec.command(shown, platform=platform).argv == argv


# Windows arguments: blanks, quotes and backslashes are the characters the rules are about.
_ARG = st.text(alphabet=st.sampled_from(list('ab \t"\\:.-_é')), max_size=12)
# A program path holds no quote (Windows forbids it in names) and does not end in a backslash.
_PROGRAM = st.text(alphabet=st.sampled_from(list("ab \\:.-_é")), min_size=1, max_size=12).filter(
    lambda s: not s.endswith("\\")
)


@pytest.mark.e2e  # the slow tier: a thousand examples take seconds
@requirement("S-UPS-22")
@settings(max_examples=1000, deadline=None, database=None)
@given(program=_PROGRAM, args=st.lists(_ARG, max_size=5))
def test_windows_split_reads_back_what_list2cmdline_wrote(program: str, args: list[str]) -> None:
    """S-UPS-22: split(list2cmdline(argv)) == argv — the line Python hands CreateProcess is read back whole."""
    argv = [program, *args]
    line = subprocess.list2cmdline(argv)
    assert split_command(line, platform=WIN) == argv
    assert join_command(argv, platform=WIN) == line


@pytest.mark.e2e
@requirement("S-UPS-22")
@settings(max_examples=1000, deadline=None, database=None)
@given(args=st.lists(_ARG, min_size=1, max_size=5))
def test_posix_split_reads_back_what_shlex_joined(args: list[str]) -> None:
    """S-UPS-22: POSIX rules round-trip too, so one `describe` can be pasted back on its own platform."""
    assert split_command(join_command(args, platform="linux"), platform="linux") == args


@pytest.fixture
def doctor_spec(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Run `main` up to the doctor, and keep the upstream it would check (no process starts)."""
    seen: dict[str, Any] = {}

    def fake(config: Any, spec: UpstreamSpec, **_: Any) -> int:
        seen["spec"] = spec
        return 0

    monkeypatch.setattr("gateway.doctor.run.run_doctor_cli", fake)
    return seen


@requirement("S-UPS-21")
@pytest.mark.parametrize(
    "upstream",
    [
        [r"C:\tools\uvx.exe", "windows-mcp"],
        [r"C:\Program Files\uv\uvx.exe", "windows-mcp", "--dir", "C:\\My Dir\\"],
        [r"\\server\share\uvx.exe", "windows-mcp", "-v", "--", "--upstream-cmd"],
    ],
)
def test_the_upstream_after_a_double_dash_is_taken_as_separate_arguments(
    tmp_path: Path, doctor_spec: dict[str, Any], upstream: list[str]
) -> None:
    """S-UPS-21: `doctor -- CMD ARG…` uses the words as they are: no splitting, later `--` and flags included."""
    assert main(["doctor", "--state-dir", str(tmp_path), "--", *upstream]) == 0
    assert list(doctor_spec["spec"].argv) == upstream
    assert ntpath.isabs(doctor_spec["spec"].argv[0])


@requirement("S-UPS-21")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--upstream-cmd", "uvx windows-mcp", "--", "uvx", "windows-mcp"], "named twice: --upstream-cmd"),
        (["--upstream-url", "http://127.0.0.1:1/mcp", "--", "uvx"], "named twice: --upstream-url"),
        (["--upstream", "sim", "--", "uvx"], "named twice: --upstream"),
        (["--"], "nothing after `--`"),
        (["--scenario", "default", "--", "uvx"], "--scenario only applies"),
        (["--upstream-cmd", 'uvx "open'], "--upstream-cmd"),
        (["--upstream-cmd", ""], "empty"),
    ],
)
def test_an_upstream_named_twice_or_not_at_all_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], doctor_spec: dict[str, Any], argv: list[str], message: str
) -> None:
    """S-UPS-21: both forms at once, or `--` with nothing after it, stop with exit 2 before anything starts."""
    for command in ("serve", "doctor"):
        assert main([command, "--state-dir", str(tmp_path), *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    assert "spec" not in doctor_spec


@requirement("S-UPS-21")
def test_a_double_dash_elsewhere_is_refused_and_the_passthroughs_keep_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """S-UPS-21: `--` goes with serve, doctor and install only; `sim` and `audit-report` still get every word."""
    with pytest.raises(SystemExit) as stop:
        main(["kill", "status", "--state-dir", str(tmp_path), "--", "uvx"])
    assert stop.value.code == 2 and "go with serve, doctor or install" in capsys.readouterr().err
    got: dict[str, list[str]] = {}
    monkeypatch.setattr("gateway.sim.main", lambda rest, **_: got.setdefault("sim", list(rest)) and 0)
    monkeypatch.setattr("gateway.audit.report.main", lambda rest, **_: got.setdefault("report", list(rest)) and 0)
    main(["sim", "--scenario", "default", "--", "x"])
    main(["audit-report", "--verify", "--", "y"])
    assert got == {"sim": ["--scenario", "default", "--", "x"], "report": ["--verify", "--", "y"]}


@requirement("S-UPS-21")
def test_only_the_first_double_dash_cuts() -> None:
    """S-UPS-21: what follows the first `--` is the upstream's, a second `--` included."""
    assert split_upstream_argv(["serve", "-v", "--", "a", "--", "b"]) == (["serve", "-v"], ["a", "--", "b"])
    assert split_upstream_argv(["serve", "--upstream-cmd", "a b"]) == (["serve", "--upstream-cmd", "a b"], None)
    assert split_upstream_argv(["serve", "--"]) == (["serve"], [])


@requirement("S-UPS-20")
def test_this_machine_decides_when_no_platform_is_given() -> None:
    """S-UPS-20: without `platform`, `sys.platform` chooses the rules (one switch)."""
    expected = [r"C:\x\y.exe", "z"] if sys.platform == WIN else ["C:xy.exe", "z"]
    assert split_command(r"C:\x\y.exe z") == expected
    assert UpstreamSpec.command("a b").platform == sys.platform
