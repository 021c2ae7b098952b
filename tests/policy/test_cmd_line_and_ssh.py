"""cmd gets the line PowerShell builds (S-RULE-81); ssh runs commands on this machine too (S-RULE-82).

Found by an attacker pass: `cmd /c forfiles /p C:\\Users /c "cmd /c rd /s /q @path"` and
`ssh localhost "rd /s /q C:\\Users"` were forwarded unjudged.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from policy.rules.shell.argv import powershell_native_line
from policy.rules.shell.ops import EffectKind
from policy.rules.shell.ssh import destination_host, is_this_machine, read_ssh
from tests._requirements import requirement
from tests.policy.verdicts import RULES, ps


def targets(command: str) -> list[tuple[EffectKind, str | None]]:
    return [(e.kind, e.target) for e in judge_call("PowerShell", {"command": command}).effects]


@requirement("S-RULE-81")
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["/c", "del", "C:\\Program Files\\x"], '/c del "C:\\Program Files\\x"'),
        (["/c", "rd /s /q C:\\x"], '/c "rd /s /q C:\\x"'),
        (["/c", "echo", "a\tb"], '/c echo "a\tb"'),
        # A blank inside the argument's own quotes needs no more: PowerShell leaves it as written.
        (["/c", 'dir "C:\\Program Files"'], '/c "dir "C:\\Program Files""'),
        (['"C:\\Program Files\\x.exe"'], '"C:\\Program Files\\x.exe"'),
        (["/c", "echo", "C:\\x\\"], "/c echo C:\\x\\"),
    ],
    ids=["path", "one-arg", "tab", "quoted-part", "already-quoted", "trailing-backslash"],
)
def test_powershell_quotes_an_argument_with_a_blank_for_cmd(args: list[str], line: str) -> None:
    """S-RULE-81: PowerShell's legacy native quoting, which cmd.exe gets in 5.1 and 7.3+ alike."""
    assert powershell_native_line(args) == line


@requirement("S-RULE-81")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('cmd /c del "C:\\Program Files\\x"', [(EffectKind.DELETE, "C:\\Program Files\\x")]),
        ('cmd /c rd /s /q "C:\\temp\\my build"', [(EffectKind.DELETE_RECURSIVE, "C:\\temp\\my build")]),
        ('cmd /c del "C:\\Users\\me\\My Notes\\a.txt"', [(EffectKind.DELETE, "C:\\Users\\me\\My Notes\\a.txt")]),
    ],
    ids=["program-files", "blank-in-folder", "blank-in-file"],
)
def test_a_quoted_path_reaches_cmd_as_one_path(command: str, expected: list[tuple[EffectKind, str]]) -> None:
    """S-RULE-81: `cmd /c del "C:\\Program Files\\x"` deletes that one path, not `C:\\Program` and `Files\\x`."""
    assert targets(command) == expected


