"""Windows' administration consoles: windows whose clicks change what the command rules guard (S-RULE-154).

The Registry Editor, the MMC snap-ins (Services, Task Scheduler, Local Security Policy, Group Policy, Local Users
and Groups, Certificates, the firewall's advanced console, Event Viewer, Disk and Device Management), Windows
Security, Credential Manager, the UAC slider and System Configuration each turn a protection off, add a
persistence point or expose a secret with a few clicks the gateway does not judge as commands: the toggle that
is `Set-MpPreference -DisableRealtimeMonitoring` in PowerShell is a click in Windows Security. Opening one is
therefore an EXECUTE marked `CONSOLE` (judge row `admin-console`, ask), whichever way it is opened: by program
(`regedit`, `mmc`, `secpol.msc`, `control keymgr.dll`), by a URI (`windowsdefender:`), by `Start-Process`, or by
App `launch` with a Start-menu name (matched as upstream matches it, fuzzily).
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Sequence

from policy.rules.args import COMMON_APPS
from policy.rules.effects_common import Effects, effect, lower, unquote
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

# The `extra` key naming the console an EXECUTE opens.
CONSOLE = "console"

# Program stems (no `.exe`) that are consoles themselves; every `*.msc` is an MMC snap-in.
_PROGRAMS: dict[str, str] = {
    "regedit": "the Registry Editor",
    "regedt32": "the Registry Editor",
    "mmc": "the Microsoft Management Console",
    "eventvwr": "Event Viewer",
    "sechealthui": "Windows Security",
    "useraccountcontrolsettings": "the User Account Control settings",
    "msconfig": "System Configuration",
    # The snap-ins' own names, as App `launch` or a Run line may give them without `.msc`.
    **dict.fromkeys(
        ("gpedit", "secpol", "lusrmgr", "taskschd", "compmgmt", "certmgr", "certlm", "wf", "diskmgmt", "devmgmt"),
        "an MMC console",
    ),
}
# URIs and Control Panel items that open one (`start windowsdefender:`, `control keymgr.dll`).
_TARGETS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), name)
    for pattern, name in (
        (r"windowsdefender:.*|ms-settings:windowsdefender.*", "Windows Security"),
        (r"keymgr\.dll.*|microsoft\.credentialmanager", "Credential Manager"),
        (r"microsoft\.windowsdefender|microsoft\.useraccounts", "the Control Panel's security settings"),
    )
)
# Their Start-menu names, for App `launch` (matched as upstream matches a name: WRatio, at least this score).
START_MENU_NAMES = (
    "Registry Editor", "Task Scheduler", "Services", "Computer Management", "Local Security Policy",
    "Edit group policy", "Local Group Policy Editor", "Local Users and Groups", "Windows Security",
    "Credential Manager", "Windows Defender Firewall with Advanced Security", "Event Viewer", "Disk Management",
    "Device Manager", "Manage user certificates", "Manage computer certificates",
    "Change User Account Control settings", "System Configuration",
)  # fmt: skip
_CUTOFF = 86


def console_named(target: Value) -> str | None:
    """The console a program path, file or URI opens (`C:\\Windows\\regedit.exe`, `secpol.msc`,
    `windowsdefender://threat`), or None."""
    text = unquote(target)
    if not text:
        return None
    named = next((name for pattern, name in _TARGETS if pattern.fullmatch(text)), None)
    if named is not None:
        return named
    base = ntpath.basename(lower(text).replace("/", "\\"))
    if base.endswith(".msc"):
        return f"the MMC console {base}"
    stem = base.removesuffix(".exe")
    return _PROGRAMS.get(stem)


def marked(found: Effects) -> Effects:
    """`found` with each EXECUTE of a console marked `CONSOLE` (its other effects unchanged)."""
    return tuple(_marked(e) for e in found)


def _marked(e: Effect) -> Effect:
    if e.kind is not EffectKind.EXECUTE or any(k == CONSOLE for k, _ in e.extra):
        return e
    name = console_named(e.target)
    return e if name is None else effect(e.kind, e.target, e.detail, extra=(*e.extra, (CONSOLE, name)))


def program_console(op: Operation) -> Effects:
    """A console started as a program (`regedit`, `secpol.msc`, `mmc`): the EXECUTE of it, marked."""
    if op.shell not in ("program", "cmd"):
        return ()
    if ntpath.basename(lower(op.name)).removesuffix(".exe") == "explorer":  # `explorer windowsdefender:` opens it
        opened = [(a, n) for a in op.args if (n := console_named(a)) is not None]
        return tuple(effect(EffectKind.EXECUTE, a, "explorer opened", extra=((CONSOLE, n),)) for a, n in opened)
    name = console_named(op.name)
    if name is None or not opens_window(name, op.args):
        return ()
    return (effect(EffectKind.EXECUTE, op.name, f"{op.name} opened", extra=((CONSOLE, name),)),)


_OTHER_APPS = tuple(a for a in COMMON_APPS if a not in START_MENU_NAMES)


def opens_window(console: str, words: Sequence[Value]) -> bool:
    """Whether the console opens its window with these arguments: the Registry Editor handed a file or
    `/s`, `/e`, `/a` imports or exports it and shows none (`regedit /m` is a second window)."""
    if console not in (_PROGRAMS["regedit"], "Registry Editor"):
        return True
    return all(lower(w) in ("/m", "-m") for w in words)


def start_menu_console(name: Value) -> str | None:
    """The console App `launch` opens for a Start-menu `name`: upstream starts the Start-menu entry its fuzzy
    match scores best, so a name closer to a console than to any common app (`Service`, `Security`) is that
    console, and one as close to an app (`Settings`, `control`) is that app."""
    if name is None or not name.strip():
        return None
    from rapidfuzz import fuzz, process, utils

    best = process.extractOne(name, START_MENU_NAMES, scorer=fuzz.WRatio, processor=utils.default_process)
    other = process.extractOne(name, _OTHER_APPS, scorer=fuzz.WRatio, processor=utils.default_process)
    if best is not None and best[1] >= _CUTOFF and (other is None or other[1] < best[1]):
        return best[0]
    return console_named(name)
