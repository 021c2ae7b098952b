"""System effects (issue 18): accounts, credentials, persistence, logs, backups and disks, power.

Programs (`net`, `schtasks`, `vssadmin`, `wevtutil`, `procdump`, `cmdkey`, `wmic`, …), cmdlets
(`New-LocalUser`, `Register-ScheduledTask`, `Clear-EventLog`, `Format-Volume`, …) and a few
.NET calls. Disk and backup destruction says `"backups"` in its detail when backups go
(`bcdedit`'s `"boot"` is in `effects_security`). Security weakening is in `effects_security`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from policy.rules.effects_common import (
    RUNS_LATER,
    Effects,
    Handler,
    argv_of,
    bind,
    display,
    effect,
    first,
    is_on,
    lower,
    program_stem,
    strip_pair,
    targets,
    unquote,
)
from policy.rules.effects_file_calls import opens_for_writing
from policy.rules.effects_security import (
    SECURITY_SERVICES,
    TASKS_NOT_KNOWN,
    defender_wmi,
    encryptable_volume,
    opens_remote_access,
    security_task,
    service_name,
    weakening,
    wmi_service_change,
)
from policy.rules.processes import PROTECTED_PROCESSES
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value
from policy.rules.shell.winenv import unknown_variable

K = EffectKind
# The judge's hint (judge.py `_hint`): persistence that hides code behind the user's back is a hijack.
HIJACK = (("rule", "persistence-hijack"),)

# What a SECURITY_WEAKENING detail may name.
# ---------------------------------------------------------------------------------------
# Programs


def _net(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    verb = lower(words[0]) if words else ""
    changes = [w.lstrip("/-").split(":", 1)[0] for w in argv.lowered() if w[:1] in "/-" and w.lstrip("/-") != "domain"]
    name = words[1] if len(words) > 1 else None
    if verb == "user" and len(words) > 1 and (changes or len(words) > 2):
        what = f"net user /{changes[0]}" if changes else "net user (password)"
        return (effect(K.ACCOUNT_CHANGE, name, what),)
    if verb in ("localgroup", "group") and len(words) > 1 and any(c in ("add", "delete") for c in changes):
        members = tuple(("member", w or "") for w in words[2:])
        flag = "add" if "add" in changes else "delete"
        return (effect(K.ACCOUNT_CHANGE, name, f"net {verb} /{flag}", extra=members),)
    if verb == "time" and "set" in changes:  # the clock set from another machine's (S-RULE-215)
        return (weakening("system-clock", name, "net time /set"),)
    if verb == "accounts" and changes:
        return (effect(K.ACCOUNT_CHANGE, None, f"net accounts /{changes[0]}"),)
    if verb == "share" and name is not None and "=" in name and "delete" not in changes:
        # `net share data=C:\x /grant:everyone,full`: the folder reachable from the network (S-RULE-57)
        return (effect(K.NETWORK_CHANGE, name.partition("=")[2] or None, "net share"),)
    if verb == "start" and opens_remote_access(name):  # `net start sshd` (S-RULE-98)
        return (weakening("remote-access", name, "net start"),)
    if verb in ("stop", "pause") and service_name(name) in SECURITY_SERVICES:
        return (weakening(SECURITY_SERVICES[service_name(name)], name, f"net {verb}"),)
    return ()


def _schtasks(op: Operation) -> Effects:
    argv = argv_of(op)
    name = argv.value("tn")
    # A task that keeps a defence working deleted, disabled or given another program (S-RULE-145).
    what = security_task(None, name) if argv.flag("delete", "change") else None
    verb = "schtasks /" + next((v for v in ("delete", "change") if argv.flag(v)), "create")
    weakened = (weakening(what, name, verb, "task"),) if what is not None else ()
    if argv.flag("create", "change"):
        command = argv.value("tr")
        extra = (("command", command), (RUNS_LATER, command)) if command else ()
        return (effect(K.PERSISTENCE, name, verb, extra=extra), *weakened)
    if weakened:
        return weakened
    if argv.flag("run"):
        return (effect(K.EXECUTE, name, "schtasks /run"),)
    return ()


def _mofcomp(op: Operation) -> Effects:
    """`mofcomp x.mof` registers the WMI classes and instances a file defines, the classic permanent event
    subscription among them (a command run at every matching event), which the gateway does not read."""
    argv = argv_of(op)
    if argv.flag("check"):  # a syntax check registers nothing
        return ()
    files = [w for w in argv.positionals() if not (w or "").startswith(("-", "/"))]
    return (effect(K.PERSISTENCE, None, "mofcomp (WMI classes and event subscriptions from a file)"),) if files else ()


def _at(op: Operation) -> Effects:
    words = list(op.args)
    at = next(
        (i for i, w in enumerate(words) if w is not None and re.fullmatch(r"\d{1,2}:\d{2}(?::\d{2})?", w.strip())), None
    )
    if at is None:
        return ()
    job = words[at + 1 :]  # the command line, after the time and at's own switches (/interactive, /every:, /next:)
    while job and job[0] is not None and re.match(r"/(?:interactive|every:|next:)", job[0], re.IGNORECASE):
        job = job[1:]
    later = ((RUNS_LATER, " ".join(w for w in job if w is not None)),) if job and None not in job else ()
    return (effect(K.PERSISTENCE, None, "at (scheduled job)", extra=later),)


def _vssadmin(op: Operation) -> Effects:
    text = argv_of(op).text()
    if re.search(r"\bdelete shadows\b|\bresize shadowstorage\b", text):
        return (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "vssadmin " + text),)),)
    return ()


def _wbadmin(op: Operation) -> Effects:
    text = argv_of(op).text()
    if re.search(r"\bdelete (?:catalog|systemstatebackup|backup)\b|\bdisable backup\b", text):
        return (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "wbadmin " + text),)),)
    return ()


def _reagentc(op: Operation) -> Effects:
    return (
        (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "reagentc /disable"),)),)
        if argv_of(op).flag("disable")
        else ()
    )


def _diskshadow(op: Operation) -> Effects:
    """`diskshadow … delete shadows` deletes backups; `diskshadow /s script` runs shadow-copy commands from a file
    nobody read: it may delete every backup or expose one to copy `ntds.dit` or the SAM from (S-RULE-117)."""
    argv = argv_of(op)
    if "delete" in argv.text():
        return (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "diskshadow delete"),)),)
    if argv.flag("s"):
        return (effect(K.DELETE, None, "diskshadow script (it may delete or expose shadow copies)"),)
    return ()


def _wevtutil(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.positionals()
    verb = lower(words[0]) if words else ""
    log = words[1] if len(words) > 1 else None
    if verb in ("cl", "clear-log"):
        return (effect(K.LOG_CLEAR, log, "wevtutil cl"),)
    if verb in ("sl", "set-log"):
        if lower(argv.value("e", "enabled")) in ("false", "0", "no"):
            # Switching a log off keeps what it holds but records nothing more: a weakening, not a clearing.
            return (weakening("event-log", log, "wevtutil sl /e:false (log disabled)"),)
        size = argv.value("ms", "maxsize")
        if size is not None and size.strip().isdigit() and int(size) < TINY_LOG_BYTES:
            return (effect(K.LOG_CLEAR, log, "wevtutil sl /ms (log shrunk)"),)
    return ()


# A log capped below this holds minutes of events: shrinking it is clearing it slowly.
# 1 MiB is the smallest size the Event Viewer offers for the Security log in practice (default 20 MiB).
TINY_LOG_BYTES = 1 << 20


_POWER_FLAGS = ("s", "r", "l", "h", "p", "g", "sg", "hybrid")


def _shutdown(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("a", "?"):
        return ()
    flags = [f for f in _POWER_FLAGS if argv.flag(f)]
    return (effect(K.POWER, argv.value("m"), f"shutdown /{flags[0]}"),) if flags else ()


def _credential_tool(op: Operation) -> Effects:
    return (effect(K.CREDENTIAL_ACCESS, None, op.name),)


def _cmdkey(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("list"):
        return (effect(K.CREDENTIAL_ACCESS, argv.value("list"), "cmdkey /list"),)
    if argv.flag("add", "generic", "delete"):
        flag = next(f for f in ("add", "generic", "delete") if argv.flag(f))
        return (effect(K.ACCOUNT_CHANGE, argv.value(flag), f"cmdkey /{flag}"),)
    return ()


def _vaultcmd(op: Operation) -> Effects:
    words = argv_of(op).lowered()
    if any(w.startswith(("/list", "-list")) for w in words):
        return (effect(K.CREDENTIAL_ACCESS, None, "vaultcmd /list"),)
    if any(w.startswith(("/addcreds", "/deletecreds")) for w in words):
        return (effect(K.ACCOUNT_CHANGE, None, "vaultcmd /addcreds"),)
    return ()


def _process_dump(op: Operation) -> Effects:
    # procdump [-ma|-mp] <name|pid> [file]: a full dump of lsass (or of a pid, which may be lsass) is its secrets.
    argv = argv_of(op)
    words = [w for w in argv.positionals(("n", "s", "c", "m", "p", "w")) if w is None or not w.lower().endswith(".dmp")]
    dumps = [w for w in argv.positionals() if w is not None and w.lower().endswith(".dmp")]
    process = words[0] if words else None
    name = lower(process).removesuffix(".exe")
    out: list[Effect] = [effect(K.WRITE, d, f"{op.name} dump file") for d in dumps]
    if process is None or name in ("lsass", "lsaiso") or name.isdigit():
        target = f"pid:{name}" if name.isdigit() else process
        out.insert(0, effect(K.CREDENTIAL_ACCESS, target, f"{op.name} (process memory dump)"))
    return tuple(out)


def _debugger(op: Operation) -> Effects:
    """`ntsd`/`cdb`/`windbg -pn <name>` or `-p <pid>`: a debugger attached to a process reads its memory (lsass:
    its secrets), and quitting it (`-c q`) ends the process."""
    argv = argv_of(op)
    name, pid = argv.value("pn"), argv.value("p")
    if name is None and pid is None and not argv.flag("pn", "p"):
        return ()
    process = name if name is not None else (None if pid is None else f"pid:{lower(pid)}")
    stem = lower(name).removesuffix(".exe") if name is not None else ""
    out = [effect(K.KILL_FORCED, process if process is not None else None, f"{op.name} (debugger: ends it on quit)")]
    # A process named through a variable with no standard value may be lsass (S-RULE-122).
    anyone = name is not None and unknown_variable(op.shell, name) is not None
    if process is None or stem in ("lsass", "lsaiso") or pid is not None or anyone:
        out.insert(0, effect(K.CREDENTIAL_ACCESS, process, f"{op.name} (debugger attached to the process)"))
    return tuple(out)


def _ntrights(op: Operation) -> Effects:
    return (effect(K.ACCOUNT_CHANGE, argv_of(op).value("u"), "ntrights (privilege)"),)


def _secedit(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("configure", "import"):
        return (effect(K.ACCOUNT_CHANGE, None, "secedit /configure (security policy)"),)
    if argv.flag("export"):
        return (effect(K.WRITE, argv.value("cfg"), "secedit /export"),)
    return ()


def _ds_account(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    return (
        effect(
            K.ACCOUNT_CHANGE,
            words[1] if len(words) > 1 else None,
            f"{op.name} {lower(words[0]) if words else ''}".strip(),
        ),
    )


def _wmic_where(words: Sequence[str], raw: str) -> str:
    """The objects a wmic alias command selects, as WQL: its `where` clause; a word after the alias is the
    alias's own key (`wmic service WinDefend call stopservice`: `Name='WinDefend'`); neither, every object."""
    if "where" in words:
        return raw
    verbs = {"call", "delete", "get", "list", "set", "assoc"}
    key = words[1] if len(words) > 1 and words[1] not in verbs else None
    return f"name='{raw.split()[1]}'" if key is not None and len(raw.split()) > 1 else ""


