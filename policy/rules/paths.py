"""Windows paths and registry keys in one canonical spelling (issue 18 item 3, issue 12 item 2).

Every tool that can reach a file or a registry key — PowerShell, cmd, FileSystem, Registry, App,
Process, typed text — names it in its own spelling. This module turns a spelling into ONE
canonical form; `places.py` then says which protected place, if any, that form is in:

    canonical_path("\\\\localhost\\c$\\Windows\\.\\System32\\hal.dll.")  → "c:\\windows\\system32\\hal.dll"
    canonical_key("Registry::HKEY_LOCAL_MACHINE/SYSTEM/ControlSet001/Services")
                                                              → "hklm\\system\\currentcontrolset\\services"

Paths are judged on a machine `policy/` cannot query, so the spellings are folded with the
standard environment (`winenv.STANDARD_ENV`) and every user profile (`c:\\users\\<anyone>`)
counts, whatever the user's real name. Where Windows would need a fact we lack (the current
directory on another drive, which 8.3 short name belongs to which folder), matching errs
towards "it is the protected place": `candidate_paths` gives every plausible reading and
`places.place_of` lets `PROGRA~1` or `Sys*` match every place they could name. A junction or
symlink made earlier (`mklink /J`) is not visible here; the shell analysers refuse creating
one whose target is protected. This is a tripwire with better eyes, not a sandbox.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Literal, TypeAlias

from policy.rules.shell.winenv import STANDARD_ENV

# =======================================================================================
# Canonical paths

_Kind: TypeAlias = Literal["absolute", "drive-relative", "rooted", "relative"]

_PS_BRACED_ENV = re.compile(r"\$\{env:([^}]+)\}", re.IGNORECASE)
# `$env:ProgramFiles(x86)`: the analysers hand over `${env:ProgramFiles(x86)}` without its braces,
# so a name followed by `(x86)` is read as the (x86) variable when the standard environment has one.
_PS_ENV = re.compile(r"\$env:([a-z0-9_]+(?:\(x86\))?)", re.IGNORECASE)
_PS_AUTOMATIC = re.compile(r"\$(?:\{(home|pshome|profile|pwd)\}|(home|pshome|profile|pwd)(?![\w:]))", re.IGNORECASE)
_CMD_ENV = re.compile(r"%([^%\\/:*?\"<>|]+)%")
# A PowerShell subexpression or braced variable left after the known ones: not constant. A
# bare `$name` is kept literally (`C:\$Recycle.Bin`): the analysers hand over folded
# constants and report what they could not fold as None (ops.py), never as `$x`.
_NOT_CONSTANT = re.compile(r"\$[({]")
_PERCENT_ESCAPE = re.compile(r"(?:%[0-9a-f]{2})+", re.IGNORECASE)
_PROVIDER = re.compile(r"^(?:microsoft\.powershell\.core\\)?filesystem::", re.IGNORECASE)
_OTHER_PROVIDER = re.compile(r"^(?:[a-z][\w.]*\\)?[a-z][\w.]*::")
_PS_DRIVE = re.compile(r"^[a-z][\w]+:")  # hklm:, env:, cert: … (a file system drive is one letter)
_DRIVE = re.compile(r"^([a-z]):")
_DEVICE = re.compile(r"^(?:\\\\[?.]\\|\\\?\?\\)")
_SHADOW_COPY = re.compile(r"^globalroot\\device\\harddiskvolume(?:shadowcopy)?\d+(?=\\|$)")
_VOLUME_GUID = re.compile(r"^volume\{[^}]*\}(?=\\|$)")
_LOCAL_HOST = re.compile(
    r"^(?:localhost(?:\.localdomain)?\.?|127(?:\.\d{1,3}){0,3}|2130706433|0x7f000001|0--1\.ipv6-literal\.net"
    r"|\[?(?:0{0,4}:){2,7}0{0,3}1\]?|\[?::ffff:127(?:\.\d{1,3}){3}\]?)$"
)
_ADMIN_SHARE = re.compile(r"^([a-z])\$$")
_WSL_MOUNT = re.compile(r"mnt\\([a-z])(?=\\|$)")  # a drive under WSL's automount root, inside a distribution's share
_FILE_URI_DRIVE = re.compile(r"(?<=\\)([a-zA-Z])\|")  # file:///c|/x

# shell: folder names (the Run box, Explorer's address bar, `explorer shell:startup`).
_SHELL_FOLDERS: Mapping[str, str] = MappingProxyType(
    {
        "startup": "%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
        "common startup": "%PROGRAMDATA%\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
        "programs": "%APPDATA%\\Microsoft\\Windows\\Start Menu\\Programs",
        "common programs": "%PROGRAMDATA%\\Microsoft\\Windows\\Start Menu\\Programs",
        "start menu": "%APPDATA%\\Microsoft\\Windows\\Start Menu",
        "common start menu": "%PROGRAMDATA%\\Microsoft\\Windows\\Start Menu",
        "sendto": "%APPDATA%\\Microsoft\\Windows\\SendTo",
        "appdata": "%APPDATA%",
        "local appdata": "%LOCALAPPDATA%",
        "common appdata": "%PROGRAMDATA%",
        "profile": "%USERPROFILE%",
        "desktop": "%USERPROFILE%\\Desktop",
        "personal": "%USERPROFILE%\\Documents",
        "downloads": "%USERPROFILE%\\Downloads",
        "windows": "%SYSTEMROOT%",
        "system": "%SYSTEMROOT%\\System32",
        "systemx86": "%SYSTEMROOT%\\SysWOW64",
        "fonts": "%SYSTEMROOT%\\Fonts",
        "programfiles": "%PROGRAMFILES%",
        "programfilesx86": "%PROGRAMFILES(X86)%",
    }
)
_SHELL_FOLDER = re.compile(r"^shell:([^\\/]+)", re.IGNORECASE)

# .NET's `[Environment]::GetFolderPath(…)` names (Environment.SpecialFolder, with its numbers) →
# the standard path, for the folders a rule cares about (the rest are no protected place).
_SPECIAL_FOLDERS: Mapping[str, str] = MappingProxyType(
    {
        "desktop": "%USERPROFILE%\\Desktop",
        "desktopdirectory": "%USERPROFILE%\\Desktop",
        "mydocuments": "%USERPROFILE%\\Documents",
        "personal": "%USERPROFILE%\\Documents",
        "mymusic": "%USERPROFILE%\\Music",
        "mypictures": "%USERPROFILE%\\Pictures",
        "myvideos": "%USERPROFILE%\\Videos",
        "favorites": "%USERPROFILE%\\Favorites",
        "userprofile": "%USERPROFILE%",
        "startup": _SHELL_FOLDERS["startup"],
        "commonstartup": _SHELL_FOLDERS["common startup"],
        "programs": _SHELL_FOLDERS["programs"],
        "commonprograms": _SHELL_FOLDERS["common programs"],
        "startmenu": _SHELL_FOLDERS["start menu"],
        "commonstartmenu": _SHELL_FOLDERS["common start menu"],
        "sendto": _SHELL_FOLDERS["sendto"],
        "applicationdata": "%APPDATA%",
        "localapplicationdata": "%LOCALAPPDATA%",
        "commonapplicationdata": "%PROGRAMDATA%",
        "windows": "%SYSTEMROOT%",
        "system": "%SYSTEMROOT%\\System32",
        "systemx86": "%SYSTEMROOT%\\SysWOW64",
        "fonts": "%SYSTEMROOT%\\Fonts",
        "programfiles": "%PROGRAMFILES%",
        "programfilesx86": "%PROGRAMFILES(X86)%",
        "commonprogramfiles": "%COMMONPROGRAMFILES%",
        "commonprogramfilesx86": "%COMMONPROGRAMFILES(X86)%",
        "commondesktopdirectory": "%PUBLIC%\\Desktop",
        "commondocuments": "%PUBLIC%\\Documents",
    }
)
_SPECIAL_FOLDER_NUMBERS: Mapping[str, str] = MappingProxyType(
    {
        "0": "desktop", "2": "programs", "5": "personal", "6": "favorites", "7": "startup", "9": "sendto",
        "11": "startmenu", "13": "mymusic", "14": "myvideos", "16": "desktopdirectory", "20": "fonts",
        "22": "commonstartmenu", "23": "commonprograms", "24": "commonstartup", "25": "commondesktopdirectory",
        "26": "applicationdata", "28": "localapplicationdata", "35": "commonapplicationdata", "36": "windows",
        "37": "system", "38": "programfiles", "39": "mypictures", "40": "userprofile", "41": "systemx86",
        "42": "programfilesx86", "43": "commonprogramfiles", "44": "commonprogramfilesx86", "46": "commondocuments",
    }
)  # fmt: skip


def special_folder(name: str) -> str | None:
    """The standard path of a .NET special folder (`[Environment]::GetFolderPath('Startup')`).

    Args:
        name: the `Environment.SpecialFolder` name (any case, `[Environment+SpecialFolder]::` prefix
            allowed) or its number.

    Returns:
        The path with `%VAR%` variables (as `canonical_path` reads them), or None for a folder
        the table does not know.
    """
    key = name.strip().strip("'\"").rsplit(":", 1)[-1].strip().lower()
    return _SPECIAL_FOLDERS.get(_SPECIAL_FOLDER_NUMBERS.get(key, key))


# 8.3 short names Windows gives the standard folders on a standard install (first come, first
# numbered). Any other `NAME~N` stays as written and `place_of` matches it by prefix.
_ROOT_SHORT_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "progra~1": "program files",
        "progra~2": "program files (x86)",
        "progra~3": "programdata",
        "docume~1": "documents and settings",
    }
)
_PROFILE_SHORT_NAMES: Mapping[str, str] = MappingProxyType({"appdat~1": "appdata"})

# Junctions every Windows since Vista creates (the real path is the second column): a
# canonical form names the real folder. `*` copies one component.
_JUNCTIONS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("documents and settings",), ("users",)),
    (("users", "all users"), ("programdata",)),
    (("users", "default user"), ("users", "default")),
    (("users", "*", "application data"), ("users", "*", "appdata", "roaming")),
    (("users", "*", "local settings"), ("users", "*", "appdata", "local")),
    (("users", "*", "my documents"), ("users", "*", "documents")),
    (("users", "*", "documents", "my music"), ("users", "*", "music")),
    (("users", "*", "documents", "my pictures"), ("users", "*", "pictures")),
    (("users", "*", "documents", "my videos"), ("users", "*", "videos")),
    (("users", "*", "start menu"), ("users", "*", "appdata", "roaming", "microsoft", "windows", "start menu")),
    (("users", "*", "appdata", "local", "application data"), ("users", "*", "appdata", "local")),
    (("programdata", "application data"), ("programdata",)),
    (("programdata", "start menu"), ("programdata", "microsoft", "windows", "start menu")),
    (("programdata", "desktop"), ("users", "public", "desktop")),
    (("windows", "sysnative"), ("windows", "system32")),  # the 64-bit System32 as 32-bit programs see it
)


@dataclass(frozen=True, slots=True)
class _Split:
    """A spelling taken apart: what it is anchored to, and the rest still to normalise."""

    kind: _Kind
    anchor: str  # "c:", "\\\\host\\share", "\\\\.\\" (a device), "" (rooted or relative)
    rest: str


def _percent_decode(text: str) -> str:
    return _PERCENT_ESCAPE.sub(lambda m: bytes.fromhex(m.group().replace("%", "")).decode("utf-8", "replace"), text)


def _expand_variables(text: str, env: Mapping[str, str], cwd: str | None) -> str | None:
    if "$" not in text and "%" not in text:
        return text

    def lookup(name: str) -> str | None:
        return env.get(name.strip().upper())

    missing = False

    def env_sub(m: re.Match[str]) -> str:
        nonlocal missing
        value = lookup(m.group(1))
        if value is None:
            missing = True
            return ""
        return value

    def automatic(m: re.Match[str]) -> str:
        nonlocal missing
        name = (m.group(1) or m.group(2)).lower()
        value = {
            "home": lookup("USERPROFILE"),
            "pshome": lookup("PSHOME"),
            "profile": _join(lookup("USERPROFILE"), "Documents\\WindowsPowerShell\\Microsoft.PowerShell_profile.ps1"),
            "pwd": cwd,
        }[name]
        if value is None:
            missing = True
            return ""
        return value

    def ps_env_sub(m: re.Match[str]) -> str:
        nonlocal missing
        name = m.group(1)
        if lookup(name) is not None or not name.lower().endswith("(x86)"):
            return env_sub(m)
        base = lookup(name[:-5])  # `$env:windir(x86)` is `$env:windir` and the text `(x86)`
        if base is None:
            missing = True
            return ""
        return base + name[-5:]

    text = _PS_BRACED_ENV.sub(env_sub, text)
    text = _PS_ENV.sub(ps_env_sub, text)
    text = _PS_AUTOMATIC.sub(automatic, text)
    text = _CMD_ENV.sub(env_sub, text)
    if missing or _NOT_CONSTANT.search(text):
        return None
    return text


def _join(base: str | None, tail: str) -> str | None:
    return None if base is None else base + "\\" + tail


def _unquote(text: str) -> str:
    t = text.strip()
    for _ in range(2):  # `"'C:\x'"`: a quoted string inside another
        if len(t) >= 2 and t[0] == t[-1] == "'":
            t = t[1:-1].replace("''", "'")  # a PowerShell literal string
        t = t.replace('"', "").strip()  # `"` cannot be part of a Windows file name; cmd joins quoted pieces
    return t


def _from_file_uri(t: str) -> str:
    rest = _FILE_URI_DRIVE.sub(r"\1:", _percent_decode(t[5:]).lower().replace("/", "\\"))
    if rest.startswith("\\\\\\"):  # file:///c:/x, file:////server/share
        rest = rest[3:]
        return rest if _DRIVE.match(rest) or rest.startswith("\\\\") else "\\" + rest
    if rest.startswith("\\\\"):  # file://host/…
        host, _, tail = rest[2:].partition("\\")
        if host in ("", "localhost"):
            return tail if _DRIVE.match(tail) else "\\" + tail
        return "\\\\" + host + "\\" + tail
    return rest.lstrip("\\")


def is_loopback_name(host: str) -> bool:
    """Whether a lower-case host name or address is this machine's loopback, however spelt
    (`localhost`, `127.0.0.1`, `127.1`, `2130706433`, `::1`, `[0:0:0:0:0:0:0:1]`, `::ffff:127.0.0.1`)."""
    return bool(_LOCAL_HOST.match(host))


def _is_local_host(host: str, env: Mapping[str, str]) -> bool:
    host = host.split("@", 1)[0]  # WebDAV `host@SSL`, `host@8080`
    computer = (env.get("COMPUTERNAME") or "").lower()
    return is_loopback_name(host) or (bool(computer) and (host == computer or host.startswith(computer + ".")))


def _system_drive(env: Mapping[str, str]) -> str:
    drive = (env.get("SYSTEMDRIVE") or "C:").lower()
    return drive if _DRIVE.fullmatch(drive) else "c:"


def _within_share(tail: str) -> str:
    """`tail` with `.` and `..` resolved inside it, never above its start: Windows stops `..` at a share's root."""
    out: list[str] = []
    for part in tail.split("\\"):
        if part == "..":
            if out:
                out.pop()
        elif part not in ("", "."):
            out.append(part)
    return "\\".join(out)


