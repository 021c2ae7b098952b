"""Security-weakening effects (issue 18): Defender, firewall, execution policy, audit policy, boot integrity, AMSI.

A `SECURITY_WEAKENING` effect's detail names what is weakened — one of `WEAKENED` — so the
judge can key on it; its `extra` names the command and the setting. Stopping or disabling a
service counts only for the services in `SECURITY_SERVICES`. UAC, WDigest and LSA changes
made through the registry are `REGISTRY_SET`s (`effects_registry`): the judge knows those keys.
`bcdedit` lives here too: its boot-recovery deletions are `DISK_DESTROY` "boot".
"""

from __future__ import annotations

import fnmatch
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
    lower,
    targets,
    unquote,
)
from policy.rules.effects_network import netsh_network
from policy.rules.processes import is_protected_process
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value
from policy.rules.shell.ssh import read_ssh

K = EffectKind

# What a SECURITY_WEAKENING detail may name.
WEAKENED = frozenset(
    {"defender", "firewall", "firewall-rule", "execution-policy", "uac", "audit-policy", "event-log", "monitoring"}
    | {"driver-signing", "safe-boot", "virtualization-security", "kernel-debug", "amsi", "exploit-protection"}
    | {"service-acl", "security-center", "dep", "smb1", "smb-signing", "remote-access", "updates"}
    | {"security-software", "trusted-root", "bitlocker", "certificate-store", "system-clock"}
)
# The detail of a stop or disable of services the gateway cannot name (`Stop-Service $s`, a filter it does
# not read): not a weakening it can show, so the judge asks (`command._unknown_targets`) instead of refusing.
SERVICES_NOT_KNOWN = "services-not-known"

# The detail of a scheduled task disabled or removed by a pipe the gateway does not follow
# (`Get-ScheduledTask … | Disable-ScheduledTask`): which tasks is not known, so it asks (S-RULE-145).
TASKS_NOT_KNOWN = "tasks-not-known"
# Scheduled-task folders whose tasks keep a defence working, and what they keep (S-RULE-145).
_SECURITY_TASK_FOLDERS: tuple[tuple[str, str], ...] = (
    ("\\microsoft\\windows\\windows defender\\", "defender"),
    ("\\microsoft\\windows\\exploitguard\\", "defender"),
    ("\\microsoft\\windows\\windowsupdate\\", "updates"),
    ("\\microsoft\\windows\\updateorchestrator\\", "updates"),
    ("\\microsoft\\windows\\waasmedic\\", "updates"),
)


def security_task(path: Value, name: Value) -> str | None:
    """What a scheduled task keeps working (`defender`, `updates`), by its folder (`-TaskPath`, or a full name
    `\\Microsoft\\Windows\\Windows Defender\\…`) or a name that says it is Defender's; every task (`*`) holds
    Defender's scans; None for any other task.

    Args:
        path: the task's folder as given, or None.
        name: the task's name (or full path) as given; a name not constant is None.
    """
    folder = lower(path).replace("/", "\\").strip("\\")
    task = lower(name).replace("/", "\\").strip("\\")
    if task.strip() == "*" or (not task and folder == "*"):
        return "defender"
    full = "\\" + (folder + "\\" if folder else "") + task + "\\"
    for known, what in _SECURITY_TASK_FOLDERS:
        if known in full:
            return what
    return "defender" if "windows defender" in task or "microsoft defender" in task else None


# Services whose stopping or disabling weakens the machine's defences, and what it weakens.
SECURITY_SERVICES: Mapping[str, str] = {
    **dict.fromkeys(("windefend", "wdnissvc", "sense", "wdfilter", "wdboot", "wdnisdrv", "mdcoresvc"), "defender"),
    # Windows Security / Security Center report on every protection; switched off, nobody sees alerts.
    **dict.fromkeys(("securityhealthservice", "wscsvc"), "security-center"),
    **dict.fromkeys(("mpssvc", "bfe"), "firewall"),
    "eventlog": "event-log",
    **dict.fromkeys(("sysmon", "sysmon64", "sysmondrv"), "monitoring"),
    # Windows Update and the services that repair it: off, the machine stops getting security fixes.
    **dict.fromkeys(("wuauserv", "usosvc", "waasmedicsvc"), "updates"),
}


# The display names Windows gives those services (`Get-Service -DisplayName`, Win32_Service.DisplayName),
# under both brand names Windows 10 and 11 have used.
_DISPLAY_NAMES: Mapping[str, str] = {
    **dict.fromkeys(
        ("microsoft defender antivirus service", "windows defender antivirus service", "windows defender service"),
        "windefend",
    ),
    **dict.fromkeys(
        (
            "microsoft defender antivirus network inspection service",
            "windows defender antivirus network inspection service",
            "windows defender network inspection service",
        ),
        "wdnissvc",
    ),
    **dict.fromkeys(
        ("windows defender advanced threat protection service", "microsoft defender for endpoint service"), "sense"
    ),
    "microsoft defender core service": "mdcoresvc",
    "windows security service": "securityhealthservice",
    "security center": "wscsvc",
    **dict.fromkeys(("windows defender firewall", "windows firewall", "microsoft defender firewall"), "mpssvc"),
    "base filtering engine": "bfe",
    "windows event log": "eventlog",
    "windows update": "wuauserv",
    "update orchestrator service": "usosvc",
    "windows update medic service": "waasmedicsvc",
}


def security_services(name: Value) -> tuple[str, ...]:
    """The security services (keys of `SECURITY_SERVICES`) a name can stop: a service name (`WinDefend`,
    `mpssvc.exe`), a display name ('Windows Defender Firewall'), or a PowerShell wildcard over either,
    as `Stop-Service W*` or `-DisplayName '*Defender*'` select them (`*` alone: every one of them)."""
    text = lower(name).removesuffix(".exe")
    if not re.search(r"[*?\[]", text):
        key = text if text in SECURITY_SERVICES else _DISPLAY_NAMES.get(text, text.replace(" ", ""))
        return (key,) if key in SECURITY_SERVICES else ()
    named = [s for s in SECURITY_SERVICES if fnmatch.fnmatchcase(s, text)]
    shown = [s for d, s in _DISPLAY_NAMES.items() if fnmatch.fnmatchcase(d, text)]
    return tuple(dict.fromkeys(named + shown))


def weakening(what: str, target: Value, command: str, setting: str = "") -> Effect:
    """A SECURITY_WEAKENING of `target`: `what` (one of `WEAKENED`) by `command`, of `setting` if named."""
    extra = (("command", command),) + ((("setting", setting),) if setting else ())
    return effect(K.SECURITY_WEAKENING, target, what, extra=extra)


