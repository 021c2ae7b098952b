"""Self-protection (S-RULE-10, S-SELF-01..03): a call that names the gateway's own files or settings is denied.

The gateway's state dir, config, audit files and STOP file are off limits to the agent,
so it cannot lift its own guard. Paths are compared on a canonical form (case, `\\` vs
`/`, `.`/`..`, `\\?\\`, and the home-directory spellings of PowerShell and cmd). Like the
command rules this is a tripwire: variables and string building get through.
`RuleSet.match` checks it before every other rule, and no `allow_rules` entry exempts it.

This is the text half; the effect table (`judge.py`, row `self-protection`) judges every
path by its canonical place. Two things only text shows are caught here as well:

- the gateway's settings: a command or App argument that names any `WINMCP_GATEWAY_*`
  variable (`setx`, `[Environment]::SetEnvironmentVariable`, `$env:…` on its way into a
  profile, `reg add HKCU\\Environment /v …`, `Set-Item Env:…`) — the whole namespace
  configures the gateway at its next start (issue 12 item 1);
- PowerShell's `$PROFILE` (and its `.CurrentUserAllHosts` … members), which the analysers
  cannot fold: the command is judged again with the profile's standard path in its place,
  so `Add-Content $PROFILE …` meets the effect table's `shell-profile` row.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

from policy.decision import RuleHit
from policy.rules.args import app_arguments, mode_of, value_text
from policy.rules.command import SELF_PROTECTION_ID as SELF_PROTECTION_ID  # defined there (no import cycle)
from policy.rules.command import judge_call
from policy.rules.judge import judge
from policy.rules.normalize import expand, fold
from policy.rules.place_table import MCP_CLIENT_FILES
from policy.rules.shell.dispatch import script_shell
from policy.rules.shell.ops import Effect, EffectKind
from policy.rules.shell.winenv import STANDARD_ENV

# The gateway's own environment variables (DESIGN.md §8): every one of them is a config key for
# the next start (`WINMCP_GATEWAY_ENFORCE`), or names its state or config (S-SELF-02).
_OWN_ENV_NAMES = re.compile(r"(?<![\w])winmcp_gateway_\w+")
_ENV_FORMS: tuple[tuple[str, str], ...] = (
    (r"\$\{env:(\w+)\}", r"$env:\1"),
    (r"%homedrive%%homepath%|\$env:homedrive\$env:homepath", "~"),
    (r"\$env:userprofile|%userprofile%|\$home(?![\w])", "~"),
    (r"\$env:localappdata|%localappdata%", "~/appdata/local"),
    (r"\$env:appdata|%appdata%", "~/appdata/roaming"),
    (r"\$env:te?mp|%te?mp%", "~/appdata/local/temp"),
    (r"\$env:programdata|%programdata%|\$env:allusersprofile|%allusersprofile%", "c:/programdata"),
)
_HOME = re.compile(r"^(?:[a-z]:/users|/home|/users)/[^/]+(?=/|$)")
_DOT_DOT = re.compile(r"/(?!\.\.(?:/|$))[^/]+/\.\.(?=/|$)")


def _canonical(text: str) -> str:
    t = fold(text)
    for pattern, replacement in _ENV_FORMS:
        t = re.sub(pattern, replacement, t)
    t = re.sub(r"(?<!^)(?<!:)/{2,}", "/", t.replace("//?/", "").replace("//./", "").replace("file:///", ""))
    t = re.sub(r"/\.(?=/|$)", "", t)
    previous = None
    while previous != t:
        previous, t = t, _DOT_DOT.sub("", t, count=1)
    return t


def _protected_forms(paths: Sequence[str]) -> tuple[tuple[str, str], ...]:
    # The gateway's paths are the same on every call of a process: canonicalise them once (issue 13).
    return _forms_of(tuple(str(p) for p in paths))


@functools.lru_cache(maxsize=16)
def _forms_of(paths: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    forms: list[tuple[str, str]] = []
    for original in paths:
        canon = _canonical(str(original)).strip("'\" ").rstrip("/")
        if not canon:
            continue
        forms.append((str(original), canon))
        home = _HOME.match(canon)
        if home:  # C:/Users/me/AppData/… is also ~/AppData/…, $env:LOCALAPPDATA/…, %APPDATA%…
            forms.append((str(original), "~" + canon[home.end() :]))
    return tuple(forms)


def _path_candidate(value: object) -> str:
    # FileSystem resolves relative paths from the user's Desktop (FORMATS.md §8).
    p = _canonical(str(value)).strip("'\" ")
    if p and not re.match(r"^(?:[a-z]:|/|~|\$|%|\\\\)", p):
        p = _canonical("~/desktop/" + p)
    return p.rstrip("/")


# A command name of the gateway's also names it as the program file Windows runs (`winmcp-gateway.exe`,
# the console script pip installs) and, for `-m gateway`, as any module below the package
# (`python -m gateway.__main__ approve …` runs the same command line).
_PROGRAM_SUFFIX = r"(?:\.(?:exe|com|cmd|bat|ps1|pyw?))?"
_SUBMODULE = r"(?:\.[\w.]+)?"
# The package's entry file run by path (`python …\site-packages\gateway\__main__.py approve …`).
_MAIN_FILE = re.compile(r"(?<![\w.-])gateway/__main__\.pyw?(?![\w.-])")


# pip reads a project name with any run of `-`, `_`, `.` between its words (`WinMCP.Gateway` is `winmcp-gateway`,
# PEP 503), and a wheel or sdist file starts with the name and `-<version>` (`winmcp_gateway-9.9-py3-none-any.whl`):
# installed with --force-reinstall, the next start would run the agent's copy.
_NAME_SEPARATOR = r"[-_.]+"
_DISTRIBUTION_FILE = r"(?=-\d)"


def _names_in_text(text: str, form: str) -> bool:
    if "/" in form:
        return re.search(r"(?<![\w.-])" + re.escape(form) + r"(?![\w.-])", text) is not None
    if form.startswith("-m "):
        return re.search(r"(?<![\w.-])" + re.escape(form) + _SUBMODULE + r"(?![\w.-])", text) is not None
    name = _NAME_SEPARATOR.join(re.escape(word) for word in re.split(_NAME_SEPARATOR, form))
    ending = r"(?:(?![\w.-])|" + _DISTRIBUTION_FILE + ")"
    return re.search(r"(?<![\w.-])" + name + _PROGRAM_SUFFIX + ending, text) is not None


def protected_hit(tool: str, args: Mapping[str, object], protected_paths: Sequence[str]) -> RuleHit | None:
    """A `self-protection` hit when a call names the gateway's own files (S-RULE-10).

    Checked: FileSystem `path`/`destination` (relative paths resolve from the Desktop, as
    upstream does; a delete or move of a parent directory counts) and the `content` of a script it
    writes (`.bat`, `.cmd`, `.ps1`: S-RULE-28), PowerShell `command`
    (every `expand` layer), App `executable`/`cwd` (as paths) and `args` (as text).
    Comparison is on a canonical form: case-insensitive, `\\` → `/`, no trailing slash,
    `.`/`..` resolved, `\\?\\` dropped, and the home forms `~`, `$HOME`,
    `$env:USERPROFILE`, `%USERPROFILE%`, `$env:LOCALAPPDATA`, `%APPDATA%`, `$env:TEMP` …
    mapped onto `C:/Users/<name>`. Naming any `WINMCP_GATEWAY_*` variable counts too (S-SELF-02),
    and so does a PowerShell command that changes `$PROFILE` (judged with the profile's path
    in its place, S-SELF-03). Variables and string building get through (a tripwire).

    Args:
        tool: the tool name.
        args: the call's arguments.
        protected_paths: absolute paths of the state dir, config file, audit files and STOP file.

    Returns:
        A deny hit with rule_id `self-protection`, or None.
    """
    forms = _protected_forms(protected_paths)
    texts: list[str] = []
    paths: list[str] = []
    if tool == "FileSystem":
        paths = [_path_candidate(args[k]) for k in ("path", "destination") if args.get(k) is not None]
        content = args.get("content")
        if mode_of(args) == "write" and isinstance(content, str) and script_shell(args.get("path")) is not None:
            texts = expand(content)  # a script written now runs later: what it would run is judged now
    elif tool == "PowerShell" and args.get("command") is not None:
        texts = expand(value_text(args["command"]))
    elif tool == "App":
        paths = [_canonical(str(args[k])).rstrip("/") for k in ("executable", "cwd") if args.get(k) is not None]
        arguments = app_arguments(args.get("args"))
        texts = [fold(" ".join(arguments)), *(fold(a) for a in arguments)] if arguments else []
        # the program started is named too: `executable` may be the gateway's own command line
        texts += [fold(str(args[k])) for k in ("executable", "name") if isinstance(args.get(k), str)]
    texts = [_canonical(t) for t in texts]
    ancestors_count = tool == "FileSystem" and mode_of(args) in ("delete", "move")
    for original, form in forms:
        for p in paths:
            inside = p == form or p.startswith(form + "/")
            if inside or (ancestors_count and p and form.startswith(p + "/")):
                return _self_protection(original)
        if any(_names_in_text(t, form) for t in texts):
            return _self_protection(original)
    if forms and any(_MAIN_FILE.search(t) for t in texts):
        return _self_protection("gateway/__main__.py")
    if forms:
        guarded = _guarded_file_named(tool, args, texts)
        if guarded is not None:
            return _guarded_file_hit(guarded)
    for t in texts:
        setting = _OWN_ENV_NAMES.search(t)
        if setting:
            return _own_setting(setting.group().upper())
    return _profile_hit(tool, args, protected_paths)


# The files that tell an MCP client which tool servers to start (place_table's one list, user and
# project files), named by their file part. Rewritten, the client's next start could run Windows-MCP
# with no gateway in front of it.
def _named_file(file: str) -> str:
    """The pattern of a file part in folded text: `/` between folders, `*` any run of name characters."""
    return r"[^/\s'\"]*".join(re.escape(part) for part in fold(file).split("*"))


_CLIENT_CONFIG = "(?:" + "|".join(dict.fromkeys(_named_file(file) for _, file in MCP_CLIENT_FILES)) + ")"
# Python runs these at every start, in every program, the gateway included: `sitecustomize.py`,
# `usercustomize.py`, and a `.pth` file's `import` lines in a site-packages folder.
_PYTHON_STARTUP = r"(?:(?:site|user)customize\.py|site-packages/[^/\s'\"]+\.pth)"
# Windows-MCP's own code (S-RULE-201): its package in any Python environment (a uv tool's, uv's cache, a venv),
# a uv tool's whole folder, its launcher, and a wheel or sdist of it (installed, it replaces the package). The
# gateway trusts what each upstream tool does: rewritten, a harmless-looking tool (`Snapshot`) could run anything,
# and the change would outlive the session.
_UPSTREAM_CODE = (
    r"(?:(?:site-packages|archive-v0/[^/\s'\"]+)/windows_mcp|uv/tools/windows-mcp)(?:/[^\s'\"]*)?"
    r"|(?:bin|scripts)/windows-mcp\.exe"  # its launcher in a folder (`/im windows-mcp.exe` names a process)
    r"|windows[-_.]mcp-\d[^/\s'\"]*\.(?:whl|tar\.gz|zip)"  # a build of it to install over it
)
_GUARDED_FILE = r"(?:" + _CLIENT_CONFIG + "|" + _PYTHON_STARTUP + "|" + _UPSTREAM_CODE + r")"
_GUARDED_FILE_PATH = re.compile(r"(?:^|/)" + _GUARDED_FILE + r"$")
_GUARDED_FILE_TEXT = re.compile(r"(?:(?<=[/\s'\"=,(])|^)" + _GUARDED_FILE + r"(?![\w.-])")
# FileSystem modes that change the file at `path` (copy changes only its destination).
_CHANGES_PATH = frozenset({"write", "delete", "move"})


def _guarded_file_named(tool: str, args: Mapping[str, object], texts: Sequence[str]) -> str | None:
    """The guarded file a call would change — an MCP client's server list or a Python start-up file: a
    FileSystem write, delete or move of one (or a copy or move onto one), or any mention in a PowerShell
    command or App arguments (which may write it)."""
    if tool == "FileSystem":
        keys = ("path", "destination") if mode_of(args) in _CHANGES_PATH else ("destination",)
        for key in keys:
            value = args.get(key)
            if isinstance(value, str):
                found = _GUARDED_FILE_PATH.search(_path_candidate(value))
                if found:
                    return found.group().lstrip("/")
        return None
    for t in texts:
        found = _GUARDED_FILE_TEXT.search(t)
        if found:
            return found.group()
    return None


def _deny(reason: str) -> RuleHit:
    """A `self-protection` refusal with `reason` (it ends in what to do instead)."""
    return RuleHit(rule_id=SELF_PROTECTION_ID, action="deny", risk="self-protection", reason=reason)


def _guarded_file_hit(named: str) -> RuleHit:
    if re.fullmatch(_UPSTREAM_CODE, named):
        return _deny(
            f"The call would change or name Windows-MCP's own code ({named}): the gateway judges each call "
            "by what that tool does, and a rewritten tool could do anything under a harmless name, at every later "
            "start too. Instead, ask the user to update or repair Windows-MCP."
        )
    if re.fullmatch(_PYTHON_STARTUP, named):
        return _deny(
            f"The call would change or name a file Python runs at every start ({named}), in every Python "
            "program, the gateway included: its next start would run code the agent wrote. Instead, read it with "
            "FileSystem `read` and ask the user to change it."
        )
    return _deny(
        f"The call would change or name an AI client's tool-server configuration ({named}): rewritten, "
        "the client's next start could reach Windows-MCP with no gateway in front of it, so it is off limits "
        "to the agent. Instead, read it with FileSystem `read` and ask the user to change it."
    )


def _self_protection(named: str) -> RuleHit:
    return _deny(
        f"The call names the gateway's own files ({named}). Its state directory, config, audit "
        "log and STOP file are off limits to the agent, so it cannot lift its own guard. "
        "Work on other paths."
    )


def _own_setting(name: str) -> RuleHit:
    return _deny(
        f"The call names the gateway's own settings ({name}): WINMCP_GATEWAY_* variables configure "
        "the gateway at its next start and are off limits to the agent, so it cannot lift its own guard. "
        "Instead, ask the user to change settings; `Get-ChildItem Env:` lists the current values."
    )


# ---------------------------------------------------------------------------------------
# $PROFILE (S-SELF-03)

# `$PROFILE`, `${PROFILE}`, `$global:PROFILE`, with one of its four members or none (= CurrentUserCurrentHost).
_PROFILE_VARIABLE = re.compile(
    r"\$(?:\{(?:global:)?profile\}|(?:global:)?profile(?![\w:]))"
    r"(?:\.(allusersallhosts|alluserscurrenthost|currentuserallhosts|currentusercurrenthost)(?!\w))?",
    re.IGNORECASE,
)
_HOST_PROFILE = "Microsoft.PowerShell_profile.ps1"
# (documents folder, $PSHOME) of Windows PowerShell 5.1 and of PowerShell 7: the host is unknown, so both.
_EDITIONS = (
    ("WindowsPowerShell", STANDARD_ENV["PSHOME"]),
    ("PowerShell", STANDARD_ENV["PROGRAMFILES"] + "\\PowerShell\\7"),
)


def _profile_path(member: str | None, documents: str, pshome: str) -> str:
    user = STANDARD_ENV["USERPROFILE"] + "\\Documents\\" + documents
    return {
        "allusersallhosts": pshome + "\\profile.ps1",
        "alluserscurrenthost": pshome + "\\" + _HOST_PROFILE,
        "currentuserallhosts": user + "\\profile.ps1",
    }.get((member or "").lower(), user + "\\" + _HOST_PROFILE)


def _string_mask(text: str) -> bytes:
    """For each character of `text`, 1 when it is inside a quoted PowerShell string (`'…'`, `"…"`;
    doubled quotes and backtick escapes kept). One pass; a rough scan — a miss only leaves the
    command to the other rules."""
    mask = bytearray(len(text))
    quote: str | None = None
    escaped = False
    for i, ch in enumerate(text):
        if quote is not None:
            mask[i] = 1
        if escaped:
            escaped = False
        elif quote == '"' and ch == "`":
            escaped = True
        elif quote is None and ch in "'\"":
            quote = ch
        elif ch == quote:
            quote = None
    return bytes(mask)


def with_profile_paths(text: str, documents: str, pshome: str) -> str:
    """`text` with each `$PROFILE` spelled as the standard path of the profile it names.

    Args:
        text: a PowerShell command.
        documents: the profile's folder under Documents (`WindowsPowerShell` or `PowerShell`).
        pshome: the edition's `$PSHOME` (the all-users profiles).

    Returns:
        The command, the path single-quoted where it stands as a value and bare inside a string.
    """

    mask = _string_mask(text)

    def spelled(m: re.Match[str]) -> str:
        path = _profile_path(m.group(1), documents, pshome)
        return path if mask[m.start()] else "'" + path + "'"

    return _PROFILE_VARIABLE.sub(spelled, text)


# A redirection (`>`, `>>`, `2>`, `*>`) and its target. The analysers see redirections of commands
# (`echo x > f`) but not of a bare value (`'x' >> f`), so for the guard's own places they are read here.
_REDIRECT = re.compile(r"(?<![<>=\-\w])(?:\*|\d)?>>?\s*(?:'([^']*)'|\"([^\"]*)\"|([^\s;|&)(\"']+))")


def _redirect_hit(text: str, gateway_paths: Sequence[str]) -> RuleHit | None:
    mask = _string_mask(text)
    for m in _REDIRECT.finditer(text):
        target = next((g for g in m.groups() if g is not None), "")
        if not target or mask[m.start()]:
            continue
        hit = judge(Effect(kind=EffectKind.WRITE, target=target, detail="redirect >"), gateway_paths=gateway_paths)
        if hit is not None and hit.rule_id == SELF_PROTECTION_ID:
            return hit
    return None


def _profile_hit(tool: str, args: Mapping[str, object], protected_paths: Sequence[str]) -> RuleHit | None:
    # The analysers leave `$PROFILE` unknown (a dynamic target, an ask); with its path in its place
    # the effect table sees the profile and its `self-protection` row denies a change to it.
    key = {"PowerShell": "command", "App": "args"}.get(tool)
    if key is None or args.get(key) is None:
        return None
    raw = args[key]
    gateway_paths = tuple(p for p in protected_paths if p[1:3] in (":\\", ":/") or p.startswith(("/", "\\")))
    text = value_text(raw)
    if ">" in text:
        for documents, pshome in _EDITIONS:
            hit = _redirect_hit(with_profile_paths(text, documents, pshome), gateway_paths)
            if hit is not None:
                return hit
    if not _PROFILE_VARIABLE.search(text):
        return None
    for documents, pshome in _EDITIONS:
        if isinstance(raw, str):
            spelled: object = with_profile_paths(raw, documents, pshome)
        elif isinstance(raw, list | tuple):
            spelled = [with_profile_paths(a, documents, pshome) if isinstance(a, str) else a for a in raw]
        else:
            return None
        judged = judge_call(tool, {**args, key: spelled}, gateway_paths=gateway_paths)
        hit = next((h for h in judged.hits if h.rule_id == SELF_PROTECTION_ID and h.action == "deny"), None)
        if hit is not None:
            return hit
    return None