def _split_unc(rest: str, env: Mapping[str, str]) -> _Split | None:
    parts = [p for p in rest.split("\\") if p]
    if not parts:
        return None
    host, share, tail = parts[0], (parts[1] if len(parts) > 1 else ""), "\\".join(parts[2:])
    if host in ("wsl$", "wsl.localhost") and share:
        # A distribution's view of this machine's drives: `\\wsl$\Ubuntu\mnt\c\Windows` is `C:\Windows`, the Linux
        # side reaching it through its default automount root, `/mnt` (S-RULE-135).
        inside = _within_share(tail)
        mounted = _WSL_MOUNT.match(inside)
        if mounted:
            return _Split("absolute", mounted.group(1) + ":", inside[mounted.end() :])
    if _is_local_host(host, env):
        admin = _ADMIN_SHARE.match(share)
        if admin:  # \\localhost\c$\… is C:\…
            return _Split("absolute", admin.group(1) + ":", tail)
        if share == "admin$":  # a share's root stops `..`: \\localhost\admin$\..\x is C:\Windows\x
            root = (env.get("SYSTEMROOT") or "C:\\Windows").lower()
            return _Split("absolute", root[:2], root[2:] + "\\" + _within_share(tail))
    return _Split("absolute", "\\\\" + host + ("\\" + share if share else ""), tail)


