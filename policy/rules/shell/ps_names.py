"""Name tables for the PowerShell analyser (issue 18): types, methods, switches, extra aliases.

`policy.rules.shell_names` holds the aliases and parameter names shared with the text rules;
this module holds what only the syntax-tree analyser needs.
"""

from __future__ import annotations

import ntpath

from policy.rules.shell.ps_values import ObjectRef
from policy.rules.shell_names import ALIASES, KNOWN_PROGRAMS

# Built-in aliases `shell_names.ALIASES` leaves out (the text rules never needed them).
EXTRA_ALIASES: dict[str, str] = {
    "sv": "set-variable",
    "set": "set-variable",
    "nv": "new-variable",
    "nal": "new-alias",
    "gv": "get-variable",
    "foreach": "foreach-object",
    "where": "where-object",
    "iwmi": "invoke-wmimethod",
    "icim": "invoke-cimmethod",
    "rjb": "remove-job",
    "ogv": "out-gridview",
    "oh": "out-host",
    "tee": "tee-object",
    "select": "select-object",
    "sls": "select-string",
    # The rest of Windows PowerShell 5.1's built-in aliases (`Get-Alias`): a missing one was read as a
    # program of that name, so `clc ~\Documents\*` cleared files unjudged (S-RULE-78).
    "asnp": "add-pssnapin",
    "clc": "clear-content",
    "clear": "clear-host",
    "clhy": "clear-history",
    "cli": "clear-item",
    "clp": "clear-itemproperty",
    "cls": "clear-host",
    "clv": "clear-variable",
    "cnsn": "connect-pssession",
    "compare": "compare-object",
    "cpp": "copy-itemproperty",
    "cvpa": "convert-path",
    "dbp": "disable-psbreakpoint",
    "diff": "compare-object",
    "dnsn": "disconnect-pssession",
    "ebp": "enable-psbreakpoint",
    "epal": "export-alias",
    "epcsv": "export-csv",
    "epsn": "export-pssession",
    "etsn": "enter-pssession",
    "exsn": "exit-pssession",
    "fc": "format-custom",
    "fhx": "format-hex",
    "fl": "format-list",
    "ft": "format-table",
    "fw": "format-wide",
    "gal": "get-alias",
    "gbp": "get-psbreakpoint",
    "gcb": "get-clipboard",
    "gcs": "get-pscallstack",
    "gdr": "get-psdrive",
    "ghy": "get-history",
    "gi": "get-item",
    "gin": "get-computerinfo",
    "gjb": "get-job",
    "gl": "get-location",
    "gm": "get-member",
    "gmo": "get-module",
    "gpv": "get-itempropertyvalue",
    "group": "group-object",
    "gsn": "get-pssession",
    "gsnp": "get-pssnapin",
    "gtz": "get-timezone",
    "gu": "get-unique",
    "h": "get-history",
    "history": "get-history",
    "ihy": "invoke-history",
    "ipal": "import-alias",
    "ipcsv": "import-csv",
    "ipsn": "import-pssession",
    "lp": "out-printer",
    "measure": "measure-object",
    "mount": "new-psdrive",
    "mp": "move-itemproperty",
    "ndr": "new-psdrive",
    "nmo": "new-module",
    "nsn": "new-pssession",
    "popd": "pop-location",
    "pushd": "push-location",
    "pwd": "get-location",
    "r": "invoke-history",
    "rbp": "remove-psbreakpoint",
    "rcjb": "receive-job",
    "rcsn": "receive-pssession",
    "rdr": "remove-psdrive",
    "rmo": "remove-module",
    "rnp": "rename-itemproperty",
    "rsn": "remove-pssession",
    "rsnp": "remove-pssnapin",
    "rujb": "resume-job",
    "rv": "remove-variable",
    "rvpa": "resolve-path",
    "sbp": "set-psbreakpoint",
    "scb": "set-clipboard",
    "shcm": "show-command",
    "sleep": "start-sleep",
    "sort": "sort-object",
    "spjb": "stop-job",
    "stz": "set-timezone",
    "sujb": "suspend-job",
    "swmi": "set-wmiinstance",
    "trcm": "trace-command",
    "wjb": "wait-job",
}
BUILTIN_ALIASES: dict[str, str] = {**EXTRA_ALIASES, **ALIASES}
# `curl`/`wget` are aliases in Windows PowerShell 5.1 (the alias wins); `sc` is decided by its verb.
PROGRAM_NAMES: frozenset[str] = KNOWN_PROGRAMS - {"curl", "wget"}