@requirement("S-RULE-81")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('cmd /c forfiles /p C:\\Users /c "cmd /c rd /s /q @path"', ("protected-place-delete", "deny")),
        ('cmd /c rd /s /q "C:\\Program Files"', ("protected-place-delete", "deny")),
        ('cmd /c del "C:\\Program Files\\x"', ("protected-place-delete", "deny")),
        ('cmd /c del "C:\\Users\\me\\My Notes\\a.txt"', None),
        ('cmd /c echo "hello world"', None),
    ],
    ids=["forfiles-in-cmd", "rd-program-files", "del-in-program-files", "del-own-file", "echo"],
)
def test_commands_cmd_gets_from_powershell_are_judged_as_cmd_reads_them(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-81: the verdict follows the line cmd reads, both ways."""
    assert ps(command) == expected


@requirement("S-RULE-82")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('ssh localhost "rd /s /q C:\\Users"', ("protected-place-delete", "deny")),
        ('ssh me@127.0.0.1 -p 22 "rd /s /q C:\\Users"', ("protected-place-delete", "deny")),
        ("ssh -p 2222 me@localhost Remove-Item C:\\Users -Recurse -Force", ("protected-place-delete", "deny")),
        ('ssh ssh://me@[::1]:22 "shutdown /r /t 0"', ("shutdown-restart", "deny")),
        ('ssh -J jump me@127.0.0.2 "net user x /add"', ("account-change", "deny")),
        ("$h='localhost'; ssh $h \"rd /s /q C:\\Users\"", ("protected-place-delete", "deny")),
        ('ssh -o ProxyCommand="cmd /c rd /s /q C:\\Users" buildbox', ("protected-place-delete", "deny")),
        ('ssh -oLocalCommand="net user x /add" -o PermitLocalCommand=yes buildbox', ("account-change", "deny")),
        ('ssh -o "ProxyCommand powershell -c Stop-Computer" buildbox', ("shutdown-restart", "deny")),
    ],
    ids=[
        "localhost",
        "options-after-host",
        "powershell-shell",
        "ipv6-url",
        "jump",
        "variable-host",
        "proxy",
        "local",
        "spaced-o",
    ],
)
def test_commands_ssh_runs_on_this_machine_are_judged(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-82: a command sent to this machine, or run here by ssh itself, is judged as cmd and PowerShell read it."""
    assert ps(command) == expected


@requirement("S-RULE-82")
@pytest.mark.parametrize(
    "command",
    [
        'ssh buildbox "rd /s /q C:\\Users"',  # another machine's business
        "ssh buildbox uptime",
        "ssh localhost whoami",
        'ssh localhost "dir C:\\Users"',
        'ssh -i C:\\Users\\me\\.ssh\\deploy me@buildbox "git pull"',
        "ssh -tt localhost",
        'ssh $env:BUILD_HOST "ls -la"',
        "ssh -o ProxyCommand=none buildbox",
    ],
)
def test_ordinary_ssh_passes(command: str) -> None:
    """S-RULE-82: logins, harmless commands and commands for other hosts pass."""
    assert ps(command) is None


@requirement("S-RULE-82")
@pytest.mark.parametrize(
    ("argv", "host", "remote", "local"),
    [
        (["-p", "22", "me@host", "ls", "-la"], "host", "ls -la", ()),
        (["-p22", "-tt", "host"], "host", None, ()),
        (["host", "-l", "me", "-v", "cmd", "-x"], "host", "cmd -x", ()),
        # OpenSSH reads options again after the destination (even after a `--` before it) until a
        # word or a `--` of their own.
        (["--", "host", "-p", "1"], "host", None, ()),
        (["host", "--", "-p", "1"], "host", "-p 1", ()),
        (["-o", "ProxyCommand=nc %h %p", "host"], "host", None, ("nc %h %p",)),
        (["-vo", "KnownHostsCommand x", "host"], "host", None, ("x",)),
        (["-o", "User=me", "host"], "host", None, ()),
        (["-i"], None, None, ()),
    ],
    ids=[
        "plain",
        "glued",
        "options-after",
        "dashes-first",
        "end-of-options",
        "proxy",
        "grouped",
        "other-setting",
        "no-host",
    ],
)
def test_ssh_argv_is_read_as_openssh_reads_it(
    argv: list[str], host: str | None, remote: str | None, local: tuple[str, ...]
) -> None:
    """S-RULE-82: grouped flags, glued values, options after the destination, `--`."""
    call = read_ssh(argv)
    assert (call.host, call.remote_command, call.local_commands, call.not_constant) == (host, remote, local, False)


@requirement("S-RULE-82")
def test_a_command_word_not_constant_is_dynamic() -> None:
    """S-RULE-82: `ssh localhost $c` asks: what this machine runs is not known."""
    call = read_ssh(["localhost", None])
    assert call.not_constant and call.remote_command is None
    hit = RULES.match("PowerShell", {"command": "ssh localhost $c"})
    assert hit is not None and hit.action == "ask"


@requirement("S-RULE-82")
@pytest.mark.parametrize(
    ("destination", "host", "local"),
    [
        ("localhost", "localhost", True),
        ("me@LOCALHOST.", "localhost.", True),
        ("ssh://me@127.0.0.1:2222", "127.0.0.1", True),
        ("me@[::1]", "::1", True),
        ("127.1.2.3", "127.1.2.3", True),
        ("0.0.0.0", "0.0.0.0", True),  # noqa: S104 - a destination as written, not a bind
        ("app.localhost", "app.localhost", True),
        ("buildbox", "buildbox", False),
        ("10.0.0.5", "10.0.0.5", False),
        ("localhost.example.com", "localhost.example.com", False),
    ],
)
def test_this_machine_is_known_by_its_loopback_names(destination: str, host: str, local: bool) -> None:
    """S-RULE-82: loopback names and addresses are this machine; other names are not."""
    assert destination_host(destination) == host
    assert is_this_machine(host) is local