def _split_device(rest: str, env: Mapping[str, str]) -> _Split | None:
    if rest.startswith("unc\\"):
        return _split_unc(rest[4:], env)
    drive = _DRIVE.match(rest)
    if drive:
        return _Split("absolute", drive.group(1) + ":", rest[2:])
    for pattern in (_SHADOW_COPY, _VOLUME_GUID):
        m = pattern.match(rest)
        if m:  # a shadow copy or a volume by GUID: conservatively, a copy of the system drive
            return _Split("absolute", _system_drive(env), rest[m.end() :])
    if rest.startswith("globalroot\\systemroot"):
        root = (env.get("SYSTEMROOT") or "C:\\Windows").lower()
        return _Split("absolute", root[:2], root[2:] + rest[len("globalroot\\systemroot") :])
    return _Split("absolute", "\\\\.\\", rest)


def _split(text: str, env: Mapping[str, str], cwd: str | None) -> _Split | None:
    t = _unquote(text)
    if not t:
        return None
    if t[:5].lower() == "file:":
        t = _from_file_uri(t)
    shell = _SHELL_FOLDER.match(t)
    if shell:
        folder = _SHELL_FOLDERS.get(shell.group(1).strip().lower())
        if folder is None:
            return None
        t = folder + t[shell.end() :]
    if t == "~" or t.startswith(("~\\", "~/")):
        profile = env.get("USERPROFILE")
        if profile is None:
            return None
        t = profile + t[1:]
    expanded = _expand_variables(t, env, cwd)
    if expanded is None:
        return None
    t = expanded.strip().lower().replace("/", "\\")
    t = _PROVIDER.sub("", t)
    if _OTHER_PROVIDER.match(t):
        return None  # registry::, certificate:: … are not files
    if _DEVICE.match(t):
        return _split_device(t[4:], env)
    if t.startswith("\\\\"):
        return _split_unc(t[2:], env)
    drive = _DRIVE.match(t)
    if drive:
        rest = t[2:]
        return _Split("absolute" if rest.startswith("\\") else "drive-relative", drive.group(1) + ":", rest)
    if _PS_DRIVE.match(t):
        return None  # a PowerShell drive that is no file system drive (hklm:, env:, cert:)
    if t.startswith("\\"):
        return _Split("rooted", "", t)
    return _Split("relative", "", t)


