"""Argument readers and predicates of the built-in rules (S-RULE-01, S-RULE-04, S-RULE-05).

Structured tools (Registry, FileSystem, Process, App, Shortcut) are judged by predicates
over their arguments, not by text patterns. Predicates read upstream's REAL argument names
(`mode`, never `action`; S-RULE-01) and only the names `READ_ARGS` in `_builtin_rules`
lists; values are `fold`ed first (lower case, `/` separators, single spaces). A predicate
takes `(tool, args)`; `only_for(tool, check)` keeps one from reading another tool's arguments.

The App helpers (`app_arguments`, `app_command_line`, `value_text`) also build the text
views `rules.tool_views` searches.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import TypeAlias

from policy.rules.normalize import fold
from policy.rules.uia_keys import key_events

Predicate: TypeAlias = Callable[[str, Mapping[str, object]], bool]

# ---------------------------------------------------------------------------------------
# Argument helpers (structured tools)


def only_for(tool: str, check: Predicate) -> Predicate:
    """`check` for calls of `tool` only: a Registry predicate never reads a PowerShell call's args."""
    return lambda name, args: name == tool and check(name, args)


def mode_of(args: Mapping[str, object], default: str = "") -> str:
    """`mode` folded to lower case; `default` when absent or null (App's default is launch)."""
    value = args.get("mode")
    return default if value is None else fold(str(value))


