"""Process effects (issue 18): killing, starting programs, downloading and running code.

Kills name their target as the process name as written (`lsass.exe`) or `pid:N`; a name that
is nothing but wildcards is `KILL_ALL`. `EXECUTE` names the program or file started (the judge
decides; starting a plain app is fine). Single-command download-and-run LOLBins (`mshta http…`,
`regsvr32 /i:http… scrobj.dll`, `rundll32 javascript:`, `msiexec /i http…`, `certutil -urlcache`,
`bitsadmin /transfer`) are `DOWNLOAD_EXECUTE` here; a download and a run in separate
commands of one analysis are joined by `effects_pipeline`.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Mapping

from policy.rules.effects_common import (
    Effects,
    Handler,
    argv_of,
    bind,
    display,
    effect,
    first,
    is_on,
    lower,
    matches_everything,
    program_stem,
    python_module,
    split_command_line,
    targets,
    unquote,
)
from policy.rules.effects_downloads import download_writes, saved_in
from policy.rules.effects_linux import DISTRO_LAUNCHERS, UNIX_TOOLS, linux_effects, unix_tool_effects, unregistered
from policy.rules.effects_packages import PYTHON_MANAGERS, package_sources
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

K = EffectKind

_REMOTE = re.compile(r"^(?:https?|ftp)://|^\\\\[^\\]", re.IGNORECASE)
_SCRIPT_URL = re.compile(r"^(?:https?:|ftp:|javascript:|vbscript:|about:)", re.IGNORECASE)


def _kill(target: Value, forced: bool, detail: str) -> Effect:
    if matches_everything(target):
        return effect(K.KILL_ALL, None, detail + " (every process)")
    return effect(K.KILL_FORCED if forced else K.KILL, target, detail)


# ---------------------------------------------------------------------------------------
# Kills


def _stop_process(op: Operation) -> Effects:
    bound = bind(op, ("id",))
    forced = is_on(bound, "force")
    detail = "Stop-Process -Force" if forced else "Stop-Process"
    found: list[Value] = list(targets(bound, "name"))
    for pid in targets(bound, "id"):
        # `Stop-Process notepad` binds to -Id and fails; read it as the name it was meant to be.
        found.append(f"pid:{unquote(pid)}" if pid is not None and unquote(pid).isdigit() else pid)
    if not found:
        found = [None]  # -InputObject or pipeline input: `pipeline_effects` names them
    return tuple(_kill(t, forced, detail) for t in found)


def _filter_target(expression: Value) -> tuple[bool, Value]:
    """(`known`, target) of a `taskkill /fi` filter: `imagename eq x` → x, `pid eq 4` → pid:4."""
    match = re.fullmatch(r"\s*(imagename|pid)\s+eq\s+(\S+)\s*", lower(expression))
    if match is None:
        return False, None
    return True, (f"pid:{match.group(2)}" if match.group(1) == "pid" else unquote(expression).split()[-1])


# Filters that select by state or resource use, or by exclusion: the set they match holds
# Windows' own processes too (`/fi "STATUS eq RUNNING"` is nearly every process). A user or a
# session filter stays a filtered kill: it ends one person's programs, which a person may approve.
_BROAD_FILTER = re.compile(
    r"\s*(?:status\s+(?:eq\s+(?:running|unknown)|ne\b)|imagename\s+ne\b"
    r"|pid\s+(?:ne|gt|ge|lt|le)\b|memusage\s+(?:gt|ge|ne)\b|cputime\s+(?:gt|ge|ne)\b)",
    re.IGNORECASE,
)


def _broad(filters: list[Value]) -> bool:
    """Whether every `/fi` filter of a taskkill is broad (they AND together: one narrow one narrows)."""
    return bool(filters) and all(f is not None and _BROAD_FILTER.match(unquote(f)) for f in filters)


def _taskkill(op: Operation) -> Effects:
    argv = argv_of(op)
    forced = argv.flag("f")
    detail = "taskkill /f" if forced else "taskkill"
    detail += " /t" if argv.flag("t") else ""
    filters = argv.values("fi")
    images = argv.values("im")
    if _broad(filters) and (not images or all(matches_everything(i) for i in images)) and not argv.values("pid"):
        return (effect(K.KILL_ALL, None, f"{detail} /fi {unquote(filters[0])}"),)
    out: list[Effect] = []
    for image in images:
        if matches_everything(image) and filters:
            out.append(effect(K.KILL_FORCED if forced else K.KILL, None, detail + " /im * /fi (filtered)"))
        else:
            out.append(_kill(image, forced, detail))
    out += [_kill(f"pid:{unquote(p)}" if p is not None else None, forced, detail) for p in argv.values("pid")]
    if not out:
        for expression in filters or [None]:
            known, target = _filter_target(expression)
            out.append(_kill(target, forced, detail + ("" if known else " /fi (filtered)")))
    return tuple(out)


def _pssuspend(op: Operation) -> Effects:
    # Sysinternals' `pssuspend` freezes a process until it is resumed (`-r`): lsass frozen hangs every sign-in, a
    # security tool frozen stops watching, the gateway frozen holds every call (S-RULE-200). Judged as its kill.
    argv = argv_of(op)
    if argv.flag("r"):
        return ()
    words = [w for w in argv.positionals(("u", "p")) if not unquote(w).startswith("\\\\")]
    target = words[0] if words else None
    if target is not None and unquote(target).isdigit():
        target = f"pid:{unquote(target)}"
    return (_kill(target, False, "pssuspend"),)


def _tskill(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    target = words[0] if words else None
    if target is not None and unquote(target).isdigit():
        target = f"pid:{unquote(target)}"
    return (_kill(target, op.name == "pskill", op.name),)


# ---------------------------------------------------------------------------------------
# Starting programs


def _start_process(op: Operation) -> Effects:
    bound = bind(op, ("filepath", "argumentlist"))
    elevated = lower(first(bound, "verb")) == "runas"
    arguments = first(bound, "argumentlist")
    extra = (("args", arguments),) if arguments else ()
    detail = "Start-Process -Verb RunAs" if elevated else "Start-Process"
    return (effect(K.EXECUTE, first(bound, "filepath"), detail, extra=extra),)


def _execute_paths(positional: tuple[str, ...], *names: str) -> Handler:
    def handle(op: Operation) -> Effects:
        bound = bind(op, positional)
        return tuple(effect(K.EXECUTE, p, display(op.name)) for p in targets(bound, *names))

    return handle


def _import_module(op: Operation) -> Effects:
    bound = bind(op, ("name",))
    return tuple(
        effect(K.EXECUTE, p, "Import-Module (file)")
        for p in targets(bound, "name")
        if p is None or "\\" in p or "/" in p or lower(p).endswith((".ps1", ".psm1", ".dll"))
    )


_START_VALUED = ("d", "affinity", "node")


def cmd_start_words(op: Operation) -> list[Value]:
    """The program and its arguments that cmd's `start` runs (its title and options removed).

    Args:
        op: a cmd `start` operation.

    Returns:
        The words from the program on; `[]` when it names none.
    """
    words = argv_of(op).positionals(_START_VALUED)
    # `start "title" prog`: a first empty (or quoted) word is the window title.
    if len(words) > 1 and (words[0] == "" or (words[0] is not None and " " in words[0] and "\\" not in words[0])):
        words = words[1:]
    return words


def _cmd_start(op: Operation) -> Effects:
    words = cmd_start_words(op)
    return (effect(K.EXECUTE, words[0] if words else None, "start"),)


_FILE_LIKE = re.compile(
    r"[\\/]|\.(?:exe|com|bat|cmd|ps1|vbs|vbe|js|jse|wsf|hta|msi|scr|lnk|dll|cpl|py)$", re.IGNORECASE
)


def _cmd_program(op: Operation) -> Effects:
    # `cmd /c x.bat`: the cmd parser analyses the command itself; the file it runs is the effect.
    words = list(argv_of(op).words)
    lowered = [lower(w) for w in words]
    for switch in ("/c", "/k", "/r"):
        if switch in lowered:
            rest = words[lowered.index(switch) + 1 :]
            if len(rest) == 1:
                rest = list(split_command_line(rest[0]))  # `cmd /c "x.bat arg"`
            program = None if not rest or rest[0] is None else unquote(rest[0])
            head, slash, _ = (program or "").partition("/")
            if slash and head and not head.endswith(":") and '"' not in (rest[0] or ""):
                program = head  # `cmd.exe/c …`: cmd ends a program's name at `/` (S-RULE-54)
            if program is not None and _FILE_LIKE.search(program):
                return (effect(K.EXECUTE, program, f"cmd {switch}"),)
    return ()


def _powershell_program(op: Operation) -> Effects:
    argv = argv_of(op)
    script = argv.value("file", "f")
    out = [effect(K.EXECUTE, script, f"{op.name} -File")] if argv.flag("file", "f") else []
    version = argv.value("version") if argv.flag("version") else None
    if version is not None and unquote(version).startswith("2"):
        # PowerShell 2.0 has no AMSI and no script block logging: started on purpose, it hides what runs (S-RULE-57).
        extra = (("command", f"{op.name} -Version 2"),)
        out.append(effect(K.SECURITY_WEAKENING, None, "amsi", extra=extra))
    return tuple(out)


def _script_host(op: Operation) -> Effects:
    words = [w for w in argv_of(op).words if w is None or not w.startswith("//")]
    script = next((w for w in words if w is None or not w.startswith(("/", "-"))), None)
    return (effect(K.EXECUTE, script, op.name),)


def _interpreter(op: Operation) -> Effects:
    argv = argv_of(op)
    name = ntpath.basename(lower(op.name)).removesuffix(".exe")
    if name in ("deno", "bun"):  # package managers too: `deno run https://…`, `bun add github:x/y` (S-RULE-166)
        fetched = package_sources(name, argv.words)
        if fetched:
            return fetched
    module = python_module(argv.words)
    if module is not None and module[0] in PYTHON_MANAGERS:  # `python -m pip install https://…`
        fetched = package_sources(*module)
        if fetched:
            return fetched
    if argv.flag("c", "e", "command", "eval", "m"):
        return (effect(K.EXECUTE, None, f"{op.name} inline code", extra=(("command", argv.text()),)),)
    words = argv.positionals()
    return (effect(K.EXECUTE, words[0] if words else op.name, op.name),)


def _unix_tool(tool: str) -> Handler:
    """`rm.exe`, `mv.exe`, `busybox rm` … started as Windows programs (S-RULE-138), by the tool's own name."""
    return lambda op: unix_tool_effects(tool, op.args)