PROGRAM_EXTENSIONS = (".exe", ".com", ".bat", ".cmd")
# Programs that may run a script block handed to them as an argument: PowerShell itself, and the
# launchers the dispatcher follows into one (`cmd /c powershell {…}` gets `-encodedCommand …`).
BLOCK_RUNNERS: frozenset[str] = frozenset({"powershell", "pwsh", "powershell_ise", "cmd", "conhost", "runas", "wt"})

# Type accelerators PowerShell resolves to a full .NET name (the rest resolve as written or
# with `System.` in front, the way PowerShell itself looks a short name up).
TYPE_ACCELERATORS: dict[str, str] = {
    "string": "system.string",
    "char": "system.char",
    "int": "system.int32",
    "long": "system.int64",
    "byte": "system.byte",
    "bool": "system.boolean",
    "scriptblock": "system.management.automation.scriptblock",
    "regex": "system.text.regularexpressions.regex",
    "psobject": "system.management.automation.psobject",
    "powershell": "system.management.automation.powershell",
    "runspacefactory": "system.management.automation.runspaces.runspacefactory",
    "type": "system.type",
    "activator": "system.activator",
    "array": "system.array",
    "math": "system.math",
    "guid": "system.guid",
    "uri": "system.uri",
    "xml": "system.xml.xmldocument",
    "hashtable": "system.collections.hashtable",
}
# What `Get-PSReadLineOption` gives, and its `HistorySavePath` (the default: every command typed in a console,
# passwords typed on a command line included; reading it is `credential-access`, S-RULE-136).
PSREADLINE_OPTIONS = ObjectRef("dotnet", "microsoft.powershell.psconsolereadlineoptions")
PSREADLINE_HISTORY = "%APPDATA%\\Microsoft\\Windows\\PowerShell\\PSReadLine\\ConsoleHost_history.txt"
# .NET objects that stand for one file or folder: made by a cast (`[IO.FileInfo]'C:\\x'`), `::new` or New-Object,
# their methods (`.Delete()`, `.AppendText()`, `.MoveTo(d)`) act on that path (S-RULE-133).
FILE_OBJECT_TYPES: frozenset[str] = frozenset({"system.io.fileinfo", "system.io.directoryinfo"})
# The .NET certificate store: `[X509Store]::new('Root', 'CurrentUser')` opens the store its first argument names, and
# `.Add($cert)` makes the certificate trusted there (S-RULE-137).
CERTIFICATE_STORE_TYPE = "system.security.cryptography.x509certificates.x509store"
# Objects made for one target (`ObjectRef.target`): their first constructor argument names it.
TARGETED_TYPES: frozenset[str] = FILE_OBJECT_TYPES | {CERTIFICATE_STORE_TYPE}
# The members of a FileInfo or DirectoryInfo whose setting changes the file: `(Get-Item X).Attributes = 'Hidden'`
# writes X as `attrib +h X` does (S-RULE-134).
FILE_PROPERTIES: frozenset[str] = frozenset(
    {"attributes", "isreadonly", "creationtime", "creationtimeutc", "lastwritetime", "lastwritetimeutc"}
    | {"lastaccesstime", "lastaccesstimeutc"}
)
# Accelerators for WMI and ADSI objects: kept as written (lower case), as the brief for rules says.
KEPT_ACCELERATORS: frozenset[str] = frozenset({"wmiclass", "wmi", "wmisearcher", "adsi", "adsisearcher", "ciminstance"})

