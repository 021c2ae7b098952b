"""What PowerShell and cmd names mean, for `normalise` (S-RULE-02): aliases, programs, parameters.

Tables for Windows PowerShell 5.1 and pwsh 7: the aliases mapped at command positions,
the programs whose directory and `.exe` are dropped, `sc` verbs, and the parameter names
per command with their aliases, so `canonical_parameter` can expand an unambiguous prefix
the way PowerShell itself resolves it.
"""

from __future__ import annotations

# Aliases mapped at command positions only: `rm` as a file name in an argument stays `rm`.
ALIASES: dict[str, str] = {
    **dict.fromkeys(("rm", "ri", "del", "erase", "rd", "rmdir"), "remove-item"),
    "iex": "invoke-expression",
    **dict.fromkeys(("iwr", "wget", "curl"), "invoke-webrequest"),
    "irm": "invoke-restmethod",
    **dict.fromkeys(("kill", "spps"), "stop-process"),
    **dict.fromkeys(("saps", "start"), "start-process"),
    **dict.fromkeys(("gci", "ls", "dir"), "get-childitem"),
    **dict.fromkeys(("gc", "cat", "type"), "get-content"),
    **dict.fromkeys(("cp", "copy", "cpi"), "copy-item"),
    **dict.fromkeys(("mv", "move", "mi"), "move-item"),
    **dict.fromkeys(("rni", "ren"), "rename-item"),
    **dict.fromkeys(("gps", "ps"), "get-process"),
    **dict.fromkeys(("echo", "write"), "write-output"),
    **dict.fromkeys(("cd", "chdir", "sl"), "set-location"),
    "ni": "new-item",
    "ac": "add-content",
    "icm": "invoke-command",
    "ii": "invoke-item",
    "gp": "get-itemproperty",
    "sp": "set-itemproperty",
    "rp": "remove-itemproperty",
    "si": "set-item",
    "gsv": "get-service",
    "sasv": "start-service",
    "spsv": "stop-service",
    "ipmo": "import-module",
    "sal": "set-alias",
    "gcm": "get-command",
    "sajb": "start-job",
    "gwmi": "get-wmiobject",
    "iwmi": "invoke-wmimethod",
    "rwmi": "remove-wmiobject",
    "%": "foreach-object",
    "?": "where-object",
}

# Programs whose directory and `.exe`/`.com` are dropped at a command position, so
# `C:\Windows\System32\taskkill.exe /f` reads `taskkill /f`. `sc.exe` keeps its suffix:
# bare `sc` is the Set-Content alias in Windows PowerShell.
KNOWN_PROGRAMS: frozenset[str] = frozenset(
    {"cmd", "powershell", "powershell_ise", "pwsh", "reg", "regedit", "taskkill", "tskill"}
    | {"schtasks", "netsh", "certutil", "bitsadmin", "shutdown", "diskpart", "format", "mshta"}
    | {"rundll32", "regsvr32", "wscript", "cscript", "msiexec", "wmic", "vssadmin", "wbadmin"}
    | {"bcdedit", "wevtutil", "net", "net1", "sc", "wsl", "bash", "sh", "curl", "wget"}
    | {"mpcmdrun", "logoff", "installutil", "regasm", "regsvcs", "msbuild", "python", "py", "node"}
)

# `sc <verb>` is service control; any other `sc` is Set-Content.
SC_VERBS: frozenset[str] = frozenset(
    {"create", "config", "delete", "stop", "start", "query", "queryex", "qc", "failure"}
    | {"description", "sdset", "pause", "continue", "privs", "sidtype", "triggerinfo"}
)

# A word right after one of these characters is at a command position.
COMMAND_SEPARATORS = frozenset(";|&({=")

_COMMON: tuple[str, ...] = (
    "verbose",
    "debug",
    "erroraction",
    "warningaction",
    "informationaction",
    "progressaction",
)
_COMMON += ("errorvariable", "warningvariable", "informationvariable", "outvariable", "outbuffer")
_COMMON += ("pipelinevariable", "whatif", "confirm")
_COMMON_ALIASES = {"ea": "erroraction", "wa": "warningaction", "infa": "informationaction"}
_COMMON_ALIASES |= {"ev": "errorvariable", "wv": "warningvariable", "iv": "informationvariable"}
_COMMON_ALIASES |= {"ov": "outvariable", "ob": "outbuffer", "pv": "pipelinevariable"}
_COMMON_ALIASES |= {"vb": "verbose", "db": "debug", "wi": "whatif", "cf": "confirm"}
_ITEM = ("path", "literalpath", "filter", "include", "exclude", "recurse", "force", "credential")

