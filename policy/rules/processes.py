"""Protected processes (issue 18 item 3): the ones no tool may end, whatever `force` says.

Ending one of these crashes Windows (csrss, wininit, smss: a blue screen), logs everybody out
(winlogon), stops every service (services, svchost), hands the machine to an attacker (a
security tool, the event log) or lifts the gateway's own guard (Windows-MCP, the gateway).
Ending everything at once (`Get-Process | Stop-Process`, `taskkill /f /fi "pid gt 0"`) is
refused too. Names are compared on one canonical form: base name, lower case, no `.exe`.
Desktop programs that Windows restarts by itself (dwm, fontdrvhost, sihost) are not listed:
killing them is a force-kill like any other, which asks.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Collection

# pid 0 is the System Idle Process, pid 4 the System process on every Windows.
PROTECTED_PIDS = frozenset({"0", "4"})

PROTECTED_PROCESSES: frozenset[str] = frozenset(
    # The kernel's own and the session's critical processes (a blue screen or a logout).
    {"system", "idle", "system idle process", "registry", "memory compression", "secure system"}
    | {"smss", "csrss", "wininit", "winlogon", "services", "lsass", "lsaiso", "svchost", "lsm"}
    # Microsoft's security tools.
    | {"msmpeng", "nissrv", "mssense", "sense", "mpdefendercoreservice", "securityhealthservice", "sgrmbroker"}
    | {"smartscreen", "mpcopyaccelerator", "sysmon", "sysmon64"}
    # Common endpoint-security agents (CrowdStrike, SentinelOne, Carbon Black, Cylance, Trellix/FireEye,
    # Tanium, Elastic, ESET, Kaspersky, McAfee, Symantec, Sophos, Bitdefender, Trend Micro, Webroot, Cybereason).
    | {"csfalconservice", "csfalconcontainer", "sentinelagent", "sentinelservicehost", "sentinelstaticengine"}
    | {"sentinelhelperservice", "cb", "repmgr", "cylancesvc", "xagt", "taniumclient", "elastic-agent"}
    | {"elastic-endpoint", "ekrn", "avp", "mcshield", "mfemms", "masvc", "ccsvchst", "sophoshealth"}
    | {"savservice", "vsserv", "bdservicehost", "epsecurityservice", "ntrtscan", "tmbmsrv", "wrsa", "minionhost"}
    # The guard and what it guards.
    | {"windows-mcp", "winmcp-gateway"}
)

_GLOB_CHARS = frozenset("*?[")
# Names of every shape: a pattern that matches all of them matches everything.
_PROBES = ("notepad", "explorer", "svchost", "a", "x1", "chrome", "code", "lsass", "my-app_2")
_REGEX_ALL = re.compile(r"^\^?(?:\.[*+]|\(\.[*+]\))?\$?$")


def canonical_process(name: str) -> str:
    """One spelling of a process name: base name, lower case, no quotes, no `.exe`.

    `"C:\\Windows\\System32\\LSASS.EXE"` → `lsass`; a pid (`672`) and a wildcard pattern
    (`ls*`) are returned as they are, folded.

    Args:
        name: the name, path or pid as written.

    Returns:
        The canonical name ("" for an empty one).
    """
    t = name.strip().strip("'\"").strip().replace("/", "\\")
    t = t.rpartition("\\")[2].rpartition(":")[2].lower().rstrip(". ")  # the base name (ntpath.basename, faster)
    return t[:-4] if t.endswith(".exe") else t


def _glob_of(name: str) -> str:
    # WMI's `name like 'ls%'` spells `*` as `%` and `?` as `_`.
    return name.replace("%", "*").replace("_", "?") if "%" in name else name


def is_protected_process(name: str) -> bool:
    """Whether ending `name` is refused whatever `force` says.

    A wildcard pattern (`Stop-Process -Name *ss`, `wmic … where "name like 'ls%'"`) counts
    if it could match any protected name; pids 0 and 4 are the System processes.

    Args:
        name: a process name, path, pattern or pid as written.

    Returns:
        True for a protected process (or a pattern that reaches one).
    """
    return _reaches(name, PROTECTED_PROCESSES, PROTECTED_PIDS)


def _reaches(name: str, names: Collection[str], pids: Collection[str]) -> bool:
    """Whether a kill of `name` (a name, path, pattern or pid) reaches one of `names` (canonical) or `pids`."""
    c = canonical_process(name)
    if c.isdigit():
        return str(int(c)) in pids
    glob = _glob_of(c)
    if _GLOB_CHARS.isdisjoint(glob):
        return c in names
    pattern = glob[:-4] if glob.endswith(".exe") else glob
    return any(fnmatch.fnmatchcase(n, pattern) or fnmatch.fnmatchcase(n + ".exe", glob) for n in names)


def ends_own_process(name: str, own: Collection[str]) -> bool:
    """Whether ending `name` would end one of the gateway's own processes.

    `own` holds canonical names and pids (`canonical_process`) of the processes whose end lifts the
    guard: the gateway's own pid, and the name of the interpreter it runs in (`python` for an
    installed gateway). A kill by that name ends every process of it, the gateway among them; a
    pattern counts when it could match the name.

    Args:
        name: a process name, path, pattern or pid as written.
        own: the gateway's own process names and pids.

    Returns:
        True when the kill would reach the gateway.
    """
    if not own:
        return False
    return _reaches(name, [o for o in own if not o.isdigit()], own)


def kills_everything(name_pattern: str) -> bool:
    """Whether a kill by this name pattern would end every process.

    True for an empty filter, `*`, `*.*`, `*.exe`, `?*`, `%` (WMI), the regexes `.*`/`.+`, and
    any glob that matches names of every shape.

    Args:
        name_pattern: the name filter as written.

    Returns:
        True when nothing would be spared.
    """
    c = canonical_process(name_pattern)
    if not c or _REGEX_ALL.match(c) and c not in ("^", "$", "^$"):
        return True
    glob = _glob_of(c)
    if _GLOB_CHARS.isdisjoint(glob):
        return False
    return all(fnmatch.fnmatchcase(p, glob) or fnmatch.fnmatchcase(p + ".exe", glob) for p in _PROBES)
