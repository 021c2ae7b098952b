"""What `ssh` runs on this machine: a command sent to the local host, and the local commands it starts.

`ssh localhost "rd /s /q C:\\Users"` runs the command on this machine through its OpenSSH server,
whose default shell on Windows is cmd.exe; `-o ProxyCommand=…` and `-o LocalCommand=…` run a
command line on this machine before any connection. A command sent to another host is that host's
business: the gateway guards this desktop (README §Command rules lists it as not judged).

The option grammar is OpenSSH's (`ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] … destination
[command [argument …]]`): flags may be grouped (`-tt`), an option's value may be glued to it
(`-p22`) or be the next argument, and the remote command is the remaining arguments joined by blanks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from policy.rules.paths import is_loopback_name
from policy.rules.shell.ops import Value

# The options that take a value (ssh(1) SYNOPSIS); every other letter is a flag.
_VALUED = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
# `-o` settings whose value is a command line ssh runs on this machine.
LOCAL_COMMAND_SETTINGS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})


@dataclass(frozen=True, slots=True)
class SshCall:
    """What one `ssh` invocation runs here.

    Attributes:
        local_commands: command lines ssh itself runs on this machine (`-o ProxyCommand=…`);
            None for one that is not constant.
        host: the destination host, lower-cased (user, scheme and port removed); None when it
            is not constant (it may be this machine) or there is none.
        remote_command: the command line sent to the host, or None when there is none (a login)
            or when it is not constant (`not_constant` then says so).
        not_constant: an argument the command line depends on is not constant.
        remote_forward: `-R` forwards a port of the remote host to this machine (S-RULE-80).
    """

    local_commands: tuple[Value, ...]
    host: str | None
    remote_command: str | None
    not_constant: bool = False
    remote_forward: bool = False


def _setting(value: Value) -> tuple[str, Value] | None:
    """`-o Name=value` / `-o "Name value"` as (lower-case name, value)."""
    if value is None:
        return None
    text = value.strip()
    cut = min((i for i in (text.find("="), text.find(" "), text.find("\t")) if i >= 0), default=-1)
    if cut < 0:
        return text.lower(), ""
    return text[:cut].strip().lower(), text[cut + 1 :].lstrip(" \t=")


def destination_host(destination: str) -> str:
    """The host of `[user@]host[:port]`, `ssh://[user@]host[:port]` or `user@[::1]`, lower-cased."""
    text = destination.strip().lower()
    if text.startswith("ssh://"):
        text = text[len("ssh://") :].split("/", 1)[0]
        text = text.rpartition("@")[2]
        if text.startswith("["):
            return text[1:].split("]", 1)[0]
        return text.split(":", 1)[0]
    text = text.rpartition("@")[2]
    if text.startswith("[") and "]" in text:
        return text[1:].split("]", 1)[0]
    return text


def is_this_machine(host: str) -> bool:
    """Whether a host name or address is this machine whatever its name: the loopback names and
    addresses `paths` knows for shares, every name under `localhost.` (RFC 6761) and the
    unspecified address, which connects to this machine."""
    name = host.strip().lower()
    if name.rstrip(".").endswith(".localhost") or name in ("0", "0.0.0.0"):  # noqa: S104 - a name compared
        return True
    return is_loopback_name(name)


def _options(argv: Sequence[Value], i: int, local: list[Value], seen: set[str]) -> int:
    """Read options from `argv[i]` on, collecting local command lines and the letters of the valued
    options met (`seen`); the index of the first other word."""
    n = len(argv)
    while i < n:
        arg = argv[i]
        if arg is None or not arg.startswith("-") or arg == "-":
            return i  # a word (or one not known: read as a word, the safe way)
        i += 1
        if arg == "--":
            return i
        for j in range(1, len(arg)):
            letter = arg[j]
            if letter not in _VALUED:
                continue
            seen.add(letter)
            value: Value = arg[j + 1 :]
            if not value:
                value = argv[i] if i < n else ""
                i += 1
            if letter == "o":
                setting = _setting(value)
                if setting is None:
                    local.append(None)  # `-o $x`: it may be a ProxyCommand
                elif setting[0] in LOCAL_COMMAND_SETTINGS and setting[1] not in ("", "none"):
                    local.append(setting[1])
            break
    return i


def read_ssh(argv: Sequence[Value]) -> SshCall:
    """Read an `ssh` argv (program name not included) into what it runs; see the module docstring.

    Like OpenSSH, options are read before and again after the destination (`ssh host -p 22 cmd`).
    """
    local: list[Value] = []
    seen: set[str] = set()
    i = _options(argv, 0, local, seen)
    if i >= len(argv):
        return SshCall(tuple(local), None, None, remote_forward="R" in seen)
    destination = argv[i]
    i = _options(argv, i + 1, local, seen)
    rest = argv[i:]
    host = None if destination is None else destination_host(destination)
    forward = "R" in seen
    if any(a is None for a in rest):
        return SshCall(tuple(local), host, None, not_constant=True, remote_forward=forward)
    return SshCall(tuple(local), host, " ".join(a for a in rest if a is not None) or None, remote_forward=forward)
