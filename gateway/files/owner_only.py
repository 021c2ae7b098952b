"""Files only their owner can read: POSIX modes, Windows ACLs, and the truth about which one holds.

The HTTP token, the audit, the approvals and the STOP file live in the state dir. What keeps
other users out of them differs by platform, and the messages must say which it is:

    POSIX    `protect_file` → chmod 0600, `protect_dir` → chmod 0700.
    Windows  the mode bits mean nothing; `icacls` (System32's, run without a shell, stdin
             closed) removes the inherited entries and grants only the current user:
                 icacls <file> /inheritance:r /grant:r *<your SID>:F
                 icacls <dir>  /inheritance:r /grant:r *<your SID>:(OI)(CI)F
             so every file later created in that dir inherits "only you". The user is
             `whoami /user` (name and SID), else USERDOMAIN\\USERNAME.

Each call answers a `Protection` read back from the file itself (`inspect`), never the one
it hoped for. Windows, step by step:

    1. `icacls <path>` lists the entries; an entry for anyone but you that grants access
       (inherited or not, DENY entries aside) means others can read it.
    2. only you → "owner-only ACL"; others, and the path is under %USERPROFILE% → "inherited
       from the profile dir" (the profile gives you, SYSTEM and Administrators access);
       others elsewhere → "readable by others (…names…)".
    3. icacls failed or printed what this reader does not understand → "unknown: why"
       (a file system without ACLs, FAT32 or exFAT, ends here).

A dir the gateway did not create is never re-permissioned on Windows (`ensure_private_dir`):
`--state-dir` may name a folder the user shares with other things.
"""

from __future__ import annotations

import contextlib
import csv
import enum
import ntpath
import os
import re
import stat
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeAlias

from gateway.files.platform import is_windows

# argv → (exit code, stdout and stderr as text). Never a shell: the argv is passed as it is.
Runner: TypeAlias = Callable[[Sequence[str]], tuple[int, str]]

FILE_MODE = 0o600
DIR_MODE = 0o700
# icacls and whoami answer in well under a second; a stuck one must not hang the gateway.
COMMAND_TIMEOUT_S = 15.0
_ACE = re.compile(r"^(?P<who>\S.*?):(?P<flags>(?:\([A-Za-z,]+\))+)\s*$")


class ProtectionKind(enum.Enum):
    """What keeps other users out of a file (or does not)."""

    OWNER_MODE = "owner-only mode"
    OWNER_ACL = "owner-only ACL"
    PROFILE = "inherited from the profile dir"
    OPEN = "readable by others"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True, kw_only=True)
class Protection:
    """One file's protection as read back from it; `str()` is the phrase messages show."""

    kind: ProtectionKind
    detail: str = ""

    @property
    def owner_only(self) -> bool:
        """Only the owner can read it (mode or ACL)."""
        return self.kind in (ProtectionKind.OWNER_MODE, ProtectionKind.OWNER_ACL)

    def __str__(self) -> str:
        if self.kind is ProtectionKind.OWNER_MODE:
            return f"owner-only (mode {self.detail})"
        if self.kind is ProtectionKind.UNKNOWN:
            return f"unknown: {self.detail}"
        return f"{self.kind.value} ({self.detail})" if self.detail else self.kind.value

    def who_can_read(self) -> str:
        """The sentence a message puts after a file's name ("only you can read it: owner-only ACL")."""
        if self.owner_only:
            return f"only you can read it: {self}"
        if self.kind is ProtectionKind.PROFILE:
            return f"you, administrators and SYSTEM can read it: {self}"
        if self.kind is ProtectionKind.OPEN:
            return f"OTHER USERS CAN READ IT: {self}"
        return f"who else can read it is not known: {self}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Identity:
    """The current Windows user: `name` as icacls prints it (DOMAIN\\user), `sid` when known."""

    name: str
    sid: str | None = None

    @property
    def principal(self) -> str:
        """How icacls is told who: `*SID` when known (no name lookup, any language), else the name."""
        return f"*{self.sid}" if self.sid else self.name


def _decode(data: bytes) -> str:
    # Console programs write the OEM code page to a pipe; "oem" exists only on Windows.
    for codec in ("oem", "utf-8"):
        with contextlib.suppress(LookupError, UnicodeDecodeError):
            return data.decode(codec)
    return data.decode("utf-8", "replace")


