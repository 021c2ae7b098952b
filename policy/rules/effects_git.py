"""git effects: settings that name a program (S-RULE-73), clean (S-RULE-67), work thrown away (S-RULE-83).

git is a file program (`effects_files.FILE_PROGRAMS`): its own options come first (`-C dir`,
`--work-tree dir`, `-c key=value`), then the subcommand. `-C` moves the working tree every path
below is relative to, so `git -C C:\\src\\app clean -fd` deletes below `C:\\src\\app`.
"""

from __future__ import annotations

import ntpath
import re
from collections.abc import Sequence

from policy.rules.effects_common import LANDED, RECURSIVE, Effects, argv_of, effect, lower, unquote
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value

K = EffectKind


# git settings whose value is a program git starts later, or a file of more settings (S-RULE-73):
# `core.sshCommand` runs at every fetch, `core.fsmonitor` at every status, an `alias.x` of `!cmd` when used.
_GIT_PROGRAM_SETTING = re.compile(
    r"(?:core\.(?:sshcommand|fsmonitor|hookspath|editor|pager|askpass|gitproxy)|sequence\.editor|diff\.external"
    r"|(?:diff|merge|filter|difftool|mergetool|browser|man|gpg)\.(?:.+\.)?(?:command|textconv|driver|clean|smudge"
    r"|process|cmd|program|path)|credential\.(?:.+\.)?helper|include\.path|includeif\..+\.path|pager\..+"
    r"|web\.browser|uploadpack\.packobjectshook|remote\..+\.(?:receivepack|uploadpack)|protocol\.(?:.+\.)?allow"
    r"|alias\..+)",
    re.IGNORECASE,
)
# Credential helpers git ships or Git for Windows installs, named without a path: not a program of the agent's.
_GIT_BUILTIN_HELPERS = frozenset(
    {"", "manager", "manager-core", "wincred", "store", "cache", "osxkeychain", "libsecret"}
)
# git's own options (before the subcommand) that take the next word (`-C` and `-c` alike in lower case).
_GIT_VALUED_OPTIONS = frozenset({"-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
# `git config` options that take the next word as their value (`--file x`, `--type bool`, …).
_GIT_CONFIG_VALUED = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value"})
# Options and subcommands that only read, remove or open an editor for a person: nothing is set.
_GIT_CONFIG_READS = frozenset(
    {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"}
    | {"--unset", "--unset-all", "--remove-section", "--rename-section", "-e", "--edit"}
    | {"get", "list", "unset", "remove-section", "rename-section", "edit"}
)


def _git_program_setting(key: str, value: str | None) -> bool:
    """Whether setting `key` to `value` makes git start a program (an alias only with `!`; a pager or a
    protocol switch not when turned off)."""
    if not _GIT_PROGRAM_SETTING.fullmatch(key):
        return False
    shown = (value or "").strip().strip("'\"").lower()
    if key.lower().startswith("alias."):
        return shown.startswith("!")
    if key.lower().startswith("credential.") and shown in _GIT_BUILTIN_HELPERS:
        return False
    if key.lower().startswith(("pager.", "protocol.")):
        return shown not in ("false", "no", "off", "0", "never")
    return True


# `url.<base>.insteadOf <prefix>`: every fetch, clone or push of an address starting with the prefix goes to the
# base instead (S-RULE-186): code pulled from github.com later comes from wherever the base points.
_INSTEAD_OF = re.compile(r"url\.(?P<base>.+)\.(?:insteadof|pushinsteadof)", re.IGNORECASE)
_GIT_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?(?:[^@/\s]+@)?(?P<host>[^:/\s]+)", re.IGNORECASE)


def _redirects_elsewhere(key: str, value: str | None) -> bool:
    """Whether a `url.<base>.insteadOf` setting sends addresses to another host (`git@github.com:` for
    `https://github.com/` is the same host by SSH: ordinary)."""
    found = _INSTEAD_OF.fullmatch(key)
    if found is None:
        return False
    base = _GIT_HOST.match(found.group("base").strip("'\""))
    prefix = _GIT_HOST.match((value or "").strip().strip("'\""))
    return base is None or prefix is None or base.group("host").lower() != prefix.group("host").lower()


def _git_setting(key: Value, value: Value, how: str) -> Effects:
    if key is None:
        return (effect(K.PERSISTENCE, None, f"{how} (a setting that is not constant)"),)
    if _redirects_elsewhere(key, value):
        return (effect(K.PERSISTENCE, key, f"{how} {key} (fetches of {value} go elsewhere)", data=value),)
    if not _git_program_setting(key, value):
        return ()
    return (effect(K.PERSISTENCE, key, f"{how} {key}", data=value),)


def _git_config(words: Sequence[Value]) -> Effects:
    """`git config [scope] [set] <key> <value>`: a setting that makes git start a program later."""
    positional: list[Value] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        text = lower(word)
        if text in _GIT_CONFIG_READS:
            return ()
        if text in _GIT_CONFIG_VALUED:
            skip = True
        elif word is None or not text.startswith("-"):
            positional.append(word)
    if positional and lower(positional[0]) == "set":
        positional = positional[1:]
    if len(positional) < 2:
        return ()  # `git config core.editor`: shows it
    return _git_setting(positional[0], positional[1], "git config")


def _git_dash_c(words: Sequence[Value]) -> Effects:
    """`git -c core.sshCommand=… fetch`: the setting holds for that one command, which may start it now."""
    found: list[Effect] = []
    for before, word in zip(words, words[1:], strict=False):
        if lower(before) == "-c":
            key, _, value = (word or "").partition("=")
            found += _git_setting(key if word is not None else None, value, "git -c")
    return tuple(found)


# What marks a WRITE as work thrown away (judge.py reads it): `git reset --hard`, `git checkout .` …
DISCARDS = ("discards", "uncommitted")


def _within(tree: Value, path: Value) -> Value:
    """`path` as git reads it below the working tree `tree` (`.` when none was given)."""
    if tree is None or path is None:
        return None
    return path if tree == "." else ntpath.join(tree, path)


def own_options(words: Sequence[Value]) -> tuple[Value, list[Value]]:
    """git's own options before the subcommand: the working tree they name (`-C`, `--work-tree`), and the
    words from the subcommand on. `-C` is case-sensitive: `-c` sets a setting for the one command."""
    tree: Value = "."
    rest = list(words)
    while rest and lower(rest[0]).startswith("-"):
        word = rest[0] or ""
        valued = lower(word) in _GIT_VALUED_OPTIONS
        value = (rest[1] if len(rest) > 1 else None) if valued else None
        if word == "-C":
            tree = value if tree == "." or value is None or ntpath.isabs(value) else _within(tree, value)
        elif lower(word) == "--work-tree":
            tree = value
        elif lower(word).startswith("--work-tree="):
            tree = word.split("=", 1)[1]
        rest = rest[2:] if valued else rest[1:]
    return tree, rest


# `git clone`'s options that take the next word.
_CLONE_VALUED = frozenset(
    {"-b", "--branch", "-o", "--origin", "--depth", "-c", "--config", "--reference", "--reference-if-able"}
    | {"--separate-git-dir", "-u", "--upload-pack", "--template", "-j", "--jobs", "--filter", "--shallow-since"}
    | {"--shallow-exclude", "--bundle-uri", "--server-option"}
)


def _clone(tree: Value, words: Sequence[Value]) -> Effects:
    """`git clone REPO [DIR]` fills DIR (by default the repository's name, in the working tree) with files
    nobody can name: a clone into `~\\Documents\\WindowsPowerShell` is a profile (S-RULE-148)."""
    operands: list[Value] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word is not None and unquote(word).startswith("-"):
            skip = lower(word) in _CLONE_VALUED
        else:
            operands.append(word)
    if not operands:
        return ()
    if len(operands) > 1:
        folder = operands[1]
    else:  # `https://h/u/dots.git`, `git@h:u/dots`, `C:\r\dots` → `dots`
        last = re.split(r"[\\/:]", unquote(operands[0]).rstrip("\\/"))[-1] if operands[0] is not None else ""
        folder = last.removesuffix(".git") or None
    folder = _within(tree, folder) if folder is None or not ntpath.isabs(unquote(folder)) else folder
    return (effect(K.WRITE, folder, "git clone", extra=(*RECURSIVE, *LANDED)),)


def _clean(tree: Value, words: Sequence[Value]) -> Effects:
    """`git clean -f` with `-d`, `-x` or `-X` deletes every untracked (or ignored) file and folder below
    the paths it is given, as `Remove-Item -Recurse` of them would (S-RULE-67)."""
    argv = argv_of(Operation(shell="program", name="git", args=tuple(words)))
    short = "".join(w[1:] for w in argv.lowered() if w.startswith("-") and not w.startswith("--"))
    if not (("f" in short or argv.flag("force")) and ("d" in short or "x" in short)):
        return ()
    paths = [w for w in argv.positionals() if w != "--"] or ["."]
    return tuple(effect(K.DELETE_RECURSIVE, _within(tree, p) if p != "." else tree, "git clean -fd") for p in paths)


def _whole_tree(pathspec: Value) -> bool:
    """A pathspec that names a folder's every file rather than one file: `.`, `..`, `:/` and other magic
    (`:!x` keeps all but x), a wildcard, a path ending in a separator; not constant counts too."""
    if pathspec is None:
        return True
    text = pathspec.strip().strip("'\"")
    if not text or text[0] == ":" or any(c in text for c in "*?[") or text[-1] in "\\/":
        return True
    return all(part in (".", "..", "") for part in re.split(r"[\\/]", text))


# Options of checkout/restore that take the next word (`-b name`, `--source HEAD~1`); case-sensitive.
_TAKES_WORD = frozenset({"-b", "-B", "--orphan", "-s", "--source", "--conflict", "--pathspec-from-file"})


def _pathspecs(words: Sequence[Value]) -> tuple[list[Value], list[Value], set[str]]:
    """A checkout's or restore's words: those before `--`, those after it, and the option letters and
    long names given (`-SW` → S, W)."""
    before: list[Value] = []
    after: list[Value] = []
    flags: set[str] = set()
    skip = dashes = False
    for word in words:
        if skip:
            skip = False
        elif dashes:
            after.append(word)
        elif word == "--":
            dashes = True
        elif word is not None and word.startswith("--"):
            flags.add(word.split("=", 1)[0].lower())
            skip = word in _TAKES_WORD
        elif word is not None and word.startswith("-") and len(word) > 1:
            flags.update(word[1:])
            skip = word in _TAKES_WORD
        else:
            before.append(word)
    return before, after, flags


def _thrown_away(sub: str, words: Sequence[Value]) -> str | None:
    """The phrase for a git command that overwrites uncommitted changes of many files at once (S-RULE-83),
    or None: `reset --hard`; `checkout`/`restore` of a whole-tree pathspec, `checkout -f`; `switch -f`
    or `--discard-changes`; `stash clear` (every stash). One named file and `restore --staged` (the
    index only) are not."""
    lowered = [lower(w) for w in words]
    if sub == "reset":
        return "git reset --hard" if "--hard" in lowered else None
    if sub == "stash":
        return "git stash clear" if lowered[:1] == ["clear"] else None
    if sub not in ("checkout", "restore", "switch"):
        return None
    before, after, flags = _pathspecs(words)
    if sub == "switch":
        forced = "f" in flags or flags & {"--force", "--discard-changes"}
        return "git switch --discard-changes" if forced else None
    if sub == "checkout" and ("f" in flags or "--force" in flags):
        return "git checkout --force"
    if sub == "restore" and ("S" in flags or "--staged" in flags) and not ("W" in flags or "--worktree" in flags):
        return None  # the index only: the files keep their changes
    # Before `--` a checkout's word may be a branch (git refuses to overwrite changes to switch): a
    # variable there is a branch; a branch name cannot hold `.`-only, `:`, a wildcard or a trailing slash.
    named = [w for w in before if w is not None or sub == "restore"] + after  # restore takes only paths
    if any(_whole_tree(w) for w in named):
        return f"git {sub} of a whole folder"
    return None


# A remote spelled as an address, not a configured remote's name: a URL, `user@host:path`, a share (S-RULE-121).
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[^\s/\\@]+@[^\s/\\:]+:|\\\\|//)", re.IGNORECASE)


def _push(tree: Value, words: Sequence[Value]) -> Effects:
    """`git push <url> …` sends the repository's commits to a machine no configured remote names: an upload of
    the working tree's repository (S-RULE-121). A push to a remote by name (`origin`) is the person's set-up."""
    remote = next((w for w in words if w is None or not w.startswith("-")), None)
    if remote is None or not _ADDRESS.match(remote):
        return ()
    return (effect(K.UPLOAD, tree, "git push to an address"),)


def pushed_to_added_remote(ops: Sequence[Operation]) -> Effects:
    """`git remote add evil <url>; git push evil`: a push to a remote the same command added (or re-pointed
    with `set-url`) is a push to that address (S-RULE-121)."""
    added: set[str] = set()
    out: list[Effect] = []
    for op in ops:
        if op.shell not in ("program", "cmd") or lower(op.name).removesuffix(".exe") != "git":
            continue
        tree, rest = own_options(argv_of(op).words)
        words = [lower(w) for w in rest]
        if words[:2] in (["remote", "add"], ["remote", "set-url"]) and len(words) >= 4:
            added.add(words[-2])
        elif words[:1] == ["push"]:
            remote = next((w for w in words[1:] if not w.startswith("-")), None)
            if remote in added:
                out.append(effect(K.UPLOAD, tree, "git push to a remote added just before"))
    return tuple(out)


def git_effects(op: Operation) -> Effects:
    """What a git command does to this machine: a setting that makes git start a program later
    (`git config`, `git -c`: persistence, S-RULE-73); `git clean -f` with `-d`/`-x`/`-X` (a recursive
    delete, S-RULE-67); a command that throws away the uncommitted changes of many files (a WRITE of the
    working tree marked `DISCARDS`, S-RULE-83). Other git commands: nothing.

    Args:
        op: the `git` program operation.

    Returns:
        Its effects.
    """
    argv = argv_of(op)
    own = _git_dash_c(argv.words)
    tree, rest = own_options(argv.words)
    if not rest:
        return own
    sub, words = lower(rest[0]), rest[1:]
    if sub == "config":
        return own + _git_config(words)
    if sub == "clean":
        return own + _clean(tree, words)
    if sub == "push":
        return own + _push(tree, words)
    if sub == "clone":
        return own + _clone(tree, words)
    phrase = _thrown_away(sub, words)
    if phrase is None:
        return own
    return (*own, effect(K.WRITE, tree, phrase, extra=(DISCARDS,)))