# Static calls that only compute a value: folded, never reported as operations.
PURE_STATIC_TYPES: frozenset[str] = frozenset(
    {"system.string", "system.char", "system.convert", "system.math", "system.text.encoding", "system.int32"}
    | {"system.management.automation.scriptblock", "system.text.regularexpressions.regex", "system.guid"}
)

# Methods on an object the analyser does not know that still deserve an operation (`?.<method>`),
# so a rule can ask: they delete, kill, start or run something on most objects that have them.
# Every method name the effect layer reads on any object (`effects_dispatch.METHODS`, the download
# methods of `effects_pipeline`) is here: an untyped `$s.ClearLog('Security')` must reach it.
DANGEROUS_METHODS: frozenset[str] = frozenset(
    {"delete", "deletefolder", "deletefile", "deletedirectory", "kill", "start", "run", "exec"}
    | {"shellexecute", "invoke", "invokescript", "create", "setvalue", "deletesubkeytree", "deletevalue"}
    | {"deletesubkey", "createsubkey", "movefile", "movefolder", "copyfile", "copyfolder", "movehere", "copyhere"}
    | {"invokeverb", "invokeverbex", "clearlog", "cleareventlog", "setpassword", "changepassword"}
    | {"retrieveall", "findallbyresource", "findallbyusername", "retrievepassword", "retrieve", "registertask"}
    | {"registertaskdefinition", "win32shutdown", "win32shutdowntracker", "downloadfile", "downloadstring"}
    | {"downloaddata", "openread", "downloadstringtaskasync", "downloaddatataskasync", "downloadfiletaskasync"}
    | {"getstringasync", "getbytearrayasync", "getstreamasync", "getasync", "uploadfile", "uploadfileasync"}
    | {"promptforcredential"}  # `$Host.UI.PromptForCredential(…)`: a password prompt (credential-prompt-command)
    | {"opensubkey"}  # `$s = $k.OpenSubKey('…')`: the key a later `$s.SetValue(…)` writes (effects_pipeline)
    | {"getvalue", "getvaluenames", "getsubkeynames"}  # …and a later `.GetValue('DefaultPassword')` reads (S-RULE-165)
    | {"stop", "pause"}  # `(Get-Service X).Stop()`: the service an earlier Get-Service made (effects_pipeline)
    | {"stopservice", "pauseservice", "changestartmode", "change", "terminate"}  # a WMI object's (effects_pipeline)
    | {"lock", "protectkeywithpassphrase", "protectkeywithnumericalpassword"}  # a Win32_EncryptableVolume's
    | {"executeshellcommand"}  # MMC20.Application's: starts a program (dispatch `_UNTYPED_STARTERS`)
    | {"moveto", "copyto"}  # a FileInfo's or DirectoryInfo's: `(Get-Item X).MoveTo(d)` moves X (S-RULE-102)
    | {"appendtext", "createtext", "openwrite", "open", "encrypt", "decrypt", "setaccesscontrol"}  # S-RULE-133
    | {"parsename"}  # `.Namespace(d).ParseName('a.txt')`: the one item a later `.InvokeVerb('delete')` deletes
)
# Methods whose first argument is a command line the object runs (WScript.Shell, WMI Win32_Process).
COMMAND_LINE_METHODS: frozenset[str] = frozenset({"run", "exec", "create"})

# Encodings reachable as `[Text.Encoding]::<Name>`, by Python codec.
ENCODINGS: dict[str, str] = {
    "unicode": "utf-16-le",
    "bigendianunicode": "utf-16-be",
    "utf8": "utf-8",
    "ascii": "ascii",
    "utf32": "utf-32-le",
    "latin1": "latin-1",
}