def _components(rest: str, expand_short: bool, root_is_system: bool) -> list[str]:
    out: list[str] = []
    for raw in rest.split("\\"):
        if not raw:
            continue
        if raw[-1] in ". " or ":" in raw:  # the rare spellings; most components pass as they are
            comp = raw.rstrip(" ")
            if comp == "..":
                if out:
                    out.pop()  # never above the root
                continue
            comp = comp.split(":", 1)[0]  # an alternate data stream (`hosts::$DATA`) is the file itself
            comp = comp.rstrip(". ")  # Windows drops trailing dots and spaces (`winmcp-gateway.\STOP`)
            if not comp:
                continue
            raw = comp
        out.append(raw)
    if root_is_system and out:
        if expand_short and "~" in rest:
            out[0] = _ROOT_SHORT_NAMES.get(out[0], out[0])
            if len(out) > 2 and out[0] in ("users", "documents and settings"):
                out[2] = _PROFILE_SHORT_NAMES.get(out[2], out[2])
        out = _resolve_junctions(out)
    return out


# A junction is recognised by its last component at its depth: (depth, name) → its rows.
_JUNCTION_INDEX: Mapping[tuple[int, str], tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]] = MappingProxyType(
    {
        key: tuple(j for j in _JUNCTIONS if (len(j[0]) - 1, j[0][-1]) == key)
        for key in {(len(pattern) - 1, pattern[-1]) for pattern, _ in _JUNCTIONS}
    }
)
_JUNCTION_DEPTH = max(len(pattern) for pattern, _ in _JUNCTIONS)