def truthy(value: object) -> bool:
    """Upstream takes booleans or the strings "true"/"false" (FORMATS.md §8); err towards true."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip().lower() not in ("false", "0", "no", "off", "n", "f", "")
    return isinstance(value, int | float) and value != 0


def _text(args: Mapping[str, object], key: str) -> str:
    value = args.get(key)
    return "" if value is None else fold(str(value))


_HIVES = {
    "hkey_local_machine": "hklm",
    "hkey_classes_root": "hkcr",
    "hkey_users": "hku",
    "hkey_current_user": "hkcu",
    "hkey_current_config": "hkcc",
}
KNOWN_HIVES = frozenset({"hklm", "hkcr", "hku", "hkcu", "hkcc"})
MACHINE_HIVES = frozenset({"hklm", "hkcr", "hku", "hkcc"})
# Keys whose wholesale deletion wrecks a profile, below the depth cut-off of one component.
BROAD_KEYS = frozenset(
    {"software/microsoft", "software/classes", "software/policies", "software/wow6432node"}
    | {"software/microsoft/windows", "software/microsoft/windows/currentversion"}
    | {"software/microsoft/windows nt", "software/microsoft/windows nt/currentversion"}
)


def registry_key(path: object) -> tuple[str, str]:
    """(`hive`, `rest`) of a Registry path: `HKLM:\\Software\\X` → ("hklm", "software/x").

    Accepts the PowerShell drive form, `HKEY_…` names and `Registry::` prefixes; `hive` is
    "" when the path names no known hive.
    """
    p = fold(str(path or "")).strip("'\" ")
    for prefix in ("microsoft.powershell.core/registry::", "registry::"):
        if p.startswith(prefix):
            p = p[len(prefix) :]
    parts = [s for s in p.split("/") if s]
    if not parts:
        return "", ""
    hive = parts[0].rstrip(":")
    hive = _HIVES.get(hive, hive)
    if hive not in KNOWN_HIVES:
        return "", "/".join(parts)
    return hive, "/".join(parts[1:])


def _registry(args: Mapping[str, object], mode: str) -> tuple[str, str, str, str] | None:
    if mode_of(args) != mode:
        return None
    hive, rest = registry_key(args.get("path"))
    return hive, rest, _text(args, "name"), _text(args, "value")


def machine_hive_delete(tool: str, args: Mapping[str, object]) -> bool:
    """Registry delete under HKLM, HKCR, HKU or HKCC."""
    key = _registry(args, "delete")
    return key is not None and key[0] in MACHINE_HIVES


def top_key_delete(tool: str, args: Mapping[str, object]) -> bool:
    """Registry delete of a whole top-level or broad key (no `name`), or of no registry key at all."""
    # Upstream deletes the WHOLE key recursively when `name` is absent (FORMATS.md §8). A
    # path under no known hive is refused too: it is not a registry key at all.
    key = _registry(args, "delete")
    if key is None or key[2]:
        return False
    hive, rest, _, _ = key
    return not hive or rest.count("/") == 0 or rest in BROAD_KEYS


_AUTOSTART_KEYS = (
    r"software/(?:wow6432node/)?microsoft/windows/currentversion/"
    r"(?:run|runonce|runonceex|runservices|runservicesonce|policies/explorer/run)$",
    r"software/microsoft/windows/currentversion/explorer/(?:user )?shell folders$",
    r"system/(?:currentcontrolset|controlset\d+)/services/",
    r"software/microsoft/active setup/installed components/",
)
_HIJACK_KEYS = (
    r"software/(?:wow6432node/)?microsoft/windows nt/currentversion/"
    r"(?:winlogon(?:/|$)|image file execution options/|silentprocessexit/)",
    r"software/(?:wow6432node/)?microsoft/windows nt/currentversion/windows$",
    r"software/microsoft/command processor$",
    r"software/classes/(?:ms-settings|mscfile|exefile|folder|batfile|cmdfile|htafile|lnkfile|\*)"
    r"/shell/(?:open|runas)/command$",
    r"software/classes/(?:wow6432node/)?clsid/[^/]+/(?:inprocserver32|localserver32)$",
    r"^environment$",
    r"system/(?:currentcontrolset|controlset\d+)/control/(?:session manager|lsa)$",
)
_HIJACK_NAMES_ONLY = {  # in these keys only the named values are hijack points
    r"software/(?:wow6432node/)?microsoft/windows nt/currentversion/windows$": {"appinit_dlls", "load", "run"}
    | {"loadappinit_dlls"},
    r"software/microsoft/command processor$": {"autorun"},
    r"^environment$": {"userinitmprlogonscript"},
    r"system/(?:currentcontrolset|controlset\d+)/control/(?:session manager|lsa)$": {"bootexecute"}
    | {"security packages", "authentication packages", "notification packages"},
}


def _set_key_matches(args: Mapping[str, object], patterns: tuple[str, ...]) -> bool:
    key = _registry(args, "set")
    if key is None:
        return False
    _, rest, name, _ = key
    for pattern in patterns:
        if re.search(pattern, rest):
            names = _HIJACK_NAMES_ONLY.get(pattern)
            return names is None or name in names
    return False


def registry_autostart(tool: str, args: Mapping[str, object]) -> bool:
    """Registry set in an autostart key (Run, RunOnce, services, shell folders …)."""
    return _set_key_matches(args, _AUTOSTART_KEYS)


def registry_hijack(tool: str, args: Mapping[str, object]) -> bool:
    """Registry set of a hijack point (Winlogon, IFEO, AppInit_DLLs, cmd AutoRun, COM/handler keys …)."""
    return _set_key_matches(args, _HIJACK_KEYS)


def registry_value_rule(path_re: str, names: frozenset[str], values: frozenset[str]) -> Predicate:
    """A Registry set predicate: key matching `path_re`, value `name` in `names`, data in `values`."""

    def check(tool: str, args: Mapping[str, object]) -> bool:
        key = _registry(args, "set") if tool == "Registry" else None
        if key is None:
            return False
        _, rest, name, value = key
        return bool(re.search(path_re, rest)) and name in names and value in values

    return check


def registry_defender(tool: str, args: Mapping[str, object]) -> bool:
    """Registry set of a Defender exclusion or a Defender `Disable*` switch turned on."""
    key = _registry(args, "set")
    if key is None or "microsoft/windows defender" not in key[1]:
        return False
    _, rest, name, value = key
    return "/exclusions/" in rest or (name.startswith("disable") and value in ("1", "true"))


def _process_name(args: Mapping[str, object]) -> str:
    name = _text(args, "name")
    return name[:-4] if name.endswith(".exe") else name


CRITICAL_PROCESSES = frozenset(
    {"csrss", "wininit", "winlogon", "lsass", "lsaiso", "services", "smss", "svchost", "system"}
    | {"registry", "memory compression", "secure system", "msmpeng", "nissrv", "mssense"}
    | {"sgrmbroker", "securityhealthservice"}
)


def kill_critical(tool: str, args: Mapping[str, object]) -> bool:
    """Process kill of a critical Windows process, by name or by pid 0/4."""
    if mode_of(args) != "kill":
        return False
    pid = args.get("pid")
    pid_text = str(pid).strip() if isinstance(pid, int | str) and not isinstance(pid, bool) else ""
    return _process_name(args) in CRITICAL_PROCESSES or pid_text in ("0", "4")


def kill_explorer(tool: str, args: Mapping[str, object]) -> bool:
    """Process kill of explorer.exe (the desktop shell)."""
    return mode_of(args) == "kill" and _process_name(args) == "explorer"


def kill_forced(tool: str, args: Mapping[str, object]) -> bool:
    """Process kill with `force` set."""
    return mode_of(args) == "kill" and truthy(args.get("force"))


def fs_recursive_delete(tool: str, args: Mapping[str, object]) -> bool:
    """FileSystem delete with `recursive` set."""
    return mode_of(args) == "delete" and truthy(args.get("recursive"))


_STARTUP = re.compile(r"start menu/programs/startup(?:/|$)|^shell:(?:common )?startup\b")


def fs_startup_write(tool: str, args: Mapping[str, object]) -> bool:
    """FileSystem write, copy or move into a Startup folder."""
    mode = mode_of(args)
    target = {"write": "path", "copy": "destination", "move": "destination"}.get(mode)
    return target is not None and bool(_STARTUP.search(_text(args, target)))


INTERPRETERS = re.compile(
    r"^(?:powershell(?:_ise)?|pwsh|cmd|command|wscript|cscript|mshta|rundll32|regsvr32|certutil"
    r"|bitsadmin|msiexec|installutil|regasm|regsvcs|msbuild|cmstp|wmic|forfiles|hh|odbcconf"
    r"|msxsl|ieexec|presentationhost|python[\d.]*w?|pyw?|node|nodejs|deno|bun|bash|sh|wsl|wslhost"
    r"|ubuntu[\d.]*|debian|kali|wt|windowsterminal|conhost|perl|ruby|php|java|javaw|csc|vbc|jsc"
    r"|runas|psexec|psexec64)$"
)
SCRIPT_EXTENSIONS = frozenset(
    {"bat", "cmd", "ps1", "psm1", "vbs", "vbe", "js", "jse", "wsf", "wsh", "hta", "msi", "cpl"} | {"py", "pyw", "scr"}
)
# Start-menu names the fuzzy `name` match (ratio ≥ 70) would resolve to a shell.
_INTERPRETER_NAMES = re.compile(
    r"(?<![a-z0-9])(?:windows powershell(?: ise)?|powershell(?: 7)?|pwsh|cmd|command prompt"
    r"|developer command prompt|developer powershell|windows terminal|terminal|wt|wsl|git bash|bash"
    r"|ubuntu|debian|kali|python[\d.]*w?|node(?:\.js)?|wscript|cscript|mshta|rundll32|regsvr32"
    r"|certutil|bitsadmin|msiexec|installutil|regasm|regsvcs|msbuild|cmstp|wmic|perl|ruby|php"
    r"|java|runas|psexec)(?![a-z])"
)


def executable_basename(executable: object) -> tuple[str, str]:
    """(`stem`, `extension`) of an App `executable`, folded: `C:\\X\\Cmd.EXE` → ("cmd", "exe")."""
    base = fold(str(executable or "")).strip("'\" ").rsplit("/", 1)[-1]
    stem, dot, ext = base.rpartition(".")
    return (stem, ext) if dot else (base, "")


def app_interpreter(tool: str, args: Mapping[str, object]) -> bool:
    """App launch of a shell, script host, interpreter or LOLBin, or of a script file."""
    if mode_of(args, "launch") not in ("launch", "launch_executable"):
        return False
    executable = args.get("executable")
    if isinstance(executable, str) and executable.strip():
        stem, ext = executable_basename(executable)
        if INTERPRETERS.match(stem) or ext in SCRIPT_EXTENSIONS:
            return True
    name = args.get("name")
    return isinstance(name, str) and (bool(_INTERPRETER_NAMES.search(fold(name))) or fuzzy_shell(name))


# Windows-MCP's App `launch` finds `name` in the Start menu with fuzzywuzzy's `extractOne` (WRatio,
# score cut-off 70), so a misspelt `Comand Promt` or `Powershel` starts a shell. The gateway cannot see
# the person's Start menu: it scores the name the same way (rapidfuzz's WRatio, the maintained
# reimplementation) against the shells' Start-menu names and a set of common apps, and a name whose
# best match is a shell (or ties with one) is a shell. A name closer to an ordinary app than to any
# shell (`Windows Security`, `Visual Studio Code`) is that app.
_SHELL_APPS = (
    "Command Prompt",
    "Windows PowerShell",
    "Windows PowerShell ISE",
    "PowerShell 7 (x64)",
    "Windows Terminal",
    "Terminal",
    "Developer Command Prompt for VS 2022",
    "Developer PowerShell for VS 2022",
    "x64 Native Tools Command Prompt for VS 2022",
    "Git Bash",
    "Git CMD",
    "Anaconda Prompt",
    "Anaconda Powershell Prompt",
    "Miniconda Prompt",
    "Python 3.12",
    "IDLE (Python 3.12 64-bit)",
    "Node.js",
    "Node.js command prompt",
    "Ubuntu",
    "Debian",
    "Kali Linux",
    "WSL",
    "Windows Subsystem for Linux",
)
_COMMON_APPS = (
    "Notepad", "Notepad++", "WordPad", "Paint", "Paint 3D", "Calculator", "Microsoft Edge", "Google Chrome",
    "Firefox", "Word", "Excel", "PowerPoint", "Outlook", "OneNote", "Teams", "Slack", "Zoom", "Discord", "Steam",
    "Spotify", "File Explorer", "Settings", "Control Panel", "Task Manager", "Photos", "Camera", "Maps", "Mail",
    "Calendar", "Clock", "Weather", "Sticky Notes", "Snipping Tool", "Microsoft Store", "Xbox", "Visual Studio Code",
    "Visual Studio 2022", "Windows Security", "Windows Tools", "Windows Update", "Windows Backup",
    "Windows Media Player", "Registry Editor", "Event Viewer", "Device Manager", "Disk Management", "Services",
    "Character Map", "Remote Desktop Connection", "Quick Assist", "Phone Link", "PowerToys", "Power Automate",
    "Power BI Desktop", "Copilot", "Dev Home", "Get Help", "Tips", "Feedback Hub", "Magnifier", "Narrator",
    "On-Screen Keyboard", "Sound Recorder", "Adobe Acrobat", "VLC media player", "7-Zip File Manager",
)  # fmt: skip
_FUZZY_CUTOFF = 70
COMMON_APPS = _COMMON_APPS  # also what a console's Start-menu name is told apart from (effects_consoles)


def fuzzy_shell(name: str) -> bool:
    """Whether Windows-MCP's fuzzy Start-menu lookup could resolve `name` to a shell (see above)."""
    from rapidfuzz import fuzz, process, utils

    best_shell = process.extractOne(name, _SHELL_APPS, scorer=fuzz.WRatio, processor=utils.default_process)
    if best_shell is None or best_shell[1] < _FUZZY_CUTOFF:
        return False
    best_app = process.extractOne(name, _COMMON_APPS, scorer=fuzz.WRatio, processor=utils.default_process)
    return best_app is None or best_app[1] <= best_shell[1]


