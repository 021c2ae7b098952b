"""Self-protection (S-RULE-10): a call that names the gateway's own files is denied.

The gateway's state dir, config, audit files and STOP file are off limits to the agent,
so it cannot lift its own guard. Paths are compared on a canonical form (case, `\\` vs
`/`, `.`/`..`, `\\?\\`, and the home-directory spellings of PowerShell and cmd). Like the
command rules this is a tripwire: variables and string building get through.
`RuleSet.match` checks it before every other rule, and no `allow_rules` entry exempts it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from policy.decision import RuleHit
from policy.rules.args import app_arguments, mode_of, value_text
from policy.rules.normalize import expand, fold

SELF_PROTECTION_ID = "self-protection"
# The gateway's own environment variables (DESIGN.md §8) name its state and config.
_OWN_ENV_NAMES = re.compile(r"winmcp_gateway_(?:state_dir|config)\b")
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


def _protected_forms(paths: Sequence[str]) -> list[tuple[str, str]]:
    forms: list[tuple[str, str]] = []
    for original in paths:
        canon = _canonical(str(original)).strip("'\" ").rstrip("/")
        if not canon:
            continue
        forms.append((str(original), canon))
        home = _HOME.match(canon)
        if home:  # C:/Users/me/AppData/… is also ~/AppData/…, $env:LOCALAPPDATA/…, %APPDATA%…
            forms.append((str(original), "~" + canon[home.end() :]))
    return forms


def _path_candidate(value: object) -> str:
    # FileSystem resolves relative paths from the user's Desktop (FORMATS.md §8).
    p = _canonical(str(value)).strip("'\" ")
    if p and not re.match(r"^(?:[a-z]:|/|~|\$|%|\\\\)", p):
        p = _canonical("~/desktop/" + p)
    return p.rstrip("/")


def _names_in_text(text: str, form: str) -> bool:
    return re.search(r"(?<![\w.-])" + re.escape(form) + r"(?![\w.-])", text) is not None


def protected_hit(tool: str, args: Mapping[str, object], protected_paths: Sequence[str]) -> RuleHit | None:
    """A `self-protection` hit when a call names the gateway's own files (S-RULE-10).

    Checked: FileSystem `path`/`destination` (relative paths resolve from the Desktop, as
    upstream does; a delete or move of a parent directory counts), PowerShell `command`
    (every `expand` layer), App `executable`/`cwd` (as paths) and `args` (as text).
    Comparison is on a canonical form: case-insensitive, `\\` → `/`, no trailing slash,
    `.`/`..` resolved, `\\?\\` dropped, and the home forms `~`, `$HOME`,
    `$env:USERPROFILE`, `%USERPROFILE%`, `$env:LOCALAPPDATA`, `%APPDATA%`, `$env:TEMP` …
    mapped onto `C:/Users/<name>`. Mentioning `WINMCP_GATEWAY_STATE_DIR`/`…_CONFIG` counts too.
    Variables and string building get through (a tripwire).

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
    elif tool == "PowerShell" and args.get("command") is not None:
        texts = expand(value_text(args["command"]))
    elif tool == "App":
        paths = [_canonical(str(args[k])).rstrip("/") for k in ("executable", "cwd") if args.get(k) is not None]
        arguments = app_arguments(args.get("args"))
        texts = [fold(" ".join(arguments)), *(fold(a) for a in arguments)] if arguments else []
    texts = [_canonical(t) for t in texts]
    ancestors_count = tool == "FileSystem" and mode_of(args) in ("delete", "move")
    for original, form in forms:
        for p in paths:
            inside = p == form or p.startswith(form + "/")
            if inside or (ancestors_count and p and form.startswith(p + "/")):
                return _self_protection(original)
        if any(_names_in_text(t, form) for t in texts):
            return _self_protection(original)
    if any(_OWN_ENV_NAMES.search(t) for t in texts):
        return _self_protection("WINMCP_GATEWAY_STATE_DIR / WINMCP_GATEWAY_CONFIG")
    return None


def _self_protection(named: str) -> RuleHit:
    return RuleHit(
        rule_id=SELF_PROTECTION_ID,
        action="deny",
        risk="self-protection",
        reason=f"The call names the gateway's own files ({named}). Its state directory, config, audit "
        "log and STOP file are off limits to the agent, so it cannot lift its own guard. "
        "Work on other paths.",
    )