def service_name(value: Value) -> str:
    """A service name as the table keys it (`WinDefend`, `mpssvc.exe` → `windefend`, `mpssvc`)."""
    return lower(value).removesuffix(".exe")


_RUN_OPTIONS = frozenset({"binpath=", "command="})


def _sc(op: Operation) -> Effects:
    words = list(argv_of(op).words)
    if words and lower(words[0]).startswith("\\\\"):
        words = words[1:]  # `sc \\server verb …`
    verb = lower(words[0]) if words else ""
    service = words[1] if len(words) > 1 else None
    rest = " ".join(lower(w) for w in words[2:])
    security = SECURITY_SERVICES.get(service_name(service))
    # `sc config windefend start= auto` turns it back on; only disabling or re-pointing weakens.
    config_weakens = verb != "config" or re.search(r"\b(?:disabled|demand)\b|binpath=", rest) is not None
    if opens_remote_access(service) and (
        verb == "start" or (verb == "config" and re.search(r"start=\s*(?:auto|delayed-auto|boot|system)\b", rest))
    ):
        return (weakening("remote-access", service, f"sc {verb}"),)
    if verb in ("stop", "delete", "pause", "config", "sdset", "failure") and security is not None:
        return (weakening(security, service, f"sc {verb}"),) if config_weakens else ()
    if verb == "sdset":
        return (weakening("service-acl", service, "sc sdset"),)
    if verb in ("create", "config", "failure"):
        command = re.search(r"(?:binpath|command)=\s*(\S.*)", rest)
        extra: tuple[tuple[str, str], ...] = (("command", command.group(1)),) if command else ()
        # sc takes the binary as the one word after `binPath=` (quoted when it holds spaces), as written.
        binary = next((words[i + 1] for i in range(2, len(words) - 1) if lower(words[i]) in _RUN_OPTIONS), None)
        extra += ((RUNS_LATER, binary),) if binary else ()
        return (effect(K.PERSISTENCE, service, f"sc {verb}", extra=extra),)
    return ()


