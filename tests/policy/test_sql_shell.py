"""A SQL Server query's `xp_cmdshell` runs a command line on this machine (S-RULE-75).

Found by an attacker pass: `sqlcmd -Q "EXEC xp_cmdshell 'rd /s /q C:\\Users'"` was forwarded unjudged.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.sql import is_local_server, query_commands, read_sqlcmd
from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-75")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("sqlcmd -Q \"EXEC xp_cmdshell 'rd /s /q C:\\Users'\"", ("protected-place-delete", "deny")),
        ("sqlcmd -S . -E -Q \"EXEC master..xp_cmdshell N'net user eve P@ss1 /add'\"", ("account-change", "deny")),
        (
            "sqlcmd -S localhost\\SQLEXPRESS -Q \"EXEC xp_cmdshell @command_string = 'shutdown /r /t 0'\"",
            ("shutdown-restart", "deny"),
        ),
        ("sqlcmd -S tcp:127.0.0.1,1433 -Q \"xp_cmdshell 'rd /s /q C:\\Users'\"", ("protected-place-delete", "deny")),
        ("osql -E -Q \"EXEC xp_cmdshell 'rd /s /q C:\\Users'\"", ("protected-place-delete", "deny")),
        ("Invoke-Sqlcmd -Query \"EXEC xp_cmdshell 'rd /s /q C:\\Users'\"", ("protected-place-delete", "deny")),
        (
            "Invoke-Sqlcmd -ServerInstance '(localdb)\\MSSQLLocalDB' -Query"
            " \"EXEC xp_cmdshell 'del /q C:\\Windows\\System32\\drivers\\etc\\hosts'\"",
            ("protected-place-delete", "deny"),
        ),
        ("sqlcmd -Q \"EXEC sp_configure 'xp_cmdshell', 1; RECONFIGURE\"", ("dynamic-command", "ask")),
        (
            "sqlcmd -Q \"DECLARE @c varchar(99) = 'rd /s /q C:\\Users'; EXEC xp_cmdshell @c\"",
            ("dynamic-command", "ask"),
        ),
    ],
    ids=[
        "plain",
        "unicode-literal",
        "named-argument",
        "tcp-loopback",
        "osql",
        "invoke-sqlcmd",
        "localdb",
        "enable",
        "variable",
    ],
)
def test_xp_cmdshell_on_this_machine_is_judged_as_cmd(command: str, expected: tuple[str, str]) -> None:
    """S-RULE-75: the command line is cmd's; turning xp_cmdshell on, or a command not literal, asks."""
    assert ps(command) == expected


@requirement("S-RULE-75")
@pytest.mark.parametrize(
    "command",
    [
        "sqlcmd -S dbserver01 -Q \"EXEC xp_cmdshell 'rd /s /q C:\\Users'\"",  # another server's business
        "Invoke-Sqlcmd -ServerInstance dbserver01 -Query \"EXEC xp_cmdshell 'dir'\"",
        'sqlcmd -Q "SELECT name FROM sys.databases"',
        "sqlcmd -S . -Q \"EXEC xp_cmdshell 'dir C:\\temp'\"",
        'sqlcmd -s , -Q "SELECT 1"',  # `-s` is the column separator, not the server
        'Invoke-Sqlcmd -Query "SELECT @@VERSION"',
        "Invoke-Sqlcmd -InputFile C:\\sql\\migrate.sql",
    ],
)
def test_ordinary_queries_and_other_servers_pass(command: str) -> None:
    """S-RULE-75: ordinary queries, a harmless xp_cmdshell and other servers pass."""
    assert ps(command) is None


@requirement("S-RULE-75")
@pytest.mark.parametrize(
    ("server", "local"),
    [
        (None, True),
        (".", True),
        ("(local)", True),
        (".\\SQLEXPRESS", True),
        ("localhost,1433", True),
        ("tcp:127.0.0.1,1433", True),
        ("np:\\\\.\\pipe\\sql\\query", True),  # `\\.\pipe\…` is this machine's pipe
        ("np:\\\\dbserver01\\pipe\\sql\\query", False),
        ("(localdb)\\MSSQLLocalDB", True),
        ("'(LOCAL)'", True),
        ("dbserver01", False),
        ("dbserver01\\PROD", False),
        ("10.0.0.5,1433", False),
    ],
)
def test_a_server_on_this_machine_is_known_by_its_names(server: str | None, local: bool) -> None:
    """S-RULE-75: no name, `.`, `(local)`, loopback names and LocalDB are this machine."""
    assert is_local_server(server) is local


@requirement("S-RULE-75")
@pytest.mark.parametrize(
    ("argv", "query", "server"),
    [
        (["-S", "x", "-Q", "SELECT 1"], "SELECT 1", "x"),
        (["-Sx", "-QSELECT 1"], "SELECT 1", "x"),
        (["-q", "SELECT 1", "-s", ","], "SELECT 1", None),
        (["/S", "x", "/Q", "q"], "q", "x"),
    ],
    ids=["spaced", "glued", "lower-case-q-and-separator", "slashes"],
)
def test_sqlcmd_options_are_read_case_sensitively(argv: list[str], query: str, server: str | None) -> None:
    """S-RULE-75: `-Q`/`-q` query, `-S` server; `-s` is a separator."""
    assert read_sqlcmd(argv) == (query, server, True)


@requirement("S-RULE-75")
def test_quotes_in_a_literal_are_unescaped() -> None:
    """S-RULE-75: `''` inside a literal is one quote of the command line."""
    found = query_commands("EXEC xp_cmdshell 'echo ''a'' > C:\\x.txt'; EXEC xp_cmdshell N'dir'")
    assert found.commands == ("echo 'a' > C:\\x.txt", "dir")
    assert found.unknown == ()