_WEB: tuple[str, ...] = (
    "uri",
    "method",
    "body",
    "infile",
    "outfile",
    "headers",
    "contenttype",
    "credential",
    "form",
    "resume",
)
_WEB += ("usedefaultcredentials", "usebasicparsing", "websession", "sessionvariable", "proxy", "proxycredential")
_WEB += ("proxyusedefaultcredentials", "timeoutsec", "maximumredirection", "transferencoding", "useragent")
_WEB += ("disablekeepalive", "certificate", "certificatethumbprint", "passthru", "skipcertificatecheck")

# Parameter names per command; a prefix is expanded only when it is unambiguous among them
# (as PowerShell itself resolves it). Explicit aliases come first.
PARAMETERS: dict[str, tuple[str, ...]] = {
    "remove-item": (*_ITEM, "stream"),
    "get-childitem": (*_ITEM, "depth", "name", "attributes", "followsymlink", "directory", "file")
    + ("hidden", "system"),  # not the provider's dynamic -ReadOnly: `gci -r` means -Recurse
    "stop-process": ("id", "name", "inputobject", "passthru", "force"),
    "set-executionpolicy": ("executionpolicy", "scope", "force"),
    "start-process": ("filepath", "argumentlist", "credential", "workingdirectory", "loaduserprofile")
    + ("nonewwindow", "passthru", "redirectstandarderror", "redirectstandardinput")
    + ("redirectstandardoutput", "verb", "windowstyle", "wait", "useshellexecute", "environment"),
    "set-netfirewallprofile": ("profile", "name", "enabled", "defaultinboundaction", "all")
    + ("defaultoutboundaction", "allowinboundrules", "allowlocalfirewallrules", "allowuserapps")
    + ("enablestealthmodeforipsec", "notifyonlisten", "logfilename", "policystore", "passthru"),
    "powershell": ("command", "encodedcommand", "executionpolicy", "file", "noprofile", "nologo")
    + ("noninteractive", "noexit", "windowstyle", "sta", "mta", "inputformat", "outputformat")
    + ("version", "psconsolefile", "configurationname", "workingdirectory", "settingsfile"),
    # Where they name what is sent: `-Attach`, `-InF`, `-TransferT` (effects_network).
    "send-mailmessage": ("attachments", "bcc", "body", "bodyashtml", "cc", "credential", "encoding", "from")
    + ("deliverynotificationoption", "port", "priority", "replyto", "smtpserver", "subject", "to", "usessl"),
    # Cloud storage uploads (S-RULE-194): where they name the file or folder sent (`-Fo`, `-Fi`, `-Recurse`).
    "write-s3object": ("bucketname", "key", "file", "folder", "keyprefix", "recurse", "searchpattern", "content")
    + ("cannedaclname", "contenttype", "region", "profilename", "force"),
    "write-gcsobject": ("bucket", "objectname", "file", "folder", "prefix", "content", "contenttype", "force"),
    "set-azstorageblobcontent": ("file", "container", "blob", "blobtype", "properties", "metadata", "context")
    + ("force", "standardblobtier"),
    "set-azstoragefilecontent": ("sharename", "source", "path", "share", "context", "force", "passthru"),
    # Secret stores' reads (S-RULE-193): where a prefix names the switch that prints the value (`-AsP`).
    "get-azkeyvaultsecret": ("vaultname", "name", "version", "inputobject", "resourceid", "includeversions")
    + ("asplaintext", "inremovedstate", "defaultprofile"),
    "get-ssmparameter": ("name", "withdecryption", "region", "profilename", "accesskey", "secretkey", "sessiontoken"),
    "get-ssmparametervalue": ("name", "withdecryption", "region", "profilename", "accesskey", "secretkey")
    + ("sessiontoken",),
    # Where `-Fi` names the file written (`Out-File -Fi x`): without the table, a prefix is not expanded.
    "out-file": ("filepath", "literalpath", "encoding", "append", "force", "noclobber", "width", "nonewline")
    + ("inputobject",),
    "tee-object": ("filepath", "literalpath", "append", "variable", "inputobject", "encoding"),
    "invoke-webrequest": _WEB,
    "invoke-restmethod": (*_WEB, "followrellink", "maximumfollowrellink", "responseheaderstvariable"),
    "start-bitstransfer": ("source", "destination", "transfertype", "asynchronous", "authentication", "credential")
    + ("description", "displayname", "priority", "proxyauthentication", "proxybypass", "proxycredential")
    + ("proxylist", "proxyusage", "retryinterval", "retrytimeout", "suspended", "transferpolicy")
    + ("usestoredcredential", "customheaders", "dynamic", "maxdownloadtime", "securityflags"),
}
PARAMETERS["pwsh"] = PARAMETERS["powershell"]
PARAMETER_ALIASES: dict[str, dict[str, str]] = {
    "powershell": {"e": "encodedcommand", "ec": "encodedcommand", "c": "command", "f": "file"}
    | {"ep": "executionpolicy", "ex": "executionpolicy", "exec": "executionpolicy", "w": "windowstyle"}
    | {
        "nop": "noprofile",
        "noni": "noninteractive",
        "nol": "nologo",
        "noe": "noexit",
        "wd": "workingdirectory",
    },
    # A cmdlet's own aliases ([Alias(…)] in its source), which PowerShell accepts as the parameter itself:
    # `Start-Process -Path cmd` is -FilePath, `Out-File -Path x` is -FilePath, `New-Service -Path …` is the
    # service's command line. Each applies to its cmdlet only (`Set-ItemProperty -Type` is not -ItemType).
    "start-process": {"args": "argumentlist", "lup": "loaduserprofile", "nnw": "nonewwindow"}
    | {"path": "filepath", "pspath": "filepath", "runas": "credential"}
    | {"rse": "redirectstandarderror", "rsi": "redirectstandardinput", "rso": "redirectstandardoutput"},
    "remove-item": {"lp": "literalpath", "pspath": "literalpath"},
    "send-mailmessage": {"pspath": "attachments"},
    "out-file": {"path": "filepath"},
    "tee-object": {"path": "filepath"},
    "invoke-command": {"pspath": "filepath", "args": "argumentlist", "cn": "computername"},
    "new-item": {"type": "itemtype", "target": "value"},
    "new-itemproperty": {"type": "propertytype"},
    "new-service": {"path": "binarypathname", "servicename": "name"},
}
PARAMETER_ALIASES["pwsh"] = PARAMETER_ALIASES["powershell"]
for _verb in ("get", "stop", "start", "restart", "suspend", "resume", "set", "remove"):
    PARAMETER_ALIASES[f"{_verb}-service"] = {"servicename": "name", "sn": "name"}