def _auditpol(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("clear", "remove", "restore"):
        flag = next(f for f in ("clear", "remove", "restore") if argv.flag(f))
        return (weakening("audit-policy", argv.value("category", "subcategory"), f"auditpol /{flag}"),)
    disabled = any(lower(v) == "disable" for v in argv.values("success", "failure"))
    if argv.flag("set") and disabled:
        return (weakening("audit-policy", argv.value("category", "subcategory"), "auditpol /set /…:disable"),)
    return ()


def _bcdedit(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.lowered()
    text = " ".join(words)
    if argv.flag("delete", "deletevalue"):
        return (effect(K.DISK_DESTROY, None, "boot", extra=(("command", "bcdedit /delete"),)),)
    if argv.flag("import"):  # the whole boot store replaced by a file's (S-RULE-117)
        return (effect(K.DISK_DESTROY, None, "boot", extra=(("command", "bcdedit /import"),)),)
    if not argv.flag("set"):
        return ()
    if re.search(r"\brecoveryenabled (?:no|off|0|false)\b|\bbootstatuspolicy ignoreallfailures\b", text):
        return (
            effect(
                K.DISK_DESTROY, None, "boot", extra=(("command", "bcdedit /set " + text.split("/set", 1)[-1].strip()),)
            ),
        )
    if re.search(r"\b(?:testsigning|nointegritychecks) (?:on|yes|1|true)\b|ddisable_integrity_checks", text):
        return (weakening("driver-signing", None, "bcdedit /set"),)
    if re.search(r"\bsafeboot\b", text):
        return (weakening("safe-boot", None, "bcdedit /set safeboot"),)
    if re.search(r"\bhypervisorlaunchtype (?:off|no)\b|\bvsmlaunchtype (?:off|no)\b", text):
        return (weakening("virtualization-security", None, "bcdedit /set hypervisorlaunchtype off"),)
    if re.search(r"\bdebug (?:on|yes)\b", text):
        return (weakening("kernel-debug", None, "bcdedit /set debug on"),)
    if re.search(r"\bnx alwaysoff\b", text):
        return (weakening("dep", None, "bcdedit /set nx AlwaysOff"),)
    return ()


def _netsh(op: Operation) -> Effects:
    words = argv_of(op).lowered()
    text = " ".join(words)
    # `netsh -f script` and `netsh exec script` run netsh commands from a file nobody read (S-RULE-117).
    if "-f" in words or (words and words[0] == "exec"):
        return (effect(K.NETWORK_CHANGE, None, "netsh commands from a file"),)
    # Resetting the firewall drops every rule the person or their IT added; deleting rules, or turning
    # one on, off or to `allow`, can open what they closed (which rules are block rules is not known).
    if re.search(r"\badvfirewall reset\b", text):
        return (weakening("firewall-rule", None, "netsh advfirewall reset"),)
    if re.search(r"\badvfirewall firewall delete rule\b", text):
        return (weakening("firewall-rule", None, "netsh advfirewall firewall delete rule"),)
    if re.search(r"\badvfirewall firewall set rule\b.*\bnew\b.*\baction\s*=\s*allow", text) or (
        re.search(r"\badvfirewall firewall set rule\b.*\bnew\b.*\benable\s*=\s*no\b", text)
        and not re.search(r"\bgroup\s*=", text)  # Windows' own groups are allow rules: off closes ports
    ):
        return (weakening("firewall-rule", None, "netsh advfirewall firewall set rule"),)
    if re.search(r"\badvfirewall set (\S+) state off\b", text):
        profile = re.search(r"\badvfirewall set (\S+)", text)
        return (weakening("firewall", profile.group(1) if profile else None, "netsh advfirewall set … state off"),)
    if re.search(r"\badvfirewall set \S+ firewallpolicy allowinbound", text):
        return (weakening("firewall", None, "netsh advfirewall firewallpolicy allowinbound"),)
    if re.search(r"\bfirewall set opmode (?:mode\s*=\s*)?disable\b", text):
        return (weakening("firewall", None, "netsh firewall set opmode disable"),)
    blocked = re.search(r"\bprogram\s*=\s*(.+?)(?=\s+\w+\s*=|$)", text)
    if (
        re.search(r"\badvfirewall firewall (?:add|set) rule\b", text)
        and "action=block" in text.replace(" ", "")
        and blocked
        and _silences(blocked.group(1))
    ):
        return (weakening("defender", blocked.group(1).strip('"'), "netsh advfirewall firewall rule action=block"),)
    if re.search(r"\badvfirewall firewall add rule\b", text) and "action=allow" in text.replace(" ", ""):
        return (weakening("firewall-rule", None, "netsh advfirewall firewall add rule action=allow"),)
    if re.search(r"\bfirewall add (?:allowedprogram|portopening)\b", text):
        return (weakening("firewall-rule", None, "netsh firewall add"),)
    if re.search(r"\bwlan (?:show|export) profiles?\b", text) and "key=clear" in text.replace(" ", ""):
        return (effect(K.CREDENTIAL_ACCESS, None, "netsh wlan key=clear (Wi-Fi keys)"),)
    group = re.search(r"\bfirewall set rule (?:group|name)\s*=\s*(.+?)\s+new\b.*\benable\s*=\s*yes\b", text)
    if group and _REMOTE_GROUPS.search(group.group(1)):
        return (
            weakening("remote-access", group.group(1).strip('"'), "netsh advfirewall firewall set rule enable=yes"),
        )
    if re.search(r"\badd helper\b", text):
        return (effect(K.PERSISTENCE, None, "netsh add helper", extra=(("rule", "persistence-hijack"),)),)
    return netsh_network(op)


def _mpcmdrun(op: Operation) -> Effects:
    argv = argv_of(op)
    if argv.flag("downloadfile"):  # Defender's own tool as a downloader (S-RULE-182): a write of `-path`, as `curl -o`
        return (effect(K.WRITE, argv.value("path"), "MpCmdRun -DownloadFile"),)
    return (weakening("defender", None, "MpCmdRun -RemoveDefinitions"),) if argv.flag("removedefinitions") else ()


def _dism(op: Operation) -> Effects:
    text = argv_of(op).text()
    if "/disable-feature" in text and "defender" in text:
        return (weakening("defender", None, "dism /disable-feature Windows-Defender"),)
    if "/enable-feature" in text and "smb1protocol" in text:
        return (weakening("smb1", None, "dism /enable-feature SMB1Protocol"),)
    return ()


# Set-MpPreference's own parameter aliases (the Defender module's: `-mapsr` is -MAPSReporting, S-RULE-206).
_DEFENDER_ALIASES = {
    "drtm": "disablerealtimemonitoring",
    "dbm": "disablebehaviormonitoring",
    "dioavp": "disableioavprotection",
    "dscrptsc": "disablescriptscanning",
    "dips": "disableintrusionpreventionsystem",
    "dbaf": "disableblockatfirstseen",
    "darchsc": "disablearchivescanning",
    "demsc": "disableemailscanning",
    "drdsc": "disableremovabledrivescanning",
    "dsnf": "disablescanningnetworkfiles",
    "dsmndf": "disablescanningmappednetworkdrivesforfullscan",
    "dcfsc": "disablecatchupfullscan",
    "dcqsc": "disablecatchupquickscan",
    "drp": "disablerestorepoint",
    "mapsr": "mapsreporting",
    "scsc": "submitsamplesconsent",
    "ltdefac": "lowthreatdefaultaction",
    "mtdefac": "moderatethreatdefaultaction",
    "htdefac": "highthreatdefaultaction",
    "stdefac": "severethreatdefaultaction",
    "unktdefac": "unknownthreatdefaultaction",
    "tiddefaci": "threatiddefaultaction_ids",
    "tiddefaca": "threatiddefaultaction_actions",
}
# Setting → the values that turn protection off.
_DEFENDER_OFF_VALUES: Mapping[str, frozenset[str]] = {
    "mapsreporting": frozenset({"0", "disabled"}),
    "submitsamplesconsent": frozenset({"2", "neversend"}),
    "puaprotection": frozenset({"0", "disabled"}),
    # Audit modes log what they would block and block nothing (S-RULE-160).
    "enablecontrolledfolderaccess": frozenset({"0", "disabled", "2", "auditmode", "4", "auditdiskmodificationonly"}),
    "enablenetworkprotection": frozenset({"0", "disabled", "2", "auditmode"}),
    "cloudblocklevel": frozenset({"0", "default"}),
    "attacksurfacereductionrules_actions": frozenset({"0", "disabled", "2", "auditmode"}),
    "scanscheduleday": frozenset({"8", "never"}),
}
_ALLOW_ACTIONS = frozenset({"allow", "6", "noaction", "9"})  # ThreatAction values that let a threat stay
_DEFENDER_EXCLUSIONS = ("attacksurfacereductiononlyexclusions", "controlledfolderaccessallowedapplications")


def _turns_off(name: str, value: Value) -> bool:
    """Whether Defender setting `name` set to `value` turns protection off (an unknown value counts)."""
    folded = lower(value)
    if name.startswith("disable"):
        return value is None or folded not in ("false", "$false", "0")
    if name in _DEFENDER_OFF_VALUES:
        return value is None or folded in _DEFENDER_OFF_VALUES[name]
    if name == "threatiddefaultaction_actions":  # one action per threat id: any Allow lets that threat stay
        return value is None or any(part.strip() in _ALLOW_ACTIONS for part in folded.split(","))
    return name.endswith("defaultaction") and folded in _ALLOW_ACTIONS


# The settings the rules read, for a prefix PowerShell expands (`-MAPS 0`, `-Submit 2`): one that starts only one of
# them is read as it (PowerShell would reject one that is ambiguous among all of its parameters: nothing runs then).
_DEFENDER_SETTINGS = (
    *_DEFENDER_OFF_VALUES,
    "threatiddefaultaction_actions",
    *(f"{level}threatdefaultaction" for level in ("low", "moderate", "high", "severe", "unknown")),
)


def _defender_setting(raw: str) -> str:
    """A Set-MpPreference parameter as written (alias, prefix or name) → the setting's full name."""
    if raw in _DEFENDER_ALIASES:
        return _DEFENDER_ALIASES[raw]
    starting = [name for name in _DEFENDER_SETTINGS if name.startswith(raw)]
    return starting[0] if len(starting) == 1 and len(raw) >= 3 else raw


def _mp_preference(op: Operation) -> Effects:
    out: list[Effect] = []
    command = display(op.name)
    for raw, value in op.params:
        name = _defender_setting(raw)
        if name.startswith("exclusion") or name in _DEFENDER_EXCLUSIONS:
            out.append(weakening("defender", value, command, name))
        elif _turns_off(name, value):
            out.append(weakening("defender", name, command, name))
    return tuple(out)


_MP_METHODS = {"set": "set-mppreference", "add": "add-mppreference", "remove": "remove-mppreference"}


def defender_wmi(method: str, settings: Sequence[tuple[str, Value]] | None, command: str) -> Effects:
    """A method of Defender's WMI class `MSFT_MpPreference` (`Set`, `Add`, `Remove`): what Set-/Add-/Remove-MpPreference
    call, so its named settings are judged as theirs (S-RULE-160); settings given by position or not constant
    (None) are not known, so they count as weakening. Other methods (`Get`): ()."""
    cmdlet = _MP_METHODS.get(method.lower())
    if cmdlet is None:
        return ()
    if settings is None:
        return (weakening("defender", None, command),)
    op = Operation("powershell", cmdlet, tuple((lower(k), v) for k, v in settings), (), command, 0, None)
    found = _mp_removal(op) if cmdlet == "remove-mppreference" else _mp_preference(op)
    return tuple(weakening("defender", e.target, command, dict(e.extra).get("setting", "")) for e in found)


# Removing these from Defender's preferences takes protection away: an attack-surface-reduction rule, a
# folder from controlled folder access (removing an exclusion or an allowed app does the opposite).
_DEFENDER_REMOVALS = ("attacksurfacereductionrules_", "controlledfolderaccessprotectedfolders")


def _mp_removal(op: Operation) -> Effects:
    """`Remove-MpPreference -AttackSurfaceReductionRules_Ids …` (S-RULE-106); an abbreviated name counts too."""
    command = display(op.name)
    return tuple(
        weakening("defender", value, command, name)
        for name, value in op.params
        if len(name) >= 4 and any(full.startswith(name) or name.startswith(full) for full in _DEFENDER_REMOVALS)
    )


def _windows_feature(op: Operation) -> Effects:
    bound = bind(op, ("name",) if op.name.endswith("windowsfeature") else ("featurename",))
    names = [lower(n) for n in targets(bound, "name", "featurename")]
    if op.name.startswith(("enable-", "install-", "add-")):
        # SMB 1.0 has no encryption and was the way in for WannaCry; turning it back on weakens the machine.
        if any(n.startswith(("smb1protocol", "fs-smb1")) for n in names):
            return (weakening("smb1", None, display(op.name), "SMB1Protocol"),)
        return ()
    if any("defender" in n for n in names):
        return (weakening("defender", None, display(op.name), "Windows-Defender"),)
    return ()


# Set-SmbServerConfiguration / Set-SmbClientConfiguration settings → the value that weakens SMB.
_SMB_WEAK_VALUES: Mapping[str, tuple[str, bool]] = {
    "enablesmb1protocol": ("smb1", True),
    "enableinsecureguestlogons": ("smb-signing", True),
    "requiresecuritysignature": ("smb-signing", False),
    "enablesecuritysignature": ("smb-signing", False),
    "encryptdata": ("smb-signing", False),
    "rejectunencryptedaccess": ("smb-signing", False),
}


def _smb_configuration(op: Operation) -> Effects:
    out: list[Effect] = []
    for name, value in op.params:
        weak = _SMB_WEAK_VALUES.get(name)
        if weak is None:
            continue
        what, weak_when_on = weak
        on = value is None or lower(value) not in ("false", "$false", "0", "no")
        if value is None or on == weak_when_on:
            out.append(weakening(what, name, display(op.name), name))
    return tuple(out)


# Services that let another machine in: started or set to start, they open this desktop to the network as
# `Enable-PSRemoting` does (SSH server, Remote Desktop, WinRM, Remote Registry, Telnet) (S-RULE-98).
REMOTE_ACCESS_SERVICES = frozenset({"sshd", "termservice", "winrm", "remoteregistry", "tlntsvr"})
_REMOTE_ACCESS_DISPLAY = {
    "openssh ssh server": "sshd",
    "remote desktop services": "termservice",
    "windows remote management (ws-management)": "winrm",
    "remote registry": "remoteregistry",
    "telnet": "tlntsvr",
}


def opens_remote_access(name: Value) -> bool:
    """Whether a service name or display name is one of `REMOTE_ACCESS_SERVICES`."""
    text = lower(name).removesuffix(".exe")
    return text in REMOTE_ACCESS_SERVICES or _REMOTE_ACCESS_DISPLAY.get(text) is not None


def _service_change(op: Operation) -> Effects:
    bound = bind(op, ("name",))
    names = targets(bound, "name", "displayname")
    stopping = op.name in ("stop-service", "suspend-service", "remove-service")
    startup = lower(first(bound, "startuptype"))
    status = lower(first(bound, "status"))
    unknown_startup = "startuptype" in bound and first(bound, "startuptype") is None
    weakens = stopping or unknown_startup or startup in ("disabled", "manual") or status in ("stopped", "paused")
    opens = (
        op.name in ("start-service", "restart-service")
        or startup in ("automatic", "automaticdelayedstart", "boot", "system")
        or status == "running"
    )
    out: list[Effect] = []
    for name in names or [None]:
        if opens and opens_remote_access(name):  # `Set-Service sshd -StartupType Automatic`, `Start-Service WinRM`
            out.append(weakening("remote-access", name, display(op.name)))
        if name is None and weakens:  # `Stop-Service $s`, `… | Stop-Service` of a list not read: ask
            out.append(weakening(SERVICES_NOT_KNOWN, None, display(op.name)))
        for service in security_services(name) if weakens else ():
            shown = service if name is None or re.search(r"[*?\[]", name) else name  # `W*` stops WinDefend
            out.append(weakening(SECURITY_SERVICES[service], shown, display(op.name)))
    if op.name == "set-service" and "binarypathname" in bound:
        binary = first(bound, "binarypathname")
        out.append(
            effect(
                K.PERSISTENCE,
                names[0] if names else None,
                "Set-Service -BinaryPathName",
                extra=(("command", binary or ""),) + (((RUNS_LATER, binary),) if binary else ()),
            )
        )
    return tuple(out)


# Win32_Service's methods as the cmdlet that does the same (S-RULE-52).
_WMI_SERVICE_METHODS = {"stopservice": "stop-service", "pauseservice": "suspend-service", "delete": "remove-service"}
_WMI_SERVICE_NAME = re.compile(
    r"\b(?:name|displayname)\s*(?P<op>=|like)\s*(?:'(?P<q1>[^']*)'|\"(?P<q2>[^\"]*)\"|['\"]?(?P<bare>[^'\"\s)]+))",
    re.IGNORECASE,
)


def _wql_selected(where: str) -> Value:
    """The service name a WQL filter tests, as a PowerShell wildcard (LIKE's `%` and `_` are `*` and `?`);
    `*` for no filter (every service), None for a filter that tests something else (`State='Running'`)."""
    found = _WMI_SERVICE_NAME.search(where)
    if found is None:
        return None if where.strip() else "*"
    value = found.group("q1") or found.group("q2") or found.group("bare") or ""
    return value.replace("%", "*").replace("_", "?") if found.group("op").lower() == "like" else value


def wmi_service_change(method: str, where: str, start_mode: Value = None, path_name: Value = None) -> Effects:
    """A Win32_Service method (`StopService`, `PauseService`, `Delete`, `ChangeStartMode`, `Change`) called on the
    services `where` names (a WQL filter or wmic's `where` words), judged as `Stop-Service`,
    `Suspend-Service`, `Remove-Service` or `Set-Service -StartupType`; a `Change` of the binary path as `sc config
    … binpath=` (S-RULE-178: the service starts that program, as SYSTEM); () for any other method."""
    selected = _wql_selected(where)
    name: tuple[tuple[str, Value], ...] = (("name", selected),)
    method = method.lower()
    if method == "change" and path_name is not None:
        return _sc(Operation("program", "sc", (), ("config", selected, "binpath=", path_name), where, 0, None))
    if method == "change" and start_mode is not None:
        method = "changestartmode"
    if method in _WMI_SERVICE_METHODS:
        return _service_change(Operation("powershell", _WMI_SERVICE_METHODS[method], name, (), where, 0, None))
    if method == "changestartmode":
        mode = None if start_mode is None else unquote(start_mode)
        params = (*name, ("startuptype", mode))
        return _service_change(Operation("powershell", "set-service", params, (), where, 0, None))
    return ()


def _firewall_profile(op: Operation) -> Effects:
    bound = bind(op)
    profile = first(bound, "profile", "name") or ("all" if "all" in bound else None)
    enabled = first(bound, "enabled")
    if "enabled" in bound and (enabled is None or lower(enabled) in ("false", "$false", "0")):
        return (weakening("firewall", profile, "Set-NetFirewallProfile -Enabled False"),)
    if lower(first(bound, "defaultinboundaction")) == "allow":
        return (weakening("firewall", profile, "Set-NetFirewallProfile -DefaultInboundAction Allow"),)
    return ()


def _silences(program: str) -> bool:
    """Whether a firewall rule's program is one whose connections a security tool or Windows itself needs: a
    protected process (`MsMpEng.exe`, `MsSense.exe`, `lsass.exe`) or anything in Defender's folders. Blocking its
    traffic cuts it off from its cloud and its console while it still looks healthy (S-RULE-160)."""
    path = program.strip().strip("'\"").lower()
    return is_protected_process(path) or "windows defender" in path or "\\defender\\" in path


def _firewall_rule(op: Operation) -> Effects:
    bound = bind(op)
    if lower(first(bound, "action")) == "allow" and lower(first(bound, "direction")) != "outbound":
        return (weakening("firewall-rule", first(bound, "displayname", "name"), display(op.name) + " -Action Allow"),)
    program = first(bound, "program")
    if lower(first(bound, "action")) == "block" and (
        program is None and "program" in bound or _silences(program or "")
    ):
        return (weakening("defender", program, display(op.name) + " -Action Block -Program"),)
    return ()


# Certificate stores whose certificates Windows trusts for TLS and code signing (S-RULE-56).
TRUST_STORES = frozenset({"root", "authroot", "trustedpublisher", "trustedpeople"})
# Firewall rule groups that open the machine to remote control (S-RULE-56).
_REMOTE_GROUPS = re.compile(
    r"remote desktop|remote management|windows remote management|remote event log|remote service management"
    r"|remote scheduled tasks|remote volume management|winrm|remote assistance|\bwmi\b|windows management",
    re.IGNORECASE,
)


def trust_store(location: Value) -> bool:
    """Whether a store (`Root`, `Cert:\\LocalMachine\\Root`, `CurrentUser\\AuthRoot`) is one Windows trusts."""
    name = lower(location).replace("/", "\\").rstrip("\\").rsplit("\\", 1)[-1]
    return name in TRUST_STORES


def _certificate_import(op: Operation) -> Effects:
    """`Import-Certificate`/`Import-PfxCertificate -CertStoreLocation Cert:\\…\\Root`: a certificate made
    trusted, so TLS to any site can be intercepted and code signed with it runs as trusted (S-RULE-56)."""
    bound = bind(op, ("filepath",))
    location = first(bound, "certstorelocation")
    if "certstorelocation" in bound and (location is None or trust_store(location)):
        return (weakening("trusted-root", location, display(op.name), "certstorelocation"),)
    return ()


def trust_store_item(path: Value) -> bool:
    """Whether a provider path is a trusted store or a certificate in one (`Cert:\\LocalMachine\\Root\\<id>`)."""
    parts = lower(path).replace("/", "\\").strip("\\").split("\\")
    return len(parts) >= 3 and parts[0] == "cert:" and parts[2] in TRUST_STORES


def _store_changed(op: Operation) -> Effects:
    """`X509Store.Add`/`Remove` (S-RULE-137): the store the object opened, when known, is its one argument."""
    store = op.args[0] if op.args else None
    if store is not None and not trust_store(store):
        return ()  # the user's own `My` store, `CA`, … : no trust changes
    adds = op.name.rsplit(".", 1)[-1].startswith("add")
    what = "trusted-root" if adds else "certificate-store"
    return (weakening(what, store, "X509Store." + ("Add" if adds else "Remove"), "store"),)


# .NET calls that weaken a protection, by name without `system.` (effects_dispatch CALLS).
SECURITY_CALLS: Mapping[str, Handler] = {
    f"security.cryptography.x509certificates.x509store.{m}": _store_changed
    for m in ("add", "addrange", "remove", "removerange")
}


def _firewall_rule_enabled(op: Operation) -> Effects:
    """`Enable-NetFirewallRule`/`Set-NetFirewallRule … -Enabled True` of the Remote Desktop, remote management,
    WinRM or WMI rule groups opens the machine to remote control (S-RULE-56)."""
    bound = bind(op, ("name",))
    given = (first(bound, key) for key in ("displaygroup", "group", "name", "displayname"))
    names = " ".join(unquote(v) for v in given if v)
    enabled = op.name == "enable-netfirewallrule" or lower(first(bound, "enabled")) in ("true", "$true", "1", "yes")
    if not enabled or not _REMOTE_GROUPS.search(names):
        return ()
    return (weakening("remote-access", names, display(op.name)),)


def _firewall_rule_changed(op: Operation) -> Effects:
    """`Set-NetFirewallRule -Action Allow` opens what the rule covers. `Disable-`/`Remove-NetFirewallRule` and
    `-Enabled False` may switch off a rule that blocked something: a weakening, unless the rules are named by
    their group — Windows' own rule groups (Remote Desktop, File and Printer Sharing …) are allow rules, and
    switching them off closes ports. `-All`, a name, or rules piped in may be anyone's block rules."""
    bound = bind(op, ("name",))
    given = (first(bound, key) for key in ("displaygroup", "group", "name", "displayname"))
    names = " ".join(unquote(v) for v in given if v) or None
    if op.name == "set-netfirewallrule":
        if lower(first(bound, "action")) == "allow":
            return (weakening("firewall-rule", names, display(op.name) + " -Action Allow"),)
        if lower(first(bound, "enabled")) not in ("false", "$false", "0", "no"):
            return _firewall_rule_enabled(op)
    if first(bound, "displaygroup") is not None or first(bound, "group") is not None:
        return ()
    return (weakening("firewall-rule", names, display(op.name)),)


def _bitlocker(op: Operation) -> Effects:
    """BitLocker turned off, suspended or stripped of a protector: the disk is readable without the person."""
    return (weakening("bitlocker", first(bind(op, ("mountpoint",)), "mountpoint"), display(op.name)),)


def _bitlocker_keys(op: Operation) -> Effects:
    """A drive encrypted, locked or given a new key (S-RULE-179): the person reads it only with a key they hold,
    and one the agent chose (`-PasswordProtector -Password …`) they may never learn, which is how ShrinkLocker
    ransomware works."""
    return (effect(K.DISK_LOCK, first(bind(op, ("mountpoint",)), "mountpoint"), display(op.name)),)


# manage-bde's options that encrypt, lock or change a drive's keys (`-protectors -add`, S-RULE-179).
_BDE_LOCKS = ("on", "lock", "changepassword", "cp", "changepin", "cn", "changekey", "ck")


def _manage_bde(op: Operation) -> Effects:
    argv = argv_of(op)
    words = argv.lowered()
    if argv.flag("off", "forcerecovery", "fr") or (argv.flag("protectors") and argv.flag("disable", "delete")):
        return (weakening("bitlocker", None, "manage-bde " + " ".join(w for w in words if w.startswith("-"))),)
    if argv.flag(*_BDE_LOCKS) or (argv.flag("protectors") and argv.flag("add")):
        # The drive: a word of its own (`C:`), or the value PowerShell bound to the option (`-on C:` → `/on:C:`).
        drive = next((m.group(1) for w in argv.words if w and (m := _DRIVE_WORD.search(w.strip()))), None)
        return (effect(K.DISK_LOCK, drive, "manage-bde " + " ".join("-" + f for f in argv.flag_names())),)
    return ()


_DRIVE_WORD = re.compile(r"(?:^|:)([a-z]:)\\?$", re.IGNORECASE)


# Win32_EncryptableVolume's methods (the WMI class BitLocker's cmdlets call, and ShrinkLocker's route): those that
# encrypt, lock or add a key, and those that leave the drive readable without the person (S-RULE-179).
_VOLUME_LOCKS = frozenset(
    {"encrypt", "encryptafterhardwaretest", "lock", "protectkeywithpassphrase", "protectkeywithnumericalpassword"}
    | {"protectkeywithexternalkey", "protectkeywithtpmandpin", "changepassphrase", "changepin"}
)
_VOLUME_UNLOCKS = frozenset({"decrypt", "disablekeyprotectors", "deletekeyprotector", "deletekeyprotectors"})


def encryptable_volume(method: str, where: str, how: str) -> Effects | None:
    """A Win32_EncryptableVolume method on the volumes `where` selects; None for a method that changes nothing."""
    drive = re.search(r"driveletter\s*=\s*['\"]?([a-z]:)", where, re.IGNORECASE)
    target = drive.group(1) if drive else None
    if method in _VOLUME_LOCKS:
        return (effect(K.DISK_LOCK, target, f"{how} Win32_EncryptableVolume {method}"),)
    if method in _VOLUME_UNLOCKS:
        return (weakening("bitlocker", target, f"{how} Win32_EncryptableVolume {method}"),)
    return None


def _bootsect(op: Operation) -> Effects:
    """`bootsect /nt60 … /mbr` rewrites the boot code of a volume or the disk."""
    return (effect(K.DISK_DESTROY, None, "boot", extra=(("command", "bootsect"),)),)


def _execution_policy(op: Operation) -> Effects:
    bound = bind(op, ("executionpolicy", "scope"))
    policy = first(bound, "executionpolicy")
    scope = lower(first(bound, "scope"))
    weak = policy is None or lower(policy) in ("bypass", "unrestricted")
    if (
        "executionpolicy" in bound
        and weak
        and (scope != "process" or first(bound, "scope") is None and "scope" in bound)
    ):
        return (weakening("execution-policy", policy, "Set-ExecutionPolicy", scope or "localmachine"),)
    return ()


def _process_mitigation(op: Operation) -> Effects:
    bound = bind(op)
    return (
        (weakening("exploit-protection", first(bound, "name"), "Set-ProcessMitigation -Disable"),)
        if "disable" in bound
        else ()
    )


_AMSI = re.compile(r"amsiutils|amsiinitfailed|amsicontext|amsiscanbuffer|amsisession", re.IGNORECASE)
# PowerShell's own logging, switched off from inside the session through reflection (S-RULE-175): the cached Group
# Policy settings that turn on script block and module logging, and the ETW provider every PowerShell event goes
# out through (`PSEtwLogProvider.etwProvider`, ntdll's `EtwEventWrite` patched).
_PS_LOGGING = re.compile(r"cachedgrouppolicysettings|psetwlogprovider|etwprovider|etweventwrite", re.IGNORECASE)


def dotnet_security(op: Operation) -> Effects:
    """SECURITY_WEAKENING "amsi" (or "monitoring") for a .NET call that names AMSI's internals (or PowerShell's
    logging internals, `_PS_LOGGING`): no ordinary script does.

    Args:
        op: a dotnet operation (`[Ref].Assembly.GetType('…AmsiUtils')`, `GetField('amsiInitFailed')`).

    Returns:
        The weakening, or `()`.
    """
    # The text too: `[Ref].Assembly.GetType('…AmsiUtils')…SetValue(…)` reaches us as `?.setvalue`.
    for pattern, what in ((_AMSI, "amsi"), (_PS_LOGGING, "monitoring")):
        if (
            pattern.search(op.name)
            or pattern.search(op.text)
            or any(v is not None and pattern.search(v) for v in op.args)
        ):
            return (weakening(what, None, unquote(op.name)),)
    return ()


# ---------------------------------------------------------------------------------------
# Remote management: switched on or opened up, the machine can be driven from elsewhere (like RDP's key).


def _remoting(command: str) -> Handler:
    return lambda op: (weakening("remote-access", None, command),)


def _windows_capability(op: Operation) -> Effects:
    names = [lower(n) for n in targets(bind(op, ()), "name")]
    if any(n.startswith("openssh.server") for n in names):  # an SSH server: logins from the network
        return (weakening("remote-access", None, "Add-WindowsCapability OpenSSH.Server"),)
    return ()


# `winrm set …` settings that let anyone in, or in the clear.
_WINRM_OPEN = re.compile(r"trustedhosts|allowunencrypted\s*=\s*\"?true|basic\s*=\s*\"?true|credssp\s*=\s*\"?true")


def _winrm(op: Operation) -> Effects:
    words = argv_of(op).lowered()
    verb = words[0] if words else ""
    if verb in ("quickconfig", "qc", "invoke") or (verb in ("set", "s") and _WINRM_OPEN.search(" ".join(words))):
        return (weakening("remote-access", None, f"winrm {verb}"),)
    return ()


def wsman_setting(path: Value) -> Effects:
    """SECURITY_WEAKENING for a `Set-Item WSMan:\\…` that lets anyone in or in the clear (TrustedHosts, Basic, …)."""
    text = lower(path)
    if text.startswith("wsman:") and re.search(r"trustedhosts|allowunencrypted|\\auth\\(?:basic|credssp)", text):
        return (weakening("remote-access", path, "Set-Item WSMan:"),)
    return ()


# The trace sessions that feed the event logs and security monitoring (S-RULE-57).
_LOG_SESSIONS = re.compile(r"eventlog-|sysmon|defender|\bsense\b|diagtrack|microsoft-windows-threat", re.IGNORECASE)


def _logman(op: Operation) -> Effects:
    """`logman stop|delete|update <session> -ets` of an event-log or monitoring session: what would be logged
    no longer is (S-RULE-57)."""
    words = argv_of(op).positionals()
    verb = lower(words[0]) if words else ""
    if len(words) > 2 and lower(words[1]) in ("trace", "counter", "alert", "cfg", "api"):
        words = [words[0], *words[2:]]  # `logman update trace <session> …`
    name = words[1] if len(words) > 1 else None
    if verb in ("stop", "delete", "update") and (name is None or _LOG_SESSIONS.search(unquote(name))):
        return (weakening("event-log", name, f"logman {verb}"),)
    return ()


def _etw_session(op: Operation) -> Effects:
    """`Stop-EtwTraceSession`/`Remove-EtwTraceSession`/`Remove-EtwTraceProvider`/`Remove-AutologgerConfig` of an
    event-log or monitoring session (S-RULE-57)."""
    bound = bind(op, ("name",))
    name = first(bound, "sessionname", "autologgername", "name")
    if name is None or _LOG_SESSIONS.search(unquote(name)):
        return (weakening("event-log", name, display(op.name)),)
    return ()


def _fltmc(op: Operation) -> Effects:
    """`fltmc unload|detach <filter>`: a file-system filter driver taken off the disks (S-RULE-109). Such filters
    are, nearly all, what antivirus, EDR and monitoring tools see files through (WdFilter, SysmonDrv); a
    filter the table does not name is taken for security software too. Listing them (`fltmc`, `fltmc
    filters`, `fltmc instances`) passes."""
    words = argv_of(op).positionals()
    verb = lower(words[0]) if words else ""
    if verb not in ("unload", "detach"):
        return ()
    name = words[1] if len(words) > 1 else None
    what = SECURITY_SERVICES.get(service_name(name), "security-software") if name is not None else "security-software"
    return (weakening(what, name, f"fltmc {verb}"),)


def _ssh_tunnel(op: Operation) -> Effects:
    """`ssh -R …` / `plink -R …`: a port on the remote host forwarded to this machine, which opens it to
    whoever reaches that host, as an inbound firewall rule would (S-RULE-80). `-L` and `-D` listen here."""
    if not read_ssh(argv_of(op).words).remote_forward:
        return ()
    return (weakening("remote-access", None, f"{op.name} -R (a remote port forwarded here)"),)


# Tunnel services that publish a port of this machine on the internet (`ngrok tcp 3389`).
_TUNNEL_VERBS = {"ngrok": {"tcp", "http", "tls", "start", "tunnel"}, "cloudflared": {"tunnel"}, "frpc": set()}


def _tunnel_service(op: Operation) -> Effects:
    words = [lower(w) for w in argv_of(op).words if w is not None]
    verbs = _TUNNEL_VERBS.get(op.name, set())
    if verbs and not (set(words) & verbs):
        return ()  # `ngrok config add-authtoken …`, `cloudflared --version`
    return (weakening("remote-access", None, f"{op.name} {' '.join(words[:2])}".strip()),)


# netcat's and ncat's switches that hand a program's input and output to the connection (S-RULE-158).
_NETCAT_EXEC = frozenset({"-e", "-c", "--exec", "--sh-exec", "--lua-exec"})


def _netcat(op: Operation) -> Effects:
    """`nc -e cmd.exe host 4444`, `ncat -l 4444 --sh-exec cmd`, `socat TCP:host:4444 EXEC:cmd.exe`: a shell (or
    any program) handed to whoever is at the other end of a connection — a remote shell on this machine, as a
    tunnel into it is (S-RULE-158). netcat's other uses (a port test, a file sent) are judged elsewhere."""
    words = [lower(w) for w in argv_of(op).words if w is not None]
    if op.name == "socat":
        found = any(w.startswith(("exec:", "system:")) for w in words)
    else:
        found = any(
            w in _NETCAT_EXEC or w.partition("=")[0] in _NETCAT_EXEC or (w[:1] == "-" and w[1:2] != "-" and "e" in w)
            for w in words
        )
    return (weakening("remote-access", None, f"{op.name} (a program handed to a network connection)"),) if found else ()


# The system clock (S-RULE-215): the gateway dates observations, approvals and audit lines by it, so set back an
# approval granted for minutes lasts longer, and the audit's times say what the agent chose; Kerberos and
# certificate checks read it too. `Set-Date`, cmd's `date`/`time` given a value (alone they print it; `/t` too),
# `net time … /set` (effects_system), WMI's `SetDateTime`.
def _set_date(op: Operation) -> Effects:
    return (weakening("system-clock", None, "Set-Date"),)


def _cmd_clock(op: Operation) -> Effects:
    words = [w for w in argv_of(op).words if w is None or w.strip()]
    if any(w is not None and w.strip().lower() == "/t" for w in words):
        return ()  # printed
    if not words and op.input_from is None:
        return ()  # printed; cmd then waits for a new value on its input, which only the person can type
    # A value given, or piped in (`echo 01-01-2020| date`: what the pipe holds becomes the date).
    how = "a new value" if words else "a new value piped in"
    return (weakening("system-clock", None, f"cmd {op.name} ({how})"),)


CMD_CLOCK: Mapping[str, Handler] = {"date": _cmd_clock, "time": _cmd_clock}

SECURITY_PROGRAMS: Mapping[str, Handler] = {
    "ssh": _ssh_tunnel,
    **dict.fromkeys(("nc", "ncat", "netcat", "nc64", "socat"), _netcat),
    "plink": _ssh_tunnel,
    **dict.fromkeys(_TUNNEL_VERBS, _tunnel_service),
    "logman": _logman,
    "fltmc": _fltmc,
    "winrm": _winrm,
    "sc": _sc,
    "auditpol": _auditpol,
    "bcdedit": _bcdedit,
    "bootsect": _bootsect,
    "manage-bde": _manage_bde,
    "netsh": _netsh,
    "mpcmdrun": _mpcmdrun,
    "dism": _dism,
}

SECURITY_CMDLETS: Mapping[str, Handler] = {
    "set-date": _set_date,
    "set-mppreference": _mp_preference,
    "add-mppreference": _mp_preference,
    "remove-mppreference": _mp_removal,
    "uninstall-windowsfeature": _windows_feature,
    "remove-windowsfeature": _windows_feature,
    "disable-windowsoptionalfeature": _windows_feature,
    "enable-windowsoptionalfeature": _windows_feature,
    "install-windowsfeature": _windows_feature,
    "add-windowsfeature": _windows_feature,
    "set-smbserverconfiguration": _smb_configuration,
    "set-smbclientconfiguration": _smb_configuration,
    "stop-service": _service_change,
    "start-service": _service_change,
    "restart-service": _service_change,
    "suspend-service": _service_change,
    "remove-service": _service_change,
    "set-service": _service_change,
    "set-netfirewallprofile": _firewall_profile,
    "new-netfirewallrule": _firewall_rule,
    "enable-netfirewallrule": _firewall_rule_enabled,
    "set-netfirewallrule": _firewall_rule_changed,
    "disable-netfirewallrule": _firewall_rule_changed,
    "remove-netfirewallrule": _firewall_rule_changed,
    "disable-bitlocker": _bitlocker,
    "enable-bitlocker": _bitlocker_keys,
    "add-bitlockerkeyprotector": _bitlocker_keys,
    "lock-bitlocker": _bitlocker_keys,
    "suspend-bitlocker": _bitlocker,
    "remove-bitlockerkeyprotector": _bitlocker,
    "import-certificate": _certificate_import,
    "stop-etwtracesession": _etw_session,
    "remove-etwtracesession": _etw_session,
    "remove-etwtraceprovider": _etw_session,
    "remove-autologgerconfig": _etw_session,
    "import-pfxcertificate": _certificate_import,
    "set-executionpolicy": _execution_policy,
    "set-processmitigation": _process_mitigation,
    "enable-psremoting": _remoting("Enable-PSRemoting"),
    "set-wsmanquickconfig": _remoting("Set-WSManQuickConfig"),
    "enable-wsmancredssp": _remoting("Enable-WSManCredSSP"),
    "add-windowscapability": _windows_capability,
}


# ---------------------------------------------------------------------------------------
# Security software uninstalled (a package manager, MSI, WMI, a Windows feature)

# Names of security products, as they appear in package ids, display names and feature names.
_SECURITY_PRODUCT = re.compile(
    r"defender|malwarebytes|\bmbam|norton|symantec|mcafee|kaspersky|bitdefender|\beset\b|sophos|crowdstrike"
    r"|\bfalcon\b|sentinel ?one|sentinelagent|avast|\bavg\b|trend ?micro|webroot|sysmon|carbon ?black"
    r"|cylance|cortex xdr|f-secure|\bpanda\b|comodo|zonealarm|avira|antivirus|anti-?malware|endpoint protection"
    r"|sechealthui|securityhealth|windows security",
    re.IGNORECASE,
)
_UNINSTALL_CMDLETS = frozenset(
    {"uninstall-package", "uninstall-windowsfeature", "remove-windowsfeature", "disable-windowsoptionalfeature"}
    | {"remove-appxpackage", "uninstall-module"}
)
_UNINSTALL_WORDS = re.compile(
    r"(?:^|\s)(?:uninstall|remove|/x|/uninstall|-x|/disable-feature|/remove-package|/remove-capability)(?:\s|:|$)"
    r"|call\s+uninstall|-methodname\s+uninstall|-name\s+uninstall|\.uninstall\(",
    re.IGNORECASE,
)
_UNINSTALL_PROGRAMS = frozenset({"winget", "choco", "msiexec", "wmic", "dism", "scoop"})


def _uninstalls(op: Operation) -> bool:
    if op.shell == "powershell" and op.name in _UNINSTALL_CMDLETS:
        return True
    if op.shell == "powershell" and op.name in ("invoke-cimmethod", "invoke-wmimethod"):
        return bool(_UNINSTALL_WORDS.search(op.text))
    return op.shell == "program" and op.name in _UNINSTALL_PROGRAMS and bool(_UNINSTALL_WORDS.search(op.text))


def security_software_removed(ops: Sequence[Operation]) -> Effects:
    """`security-software` weakening for each uninstall whose command, or the command piping into it,
    names a security product (`winget uninstall Malwarebytes`, `Get-Package *Sophos* | Uninstall-Package`,
    `wmic product where "name like '%Defender%'" call uninstall`, `Uninstall-WindowsFeature Windows-Defender`).

    An uninstall by product code (`msiexec /x {GUID}`) names no product and is not judged (a documented limit).
    """
    found: list[Effect] = []
    for index, op in enumerate(ops):
        if not _uninstalls(op):
            continue
        feeding = ops[index - 1].text if op.input_from is not None and index > 0 else ""
        named = _SECURITY_PRODUCT.search(op.text) or _SECURITY_PRODUCT.search(feeding)
        if named is not None:
            found.append(weakening("security-software", named.group(0), f"{op.name} (uninstall)"))
    return tuple(found)