def _resolve_junctions(comps: list[str]) -> list[str]:
    # A junction can lead into another (documents and settings → users → …), and `Application Data` in
    # ProgramData or a profile points back at its own folder, any number of times: until nothing changes,
    # each pass at most a few components longer, so a bound of the path's length plus a few is never met.
    for _ in range(len(comps) + 4):
        for i, name in enumerate(comps[:_JUNCTION_DEPTH]):
            rows = _JUNCTION_INDEX.get((i, name), ())
            for pattern, real in rows:
                if all(p in ("*", c) for p, c in zip(pattern, comps, strict=False)):
                    captured = iter(c for p, c in zip(pattern, comps, strict=False) if p == "*")
                    comps = [next(captured) if r == "*" else r for r in real] + comps[len(pattern) :]
                    break
            else:
                continue
            break
        else:
            return comps
    return comps


def _render(anchor: str, rest: str, env: Mapping[str, str], expand_short: bool) -> str:
    joined = "\\".join(_components(rest, expand_short, anchor == _system_drive(env)))
    if anchor.endswith("\\"):  # a device: \\.\
        return anchor + joined
    if joined or _DRIVE.fullmatch(anchor):
        return anchor + "\\" + joined
    return anchor


def _anchor_of(canonical_cwd: str) -> tuple[str, str]:
    drive, rest = ntpath.splitdrive(canonical_cwd)
    return drive, rest