def run_command(argv: Sequence[str]) -> tuple[int, str]:
    """The default `Runner`: run `argv` without a shell, stdin closed, output captured.

    Args:
        argv: the program (an absolute path) and its arguments.

    Returns:
        (exit code, stdout + stderr); (-1, the error) when it could not run or timed out.
    """
    try:
        done = subprocess.run(
            list(argv),
            shell=False,
            stdin=subprocess.DEVNULL,  # over stdio the gateway's stdin is the MCP stream
            capture_output=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
            creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return -1, f"{type(exc).__name__}: {exc}"
    return done.returncode, _decode(done.stdout + done.stderr).strip()


def system32(environ: Mapping[str, str]) -> str:
    """System32 of this Windows (absolute: a bare `icacls` would be looked for in the cwd first)."""
    root = environ.get("SystemRoot") or environ.get("SYSTEMROOT") or "C:\\Windows"
    return ntpath.join(root, "System32")


def current_identity(run: Runner = run_command, environ: Mapping[str, str] = os.environ) -> Identity | None:
    """Who this process runs as on Windows: `whoami /user`, else USERDOMAIN\\USERNAME, else None."""
    code, out = run([ntpath.join(system32(environ), "whoami.exe"), "/user", "/fo", "csv", "/nh"])
    if code == 0:
        for row in csv.reader(out.splitlines()):
            if len(row) == 2 and row[1].upper().startswith("S-1-"):
                return Identity(name=row[0], sid=row[1])
    user = environ.get("USERNAME")
    if not user:
        return None
    domain = environ.get("USERDOMAIN")
    return Identity(name=f"{domain}\\{user}" if domain else user)


def _under_profile(path: str, environ: Mapping[str, str]) -> bool:
    profile = environ.get("USERPROFILE")
    if not profile:
        return False
    inner, outer = ntpath.normcase(ntpath.normpath(path)), ntpath.normcase(ntpath.normpath(profile))
    return inner == outer or inner.startswith(outer.rstrip("\\") + "\\")


def _win_path(path: str | os.PathLike[str]) -> str:
    text = os.fspath(path)
    return text if ntpath.isabs(text) or text.startswith("/") else os.path.abspath(text)


def parse_icacls(listing: str, path: str) -> list[tuple[str, str]] | None:
    """The (principal, flags) entries of `icacls PATH`'s listing; None when it is not understood.

    The listing is `PATH who:(flags)…` then one indented entry a line, a blank line and a
    summary. Principals are localised names; the flags `(I)`, `(OI)`, `(F)`, `(DENY)` are not.
    """
    entries: list[tuple[str, str]] = []
    for number, raw in enumerate(listing.splitlines()):
        line = raw.strip()
        if number == 0:
            if not line.casefold().startswith(path.casefold()):
                return None
            line = line[len(path) :].strip()
        if not line:
            break
        match = _ACE.match(line)
        if match is None:
            return None
        entries.append((match["who"], match["flags"].upper()))
    return entries or None


def _classify_windows(
    entries: Sequence[tuple[str, str]], me: Identity, path: str, environ: Mapping[str, str]
) -> Protection:
    mine = {me.name.casefold(), *((me.sid.casefold(),) if me.sid else ())}
    others = sorted({who for who, flags in entries if who.casefold() not in mine and "(DENY)" not in flags})
    if not others:
        return Protection(kind=ProtectionKind.OWNER_ACL)
    listed = ", ".join(others)
    if _under_profile(path, environ):
        return Protection(kind=ProtectionKind.PROFILE, detail=f"also: {listed}")
    return Protection(kind=ProtectionKind.OPEN, detail=listed)


def _windows_unknown(path: str, why: str, environ: Mapping[str, str]) -> Protection:
    if _under_profile(path, environ):
        return Protection(kind=ProtectionKind.PROFILE, detail=f"not verified: {why}")
    return Protection(kind=ProtectionKind.UNKNOWN, detail=why)


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200] or "no output"