for _verb in ("get", "stop", "wait", "debug"):
    PARAMETER_ALIASES[f"{_verb}-process"] = {"processname": "name", "pid": "id", "processid": "id"}
for _verb in ("clear", "get", "limit", "new", "remove", "write", "show"):
    PARAMETER_ALIASES[f"{_verb}-eventlog"] = {"ln": "logname"}


def canonical_parameter(command: str, name: str) -> str:
    """The full parameter name `name` abbreviates for `command`, or `name` unchanged.

    Args:
        command: the normalised command the parameter belongs to (may be "").
        name: the parameter without its dash, lower case.

    Returns:
        The full name when `name` is an alias or an unambiguous prefix; else `name`.
    """
    aliases = PARAMETER_ALIASES.get(command, {})
    if name in aliases:
        return aliases[name]
    if name in _COMMON_ALIASES:
        return _COMMON_ALIASES[name]
    if command in PARAMETERS:
        candidates = [p for p in (*PARAMETERS[command], *_COMMON) if p.startswith(name)]
        return candidates[0] if len(candidates) == 1 and name not in _COMMON else name
    # A cmdlet not in the table: only the two parameters the rules care most about. Native
    # programs keep their flags (`shutdown -r` is restart, not -Recurse).
    if "-" not in command:
        return name
    if name.startswith("r") and "recurse".startswith(name):
        return "recurse"
    if len(name) >= 2 and "force".startswith(name):
        return "force"
    return name
