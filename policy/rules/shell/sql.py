"""What a SQL Server query runs on this machine: `xp_cmdshell`'s command lines (S-RULE-75).

`sqlcmd -Q "EXEC xp_cmdshell 'rd /s /q C:\\Users'"` (and `osql`, `isql`, PowerShell's `Invoke-Sqlcmd
-Query`) hands the SQL Server a command line that it runs through `cmd.exe /c` with the server's
service account. For a server on this machine (no `-S`, `.`, `(local)`, `localhost`, a loopback
address, LocalDB, with or without an instance name and a `tcp:`/`np:`/`lpc:` prefix) those command
lines are judged as cmd lines; turning `xp_cmdshell` on (`sp_configure 'xp_cmdshell', 1`) or calling it
with a command that is not a literal asks. A query for another server is that server's business.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from policy.rules.paths import is_loopback_name
from policy.rules.shell.ops import Value

# `xp_cmdshell 'cmd'`, `xp_cmdshell N'cmd'`, `xp_cmdshell @command_string = 'cmd'`, with `''` for a quote.
_XP_CMDSHELL = re.compile(r"\bxp_cmdshell\b\s*(?:@command_string\s*=\s*)?(N?'(?:[^']|'')*')?", re.IGNORECASE)
_ENABLE_XP_CMDSHELL = re.compile(r"\bsp_configure\b\s*N?'xp_cmdshell'\s*,\s*1\b", re.IGNORECASE)
# The query options of sqlcmd, osql and isql (`-Q` runs and exits, `-q` runs and stays) and the server's;
# their options are case-sensitive (`-s` is sqlcmd's column separator).
_QUERY_OPTIONS = ("-Q", "-q", "/Q", "/q")
_SERVER_OPTIONS = ("-S", "/S")
_PROTOCOL = re.compile(r"^(?:tcp|np|lpc|admin):", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SqlCommands:
    """The command lines one query runs through `xp_cmdshell` on this machine.

    Attributes:
        commands: each constant command line, in order.
        unknown: why some of what runs is not known (a query or command that is not constant,
            xp_cmdshell turned on); empty when everything is known.
    """

    commands: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


def is_local_server(server: str | None) -> bool:
    """Whether a SQL Server name (`-S`, `-ServerInstance`) is on this machine; None (no name) is."""
    if server is None:
        return True
    name = _PROTOCOL.sub("", server.strip().strip("'\"")).lower()
    if name.startswith("(localdb)"):
        return True
    name = name.removeprefix("\\\\")  # `np:\\host\pipe\…`: the pipe's host
    host = re.split(r"[\\,]", name, maxsplit=1)[0]  # `host\INSTANCE`, `host,1433`
    return host in ("", ".", "(local)") or is_loopback_name(host)


def query_commands(query: str) -> SqlCommands:
    """The `xp_cmdshell` command lines of one query, and what of it is not known."""
    commands: list[str] = []
    unknown: list[str] = []
    for found in _XP_CMDSHELL.finditer(query):
        literal = found.group(1)
        if literal is None:
            unknown.append("the query runs xp_cmdshell with a command that is not a literal")
            continue
        commands.append(literal.removeprefix("N").removeprefix("n")[1:-1].replace("''", "'"))
    if _ENABLE_XP_CMDSHELL.search(query):
        unknown.append("the query turns on xp_cmdshell, which lets SQL Server run any command line here")
    return SqlCommands(tuple(commands), tuple(unknown))


def read_sqlcmd(argv: Sequence[Value]) -> tuple[Value, Value, bool]:
    """`sqlcmd`/`osql`/`isql` argv as (query, server, has_query); a value glued to its option counts."""
    query: Value = None
    server: Value = None
    has_query = False
    i = 0
    while i < len(argv):
        word = argv[i]
        for options, is_query in ((_QUERY_OPTIONS, True), (_SERVER_OPTIONS, False)):
            option = next((o for o in options if (word or "").startswith(o)), None)
            if option is None or word is None:
                continue
            glued = word[len(option) :]
            value = glued if glued else (argv[i + 1] if i + 1 < len(argv) else None)
            if not glued:
                i += 1
            if is_query:
                query, has_query = value, True
            else:
                server = value
            break
        i += 1
    return query, server, has_query