def canonical_path(text: str, *, env: Mapping[str, str] = STANDARD_ENV, cwd: str | None = None) -> str | None:
    """One canonical spelling of a Windows file path: lower case, absolute, `\\` separators.

    Handled: quotes; `/` and repeated separators; `.` and `..` (never above the root);
    trailing dots and spaces on every component; alternate data streams (`hosts::$DATA`);
    `\\\\?\\`, `\\\\.\\`, `\\??\\`, `\\\\?\\UNC\\…`; admin shares of this machine (`\\\\localhost\\c$`,
    `\\\\127.0.0.1\\c$`, `\\\\[::1]\\c$`, `\\\\<COMPUTERNAME>\\c$`, `ADMIN$`) as the local drive;
    shadow copies and `\\\\?\\Volume{…}` as the system drive (a conservative guess); `file:` URIs;
    `shell:` folders; PowerShell provider prefixes; `%VAR%`, `$env:VAR`, `${env:VAR}`, `$HOME`,
    `$PSHOME`, `$PROFILE`, `~`; the standard 8.3 names (`PROGRA~1`) and Vista's compatibility
    junctions (`Documents and Settings`); a rooted path (`\\Users\\x`) on the system drive (or
    `cwd`'s drive); a drive-relative path (`C:Users\\x`) from `cwd` when it is on that drive,
    else from that drive's root — the current directory on another drive is unknown, so the
    root is the guess (`candidate_paths` gives the other readings).

    Args:
        text: the path as written.
        env: the environment variables to fold (upper-case names); default the standard one.
        cwd: the directory relative paths start from, if known (itself canonicalised first).

    Returns:
        The canonical path, or None when it is relative and `cwd` is unknown, names a
        variable `env` lacks or a subexpression, or is not a file system path at all.
    """
    split = _split(text, env, cwd)
    if split is None:
        return None
    return _place_split(split, env, cwd, expand_short=True)