def app_arguments(value: object) -> list[str]:
    """App `args` as a list: upstream takes a list or a JSON string (FORMATS.md §8)."""
    if isinstance(value, str):
        text = value
        try:
            value = json.loads(text)
        except ValueError:
            return [text]
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return [] if value is None else [str(value)]


def value_text(value: object) -> str:
    """An argument value as text: booleans `true`/`false`, lists joined with spaces."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def app_command_line(args: Mapping[str, object]) -> str:
    """App's launch as one command line: `<executable file name> <args…>` ("" when none).

    Only the file name of `executable` is kept, so `C:\\…\\shutdown.exe /s` reads like the
    same command typed into PowerShell; arguments with spaces are quoted.
    """
    executable = args.get("executable")
    if mode_of(args, "launch") not in ("launch", "launch_executable") or not isinstance(executable, str):
        return ""
    stem, ext = executable_basename(executable)
    words = [f"{stem}.{ext}" if ext else stem]
    words += [f'"{a}"' if " " in a else a for a in app_arguments(args.get("args"))]
    return " ".join(w for w in words if w)


# ---------------------------------------------------------------------------------------
# Shortcut

# Key names as the Shortcut tool may spell them → one name each. Windows-MCP maps `windows` and
# `command` to Win and `option` to Alt, and its key library takes the left/right and long forms.
KEY_ALIASES = {k: "win" for k in ("windows", "command", "cmd", "super", "meta", "lwin", "rwin")}
KEY_ALIASES |= {k: "ctrl" for k in ("control", "lctrl", "rctrl", "lcontrol", "rcontrol", "ctrlleft", "ctrlright")}
KEY_ALIASES |= {k: "shift" for k in ("lshift", "rshift", "shiftleft", "shiftright")}
KEY_ALIASES |= {k: "alt" for k in ("option", "menu", "lalt", "ralt", "lmenu", "rmenu", "altleft", "altright")}
KEY_ALIASES |= {"escape": "esc", "ins": "insert", "del": "delete", "return": "enter", "back": "backspace"}


def chord_keys(shortcut: object) -> frozenset[str]:
    """A Shortcut's keys (`+` between them, any case and spacing), each under its one name."""
    keys = str(shortcut or "").replace(" ", "").lower().split("+")
    return frozenset(KEY_ALIASES.get(k, k) for k in keys if k)


_LAUNCHER_CHORDS = (frozenset({"win", "r"}), frozenset({"win", "x"}))


def shortcut_launcher(tool: str, args: Mapping[str, object]) -> bool:
    """Shortcut Win+R (Run) or Win+X (power-user menu): as a chord under any key name, or among the keys
    Windows-MCP presses for the value (`{+W+i+n+}+r` is Win+R; `policy.rules.uia_keys`)."""
    shortcut = _text(args, "shortcut")
    return chord_keys(shortcut) in _LAUNCHER_CHORDS or any(e.kind == "launcher" for e in key_events(shortcut))