@dataclass(frozen=True, slots=True, kw_only=True)
class FileGuard:
    """The seams of this module: the platform, how commands run, the environment, who you are.

    `FileGuard()` is this machine; tests pass `platform="win32"` and a fake `run` and assert the
    exact argv icacls gets.
    """

    platform: str | None = None
    run: Runner = run_command
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    identity: Identity | None = None

    @property
    def windows(self) -> bool:
        return is_windows(self.platform)

    def _me(self) -> Identity | None:
        return self.identity or current_identity(self.run, self.environ)

    def with_identity(self) -> FileGuard:
        """This guard with the Windows user resolved once (one `whoami` for many files); POSIX: itself."""
        if not self.windows or self.identity is not None:
            return self
        return replace(self, identity=current_identity(self.run, self.environ))

    def remedy(self, path: str | os.PathLike[str], *, directory: bool) -> str:
        """The command a person runs to make `path` owner-only by hand."""
        if not self.windows:
            return f"chmod {DIR_MODE:o} {os.fspath(path)}" if directory else f"chmod {FILE_MODE:o} {os.fspath(path)}"
        who = self.identity.name if self.identity else "%USERDOMAIN%\\%USERNAME%"
        rights = "(OI)(CI)F" if directory else "F"
        return f'icacls "{_win_path(path)}" /inheritance:r /grant:r "{who}:{rights}"'

    def _icacls(self) -> str:
        return ntpath.join(system32(self.environ), "icacls.exe")

    def inspect(self, path: str | os.PathLike[str], *, me: Identity | None = None) -> Protection:
        """Who can read `path`, read back from it (see the module docstring); changes nothing.

        Args:
            path: a file or dir that exists.
            me: the Windows identity, when the caller already resolved it (one `whoami` for many files).

        Returns:
            Its protection; UNKNOWN with the reason when it cannot be told.
        """
        if not self.windows:
            return _inspect_posix(Path(path))
        text = _win_path(path)
        identity = me or self._me()
        if identity is None:
            return _windows_unknown(text, "cannot tell who you are (whoami failed, USERNAME unset)", self.environ)
        code, out = self.run([self._icacls(), text])
        if code != 0:
            return _windows_unknown(text, f"icacls failed ({code}): {_one_line(out)}", self.environ)
        entries = parse_icacls(out, text)
        if entries is None:
            return _windows_unknown(
                text, f"icacls printed what this reader does not understand: {_one_line(out)}", self.environ
            )
        return _classify_windows(entries, identity, text, self.environ)

    def _protect(self, path: str | os.PathLike[str], *, directory: bool) -> Protection:
        if not self.windows:
            try:
                os.chmod(path, DIR_MODE if directory else FILE_MODE)
            except OSError as exc:
                return Protection(kind=ProtectionKind.UNKNOWN, detail=f"chmod failed: {exc}")
            return _inspect_posix(Path(path))
        text = _win_path(path)
        identity = self._me()
        if identity is None:
            return _windows_unknown(text, "cannot tell who you are (whoami failed, USERNAME unset)", self.environ)
        grant = f"{identity.principal}:{'(OI)(CI)F' if directory else 'F'}"
        code, out = self.run([self._icacls(), text, "/inheritance:r", "/grant:r", grant])
        if code != 0:
            return _windows_unknown(
                text, f"icacls could not set an owner-only ACL ({code}): {_one_line(out)}", self.environ
            )
        return self.inspect(text, me=identity)

    def protect_file(self, path: str | os.PathLike[str]) -> Protection:
        """Make `path` readable and writable by its owner only, then read back what holds.

        Returns:
            The protection read back ("owner-only (mode 600)", "owner-only ACL", or the truth when
            that could not be set). Never raises for a failure to protect: the caller says it.
        """
        return self._protect(path, directory=False)

    def protect_dir(self, path: str | os.PathLike[str]) -> Protection:
        """Make the dir `path` owner-only, and on Windows everything created in it from now on."""
        return self._protect(path, directory=True)

    def ensure_private_dir(self, path: Path) -> Protection | None:
        """Create `path` (and its parents) owner-only; an existing dir is left as it is on Windows.

        On POSIX an existing dir readable by others is tightened to 0700 (cheap, and the dirs
        callers pass are the gateway's own). On Windows re-permissioning an existing dir costs
        two processes per call and may be a folder the user shares: only a new dir is protected.

        Returns:
            The dir's protection when it was created or tightened now, else None.
        """
        if path.is_dir():
            if self.windows:
                return None
            with contextlib.suppress(OSError):
                if stat.S_IMODE(path.stat().st_mode) & 0o077:
                    return self.protect_dir(path)
            return None
        path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        return self.protect_dir(path)


def _inspect_posix(path: Path) -> Protection:
    try:
        st = path.stat()
    except OSError as exc:
        return Protection(kind=ProtectionKind.UNKNOWN, detail=f"cannot stat it: {exc}")
    getuid = getattr(os, "geteuid", None)
    if getuid is not None and st.st_uid != getuid():
        return Protection(kind=ProtectionKind.OPEN, detail=f"owned by uid {st.st_uid}, not you")
    mode = stat.S_IMODE(st.st_mode)
    if not mode & 0o077:
        return Protection(kind=ProtectionKind.OWNER_MODE, detail=f"{mode:o}")
    # Its own bits count, not the dir's: a file keeps its mode when it is moved or linked elsewhere.
    return Protection(kind=ProtectionKind.OPEN, detail=f"mode {mode:04o}")


THIS_MACHINE = FileGuard()


def protect_file(path: str | os.PathLike[str]) -> Protection:
    """`FileGuard().protect_file(path)`: owner-only on this machine, and what holds."""
    return THIS_MACHINE.protect_file(path)


def protect_dir(path: str | os.PathLike[str]) -> Protection:
    """`FileGuard().protect_dir(path)`."""
    return THIS_MACHINE.protect_dir(path)


def ensure_private_dir(path: Path) -> Protection | None:
    """`FileGuard().ensure_private_dir(path)`: the call a module makes where it creates its dir."""
    return THIS_MACHINE.ensure_private_dir(path)


def inspect(path: str | os.PathLike[str]) -> Protection:
    """`FileGuard().inspect(path)`."""
    return THIS_MACHINE.inspect(path)