# Parameters that take no value (so the next word is positional). Any other parameter takes
# the next argument, which is PowerShell's rule for every non-switch parameter.
COMMON_SWITCHES: frozenset[str] = frozenset(
    {"recurse", "force", "whatif", "confirm", "verbose", "debug", "passthru", "wait", "asjob"}
    | {"nonewwindow", "noprofile", "nologo", "noninteractive", "noexit", "append", "noclobber", "raw"}
    | {"container", "directory", "file", "hidden", "system", "followsymlink", "loaduserprofile"}
    | {"useshellexecute", "usebasicparsing", "allowclobber", "global", "list", "all"}
)
SWITCHES_BY_COMMAND: dict[str, frozenset[str]] = {
    "get-childitem": frozenset({"name"}),
    # `Out-String -Stream` is a switch; elsewhere `-Stream` names a file's data stream (`Remove-Item x -Stream y`).
    "out-string": frozenset({"stream"}),
    "remove-item": frozenset(),
    "stop-process": frozenset(),
    "set-executionpolicy": frozenset(),
    "get-process": frozenset({"module", "fileversioninfo", "includeusername"}),
    "invoke-command": frozenset({"noNewScope".lower(), "hidecomputername", "enablenetworkaccess", "insession"}),
    "add-type": frozenset({"passthru", "ignorewarnings"}),
    "import-module": frozenset({"passthru", "force", "global", "asCustomObject".lower(), "disablenamechecking"}),
    "new-item": frozenset(),
    "copy-item": frozenset(),
}
# For these the positional words after the command are not parameters of their own but the
# text of a command (`Set-Alias name value`).
ALIAS_SETTERS: frozenset[str] = frozenset({"set-alias", "new-alias"})
VARIABLE_SETTERS: frozenset[str] = frozenset({"set-variable", "new-variable"})


# Parameters named as a common switch that take a value in these commands (`Write-S3Object -File x`, S-RULE-194).
VALUED_BY_COMMAND: dict[str, frozenset[str]] = {
    "write-s3object": frozenset({"file"}),
    "write-gcsobject": frozenset({"file"}),
    "set-azstorageblobcontent": frozenset({"file", "container"}),
}


def is_switch(command: str, parameter: str) -> bool:
    """Whether `parameter` (canonical, lower case) of `command` takes no value."""
    if command in VALUED_BY_COMMAND and parameter in VALUED_BY_COMMAND[command]:
        return False
    extra = SWITCHES_BY_COMMAND.get(command)
    return parameter in COMMON_SWITCHES or (extra is not None and parameter in extra)


def canonical_type(written: str) -> str:
    """The canonical lower-case full name of a type literal's text (`IO.File` → `system.io.file`).

    Args:
        written: the text inside `[...]`, e.g. `System.IO.File`, `IO.File`, `wmiclass`.

    Returns:
        The name rules compare: accelerators expanded, `System.` added to a short name.
    """
    name = "".join(written.split()).lower()
    if "," in name and "[" not in name:
        # Assembly-qualified (`Windows.Security.Credentials.PasswordVault,Windows.Security.Credentials,
        # ContentType=WindowsRuntime`): the part before the comma is the type's full name, as written.
        return name.split(",", 1)[0]
    if name in TYPE_ACCELERATORS:
        return TYPE_ACCELERATORS[name]
    if name in KEPT_ACCELERATORS or name.startswith(("system.", "microsoft.")) or name.endswith("[]"):
        return name
    return "system." + name


def program_name(written: str) -> str:
    """A program's canonical name: its base name, lower case, without `.exe`/`.com`/`.bat`/`.cmd`."""
    base = ntpath.basename(written.strip().strip('"')).lower().rstrip(". ")
    stem, ext = ntpath.splitext(base)
    return stem if ext in PROGRAM_EXTENSIONS and stem else base


def looks_like_program(name: str) -> bool:
    """Whether a command word (aliases already resolved) names a program rather than a cmdlet.

    A name with a path separator or an extension, a known program, or a word without a
    Verb-Noun dash is a program: cmdlets and functions without a dash do not exist in practice.
    """
    lowered = name.lower()
    if "\\" in lowered or "/" in lowered or lowered in PROGRAM_NAMES:
        return True
    if ntpath.splitext(lowered)[1]:
        return True
    return "-" not in lowered
