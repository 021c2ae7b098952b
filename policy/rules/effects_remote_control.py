"""Remote-control programs installed or started (issue 18, S-RULE-169).

AnyDesk, TeamViewer, ScreenConnect, RustDesk, a VNC server, an RMM agent or Windows' Quick Assist give
whoever holds the other end this desktop: they see it and drive it, as the agent does, and the gateway
judges none of their clicks. They are the first thing a support scam installs and the most common way a
ransomware crew keeps its access, and they are also everyday tools a person may want. Installing one (by
`winget`/`choco`/`scoop` name, or by running its setup) or starting one is therefore a person's call: an
`EXECUTE` marked `REMOTE_CONTROL` (judge row `remote-control`, ask). A viewer that connects elsewhere
(`vncviewer`, `mstsc`) is not one: nobody reaches this machine through it.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Iterable

from policy.rules.effects_common import Effects, effect, lower, unquote
from policy.rules.shell.ops import EffectKind, Value

REMOTE_CONTROL = "remote-control"  # an `extra` key: the remote-control program a launch or install names
# Program, installer and package names (winget ids: `AnyDesk.AnyDesk`, `Google.ChromeRemoteDesktopHost`), each
# matched at the start of the name or after a separator (`TeamViewer_Setup.exe`, `GlavSoft.TightVNC`).
_TOOLS = re.compile(
    r"(?:^|[^a-z0-9])("
    r"anydesk|teamviewer|rustdesk|screenconnect|connectwise\W?control|splashtop|srstreamer|winvnc|tightvnc|ultravnc"
    r"|tvnserver|vnc-?server|radmin|rserver3|chromeremotedesktop|remoting_host|nomachine|nxserver|dwagent|dwservice"
    r"|ateraagent|atera\W?networks|ninjarmm|ninjaone|meshagent|meshcentral|logmein|gotoassist|action1|simplehelp"
    r"|zohoassist|zoho\W?assist|supremo|remoteutilities|rutserv|ammyy|quick\W?assist|tacticalrmm|tacticalagent|remotepc"
    r"|parsec)",
    re.IGNORECASE,
)


def remote_control_tool(name: Value) -> str | None:
    """The remote-control program a program path, installer or package name names, or None."""
    text = unquote(name)
    if not text:
        return None
    match = _TOOLS.search(ntpath.basename(lower(text)))  # (ntpath splits at `/` as at `\\`)
    return match.group(1) if match else None


def remote_control(targets: Iterable[Value], detail: str) -> Effects:
    """An `EXECUTE` marked `REMOTE_CONTROL` for each target that names a remote-control program."""
    out = []
    for target in targets:
        tool = remote_control_tool(target)
        if tool is not None:
            out.append(effect(EffectKind.EXECUTE, target, f"{detail} ({tool})", extra=((REMOTE_CONTROL, tool),)))
    return tuple(out)