_WMIC_GLOBALS = ("/node", "/user", "/password", "/namespace", "/format")


def _wmic(op: Operation) -> Effects:
    argv = argv_of(op)
    words = [w for w in argv.lowered() if not w.startswith(_WMIC_GLOBALS)]
    text = " ".join(words)
    raw = " ".join(strip_pair(w) for w in argv.words if w is not None)  # targets keep their spelling
    if re.search(r"__eventfilter|commandlineeventconsumer|activescripteventconsumer|__filtertoconsumerbinding", text):
        return (effect(K.PERSISTENCE, None, "wmic WMI event subscription", extra=HIJACK),)
    # `/format:http://…/x.xsl`: wmic fetches the stylesheet and runs its script (S-RULE-182).
    style = next((w.split(":", 1)[1] for w in argv.lowered() if w.startswith("/format:")), "").strip("'\"")
    if re.match(r"(?:https?|ftp)://", style):
        return (effect(K.DOWNLOAD_EXECUTE, style, "wmic /format: an address (its stylesheet's script runs)"),)
    alias = words[0] if words else ""
    if alias == "shadowcopy" and "delete" in words:
        return (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "wmic shadowcopy delete"),)),)
    if alias == "process":
        if "create" in words and "call" in words:
            command = argv.positionals()[-1] if argv.positionals() else None
            return (effect(K.EXECUTE, command, "wmic process call create"),)
        if "delete" in words or "terminate" in words:
            return (wmi_kill(raw),)
    if alias == "useraccount" and any(w in words for w in ("set", "rename", "delete", "call")):
        name = re.search(r"name\s*=\s*['\"]?([^'\"\s]+)", raw, re.IGNORECASE)
        return (effect(K.ACCOUNT_CHANGE, name.group(1) if name else None, "wmic useraccount"),)
    if alias == "os" and re.search(r"\b(?:shutdown|reboot|win32shutdown)\b", text):
        return (effect(K.POWER, None, "wmic os shutdown"),)
    if alias == "service" and ("call" in words[:-1] or "delete" in words):
        call = words[words.index("call") + 1] if "call" in words[:-1] else "delete"
        mode = words[words.index(call) + 1] if call == "changestartmode" and words[-1] != call else None
        return wmi_service_change(call, _wmic_where(words, raw), mode)
    if "msft_mppreference" in words and "call" in words[:-1]:
        # `wmic /namespace:\\root\microsoft\windows\defender path MSFT_MpPreference call Add ExclusionPath="C:\"`
        kept = [w for w in argv.words if w is None or not w.lower().startswith(_WMIC_GLOBALS)]
        at = next(i for i, w in enumerate(kept) if w is not None and w.lower() == "call") + 1
        method = lower(kept[at]) if at < len(kept) else ""
        pairs = kept[at + 1 :]
        named = [(k.strip(), strip_pair(v.strip())) for k, _, v in (strip_pair(p).partition("=") for p in pairs if p)]
        known = named if named and None not in pairs and all(k for k, _ in named) else None
        return defender_wmi(method, known, f"wmic MSFT_MpPreference call {method.capitalize()}")
    if alias == "nteventlog" and "cleareventlog" in words:
        log = re.search(r"(?:logfilename|filename)\s*=\s*['\"]?([^'\"\s]+)", raw, re.IGNORECASE)
        return (effect(K.LOG_CLEAR, log.group(1) if log else None, "wmic nteventlog cleareventlog"),)
    return ()