def _linux_shell(op: Operation) -> Effects:
    ran = effect(K.EXECUTE, op.name, f"{op.name} command", extra=(("command", argv_of(op).text()),))
    return (ran, *linux_effects(op.name, op.args), *unregistered(op.name, op.args))


def _mshta(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    target = words[0] if words else None
    if target is not None and _SCRIPT_URL.match(unquote(target)):
        return (effect(K.DOWNLOAD_EXECUTE, target, "mshta URL or inline script"),)
    return (effect(K.EXECUTE, target, "mshta"),)


def _regsvr32(op: Operation) -> Effects:
    argv = argv_of(op)
    install = argv.value("i")
    if install is not None and _REMOTE.match(unquote(install)):
        return (effect(K.DOWNLOAD_EXECUTE, install, "regsvr32 /i:URL (scrobj.dll)"),)
    words = argv.positionals()
    return (effect(K.EXECUTE, words[0] if words else None, "regsvr32"),)


# msiexec's switches that take the package (`/jm` and `/ju` advertise it; `/f` repairs it, with any of its
# option letters) or a patch, which runs code as a package does (`/p`, `/update`), and those that take a log
# file (`/l` with its option letters, `/log`). A package may also stand alone.
_MSI_PACKAGE = re.compile(r"i|a|j[mu]?|x|f[pecdamusvo]*|y|package|uninstall|p|update")
_MSI_LOG = re.compile(r"l[iwearucmopvx+!*]*|log")


def _msiexec(op: Operation) -> Effects:
    argv = argv_of(op)
    flags = argv.flag_names()
    named = [f for f in flags if _MSI_PACKAGE.fullmatch(f)]
    loose = argv.positionals(takes_value=[*named, *(f for f in flags if _MSI_LOG.fullmatch(f))])
    packages = [*(argv.values(*named) if named else ()), *loose[:1]]
    remote = next((p for p in packages if p is not None and _REMOTE.match(unquote(p))), None)
    if remote is not None:
        return (effect(K.DOWNLOAD_EXECUTE, remote, "msiexec from URL"),)
    return (effect(K.EXECUTE, packages[0] if packages else None, "msiexec"),)


def _rundll32(op: Operation) -> Effects:
    words = [w for w in argv_of(op).words if w is not None]
    text = " ".join(w.lower() for w in words)
    dll = words[0].split(",", 1)[0].strip() if words else None
    base = ntpath.basename(lower(dll)).removesuffix(".dll")
    if "javascript:" in text or "vbscript:" in text:
        return (effect(K.DOWNLOAD_EXECUTE, None, "rundll32 javascript:"),)
    # comsvcs' MiniDump writes a process's memory (lsass: every logged-on password); it is reached by name
    # from any copy of the DLL, and by ordinal in spellings rundll32 reads alike (`#24`, `#0024`, `#+24`,
    # `#65560` wraps to 24): any ordinal of comsvcs counts.
    if re.search(r"\bminidumpw?\b", text) or (base == "comsvcs" and "#" in text):
        pid = next((w for w in words[1:] if w.strip().isdigit()), None)
        return (effect(K.CREDENTIAL_ACCESS, f"pid:{pid.strip()}" if pid else None, f"rundll32 {base}.dll MiniDump"),)
    if base in ("url", "ieframe", "shdocvw", "mshtml") and re.search(
        r"openurl|fileprotocolhandler|runhtmlapplication", text
    ):
        return (effect(K.DOWNLOAD_EXECUTE, words[-1] if len(words) > 1 else None, f"rundll32 {base}.dll"),)
    if base in ("advpack", "ieadvpack") and "delnoderundll32" in text and len(words) > 1:
        # `advpack.dll,DelNodeRunDLL32 <folder>[,flags]` deletes the folder and all it holds (S-RULE-157).
        folder = re.sub(r",\s*\d*\s*$", "", words[1])
        return (effect(K.DELETE_RECURSIVE, folder, f"rundll32 {base}.dll,DelNodeRunDLL32"),)
    if base == "dfshim" and "shopenverbapplication" in text:
        # ClickOnce fetches the application the URL names and runs it (S-RULE-157).
        return (effect(K.DOWNLOAD_EXECUTE, words[-1] if len(words) > 1 else None, "rundll32 dfshim.dll (ClickOnce)"),)
    if base == "shell32" and "control_rundll" in text and len(words) > 1:
        # `shell32.dll,Control_RunDLL x.cpl` is what `control x.cpl` runs: the Control Panel item's DLL (S-RULE-113).
        return (effect(K.EXECUTE, words[1].split(",", 1)[0].strip(), "rundll32 shell32.dll,Control_RunDLL"),)
    if base == "user32" and "lockworkstation" in text:
        return ()  # locking the screen is harmless
    if base in ("powrprof", "user32") and re.search(r"setsuspendstate|exitwindowsex", text):
        return (effect(K.POWER, None, f"rundll32 {base}.dll"),)
    return (effect(K.EXECUTE, dll, "rundll32"),)


_WEB_URL = re.compile(r"^(?:https?|ftp)://", re.IGNORECASE)


def _first_positional(op: Operation) -> Effects:
    """The program, file or DLL a launcher runs (its first word); one on the web is fetched and run (S-RULE-182:
    `hh http://…/x.chm` runs the help file's script, `msxsl x.xml http://…/x.xsl`, `ieexec http://…/x.exe`)."""
    words = argv_of(op).positionals()
    fetched = next((w for w in words if w is not None and _WEB_URL.match(unquote(w))), None)
    if fetched is not None:
        return (effect(K.DOWNLOAD_EXECUTE, fetched, f"{program_stem(op.name)} of an address"),)
    return (effect(K.EXECUTE, words[0] if words else None, op.name),)


def _forfiles(op: Operation) -> Effects:
    return (effect(K.EXECUTE, argv_of(op).value("c"), "forfiles /c"),)


# ---------------------------------------------------------------------------------------
# Downloads (writes here; joined with a run in `effects_pipeline`)


def _web_request(op: Operation) -> Effects:
    bound = bind(op, ("uri",))
    written = targets(bound, "outfile")
    out = [effect(K.WRITE, p, display(op.name) + " -OutFile") for p in written]
    # PowerShell 7.4+: an -OutFile that is a folder gets the file under the URL's name (S-RULE-148).
    for folder in written:
        out += saved_in(targets(bound, "uri"), folder, display(op.name) + " -OutFile into a folder")
    return tuple(out)


def _bits_transfer(op: Operation) -> Effects:
    bound = bind(op, ("source", "destination"))
    written = targets(bound, "destination")
    out = [effect(K.WRITE, p, "Start-BitsTransfer") for p in written]
    # A -Destination folder gets each file under its source's name (S-RULE-148).
    for folder in written:
        out += saved_in(targets(bound, "source"), folder, "Start-BitsTransfer into a folder")
    return tuple(out)


def _curl(op: Operation) -> Effects:
    return download_writes(ntpath.basename(lower(op.name)).removesuffix(".exe"), argv_of(op).words)


_TRUST_STORES = frozenset({"root", "authroot", "trustedpublisher", "trustedpeople"})  # effects_security.TRUST_STORES


def _certutil(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    if argv.flag("exportpfx"):  # a certificate with its private key written out
        return (effect(K.CREDENTIAL_ACCESS, None, "certutil -exportPFX"),)
    if argv.flag("urlcache", "verifyctl", "url"):
        url = next((w for w in words if w is None or _REMOTE.match(unquote(w))), None)
        out = [effect(K.DOWNLOAD_EXECUTE, url, "certutil -urlcache (LOLBin download)")]
        out += [effect(K.WRITE, w, "certutil download") for w in words if w is not url]
        return tuple(out)
    if argv.flag("delstore"):
        # `certutil -delstore root <id>`: a root every TLS connection and signature checks against is gone.
        store = words[0] if words else None
        if store is None or lower(store) in _TRUST_STORES:
            extra = (("command", "certutil -delstore"), ("setting", lower(store)))
            return (effect(K.SECURITY_WEAKENING, store, "certificate-store", extra=extra),)
    if argv.flag("addstore", "installcert"):
        # `certutil [-user] [-f] -addstore root x.cer`: the certificate becomes trusted (S-RULE-56).
        store = words[0] if words else None
        if store is None or lower(store) in _TRUST_STORES:
            extra = (("command", "certutil -addstore"), ("setting", lower(store)))
            return (effect(K.SECURITY_WEAKENING, store, "trusted-root", extra=extra),)
    if argv.flag("decode", "decodehex", "encode", "encodehex"):
        source = words[0] if words else None
        destination = words[1] if len(words) > 1 else None
        return (effect(K.READ, source, "certutil -decode"), effect(K.WRITE, destination, "certutil -decode output"))
    return ()


def _bitsadmin(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("setnotifycmdline"):
        words = argv.positionals()
        program = words[1] if len(words) > 1 else None
        return (
            effect(
                K.PERSISTENCE,
                words[0] if words else None,
                "bitsadmin /setnotifycmdline",
                extra=(("rule", "persistence-hijack"),),
            ),
            effect(K.EXECUTE, program, "bitsadmin /setnotifycmdline"),
        )
    if argv.flag("transfer", "addfile", "download"):
        words = argv.positionals(("priority",))
        url = next((w for w in words if w is None or _REMOTE.match(unquote(w))), None)
        destination = words[-1] if words and words[-1] is not url else None
        out = [effect(K.DOWNLOAD_EXECUTE, url, "bitsadmin /transfer (LOLBin download)")]
        if destination is not None:
            out.append(effect(K.WRITE, destination, "bitsadmin download"))
        return tuple(out)
    return ()


PROCESS_CMDLETS: Mapping[str, Handler] = {
    "stop-process": _stop_process,
    "start-process": _start_process,
    "invoke-item": _execute_paths(("path",), "path", "literalpath"),
    "invoke-command": _execute_paths((), "filepath"),
    "start-job": _execute_paths((), "filepath"),
    "import-module": _import_module,
    # `Add-Type -Path x.dll` loads the assembly into this PowerShell (S-RULE-113); `-TypeDefinition` is source.
    "add-type": _execute_paths((), "path", "literalpath"),
    "invoke-webrequest": _web_request,
    "invoke-restmethod": _web_request,
    "start-bitstransfer": _bits_transfer,
}

PROCESS_PROGRAMS: Mapping[str, Handler] = {
    "taskkill": _taskkill,
    "tskill": _tskill,
    "pskill": _tskill,
    "pskill64": _tskill,
    "pssuspend": _pssuspend,
    "pssuspend64": _pssuspend,
    "cmd": _cmd_program,
    "powershell": _powershell_program,
    "pwsh": _powershell_program,
    "wscript": _script_host,
    "cscript": _script_host,
    **dict.fromkeys(("python", "python3", "py", "pythonw", "node", "perl", "ruby", "php", "deno", "bun"), _interpreter),
    **dict.fromkeys(("wsl", "bash", "sh", "zsh", "dash", "wslhost", "wslconfig", *DISTRO_LAUNCHERS), _linux_shell),
    **{tool: _unix_tool(tool) for tool in (*UNIX_TOOLS, "busybox")},
    "mshta": _mshta,
    "regsvr32": _regsvr32,
    "msiexec": _msiexec,
    "rundll32": _rundll32,
    **dict.fromkeys(("installutil", "regasm", "regsvcs", "msbuild", "cmstp", "odbcconf", "ieexec"), _first_positional),
    **dict.fromkeys(("presentationhost", "msxsl", "hh", "pcalua", "scriptrunner", "mavinject"), _first_positional),
    # A Control Panel item (`.cpl`, a DLL) and a console file (`.msc`, which may hold script) run what they name.
    **dict.fromkeys(("control", "mmc"), _first_positional),
    "forfiles": _forfiles,
    "curl": _curl,
    "wget": _curl,
    "certutil": _certutil,
    "bitsadmin": _bitsadmin,
}

CMD_PROCESS: Mapping[str, Handler] = {"start": _cmd_start}


def _arg(op: Operation, index: int) -> Value:
    return op.args[index] if index < len(op.args) else None


def _shell_execute(op: Operation) -> Effects:
    elevated = lower(_arg(op, 3)) == "runas"
    extra = (("args", _arg(op, 1) or ""),) if _arg(op, 1) else ()
    return (
        effect(K.EXECUTE, _arg(op, 0), "Shell.Application ShellExecute" + (" runas" if elevated else ""), extra=extra),
    )


PROCESS_CALLS: Mapping[str, Handler] = {
    "diagnostics.process::start": lambda op: (effect(K.EXECUTE, _arg(op, 0), "[Diagnostics.Process]::Start"),),
    "net.webclient.downloadfile": lambda op: (effect(K.WRITE, _arg(op, 1), "WebClient.DownloadFile"),),
    "com:wscript.shell.run": lambda op: (effect(K.EXECUTE, _arg(op, 0), "WScript.Shell.Run"),),
    "com:wscript.shell.exec": lambda op: (effect(K.EXECUTE, _arg(op, 0), "WScript.Shell.Exec"),),
    "com:shell.application.shellexecute": _shell_execute,
}

# Method names that mean the same on any object.
PROCESS_METHODS: Mapping[str, Handler] = {
    # Process.Kill() is TerminateProcess: forced. Which process only `pipeline_effects` can say.
    "kill": lambda op: (effect(K.KILL_FORCED, None, ".Kill()"),),
    "downloadfile": lambda op: (effect(K.WRITE, _arg(op, 1), "WebClient.DownloadFile"),),
    "shellexecute": _shell_execute,
}
