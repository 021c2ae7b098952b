"""Between shells: which analyser reads the command a program is given (issue 18 items 1 and 2).

This is the only module that knows both analysers. `analyse_program` is the `nested`
callback both take: when PowerShell runs `cmd /c …` or cmd runs `powershell -enc …`, the
inner text is read by the right analyser one level deeper. `analyse_tool` is the entry for
the tools that carry a command (PowerShell's `command`, App's launch).

PowerShell's command-line switches follow `CommandLineParameterParser` of powershell.exe and
pwsh: a switch may be abbreviated to any prefix of at least its shortest accepted form, the
first matching row of `_POWERSHELL_SWITCHES` wins (so `-e` is `-EncodedCommand`, not
`-ExecutionPolicy`), and `/` works as well as `-`.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import ntpath
import re
from collections.abc import Callable, Mapping, Sequence

from policy.rules.args import app_arguments, mode_of
from policy.rules.effects_defaults import with_default_parameters
from policy.rules.effects_linux import DISTRO_LAUNCHERS, linux_commands
from policy.rules.shell.argv import join_argv, program_name, split_command_line
from policy.rules.shell.cmd import MAX_DEPTH, analyse_cmd
from policy.rules.shell.cmd_expand import UNKNOWN
from policy.rules.shell.ops import RUN_PATH, UNC_STARTS, Analysis, Operation, Value
from policy.rules.shell.powershell import analyse_powershell
from policy.rules.shell.sql import is_local_server, query_commands, read_sqlcmd
from policy.rules.shell.ssh import is_this_machine, read_ssh
from policy.rules.shell.winenv import STANDARD_ENV, injected_variable

_POWERSHELLS = frozenset({"powershell", "pwsh", "powershell_ise"})
_DASHES = "-/\u2013\u2014\u2015"
_BLANKS = " \t"

# (full name, shortest accepted prefix, takes a value); order matters: the first match wins.
_POWERSHELL_SWITCHES: tuple[tuple[str, str, bool], ...] = (
    ("help", "h", False),
    ("?", "?", False),
    ("command", "c", True),
    ("commandwithargs", "commandwithargs", True),
    ("cwa", "cwa", True),
    ("configurationname", "config", True),
    ("configurationfile", "configurationfile", True),
    ("custompipename", "custompipename", True),
    ("encodedcommand", "e", True),
    ("ec", "ec", True),
    ("encodedarguments", "encodeda", True),
    ("ea", "ea", True),
    ("executionpolicy", "ex", True),
    ("ep", "ep", True),
    ("file", "f", True),
    ("inputformat", "inp", True),
    ("if", "if", True),
    ("interactive", "i", False),
    ("login", "l", False),
    ("mta", "mta", False),
    ("noexit", "noe", False),
    ("nologo", "nol", False),
    ("noninteractive", "noni", False),
    ("noprofile", "nop", False),
    ("noprofileloadtime", "noprofileloadtime", False),
    ("outputformat", "o", True),
    ("of", "of", True),
    ("psconsolefile", "psc", True),
    ("settingsfile", "settings", True),
    ("sta", "s", False),
    ("version", "v", True),
    ("windowstyle", "w", True),
    ("workingdirectory", "wo", True),
    ("wd", "wd", True),
)
_SHORT_FORMS = {
    "ec": "encodedcommand",
    "ea": "encodedarguments",
    "ep": "executionpolicy",
    "if": "inputformat",
    "of": "outputformat",
    "wd": "workingdirectory",
    "cwa": "commandwithargs",
}
# Start-menu names App `launch` resolves to an interpreter (its fuzzy match goes further).
_START_MENU_NAMES = {
    "command prompt": "cmd",
    "windows powershell": "powershell",
    "powershell 7": "pwsh",
    "windows terminal": "wt",
    "terminal": "wt",
}
_WT_SUBCOMMANDS = frozenset({"new-tab", "nt", "split-pane", "sp", "focus-tab", "ft", "move-focus", "mf"})
_WT_FLAGS = frozenset({"-m", "--maximized", "-f", "--fullscreen", "--focus", "-v", "--vertical", "-h"})
_WT_FLAGS |= {"--horizontal", "--suppressapplicationtitle", "--useapplicationtitle", "-?", "--help"}
_CONHOST_VALUED = frozenset({"--width", "--height", "--signal", "--server", "--feature"})


def _switch(key: str) -> str | None:
    lowered = key.lower()
    for full, shortest, _ in _POWERSHELL_SWITCHES:
        if full.startswith(lowered) and len(lowered) >= len(shortest):
            return _SHORT_FORMS.get(full, full)
    return None


_TAKES_VALUE = frozenset(_SHORT_FORMS.get(full, full) for full, _, valued in _POWERSHELL_SWITCHES if valued)


def decode_encoded_command(payload: str) -> str | None:
    """The text of a `-EncodedCommand` payload (base64 of UTF-16LE), or None if it is not one.

    PowerShell decodes with `Convert.FromBase64String`, which ignores white space and
    requires the padding; so does this.

    Args:
        payload: the base64 text.

    Returns:
        The decoded command, or None for text that is not base64 of UTF-16LE.
    """
    text = "".join(payload.split())
    if not text or len(text) % 4:
        return None
    try:
        raw = base64.b64decode(text, validate=True)
        return raw.decode("utf-16-le")
    except (binascii.Error, ValueError):
        return None


def _joined(parts: Sequence[Value]) -> Value:
    return None if any(p is None for p in parts) else " ".join(p for p in parts if p is not None)


def _merge(*analyses: Analysis) -> Analysis:
    failures = [a.failed for a in analyses if a.failed]
    return Analysis(
        operations=tuple(op for a in analyses for op in a.operations),
        dynamic=tuple(dict.fromkeys(s for a in analyses for s in a.dynamic)),
        failed="; ".join(dict.fromkeys(failures)) or None,
    )


def _powershell(  # noqa: C901, PLR0912
    name: str, argv: Sequence[Value], depth: int, expanded: bool = False
) -> Analysis:
    params: list[tuple[str, Value]] = []
    scripts: list[Value] = []
    dynamic: list[str] = []
    failed: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg is None:
            dynamic.append(f"{name} is given an argument that is not constant")
            break
        if arg == "-":
            dynamic.append(f"{name} reads its command from standard input")
            break
        if len(arg) > 1 and arg[0] in _DASHES:
            key, colon, inline = arg[1:].partition(":")
            switch = _switch(key)
            value: Value = inline if colon else (argv[i + 1] if i + 1 < len(argv) else None)
            step = 1 if colon else 2
            if switch is None:
                # powershell.exe reads an unknown switch as the start of the command text
                scripts.append(_joined(argv[i:]))
                break
            if switch == "command":
                rest = ([inline] if colon else []) + list(argv[i + 1 :])
                if rest == ["-"]:
                    dynamic.append(f"{name} reads its command from standard input")
                else:
                    scripts.append(_joined(rest))
                    params.append(("command", scripts[-1]))
                break
            if switch == "commandwithargs":
                scripts.append(value)
                params.append(("command", value))
                break
            if switch == "encodedcommand":
                params.append(("encodedcommand", value))
                decoded = decode_encoded_command(value) if value is not None else None
                if value is None:
                    dynamic.append(f"{name} -EncodedCommand payload is not constant")
                elif decoded is None:
                    failed = "-EncodedCommand payload is not base64 of UTF-16LE text"
                else:
                    scripts.append(decoded)
                i += step
                continue
            if switch == "file":
                params.append(("file", value))
                break
            if switch in _TAKES_VALUE:
                params.append((switch, value))
                i += step
            else:
                params.append((switch, "true"))
                i += 1
            continue
        if name == "pwsh":  # pwsh's first positional argument is a script file
            params.append(("file", arg))
        else:
            scripts.append(_joined(argv[i:]))
            params.append(("command", scripts[-1]))
        break
    own = Operation(
        shell="program",
        name=name,
        params=tuple(params),
        args=tuple(argv),
        text=_text(name, argv),
        depth=max(depth - 1, 0),
    )
    parts = [Analysis(operations=(own,), dynamic=tuple(dynamic), failed=failed)]
    for script in scripts:
        if script is None:
            parts.append(Analysis(dynamic=(f"{name} command text is not constant",)))
            continue
        injected = _first_injected([script], expanded)
        if injected is not None:
            parts.append(Analysis(dynamic=(_runs_a_variable(name, injected),)))
        parts.append(with_default_parameters(script, analyse_powershell(script, depth=depth, nested=analyse_program)))
    return _merge(*parts)


def _first_injected(texts: Sequence[str], expanded: bool) -> str | None:
    """The first variable PowerShell filled into one of `texts` that nobody can read here; None when it filled
    none in (`expanded` is False). One the script set is no spelling any more: the analyser put its value there."""
    if not expanded:
        return None
    return next(filter(None, map(injected_variable, texts)), None)


def _runs_a_variable(name: str, variable: str) -> str:
    """The dynamic sentence for code that holds an environment variable nobody can read (S-RULE-219)."""
    return (
        f"{name} runs command text holding {variable}, an environment variable with no standard value: the shell that"
        " starts it puts the value in the text, so whatever an earlier command stored there runs as code"
    )


def _cmd_rest(line: str) -> tuple[str | None, bool]:
    """What `cmd [switches] /c|/k|/r rest` runs, and whether `!VAR!` may expand (`/v`)."""
    i, n = 0, len(line)
    strip_all, delayed = False, True
    while True:
        while i < n and line[i] in _BLANKS:
            i += 1
        if i >= n:
            return None, delayed
        if line[i] != "/":
            break  # no /c or /k: read the text anyway (the safe direction)
        letter = line[i + 1 : i + 2].lower()
        if letter in ("c", "k", "r") and letter:
            i += 2
            break
        j = i + 1
        while j < n and line[j] not in " \t/":
            j += 1
        switch = line[i + 1 : j].lower()
        strip_all = strip_all or switch == "s"
        if switch.startswith("v"):
            delayed = switch not in ("v:off", "voff")
        i = j
    return _strip_cmd_quotes(line[i:].lstrip(_BLANKS), strip_all), delayed


def _strip_cmd_quotes(rest: str, strip_all: bool) -> str:
    # cmd /?: the quotes stay when there is no /S, exactly two quotes, no special character
    # and some white space between them, and the quoted text names an executable file.
    # policy/ cannot look at the disk: "names an executable" is read as "ends in a program
    # extension" (`"C:\Program Files\x.exe"`); `"net user x /add"` loses its quotes.
    if not rest.startswith('"'):
        return rest
    last = rest.rfind('"')
    inner = rest[1:last] if last > 0 else rest[1:]
    keep = (
        not strip_all
        and rest.count('"') == 2
        and last > 0
        and not any(c in inner for c in "&<>()@^|")
        and any(c in inner for c in _BLANKS)
        and inner.rstrip().lower().endswith((".exe", ".com", ".bat", ".cmd"))
    )
    if keep:
        return rest
    return inner + (rest[last + 1 :] if last > 0 else "")


def _cmd(
    argv: Sequence[Value],
    depth: int,
    env: Mapping[str, str | None] | None = None,
    expanded: bool = False,
) -> Analysis:
    """cmd.exe's command line from its arguments. Several arguments (the App tool's list, a command line split
    earlier) reach cmd as the launcher quotes them — an argument with a blank in quotes, as `join_argv` does
    (Python's and .NET's list quoting) — so `["/c", "powershell", "-c", "iwr x | iex"]` keeps its `|` inside
    powershell's argument. They are also read joined as they are, the way an unquoting launcher would pass them;
    both readings are judged and the worse stands (S-RULE-208)."""
    words = [UNKNOWN if a is None else a for a in argv]
    lines = [" ".join(words)]
    if len(words) > 1 and any(c in w for w in words for c in ' \t"'):
        lines.append(join_argv(words))
    # The variables the starting script set are cmd's too (S-RULE-219): `$env:P = 'x & rd …'; cmd /c echo %P%`.
    # One set to a value nobody can read stays unset here, so the line asks as it does for any such variable.
    environment = {**STANDARD_ENV, **{k: v for k, v in (env or {}).items() if v is not None}}
    injected = _first_injected(lines, expanded)
    readings = [Analysis(dynamic=(_runs_a_variable("cmd", injected),))] if injected is not None else []
    for line in lines:
        rest, delayed = _cmd_rest(line)
        if rest is not None:
            readings.append(analyse_cmd(rest, depth=depth, nested=analyse_program, env=environment, delayed=delayed))
    if not readings:
        return Analysis()
    merged = _merge(*readings)  # the same operation read both ways is one operation
    return dataclasses.replace(merged, operations=tuple(dict.fromkeys(merged.operations)))


def _inner(program: Value, argv: Sequence[Value], depth: int) -> Analysis:
    """The program a wrapper (`conhost`, `runas`, `wt`) starts, and what it runs in turn."""
    if program is None:
        return Analysis(dynamic=("a wrapper starts a program whose name is not constant",))
    name = program_name(program)
    if not name:
        return Analysis()
    own = Operation(shell="program", name=name, args=tuple(argv), text=_text(program, argv), depth=depth)
    ops: tuple[Operation, ...] = (own,)
    if program[:2] in UNC_STARTS:  # `explorer \\host\share\x.exe`, `runas … \\host\…`: started from a share
        ops = (Operation(shell="program", name=RUN_PATH, args=(program,), text=own.text, depth=depth), own)
    return _merge(Analysis(operations=ops), analyse_program(program, argv, depth + 1))


def _command_line(text: Value, depth: int) -> Analysis:
    if text is None:
        return Analysis(dynamic=("a wrapper runs a command line that is not constant",))
    words = split_command_line(text)
    return _inner(words[0], words[1:], depth) if words else Analysis()


def _conhost(argv: Sequence[Value], depth: int) -> Analysis:
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg is None or not (arg.startswith("-") or arg.lower().startswith("0x")):
            break
        i += 2 if arg.lower() in _CONHOST_VALUED else 1
        if arg == "--":
            break
    return _inner(argv[i], argv[i + 1 :], depth) if i < len(argv) else Analysis()


def _runas(argv: Sequence[Value], depth: int) -> Analysis:
    # runas [/noprofile] [/env] [/netonly|/savecred] /user:NAME "program args": one command line.
    commands = [a for a in argv if a is None or not a.startswith("/")]
    return _merge(*(_command_line(c, depth) for c in commands)) if commands else Analysis()


def _wt(argv: Sequence[Value], depth: int) -> Analysis:
    # wt [options] [subcommand [options] command] [; subcommand …]
    parts: list[Analysis] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg is None:
            parts.append(_inner(None, (), depth))
            break
        lowered = arg.lower()
        if lowered in (";", "\\;") or lowered in _WT_SUBCOMMANDS or lowered in _WT_FLAGS:
            i += 1
            continue
        if arg.startswith("-"):
            i += 1 if "=" in arg else 2  # an option with its value (-p "Profile", --title x, -d dir)
            continue
        end = i
        while end < len(argv) and argv[end] != ";":
            end += 1
        parts.append(_inner(arg, argv[i + 1 : end], depth))
        i = end
    return _merge(*parts) if parts else Analysis()


# forfiles' per-file variables (`@path` is the file's full path, quoted), and its `0xHH` escapes.
_FORFILES_VARIABLE = re.compile(r"@(?:path|file|fname|relpath)\b", re.IGNORECASE)
_FORFILES_HEX = re.compile(r"0x([0-9a-fA-F]{2})")


def _forfiles_option(argv: Sequence[Value], lowered: Sequence[str | None], name: str, default: str) -> Value:
    for i, arg in enumerate(lowered):
        if arg in (f"/{name}", f"-{name}"):
            return argv[i + 1] if i + 1 < len(argv) else None
        written = argv[i]
        if arg is not None and written is not None and arg.startswith((f"/{name}:", f"-{name}:")):
            return written[3:]
    return default


def _forfiles(argv: Sequence[Value], depth: int) -> Analysis:
    # forfiles [/p dir] [/m mask] [/s] /c "command": it runs the command for each file it finds, with
    # `@path`/`@file`/… standing for that file and `0xHH` for a character. The command is judged once,
    # on `"dir\mask"`: every file the mask names (with /s, in the folder's subfolders too).
    lowered = [None if a is None else a.lower() for a in argv]
    command = _forfiles_option(argv, lowered, "c", "")  # as written: an encoded command is case-sensitive
    if command == "":
        return Analysis()
    if command is None:
        return _command_line(None, depth)
    folder, mask = _forfiles_option(argv, lowered, "p", "."), _forfiles_option(argv, lowered, "m", "*")
    each = None if folder is None or mask is None else '"' + folder.rstrip("\\/") + "\\" + mask + '"'
    if each is None and _FORFILES_VARIABLE.search(command):
        return _command_line(None, depth)  # which files is not known: judged as a command not known
    command = _FORFILES_VARIABLE.sub(lambda _: each or "", command)
    return _command_line(_FORFILES_HEX.sub(lambda m: chr(int(m.group(1), 16)), command), depth)


def _pcalua(argv: Sequence[Value], depth: int) -> Analysis:
    # pcalua -a program [-c "arguments"] [-d dir]: the Program Compatibility Assistant starts it.
    lowered = [None if a is None else a.lower() for a in argv]
    if "-a" not in lowered:
        return Analysis()
    at = lowered.index("-a")
    program = argv[at + 1] if at + 1 < len(argv) else None
    rest: Sequence[Value] = ()
    if "-c" in lowered:
        c = lowered.index("-c")
        value = argv[c + 1] if c + 1 < len(argv) else None
        rest = (None,) if value is None else split_command_line(value, first_is_program=False)
    return _inner(program, rest, depth)


# PsExec's (and PAExec's) options that take the next word as their value; `-i` takes one only if it is a number.
_PSEXEC_VALUED = frozenset({"u", "p", "n", "r", "w", "a", "cnodel", "csrc", "dbg"})


def _psexec(argv: Sequence[Value], depth: int) -> Analysis:
    # psexec [\\computer[,…] | @file] [options] command [arguments] (S-RULE-156): it runs the command, as SYSTEM
    # with -s. It is judged wherever it runs: a machine reaches itself by its own name, which the gateway does
    # not know, so `\\name` may be this one. Sysinternals options start with `-` or `/`.
    i = 1 if argv and argv[0] is not None and argv[0].startswith(("\\\\", "@")) else 0
    while i < len(argv):
        arg = argv[i]
        if arg is None:
            return _inner(None, (), depth)
        if not arg.startswith(("-", "/")):
            break
        option = arg[1:].lower()
        i += 1
        if option in _PSEXEC_VALUED:
            i += 1
        elif option == "i" and i < len(argv) and (argv[i] or "").isdigit():
            i += 1  # `-i 1`: the session
    return _inner(argv[i], argv[i + 1 :], depth) if i < len(argv) else Analysis()


# rundll32 entry points that start the program named after them (a LOLBin's proxy execution).
_RUNDLL_STARTERS = frozenset(
    {"shell32.dll,shellexec_rundll", "shell32.dll,shellexec_rundlla", "shell32.dll,shellexec_rundllw",
     "zipfldr.dll,routethecall", "url.dll,openurl", "url.dll,openurla", "url.dll,fileprotocolhandler",
     "ieframe.dll,openurl", "shdocvw.dll,openurl", "pcwutl.dll,launchapplication", "advpack.dll,registerocx",
     "ieadvpack.dll,registerocx"}
)  # fmt: skip
# rundll32 entry points that run an INF file's sections: an INF can run any command (`RunPreSetupCommands`) and
# write any registry key, and the gateway does not read it (S-RULE-157). So do `cmstp` and `InfDefaultInstall`.
_RUNDLL_INF = frozenset(
    {"setupapi.dll,installhinfsection", "setupapi.dll,installhinfsectiona", "setupapi.dll,installhinfsectionw",
     "advpack.dll,launchinfsection", "advpack.dll,launchinfsectionex", "ieadvpack.dll,launchinfsection",
     "ieadvpack.dll,launchinfsectionex", "syssetup.dll,setupinfobjectinstallaction"}
)  # fmt: skip


def _inf_runner(named: str) -> Analysis:
    return Analysis(dynamic=(f"{named} runs the commands of an INF file, which the gateway does not read",))


def _inf_program(name: str) -> Callable[[Sequence[Value], int], Analysis]:
    def run(argv: Sequence[Value], depth: int) -> Analysis:
        # `cmstp /s x.inf`, `InfDefaultInstall x.inf`: only with an INF file named (cmstp alone opens a profile).
        if any(a is None or a.lower().rstrip("\"' ").endswith(".inf") for a in argv):
            return _inf_runner(name)
        return Analysis()

    return run


def _rundll32(argv: Sequence[Value], depth: int) -> Analysis:
    words = list(argv)
    if len(words) > 1 and words[0] is not None and words[0].endswith(",") and words[1] is not None:
        words = [words[0] + words[1], *words[2:]]  # `shell32.dll, ShellExec_RunDLL` (a blank after the comma)
    if not words or words[0] is None:
        return Analysis()
    dll, _, entry = words[0].replace(" ", "").rpartition(",")
    library = program_name(dll)  # the base name, lower case: `C:\Windows\System32\SHELL32.dll` → `shell32.dll`
    key = f"{library if library.endswith('.dll') else library + '.dll'},{entry.lower()}"
    if key in _RUNDLL_INF:
        return _inf_runner(f"rundll32 {key}")
    if key not in _RUNDLL_STARTERS or len(words) < 2:
        return Analysis()
    if len(words) == 2 and words[1] is not None and any(c in words[1] for c in _BLANKS):
        return _command_line(words[1], depth)  # `advpack.dll,RegisterOCX "cmd /c …"`: the rest is one command line
    return _inner(words[1], words[2:], depth)


def _wmic(argv: Sequence[Value], depth: int) -> Analysis:
    # wmic [/node:…] process call create "command line": WMI starts the command line.
    lowered = [None if a is None else a.lower() for a in argv]
    for i in range(len(lowered) - 2):
        if lowered[i : i + 3] == ["process", "call", "create"]:
            rest = [a for a in argv[i + 3 :] if a is not None]
            line = None if len(rest) < len(argv) - i - 3 else " ".join(rest)  # one unknown word: unknown
            return _command_line(line, depth)
    return Analysis()


def _explorer(argv: Sequence[Value], depth: int) -> Analysis:
    # `explorer.exe program.exe` starts the program; a folder or a switch (/e, /select,…) only opens a window.
    for i, arg in enumerate(argv):
        if arg is None or not arg.startswith("/"):
            before = argv[i - 1] if i > 0 else None
            if before is not None and before.endswith(","):
                return Analysis()  # `/select, C:\x` names what to show, not what to run
            return _inner(arg, argv[i + 1 :], depth)
    return Analysis()


# Interpreters of other languages and how they are handed code on the command line: the switch
# (alone, glued to the code, or ending a cluster of flags: `python -Bc`, `perl -lne`, `node -pe`).
# The gateway reads PowerShell and cmd, not Python or JavaScript: such code is a command it cannot
# judge, so it is dynamic (asks), like `iex $x` (issue 18 item 1); a script run by path stays a
# documented limit.
_INLINE_CODE: dict[str, re.Pattern[str]] = {
    **dict.fromkeys(("python", "python3", "py", "pythonw", "pyw"), re.compile(r"-[bBdEhiIOPqsSuvVx]*c")),
    **dict.fromkeys(("node", "bun"), re.compile(r"-p?e|-p|--eval\b|--print\b")),
    "perl": re.compile(r"-[lnpawstTuUcdDiIx0-9]*[eE]"),
    "ruby": re.compile(r"-[lnpaswdvWc]*e"),
    "php": re.compile(r"-r"),
    "deno": re.compile(r"eval\b"),
    "rscript": re.compile(r"-e"),
}


# Their options that take the next argument as a value (`python -X utf8 -c …` is still inline code).
_VALUED = {
    **dict.fromkeys(("python", "python3", "py", "pythonw", "pyw"), frozenset({"-X", "-W", "--check-hash-based-pycs"})),
    **dict.fromkeys(("node", "bun"), frozenset({"-r", "--require", "--import", "--loader", "-C", "--conditions"})),
    "perl": frozenset({"-I", "-M", "-m"}),
    "ruby": frozenset({"-I", "-r", "-C"}),
    "php": frozenset({"-c", "-d", "-z"}),
}


def _inline_code(name: str, argv: Sequence[Value]) -> Analysis:
    if name not in _INLINE_CODE:
        return Analysis()
    valued = _VALUED.get(name, frozenset())
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg is None:
            return Analysis(dynamic=(f"{name} is started with an argument that is not constant",))
        if _INLINE_CODE[name].match(arg):
            return Analysis(dynamic=(f"{name} runs code given on its command line, which the gateway cannot read",))
        if arg in valued:
            skip = True
        elif not arg.startswith("-") or (name.startswith("py") and arg == "-m"):
            break  # the script (or `-m module`) comes first: what follows is its own arguments
    return Analysis()


def _ssh(argv: Sequence[Value], depth: int) -> Analysis:
    # ssh runs `-o ProxyCommand=…` here itself, and a command sent to this machine (or to a host that
    # is not constant, which may be it) runs in its OpenSSH server's shell: cmd.exe by default,
    # PowerShell where an administrator chose it, so the command is read both ways (`policy.rules.shell.ssh`).
    call = read_ssh(argv)
    parts = [_cmd(("/d /c " + c,), depth) if c is not None else _command_line(None, depth) for c in call.local_commands]
    if call.host is None or is_this_machine(call.host):
        if call.not_constant:
            parts.append(Analysis(dynamic=("ssh sends this machine a command that is not constant",)))
        elif call.remote_command is not None:
            parts.append(_cmd(("/d /c " + call.remote_command,), depth))
            parts.append(_powershell("powershell", ("-NoProfile", "-Command", call.remote_command), depth))
    return _merge(*parts) if parts else Analysis()


def _sqlcmd(argv: Sequence[Value], depth: int) -> Analysis:
    # SQL Server on this machine runs `xp_cmdshell '…'` through cmd.exe /c (`policy.rules.shell.sql`).
    query, server, has_query = read_sqlcmd(argv)
    if not has_query or (server is not None and not is_local_server(server)):
        return Analysis()
    if server is None and any(a is not None and a.startswith(("-S", "/S")) for a in argv):
        return Analysis(dynamic=("a SQL query goes to a server whose name is not constant",))
    if query is None:
        return Analysis()  # a query that is not constant: not read (README lists it)
    found = query_commands(query)
    parts = [_cmd(("/d /c " + c,), depth) for c in found.commands]
    return _merge(Analysis(dynamic=found.unknown), *parts)


_LINUX_SHELLS = frozenset({"bash", "sh", "wsl", "wslhost", "zsh", "dash"})


# Programs that start another program or command line they are given (proxy execution).
def _script_host(argv: Sequence[Value], depth: int) -> Analysis:
    # `cscript //E:vbscript notes.txt` runs a file of any name as a script (S-RULE-128): one written as `.txt` was
    # never judged, since scripts are judged by their extension when they are made (S-RULE-114).
    for arg in argv:
        if arg is not None and arg.lower().startswith("//e:"):
            files = [a for a in argv if a is None or not a.startswith(("/", "-"))]
            named = (files[0] or "a file that is not constant") if files else "its script"
            return Analysis(
                dynamic=(f"the script host runs {named} as {arg[4:] or 'a script'}, which the gateway does not read",)
            )
    return Analysis()


_STARTERS = {
    "forfiles": _forfiles,
    "cscript": _script_host,
    "wscript": _script_host,
    "pcalua": _pcalua,
    **dict.fromkeys(("psexec", "psexec64", "paexec"), _psexec),
    "cmstp": _inf_program("cmstp"),
    "infdefaultinstall": _inf_program("InfDefaultInstall"),
    "rundll32": _rundll32,
    "wmic": _wmic,
    "explorer": _explorer,
    "ssh": _ssh,
    "sqlcmd": _sqlcmd,
    "osql": _sqlcmd,
    "isql": _sqlcmd,
}


def _text(program: str, argv: Sequence[Value]) -> str:
    shown = " ".join([program, *("?" if a is None else a for a in argv)])
    return shown if len(shown) <= 200 else shown[:199] + "…"


def analyse_program(
    program: str,
    argv: Sequence[Value],
    depth: int = 0,
    env: Mapping[str, str | None] | None = None,
    expanded: bool = False,
) -> Analysis:
    """What a started program runs, for the programs that run commands they are given.

    `powershell`/`pwsh`/`powershell_ise`: `-Command`, `-EncodedCommand`, `-File`, the first
    positional argument (a command for powershell.exe, a script file for pwsh) and the other
    switches, in every accepted abbreviation; the program's own operation is part of the
    result. `cmd`: `/c`, `/k`, `/r` with cmd's quote rules. `conhost`, `runas`, `wt` and
    `start`: the program they start; so do the proxy starters `forfiles /c`, `pcalua -a`,
    `rundll32 shell32.dll,ShellExec_RunDLL` (and its kin), `wmic process call create` and
    `explorer program.exe`. Any other program: nothing (the caller already has its operation).

    Depth: an analyser that meets a program at level `d` emits the program's operation at
    `d` and calls `analyse_program(program, argv, d + 1)` (the `Nested` contract); so `depth`
    is the level of what the program runs. The interpreter's own operation, which this adds
    with its parsed switches, is at `depth - 1`, beside the caller's.

    Args:
        program: the program as written (a path or a name; quotes allowed).
        argv: its arguments; None for one that is not constant. A single argument holding
            blanks is one command line (`Start-Process -ArgumentList 'a b'`) and is split.
        depth: nesting level of the text the program runs (the caller's level + 1).
        env: the variables the PowerShell script that started the program set (see `ps_fold.Nested`), which it
            inherits and cmd expands (S-RULE-219).
        expanded: PowerShell filled environment variables into the argv (`powershell -c $env:P`, not `'$env:P'`):
            code the program runs that holds one nobody can read here is not constant (S-RULE-219).

    Returns:
        The analysis of what the program runs (empty for a program that runs nothing given).
    """
    if depth > MAX_DEPTH:
        return Analysis(failed="too deeply nested")
    name = program_name(program)
    args = list(argv)
    # cmd reads its raw line itself; PowerShell's argv is the runtime's split of it.
    single = args[0] if len(args) == 1 else None
    if name in _POWERSHELLS and single is not None and any(c in single for c in _BLANKS):
        args = list(split_command_line(single, first_is_program=False))
    if name in _POWERSHELLS:
        return _powershell("pwsh" if name == "pwsh" else "powershell", args, depth, expanded)
    if name == "cmd":
        return _cmd(args, depth, env, expanded)
    if name == "conhost":
        return _conhost(args, depth)
    if name == "runas":
        return _runas(args, depth)
    if name == "wt":
        return _wt(args, depth)
    if name == "start":
        line = " ".join(UNKNOWN if a is None else a for a in args)
        return analyse_cmd("start " + line, depth=depth, nested=analyse_program)
    if name in _INLINE_CODE:
        return _inline_code(name, args)
    if name in _LINUX_SHELLS and None in args:
        # `bash -c $cmd`, `wsl $cmd`: a Linux command line that is not constant (like `cmd /c $c`).
        return Analysis(dynamic=(f"{name} runs a command line that is not constant",))
    if name in _LINUX_SHELLS or name in DISTRO_LAUNCHERS:
        # `bash -c $env:P`, `wsl $env:P`: PowerShell put the variable's value into the command line (S-RULE-219).
        injected = _first_injected([a or "" for a in args], expanded)
        if injected is not None:
            return Analysis(dynamic=(_runs_a_variable(name, injected),))
        # `wsl -- python3 -c "…"`: code on an interpreter's command line inside Linux is as unread as on Windows.
        commands = linux_commands(name, tuple(args))
        if any(c[0] is None for c in commands):  # nested deeper than the effects are read: never a silent pass
            return Analysis(dynamic=(f"{name} runs a Linux command line nested deeper than the gateway reads",))
        inline = [a for a in (_inline_code(program_name(c[0] or ""), c[1:]) for c in commands) if a.dynamic]
        if inline:
            return _merge(*inline)
    starter = _STARTERS.get(name)
    return starter(args, depth) if starter is not None else Analysis()


def _launched_from(program: str, cwd: object) -> str:
    """The program as started: a name or relative path is looked for in `cwd` too (a share's, say)."""
    written = program.strip().strip('"')
    if isinstance(cwd, str) and cwd.strip() and not ntpath.isabs(written) and not ntpath.splitdrive(written)[0]:
        return ntpath.join(cwd.strip().strip('"'), written)
    return written


def _app(args: Mapping[str, object]) -> Analysis | None:
    if mode_of(args, "launch") not in ("launch", "launch_executable"):
        return None
    executable, name = args.get("executable"), args.get("name")
    if isinstance(executable, str) and executable.strip():
        program = executable
    elif isinstance(name, str) and name.strip():
        program = _START_MENU_NAMES.get(" ".join(name.lower().split()), name)
    else:
        return Analysis()
    given = args.get("args")
    argv = app_arguments(given)
    # A plain string that is no JSON list is a command line; an item of a list is one argument
    # (`"C:\…\User Data\Default\Login Data"` stays one path). PowerShell and cmd re-read their own.
    if len(argv) == 1 and any(c in argv[0] for c in _BLANKS) and isinstance(given, str) and argv[0] == given:
        argv = split_command_line(argv[0], first_is_program=False)
    own = Operation(shell="program", name=program_name(program), args=tuple(argv), text=_text(program, argv))
    ops: tuple[Operation, ...] = (own,)
    where = _launched_from(program, args.get("cwd"))
    if where[:2] in UNC_STARTS:  # started from another machine's share (ops.py `<run>`)
        ops = (Operation(shell="program", name=RUN_PATH, args=(where,), text=own.text), own)
    return _merge(Analysis(operations=ops), analyse_program(program, argv, 1))


def analyse_tool(tool: str, args: Mapping[str, object]) -> Analysis | None:
    """The analysis of a tool call that carries a command, or None for a tool that carries none.

    Args:
        tool: upstream's tool name (`PowerShell`, `App`, …).
        args: the call's arguments with upstream's real names (`command`; App's `mode`,
            `name`, `executable`, `args`).

    Returns:
        For `PowerShell`, the analysis of `command`; for App `launch`/`launch_executable`,
        the launched program's operation plus what it runs; None for any other tool or mode.
    """
    if tool == "PowerShell":
        command = args.get("command")
        if not isinstance(command, str):
            return Analysis(failed="PowerShell command is not text")
        analysis = with_default_parameters(command, analyse_powershell(command, nested=analyse_program))
        return _scripts_written_then_run(_code_it_cannot_read(_wmi_process_create(analysis)))
    if tool == "App":
        return _app(args)
    if tool == "FileSystem":
        return _written_script(args)
    return None


_WMI_METHOD_CALLS = {
    "invoke-wmimethod": ("class", "name", "argumentlist"),
    # `-Arguments @{CommandLine=…}`: the hashtable's entry, recorded by the walker (ps_command, S-RULE-45).
    "invoke-cimmethod": ("classname", "methodname", "arguments.commandline"),
}


def _wmi_process_create(analysis: Analysis) -> Analysis:
    """`Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList 'cmd /c …'` (and the CIM
    spelling) starts the command line it is given, as `[wmiclass]'Win32_Process'.Create(…)` does:
    it is read through; a Create whose class or command line is not known is dynamic."""
    parts: list[Analysis] = [analysis]
    for op in analysis.operations:
        names = _WMI_METHOD_CALLS.get(op.name) if op.shell == "powershell" else None
        if names is None:
            continue
        bound = dict(op.params)
        positional = list(op.args)
        wmi_class = bound.get(names[0], positional.pop(0) if positional and names[0] not in bound else None)
        method_given = names[1] in bound or bool(positional)
        method = bound.get(names[1], positional.pop(0) if positional and names[1] not in bound else None)
        if wmi_class is not None and not wmi_class.lower().endswith("win32_process"):
            continue  # another class's Create (a share, a service: judged by its own rules)
        if method is None and method_given:
            parts.append(Analysis(dynamic=(f"'{op.text}' calls a Win32_Process method whose name is not constant",)))
            continue
        if (method or "").lower() != "create":
            continue
        line = bound.get(names[2], positional[0] if positional and names[2] not in bound else None)
        if wmi_class is None or line is None:
            parts.append(Analysis(dynamic=(f"'{op.text}' creates a process whose command line is not constant",)))
        elif (injected := injected_variable(line)) is not None:  # `… Create $env:P` (S-RULE-219)
            parts.append(Analysis(dynamic=(_runs_a_variable("Win32_Process Create", injected),)))
        else:
            parts.append(_command_line(line, op.depth + 1))
    return analysis if len(parts) == 1 else _merge(*parts)


# Methods that run a command line on an object the analyser could not type (`[Activator]::CreateInstance(
# [Type]::GetTypeFromProgID('WScript.Shell')).Run(…)`): the line is read through, whatever the object.
_UNTYPED_RUNNERS = frozenset({"?.run", "?.exec", "?.create"})  # `.Create(line)`: Win32_Process's (S-RULE-50)
# Methods that start a program with arguments on an object the analyser could not type (S-RULE-50): the
# Shell.Application/ShellWindows `ShellExecute(file, args, …)` and MMC20.Application's
# `ExecuteShellCommand(file, folder, args, state)`, as (where the program is, where its arguments are).
_UNTYPED_STARTERS = {"?.shellexecute": (0, 1), "?.executeshellcommand": (0, 2)}
_ADD_TYPE_SOURCES = frozenset({"typedefinition", "memberdefinition"})
# COM methods that run code the gateway does not read (S-RULE-163): an Office application's `Run` of a document's
# macro and Excel's `RegisterXLL` (an add-in is a DLL), the Script Control's VBScript or JScript.
_OFFICE_APPS = ("excel", "word", "powerpoint", "outlook", "access", "msaccess", "visio", "publisher")
_COM_CODE_RUNNERS: dict[str, str] = {
    **{f"com:{app}.application.run": f"runs a macro of a {app.capitalize()} document" for app in _OFFICE_APPS},
    "com:excel.application.registerxll": "loads an Excel add-in, a DLL",
    **{
        f"com:{progid}.{m}": "runs VBScript or JScript code"
        for progid in ("msscriptcontrol.scriptcontrol", "msscriptcontrol.scriptcontrol.1", "scriptcontrol")
        for m in ("executestatement", "eval", "addcode", "run", "addobject")
    },
    # JScript .NET's evaluator, the same code from a .NET call (`[Microsoft.JScript.Eval]::JScriptEvaluate`).
    "microsoft.jscript.eval::jscriptevaluate": "runs JScript code",
}
# Excel 4.0 macro functions: `EXEC("command line")` runs it; the others call into DLLs or change what Excel runs.
_XLM_EXEC = re.compile(r'^\s*=?\s*EXEC\(\s*"((?:[^"]|"")*)"\s*(?:,[^)]*)?\)\s*$', re.IGNORECASE)


def _code_it_cannot_read(analysis: Analysis) -> Analysis:
    """C# compiled on the spot (`Add-Type -TypeDefinition`/`-MemberDefinition`/a source argument) and an
    assembly loaded from bytes (`[Reflection.Assembly]::Load`) are code the gateway cannot read:
    dynamic. A command line handed to `.Run`/`.Exec` of an untyped object is read through."""
    parts: list[Analysis] = [analysis]
    for op in analysis.operations:
        if op.shell == "powershell" and op.name == "add-type":
            named = {k for k, _ in op.params}
            if named & _ADD_TYPE_SOURCES or (op.args and not named & {"assemblyname", "path", "literalpath"}):
                parts.append(Analysis(dynamic=(f"'{op.text}' compiles C# code, which the gateway cannot read",)))
        elif op.shell == "dotnet" and op.name == "system.reflection.assembly::load":
            parts.append(Analysis(dynamic=(f"'{op.text}' loads code from bytes the gateway cannot read",)))
        elif op.shell in ("dotnet", "com") and op.name in _UNTYPED_RUNNERS and op.args:
            parts.append(_command_line(op.args[0], op.depth + 1))
        elif op.shell in ("dotnet", "com") and op.name in _COM_CODE_RUNNERS:
            what = _COM_CODE_RUNNERS[op.name]
            parts.append(Analysis(dynamic=(f"'{op.text}' {what}, which the gateway does not read",)))
        elif op.shell in ("dotnet", "com") and op.name.endswith(".executeexcel4macro"):
            # `$excel.ExecuteExcel4Macro('EXEC("cmd /c …")')`: the command line is read through; any other
            # Excel 4.0 macro (`CALL`, `REGISTER`: into a DLL) is code the gateway does not read.
            found = _XLM_EXEC.match(op.args[0] or "") if op.args else None
            if found is not None:
                parts.append(_command_line(found.group(1).replace('""', '"'), op.depth + 1))
            else:
                parts.append(
                    Analysis(dynamic=(f"'{op.text}' runs an Excel 4.0 macro, which the gateway does not read",))
                )
        elif op.shell in ("dotnet", "com") and op.name in _UNTYPED_STARTERS and op.args:
            where, given = _UNTYPED_STARTERS[op.name]
            arguments = op.args[given] if given < len(op.args) else ""
            argv: tuple[Value, ...] = (None,) if arguments is None else ()
            if arguments:
                argv = tuple(split_command_line(arguments, first_is_program=False))
            parts.append(_inner(op.args[where], argv, op.depth + 1))
    return analysis if len(parts) == 1 else _merge(*parts)


# What writes a file with its content in the call (`Set-Content x.bat 'rd …'`): (path slot, content slot),
# each a parameter name or a positional index.
_FILE_WRITERS: dict[str, tuple[tuple[str, int], tuple[str, int]]] = {
    "set-content": (("path", 0), ("value", 1)),
    "add-content": (("path", 0), ("value", 1)),
    "new-item": (("path", 0), ("value", 1)),
    "out-file": (("filepath", 0), ("inputobject", 99)),
    "system.io.file::writealltext": (("", 0), ("", 1)),
    "system.io.file::appendalltext": (("", 0), ("", 1)),
    "system.io.file::writealllines": (("", 0), ("", 1)),
    "system.io.file::appendalllines": (("", 0), ("", 1)),
}
_SCRIPT_SHELLS = {".bat": "cmd", ".cmd": "cmd", ".ps1": "powershell"}
# Other script files Windows runs by extension: their language is not read, so running one is dynamic.
_OTHER_SCRIPTS = frozenset({".vbs", ".vbe", ".js", ".jse", ".wsf", ".wsh", ".hta", ".py", ".psm1"})
_UNREAD_SCRIPTS = _OTHER_SCRIPTS - {".py"}
# What runs a file: a program operation (`& x.bat`, `x.bat`, `cmd /c x.bat`, `powershell -File x.ps1`),
# `Start-Process`, `Invoke-Item`, cmd's `start` and `call`.
_FILE_RUNNERS = frozenset({"start-process", "invoke-item", "start", "call"})


# Content that is one environment variable and nothing else (`$env:P`, `${env:P}`), as the analyser spells it.
_ONLY_A_VARIABLE = re.compile(r"\$(?:\{env:[^}]+\}|env:\w+)", re.IGNORECASE)


def _slot(op: Operation, where: tuple[str, int]) -> Value:
    name, index = where
    for key, value in op.params:
        if name and key == name:
            return value
    return op.args[index] if index < len(op.args) else None


def _content(op: Operation, where: tuple[str, int]) -> Value:
    """What a writer puts in its file: each item of `-Value a, b` on a line of its own, as `Set-Content` writes
    an array (S-RULE-129); a positional array arrives joined with `,` (`ps_command._one_argument`) and is
    read both ways by `_readings`."""
    name, index = where
    named = [value for key, value in op.params if name and key == name]
    if named:
        return None if None in named else "\n".join(value or "" for value in named)
    return op.args[index] if index < len(op.args) else None


def _written_scripts(ops: Sequence[Operation], suffixes: frozenset[str] | None = None) -> dict[str, tuple[int, Value]]:
    """Script files the call writes (by base name, lower case): where, and with what content; with `suffixes`,
    the files with those extensions instead."""
    found: dict[str, tuple[int, Value]] = {}
    for i, path, content in written_with_content(ops):
        base = ntpath.basename(path.strip("'\" ").replace("/", "\\")).lower()
        suffix = ntpath.splitext(base)[1]
        if suffix in _SCRIPT_SHELLS or suffix in _OTHER_SCRIPTS if suffixes is None else suffix in suffixes:
            found[base] = (i, content)
    return found


def written_with_content(ops: Sequence[Operation]) -> list[tuple[int, str, Value]]:
    """Every file the call writes with a writer whose content it reads (`Set-Content`, `>`,
    `[IO.File]::WriteAllText` …), in order: (index of the writing operation, path as written, content or None)."""
    if not any(op.name in _FILE_WRITERS or op.name == "<redirect>" for op in ops):
        return []  # the common case, answered without a pass per operation
    found: list[tuple[int, str, Value]] = []
    for i, op in enumerate(ops):
        if op.name == "<redirect>" and op.args:
            path, content = op.args[0], _echoed(ops, i)
        else:
            slots = _FILE_WRITERS.get(op.name)
            if slots is None or op.shell not in ("powershell", "dotnet"):
                continue
            path, content = _slot(op, slots[0]), _content(op, slots[1])
            if op.name == "new-item" and not op.has("value") and len(op.args) < 2 and op.input_from is None:
                content = ""  # `New-Item x` with no value, none piped in, makes an empty file
        if content is not None and op.shell in ("powershell", "dotnet") and _ONLY_A_VARIABLE.fullmatch(content.strip()):
            # `Set-Content run.ps1 $env:P`: the analyser keeps the variable's spelling, but what is written is its
            # value, which an earlier command may have set to anything: content nobody read (S-RULE-219).
            content = None if injected_variable(content) is not None else content
        if path is not None:
            found.append((i, path, content))
    return found


def written_files(ops: Sequence[Operation], suffixes: frozenset[str]) -> dict[str, tuple[int, Value]]:
    """Files with one of `suffixes` (`.reg`) that the call writes with a writer it reads (`Set-Content`, `>`,
    `[IO.File]::WriteAllText` …): base name (lower case) → (index of the writing operation, content or None)."""
    return _written_scripts(ops, suffixes)


def script_shell(path: object) -> str | None:
    """The language a script at `path` is read in: `cmd` (`.bat`, `.cmd`), `powershell` (`.ps1`), else None.
    Windows drops a name's trailing dots and spaces, so `x.ps1.` is `x.ps1`."""
    suffix = _suffix(path)
    return None if suffix is None else _SCRIPT_SHELLS.get(suffix)


def runs_unread(path: object) -> bool:
    """Whether `path` is a script Windows runs in a language the gateway does not read (`.vbs`, `.js`, `.hta`,
    `.wsf`, a `.psm1` module; S-RULE-114). Python files are left out: a `.py` runs only when named to python."""
    return _suffix(path) in _UNREAD_SCRIPTS


# A file's main data stream named explicitly (`x.ps1::$DATA`) is the file itself.
_MAIN_STREAM = re.compile(r"::?\$data$", re.IGNORECASE)


def _suffix(path: object) -> str | None:
    if not isinstance(path, str):
        return None
    name = _MAIN_STREAM.sub("", path.strip().strip("'\"")).rstrip(". ").lower()
    return ntpath.splitext(name)[1]


def judged_script_writes(ops: Sequence[Operation]) -> frozenset[int]:
    """The operations that write a script the gateway reads, with constant content: it is judged as it is
    written (`_scripts_written_then_run`). `New-Item x.ps1` with no value and nothing piped in (its `-Value` takes
    the pipeline: `'…' | New-Item x.ps1` writes it) makes an empty one."""
    judged = {at for base, (at, content) in _written_scripts(ops).items() if content is not None and script_shell(base)}
    for at, op in enumerate(ops):
        empty = op.input_from is None and len(op.args) < 2 and not any(key == "value" for key, _ in op.params)
        if op.name == "new-item" and empty:
            judged.add(at)
    return frozenset(judged)


def _echoed(ops: Sequence[Operation], at: int) -> Value:
    """The text a redirection at `ops[at]` writes, when an echo beside it prints constant text: cmd emits
    `echo` before its `>`, PowerShell its `>` before the command (`echo x > f.bat`); else None (unknown)."""
    redirect = ops[at]
    if redirect.shell == "cmd" and at > 0 and ops[at - 1].shell == "cmd" and ops[at - 1].name == "echo":
        source = ops[at - 1]
    elif redirect.shell == "powershell" and at + 1 < len(ops) and ops[at + 1].name == "write-output":
        source = ops[at + 1]
    else:
        return None
    if source.depth != redirect.depth or None in source.args:
        return None
    # cmd's echo prints the rest of its line; PowerShell's Write-Output prints each argument on a line of its
    # own (`echo 'x' 'rd /s /q C:\Windows' > x.bat` writes two lines, S-RULE-129).
    joiner = " " if source.shell == "cmd" else "\n"
    return joiner.join(a for a in source.args if a is not None).strip()


def _runs(op: Operation, base: str) -> bool:
    if not (op.shell == "program" or op.name in _FILE_RUNNERS):
        return False
    # The base name anywhere in what it runs: a loose match errs towards reading the script.
    words = [op.text, *(v for _, v in op.params if v), *(a for a in op.args if a)]
    return any(base in w.lower() for w in words)


def _scripts_written_then_run(analysis: Analysis) -> Analysis:
    """A script written by this very command and then run (`Set-Content x.bat 'rd /s /q C:\\x'; & x.bat`) is
    judged by its content, read as cmd (`.bat`, `.cmd`) or PowerShell (`.ps1`); content that is not
    constant, or a script in a language the gateway does not read (`.vbs`, `.js`, `.py` …), is dynamic."""
    ops = analysis.operations
    written = _written_scripts(ops)
    parts: list[Analysis] = [analysis]
    for base, (at, content) in written.items():
        run = next((op for op in ops[at + 1 :] if _runs(op, base)), None)
        shell = _SCRIPT_SHELLS.get(ntpath.splitext(base)[1])
        if run is not None and (content is None or shell is None):
            why = f"'{run.text}' runs the script {base} written just before, which the gateway cannot read"
            parts.append(Analysis(dynamic=(why,)))
        elif content is not None and shell is not None:
            # Judged when written, run here or not: a later call may run it (`script_content`).
            parts += [script_content(shell, text, ops[at].depth + 1) for text in _readings(ops[at], content)]
    return analysis if len(parts) == 1 else _merge(*parts)


def _readings(writer: Operation, content: str) -> tuple[str, ...]:
    """The texts a writer's content may be (S-RULE-129): a cmdlet given a positional array (`Set-Content x.bat
    'x','rd /s /q C:\\Windows'`) writes each item on a line, but the array arrives joined with `,` like a string
    holding a comma; both are judged, the worse answer standing."""
    if writer.name == "<redirect>" and writer.shell == "powershell" and "\n" in content:
        # `echo rd /s /q C:\\x > x.bat` writes `rd`, `/s`, … on lines of their own; the one-line reading, the
        # command its author meant, is judged too (erring towards judging what was written to run).
        return (content.replace("\n", " "), content)
    if writer.shell == "powershell" and "," in content and not writer.params:
        return (content, content.replace(",", "\n"))
    return (content,)


def script_content(shell: str, content: str, depth: int = 1) -> Analysis:
    """What a script file does when it runs: its text read as cmd (`.bat`, `.cmd`) or PowerShell (`.ps1`)."""
    if shell == "cmd":
        return analyse_cmd(content, depth=depth, nested=analyse_program)
    return analyse_powershell(content, depth=depth, nested=analyse_program)


def _written_script(args: Mapping[str, object]) -> Analysis | None:
    """FileSystem `write` of a `.bat`, `.cmd` or `.ps1` with its content: judged as the script it is, so
    a script planted by one call is not run unjudged by the next (a `.vbs`/`.js` is not read)."""
    path, content = args.get("path"), args.get("content")
    if mode_of(args, "") != "write" or not isinstance(path, str) or not isinstance(content, str):
        return None
    shell = script_shell(path)
    return script_content(shell, content) if shell is not None else None