_PATH_TEST = re.compile(r"\b(?:commandline|executablepath)\s*(?:=|like)\s*['\"]([^'\"]*)", re.IGNORECASE)


def _protected_in_path_test(text: str) -> str | None:
    """A protected process a test of the program's path or command line reaches: one whose name the tested
    text holds (`ExecutablePath = '…\\lsass.exe'`), or holds a LIKE fragment of (`CommandLine LIKE '%winmcp%'`
    matches the gateway's command line). Other path tests select processes nobody can name (asked)."""
    for tested in _PATH_TEST.findall(text):
        folded = tested.lower().replace("\\\\", "\\")
        fragments = [f for f in re.split(r"[%_\\/ ]+", folded.replace(".exe", " ")) if len(f) >= 4]
        for process in sorted(PROTECTED_PROCESSES):
            named = re.search(r"(?<![a-z0-9])" + re.escape(process) + r"(?![a-z0-9])", folded)
            if named or any(f in process for f in fragments):
                return process
    return None


def wmi_kill(text: str) -> Effect:
    """The kill a `wmic process … delete|call terminate` (or a Win32_Process filter) does.

    Args:
        text: the words or WQL filter naming the processes (any case; targets keep their spelling).

    Returns:
        KILL_FORCED of the process named in the filter (`name='x'`, `processid=N`), or KILL_ALL
        when nothing filters (TerminateProcess: no chance to save).
    """
    name = re.search(r"\bname\s*(=|like)\s*['\"]?([^'\"\s)]+)", text, re.IGNORECASE)
    pid = re.search(r"\b(?:processid|handle)\s*=\s*['\"]?(\d+)", text, re.IGNORECASE)
    if name:  # LIKE's `%` and `_` are PowerShell's `*` and `?` (`name like '%'` is every process)
        like = name.group(1).lower() == "like"
        target = name.group(2).replace("%", "*").replace("_", "?") if like else name.group(2)
        if target.strip("*") == "":
            return effect(K.KILL_ALL, None, "Win32_Process terminate (every process)")
        return effect(K.KILL_FORCED, target, "Win32_Process terminate")
    if pid:
        return effect(K.KILL_FORCED, f"pid:{pid.group(1)}", "Win32_Process terminate")
    if any(not tested.strip("%_ ") for tested in _PATH_TEST.findall(text)):  # `CommandLine LIKE '%'`: all of them
        return effect(K.KILL_ALL, None, "Win32_Process terminate (every process)")
    protected = _protected_in_path_test(text)
    if protected is not None:
        return effect(K.KILL_FORCED, protected, "Win32_Process terminate (by path or command line)")
    # Any other test (`ParentProcessId=624`, `UserName='bob'`, `where …`) selects processes not named: asked.
    if re.search(r"\bwhere\b|\bfilter\b|[=<>]|\blike\b", text, re.IGNORECASE):
        return effect(K.KILL_FORCED, None, "Win32_Process terminate (filtered)")
    return effect(K.KILL_ALL, None, "Win32_Process terminate (every process)")


