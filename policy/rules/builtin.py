"""The built-in command rules as data (S-RULE-04, S-RULE-05): ids, actions, reasons, patterns.

Text patterns are regexes over `normalise`d command text (every layer `expand` returns):
lower case, `/` separators, single spaces, aliases already mapped to cmdlets. `_S` below
means "later in the same statement" (no `;`, `|` or `&` in between, within STATEMENT_REACH
characters). Predicates (in `_rule_args`) read structured tools' arguments by upstream's
REAL names (`mode`, never `action`; S-RULE-01) and only the names listed in `READ_ARGS` —
a test records every key a rule reads.

deny vs ask: destructive or irreversible (recursive delete, disks, backups, registry
roots, critical processes, shutdown), security weakening (execution policy, firewall,
Defender, UAC, hidden or downloaded code, hijack persistence, interpreters via App) and
commands too long or too nested to inspect DENY.
What a person may well want to allow once — force-killing an app, killing Explorer, an
autostart entry, opening Run or Win+X, a toast that reads like instructions — ASKS.
Order matters only among equals: `RuleSet.match` returns the first deny in table order,
else the first ask (S-RULE-07); specific rules come before general ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from policy.rules.args import (
    BROAD_KEYS,
    CRITICAL_PROCESSES,
    Predicate,
    app_interpreter,
    fs_recursive_delete,
    fs_startup_write,
    kill_critical,
    kill_explorer,
    kill_forced,
    machine_hive_delete,
    only_for,
    registry_autostart,
    registry_defender,
    registry_hijack,
    registry_value_rule,
    shortcut_launcher,
    top_key_delete,
)

# The argument helpers moved to `_rule_args`; the public ones stay importable from here.

Action: TypeAlias = Literal["deny", "ask"]

# Every argument a built-in rule reads, per tool (S-RULE-01). The doctor compares these
# with upstream's live inputSchema; tests compare them with tools_list.json.
READ_ARGS: Mapping[str, tuple[str, ...]] = {
    "PowerShell": ("command",),
    "Registry": ("mode", "path", "name", "value", "type"),
    "FileSystem": ("mode", "path", "destination", "recursive", "append", "content"),
    "Process": ("mode", "name", "pid", "force"),
    "App": ("mode", "name", "executable", "args", "cwd"),
    "Shortcut": ("shortcut",),
    "Notification": ("title", "message", "app_id"),
    "Scrape": ("url",),  # a file: URL or a cloud's metadata service (S-RULE-144)
}

COMMAND_TOOLS = ("PowerShell", "App")  # tools whose content is (or builds) a command line


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSpec:
    """One built-in rule before compilation: `patterns` are joined with `|`."""

    id: str
    action: Action
    risk: str
    reason: str
    tools: tuple[str, ...] = COMMAND_TOOLS
    patterns: tuple[str, ...] = ()
    predicate: Predicate | None = None


# Longest command the rules inspect. Upstream runs PowerShell as `-EncodedCommand <base64 of
# UTF-16LE>` on a command line of at most 32,767 characters (CreateProcess), which holds about
# 12,270 characters of command: anything longer cannot run there anyway, and inspecting it
# would cost more than a tripwire should.
MAX_COMMAND_CHARS = 12_288
# The view `tool_views` adds for a command it could not inspect completely. `normalise`
# drops NUL, so no command text can produce it.
UNINSPECTABLE_VIEW = "\x00uninspectable"


# ---------------------------------------------------------------------------------------
# Text pattern pieces (over normalised text)

# Later in the same statement, within STATEMENT_REACH characters. Unbounded, a lazy scan per
# command word is quadratic on hostile input (thousands of `powershell` words in one
# statement); padding a statement past the reach is one more way past a tripwire.
STATEMENT_REACH = 1000
_S = rf"[^;|&]{{0,{STATEMENT_REACH}}}?"
_END = r"(?![\w\-])"


# Words that ask for a secret in a prompt's text (S-RULE-187).
_SECRET_WORDS = (
    r"(?<![\w])(?:password|passwort|passphrase|passcode|pin|credentials?|verification\scode|security\scode"
    r"|one-time|2fa|mfa|otp|secret|recovery\skey|seed\sphrase)(?![\w])"
)


def _cmd(*names: str) -> str:
    """A command word (or phrase) standing alone: not part of a longer name or a variable."""
    return r"(?<![\w\-.$])(?:" + "|".join(names) + ")" + _END


_MACHINE = r"(?<![\w])(?:hklm|hkcr|hku|hkcc|hkey_local_machine|hkey_classes_root|hkey_users|hkey_current_config)"
_BROAD = "|".join(sorted((k.replace(" ", r"\s") for k in BROAD_KEYS), key=len, reverse=True))
_REG_WRITE = (
    "(?:"
    + _cmd("set-itemproperty", "new-itemproperty", "new-item", "set-item", r"reg\sadd")
    + "|setvalue|createsubkey)"
)
_CRIT_NAMES = "|".join(sorted(CRITICAL_PROCESSES)).replace(" ", r"\s")
_CRIT = r"(?<![\w\-.])['\"]?(?:" + _CRIT_NAMES + r")(?:\.exe)?(?![\w\-.])"
_DOWNLOADER = (
    r"(?:invoke-webrequest|invoke-restmethod|start-bitstransfer|downloadstring|downloaddata|downloadfile"
    r"|net\.webclient|msxml2\.xmlhttp|winhttp\.winhttprequest|net\.http\.httpclient)"
)
_RUNNER = (
    r"(?:invoke-expression|scriptblock\]::create|\|\s*(?:powershell|pwsh|cmd)(?![\w\-])|start-process|invoke-item"
    r"|(?:^|[;&|(]\s*)['\"]?[^\s;|&'\"]+\.(?:exe|ps1|bat|cmd|vbs|js|hta|msi|scr)(?![\w]))"
)
_FALSE = r"(?:\s*:\s*|\s+)['\"]?\$?(?:false|0)" + _END
_TRUE = r"(?:\s*:\s*|\s+)['\"]?\$?(?:true|1)" + _END
_DEF_SVC = r"(?<![\w\-])(?:windefend|wdnissvc|sense|wdfilter|wdboot|securityhealthservice)" + _END
_STOP_SVC = _cmd("stop-service", r"sc\.exe\s(?:stop|delete)", r"net\sstop")
_DISABLE_SVC = _cmd("set-service", r"sc\.exe\sconfig")
_STARTUP_TEXT = r"(?:start\smenu/programs/startup|shell:(?:common\s)?startup)" + _END
_FILE_WRITE = (
    r"(?:set-content|add-content|out-file|copy-item|move-item|new-item|invoke-webrequest|start-bitstransfer"
    r"|downloadfile|writealltext|writeallbytes|createshortcut|mklink|>)"
)

_R = "registry-destruction"

BUILTIN_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec(
        id="uninspectable-command",
        action="deny",
        risk="uninspectable",
        reason=f"The command is too long (over {MAX_COMMAND_CHARS} characters) or too deeply nested to "
        "inspect. Split it into smaller, plainer commands.",
        patterns=(re.escape(UNINSPECTABLE_VIEW),),
    ),
    RuleSpec(
        id="app-launch-interpreter",
        action="deny",
        risk="code-execution",
        reason="App may not launch a shell, script host, interpreter or LOLBin (PowerShell, cmd, wscript, "
        "mshta, rundll32, python, …) or a script file: that runs arbitrary commands past the command rules. "
        "Use the PowerShell tool, whose command the rules can read.",
        tools=("App",),
        predicate=only_for("App", app_interpreter),
    ),
    RuleSpec(
        id="registry-delete-machine-hive",
        action="deny",
        risk=_R,
        reason="Deleting from a machine-wide registry hive (HKLM, HKCR, HKU, HKCC) can break Windows "
        "for every user and cannot be undone. Read the key instead, or ask the user to make this change.",
        tools=(*COMMAND_TOOLS, "Registry"),
        patterns=(
            _cmd("remove-item", "remove-itemproperty") + _S + _MACHINE + r"(?::|/|\b)",
            _cmd(r"reg\sdelete") + r"\s['\"]?" + _MACHINE + r"\b",
            r"(?:localmachine|classesroot|users|currentconfig)\.deletesubkey(?:tree)?\s*\(",
        ),
        predicate=only_for("Registry", machine_hive_delete),
    ),
    RuleSpec(
        id="registry-delete-top-key",
        action="deny",
        risk=_R,
        reason="Registry delete without `name` removes the WHOLE key recursively, and this key is a "
        "top-level one (or not a registry key at all). Delete a specific value with `name`, or a deeper key.",
        tools=(*COMMAND_TOOLS, "Registry"),
        patterns=(
            _cmd("remove-item", r"reg\sdelete")
            + _S
            + r"(?<![\w])(?:hkcu:?|hkey_current_user)(?:/(?:"
            + _BROAD
            + r"|[^/\s'\";|&]+))?/?(?=$|[\s'\";|&])",
        ),
        predicate=only_for("Registry", top_key_delete),
    ),
    RuleSpec(
        id="recursive-delete",
        action="deny",
        risk="data-loss",
        reason="Recursive delete can destroy a whole directory tree irreversibly. Delete specific files "
        "one at a time (FileSystem mode=delete without recursive), or ask the user to do it.",
        tools=(*COMMAND_TOOLS, "FileSystem"),
        patterns=(
            _cmd("remove-item") + _S + r"\s(?:-recurse(?!:\$?false)|/s|-[fvi]*r[fvi]*|--recursive)" + _END,
            _cmd("get-childitem") + r"[^;]*?\s-recurse" + _END + r"[^;]*?\|\s*remove-item" + _END,
            r"(?:directory\]::delete|\.delete)\(\s*[^()]*,\s*\$true\s*\)",
            r"^(?=.*" + _cmd("remove-item") + r")(?=.*\brecurse\s*=\s*\$true)",
        ),
        predicate=only_for("FileSystem", fs_recursive_delete),
    ),
    RuleSpec(
        id="format-disk",
        action="deny",
        risk="disk-destruction",
        reason="Formatting, clearing, initialising or partitioning a disk destroys all data on it. "
        "This is never done through the agent; ask the user.",
        patterns=(
            _cmd("format-volume", "clear-disk", "initialize-disk", "remove-partition", "diskpart"),
            _cmd("format") + r"\s['\"]?[a-z]:",
        ),
    ),
    RuleSpec(
        id="delete-backups",
        action="deny",
        risk="recovery-destruction",
        reason="Deleting shadow copies or backups, or disabling boot recovery, removes the way back "
        "from a mistake (a ransomware pattern). Ask the user.",
        patterns=(
            _cmd("vssadmin") + r"\s(?:delete\sshadows|resize\sshadowstorage)",
            _cmd("wmic") + _S + r"\bshadowcopy\sdelete\b",
            r"^(?=.*win32_shadowcopy)(?=.*(?:remove-wmiobject|remove-ciminstance|\.delete\(\)))",
            _cmd("wbadmin") + r"\sdelete\s(?:catalog|systemstatebackup|backup)",
            _cmd("bcdedit") + _S + r"\b(?:recoveryenabled\s(?:no|off|0)|bootstatuspolicy\signoreallfailures)\b",
        ),
    ),
    RuleSpec(
        id="kill-critical-process",
        action="deny",
        risk="system-crash",
        reason="Terminating a critical Windows process (csrss, lsass, winlogon, services, svchost, "
        "Defender, …) crashes or weakens the system. Kill the specific application process instead.",
        tools=(*COMMAND_TOOLS, "Process"),
        patterns=(
            _cmd("stop-process", "taskkill", "tskill", "pskill") + _S + _CRIT,
            _cmd("get-process") + r"\s(?:-name\s)?" + _CRIT + r"['\"]?[^;]*?(?:\|\s*stop-process|\.kill\()",
            _cmd("wmic") + r"\sprocess\swhere" + _S + _CRIT + _S + r"\s(?:delete|call\sterminate)\b",
            _cmd("stop-process") + _S + r"\s-id\s[04](?!\w)",
            _cmd("taskkill") + _S + r"\s/pid\s[04](?!\w)",
        ),
        predicate=only_for("Process", kill_critical),
    ),
    RuleSpec(
        id="shutdown-restart",
        action="deny",
        risk="availability",
        reason="Shutting down, restarting or logging off ends the user's session and loses unsaved work. "
        "Ask the user to do it.",
        patterns=(
            _cmd("stop-computer", "restart-computer", "logoff"),
            _cmd("shutdown") + _S + r"\s[-/](?:s|r|p|h|l|g|sg)" + _END,
            r"win32shutdown|(?<![\w])(?:exitwindowsex|initiatesystemshutdown(?:ex)?)\b",
            _cmd("wmic") + r"\sos\b" + _S + r"\b(?:shutdown|reboot)\b",
        ),
    ),
    RuleSpec(
        id="weaken-execution-policy",
        action="deny",
        risk="security-weakening",
        reason="Setting the PowerShell execution policy to Bypass or Unrestricted weakens a machine-wide "
        "safety setting. Run the command you need directly instead.",
        tools=(*COMMAND_TOOLS, "Registry"),
        patterns=(
            _cmd("set-executionpolicy")
            + r"(?![^;|&]*-scope\sprocess"
            + _END
            + ")"
            + _S
            + r"(?<![\w\-])(?:bypass|unrestricted)"
            + _END,
            _REG_WRITE + _S + r"(?:shellids/microsoft\.powershell|policies/microsoft/windows/powershell)"
            r"\b" + _S + r"\bexecutionpolicy\b" + _S + r"\b(?:bypass|unrestricted)\b",
        ),
        predicate=registry_value_rule(
            r"(?:shellids/microsoft\.powershell|policies/microsoft/windows/powershell)$",
            frozenset({"executionpolicy"}),
            frozenset({"bypass", "unrestricted"}),
        ),
    ),
    RuleSpec(
        id="disable-firewall",
        action="deny",
        risk="security-weakening",
        reason="Turning off Windows Firewall exposes the machine to the network. Never done through "
        "the agent; ask the user.",
        tools=(*COMMAND_TOOLS, "Registry"),
        patterns=(
            _cmd("set-netfirewallprofile") + _S + r"\s-enabled" + _FALSE,
            _cmd("netsh") + r"\sadvfirewall\sset\s\S+\sstate\soff\b",
            _cmd("netsh") + r"\sfirewall\sset\sopmode\s(?:mode\s?=\s?)?disable\b",
            _STOP_SVC + _S + r"(?<![\w\-])mpssvc" + _END,
            _DISABLE_SVC + _S + r"(?<![\w\-])mpssvc" + _END + _S + r"disabled\b",
            _REG_WRITE + _S + r"(?:firewallpolicy|windowsfirewall)" + _S + r"\benablefirewall\b"
            r"" + _S + r"(?:\s|:|=)['\"]?0(?!\w)",
        ),
        predicate=registry_value_rule(
            r"(?:services/sharedaccess/parameters/firewallpolicy|policies/microsoft/windowsfirewall)/",
            frozenset({"enablefirewall"}),
            frozenset({"0", "false"}),
        ),
    ),
    RuleSpec(
        id="disable-defender",
        action="deny",
        risk="security-weakening",
        reason="Disabling Microsoft Defender protection or adding a Defender exclusion weakens malware "
        "protection. Never done through the agent; ask the user.",
        tools=(*COMMAND_TOOLS, "Registry"),
        patterns=(
            _cmd("set-mppreference") + _S + r"\s-(?:disable[a-z]*|drtm|dbm|dioavp|dscrptsc|dips|dbaf)" + _TRUE,
            _cmd("set-mppreference") + _S + r"\s-(?:mapsreporting|submitsamplesconsent)"
            r"(?:\s*:\s*|\s+)['\"]?(?:0|disabled|2|neversend)" + _END,
            _cmd("add-mppreference", "set-mppreference") + _S + r"\s-exclusion(?:path|process|extension|ipaddress)"
            r"" + _END,
            _STOP_SVC + _S + _DEF_SVC,
            _DISABLE_SVC + _S + _DEF_SVC + _S + r"disabled\b",
            _cmd("uninstall-windowsfeature", "remove-windowsfeature", "disable-windowsoptionalfeature")
            + _S
            + r"windows-defender",
            _cmd("mpcmdrun") + _S + r"\s-removedefinitions\b",
            _REG_WRITE + _S + r"windows\sdefender" + _S + r"(?:exclusions|\bdisable[a-z]*\b)",
        ),
        predicate=only_for("Registry", registry_defender),
    ),
    RuleSpec(
        id="disable-uac",
        action="deny",
        risk="security-weakening",
        reason="Turning off User Account Control (EnableLUA / consent prompts = 0) removes elevation "
        "prompts machine-wide. Never done through the agent; ask the user.",
        tools=(*COMMAND_TOOLS, "Registry"),
        patterns=(
            _REG_WRITE
            + _S
            + r"policies/system"
            + _S
            + r"\b(?:enablelua|consentpromptbehavioradmin|promptonsecuredesktop)\b"
            + _S
            + r"(?:\s|:|=)['\"]?0(?!\w)",
        ),
        predicate=registry_value_rule(
            r"currentversion/policies/system$",
            frozenset({"enablelua", "consentpromptbehavioradmin", "promptonsecuredesktop"}),
            frozenset({"0"}),
        ),
    ),
    RuleSpec(
        id="persistence-hijack",
        action="deny",
        risk="persistence",
        reason="This writes a hijack point that runs code behind the user's back (Winlogon shell/userinit, "
        "Image File Execution Options, AppInit_DLLs, cmd AutoRun, COM or handler hijack, WMI subscription, "
        "accessibility-binary swap). Never done through the agent.",
        tools=(*COMMAND_TOOLS, "Registry"),
        patterns=(
            _REG_WRITE
            + _S
            + r"(?:image\sfile\sexecution\soptions|/currentversion/winlogon\b|silentprocessexit|appinit_dlls"
            r"|command\sprocessor|userinitmprlogonscript|(?:ms-settings|mscfile|exefile|folder)/shell/open/command"
            r"|/inprocserver32|/localserver32)",
            r"__eventfilter|commandlineeventconsumer|activescripteventconsumer|__filtertoconsumerbinding",
            _cmd("copy-item", "move-item", "set-content", "rename-item", "takeown", "icacls")
            + _S
            + r"system32/(?:sethc|utilman|osk|magnify|narrator|displayswitch)\.exe",
        ),
        predicate=only_for("Registry", registry_hijack),
    ),
    RuleSpec(
        id="download-execute",
        action="deny",
        risk="code-execution",
        reason="Downloading code and running it (iwr|iex, DownloadString, certutil -urlcache, bitsadmin, "
        "mshta/regsvr32 with a URL) executes content nobody has reviewed. Download to a file and show it "
        "to the user first, or ask the user.",
        patterns=(
            r"^(?=.*" + _DOWNLOADER + r")(?=.*" + _RUNNER + ")",
            _cmd("certutil") + _S + r"\s[-/](?:urlcache|verifyctl)" + _END,
            _cmd("bitsadmin") + _S + r"\s/(?:transfer|addfile|download|setnotifycmdline)" + _END,
            _cmd("mshta") + r"\s['\"]?(?:https?:|javascript:|vbscript:|about:|ftp:)",
            _cmd("regsvr32") + _S + r"/i:['\"]?(?:https?|ftp):",
            _cmd("rundll32") + _S + r"javascript:",
            _cmd("msiexec") + _S + r"(?:https?|ftp)://",
        ),
    ),
    RuleSpec(
        id="encoded-command",
        action="deny",
        risk="code-execution",
        reason="An encoded (-EncodedCommand / base64) command hides what runs. Send the plain command text.",
        patterns=(
            r"(?<![\w\-])[-/]encodedcommand" + _END,
            _cmd("powershell", "pwsh") + _S + r"\s['\"]?[-/](?:e|ec|en[a-z]*)['\"]?[\s,]+['\"]?[a-z0-9+/]{8,}",
            r"^(?=.*frombase64string)(?=.*(?:invoke-expression|scriptblock\]::create|invoke-command"
            r"|\|\s*(?:powershell|pwsh)(?![\w\-])))",
        ),
    ),
    RuleSpec(
        id="force-kill",
        action="ask",
        risk="data-loss",
        reason="Force-killing a process discards its unsaved work; a person must approve it. Try a "
        "normal kill (Process mode=kill without force) first.",
        tools=(*COMMAND_TOOLS, "Process"),
        patterns=(
            _cmd("stop-process") + _S + r"\s-force(?!:\$?false)" + _END,
            _cmd("taskkill") + _S + r"\s/f" + _END,
            r"\.kill\(\s*(?:\$true)?\s*\)",
            _cmd("wmic") + r"\sprocess\b" + _S + r"\s(?:delete|call\sterminate)\b",
            _cmd("stop-process") + _S + r"\s-(?:9|kill|sigkill)" + _END,
        ),
        predicate=only_for("Process", kill_forced),
    ),
    RuleSpec(
        id="kill-desktop-shell",
        action="ask",
        risk="availability",
        reason="Killing explorer.exe removes the taskbar and desktop the agent works in; a person must approve it.",
        tools=(*COMMAND_TOOLS, "Process"),
        patterns=(
            _cmd("stop-process", "taskkill", "tskill") + _S + r"(?<![\w\-.])['\"]?explorer(?:\.exe)?(?![\w\-.])",
            _cmd("get-process") + r"\s(?:-name\s)?['\"]?explorer\b[^;]*?(?:\|\s*stop-process|\.kill\()",
        ),
        predicate=only_for("Process", kill_explorer),
    ),
    RuleSpec(
        id="persistence-autostart",
        action="ask",
        risk="persistence",
        reason="This makes a program start automatically (Run/RunOnce key, scheduled task, service, "
        "Startup folder); a person must approve it.",
        tools=(*COMMAND_TOOLS, "Registry", "FileSystem"),
        patterns=(
            _REG_WRITE + _S + r"/currentversion/(?:run|runonce|runonceex|runservices|runservicesonce"
            r"|policies/explorer/run)(?![\w\-])",
            _cmd("register-scheduledtask", "new-scheduledtask", "set-scheduledtask", "new-service"),
            _cmd("register-scheduledjob", "set-scheduledjob", "add-jobtrigger", "set-jobtrigger"),
            _cmd("schtasks") + _S + r"\s/(?:create|change)" + _END,
            _cmd("at") + r"\s\d{1,2}:\d{2}",
            _cmd(r"sc\.exe") + r"\s(?:create|config)" + _END,
            _FILE_WRITE + _S + _STARTUP_TEXT,
        ),
        predicate=lambda tool, args: (
            only_for("Registry", registry_autostart)(tool, args) or only_for("FileSystem", fs_startup_write)(tool, args)
        ),
    ),
    RuleSpec(
        id="credential-prompt-command",
        action="ask",
        risk="credential-access",
        reason="This shows the person a password prompt and hands what they type to the command "
        "(Get-Credential, PromptForCredential, CredUIPromptForCredentials, Read-Host -AsSecureString, a question "
        "asking for a password or a code); a person "
        "must approve it. Instead, ask the person to do the step that needs their password themselves.",
        patterns=(
            _cmd("get-credential"),
            # `Read-Host -AsSecureString` / `-MaskInput` (any abbreviation: no other parameter starts so) hides what
            # is typed: a password prompt in the console (S-RULE-176).
            _cmd("read-host") + _S + r"\s-(?:a|m)[a-z]*" + _END,
            # A question whose words ask for a secret (`Read-Host 'Enter your Windows password'`, VB's `InputBox`
            # titled "Windows Security"): typed in plain sight, into the command's hands (S-RULE-187).
            r"(?:" + _cmd("read-host") + r"|(?<![\w])inputbox\s*\()" + _S + _SECRET_WORDS,
            r"(?<![\w])promptforcredential(?![\w])",
            r"(?<![\w])creduipromptforcredentials?w?(?![\w])",
            r"(?<![\w])creduipromptforwindowscredentials?w?(?![\w])",
        ),
    ),
    RuleSpec(
        id="shortcut-command-launcher",
        action="ask",
        risk="code-execution",
        reason="Win+R (Run) and Win+X (power-user menu) open places that run commands past the command "
        "rules; a person must approve it. Use the App or PowerShell tool instead.",
        tools=("Shortcut",),
        predicate=only_for("Shortcut", shortcut_launcher),
    ),
    RuleSpec(
        id="notification-injection",
        action="ask",
        risk="prompt-injection",
        reason="This notification text reads like instructions to an AI model (it would be read back on a "
        "later Snapshot); a person must approve it. Keep notifications to plain status messages.",
        tools=("Notification",),
        patterns=(
            r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:previous|prior|above|earlier|all|your|the"
            r"|any|system)\b.{0,40}\b(?:instructions?|prompts?|rules|directions|guidelines)\b",
            r"\bnew instructions?\b|\bsystem prompt\b|<\|?(?:im_start|system)\|?>|\[/?(?:system|inst)\]",
            r"</?system>|\bdo not (?:tell|inform|alert) the user\b",
            r"\b(?:run|execute|type|paste|enter) (?:the )?following\b",
            r"\b(?:you are now|from now on,? you|you must now)\b",
            r"\b(?:assistant|ai|agent|model|claude|chatgpt|copilot|gpt)\b\s?[:,]\s?(?:please\s)?"
            r"(?:run|execute|type|open|click|delete|download|ignore)\b",
            r"\b(?:invoke-expression|invoke-webrequest|encodedcommand|iex)\b",
        ),
    ),
)
