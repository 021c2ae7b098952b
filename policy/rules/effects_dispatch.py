"""`effects_of`: one operation's effects, looked up by the world its name lives in (issue 18).

The tables live with their subject (`effects_files`, `effects_registry`, `effects_system`,
`effects_process`); this module only picks the table. A .NET name is looked up without a
leading `system.` (`[IO.File]` and `[System.IO.File]` are one type), then by its method name
alone (`?.delete`, `$key.SetValue` on an object the analyser could not type). A program
started by value (`Start-Process taskkill -ArgumentList …`, `start …`, `WScript.Shell.Run`)
is looked up as the program it starts, so its own effects are not lost.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from policy.rules.effects_agents import agent_effects
from policy.rules.effects_browsers import BROWSER_PROGRAMS
from policy.rules.effects_common import (
    NAMED,
    RECURSIVE,
    Effects,
    Handler,
    bind,
    dedupe,
    effect,
    first,
    lower,
    program_stem,
    split_command_line,
)
from policy.rules.effects_consoles import marked, program_console
from policy.rules.effects_containers import container_mounts
from policy.rules.effects_external import external_deletes
from policy.rules.effects_file_calls import FILE_CALLS, FILE_METHODS
from policy.rules.effects_files import CMD_BUILTINS, FILE_CMDLETS, FILE_PROGRAMS, argument_reads
from policy.rules.effects_network import (
    NETWORK_CALLS,
    NETWORK_CMDLETS,
    NETWORK_METHODS,
    NETWORK_PROGRAMS,
    fetches,
    local_mcp,
    uploads,
)
from policy.rules.effects_packages import PACKAGE_CMDLETS, PACKAGE_PROGRAMS, appinstaller_uri
from policy.rules.effects_process import (
    CMD_PROCESS,
    PROCESS_CALLS,
    PROCESS_CMDLETS,
    PROCESS_METHODS,
    PROCESS_PROGRAMS,
    cmd_start_words,
)
from policy.rules.effects_registry import REGISTRY_CALLS, REGISTRY_METHODS, REGISTRY_PROGRAMS
from policy.rules.effects_remote_control import remote_control
from policy.rules.effects_security import (
    CMD_CLOCK,
    SECURITY_CALLS,
    SECURITY_CMDLETS,
    SECURITY_PROGRAMS,
    dotnet_security,
)
from policy.rules.effects_servers import file_servers
from policy.rules.effects_system import (
    SYSTEM_CALLS,
    SYSTEM_CMDLETS,
    SYSTEM_METHODS,
    SYSTEM_PROGRAMS,
    adsi_effects,
    credential_words,
    dotnet_system,
    secret_printers,
)
from policy.rules.shell.ops import RUN_PATH, SEND_PATH, TREE_READ, EffectKind, Operation, Shell, Value

CMDLETS: Mapping[str, Handler] = {
    **FILE_CMDLETS,
    **SECURITY_CMDLETS,
    **SYSTEM_CMDLETS,
    **PROCESS_CMDLETS,
    **NETWORK_CMDLETS,
    **PACKAGE_CMDLETS,
}
PROGRAMS: Mapping[str, Handler] = {
    **FILE_PROGRAMS,
    **REGISTRY_PROGRAMS,
    **SECURITY_PROGRAMS,
    **SYSTEM_PROGRAMS,
    **PROCESS_PROGRAMS,
    **NETWORK_PROGRAMS,
    **PACKAGE_PROGRAMS,
    **BROWSER_PROGRAMS,
}
CMD: Mapping[str, Handler] = {**CMD_BUILTINS, **CMD_PROCESS, **CMD_CLOCK}
CALLS: Mapping[str, Handler] = {
    **FILE_CALLS,
    **REGISTRY_CALLS,
    **SYSTEM_CALLS,
    **PROCESS_CALLS,
    **NETWORK_CALLS,
    **SECURITY_CALLS,
}
METHODS: Mapping[str, Handler] = {
    **FILE_METHODS,
    **REGISTRY_METHODS,
    **SYSTEM_METHODS,
    **PROCESS_METHODS,
    **NETWORK_METHODS,
}

# Targets of a redirection that write nothing.
_DISCARDS = frozenset({"$null", "nul", "nul:", "null"})
# How deep a program started by value is followed (`start cmd /c start …`).
MAX_STARTED_DEPTH = 4


def _redirect(op: Operation) -> Effects:
    target = op.args[0] if op.args else None
    text = lower(target)
    if text in _DISCARDS or re.fullmatch(r"&\d|\d", text):
        return ()
    return (effect(EffectKind.WRITE, target, "redirect >"),)


def started_program(program: Value, words: tuple[Value, ...], depth: int) -> Effects:
    """The effects of the program a command starts by value, with its argument words.

    Args:
        program: what is started (path or name as written).
        words: its arguments.
        depth: the nesting depth of the starting operation.

    Returns:
        The started program's own effects (none when it is not one the catalogue knows).
    """
    stem = program_stem(program)
    if depth >= MAX_STARTED_DEPTH or not stem:
        return ()
    if stem == "cmd":
        lowered = [lower(w) for w in words]
        for switch in ("/c", "/k"):
            if switch in lowered:
                rest = words[lowered.index(switch) + 1 :]
                if len(rest) == 1:
                    rest = split_command_line(rest[0])  # `cmd /c "del /s /q C:\x"`
                rest = tuple(None if w is None else w.replace("^", "") for w in rest)  # cmd's escape
                if rest and not any(w is not None and re.search(r"[&|<>]", w) for w in rest):
                    inner = program_stem(rest[0])
                    shell: Shell = "cmd" if inner in CMD else "program"
                    return effects_of(Operation(shell=shell, name=inner, args=tuple(rest[1:]), depth=depth + 1))
    # A program the catalogue does not know is followed too: what it is handed may name a credential
    # store or carry mimikatz's words (`argument_reads`, `credential_words`), whatever its name.
    return effects_of(Operation(shell="program", name=stem, args=words, depth=depth + 1))


def _started_by_value(op: Operation) -> Effects:
    """What a Start-Process, `start`, WScript.Shell.Run or Process::Start runs, as its own operation."""
    if op.shell == "powershell" and op.name == "start-process":
        bound = bind(op, ("filepath", "argumentlist"))
        return started_program(first(bound, "filepath"), split_command_line(first(bound, "argumentlist")), op.depth)
    if op.shell == "program" and program_stem(op.name) == "cmd":
        return started_program("cmd", op.args, op.depth)
    if op.shell == "cmd" and op.name == "start":
        words = cmd_start_words(op)
        return started_program(words[0], tuple(words[1:]), op.depth) if words else ()
    if op.name in ("com:wscript.shell.run", "com:wscript.shell.exec") and op.args:
        line = split_command_line(op.args[0])
        return started_program(line[0], line[1:], op.depth) if line else ()
    if op.name in ("system.diagnostics.process::start", "com:shell.application.shellexecute") and op.args:
        arguments = op.args[1] if len(op.args) > 1 else ""
        return started_program(op.args[0], split_command_line(arguments), op.depth)
    return ()


def _dotnet_key(name: str) -> str:
    return name.removeprefix("system.")


def _method(name: str) -> str:
    return re.split(r"::|\.", name)[-1]


def _handler(op: Operation) -> Handler | None:
    name = op.name.strip().lower()
    if op.shell == "powershell":
        return CMDLETS.get(name) or PROGRAMS.get(program_stem(name))
    if op.shell == "cmd":
        return CMD.get(name) or PROGRAMS.get(program_stem(name))
    if op.shell == "program":
        return PROGRAMS.get(program_stem(name))
    if op.shell in ("dotnet", "com"):
        return CALLS.get(_dotnet_key(name)) or CALLS.get(name) or METHODS.get(_method(name))
    return None


# Pure in its operation, and asked several times per call (each operation's own effects, then download-and-run,
# read-then-sent, … look again): one computation serves them all.
@functools.lru_cache(maxsize=4096)
def effects_of(op: Operation) -> Effects:
    """What one operation does, as effects on targets (issue 18 item 3).

    Args:
        op: an operation from a shell analyser (PowerShell, cmd, program, .NET, COM, redirect).

    Returns:
        Its effects, each once, in the order found; `()` for an operation that changes nothing
        the judge cares about (`Write-Output`, `Get-Process`, an unknown program). Never raises:
        odd operations (None values, no args) give what can be known, with None targets.
    """
    if op.name == "<redirect>":
        return _redirect(op)
    if op.name == RUN_PATH:
        return (effect(EffectKind.EXECUTE, op.args[0] if op.args else None, "started from its path"),)
    if op.name == TREE_READ and len(op.args) == 2:
        root, name = op.args
        extra = RECURSIVE if name in (None, "*", "*.*") else (*RECURSIVE, (NAMED, name or "*"))
        return (effect(EffectKind.READ, root, "for /r (every folder below)", extra=extra),)
    if op.name == SEND_PATH:
        return (effect(EffectKind.UPLOAD, op.args[0] if op.args else None, "sent on a network program's input"),)
    if op.name.startswith("adsi:"):
        return adsi_effects(op)  # `.Delete('user', x)` on an ADSI object is an account, not a file
    handler = _handler(op)
    found = list(handler(op)) if handler is not None else []
    if op.shell == "program":
        found += credential_words(op)
        found += argument_reads(op, {e.target for e in found})
    if op.shell in ("program", "cmd") or (op.shell == "powershell" and op.name.startswith("docker-credential")):
        found += secret_printers(program_stem(op.name), op)  # `docker-credential-wincred` reads as a cmdlet's name
    if op.shell == "dotnet":
        found += dotnet_system(op)
        found += dotnet_security(op)
    found += _started_by_value(op)
    found += uploads(op)  # iwr, BITS, curl and Copy-Item have tables of their own for the rest
    found += fetches(op)  # a file: URL or the cloud's metadata service (S-RULE-144)
    found += program_console(op)  # `regedit`, `secpol.msc` opened (S-RULE-154)
    found += file_servers(op)  # `python -m http.server` serves its folder to the network (S-RULE-170)
    found += external_deletes(op)  # `terraform destroy`, `aws s3 rb`, `git push --force` (S-RULE-177)
    found += agent_effects(op)  # another agent handed the work, an MCP server list changed (S-RULE-198, S-RULE-199)
    found += local_mcp(op)  # an MCP server on this machine called directly, around the gateway (S-RULE-202)
    found += container_mounts(op)  # a folder of this machine handed to a container, and what runs there (S-RULE-217)
    # `start ms-appinstaller:?source=https://…` installs what the address serves (S-RULE-166), however it is opened.
    opened = [e.target for e in found if e.kind is EffectKind.EXECUTE]
    if op.shell == "program" and program_stem(op.name) == "explorer":
        opened += op.args  # `explorer ms-appinstaller:?source=…` opens it as `start` does
    found += [installed for target in opened for installed in appinstaller_uri(target)]
    # A remote-control program started (S-RULE-169): whoever holds the other end drives the desktop.
    if op.shell == "program" and op.name not in (RUN_PATH, SEND_PATH, TREE_READ):
        opened.append(op.name)
    found += remote_control(dict.fromkeys(opened), "a remote-control program started")
    return marked(dedupe(found))