# A device path (`\\.\pipe\x`) and WSL's files (`\\wsl$\…`, `\\wsl.localhost\…`) are this machine.
_THIS_MACHINE = ("\\\\.\\", "\\\\wsl$\\", "\\\\wsl.localhost\\")


def is_remote(path: str | None, mapped: Collection[str] = ()) -> bool:
    """Whether a path is on another machine: a UNC path to another host, or a drive in `mapped`.

    This machine's own admin shares and names (`\\\\localhost\\c$`, `\\\\127.0.0.1\\…`) are local:
    `canonical_path` has made them drive paths already.

    Args:
        path: the path as written (None: not constant, nothing to say).
        mapped: drives (`z:`) the same command mapped to another machine.
    """
    if path is None:
        return False
    canonical = canonical_path(path)
    if canonical is None:
        return False
    if canonical.startswith("\\\\"):
        return not canonical.startswith(_THIS_MACHINE)
    return canonical[:2] in mapped


def _place_split(split: _Split, env: Mapping[str, str], cwd: str | None, *, expand_short: bool) -> str | None:
    if split.kind == "absolute":
        return _render(split.anchor, split.rest, env, expand_short)
    base = canonical_path(cwd, env=env) if cwd is not None else None
    base_drive, base_rest = _anchor_of(base) if base else ("", "")
    if split.kind == "drive-relative":
        if base and base_drive == split.anchor:
            return _render(split.anchor, base_rest + "\\" + split.rest, env, expand_short)
        return _render(split.anchor, split.rest, env, expand_short)
    if split.kind == "rooted":
        return _render(base_drive or _system_drive(env), split.rest, env, expand_short)
    if base is None:
        return None
    return _render(base_drive, base_rest + "\\" + split.rest, env, expand_short)


@lru_cache(maxsize=64)
def _absolute_base(path: str) -> tuple[str, str] | None:
    """(drive, rest) of an absolute directory such as the profile (a few values, asked often)."""
    split = _split(path, MappingProxyType({}), None)
    if split is None or split.kind != "absolute":
        return None
    return split.anchor, split.rest


def candidate_paths(text: str, *, env: Mapping[str, str] = STANDARD_ENV, cwd: str | None = None) -> tuple[str, ...]:
    """Every plausible canonical reading of a path, for rules that must not miss.

    Besides `canonical_path`'s reading: the spelling with 8.3 short names left as written
    (`place_of` matches them by prefix); for a drive-relative path, the readings from the
    drive's root, the user's profile and Desktop; for a relative path without `cwd`, the
    readings from the user's Desktop (the FileSystem tool resolves relative paths there) and
    profile (where PowerShell starts).

    Args:
        text: the path as written.
        env: the environment variables to fold.
        cwd: the current directory, if known.

    Returns:
        The readings, most likely first, without duplicates; empty when none is possible.
    """
    if env is STANDARD_ENV and cwd is None:
        return _standard_candidates(text)
    return _candidates(text, env, cwd)


@lru_cache(maxsize=4096)
def _standard_candidates(text: str) -> tuple[str, ...]:
    return _candidates(text, STANDARD_ENV, None)


def _candidates(text: str, env: Mapping[str, str], cwd: str | None) -> tuple[str, ...]:
    split = _split(text, env, cwd)
    if split is None:
        return ()
    readings = [_place_split(split, env, cwd, expand_short=True)]
    if "~" in split.rest:  # the 8.3 names as written too: `place_of` matches them by prefix
        readings.append(_place_split(split, env, cwd, expand_short=False))
    profile = _absolute_base(env.get("USERPROFILE") or "") if split.kind in ("relative", "drive-relative") else None
    if profile is not None:
        drive, rest = profile
        if split.kind == "drive-relative":
            readings.append(_render(split.anchor, split.rest, env, True))  # from the drive's root
        if split.kind == "relative" and cwd is None or split.kind == "drive-relative" and drive == split.anchor:
            for base in (rest + "\\desktop", rest):  # FileSystem starts at the Desktop, PowerShell at home
                readings.append(_render(drive, base + "\\" + split.rest, env, True))
    out: list[str] = []
    for r in readings:
        if r is not None and r not in out:
            out.append(r)
    return tuple(out)