# Command-line tools that print a stored secret (S-RULE-118): the token or password lands in the agent's
# transcript, as a read of the file that keeps it would. Program → the subcommand words that print one.
_SECRET_PRINTERS: Mapping[str, tuple[tuple[str, ...], ...]] = {
    "git": (("credential", "fill"), ("credential", "get"), ("credential-manager", "get")),
    "git-credential-manager": (("get",),),
    "gh": (("auth", "token"),),
    "az": (("account", "get-access-token"), ("keyvault", "secret", "show"), ("keyvault", "secret", "download")),
    "gcloud": (("auth", "print-access-token"), ("auth", "print-identity-token"), ("secrets", "versions", "access")),
    "aws": (
        ("configure", "export-credentials"),
        ("ecr", "get-login-password"),
        ("sts", "get-session-token"),
        ("secretsmanager", "get-secret-value"),  # a secret manager's value (S-RULE-193)
        ("secretsmanager", "batch-get-secret-value"),
    ),
    "vault": (("kv", "get"), ("read",)),  # HashiCorp Vault (S-RULE-193)
    "doppler": (("secrets", "get"), ("secrets", "download")),
    "op": (("read",),),
    "bw": (("get",), ("export",), ("list", "items")),  # `list items` prints each login with its password
    "docker-credential-wincred": (("get",), ("list",)),
    "docker-credential-desktop": (("get",), ("list",)),
}
_SECRET_NAME = re.compile(r"secret|token|password|key", re.IGNORECASE)


def secret_printers(program: str, op: Operation) -> Effects:
    """CREDENTIAL_ACCESS when a program of `_SECRET_PRINTERS` is asked to print a stored secret (`gh auth token`);
    also `aws configure get <a secret's name>`, `gcloud auth application-default print-access-token`,
    `gh auth status --show-token`, `kubectl config view --raw` (client keys and tokens inline) and GnuPG's
    `--export-secret-keys`."""
    words = [w.lower() for w in op.args if w is not None]
    plain = [w for w in words if not w.startswith("-")]
    found = any(tuple(plain[: len(p)]) == p for p in _SECRET_PRINTERS.get(program, ()))
    found = found or (
        program == "aws" and plain[:2] == ["configure", "get"] and bool(_SECRET_NAME.search(" ".join(plain[2:])))
    )
    found = found or (program == "gcloud" and plain[:3] == ["auth", "application-default", "print-access-token"])
    found = found or (
        program == "gh" and plain[:2] == ["auth", "status"] and ("--show-token" in words or "-t" in words)
    )
    found = found or (program == "kubectl" and plain[:2] == ["config", "view"] and "--raw" in words)
    # A parameter store's SecureString decrypted (`aws ssm get-parameter --with-decryption`, S-RULE-193).
    found = found or (
        program == "aws" and plain[:2] in (["ssm", "get-parameter"], ["ssm", "get-parameters"],
        ["ssm", "get-parameters-by-path"]) and "--with-decryption" in words
    )  # fmt: skip
    # GnuPG prints a private key with `--export-secret-keys`/`-subkeys`, in any abbreviation it accepts (S-RULE-155).
    found = found or (program in ("gpg", "gpg2") and any(w.startswith("--export-secret-") for w in words))
    return (effect(K.CREDENTIAL_ACCESS, None, f"{program} {' '.join(plain[:3])}".strip()),) if found else ()


_MIMIKATZ_MODULES = re.compile(r"\b(?:sekurlsa|lsadump|kerberos|dpapi|vault|crypto|token|misc)::\w+")


def credential_words(op: Operation) -> Effects:
    """CREDENTIAL_ACCESS when a program is handed mimikatz commands (`sekurlsa::logonpasswords`), whatever its name."""
    text = argv_of(op).text()
    found = _MIMIKATZ_MODULES.search(text)
    return (effect(K.CREDENTIAL_ACCESS, None, f"mimikatz command {found.group(0)}"),) if found else ()


_CREDENTIAL_TOOLS: tuple[str, ...] = (
    "mimikatz",
    "pypykatz",
    "lazagne",
    "rubeus",
    "secretsdump",
    "gsecdump",
    "pwdump",
    "fgdump",
)
_CREDENTIAL_TOOLS += ("wce", "kekeo", "safetykatz", "sharpkatz", "ntdsutil", "nanodump", "dumpert", "sharpdump")

# Devices disabled or removed and drivers deleted (S-RULE-125): the keyboard, the screen or the disk the agent
# and the person work with can go, and stay gone after a restart. pnputil's old spelling (`-d`, `-f -d`) too.
_PNPUTIL_CHANGES = frozenset({"/remove-device", "/delete-driver", "/disable-device", "-d"})
_DEVCON_CHANGES = frozenset({"disable", "remove", "dp_delete"})


def _pnputil(op: Operation) -> Effects:
    words = [lower(w) for w in op.args]
    if "/add-driver" in words or "-a" in words or "/a" in words:
        # A driver added to the store loads into the kernel with its device, at every start (S-RULE-157).
        at = next(i for i, w in enumerate(words) if w in ("/add-driver", "-a", "/a")) + 1
        inf = op.args[at] if at < len(op.args) else None
        return (effect(K.PERSISTENCE, inf, "pnputil /add-driver (a driver loads with Windows)"),)
    change = next((w for w in words if w in _PNPUTIL_CHANGES), None)
    if change is None:
        return ()
    at = words.index(change) + 1
    return (effect(K.DEVICE_CHANGE, op.args[at] if at < len(op.args) else None, f"pnputil {change}"),)


def _devcon(op: Operation) -> Effects:
    words = argv_of(op).positionals()
    verb = lower(words[0]) if words else ""
    if verb not in _DEVCON_CHANGES:
        return ()
    return (effect(K.DEVICE_CHANGE, words[1] if len(words) > 1 else None, f"devcon {verb}"),)


