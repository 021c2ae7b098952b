"""The standard Windows environment the analysers assume when a command names a variable.

The gateway judges a command before it runs, on a machine it cannot query from `policy/`, so
`%SystemRoot%` or `$env:ProgramFiles` fold to their standard values. The user's own name is
unknown: profile paths use `USER_PLACEHOLDER`, and `places.py` matches every profile root
(`C:\\Users\\<anyone>\\…`) so the guess never hides a protected place. Names are compared
case-insensitively, as Windows does; keys here are upper case.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def env_value(name: str, env: Mapping[str, str] = STANDARD_ENV) -> str | None:
    """The standard value of environment variable `name` (any case), or None if it has none.

    Args:
        name: the variable name without `%`/`$env:` (`SystemRoot`).
        env: the table to read (tests pass their own).

    Returns:
        Its value, or None for a variable the standard environment does not define.
    """
    return env.get(name.upper())