# =======================================================================================
# Canonical registry keys

_HIVE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "hklm": "hklm",
        "hkey_local_machine": "hklm",
        "hkcu": "hkcu",
        "hkey_current_user": "hkcu",
        "hku": "hku",
        "hkey_users": "hku",
        "hkcr": "hklm\\software\\classes",  # the merged view; the user part is hkcu\software\classes
        "hkey_classes_root": "hklm\\software\\classes",
        "hkcc": "hklm\\system\\currentcontrolset\\hardware profiles\\current",
        "hkey_current_config": "hklm\\system\\currentcontrolset\\hardware profiles\\current",
        "hkey_current_user_local_settings": "hkcu\\software\\classes\\local settings",
    }
)
_KEY_PROVIDER = re.compile(r"^(?:microsoft\.powershell\.core\\)?registry::", re.IGNORECASE)
_NATIVE_KEY = re.compile(r"^\\registry\\(machine|user)(?=\\|$)")
_REMOTE_KEY = re.compile(r"^\\\\([^\\]+)\\")
_CONTROL_SET = re.compile(r"^controlset\d{3}$")


def canonical_key(text: str) -> str | None:
    """One canonical spelling of a registry key: `hklm\\software\\…`, lower case, `\\` separators.

    Handled: quotes, `/`, repeated and trailing separators; `HKLM:\\`, `HKLM:`, `HKLM\\`,
    `HKEY_LOCAL_MACHINE\\`, `Registry::…`, `Microsoft.PowerShell.Core\\Registry::…`, the native
    `\\Registry\\Machine\\…`, `\\\\localhost\\HKLM\\…` (reg.exe's remote form, this machine);
    HKCU, HKU, HKCR (→ `hklm\\software\\classes`), HKCC (→ the current hardware profile);
    `ControlSet001`/`ControlSet002` → `currentcontrolset`; `.` and `..` resolved (`Run\\.` is `Run`, as
    the PowerShell provider reads it). `Wow6432Node` and `HKU\\<sid>` are kept: `key_place` matches
    them as the same place as the 64-bit and current-user keys.

    Args:
        text: the key as written.

    Returns:
        The canonical key, or None when it names no known hive, another machine, or a variable.
    """
    t = _unquote(text).lower().replace("/", "\\")
    if "$" in t or _CMD_ENV.search(t):
        return None
    t = _KEY_PROVIDER.sub("", t)
    remote = _REMOTE_KEY.match(t)
    if remote:
        if not _is_local_host(remote.group(1), STANDARD_ENV):
            return None
        t = t[remote.end() :]
    native = _NATIVE_KEY.match(t)
    if native:
        t = ("hklm" if native.group(1) == "machine" else "hku") + t[native.end() :]
    parts = [p for p in t.split("\\") if p]
    if not parts:
        return None
    head = parts[0]
    hive_name, _, after = head.partition(":")
    hive = _HIVE_NAMES.get(hive_name)
    if hive is None:
        return None
    comps = hive.split("\\")
    for part in ([after] if after else []) + parts[1:]:
        if part == "..":  # PowerShell's provider paths resolve `.` and `..`; never above the hive
            comps = comps[:-1] if len(comps) > len(hive.split("\\")) else comps
        elif part != ".":
            comps.append(part)
    if len(comps) > 2 and comps[0] == "hklm" and comps[1] == "system" and _CONTROL_SET.match(comps[2]):
        comps[2] = "currentcontrolset"  # ControlSet001 is (almost always) the current one: one place
    return "\\".join(comps)