def _disable_device(op: Operation) -> Effects:
    bound = bind(op, ("instanceid",))
    return (effect(K.DEVICE_CHANGE, first(bound, "instanceid"), "Disable-PnpDevice"),)


def _domain_membership(op: Operation) -> Effects:
    """The machine joined to a domain or taken out of one (S-RULE-184): joining makes that domain's admins this
    machine's admins; leaving locks out every domain account that logs on here. `netdom join|remove`, `djoin`."""
    name = program_stem(op.name)
    words = argv_of(op).lowered()
    if name == "netdom" and words[:1] == ["renamecomputer"]:
        return (effect(K.NETWORK_CHANGE, None, "netdom renamecomputer (the machine renamed)"),)
    if name == "netdom" and words[:1] not in (["join"], ["remove"]):
        return ()
    if name == "djoin" and not any(w.lstrip("/-") == "requestodj" for w in words):
        return ()  # `djoin /provision` runs on a domain controller, for another machine
    domain = next((w.split(":", 1)[1] for w in words if w.startswith(("/domain:", "/d:"))), None)
    return (effect(K.ACCOUNT_CHANGE, domain, f"{name} {words[0] if words else ''} (domain membership)".strip()),)


def _domain_cmdlet(op: Operation) -> Effects:
    """`Add-Computer -DomainName …`, `Remove-Computer` (S-RULE-184: who administers the machine and who may log on)."""
    bound = bind(op, ("domainname",))
    return (effect(K.ACCOUNT_CHANGE, first(bound, "domainname", "workgroupname"), f"{display(op.name)} (domain)"),)


def _renamed(op: Operation) -> Effects:
    """`Rename-Computer` (S-RULE-184): shares, remote sessions and a domain's trust know the machine by its name."""
    return (
        effect(K.NETWORK_CHANGE, first(bind(op, ("newname",)), "newname"), f"{display(op.name)} (machine renamed)"),
    )


# `mountvol X: /d|/p`: a drive's letter removed, or the volume dismounted and left offline (S-RULE-185).
def _mountvol(op: Operation) -> Effects:
    argv = argv_of(op)
    if not argv.flag("d", "p"):
        return ()
    words = argv.positionals()
    return (effect(K.DEVICE_CHANGE, words[0] if words else None, "mountvol /d|/p (a drive removed)"),)


_OFFLINE_SWITCHES = ("isoffline", "ishidden", "isreadonly")


def _disk_setting(op: Operation) -> Effects:
    """`Set-Disk -IsOffline $true`, `Set-Partition -NewDriveLetter|-IsHidden|-IsOffline|-IsReadOnly`,
    `Remove-PartitionAccessPath`: a drive the person's programs find no more, or may not write (S-RULE-185)."""
    bound = bind(op)
    target = first(bound, "driveletter", "number", "friendlyname", "disknumber", "uniqueid")
    if op.name == "remove-partitionaccesspath":
        return (effect(K.DEVICE_CHANGE, first(bound, "accesspath") or target, "Remove-PartitionAccessPath"),)
    changed = [k for k in _OFFLINE_SWITCHES if is_on(bound, k)]
    if op.name == "set-partition" and "newdriveletter" in bound:
        changed.append("newdriveletter")
    if not changed:
        return ()
    return (effect(K.DEVICE_CHANGE, target, f"{display(op.name)} -{changed[0]}"),)


SYSTEM_PROGRAMS: Mapping[str, Handler] = {
    "netdom": _domain_membership,
    "djoin": _domain_membership,
    "mountvol": _mountvol,
    "pnputil": _pnputil,
    "devcon": _devcon,
    "net": _net,
    "net1": _net,
    "schtasks": _schtasks,
    "mofcomp": _mofcomp,
    "at": _at,
    "vssadmin": _vssadmin,
    "wbadmin": _wbadmin,
    "reagentc": _reagentc,
    "diskshadow": _diskshadow,
    "diskpart": lambda op: (effect(K.DISK_DESTROY, None, "diskpart"),),
    "systemreset": lambda op: (effect(K.DISK_DESTROY, None, "systemreset (factory reset)"),),
    "wevtutil": _wevtutil,
    "shutdown": _shutdown,
    "psshutdown": lambda op: (effect(K.POWER, None, "psshutdown"),),
    "logoff": lambda op: (effect(K.POWER, None, "logoff"),),
    "cmdkey": _cmdkey,
    "vaultcmd": _vaultcmd,
    "ntsd": _debugger,
    "cdb": _debugger,
    "windbg": _debugger,
    "procdump": _process_dump,
    "procdump64": _process_dump,
    "sqldumper": _process_dump,
    "createdump": _process_dump,
    "ntrights": _ntrights,
    "secedit": _secedit,
    "dsadd": _ds_account,
    "dsmod": _ds_account,
    "dsrm": _ds_account,
    "wmic": _wmic,
    **dict.fromkeys(_CREDENTIAL_TOOLS, _credential_tool),
}


# ---------------------------------------------------------------------------------------
# Cmdlets


def _event_log(op: Operation) -> Effects:
    bound = bind(op, ("logname",))
    logs = targets(bound, "logname") or [None]
    if op.name == "limit-eventlog":
        size = _bytes(first(bound, "maximumsize"))
        if "maximumsize" not in bound or (size is not None and size >= TINY_LOG_BYTES):
            return ()
        return tuple(effect(K.LOG_CLEAR, log, "Limit-EventLog -MaximumSize (log shrunk)") for log in logs)
    return tuple(effect(K.LOG_CLEAR, log, display(op.name)) for log in logs)


