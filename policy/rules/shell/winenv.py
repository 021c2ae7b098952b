"""The standard Windows environment the analysers assume when a command names a variable.

The gateway judges a command before it runs, on a machine it cannot query from `policy/`, so
`%SystemRoot%` or `$env:ProgramFiles` fold to their standard values. The user's own name is
unknown: profile paths use `USER_PLACEHOLDER`, and `places.py` matches every profile root
(`C:\\Users\\<anyone>\\…`) so the guess never hides a protected place. Names are compared
case-insensitively, as Windows does; keys here are upper case.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from types import MappingProxyType

USER_PLACEHOLDER = "user"
_PROFILE = "C:\\Users\\" + USER_PLACEHOLDER

STANDARD_ENV: Mapping[str, str] = MappingProxyType(
    {
        "SYSTEMDRIVE": "C:",
        "SYSTEMROOT": "C:\\Windows",
        "WINDIR": "C:\\Windows",
        "COMSPEC": "C:\\Windows\\System32\\cmd.exe",
        "PROGRAMFILES": "C:\\Program Files",
        "PROGRAMFILES(X86)": "C:\\Program Files (x86)",
        "PROGRAMW6432": "C:\\Program Files",
        "COMMONPROGRAMFILES": "C:\\Program Files\\Common Files",
        "COMMONPROGRAMFILES(X86)": "C:\\Program Files (x86)\\Common Files",
        "PROGRAMDATA": "C:\\ProgramData",
        "ALLUSERSPROFILE": "C:\\ProgramData",
        "PUBLIC": "C:\\Users\\Public",
        "USERNAME": USER_PLACEHOLDER,
        "USERPROFILE": _PROFILE,
        "HOMEDRIVE": "C:",
        "HOMEPATH": "\\Users\\" + USER_PLACEHOLDER,
        "APPDATA": _PROFILE + "\\AppData\\Roaming",
        "LOCALAPPDATA": _PROFILE + "\\AppData\\Local",
        "TEMP": _PROFILE + "\\AppData\\Local\\Temp",
        "TMP": _PROFILE + "\\AppData\\Local\\Temp",
        "ONEDRIVE": _PROFILE + "\\OneDrive",
        "PSHOME": "C:\\Windows\\System32\\WindowsPowerShell\\v1.0",
        "DRIVERDATA": "C:\\Windows\\System32\\Drivers\\DriverData",
        "PATHEXT": ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC",
        "OS": "Windows_NT",
        "PROCESSOR_ARCHITECTURE": "AMD64",
        "NUMBER_OF_PROCESSORS": "4",
        "COMPUTERNAME": "DESKTOP",
        "USERDOMAIN": "DESKTOP",
    }
)

# Defined on every Windows machine with a value of its own, set by Windows or an administrator: text that holds one
# is not asked about as holding a value an earlier command stored (S-RULE-219). `PATH` is guarded where it is set.
MACHINE_DEFINED = frozenset(
    {
        "PATH", "PSMODULEPATH", "PROCESSOR_IDENTIFIER", "PROCESSOR_LEVEL", "PROCESSOR_REVISION", "LOGONSERVER",
        "SESSIONNAME", "USERDOMAIN_ROAMINGPROFILE", "COMMONPROGRAMW6432", "CLIENTNAME", "USERDNSDOMAIN", "HOMESHARE",
        "PROCESSOR_ARCHITEW6432",
    }
)  # fmt: skip


def env_value(name: str, env: Mapping[str, str] = STANDARD_ENV) -> str | None:
    """The standard value of environment variable `name` (any case), or None if it has none.

    Args:
        name: the variable name without `%`/`$env:` (`SystemRoot`).
        env: the table to read (tests pass their own).

    Returns:
        Its value, or None for a variable the standard environment does not define.
    """
    return env.get(name.upper())


# Environment variables the standard environment does not define (S-RULE-122): their value is whatever an earlier
# command set. PowerShell expands `$env:P`, cmd `%P%`; a program started from either got the expanded text, so both
# count there.
_PS_VARIABLE = re.compile(r"\$(?:\{env:([^}]+)\}|env:(\w+))", re.IGNORECASE)
_CMD_VARIABLE = re.compile(r"%([^%\s]+)%")
_EXPANDED_BY = {"powershell": (_PS_VARIABLE,), "cmd": (_CMD_VARIABLE,), "program": (_PS_VARIABLE, _CMD_VARIABLE)}


def unknown_variable(shell: str, target: str, known: Collection[str] = ()) -> str | None:
    """The first environment variable in `target` that `shell` expands and neither the standard environment nor
    `known` (upper-case names) defines (`$env:P`, `%P%`), as written; None when there is none."""
    for pattern in _EXPANDED_BY.get(shell, ()):
        for found in pattern.finditer(target):
            name = next(g for g in found.groups() if g is not None).split(":", 1)[0].upper()
            if name not in STANDARD_ENV and name not in known:
                return found.group(0)
    return None


def injected_variable(code: str) -> str | None:
    """The first `$env:X` in text a program runs as code (a command line, a script) that PowerShell filled in before
    starting it, with a value nobody can read here: not standard, not one every machine defines (`MACHINE_DEFINED`).
    One the script set has its value in the text instead (`Folder.lookup`). As written; None when there is none
    (S-RULE-219)."""
    return unknown_variable("powershell", code, known=MACHINE_DEFINED)
