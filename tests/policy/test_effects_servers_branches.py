"""`effects_servers` branch by branch: which folder a file server serves, and when it listens only here (S-RULE-170)."""

from __future__ import annotations

import pytest

from policy.rules.effects_servers import file_servers
from policy.rules.shell.ops import EffectKind, Operation
from tests._requirements import requirement


def _served(name: str, *args: str) -> list[str | None]:
    found = file_servers(Operation(shell="program", name=name, args=args))
    assert all(e.kind is EffectKind.UPLOAD and dict(e.extra).get("recursive") == "true" for e in found)
    return [e.target for e in found]


@requirement("S-RULE-170")
@pytest.mark.parametrize(
    ("name", "args", "served"),
    [
        # Python's servers: `--directory`/`-d`, the current folder otherwise; `--bind`/`-b`/`-i`/`--interface`.
        ("python", ("-m", "http.server", "8000", "--directory", "C:\\x"), ["C:\\x"]),
        ("python", ("-m", "http.server", "--directory=C:\\x"), ["C:\\x"]),
        ("python", ("-m", "http.server", "-d", "C:\\x", "-b", "0.0.0.0"), ["C:\\x"]),
        ("python", ("-m", "http.server", "--bind"), ["."]),  # no value: every interface, as Python's default
        ("python", ("-m", "http.server", "-d"), ["."]),
        ("python", ("-m", "http.server", "-b", "127.0.0.1"), []),
        ("python", ("-m", "pyftpdlib", "-i", "127.0.0.1", "-d", "C:\\x"), []),
        ("python", ("-m", "pyftpdlib", "--interface", "localhost"), []),
        ("python", ("-m", "pyftpdlib", "--interface", "10.0.0.5"), ["."]),
        ("python", ("-m", "pip", "install", "x"), []),
        ("python", ("x.py",), []),
        ("py", ("-3", "-m", "http.server", "-b", "::1"), []),
        # Node's servers, through a runner or installed: the first word that is no option's value.
        ("npx", ("http-server", "-p", "8080", "C:\\x"), ["C:\\x"]),
        ("npx", ("http-server", "C:\\x", "-p", "8080"), ["C:\\x"]),
        ("npx", ("http-server", "--port=8080", "C:\\x"), ["C:\\x"]),
        ("npx", ("-y", "serve"), ["."]),
        ("npx", ("serve@14", "C:\\x"), ["C:\\x"]),
        ("npx", ("serve", "--listen", "tcp://127.0.0.1:3000"), []),
        ("npx", ("serve", "-l", "tcp://0.0.0.0:3000", "C:\\x"), ["C:\\x"]),
        ("npx", ("http-server", "--address", "127.0.0.1"), []),
        ("npx", ("http-server", "--host", "localhost:8080"), []),
        ("npx", ("cowsay", "hi"), []),
        ("http-server.cmd", ("C:\\x", "-a", "0.0.0.0"), ["C:\\x"]),
        ("serve", ("C:\\x",), []),  # `serve` alone is no known program: only through a runner
        # PHP's built-in server: its address is the first word after `-S`, `-t` its root.
        ("php", ("-S", "0.0.0.0:8000", "-t", "C:\\x"), ["C:\\x"]),
        ("php", ("-S", "127.0.0.1:8000"), []),
        ("php", ("-S",), ["."]),
        ("php", ("x.php",), []),
    ],
)
def test_the_served_folder_and_the_address_it_listens_on(name: str, args: tuple[str, ...], served: list[str]) -> None:
    """S-RULE-170: the folder served, or nothing when it listens only on this machine."""
    assert _served(name, *args) == served


@requirement("S-RULE-170")
def test_only_programs_and_cmd_commands_are_read() -> None:
    """S-RULE-170: a cmdlet or a .NET call of the same name starts no server."""
    assert file_servers(Operation(shell="powershell", name="python", args=("-m", "http.server"))) == ()