def _bytes(value: Value) -> int | None:
    match = re.fullmatch(r"(\d+)\s*(kb|mb|gb)?", lower(value))
    if match is None:
        return None
    scale = {"kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30}.get(match.group(2) or "", 1)
    return int(match.group(1)) * scale


def _account(positional: tuple[str, ...], *names: str) -> Handler:
    def handle(op: Operation) -> Effects:
        bound = bind(op, positional)
        members = tuple(("member", m or "") for m in targets(bound, "member", "members"))
        return tuple(
            effect(K.ACCOUNT_CHANGE, t, display(op.name), extra=members) for t in targets(bound, *names) or [None]
        )

    return handle


def _task_removed(op: Operation) -> Effects:
    """`Disable-ScheduledTask`/`Unregister-ScheduledTask` (and `Set-ScheduledTask`'s new action) of a task that keeps
    a defence working (S-RULE-145); tasks piped in from a listing, or handed over as objects (`-InputObject $t`),
    which the gateway does not follow, ask."""
    bound = bind(op, ("taskname", "taskpath"))
    names = targets(bound, "taskname")
    if not names:
        handed = op.input_from is not None or "inputobject" in bound
        return (
            (weakening(TASKS_NOT_KNOWN, None, display(op.name)),) if handed and op.name != "set-scheduledtask" else ()
        )
    path = first(bound, "taskpath")
    found = ((what, name) for name in names if (what := security_task(path, name)) is not None)
    return tuple(weakening(what, name, display(op.name), "task") for what, name in found)


def _persistence(positional: tuple[str, ...], name: str, command: str, later: tuple[str, str] | None = None) -> Handler:
    """PERSISTENCE of the entry `name` names; `later` is (program, arguments) of what it runs, when known."""

    def handle(op: Operation) -> Effects:
        bound = bind(op, positional)
        run = first(bound, command)
        extra: tuple[tuple[str, str], ...] = (("command", run),) if run else ()
        if later is not None:  # what runs: the program, and its arguments when given (not constant: not known)
            program_key, arguments_key = later
            program = first(bound, program_key)
            arguments = bound.get(arguments_key, "") if arguments_key else ""
            if program and arguments is not None:
                extra += ((RUNS_LATER, f"{program} {arguments}".strip()),)
        return (effect(K.PERSISTENCE, first(bound, name), display(op.name), extra=extra),)

    return handle


_SUBSCRIPTION_CLASSES: tuple[str, ...] = ("__eventfilter", "commandlineeventconsumer", "activescripteventconsumer")
_SUBSCRIPTION_CLASSES += ("__filtertoconsumerbinding", "__eventconsumer", "logfileeventconsumer", "smtpeventconsumer")


def _wmi_instance(op: Operation) -> Effects:
    bound = bind(op, ("class",))
    wmi_class = lower(first(bound, "class", "classname"))
    if any(c in wmi_class for c in _SUBSCRIPTION_CLASSES):
        return (effect(K.PERSISTENCE, wmi_class, f"{display(op.name)} WMI event subscription", extra=HIJACK),)
    return ()


_WQL_CLASS = re.compile(r"\bfrom\s+(\w+)", re.IGNORECASE)


def _wmi_method(op: Operation) -> Effects:
    # `Invoke-WmiMethod Win32_Process Create calc.exe`: the third position is -ArgumentList.
    bound = bind(op, ("class", "name", "argumentlist") if op.name == "invoke-wmimethod" else ("class", "name"))
    query = unquote(first(bound, "query")) or ""
    in_query = _WQL_CLASS.search(query)
    wmi_class = lower(first(bound, "class", "classname")) or (in_query.group(1).lower() if in_query else "")
    method = lower(first(bound, "name", "methodname"))
    if wmi_class == "win32_process" and method == "create":
        return (
            effect(
                K.EXECUTE,
                first(bound, "argumentlist", "arguments.commandline", "arguments"),
                f"{display(op.name)} Win32_Process Create",
            ),
        )
    if wmi_class == "win32_process" and method == "terminate":
        return (wmi_kill(unquote(first(bound, "filter", "query"))),)
    if wmi_class == "win32_operatingsystem" and method in (
        "win32shutdown",
        "win32shutdowntracker",
        "shutdown",
        "reboot",
    ):
        return (effect(K.POWER, None, f"{display(op.name)} Win32_OperatingSystem {method}"),)
    if wmi_class == "win32_operatingsystem" and method == "setdatetime":  # the system clock (S-RULE-215)
        return (weakening("system-clock", None, f"{display(op.name)} Win32_OperatingSystem SetDateTime"),)
    if wmi_class == "win32_service" and method == "create":
        return (_service_created(first(bound, "arguments.name"), first(bound, "arguments.pathname"), display(op.name)),)
    if wmi_class == "win32_service":  # StopService, ChangeStartMode … on the services a filter names (S-RULE-73)
        where = " ".join(v for v in (strip_pair(first(bound, "filter")), query) if v)
        return wmi_service_change(method, where, first(bound, "arguments.startmode", "argumentlist"))
    if wmi_class == "win32_nteventlogfile" and method == "cleareventlog":
        return (effect(K.LOG_CLEAR, None, f"{display(op.name)} ClearEventLog"),)
    if wmi_class == "win32_encryptablevolume":  # BitLocker through WMI (S-RULE-179)
        where = " ".join(v for v in (strip_pair(first(bound, "filter")), query) if v)
        return encryptable_volume(method, where, display(op.name)) or ()
    if wmi_class == "msft_mppreference":  # what Set-MpPreference calls (S-RULE-160): `-Arguments @{…}` names them
        named = [(k.removeprefix("arguments."), v) for k, v in op.params if k.startswith("arguments.")]
        known = named if named and "argumentlist" not in bound else None
        return defender_wmi(method, known, f"{display(op.name)} MSFT_MpPreference {method.capitalize()}")
    return ()


def _disk(positional: tuple[str, ...], *names: str) -> Handler:
    def handle(op: Operation) -> Effects:
        bound = bind(op, positional)
        return tuple(effect(K.DISK_DESTROY, t, display(op.name)) for t in targets(bound, *names) or [None])

    return handle


def _power(op: Operation) -> Effects:
    bound = bind(op, ("computername",))
    return (effect(K.POWER, first(bound, "computername"), display(op.name)),)


def _new_object(op: Operation) -> Effects:
    bound = bind(op, ("typename", "argumentlist"))
    type_name = lower(first(bound, "typename")).removeprefix("system.")
    if "passwordvault" in type_name:
        return (effect(K.CREDENTIAL_ACCESS, None, "Windows PasswordVault"),)
    if type_name in ("io.streamwriter", "io.streamreader"):  # `New-Object IO.StreamWriter(path)` (S-RULE-59)
        given = tuple(targets(bound, "argumentlist"))  # `(path, mode)`: one array, as PowerShell binds it
        kind = K.WRITE if type_name == "io.streamwriter" else K.READ
        # A path not known (`New-Object IO.StreamWriter($p)`, or glued `(…)` the analyser leaves unread) asks.
        return (effect(kind, given[0], f"New-Object {type_name}"),) if given else ()
    if type_name == "net.mail.attachment":  # a file attached to a mail made in .NET is sent (S-RULE-180)
        given = tuple(targets(bound, "argumentlist"))
        return (effect(K.UPLOAD, given[0] if given else None, "a mail attachment (New-Object Net.Mail.Attachment)"),)
    if type_name == "io.filestream":  # `New-Object IO.FileStream(path, mode, access)`: an open for writing?
        given = tuple(targets(bound, "argumentlist"))  # `(path, mode)`: one array, as PowerShell binds it
        writes = opens_for_writing(given) if given else True
        return (effect(K.WRITE if writes else K.READ, given[0] if given else None, "New-Object IO.FileStream"),)
    return ()


_CREDENTIAL_CMDLETS: tuple[str, ...] = (
    "out-minidump",
    "invoke-mimikatz",
    "get-gpppassword",
    "invoke-kerberoast",
    "get-lsasecret",
)
_CREDENTIAL_CMDLETS += ("get-passhashes", "invoke-powerdump", "get-vaultcredential", "get-storedcredential")
_CREDENTIAL_CMDLETS += ("invoke-ninjacopy", "invoke-dcsync", "get-keystrokes", "invoke-credentialinjection")
# A secret manager's value: PowerShell's SecretManagement, AWS Secrets Manager (S-RULE-193).
_CREDENTIAL_CMDLETS += ("get-secret", "get-secsecretvalue")


def _secret_in_plain_text(op: Operation) -> Effects:
    """`Get-AzKeyVaultSecret … -AsPlainText`, `Get-SSMParameter … -WithDecryption` print a secret (S-RULE-193)."""
    switch = "asplaintext" if op.name == "get-azkeyvaultsecret" else "withdecryption"
    return (effect(K.CREDENTIAL_ACCESS, None, display(op.name)),) if is_on(bind(op), switch) else ()


SYSTEM_CMDLETS: Mapping[str, Handler] = {
    "get-azkeyvaultsecret": _secret_in_plain_text,
    "get-ssmparameter": _secret_in_plain_text,
    "get-ssmparametervalue": _secret_in_plain_text,
    "disable-pnpdevice": _disable_device,
    "add-computer": _domain_cmdlet,
    "remove-computer": _domain_cmdlet,
    "rename-computer": _renamed,
    "set-disk": _disk_setting,
    "set-partition": _disk_setting,
    "remove-partitionaccesspath": _disk_setting,
    # Certificates with their private keys written out: a key that signs or logs in as the user.
    "export-pfxcertificate": _credential_tool,
    "clear-eventlog": _event_log,
    "remove-eventlog": _event_log,
    "limit-eventlog": _event_log,
    "new-localuser": _account(("name",), "name"),
    "set-localuser": _account(("name",), "name", "sid"),
    "remove-localuser": _account(("name",), "name", "sid"),
    "enable-localuser": _account(("name",), "name", "sid"),
    "disable-localuser": _account(("name",), "name", "sid"),
    "rename-localuser": _account(("name", "newname"), "name"),
    "add-localgroupmember": _account(("group", "member"), "group", "name", "sid"),
    "remove-localgroupmember": _account(("group", "member"), "group", "name", "sid"),
    "new-localgroup": _account(("name",), "name"),
    "remove-localgroup": _account(("name",), "name"),
    "new-aduser": _account(("name",), "name"),
    "set-aduser": _account(("identity",), "identity"),
    "add-adgroupmember": _account(("identity", "members"), "identity"),
    "set-adaccountpassword": _account(("identity",), "identity"),
    "enable-adaccount": _account(("identity",), "identity"),
    "unlock-adaccount": _account(("identity",), "identity"),
    "new-service": _persistence(("name", "binarypathname"), "name", "binarypathname", ("binarypathname", "")),
    "register-scheduledtask": _persistence(("taskname",), "taskname", "action"),
    "set-scheduledtask": lambda op: (*_persistence(("taskname",), "taskname", "action")(op), *_task_removed(op)),
    "disable-scheduledtask": _task_removed,
    "unregister-scheduledtask": _task_removed,
    "new-scheduledtask": _persistence((), "description", "action"),
    "new-scheduledtaskaction": _persistence(("execute",), "execute", "argument", ("execute", "argument")),
    "new-scheduledtasktrigger": _persistence((), "at", "once"),
    # PowerShell's scheduled jobs are Task Scheduler tasks too (`\Microsoft\Windows\PowerShell\ScheduledJobs`):
    # registered, given new code or a new trigger, their block or script runs later with nobody asked (S-RULE-209).
    "register-scheduledjob": _persistence(("name", "scriptblock"), "name", "filepath"),
    "set-scheduledjob": _persistence((), "name", "filepath"),
    "add-jobtrigger": _persistence(("inputobject", "trigger"), "name", "trigger"),
    "set-jobtrigger": _persistence((), "name", "trigger"),
    "set-wmiinstance": _wmi_instance,
    "new-ciminstance": _wmi_instance,
    "invoke-wmimethod": _wmi_method,
    "invoke-cimmethod": _wmi_method,
    "format-volume": _disk(("driveletter",), "driveletter", "filesystemlabel", "path", "objectid"),
    "clear-disk": _disk(("number",), "number", "friendlyname", "uniqueid", "path"),
    "initialize-disk": _disk(("number",), "number", "friendlyname", "uniqueid", "path"),
    "remove-partition": _disk(("disknumber", "partitionnumber"), "driveletter", "disknumber", "diskid"),
    "remove-virtualdisk": _disk(("friendlyname",), "friendlyname"),
    "remove-storagepool": _disk(("friendlyname",), "friendlyname"),
    "reset-physicaldisk": _disk(("friendlyname",), "friendlyname"),
    "disable-computerrestore": lambda op: (
        effect(K.DISK_DESTROY, None, "backups", extra=(("command", "Disable-ComputerRestore"),)),
    ),
    "restart-computer": _power,
    "restore-computer": _power,  # rolls Windows back to a restore point and restarts
    "stop-computer": _power,
    "new-object": _new_object,
    **{name: lambda op: (effect(K.CREDENTIAL_ACCESS, None, display(op.name)),) for name in _CREDENTIAL_CMDLETS},
}


# ---------------------------------------------------------------------------------------
# .NET


def _arg(op: Operation, index: int) -> Value:
    return op.args[index] if index < len(op.args) else None


def _service_created(name: Value, path_name: Value, how: str) -> Effect:
    """A service created through WMI (`Win32_Service.Create`): persistence, whose binary starts later as SYSTEM, as
    `sc create … binpath=` (S-RULE-178)."""
    extra = ((RUNS_LATER, path_name),) if path_name else ()
    return effect(K.PERSISTENCE, name, f"{how} Win32_Service Create", extra=extra)


SYSTEM_CALLS: Mapping[str, Handler] = {
    # `([wmiclass]'Win32_Service').Create(Name, DisplayName, PathName, …)`
    "wmiclass:win32_service.create": lambda op: (_service_created(_arg(op, 0), _arg(op, 2), "[wmiclass]"),),
    "security.cryptography.protecteddata::unprotect": lambda op: (
        effect(K.CREDENTIAL_ACCESS, None, "DPAPI ProtectedData.Unprotect"),
    ),
    "diagnostics.eventlog::delete": lambda op: (effect(K.LOG_CLEAR, _arg(op, 0), "[EventLog]::Delete"),),
    "diagnostics.eventlog.clear": lambda op: (effect(K.LOG_CLEAR, None, "EventLog.Clear()"),),
}

# Method names that mean the same on any object.
SYSTEM_METHODS: Mapping[str, Handler] = {
    "clearlog": lambda op: (effect(K.LOG_CLEAR, _arg(op, 0), "EventLogSession.ClearLog"),),
    "cleareventlog": lambda op: (effect(K.LOG_CLEAR, _arg(op, 0), "Win32_NTEventlogFile.ClearEventlog"),),
    "retrieveall": lambda op: (effect(K.CREDENTIAL_ACCESS, None, "PasswordVault.RetrieveAll"),),
    "findallbyresource": lambda op: (effect(K.CREDENTIAL_ACCESS, None, "PasswordVault.FindAllByResource"),),
    "findallbyusername": lambda op: (effect(K.CREDENTIAL_ACCESS, None, "PasswordVault.FindAllByUserName"),),
    "retrievepassword": lambda op: (effect(K.CREDENTIAL_ACCESS, None, "PasswordCredential.RetrievePassword"),),
    # `$vault.Retrieve(resource, user)` hands back the credential with its password.
    "retrieve": lambda op: (effect(K.CREDENTIAL_ACCESS, None, "PasswordVault.Retrieve"),),
    "setpassword": lambda op: (effect(K.ACCOUNT_CHANGE, None, ".SetPassword()"),),
    "changepassword": lambda op: (effect(K.ACCOUNT_CHANGE, None, ".ChangePassword()"),),
    "registertaskdefinition": lambda op: (
        effect(K.PERSISTENCE, _arg(op, 0), "Schedule.Service RegisterTaskDefinition"),
    ),
    "registertask": lambda op: (effect(K.PERSISTENCE, _arg(op, 0), "Schedule.Service RegisterTask"),),
    "win32shutdown": lambda op: (effect(K.POWER, None, "Win32Shutdown"),),
    "win32shutdowntracker": lambda op: (effect(K.POWER, None, "Win32ShutdownTracker"),),
}


# ADSI (`[ADSI]'WinNT://./Administrators,group'`) methods that change users or groups; the analyser
# names the call `adsi:<path>.<method>`. Reading (`Invoke('Members')`, `Get`) changes nothing.
_ADSI_CHANGES = frozenset(
    {"add", "remove", "create", "delete", "deletetree", "setpassword", "changepassword", "setinfo", "put", "putex"}
    | {"movehere", "rename", "commitchanges"}
)


def adsi_effects(op: Operation) -> Effects:
    """ACCOUNT_CHANGE for an ADSI call that adds, removes, creates or changes a user or group.

    Args:
        op: an operation named `adsi:<provider path>.<method>` (others give nothing).

    Returns:
        The account change (target: the user or group the path or the call names), or `()`.
    """
    if not op.name.startswith("adsi:") or "." not in op.name:
        return ()
    path, _, method = op.name[len("adsi:") :].rpartition(".")
    args = [unquote(a) if a is not None else None for a in op.args]
    if method in ("invoke", "invokeset") and args:
        method = lower(args[0])
        args = args[1:]
    if method not in _ADSI_CHANGES:
        return ()
    target = args[1] if method in ("create", "delete") and len(args) > 1 else path
    members = tuple(("member", a or "") for a in args) if method in ("add", "remove") else ()
    return (effect(K.ACCOUNT_CHANGE, target, f"ADSI {method}", extra=members),)


def dotnet_system(op: Operation) -> Effects:
    """CREDENTIAL_ACCESS for any call on the Windows PasswordVault (`[Windows.Security.Credentials.PasswordVault]`).

    Args:
        op: a dotnet operation.

    Returns:
        The credential access, or `()`.
    """
    # The analyser names a type as .NET resolves it (`system.` first when it could be `System.…`).
    if op.name.removeprefix("system.").startswith("windows.security.credentials.passwordvault"):
        return (effect(K.CREDENTIAL_ACCESS, None, "Windows PasswordVault"),)
    return ()
